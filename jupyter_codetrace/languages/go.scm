; Go: definitions, scopes, references, imports and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py.

; ---------------------------------------------------------------- Definitions

(function_declaration
  name: (identifier) @name
  parameters: (_) @definition.params
  result: (_)? @definition.returns
  body: (_)? @definition.body) @definition.function

; A method belongs to its receiver's type, wherever in the package that type is declared.
(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @definition.qualifier
           (pointer_type (type_identifier) @definition.qualifier)
           (generic_type type: (type_identifier) @definition.qualifier)
           (pointer_type (generic_type type: (type_identifier) @definition.qualifier))]))
  name: (field_identifier) @name
  parameters: (_) @definition.params
  result: (_)? @definition.returns
  body: (_)? @definition.body) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type) @definition.body) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type) @definition.body) @definition.interface
(type_spec name: (type_identifier) @name
  type: [(type_identifier) (qualified_type) (pointer_type) (map_type) (slice_type) (array_type)
         (function_type) (channel_type) (generic_type)] @definition.type) @definition.type_alias
(type_alias name: (type_identifier) @name type: (_) @definition.type) @definition.type_alias

; Struct embedding: the embedded type's fields and methods are promoted.
(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list
    (field_declaration !name type: [(type_identifier) (qualified_type)
                                    (pointer_type [(type_identifier) (qualified_type)])] @definition.extends)))) @definition.struct
(type_spec
  name: (type_identifier) @name
  type: (interface_type (type_elem [(type_identifier) (qualified_type)] @definition.extends))) @definition.interface

(field_declaration name: (field_identifier) @name type: (_) @definition.type) @definition.field
(method_elem name: (field_identifier) @name parameters: (_) @definition.params result: (_)? @definition.returns) @definition.method @declaration

(const_spec name: (identifier) @name type: (_)? @definition.type) @definition.constant
(var_spec name: (identifier) @name type: (_)? @definition.type) @definition.variable
(var_spec name: (identifier) @name value: (expression_list . (_) @definition.value)) @definition.variable

; `x := v` (the first name takes the first value's type), `for k, v := range`.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . [(call_expression) (composite_literal) (identifier) (selector_expression)] @definition.value)) @definition.variable
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (unary_expression operand: (composite_literal) @definition.value))) @definition.variable
(short_var_declaration left: (expression_list (identifier) @name @definition.variable))
(range_clause left: (expression_list (identifier) @name @definition.variable))

(parameter_declaration name: (identifier) @name type: (_) @definition.type) @definition.parameter
(variadic_parameter_declaration name: (identifier) @name type: (_) @definition.type) @definition.parameter
(type_parameter_declaration name: (identifier) @name) @definition.parameter

(comment) @comment

; ---------------------------------------------------------------- Scopes

[(function_declaration) (method_declaration) (func_literal)] @scope.function
(type_spec type: [(struct_type) (interface_type)]) @scope.class
[(block) (if_statement) (for_statement) (expression_switch_statement) (type_switch_statement) (select_statement)] @scope

; ---------------------------------------------------------------- References

(identifier) @reference
(type_identifier) @reference.type
(package_identifier) @reference

(selector_expression operand: (_) @receiver field: (field_identifier) @reference) @reference.expression
(qualified_type package: (package_identifier) @receiver name: (type_identifier) @reference) @reference.expression

(assignment_statement left: (expression_list (identifier) @reference.write))
(assignment_statement left: (expression_list (selector_expression field: (field_identifier) @reference.write)))

; A struct literal's keys name fields, not variables.
(keyed_element . (literal_element (identifier) @ignore))
(package_clause (package_identifier) @ignore)

; ---------------------------------------------------------------- Calls

(call_expression function: (_) @call.callee) @call
(composite_literal type: [(type_identifier) (qualified_type)] @call.callee) @call @call.new

; ---------------------------------------------------------------- Imports

(import_spec !name path: (_) @import.module) @import
(import_spec name: (dot) @import.star path: (_) @import.module) @import
(import_spec name: (package_identifier) @import.namespace path: (_) @import.module) @import
