; inherits: ecmascript
; TypeScript: definitions, scopes, references, imports/exports and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py. tsx.scm inherits this file and adds
; JSX; ecmascript.scm holds what JavaScript and TypeScript share (value flow).
;
; Conventions used throughout:
; * A variable's definition node is its `variable_declarator` (so `export const a = …` marks the
;   declarator exported and one `const a = 1, b = 2` gives two definitions with their own spans).
; * `value: (_ !body)` is "a value that is not a function or class": among expressions only
;   arrow/function/generator functions, classes and namespaces have a `body` field. This keeps
;   the kind of one name from two patterns from disagreeing (function vs constant).
; * A declarator initialised by `require('m')` (or `require('m').x`) is an import, not a
;   variable. Only call and member expressions (the only values with a `function` / `object`
;   field besides subscripts) are captured as `@_call` and tested by text, so the predicate runs
;   on few nodes.

; ================================================================ Definitions

; ---- functions ----------------------------------------------------------------------------

(function_declaration
  name: (identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  parameters: (formal_parameters) @definition.params
  return_type: (_ (_) @definition.returns)?
  body: (statement_block) @definition.body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  parameters: (formal_parameters) @definition.params
  return_type: (_ (_) @definition.returns)?
  body: (statement_block) @definition.body) @definition.function

; Overload signatures and `declare function` (no body).
(function_signature
  name: (identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  parameters: (formal_parameters) @definition.params
  return_type: (_ (_) @definition.returns)?) @definition.function @declaration

; `const f = (…) => …`, `let g = function (…) {…}`, `var h = function* () {}`
(variable_declarator
  name: (identifier) @name
  type: (type_annotation (_) @definition.type)?
  value: [
    (arrow_function
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (_) @definition.body)
    (arrow_function
      parameter: (identifier) @definition.params
      body: (_) @definition.body)
    (function_expression
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (statement_block) @definition.body)
    (generator_function
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (statement_block) @definition.body)
  ]) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function @hoist)

; ---- anonymous default exports ------------------------------------------------------------
; `export default function (…) {…}`, `export default (…) => …`, `export default class {…}`, and any
; other value (`export default new Logger()`, `export default observer(View)`): a definition named
; `default`, where an importer's name is defined (`export default name` names name's instead).
(export_statement "default" @name value: [
    (arrow_function
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)
    (function_expression
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (statement_block) @definition.body)
    (generator_function
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (statement_block) @definition.body)
  ]) @definition.function
(export_statement "default" @name value: (class body: (class_body) @definition.body)) @definition.class
(export_statement "default" @name
  value: (class (class_heritage (extends_clause value: (_) @definition.extends)))) @definition.class
(export_statement "default" @name
  value: [(call_expression) (new_expression) (as_expression) (satisfies_expression) (member_expression)
          (await_expression) (parenthesized_expression) (ternary_expression) (array)] @definition.value) @definition.constant

; ---- classes ------------------------------------------------------------------------------

(class_declaration
  name: (type_identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  body: (class_body) @definition.body) @definition.class

(abstract_class_declaration
  name: (type_identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  body: (class_body) @definition.body) @definition.class

(variable_declarator
  name: (identifier) @name
  value: (class
    type_parameters: (type_parameters)? @definition.generics
    body: (class_body) @definition.body)) @definition.class

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class)) @definition.class @hoist)

; One match per base / interface. The captured node is the expression a reference heads
; (`Base`, `ns.Base`), not `Base<T>`.
(class_declaration
  name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @definition.extends))) @definition.class
(abstract_class_declaration
  name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @definition.extends))) @definition.class
(variable_declarator
  name: (identifier) @name
  value: (class (class_heritage (extends_clause value: (_) @definition.extends)))) @definition.class

; The type arguments of the (first) base: `extends ZodType<string, ZodStringDef>` binds the
; base's type parameters, so `this._def` in a ZodString is a ZodStringDef.
(class_declaration name: (type_identifier) @name
  (class_heritage (extends_clause type_arguments: (type_arguments) @definition.type_arguments))) @definition.class
(abstract_class_declaration name: (type_identifier) @name
  (class_heritage (extends_clause type_arguments: (type_arguments) @definition.type_arguments))) @definition.class
(interface_declaration name: (type_identifier) @name
  (extends_type_clause . type: (generic_type type_arguments: (type_arguments) @definition.type_arguments))) @definition.interface

(class_declaration
  name: (type_identifier) @name
  (class_heritage
    (implements_clause [
      (type_identifier) @definition.implements
      (nested_type_identifier) @definition.implements
      (generic_type name: (_) @definition.implements)]))) @definition.class
(abstract_class_declaration
  name: (type_identifier) @name
  (class_heritage
    (implements_clause [
      (type_identifier) @definition.implements
      (nested_type_identifier) @definition.implements
      (generic_type name: (_) @definition.implements)]))) @definition.class

