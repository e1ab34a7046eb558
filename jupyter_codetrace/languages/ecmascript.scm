; What JavaScript and TypeScript share, inherited by javascript.scm and typescript.scm (and so
; tsx.scm): value flow. Only nodes both grammars have. Capture names: languages/captures.py.

; ---- expressions that stand for another's value ------------------------------------------
; `(x)` and `await x` have x's value; `a || b`, `a ?? b` and `c ? a : b` one of theirs.
(parenthesized_expression (_) @expression.inner) @expression.wrapper
(await_expression (_) @expression.inner) @expression.wrapper
(binary_expression left: (_) @expression.inner operator: ["||" "??"] right: (_) @expression.inner) @expression.wrapper
(ternary_expression consequence: (_) @expression.inner alternative: (_) @expression.inner) @expression.wrapper

; ---- value flow: what functions return, what containers hold ------------------------------
(return_statement (_) @returned)
(arrow_function body: [(identifier) (member_expression) (call_expression) (new_expression)
                        (parenthesized_expression) (ternary_expression) (binary_expression)] @returned)
; Only where a value can matter to a call (see python.scm).
(call_expression function: (subscript_expression object: (_) @expression.element) @expression.wrapper)
(variable_declarator value: (subscript_expression object: (_) @expression.element) @expression.wrapper)
(member_expression object: (subscript_expression object: (_) @expression.element) @expression.wrapper)
(variable_declarator value: (array (_)+ @expression.items) @expression.wrapper)
(variable_declarator value: (object (pair value: (_) @expression.items)+) @expression.wrapper)
(return_statement (array (_)+ @expression.items) @expression.wrapper)
(return_statement (object (pair value: (_) @expression.items)+) @expression.wrapper)

