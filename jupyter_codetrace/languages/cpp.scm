; C++: definitions, scopes, references, includes and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py.

; ---------------------------------------------------------------- Definitions

; Function bodies: `f(...) {}`, out-of-line `Foo::bar(...) {}`, methods defined in a class body,
; and the same behind `*`/`&` return declarators.
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier)] @name
    parameters: (_) @definition.params)
  body: (_) @definition.body) @definition.function
; the declared return type (`Order make_order(...)`), merged into the definition above
(function_definition
  type: (_) @definition.returns
  declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name)) @definition.function
; Out-of-line members (`double Circle::area() const {}`, `geo::Circle::area`): the type (or
; namespace) written before the name is what they belong to, and their qualified name says so.
; One named as its type (`Circle::Circle`) is that type's constructor.
(function_definition
  type: (_)? @definition.returns
  declarator: (function_declarator
    declarator: [(qualified_identifier scope: (_) @definition.qualifier @_scope name: (identifier) @name)
                 (qualified_identifier name: (qualified_identifier scope: (_) @_scope name: (identifier) @name) @definition.qualifier)
                 (qualified_identifier name: (qualified_identifier name: (qualified_identifier
                   scope: (_) @_scope name: (identifier) @name) @definition.qualifier))]
    parameters: (_) @definition.params)
  body: (_) @definition.body
  (#not-eq? @_scope @name)) @definition.function
(function_definition
  declarator: (function_declarator
    declarator: [(qualified_identifier scope: (_) @definition.qualifier @_scope name: (identifier) @name)
                 (qualified_identifier name: (qualified_identifier scope: (_) @_scope name: (identifier) @name) @definition.qualifier)
                 (qualified_identifier name: (qualified_identifier name: (qualified_identifier
                   scope: (_) @_scope name: (identifier) @name) @definition.qualifier))]
    parameters: (_) @definition.params)
  body: (_) @definition.body
  (#eq? @_scope @name)) @definition.constructor
(function_definition
  declarator: [(pointer_declarator (function_declarator
                 declarator: [(identifier) (field_identifier)] @name
                 parameters: (_) @definition.params))
               (reference_declarator (function_declarator
                 declarator: [(identifier) (field_identifier)] @name
                 parameters: (_) @definition.params))]
  body: (_) @definition.body) @definition.function
(function_definition
  declarator: [(pointer_declarator (function_declarator
                 declarator: (qualified_identifier scope: (_) @definition.qualifier name: (identifier) @name)
                 parameters: (_) @definition.params))
               (reference_declarator (function_declarator
                 declarator: (qualified_identifier scope: (_) @definition.qualifier name: (identifier) @name)
                 parameters: (_) @definition.params))
               (pointer_declarator (function_declarator
                 declarator: (qualified_identifier name: (qualified_identifier name: (identifier) @name) @definition.qualifier)
                 parameters: (_) @definition.params))
               (reference_declarator (function_declarator
                 declarator: (qualified_identifier name: (qualified_identifier name: (identifier) @name) @definition.qualifier)
                 parameters: (_) @definition.params))]
  body: (_) @definition.body) @definition.function

; Prototypes and in-class method declarations: declarations only.
(declaration
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier)] @name
    parameters: (_) @definition.params)) @definition.function @declaration
(declaration
  declarator: [(pointer_declarator (function_declarator declarator: (identifier) @name parameters: (_) @definition.params))
               (reference_declarator (function_declarator declarator: (identifier) @name parameters: (_) @definition.params))]) @definition.function @declaration
(field_declaration
  declarator: (function_declarator
    declarator: [(field_identifier) (identifier)] @name
    parameters: (_) @definition.params)) @definition.function @declaration
(field_declaration
  declarator: [(pointer_declarator (function_declarator declarator: (field_identifier) @name parameters: (_) @definition.params))
               (reference_declarator (function_declarator declarator: (field_identifier) @name parameters: (_) @definition.params))]) @definition.function @declaration

; Types.
(class_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.class
(class_specifier
  name: (type_identifier) @name
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @definition.extends)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.struct
(struct_specifier
  name: (type_identifier) @name
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @definition.extends)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_) @definition.body) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member
(namespace_definition name: (namespace_identifier) @name body: (_) @definition.body) @definition.namespace
; The whole `typedef struct {…} T;` is T's definition (its code shows the struct).
(type_definition declarator: (type_identifier) @name) @definition.type_alias
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type_alias
(alias_declaration name: (type_identifier) @name type: (_) @definition.type) @definition.type_alias
(concept_definition name: (identifier) @name) @definition.type_alias