; ---- class members ------------------------------------------------------------------------

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type_parameters: (type_parameters)? @definition.generics
    parameters: (formal_parameters) @definition.params
    return_type: (_ (_) @definition.returns)?
    body: (statement_block) @definition.body) @definition.method
  (#not-eq? @name "constructor"))

(class_body
  (method_definition
    name: (property_identifier) @name
    parameters: (formal_parameters) @definition.params
    body: (statement_block) @definition.body) @definition.constructor
  (#eq? @name "constructor"))

; Overload signatures inside a class, and abstract members.
(class_body
  (method_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type_parameters: (type_parameters)? @definition.generics
    parameters: (formal_parameters) @definition.params
    return_type: (_ (_) @definition.returns)?) @definition.method @declaration
  (#not-eq? @name "constructor"))

(class_body
  (method_signature
    name: (property_identifier) @name
    parameters: (formal_parameters) @definition.params) @definition.constructor @declaration
  (#eq? @name "constructor"))

(abstract_method_signature
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  type_parameters: (type_parameters)? @definition.generics
  parameters: (formal_parameters) @definition.params
  return_type: (_ (_) @definition.returns)?) @definition.method @declaration

; Fields. A field holding a function is a method (it opens the scope its code runs in).
(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  type: (type_annotation (_) @definition.type)?
  value: (_ !body) @definition.value) @definition.property

(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  type: (type_annotation (_) @definition.type)?
  !value) @definition.property

(public_field_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  value: [
    (arrow_function
      type_parameters: (type_parameters)? @definition.generics
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (_) @definition.body)
    (arrow_function
      parameter: (identifier) @definition.params
      body: (_) @definition.body)
    (function_expression
      parameters: (formal_parameters) @definition.params
      return_type: (_ (_) @definition.returns)?
      body: (statement_block) @definition.body)
  ]) @definition.method

; ---- interfaces, type aliases, enums, namespaces ------------------------------------------

(interface_declaration
  name: (type_identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  body: (interface_body) @definition.body) @definition.interface

(interface_declaration
  name: (type_identifier) @name
  (extends_type_clause type: [
    (type_identifier) @definition.extends
    (nested_type_identifier) @definition.extends
    (generic_type name: (_) @definition.extends)])) @definition.interface

(interface_body
  (property_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type: (type_annotation (_) @definition.type)?) @definition.property)

(interface_body
  (method_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type_parameters: (type_parameters)? @definition.generics
    parameters: (formal_parameters) @definition.params
    return_type: (_ (_) @definition.returns)?) @definition.method)

(type_alias_declaration
  name: (type_identifier) @name
  type_parameters: (type_parameters)? @definition.generics
  value: (_) @definition.type) @definition.type_alias

; An object type that a type alias names is the alias's body: its property and method
; signatures are the alias's members, as an interface's are (`type Client = {get: …}`, also
; as one part of an intersection `Promise<R> & {text: …}`).
(type_alias_declaration value: (object_type) @scope.class)
(type_alias_declaration value: (intersection_type (object_type) @scope.class))
(type_alias_declaration value: [(object_type
  (property_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type: (type_annotation (_) @definition.type)?) @definition.property)
  (intersection_type (object_type
  (property_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type: (type_annotation (_) @definition.type)?) @definition.property))])
(type_alias_declaration value: [(object_type
  (method_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type_parameters: (type_parameters)? @definition.generics
    parameters: (formal_parameters) @definition.params
    return_type: (_ (_) @definition.returns)?) @definition.method)
  (intersection_type (object_type
  (method_signature
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    type_parameters: (type_parameters)? @definition.generics
    parameters: (formal_parameters) @definition.params
    return_type: (_ (_) @definition.returns)?) @definition.method))])

; An object type written inline where a parameter, variable or property is declared (`opts: {id:
; string}`, `meta: {createdBy: string}`, `blocks: {pos: number}[]`): its property signatures are
; members of what is declared with it (resolve/types.py), in a scope of their own.
(type_annotation [(object_type) @scope.class (array_type (object_type) @scope.class)
                  (union_type (object_type) @scope.class)])
(type_annotation [
  (object_type (property_signature
    name: [(property_identifier) (private_property_identifier)] @name
    type: (type_annotation (_) @definition.type)?) @definition.property)
  (array_type (object_type (property_signature
    name: [(property_identifier) (private_property_identifier)] @name
    type: (type_annotation (_) @definition.type)?) @definition.property))
  (union_type (object_type (property_signature
    name: [(property_identifier) (private_property_identifier)] @name
    type: (type_annotation (_) @definition.type)?) @definition.property))])

; A property whose type is a function type returns what that type returns when called
; (`get: (url: string) => Result`): merged into the property's definition above.
(property_signature
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  type: (type_annotation (function_type return_type: (_) @definition.returns))) @definition.property
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  type: (type_annotation (function_type return_type: (_) @definition.returns))) @definition.property

; `type R = A & B` has A's and B's members (it is a subtype of both); `type R = A | B` looks
; its members up in A, then B (it is a supertype of both: no EXTENDS edge).
(type_alias_declaration name: (type_identifier) @name
  value: (intersection_type [(type_identifier) @definition.extends (generic_type name: (type_identifier) @definition.extends)])) @definition.type_alias
; `Required<Omit<Options, 'x'>> & {…}`: the members of what a generic wrapper wraps count too
(type_alias_declaration name: (type_identifier) @name
  value: [(generic_type type_arguments: (type_arguments . [(type_identifier) @definition.extends
            (generic_type type_arguments: (type_arguments . (type_identifier) @definition.extends))]))
          (intersection_type (generic_type type_arguments: (type_arguments . [(type_identifier) @definition.extends
            (generic_type type_arguments: (type_arguments . (type_identifier) @definition.extends))])))]) @definition.type_alias
(type_alias_declaration name: (type_identifier) @name
  value: (union_type [(type_identifier) @definition.alternative (generic_type name: (type_identifier) @definition.alternative)])) @definition.type_alias
(type_alias_declaration name: (type_identifier) @name
  value: (union_type (union_type [(type_identifier) @definition.alternative (generic_type name: (type_identifier) @definition.alternative)]))) @definition.type_alias
; `type R = {[K in keyof Opts]: V}`: R has Opts's members (looked up there)
(type_alias_declaration name: (type_identifier) @name
  value: (object_type (index_signature (mapped_type_clause
    type: (index_type_query [(type_identifier) @definition.alternative (generic_type name: (type_identifier) @definition.alternative)]))))) @definition.type_alias

; A type with a call signature (`type Client = {(url: string): Result; …}`) returns, when a
; value of it is called, what the signature returns: merged into the alias or interface.
(type_alias_declaration name: (type_identifier) @name
  value: (object_type (call_signature return_type: (type_annotation (_) @definition.returns)))) @definition.type_alias
(interface_declaration name: (type_identifier) @name
  body: (interface_body (call_signature return_type: (type_annotation (_) @definition.returns)))) @definition.interface

; Type parameters bind in the function/method that declares them; a class's, interface's or
; alias's bind in the enclosing scope (the declaration opens no scope of its own around them).
(type_parameter name: (type_identifier) @name) @definition.type_alias
; `D extends Base`: an unbound type parameter has its constraint's members (no EXTENDS edge)
(type_parameter name: (type_identifier) @name
  constraint: (constraint [(type_identifier) @definition.alternative (generic_type name: (_) @definition.alternative)])) @definition.type_alias

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @definition.body) @definition.enum

(enum_body name: (property_identifier) @name @definition.enum_member)
(enum_body name: (string (string_fragment) @name) @definition.enum_member)
(enum_assignment
  name: (property_identifier) @name
  value: (_) @definition.value) @definition.enum_member
(enum_assignment
  name: (string (string_fragment) @name)
  value: (_) @definition.value) @definition.enum_member

(internal_module
  name: [(identifier) (nested_identifier)] @name
  body: (statement_block) @definition.body) @definition.namespace

(module
  name: [(identifier) (nested_identifier)] @name
  body: (statement_block) @definition.body) @definition.namespace

; `declare module 'pkg' { … }`
(module
  name: (string (string_fragment) @name)) @definition.namespace @declaration

; ---- variables ----------------------------------------------------------------------------

(lexical_declaration
  kind: "const"
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation (_) @definition.type)?
    value: [
      (_ !body !function !object) @definition.value
      (subscript_expression) @definition.value
      (instantiation_expression) @definition.value
      (call_expression) @definition.value @_call
      (member_expression) @definition.value @_call]) @definition.constant
  (#not-match? @_call "^require\\s*\\(\\s*[\"'`][^\"'`]*[\"'`]\\s*\\)(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)?$"))

(lexical_declaration
  kind: "const"
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation (_) @definition.type)?
    !value) @definition.constant)

(lexical_declaration
  kind: "let"
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation (_) @definition.type)?
    value: [
      (_ !body !function !object) @definition.value
      (subscript_expression) @definition.value
      (instantiation_expression) @definition.value
      (call_expression) @definition.value @_call
      (member_expression) @definition.value @_call]) @definition.variable
  (#not-match? @_call "^require\\s*\\(\\s*[\"'`][^\"'`]*[\"'`]\\s*\\)(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)?$"))

(lexical_declaration
  kind: "let"
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation (_) @definition.type)?
    !value) @definition.variable)

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation (_) @definition.type)?
    value: [
      (_ !body !function !object) @definition.value
      (subscript_expression) @definition.value
      (instantiation_expression) @definition.value
      (call_expression) @definition.value @_call
      (member_expression) @definition.value @_call]) @definition.variable @hoist
  (#not-match? @_call "^require\\s*\\(\\s*[\"'`][^\"'`]*[\"'`]\\s*\\)(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)?$"))

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    type: (type_annotation (_) @definition.type)?
    !value) @definition.variable @hoist)

