; Python: definitions, scopes, references, imports and calls for jupyter_codetrace.
; Capture names are the vocabulary of languages/captures.py.

; ---------------------------------------------------------------- Definitions

(function_definition
  name: (identifier) @name
  parameters: (parameters) @definition.params
  return_type: (_)? @definition.returns
  body: (_) @definition.body) @definition.function

(class_definition
  name: (identifier) @name
  body: (_) @definition.body) @definition.class

(class_definition
  name: (identifier) @name
  superclasses: (argument_list [(identifier) (attribute)] @definition.extends)) @definition.class

; Parameters (bind in the function's scope).
(parameters (identifier) @name @definition.parameter)
(lambda_parameters (identifier) @name @definition.parameter)
(typed_parameter (identifier) @name type: (type) @definition.type) @definition.parameter
(default_parameter name: (identifier) @name value: (_) @definition.default) @definition.parameter
(lambda_parameters (default_parameter name: (identifier) @name value: (_) @definition.default) @definition.parameter)
(typed_default_parameter
  name: (identifier) @name
  type: (type) @definition.type
  value: (_) @definition.default) @definition.parameter
(parameters [(list_splat_pattern (identifier) @name) (dictionary_splat_pattern (identifier) @name)] @definition.parameter)
(lambda_parameters [(list_splat_pattern (identifier) @name) (dictionary_splat_pattern (identifier) @name)] @definition.parameter)
(typed_parameter (list_splat_pattern (identifier) @name) type: (type) @definition.type) @definition.parameter
(typed_parameter (dictionary_splat_pattern (identifier) @name) type: (type) @definition.type) @definition.parameter

; Variables: `x = v`, `x: T = v`, `x: T`, tuple targets, augmented assignment is a write only.
(assignment
  left: (identifier) @name
  type: (type)? @definition.type
  right: (_)? @definition.value) @definition.variable
; Destructuring: each name takes the item at its position (two levels of nesting; `*rest`).
(assignment
  left: [(pattern_list [(identifier) @name (list_splat_pattern (identifier) @name)])
         (tuple_pattern [(identifier) @name (list_splat_pattern (identifier) @name)])
         (list_pattern [(identifier) @name (list_splat_pattern (identifier) @name)])] @definition.pattern
  right: (_) @definition.unpacked) @definition.variable
(assignment
  left: (_ [(tuple_pattern [(identifier) @name (list_splat_pattern (identifier) @name)])
            (list_pattern [(identifier) @name (list_splat_pattern (identifier) @name)])]) @definition.pattern
  right: (_) @definition.unpacked) @definition.variable
(assignment
  left: (_ (_ [(tuple_pattern (identifier) @name) (list_pattern (identifier) @name)])) @definition.pattern
  right: (_) @definition.unpacked) @definition.variable

; Attributes assigned through `self` become members of the enclosing class.
(assignment
  left: (attribute
    object: (identifier) @definition.receiver
    attribute: (identifier) @name)
  type: (type)? @definition.type
  right: (_)? @definition.value) @definition.field

; Loop variables, `with … as x`, `except … as e`, comprehension variables, walrus.
(for_statement left: (identifier) @name @definition.variable right: (_) @definition.item)
(for_statement left: [(pattern_list (identifier) @name @definition.variable)
                      (tuple_pattern (identifier) @name @definition.variable)] @definition.pattern
               right: (_) @definition.item)
(for_in_clause left: (identifier) @name @definition.variable right: (_) @definition.item)
(for_in_clause left: [(pattern_list (identifier) @name @definition.variable)
                      (tuple_pattern (identifier) @name @definition.variable)] @definition.pattern
               right: (_) @definition.item)
(as_pattern alias: (as_pattern_target (identifier) @name @definition.variable))
(with_item value: (as_pattern (_) @definition.entered alias: (as_pattern_target (identifier) @name @definition.variable)))
(named_expression name: (identifier) @name value: (_) @definition.value) @definition.variable

; Documentation and decoration.
(function_definition body: (block . (string) @doc)) @doc.owner
(class_definition body: (block . (string) @doc)) @doc.owner
(module . (string) @doc) @doc.owner
(decorated_definition (decorator) @decorator definition: (_) @decorator.owner)
(function_definition "async" @modifier) @modifier.owner

; `__all__ = ["a", "b"]`
((assignment
   left: (identifier) @_all
   right: [(list (string (string_content) @export.name))
           (tuple (string (string_content) @export.name))]) @export.all
 (#eq? @_all "__all__"))

; ---------------------------------------------------------------- Scopes

(function_definition) @scope.function
(lambda) @scope.function
(class_definition) @scope.class
[(list_comprehension) (set_comprehension) (dictionary_comprehension) (generator_expression)] @scope

(global_statement (identifier) @declare.global)
(nonlocal_statement (identifier) @declare.nonlocal)

; ---------------------------------------------------------------- References

(identifier) @reference

(attribute
  object: (_) @receiver
  attribute: (identifier) @reference) @reference.expression

(attribute
  object: [(string) (concatenated_string) (integer) (float) (list) (dictionary) (set) (tuple)
           (list_comprehension) (dictionary_comprehension) (set_comprehension)] @receiver.builtin
  attribute: (identifier) @reference) @reference.expression

(assignment left: (identifier) @reference.write)
(augmented_assignment left: (identifier) @reference.write)
(assignment left: (pattern_list (identifier) @reference.write))
(assignment left: (tuple_pattern (identifier) @reference.write))
(assignment left: (attribute attribute: (identifier) @reference.write))
(augmented_assignment left: (attribute attribute: (identifier) @reference.write))

(type) @type.region
; a forward reference: `x: "Console"`, `Optional["Console"]` (the names inside are references)
(type (string (string_content) @type.forward))

(keyword_argument name: (identifier) @ignore)

; ---------------------------------------------------------------- Calls

(call function: (_) @call.callee arguments: (_)? @call.arguments) @call
; `@dec` calls dec with the function below it (`@dec(…)` is a call already)
(decorator [(identifier) (attribute)] @call.callee) @call
; `@make(…)` calls what make(…) gives with the function below it
(decorator (call) @call.callee) @call
; `raise Error` makes an Error (a bare class name: Python instantiates it)
((raise_statement . [(identifier) (attribute)] @call.callee) @call
 (#match? @call.callee "^([A-Za-z_][A-Za-z0-9_]*\\.)*[A-Z][A-Za-z0-9_]*$"))

; ---------------------------------------------------------------- Imports

; import a.b.c  /  import a.b as c
(import_statement name: (dotted_name) @import.module @import.dotted) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import

; from m import a, b as c  /  from . import x  /  from m import *
(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name) @import
(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement
  module_name: (_) @import.module
  (wildcard_import) @import.star) @import

; ---- expressions that stand for another's value ------------------------------------------
; `(x)` and `await x` have x's value; `a or b` and `a if c else b` have one of theirs.
(parenthesized_expression (_) @expression.inner) @expression.wrapper
(await (_) @expression.inner) @expression.wrapper
(boolean_operator left: (_) @expression.inner operator: "or" right: (_) @expression.inner) @expression.wrapper
(conditional_expression . (_) @expression.inner . (_) . (_) @expression.inner .) @expression.wrapper

; ---- value flow: what functions return, what containers hold ------------------------------
; Only where a value can matter to a call: returns of names and calls, items of containers
; that are assigned or returned, subscripts that are called, assigned or used as receivers.
(return_statement [(identifier) (attribute) (call) (subscript) (lambda) (boolean_operator)
                   (conditional_expression) (parenthesized_expression)
                   (list) (tuple) (dictionary) (expression_list)] @returned)
(call function: (subscript value: (_) @expression.element subscript: (_) @expression.key .) @expression.wrapper)
(assignment right: (subscript value: (_) @expression.element subscript: (_) @expression.key .) @expression.wrapper)
(attribute object: (subscript value: (_) @expression.element subscript: (_) @expression.key .) @expression.wrapper)
(for_statement right: (subscript value: (_) @expression.element subscript: (_) @expression.key .) @expression.wrapper)
(subscript value: (subscript value: (_) @expression.element subscript: (_) @expression.key .) @expression.wrapper)
(assignment right: (assignment right: (_) @expression.inner) @expression.wrapper)   ; `a = b = v`
(assignment right: [(list (_)+ @expression.items) (tuple (_)+ @expression.items) (set (_)+ @expression.items)
                    (expression_list (_)+ @expression.items)] @expression.wrapper)
(return_statement [(list (_)+ @expression.items) (tuple (_)+ @expression.items)
                   (expression_list (_)+ @expression.items)] @expression.wrapper)
(list [(list (_)+ @expression.items) (tuple (_)+ @expression.items)] @expression.wrapper)
(tuple [(list (_)+ @expression.items) (tuple (_)+ @expression.items)] @expression.wrapper)
(expression_list [(list (_)+ @expression.items) (tuple (_)+ @expression.items)] @expression.wrapper)
(argument_list [(list (_)+ @expression.items) (tuple (_)+ @expression.items)] @expression.wrapper)
(assignment right: (dictionary (pair key: (_) @expression.key value: (_) @expression.items)+) @expression.wrapper)
(return_statement (dictionary (pair key: (_) @expression.key value: (_) @expression.items)+) @expression.wrapper)
(argument_list (dictionary (pair key: (_) @expression.key value: (_) @expression.items)+) @expression.wrapper)
(pair value: (dictionary (pair key: (_) @expression.key value: (_) @expression.items)+) @expression.wrapper)

; What loops iterate (the iteration protocol's calls) and what generators yield.
(for_statement right: (_) @iterated)
(for_in_clause right: (_) @iterated)
(yield [(identifier) (attribute) (call) (lambda) (subscript)] @yielded)

; `isinstance(x, C)`: x is a C where the test holds (the `if` body, the right side of `and`).
((if_statement
   condition: [(call function: (identifier) @_test
                     arguments: (argument_list . (identifier) @narrow.name . [(identifier) (attribute)] @narrow.type .))
               (boolean_operator left: (call function: (identifier) @_test
                     arguments: (argument_list . (identifier) @narrow.name . [(identifier) (attribute)] @narrow.type .))
                 operator: "and")]
   consequence: (block) @narrow.region)
 (#eq? @_test "isinstance"))
((boolean_operator
   left: (call function: (identifier) @_test
               arguments: (argument_list . (identifier) @narrow.name . [(identifier) (attribute)] @narrow.type .))
   operator: "and" right: (_) @narrow.region)
 (#eq? @_test "isinstance"))

; Items added to a container after it is made: `d[k] = v`, `xs.append(v)`, `d.update({…})`.
(assignment left: (subscript value: (_) @item.container subscript: (_) @item.key .) right: (_) @item.value) @item.write
((call
   function: (attribute object: (_) @item.container attribute: (identifier) @_method)
   arguments: (argument_list . (_) @item.value .)) @item.write
 (#any-of? @_method "append" "add" "appendleft"))
((call
   function: (attribute object: (_) @item.container attribute: (identifier) @_method)
   arguments: (argument_list . (_) @item.key . (_) @item.value .)) @item.write
 (#any-of? @_method "insert" "setdefault"))
((call
   function: (attribute object: (_) @item.container attribute: (identifier) @_method)
   arguments: (argument_list . (_) @item.value @item.spread .)) @item.write
 (#any-of? @_method "extend" "update"))

