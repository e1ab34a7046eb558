; C: definitions, scopes, references, includes and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py. (C++ is cpp.scm.)

; ---------------------------------------------------------------- Definitions

; Function bodies, also behind `*` return declarators (`char *name(void) {}`).
(function_definition
  declarator: (function_declarator declarator: (identifier) @name parameters: (_) @definition.params)
  body: (_) @definition.body) @definition.function
; the declared return type (`struct order make_order(...)`), merged into the definition above
(function_definition
  type: (_) @definition.returns
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: [(function_declarator declarator: (identifier) @name parameters: (_) @definition.params)
                 (pointer_declarator (function_declarator declarator: (identifier) @name parameters: (_) @definition.params))])
  body: (_) @definition.body) @definition.function

; Prototypes: declarations only.
(declaration
  declarator: (function_declarator declarator: (identifier) @name parameters: (_) @definition.params)) @definition.function @declaration
(declaration
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name parameters: (_) @definition.params))) @definition.function @declaration

; Types.
(struct_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.struct
(union_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member
; The whole `typedef struct {…} T;` is T's definition (its code shows the struct).
(type_definition declarator: (type_identifier) @name) @definition.type_alias
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type_alias

; Fields.
(field_declaration type: (_) @definition.type declarator: (field_identifier) @name) @definition.field
(field_declaration type: (_) @definition.type
  declarator: [(pointer_declarator declarator: (field_identifier) @name)
               (array_declarator declarator: (field_identifier) @name)]) @definition.field

; Macros.
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name parameters: (_) @definition.params) @definition.macro

; Variables with their declared type.
(declaration type: (_) @definition.type declarator: (identifier) @name) @definition.variable
(declaration type: (_) @definition.type
  declarator: (init_declarator declarator: (identifier) @name value: (_) @definition.value)) @definition.variable
(declaration type: (_) @definition.type
  declarator: [(pointer_declarator declarator: (identifier) @name)
               (array_declarator declarator: (identifier) @name)
               (init_declarator declarator: [(pointer_declarator declarator: (identifier) @name)
                                             (array_declarator declarator: (identifier) @name)])]) @definition.variable

; Parameters.
(parameter_declaration type: (_) @definition.type declarator: (identifier) @name) @definition.parameter
(parameter_declaration type: (_) @definition.type
  declarator: [(pointer_declarator declarator: (identifier) @name)
               (array_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))]) @definition.parameter

; `static`, `extern`, `inline`: shown as modifiers; a `static` function or variable outside a
; class has internal linkage (not exported: c_family._exported).
[(function_definition (storage_class_specifier) @modifier)
 (declaration (storage_class_specifier) @modifier)] @modifier.owner

(comment) @comment

; ---------------------------------------------------------------- Scopes

(function_definition) @scope.function
[(compound_statement) (for_statement)] @scope

; ---------------------------------------------------------------- References

(identifier) @reference
(type_identifier) @reference.type

(field_expression argument: (_) @receiver field: (field_identifier) @reference) @reference.expression

(assignment_expression left: (identifier) @reference.write)
(assignment_expression left: (field_expression field: (field_identifier) @reference.write))

; ---------------------------------------------------------------- Calls

(call_expression function: (_) @call.callee) @call

; ---------------------------------------------------------------- Includes

(preproc_include path: (string_literal) @import.module @import.star) @import