; ---- variables holding an object made to be given members (index/extract.py `_attach_to_object`):
; a literal, `Object.create(…)`, the end of `var app = exports = module.exports = {}`
(variable_declarator name: (identifier) @object.holder !type value: (object))
((variable_declarator
   name: (identifier) @object.holder !type
   value: (call_expression function: (member_expression object: (identifier) @_object property: (property_identifier) @_create)))
 (#eq? @_object "Object")
 (#eq? @_create "create"))
(variable_declarator
  name: (identifier) @object.holder !type
  value: (assignment_expression right: [(object) (assignment_expression right: (object))]))

; ---- members of an object literal a variable holds: `const api = { get(url) {…}, base: '/v1' }`
; (untyped: a declared type's literal names that type's members instead)
(variable_declarator
  name: (identifier) @definition.receiver
  !type
  value: (object [
    (method_definition
      name: (property_identifier) @name
      parameters: (formal_parameters) @definition.params
      body: (statement_block) @definition.body) @definition.method
    (pair
      key: (property_identifier) @name
      value: [
        (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
        (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
        (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)]) @definition.method]))
(variable_declarator
  name: (identifier) @definition.receiver
  !type
  value: (object (pair key: (property_identifier) @name value: (_ !body) @definition.value) @definition.property))

; Destructuring declarations: each bound identifier is a definition (its own node).
; Top level of the pattern; deeper levels are under "Nested destructuring" below.
(lexical_declaration
  kind: "const"
  (variable_declarator
    name: [
      (object_pattern [
        (shorthand_property_identifier_pattern) @name @definition.value @definition.constant
        (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.constant)
        (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.constant)
        (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.constant))
        (rest_pattern (identifier) @name @definition.constant)])
      (array_pattern [
        (identifier) @name @definition.constant
        (assignment_pattern left: (identifier) @name @definition.constant)
        (rest_pattern (identifier) @name @definition.constant)])]
    value: [(_ !function) (call_expression) @_call])
  (#not-match? @_call "^require\\s*\\("))

(lexical_declaration
  kind: "let"
  (variable_declarator
    name: [
      (object_pattern [
        (shorthand_property_identifier_pattern) @name @definition.value @definition.variable
        (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.variable)
        (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.variable)
        (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.variable))
        (rest_pattern (identifier) @name @definition.variable)])
      (array_pattern [
        (identifier) @name @definition.variable
        (assignment_pattern left: (identifier) @name @definition.variable)
        (rest_pattern (identifier) @name @definition.variable)])]
    value: [(_ !function) (call_expression) @_call])
  (#not-match? @_call "^require\\s*\\("))

(variable_declaration
  (variable_declarator
    name: [
      (object_pattern [
        (shorthand_property_identifier_pattern) @name @definition.value @definition.variable @hoist
        (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.variable @hoist)
        (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.variable @hoist)
        (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.variable @hoist))
        (rest_pattern (identifier) @name @definition.variable @hoist)])
      (array_pattern [
        (identifier) @name @definition.variable @hoist
        (assignment_pattern left: (identifier) @name @definition.variable @hoist)
        (rest_pattern (identifier) @name @definition.variable @hoist)])]
    value: [(_ !function) (call_expression) @_call])
  (#not-match? @_call "^require\\s*\\("))

; Loop variables (`for (const x of xs)`); without a declaration keyword it is a write.
(for_in_statement kind: ["const" "let"] left: (identifier) @name @definition.variable)
(for_in_statement kind: "var" left: (identifier) @name @definition.variable @hoist)
; `for (const x of items)`: x is an item of items (merged into the loop variable above).
(for_in_statement kind: ["const" "let" "var"] left: (identifier) @name @definition.variable operator: "of" right: (_) @definition.item)
(for_in_statement
  kind: _
  left: [
    (object_pattern [
      (shorthand_property_identifier_pattern) @name @definition.value @definition.variable
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.variable)
      (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.variable)
      (rest_pattern (identifier) @name @definition.variable)])
    (array_pattern [
      (identifier) @name @definition.variable
      (assignment_pattern left: (identifier) @name @definition.variable)
      (rest_pattern (identifier) @name @definition.variable)])])

(catch_clause parameter: (identifier) @name @definition.variable)
(catch_clause
  parameter: [
    (object_pattern [
      (shorthand_property_identifier_pattern) @name @definition.value @definition.variable
      (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.variable)])
    (array_pattern (identifier) @name @definition.variable)])

; Nested destructuring (`const { a: { b }, c: [d] } = …`): bound as variables whatever the
; declaration keyword (the kind is not known at this depth).
(pair_pattern
  value: [
    (object_pattern [
      (shorthand_property_identifier_pattern) @name @definition.value @definition.variable
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.variable)
      (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.variable)
      (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.variable))
      (rest_pattern (identifier) @name @definition.variable)])
    (array_pattern [
      (identifier) @name @definition.variable
      (assignment_pattern left: (identifier) @name @definition.variable)
      (rest_pattern (identifier) @name @definition.variable)])])
(array_pattern
  [
    (object_pattern [
      (shorthand_property_identifier_pattern) @name @definition.value @definition.variable
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.variable)
      (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.variable)
      (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.variable))
      (rest_pattern (identifier) @name @definition.variable)])
    (array_pattern [
      (identifier) @name @definition.variable
      (assignment_pattern left: (identifier) @name @definition.variable)
      (rest_pattern (identifier) @name @definition.variable)])])

; ---- parameters ---------------------------------------------------------------------------
;
; A parameter written without a type, of a function passed to a call, takes the type the callee's
; parameter declares for it (`each(rows, (row) => row.id)` of `each(rows: Row[], fn: (row: Row)
; => void)`): the call, and the positions (index/extract.py).
(call_expression
  arguments: (arguments [
    (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @name !type) @definition.parameter))
    (arrow_function parameter: (identifier) @name @definition.parameter)
    (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @name !type) @definition.parameter))])) @definition.callback
