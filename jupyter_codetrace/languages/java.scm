; Java: definitions, scopes, references, imports and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py.

; ---------------------------------------------------------------- Definitions

(class_declaration name: (identifier) @name body: (_) @definition.body) @definition.class
(class_declaration name: (identifier) @name superclass: (superclass (_) @definition.extends)) @definition.class
(class_declaration name: (identifier) @name interfaces: (super_interfaces (type_list (_) @definition.implements))) @definition.class
(interface_declaration name: (identifier) @name body: (_) @definition.body) @definition.interface
(interface_declaration name: (identifier) @name (extends_interfaces (type_list (_) @definition.extends))) @definition.interface
(enum_declaration name: (identifier) @name body: (_) @definition.body) @definition.enum
(enum_declaration name: (identifier) @name interfaces: (super_interfaces (type_list (_) @definition.implements))) @definition.enum
(enum_constant name: (identifier) @name) @definition.enum_member
(record_declaration name: (identifier) @name parameters: (_) @definition.params body: (_) @definition.body) @definition.class
(record_declaration name: (identifier) @name interfaces: (super_interfaces (type_list (_) @definition.implements))) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface

(method_declaration
  type: (_) @definition.returns
  name: (identifier) @name
  parameters: (_) @definition.params
  body: (_) @definition.body) @definition.method
(method_declaration
  type: (_) @definition.returns
  name: (identifier) @name
  parameters: (_) @definition.params
  !body) @definition.method @declaration
(constructor_declaration name: (identifier) @name parameters: (_) @definition.params body: (_) @definition.body) @definition.constructor
(compact_constructor_declaration name: (identifier) @name body: (_) @definition.body) @definition.constructor

(field_declaration type: (_) @definition.type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @definition.value)) @definition.field
(constant_declaration type: (_) @definition.type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @definition.value)) @definition.constant
(local_variable_declaration type: (_) @definition.type
  declarator: (variable_declarator name: (identifier) @name value: (_)? @definition.value)) @definition.variable
(formal_parameter type: (_) @definition.type name: (identifier) @name) @definition.parameter
(spread_parameter (_) @definition.type (variable_declarator name: (identifier) @name)) @definition.parameter
(record_declaration parameters: (formal_parameters (formal_parameter type: (_) @definition.type name: (identifier) @name) @definition.field))
(enhanced_for_statement type: (_) @definition.type name: (identifier) @name) @definition.variable
(catch_formal_parameter (catch_type) @definition.type name: (identifier) @name) @definition.variable
(lambda_expression parameters: (identifier) @name @definition.parameter)
(lambda_expression parameters: (inferred_parameters (identifier) @name @definition.parameter))
(type_parameter (type_identifier) @name) @definition.parameter

; Modifiers, one keyword each, on whatever declaration holds them (`exported` reads `public` /
; `protected`: a package-private member is not exported).
(_ (modifiers ["public" "protected" "private" "static" "abstract" "final" "default" "synchronized"
               "native" "transient" "volatile"] @modifier)) @modifier.owner
(block_comment) @comment
(line_comment) @comment

; ---------------------------------------------------------------- Scopes

[(method_declaration) (constructor_declaration) (compact_constructor_declaration) (lambda_expression)] @scope.function
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration)] @scope.class
[(block) (for_statement) (enhanced_for_statement) (catch_clause) (try_with_resources_statement)] @scope

; ---------------------------------------------------------------- References

(identifier) @reference
(type_identifier) @reference.type
(this) @reference
(super) @reference

(method_invocation object: (_) @receiver name: (identifier) @reference) @reference.expression
(field_access object: (_) @receiver field: (identifier) @reference) @reference.expression
(scoped_type_identifier (_) @receiver . (type_identifier) @reference) @reference.expression

(assignment_expression left: (identifier) @reference.write)
(assignment_expression left: (field_access field: (identifier) @reference.write))

; ---------------------------------------------------------------- Calls

(method_invocation !object name: (identifier) @call.callee arguments: (argument_list) @call.arguments) @call
(method_invocation object: (_) name: (identifier) arguments: (argument_list) @call.arguments) @call @call.callee
(object_creation_expression type: (_) @call.callee arguments: (argument_list)? @call.arguments) @call @call.new
; `super(id)` in a constructor: the parent's constructor (LanguageSpec.super_call_is_constructor)
(explicit_constructor_invocation constructor: (super) @call.callee) @call

; ---------------------------------------------------------------- Imports

(import_declaration (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
(import_declaration (scoped_identifier) @import.module (asterisk) @import.star) @import
