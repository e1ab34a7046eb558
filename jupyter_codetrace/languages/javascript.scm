; inherits: ecmascript,jsx
; JavaScript (ES modules, CommonJS, JSX): definitions, scopes, references, imports/exports and
; calls for jupyter_codetrace. Capture names are the vocabulary of languages/captures.py.
; The TypeScript query (typescript.scm) follows the same layout; keep the two in step.
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

[(function_declaration
   name: (identifier) @name
   parameters: (formal_parameters) @definition.params
   body: (statement_block) @definition.body)
 (generator_function_declaration
   name: (identifier) @name
   parameters: (formal_parameters) @definition.params
   body: (statement_block) @definition.body)] @definition.function

; `const f = (…) => …`, `let g = function (…) {…}`, `var h = function* () {}`
(variable_declarator
  name: (identifier) @name
  value: [
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)
    (function_expression parameters: (formal_parameters) @definition.params body: (statement_block) @definition.body)
    (generator_function parameters: (formal_parameters) @definition.params body: (statement_block) @definition.body)
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
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)
    (function_expression parameters: (formal_parameters) @definition.params body: (statement_block) @definition.body)
    (generator_function parameters: (formal_parameters) @definition.params body: (statement_block) @definition.body)
  ]) @definition.function
(export_statement "default" @name value: (class body: (class_body) @definition.body)) @definition.class
(export_statement "default" @name value: (class (class_heritage (_) @definition.extends))) @definition.class
(export_statement "default" @name
  value: [(call_expression) (new_expression) (member_expression) (await_expression) (parenthesized_expression)
          (ternary_expression) (array)] @definition.value) @definition.constant

; ---- classes ------------------------------------------------------------------------------

(class_declaration
  name: (identifier) @name
  body: (class_body) @definition.body) @definition.class

(class_declaration
  name: (identifier) @name
  (class_heritage (_) @definition.extends)) @definition.class

(variable_declarator
  name: (identifier) @name
  value: (class body: (class_body) @definition.body)) @definition.class

(variable_declarator
  name: (identifier) @name
  value: (class (class_heritage (_) @definition.extends))) @definition.class

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class)) @definition.class @hoist)

