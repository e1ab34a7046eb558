"""The capture vocabulary: every capture name a language's ``.scm`` file may use, and what it means.

Language knowledge lives in the ``.scm`` files; ``index/extract.py`` reads only these names,
never grammar node types. A query lint test checks that every capture in every ``.scm`` is
listed here (names starting with ``_`` are private to a query, for predicates, and ignored).

How matches are read
--------------------
* **Definitions.** One match = one definition. ``@definition.KIND`` (``@definition.type_alias``
  for kind ``type``) marks the whole definition
  node (its span is the definition's span), ``@name`` its defining name. Several matches for the
  same name node are merged (e.g. one match per base class).
* **Attached facts** (``doc``, ``decorator``, ``modifier``, ``exported``): a match holding
  ``@X`` and ``@X.owner`` attaches X to every definition whose node is exactly the owner node.
  This keeps definition patterns small.
* **References.** ``@reference`` marks an identifier that names something. A reference captured
  with ``@receiver`` in the same match is a member access (``receiver.name``); its
  ``@reference.expression`` is the whole member expression, so that calls and other member
  accesses can point at it. A name node that is also a definition ``@name`` or an import name
  is not a reference. ``@ignore`` removes identifiers that name nothing (keyword-argument names).
* **Calls.** ``@call`` is a call node and ``@call.callee`` its function expression (an
  identifier or a member expression); ``@call.new`` marks a constructor call (``new X()``).
* **Scopes.** The module is the root scope. ``@scope`` opens a lexical scope;
  ``@scope.function`` one that also receives hoisted bindings; ``@scope.class`` a class body
  (whether it encloses nested functions is ``LanguageSpec.class_scope_encloses``).
"""

from __future__ import annotations

__all__ = ["CAPTURES", "DEFINITION_KINDS", "definition_capture", "is_known_capture"]

DEFINITION_KINDS = (
    "function", "method", "constructor", "class", "interface", "type", "enum", "enum_member",
    "struct", "trait", "impl", "module", "namespace", "variable", "constant", "property",
    "field", "parameter", "macro",
)


def definition_capture(kind: str) -> str:
    """The capture naming a definition of ``kind``; a type alias is ``definition.type_alias``
    because ``definition.type`` is the declared type of a variable or parameter."""
    return "definition.type_alias" if kind == "type" else f"definition.{kind}"