; … and so does one of a function given to a key of an object literal whose type is declared
; (`apexAuthRedirect({ getRedirectPath: (ctx, team) => team.url })`, `const h: Handlers = { onDone:
; (count) => … }`): the key names the member whose function type says it.
(pair
  key: (property_identifier)
  value: [
    (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @name !type) @definition.parameter))
    (arrow_function parameter: (identifier) @name @definition.parameter)
    (function_expression parameters: (formal_parameters (required_parameter pattern: (identifier) @name !type) @definition.parameter))]) @definition.keyed
(object
  (method_definition
    name: (property_identifier)
    parameters: (formal_parameters (required_parameter pattern: (identifier) @name !type) @definition.parameter)) @definition.keyed)
; A callback's first parameter is an item of the array it is called over
; (`users.map((u) => u.name)`, `.forEach`, `.filter`, `.find`, …; what a `Promise<User>` gives
; `.then`): merged into the parameter.
; (`x => …` in ecmascript.scm; here `(x) => …`.)
(call_expression
  function: (member_expression object: (_) @definition.item property: (property_identifier) @_method)
  arguments: (arguments . (arrow_function parameters: (formal_parameters . (required_parameter pattern: (identifier) @name !type) @definition.parameter)))
  (#any-of? @_method "map" "forEach" "filter" "find" "findLast" "findIndex" "some" "every" "flatMap" "then"))


(required_parameter
  pattern: (identifier) @name
  type: (type_annotation (_) @definition.type)?
  value: (_)? @definition.default) @definition.parameter

(optional_parameter
  pattern: (identifier) @name
  type: (type_annotation (_) @definition.type)?
  value: (_)? @definition.default) @definition.parameter

; Parameter properties (`constructor(private x: T)`) also declare a field of the class.
; `@definition.promoted`: also a property of the class.
(required_parameter
  [(accessibility_modifier) (override_modifier) "readonly"]
  pattern: (identifier) @name) @definition.parameter @definition.promoted
(optional_parameter
  [(accessibility_modifier) (override_modifier) "readonly"]
  pattern: (identifier) @name) @definition.parameter @definition.promoted

(required_parameter
  pattern: (rest_pattern (identifier) @name)
  type: (type_annotation (_) @definition.type)?) @definition.parameter

(arrow_function parameter: (identifier) @name @definition.parameter)

; A typed destructured parameter is also one parameter of its own, named by its pattern's text:
; it holds the position and the declared type (`draw({x: 1})` passes a Point to `({x}: Point)`).
(required_parameter pattern: (object_pattern) @name type: (type_annotation (_) @definition.type)) @definition.parameter
(optional_parameter pattern: (object_pattern) @name type: (type_annotation (_) @definition.type)) @definition.parameter

; Destructured parameters: the identifiers they bind.
(required_parameter
  pattern: [
    (object_pattern [
      (shorthand_property_identifier_pattern) @name @definition.value @definition.parameter
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.parameter)
      (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.parameter)
      (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.parameter))
      (rest_pattern (identifier) @name @definition.parameter)])
    (array_pattern [
      (identifier) @name @definition.parameter
      (assignment_pattern left: (identifier) @name @definition.parameter)
      (rest_pattern (identifier) @name @definition.parameter)])])