; Fields.
(field_declaration type: (_) @definition.type declarator: (field_identifier) @name) @definition.field
(field_declaration type: (_) @definition.type
  declarator: [(pointer_declarator (field_identifier) @name) (reference_declarator (field_identifier) @name)
               (array_declarator declarator: (field_identifier) @name)]) @definition.field

; Macros.
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name parameters: (_) @definition.params) @definition.macro

; Variables (globals and locals), with their declared type.
(declaration type: (_) @definition.type declarator: (identifier) @name) @definition.variable
(declaration type: (_) @definition.type
  declarator: (init_declarator declarator: (identifier) @name value: (_) @definition.value)) @definition.variable
(declaration type: (_) @definition.type
  declarator: [(pointer_declarator (identifier) @name) (reference_declarator (identifier) @name)
               (array_declarator declarator: (identifier) @name)
               (init_declarator declarator: [(pointer_declarator (identifier) @name) (reference_declarator (identifier) @name)
                                             (array_declarator declarator: (identifier) @name)])]) @definition.variable
(for_range_loop type: (_) @definition.type
  declarator: [(identifier) @name (reference_declarator (identifier) @name) (pointer_declarator (identifier) @name)]) @definition.variable

; Parameters.
(parameter_declaration type: (_) @definition.type declarator: (identifier) @name) @definition.parameter
(parameter_declaration type: (_) @definition.type
  declarator: [(pointer_declarator (identifier) @name) (reference_declarator (identifier) @name)]) @definition.parameter
(optional_parameter_declaration type: (_) @definition.type declarator: (identifier) @name default_value: (_) @definition.default) @definition.parameter
(type_parameter_declaration (type_identifier) @name) @definition.parameter

; `static`, `extern`, `inline`: shown as modifiers; a `static` function or variable outside a
; class has internal linkage (not exported: c_family._exported).
[(function_definition (storage_class_specifier) @modifier)
 (declaration (storage_class_specifier) @modifier)
 (field_declaration (storage_class_specifier) @modifier)] @modifier.owner

; Documentation comments are found by position (LanguageSpec.doc_comment_prefixes).
(comment) @comment

; ---------------------------------------------------------------- Scopes

(function_definition) @scope.function
(lambda_expression) @scope.function
(class_specifier body: (_)) @scope.class
(struct_specifier body: (_)) @scope.class
(union_specifier body: (_)) @scope.class
(namespace_definition body: (_)) @scope
[(compound_statement) (for_statement) (for_range_loop)] @scope

; ---------------------------------------------------------------- References

(identifier) @reference
(namespace_identifier) @reference
(this) @reference
(type_identifier) @reference.type

(field_expression argument: (_) @receiver field: (field_identifier) @reference) @reference.expression
(qualified_identifier
  scope: (_) @receiver
  name: [(identifier) (type_identifier) (namespace_identifier)] @reference) @reference.expression
; `geo::Circle::area` (an out-of-line definition's name): Circle is geo's; the expression
; `Circle::area` stands for Circle (it is the definition's @definition.qualifier).
(qualified_identifier
  scope: (_) @receiver
  name: (qualified_identifier scope: [(namespace_identifier) (type_identifier)] @reference) @reference.expression)

(assignment_expression left: (identifier) @reference.write)
(assignment_expression left: (field_expression field: (field_identifier) @reference.write))

(field_initializer (field_identifier) @reference.write)

; ---------------------------------------------------------------- Calls

(call_expression function: (_) @call.callee) @call
(new_expression type: (_) @call.callee) @call @call.new
; `geo::Circle circle(1.0);`, `Circle c{2};`: a variable built by its type's constructor
(declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @call.callee
  declarator: (init_declarator value: [(argument_list) (initializer_list)])) @call @call.new

; ---------------------------------------------------------------- Includes

(preproc_include path: (string_literal) @import.module @import.star) @import