CAPTURES: dict[str, str] = {
    # --- Definitions -----------------------------------------------------------------------
    **{definition_capture(kind): f"the whole node of a {kind} definition" for kind in DEFINITION_KINDS},
    "name": "the defining name of the definition in the same match",
    "definition.params": "the parameter list node (signature text)",
    "definition.returns": "the declared return type node",
    "definition.generics": "the type-parameter list node",
    "definition.body": "the body node; the signature is the text before it",
    "definition.type": "the declared type of a variable, field, property or parameter",
    "definition.default": "a parameter's default value",
    "definition.value": "the value assigned to a variable/field (drives type inference)",
    "definition.extends": "a base class / extended type expression (one per match)",
    "definition.alternative": "one member of a union type alias (`type R = A | B`): members of R are looked up in A, then B",
    "definition.implements": "an implemented interface expression (one per match)",
    "definition.keyed": "the `key: value` pair of an object literal whose value is the function the definition is a parameter of: where the key names a member of a declared type, the parameter takes what that member's function type says (`{onDone: (count) => …}`)",
    "definition.callback": "the call a function is passed to, of which the definition is a parameter: it takes the type the callee's parameter declares for it (`each(rows, (row) => …)`)",
    "definition.item": "what a loop variable takes its items from (`for x in ITEMS`): its value is an item of that",
    "definition.pattern": "the destructuring pattern a name is bound in (`a, (b, *c) = …`, `for k, v in …`): its position there picks its value from the item's or the assigned value's items",
    "definition.unpacked": "the value assigned to the @definition.pattern (`… = f1, f2`)",
    "definition.entered": "the context manager of `with CM as x`: x is what CM's `__enter__` gives",
    "definition.type_arguments": "the type arguments of a class's or interface's first base (`extends Base<A, B>`): they bind Base's type parameters",
    "definition.receiver": "for `self.x = ...`: the object; the definition becomes a member of the enclosing class when it is the language's self/this",
    "definition.qualifier": "the type an out-of-line member belongs to (`Foo` of C++ `void Foo::bar() {}`, a Go method's receiver type, Rust `impl Foo`): the definition binds no name where it stands and is a member of Foo",
    "declaration": "marks the definition as a declaration only (overload signature, ambient `declare`, prototype)",
    "definition.promoted": "a parameter that also declares a field of the enclosing class (`constructor(private x)`)",
    "hoist": "the definition binds in the nearest @scope.function (JS `var`)",
    "doc": "a documentation node (docstring, doc comment) for @doc.owner",
    "doc.owner": "the definition node the @doc belongs to",
    "decorator": "a decorator expression for @decorator.owner",
    "decorator.owner": "the decorated definition node",
    "modifier": "a modifier keyword (async, static, abstract, …) for @modifier.owner",
    "modifier.owner": "the definition node the modifier belongs to",
    "exported.owner": "the definition node is exported (`export function f`)",
    "comment": "a comment node (doc comments are found by position, see LanguageSpec.doc_comment_prefixes)",
    # --- Scopes ----------------------------------------------------------------------------
    "scope": "a lexical scope (block, comprehension, lambda, function)",
    "scope.function": "a function scope: receives hoisted bindings",
    "scope.class": "a class body scope",
    "declare.global": "a name declared `global` in its scope",
    "declare.nonlocal": "a name declared `nonlocal` in its scope",
    # --- References ------------------------------------------------------------------------
    "reference": "an identifier that names something (usage read unless stated otherwise)",
    "reference.write": "an identifier being assigned",
    "reference.type": "an identifier used as a type",
    "reference.expression": "the whole member expression of a member reference",
    "receiver": "the object expression of a member reference in the same match",
    "receiver.literal": "the object literal whose key @reference is: a member of the literal's declared type, never a guess",
    "receiver.pattern": "the destructuring pattern whose key @reference is (`const {a, b: c} = v`): a member of what the pattern destructures (a wrapper of the value, or of a declared type); a shorthand key also binds a local name",
    "receiver.props": "a JSX element (also an @call of its component) whose attribute @reference names a member of the props the component takes (its first parameter's declared type)",
    "receiver.builtin": "the object is a literal of a built-in type (`''.join`): the member is built-in",
    "expression.wrapper": "an expression that has the value (or the declared type) of another: parentheses, `await`, `x!`, `x as T`",
    "expression.inner": "the expression inside @expression.wrapper whose value it has",
    "expression.cast": "the type inside @expression.wrapper that its value is declared to have (`x as T`)",
    "expression.declared": "the declared type of the literal @expression.wrapper (`const o: T = {…}`): its keys name T's members",
    "expression.type_argument": "the first type argument of the call @expression.wrapper (`load<User>(url)`): what a generic function declared to return its type parameter gives",
    "expression.element": "the container inside @expression.wrapper whose item it is (`x[k]`)",
    "expression.items": "the items of a literal container @expression.wrapper (list, tuple, dict values)",
    "expression.key": "the literal key of @expression.element (`x[0]`, `x[\"a\"]`), or one per @expression.items of a dict, in order",
    "item.write": "a statement that adds an item to a container (`d[k] = v`, `xs.append(v)`, `d.update({…})`)",
    "item.container": "the container @item.write adds to",
    "item.key": "the literal key it is added at (`d[\"k\"] = v`)",
    "item.value": "the value added",
    "item.spread": "the value's own items are added (`xs.extend([…])`, `d.update({…})`)",
    "iterated": "what a loop iterates (`for x in ITERATED`): the loop calls its iteration methods (LanguageSpec.iteration_methods)",
    "yielded": "an expression a generator yields: the items of what calling it gives",
    "narrow.name": "a name a type test narrows (`x` of `x instanceof C`, `isinstance(x, C)`)",
    "narrow.type": "the class it is narrowed to: in @narrow.region the name holds an instance of it",
    "narrow.region": "where the test holds (the `if` body, the right side of `&&` / `and`)",
    "shorthand.key": "a shorthand key of an object literal (`{percent}`): a read of the local percent that also names the member percent of @shorthand.literal's type",
    "shorthand.literal": "the object literal holding @shorthand.key",
    "returned": "an expression a `return` statement gives (value flow of functions)",
    "type.region": "a type annotation node: references inside it are type references",
    "type.forward": "the text of a string written as a type (a forward reference, `x: \"Console\"`): "
                    "the names in it are type references",
    "ignore": "an identifier that names nothing (a keyword argument's name)",
    "inherit.child": "a constructor function given a base after its definition (`Child` of `Child.prototype = Object.create(Parent.prototype)`, `util.inherits(Child, Parent)`; TS/JS)",
    "inherit.base": "that base (`Parent`): as if the function's @definition.extends",
    "object.holder": "the name of a variable whose value is an object made to be given members by assignment (`var app = {}`, `Object.create(…)`): `app.use = function …` defines a member of it (TS/JS)",
    # --- Calls -----------------------------------------------------------------------------
    "call": "a call expression",
    "call.callee": "the called expression of @call",
    "call.arguments": "the argument list of @call: its children in order give positions (one with `name` and `value` fields is a keyword argument); read for value flow into parameters",
    "call.new": "a constructor call expression (`new X()`); pair with @call.callee",
    # --- Imports / exports -----------------------------------------------------------------
    "import": "an import statement / require call (the span of the whole import)",
    "import.module": "the module specifier (`a.b`, `..m`, `'./x'`)",
    "import.name": "an imported name (`from m import NAME`, `import { NAME }`)",
    "import.alias": "the local name an import binds instead of its name (`as ALIAS`)",
    "import.namespace": "a local name bound to the whole module (`import * as NS`, `const NS = require()`)",
    "import.default": "a local name bound to the module's default export",
    "import.star": "a wildcard import (`from m import *`)",
    "import.dotted": "`import a.b.c`: binds the first component `a` (or the alias) to the package",
    "export.name": "an exported local or re-exported name (`export { NAME }`, `__all__` entries)",
    "export.alias": "the name it is exported as (`export { a as ALIAS }`)",
    "export.module": "the module a re-export comes from (`export … from 'M'`)",
    "export.star": "`export * from 'M'` (pair with @export.module)",
    "export.namespace": "`export * as NS from 'M'`",
    "export.default": "the expression exported as default (`export default X`, `module.exports = X`)",
    "export.all": "the node listing a module's public names (`__all__ = [...]`)",
}


def is_known_capture(name: str) -> bool:
    """True for vocabulary names and for query-private names (leading underscore)."""
    return name.startswith("_") or name in CAPTURES
