; Rust: definitions, scopes, references, `mod`/`use` and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py.

; ---------------------------------------------------------------- Definitions

(function_item
  name: (identifier) @name
  type_parameters: (_)? @definition.generics
  parameters: (_) @definition.params
  return_type: (_)? @definition.returns
  body: (_) @definition.body) @definition.function
(function_signature_item
  name: (identifier) @name
  parameters: (_) @definition.params
  return_type: (_)? @definition.returns) @definition.function @declaration

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name body: (_) @definition.body) @definition.enum
(enum_variant name: (identifier) @name) @definition.enum_member
(trait_item name: (type_identifier) @name body: (_) @definition.body) @definition.trait
(trait_item name: (type_identifier) @name bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @definition.extends)) @definition.trait
(type_item name: (type_identifier) @name type: (_) @definition.type) @definition.type_alias

; `impl Type { … }` / `impl Trait for Type { … }`: the block's functions are Type's members.
(impl_item
  type: [(type_identifier) @name @definition.qualifier
         (generic_type type: (type_identifier) @name @definition.qualifier)]
  body: (_) @definition.body) @definition.impl
(impl_item
  trait: [(type_identifier) (scoped_type_identifier) (generic_type)] @definition.implements
  type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @definition.impl

(field_declaration name: (field_identifier) @name type: (_) @definition.type) @definition.field

(mod_item name: (identifier) @name body: (_) @definition.body) @definition.module
(const_item name: (identifier) @name type: (_) @definition.type value: (_)? @definition.value) @definition.constant
(static_item name: (identifier) @name type: (_) @definition.type value: (_)? @definition.value) @definition.variable
(macro_definition name: (identifier) @name) @definition.macro

(let_declaration pattern: (identifier) @name type: (_)? @definition.type value: (_)? @definition.value) @definition.variable
(let_declaration pattern: (mut_pattern (identifier) @name) type: (_)? @definition.type value: (_)? @definition.value) @definition.variable
(let_declaration pattern: (tuple_pattern (identifier) @name @definition.variable))
(for_expression pattern: (identifier) @name @definition.variable)
(closure_parameters (identifier) @name @definition.parameter)
(parameter pattern: (identifier) @name type: (_) @definition.type) @definition.parameter
(parameter pattern: (mut_pattern (identifier) @name) type: (_) @definition.type) @definition.parameter
(self_parameter (self) @name) @definition.parameter
(type_parameters (type_parameter name: (type_identifier) @name) @definition.parameter)
(let_condition pattern: (identifier) @name @definition.variable)
(tuple_struct_pattern type: (_) (identifier) @name @definition.variable)
(tuple_pattern (identifier) @name @definition.variable)

; `pub` items are exported.
((function_item (visibility_modifier)) @exported.owner)
((struct_item (visibility_modifier)) @exported.owner)
((enum_item (visibility_modifier)) @exported.owner)
((trait_item (visibility_modifier)) @exported.owner)
((type_item (visibility_modifier)) @exported.owner)
((const_item (visibility_modifier)) @exported.owner)
((static_item (visibility_modifier)) @exported.owner)
((mod_item (visibility_modifier)) @exported.owner)
((field_declaration (visibility_modifier)) @exported.owner)
(macro_definition) @exported.owner

[(line_comment) (block_comment)] @comment

; ---------------------------------------------------------------- Scopes

[(function_item) (closure_expression)] @scope.function
[(impl_item) (trait_item)] @scope.class
(struct_item body: (_)) @scope.class
(enum_item) @scope.class
(mod_item body: (_)) @scope
[(block) (for_expression) (match_arm) (if_expression)] @scope

; ---------------------------------------------------------------- References

(identifier) @reference
(type_identifier) @reference.type
(self) @reference

(field_expression value: (_) @receiver field: (field_identifier) @reference) @reference.expression
(scoped_identifier path: (_) @receiver name: (identifier) @reference) @reference.expression
(scoped_type_identifier path: (_) @receiver name: (type_identifier) @reference) @reference.expression

; Inside macro arguments (`println!("{}", c.area())`) only tokens exist: `a.b` is read as a member.
(token_tree (identifier) @receiver . "." . (identifier) @reference)

(assignment_expression left: (identifier) @reference.write)
(assignment_expression left: (field_expression field: (field_identifier) @reference.write))
(compound_assignment_expr left: (identifier) @reference.write)

; A struct literal's keys name fields.
(field_initializer field: (field_identifier) @ignore)

; ---------------------------------------------------------------- Calls

(call_expression function: (_) @call.callee) @call
(macro_invocation macro: (_) @call.callee) @call
; Inside macro arguments a name followed by a parenthesised token tree is a call:
; `println!("{}", rounded(x))`, `format!("{}", self.area())`.
(token_tree (identifier) @call.callee . (token_tree . "(") @call)
(struct_expression name: [(type_identifier) (scoped_type_identifier)] @call.callee) @call @call.new

; ---------------------------------------------------------------- Imports

; `mod name;` binds the child module's file.
(mod_item !body name: (identifier) @import.module @import.alias) @import

; use a::b::Name;  use a::b::Name as N;  use a::b::{X, Y as Z};  use a::b::*;
(use_declaration argument: (scoped_identifier path: (_) @import.module name: (identifier) @import.name)) @import
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.module name: (identifier) @import.name) alias: (identifier) @import.alias)) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (identifier) @import.name))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (self) @import.name))) @import
(use_declaration argument: (use_wildcard (_) @import.module) @import.star) @import