; ---- ambient declarations (`declare …`) ---------------------------------------------------

(ambient_declaration (class_declaration name: (type_identifier) @name) @definition.class @declaration)
(ambient_declaration (abstract_class_declaration name: (type_identifier) @name) @definition.class @declaration)
(ambient_declaration
  (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name !value) @definition.constant @declaration))
(ambient_declaration
  (lexical_declaration
    kind: "let"
    (variable_declarator name: (identifier) @name !value) @definition.variable @declaration))
(ambient_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name !value) @definition.variable @declaration))
(ambient_declaration
  (internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace @declaration)
(ambient_declaration
  (module name: [(identifier) (nested_identifier)] @name) @definition.namespace @declaration)

; ---- CommonJS members: `exports.f = function …`, `module.exports.f = …`, `module.exports = { f() {} }`
; (`exports.f = f` exports a local: under Exports.)

(assignment_expression
  left: (member_expression
    object: (identifier) @_exports @definition.receiver
    property: (property_identifier) @name)
  right: [
    (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)
    (generator_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)]
  (#eq? @_exports "exports")) @definition.function

(assignment_expression
  left: (member_expression
    object: (identifier) @_exports @definition.receiver
    property: (property_identifier) @name)
  right: (_ !body) @definition.value
  (#eq? @_exports "exports")
  (#not-match? @definition.value "^(?!(?:true|false|null)$)(?:[^\\W\\d]|\\$)[\\w$]*$")) @definition.variable

(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports) @definition.receiver
    property: (property_identifier) @name)
  right: [
    (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)
    (generator_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)]
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @definition.function

(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports) @definition.receiver
    property: (property_identifier) @name)
  right: (_ !body) @definition.value
  (#eq? @_module "module")
  (#eq? @_exports "exports")
  (#not-match? @definition.value "^(?!(?:true|false|null)$)(?:[^\\W\\d]|\\$)[\\w$]*$")) @definition.variable

(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports) @definition.receiver
  right: (object [
    (method_definition
      name: (property_identifier) @name
      parameters: (formal_parameters) @definition.params
      body: (statement_block) @definition.body) @definition.function
    (pair
      key: (property_identifier) @name
      value: [
        (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
        (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
        (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)]) @definition.function])
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; ================================================================ Attached facts

; ---- exported -----------------------------------------------------------------------------

(export_statement declaration: (_) @exported.owner)
(export_statement declaration: (lexical_declaration (variable_declarator) @exported.owner))
(export_statement declaration: (variable_declaration (variable_declarator) @exported.owner))
(export_statement declaration: (ambient_declaration (_) @exported.owner))
(export_statement
  declaration: (ambient_declaration [
    (lexical_declaration (variable_declarator) @exported.owner)
    (variable_declaration (variable_declarator) @exported.owner)]))

((assignment_expression
   left: (member_expression object: (identifier) @_exports)) @exported.owner
 (#eq? @_exports "exports"))
((assignment_expression
   left: (member_expression
     object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports))) @exported.owner
 (#eq? @_module "module")
 (#eq? @_exports "exports"))
((assignment_expression
   left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
   right: (object [(method_definition) (pair)] @exported.owner))
 (#eq? @_module "module")
 (#eq? @_exports "exports"))

; ---- modifiers ----------------------------------------------------------------------------

(export_statement "default" @modifier declaration: (_) @modifier.owner)

[(function_declaration "async" @modifier)
 (generator_function_declaration "async" @modifier)
 (method_definition "async" @modifier)] @modifier.owner
(variable_declarator
  value: [(arrow_function "async" @modifier) (function_expression "async" @modifier) (generator_function "async" @modifier)]) @modifier.owner
(public_field_definition
  value: [(arrow_function "async" @modifier) (function_expression "async" @modifier)]) @modifier.owner

[(method_definition (accessibility_modifier) @modifier)
 (method_signature (accessibility_modifier) @modifier)
 (abstract_method_signature (accessibility_modifier) @modifier)
 (public_field_definition (accessibility_modifier) @modifier)] @modifier.owner
[(method_definition "static" @modifier)
 (method_signature "static" @modifier)
 (public_field_definition "static" @modifier)] @modifier.owner
[(abstract_class_declaration "abstract" @modifier)
 (abstract_method_signature "abstract" @modifier)
 (public_field_definition "abstract" @modifier)] @modifier.owner
[(public_field_definition "readonly" @modifier)
 (property_signature "readonly" @modifier)] @modifier.owner
[(method_definition (override_modifier) @modifier)
 (method_signature (override_modifier) @modifier)
 (public_field_definition (override_modifier) @modifier)] @modifier.owner
(method_definition ["get" "set"] @modifier) @modifier.owner

; ---- decorators ---------------------------------------------------------------------------

(class_declaration decorator: (decorator) @decorator) @decorator.owner
(abstract_class_declaration decorator: (decorator) @decorator) @decorator.owner
(export_statement decorator: (decorator) @decorator declaration: (_) @decorator.owner)
(public_field_definition decorator: (decorator) @decorator) @decorator.owner
(required_parameter decorator: (decorator) @decorator) @decorator.owner
(class_body (decorator) @decorator . [(method_definition) (method_signature)] @decorator.owner)
(class_body (decorator) @decorator . (decorator) . [(method_definition) (method_signature)] @decorator.owner)
(class_body (decorator) @decorator . (decorator) . (decorator) . [(method_definition) (method_signature)] @decorator.owner)

; ---- comments (JSDoc is attached by position: LanguageSpec.doc_comment_prefixes) ----------

(comment) @comment

; ================================================================ Scopes

[(function_declaration) (generator_function_declaration) (function_expression) (generator_function)
 (arrow_function) (method_definition) (function_signature) (method_signature)
 (abstract_method_signature) (call_signature) (construct_signature)] @scope.function

; Function types open a scope so their parameter names bind nowhere else.
[(function_type) (constructor_type)] @scope

[(class_body) (interface_body) (enum_body)] @scope.class

[(statement_block) (for_statement) (for_in_statement) (catch_clause) (switch_body)] @scope

; ================================================================ References

(identifier) @reference
(this) @reference
(super) @reference
(shorthand_property_identifier) @reference
(type_identifier) @reference.type

(member_expression
  object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @reference) @reference.expression

(member_expression
  object: [(string) (template_string) (array) (number) (regex) (parenthesized_expression [(number) (string)])] @receiver.builtin
  property: (property_identifier) @reference) @reference.expression

(nested_type_identifier
  module: (_) @receiver
  name: (type_identifier) @reference) @reference.expression

(nested_identifier
  object: (_) @receiver
  property: (property_identifier) @reference) @reference.expression

; Writes.
(assignment_expression left: (identifier) @reference.write)
(augmented_assignment_expression left: (identifier) @reference.write)
(update_expression argument: (identifier) @reference.write)
(assignment_expression left: (member_expression property: [(property_identifier) (private_property_identifier)] @reference.write))
(augmented_assignment_expression left: (member_expression property: [(property_identifier) (private_property_identifier)] @reference.write))
(update_expression argument: (member_expression property: [(property_identifier) (private_property_identifier)] @reference.write))
(assignment_expression
  left: [
    (array_pattern [(identifier) (assignment_pattern left: (identifier))] @reference.write)
    (object_pattern [(shorthand_property_identifier_pattern) (pair_pattern value: (identifier))] @reference.write)])
(for_in_statement !kind left: (identifier) @reference.write)

; A function or class expression's own name binds only inside itself: not a reference.
(function_expression name: (identifier) @ignore)
(generator_function name: (identifier) @ignore)
(class name: (type_identifier) @ignore)

; Types: identifiers inside annotations (`typeof x`, `ns.T`) are type references.
[(type_annotation) (type_arguments) (constraint) (default_type) (type_predicate)
 (implements_clause) (extends_type_clause)] @type.region
(type_alias_declaration value: (_) @type.region)
(as_expression (_) (_) @type.region)
(satisfies_expression (_) (_) @type.region)

; ================================================================ Calls

(call_expression function: (_) @call.callee arguments: (_)? @call.arguments) @call
; `await load<User>(url)` parses as a call of `await load` (the grammar's precedence with type
; arguments): it is a call of `load`
(call_expression
  function: (await_expression (_) @call.callee) type_arguments: (_) arguments: (_)? @call.arguments) @call
(new_expression constructor: (_) @call.callee arguments: (_)? @call.arguments) @call @call.new

; ================================================================ Imports

; import D from './m'
(import_statement
  (import_clause (identifier) @import.default)
  source: (string (string_fragment) @import.module)) @import

; import * as NS from './m'
(import_statement
  (import_clause (namespace_import (identifier) @import.namespace))
  source: (string (string_fragment) @import.module)) @import

; import { a, b as c } from './m'   (also `import type { … }`)
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name !alias)))
  source: (string (string_fragment) @import.module)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_) @import.alias)))
  source: (string (string_fragment) @import.module)) @import

; import './side-effect'
(import_statement . source: (string (string_fragment) @import.module)) @import

; import x = require('./m')
(import_statement
  (import_require_clause (identifier) @import.namespace source: (string (string_fragment) @import.module))) @import

; import('./m')  (dynamic: a dependency without a binding)
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.module))) @import

; CommonJS: const x = require('./m');  const { a, b: c } = require('./m');  const y = require('./m').y
((variable_declarator
   name: (identifier) @import.namespace
   value: (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @import.module) .))) @import
 (#eq? @_require "require"))

((variable_declarator
   name: (identifier) @import.alias
   value: (member_expression
     object: (call_expression
       function: (identifier) @_require
       arguments: (arguments . (string (string_fragment) @import.module) .))
     property: (property_identifier) @import.name)) @import
 (#eq? @_require "require"))

((variable_declarator
   name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
   value: (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @import.module) .))) @import
 (#eq? @_require "require"))

((variable_declarator
   name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias))
   value: (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @import.module) .))) @import
 (#eq? @_require "require"))

; require('./side-effect');
((expression_statement
   (call_expression
     function: (identifier) @_require
     arguments: (arguments . (string (string_fragment) @import.module) .)) @import)
 (#eq? @_require "require"))

; ================================================================ Exports

; export { a, b as c }
(export_statement
  (export_clause (export_specifier name: (_) @export.name !alias))
  !source)
(export_statement
  (export_clause (export_specifier name: (_) @export.name alias: (_) @export.alias))
  !source)

; export { a, b as c } from './m'
(export_statement
  (export_clause (export_specifier name: (_) @export.name !alias))
  source: (string (string_fragment) @export.module))
(export_statement
  (export_clause (export_specifier name: (_) @export.name alias: (_) @export.alias))
  source: (string (string_fragment) @export.module))

; export * from './m'
(export_statement
  "*"
  source: (string (string_fragment) @export.module)) @export.star

; export * as ns from './m'
(export_statement
  (namespace_export (_) @export.namespace)
  source: (string (string_fragment) @export.module))

; export default X;  export default function f() {}  export = X (TypeScript's CommonJS form)
(export_statement "default" value: (_) @export.default)
(export_statement "default" declaration: (_) @export.default)
(export_statement "=" (_) @export.default)

; CommonJS: module.exports = { a, b: c };  module.exports = X
((assignment_expression
   left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
   right: (object (shorthand_property_identifier) @export.name))
 (#eq? @_module "module")
 (#eq? @_exports "exports"))

((assignment_expression
   left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
   right: (object (pair key: (property_identifier) @export.alias value: (identifier) @export.name)))
 (#eq? @_module "module")
 (#eq? @_exports "exports"))

; exports.f = f;  module.exports.f = f
((assignment_expression
   left: (member_expression object: (identifier) @_exports property: (property_identifier) @export.alias)
   right: (identifier) @export.name)
 (#eq? @_exports "exports"))

((assignment_expression
   left: (member_expression
     object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
     property: (property_identifier) @export.alias)
   right: (identifier) @export.name)
 (#eq? @_module "module")
 (#eq? @_exports "exports"))

((assignment_expression
   left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
   right: [(identifier) (member_expression) (call_expression) (new_expression) (class) (function_expression) (arrow_function)] @export.default)
 (#eq? @_module "module")
 (#eq? @_exports "exports"))

; ---- expressions that stand for another's value (besides ecmascript.scm's) ---------------
; `x!` and `x satisfies T` have x's value; `x as T` is declared a T.
(non_null_expression (_) @expression.inner) @expression.wrapper
(satisfies_expression . (_) @expression.inner) @expression.wrapper
(as_expression (_) [(type_identifier) (nested_type_identifier)] @expression.cast) @expression.wrapper
(as_expression (_) (generic_type name: (_) @expression.cast)) @expression.wrapper
; `new Map<string, User>()`, `new Set<User>()`: a container typed by its items — the last type
; argument, as an annotation `Map<string, User>` types it.
((new_expression
   constructor: (identifier) @_container
   type_arguments: (type_arguments (_) @expression.declared .)) @expression.wrapper
 (#any-of? @_container "Map" "Set" "WeakMap" "WeakSet" "Array" "Promise"))
; `load<User>(url)`, `api.get<User>(path)`: what a generic function declared to return its type
; parameter (`Promise<T>`) gives (resolve/types.py).
(call_expression type_arguments: (type_arguments . (_) @expression.type_argument)) @expression.wrapper

; A typed variable's value has that type (`const o: T = {…}`, also in its alternatives
; `c ? ({…}) : null`); so does `{…} as T`. The keys of such object literals name T's members.
(variable_declarator
  type: (type_annotation [(type_identifier) (nested_type_identifier)] @expression.declared)
  value: (_) @expression.wrapper)
(variable_declarator
  type: (type_annotation (generic_type name: (_) @expression.declared))
  value: (_) @expression.wrapper)
(variable_declarator
  type: (type_annotation (union_type [(type_identifier) (generic_type name: (_))] @expression.declared))
  value: (_) @expression.wrapper)
(variable_declarator
  type: (type_annotation (union_type (union_type [(type_identifier) (generic_type name: (_))] @expression.declared)))
  value: (_) @expression.wrapper)
(as_expression (object) @expression.wrapper [(type_identifier) (nested_type_identifier)] @expression.declared)
(as_expression (object) @expression.wrapper (generic_type name: (_) @expression.declared))
(variable_declarator
  type: (type_annotation)
  value: (object (pair key: (property_identifier) @reference)) @receiver.literal)
; … and so do its method shorthands (`const repo: Repo = { find(id) {…} }`, also passed as an argument)
(variable_declarator
  type: (type_annotation)
  value: (object (method_definition name: (property_identifier) @reference)) @receiver.literal)
(arguments (object (method_definition name: (property_identifier) @reference)) @receiver.literal)
(ternary_expression consequence: [(object (pair key: (property_identifier) @reference)) @receiver.literal
   (parenthesized_expression (object (pair key: (property_identifier) @reference)) @receiver.literal)])
(ternary_expression alternative: [(object (pair key: (property_identifier) @reference)) @receiver.literal
   (parenthesized_expression (object (pair key: (property_identifier) @reference)) @receiver.literal)])
(as_expression (object (pair key: (property_identifier) @reference)) @receiver.literal)

; ---- typed destructuring and indexed access types ------------------------------------------
; `({year, month}: Parts) => …`, `const {a}: T = …`: the keys are members of the declared type.
(required_parameter pattern: (object_pattern) @expression.wrapper type: (type_annotation (_) @expression.declared))
(optional_parameter pattern: (object_pattern) @expression.wrapper type: (type_annotation (_) @expression.declared))
(variable_declarator name: (object_pattern) @expression.wrapper type: (type_annotation (_) @expression.declared))
; `Options['method']` names the member `method` of Options.
(lookup_type (type_identifier) @receiver (literal_type (string (string_fragment) @reference)))