; ---- members given to an object by assignment ---------------------------------------------
; CommonJS libraries written before classes: `app.use = function use(fn) {…}` on a variable
; (`var app = {}`, `Object.create(…)`), `View.prototype.render = function (…) {…}` on a
; constructor function, `View.create = …` on a function. Members of the object (or of the
; function's instances) when the receiver names a definition the assignment sees
; (index/extract.py `_attach_to_object`); `exports.f` / `module.exports.f` are exports instead.
(assignment_expression
  left: (member_expression
    object: (identifier) @definition.receiver
    property: (property_identifier) @name)
  right: [
    (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)]
  (#not-match? @definition.receiver "^(exports|module)$")) @definition.method
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) property: (property_identifier) @_prototype) @definition.receiver
    property: (property_identifier) @name)
  right: [
    (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)
    (arrow_function parameter: (identifier) @definition.params body: (_) @definition.body)]
  (#eq? @_prototype "prototype")) @definition.method
; `Object.defineProperty(WebSocket, 'CLOSED', {…})`: a property of what it is defined on
((call_expression
   function: (member_expression object: (identifier) @_object property: (property_identifier) @_define)
   arguments: (arguments . (identifier) @definition.receiver . (string (string_fragment) @name) . (object))) @definition.property
 (#eq? @_object "Object")
 (#eq? @_define "defineProperty"))
; `View.prototype = { render() {…}, lookup: function (name) {…} }`: the literal's methods
(assignment_expression
  left: (member_expression object: (identifier) property: (property_identifier) @_prototype) @definition.receiver
  right: (object [
    (method_definition
      name: (property_identifier) @name
      parameters: (formal_parameters) @definition.params
      body: (statement_block) @definition.body) @definition.method
    (pair
      key: (property_identifier) @name
      value: [
        (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
        (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)]) @definition.method])
  (#eq? @_prototype "prototype"))
; `req.get = req.header = function header(name) {…}`: one function, two names
(assignment_expression
  left: (member_expression
    object: (identifier) @definition.receiver
    property: (property_identifier) @name)
  right: (assignment_expression
    left: (member_expression)
    right: [
      (function_expression parameters: (formal_parameters) @definition.params body: (_) @definition.body)
      (arrow_function parameters: (formal_parameters) @definition.params body: (_) @definition.body)])
  (#not-match? @definition.receiver "^(exports|module)$")) @definition.method

; `createDebug.enabled = enabled`, `createDebug.names = []`: a property of the function or object
; (not an assignment or operation, `!left`: `res.set = res.header = function …` is a method, above)
(assignment_expression
  left: (member_expression
    object: (identifier) @definition.receiver
    property: (property_identifier) @name)
  right: (_ !body !parameters !parameter !left) @definition.value
  (#not-match? @definition.receiver "^(exports|module)$")
  (#not-eq? @name "prototype")) @definition.property

; ---- inheritance written before classes: `Child.prototype = Object.create(Parent.prototype)`,
; `util.inherits(Child, Parent)`: Parent is a base of the constructor function Child
((assignment_expression
   left: (member_expression object: (identifier) @inherit.child property: (property_identifier) @_prototype)
   right: (call_expression
     function: (member_expression object: (identifier) @_object property: (property_identifier) @_create)
     arguments: (arguments . (member_expression object: (identifier) @inherit.base property: (property_identifier) @_base_prototype) .)))
 (#eq? @_prototype "prototype")
 (#eq? @_object "Object")
 (#eq? @_create "create")
 (#eq? @_base_prototype "prototype"))
((call_expression
   function: [(member_expression property: (property_identifier) @_inherits) (identifier) @_inherits]
   arguments: (arguments . (identifier) @inherit.child . (identifier) @inherit.base .))
 (#eq? @_inherits "inherits"))

; ---- exports both grammars write alike -------------------------------------------------
; `var app = exports = module.exports = {}`: the module's value is the variable app
((variable_declarator
   name: (identifier) @export.default
   value: (assignment_expression
     right: (assignment_expression
       left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports))))
 (#eq? @_module "module")
 (#eq? @_exports "exports"))
((variable_declarator
   name: (identifier) @export.default
   value: (assignment_expression
     left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)))
 (#eq? @_module "module")
 (#eq? @_exports "exports"))

; `export default { isArray, each: forEach }`: a constant `default` (what the importer's name is
; defined as), whose members are the module's, as an importer reads them (`import utils from
; './utils.js'; utils.isArray(x)`: resolve/types.py)
(export_statement "default" @name value: (object) @definition.value) @definition.constant
(export_statement "default" value: (object (shorthand_property_identifier) @export.name))
(export_statement "default" value: (object (pair key: (property_identifier) @export.alias value: (identifier) @export.name)))

; ---- callbacks ----------------------------------------------------------------------------
; A callback's first parameter is an item of the array it is called over
; (`users.map((u) => u.name)`, `.forEach`, `.filter`, `.find`, …; what a `Promise<User>` gives
; `.then`): merged into the parameter.
(call_expression
  function: (member_expression object: (_) @definition.item property: (property_identifier) @_method)
  arguments: (arguments . (arrow_function parameter: (identifier) @name @definition.parameter))
  (#any-of? @_method "map" "forEach" "filter" "find" "findLast" "findIndex" "some" "every" "flatMap" "then"))

; ---- object literals that take a declared type --------------------------------------------
; The keys of an object literal passed as an argument name members of the parameter's type
; (`client.get(url, {retry: 2})` uses `Options.retry`).
(arguments (object (pair key: (property_identifier) @reference)) @receiver.literal)
; … and so do the keys of an object literal a function returns (its declared return type).
(return_statement (object (pair key: (property_identifier) @reference)) @receiver.literal)
(return_statement (parenthesized_expression (object (pair key: (property_identifier) @reference)) @receiver.literal))
(arrow_function body: (parenthesized_expression (object (pair key: (property_identifier) @reference)) @receiver.literal))

; ---- destructuring: keys name members of what is destructured ------------------------------
; `const {a, b: c} = value`: a and b are members of value's type (a shorthand key also binds a).
(variable_declarator name: (object_pattern) @expression.wrapper value: (_) @expression.inner)
(object_pattern (shorthand_property_identifier_pattern) @reference) @receiver.pattern
(object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @reference)) @receiver.pattern
(object_pattern (pair_pattern key: (property_identifier) @reference)) @receiver.pattern
; `this.#options = {…}`: the literal has the type of what it is assigned to; its keys name members.
(assignment_expression left: (_) @expression.inner right: (object) @expression.wrapper)
(assignment_expression right: (object (pair key: (property_identifier) @reference)) @receiver.literal)

; ---- narrowing: `x instanceof C` makes x a C where the test holds ----------------------------
(if_statement
  condition: (parenthesized_expression
    [(binary_expression left: (identifier) @narrow.name operator: "instanceof" right: [(identifier) (member_expression)] @narrow.type)
     (binary_expression left: (binary_expression left: (identifier) @narrow.name operator: "instanceof"
                                                 right: [(identifier) (member_expression)] @narrow.type) operator: "&&")])
  consequence: (_) @narrow.region)
(binary_expression
  left: (binary_expression left: (identifier) @narrow.name operator: "instanceof" right: [(identifier) (member_expression)] @narrow.type)
  operator: "&&" right: (_) @narrow.region)
; `f({percent})`: a shorthand key reads the local and names the member of the literal's type.
(object (shorthand_property_identifier) @shorthand.key) @shorthand.literal