; ---- class members ------------------------------------------------------------------------

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
    parameters: (formal_parameters) @definition.params
    body: (statement_block) @definition.body) @definition.method
  (#not-eq? @name "constructor"))

(class_body
  (method_definition
    name: (property_identifier) @name
    parameters: (formal_parameters) @definition.params
    body: (statement_block) @definition.body) @definition.constructor
  (#eq? @name "constructor"))

; Fields. A field holding a function is a method (it opens the scope its code runs in).
(field_definition
  property: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  value: (_ !body) @definition.value) @definition.property

(field_definition
  property: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  !value) @definition.property

(field_definition
  property: [(property_identifier) (private_property_identifier) (computed_property_name)] @name
  value: [
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)
    (function_expression parameters: (formal_parameters) @definition.params body: (statement_block) @definition.body)
  ]) @definition.method

; `this.x = …` in a constructor or method: a field of the enclosing class (the engine drops it
; elsewhere).
(assignment_expression
  left: (member_expression
    object: (this) @definition.receiver
    property: [(property_identifier) (private_property_identifier)] @name)
  right: (_) @definition.value) @definition.field

; ---- variables ----------------------------------------------------------------------------

(lexical_declaration
  kind: "const"
  (variable_declarator
    name: (identifier) @name
    value: [
      (_ !body !function !object) @definition.value
      (subscript_expression) @definition.value
      (call_expression) @definition.value @_call
      (member_expression) @definition.value @_call]) @definition.constant
  (#not-match? @_call "^require\\s*\\(\\s*[\"'`][^\"'`]*[\"'`]\\s*\\)(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)?$"))

(lexical_declaration
  kind: "let"
  (variable_declarator
    name: (identifier) @name
    value: [
      (_ !body !function !object) @definition.value
      (subscript_expression) @definition.value
      (call_expression) @definition.value @_call
      (member_expression) @definition.value @_call]) @definition.variable
  (#not-match? @_call "^require\\s*\\(\\s*[\"'`][^\"'`]*[\"'`]\\s*\\)(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)?$"))

(lexical_declaration
  kind: "let"
  (variable_declarator name: (identifier) @name !value) @definition.variable)

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (_ !body !function !object) @definition.value
      (subscript_expression) @definition.value
      (call_expression) @definition.value @_call
      (member_expression) @definition.value @_call]) @definition.variable @hoist
  (#not-match? @_call "^require\\s*\\(\\s*[\"'`][^\"'`]*[\"'`]\\s*\\)(\\s*\\.\\s*[A-Za-z_$][A-Za-z0-9_$]*)?$"))

(variable_declaration
  (variable_declarator name: (identifier) @name !value) @definition.variable @hoist)

; ---- variables holding an object made to be given members (index/extract.py `_attach_to_object`):
; a literal, `Object.create(…)`, the end of `var app = exports = module.exports = {}`
(variable_declarator name: (identifier) @object.holder value: (object))
((variable_declarator
   name: (identifier) @object.holder
   value: (call_expression function: (member_expression object: (identifier) @_object property: (property_identifier) @_create)))
 (#eq? @_object "Object")
 (#eq? @_create "create"))
(variable_declarator
  name: (identifier) @object.holder
  value: (assignment_expression right: [(object) (assignment_expression right: (object))]))

; ---- members of an object literal a variable holds: `const api = { get(url) {…}, base: '/v1' }`
; (untyped: a declared type's literal names that type's members instead)
(variable_declarator
  name: (identifier) @definition.receiver
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

(formal_parameters (identifier) @name @definition.parameter)
(formal_parameters
  (assignment_pattern left: (identifier) @name right: (_) @definition.default) @definition.parameter)
(formal_parameters (rest_pattern (identifier) @name) @definition.parameter)
(arrow_function parameter: (identifier) @name @definition.parameter)

; Destructured parameters (`function f({ a, b: c } = {}, [d])`): the identifiers they bind.
(formal_parameters
  [
    (object_pattern [
      (shorthand_property_identifier_pattern) @name @definition.value @definition.parameter
      (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.parameter)
      (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.parameter)
      (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.parameter))
      (rest_pattern (identifier) @name @definition.parameter)])
    (array_pattern [
      (identifier) @name @definition.parameter
      (assignment_pattern left: (identifier) @name @definition.parameter)
      (rest_pattern (identifier) @name @definition.parameter)])
    (assignment_pattern
      left: (object_pattern [
        (shorthand_property_identifier_pattern) @name @definition.value @definition.parameter
        (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @definition.value @definition.parameter)
        (pair_pattern key: (_) @definition.value value: (identifier) @name @definition.parameter)
        (pair_pattern key: (_) @definition.value value: (assignment_pattern left: (identifier) @name @definition.parameter))
        (rest_pattern (identifier) @name @definition.parameter)]))
    (assignment_pattern
      left: (array_pattern [
        (identifier) @name @definition.parameter
        (assignment_pattern left: (identifier) @name @definition.parameter)
        (rest_pattern (identifier) @name @definition.parameter)]))])

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
(export_statement declaration: [
  (lexical_declaration (variable_declarator) @exported.owner)
  (variable_declaration (variable_declarator) @exported.owner)])

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
(field_definition
  value: [(arrow_function "async" @modifier) (function_expression "async" @modifier)]) @modifier.owner
[(method_definition "static" @modifier) (field_definition "static" @modifier)] @modifier.owner
(method_definition ["get" "set"] @modifier) @modifier.owner

; ---- decorators ---------------------------------------------------------------------------

[(class_declaration decorator: (decorator) @decorator)
 (method_definition decorator: (decorator) @decorator)
 (field_definition decorator: (decorator) @decorator)] @decorator.owner

; ---- comments (JSDoc is attached by position: LanguageSpec.doc_comment_prefixes) ----------

(comment) @comment

; ================================================================ Scopes

[(function_declaration) (generator_function_declaration) (function_expression) (generator_function)
 (arrow_function) (method_definition)] @scope.function

(class_body) @scope.class

[(statement_block) (for_statement) (for_in_statement) (catch_clause) (switch_body)] @scope

; ================================================================ References

(identifier) @reference
(this) @reference
(super) @reference
(shorthand_property_identifier) @reference

(member_expression
  object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @reference) @reference.expression

(member_expression
  object: [(string) (template_string) (array) (number) (regex) (parenthesized_expression [(number) (string)])] @receiver.builtin
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
(class name: (identifier) @ignore)

; ================================================================ Calls

(call_expression function: (_) @call.callee arguments: (_)? @call.arguments) @call
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

; import { a, b as c } from './m'
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name !alias)))
  source: (string (string_fragment) @import.module)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_) @import.alias)))
  source: (string (string_fragment) @import.module)) @import

; import './side-effect'
(import_statement . source: (string (string_fragment) @import.module)) @import

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

; export default X;  export default function f() {}
(export_statement "default" value: (_) @export.default)
(export_statement "default" declaration: (_) @export.default)

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

; A callback's first parameter is an item of the array it is called over
; (`users.map((u) => u.name)`, `.forEach`, `.filter`, `.find`, …; what a `Promise<User>` gives
; `.then`): merged into the parameter.
; (`x => …` in ecmascript.scm; here `(x) => …`.)
(call_expression
  function: (member_expression object: (_) @definition.item property: (property_identifier) @_method)
  arguments: (arguments . (arrow_function parameters: (formal_parameters . (identifier) @name @definition.parameter)))
  (#any-of? @_method "map" "forEach" "filter" "find" "findLast" "findIndex" "some" "every" "flatMap" "then"))
