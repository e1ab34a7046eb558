"""Types of expressions: annotations, constructor calls, declared return types, `a or b`, loop items, `with … as x`.

A part of ``Resolver`` (resolve/resolver.py), which combines them; methods call each other
through ``self``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from .base import CLASS_KINDS, _VALUE_KINDS, _CALLABLE_KINDS, _MAX_DEPTH, Symbol, Resolution, InferredType

__all__ = ["TypeInference", "literal_item"]

_MAX_CALLER_FILES = 8   # files using a function's name, beyond which its callers are not read for types


def _narrowed(facts, ref):
    """The class a type test narrows a name to where ``ref`` reads it (the innermost test)."""
    best = None
    for name, token, start, end in facts.narrowings:
        if name == ref.name and start <= ref.start_byte < end and (best is None or start >= best[0]):
            best = (start, token)
    return best[1] if best is not None else None


def literal_item(container, key):
    """The item of a literal list / tuple (``("e", …)``) at an int position, or of a literal
    dict (``("k", …)``) at a key; None when it is not one of those or has no such item."""
    if not isinstance(container, tuple) or not container:
        return None
    if container[0] == "e" and isinstance(key, int):
        items = container[1:]
        position = key + len(items) if key < 0 else key
        return items[position] if 0 <= position < len(items) else None
    if container[0] == "k":
        pairs = container[1:]
        return next((pairs[i + 1] for i in range(0, len(pairs) - 1, 2) if pairs[i] == key), None)
    return None


class TypeInference:
    """Types of expressions."""

    def as_type(self, found: Resolution) -> Resolution:
        """A name read as a type names the type where a value of the same name shares its scope
        (TypeScript's `interface X {}` beside `const X = …`: two declaration spaces)."""
        d = self.definition(found.target) if found.status == "found" and found.target is not None else None
        if d is None or d.kind in CLASS_KINDS:
            return found
        view = self.view(found.target.path)
        defs = view.facts.definitions
        for i in view.named(d.name):
            if defs[i].kind in CLASS_KINDS and defs[i].scope == d.scope and defs[i].container == d.container:
                return Resolution("found", Symbol(found.target.path, i), found.kind, found.candidates,
                                  found.resolved_from, found.via)
        return found

    def infer(self, path: str, token, depth: int = 0) -> InferredType | None:
        """The type of an expression token, when it can be known."""
        if token is None or token is False or depth > _MAX_DEPTH:
            return None
        if token[0] not in ("r", "c", "n"):   # the common tokens (a name, a call, a `new`) skip these
            if token == ("b",):
                return InferredType("builtin")
            if token[0] == "u":  # unpacked at a position (`a, b = …`): known from a literal only
                item = literal_item(token[1], token[2])
                return self.infer(path, item, depth + 1) if item is not None else None
            if token[0] == "s" and len(token) == 3:  # `x[0]`, `d["a"]`: that item of a literal …
                item = literal_item(token[1], token[2])
                if item is not None:
                    return self.infer(path, item, depth + 1)
            if token[0] == "s":
                # An item of a container typed `list[Row]` / `dict[str, Row]`: annotations are read
                # for the first project class they name, so the container's type is its items' type.
                return self.infer(path, token[1], depth + 1)
            if token[0] == "w":  # `with cm as x`: what cm's `__enter__` returns (itself, unannotated)
                manager = self.infer(path, token[1], depth + 1)
                if manager is None or manager.kind != "instance" or manager.symbol is None:
                    return None
                for name in ("__enter__", "__aenter__"):
                    enter = self.class_member(manager.symbol, name)
                    d = self.definition(enter)
                    if d is not None and d.returns_span:
                        return self.type_of_annotation(enter, d.returns_span, d.returns, depth + 1)
                return manager
            if token[0] == "p":  # an argument without a value of its own: the parameter's declared type
                parameter = self.parameter_at(path, token[1], token[2])
                return self.type_of_definition(parameter, depth + 1) if parameter is not None else None
            if token[0] == "t":  # an object type written inline: its definition's (`{ user }: { user: User }`)
                return InferredType("instance", Symbol(path, token[1]))
            if token[0] in ("e", "k", "i", "x", "d"):
                return InferredType("builtin") if token[0] in ("e", "k") else None  # a literal container; value flow's
            if token[0] == "a":  # a parameter of a function passed to a call: what the callee says it takes
                return self._callback_parameter(path, token[1], token[2], token[3], depth + 1)
            if token[0] == "m":  # a parameter of a function given to a key: what the key's member says
                found = self.resolve_reference(path, token[1])
                member = found.target if found.status == "found" and found.kind != "name-only" else None
                params = self._parameter_list(member) if member is not None and not member.is_module else None
                return self.type_of_definition(params[token[2]], depth + 1) if params and token[2] < len(params) else None
            if token[0] == "g":  # `load<User>(url)`: a generic call, with the type it was given
                call = token[1]
                typed = self._generic_return(path, call[1], token[2], depth + 1) if call[0] == "c" else None
                return typed if typed is not None else self.infer(path, call, depth + 1)
            if token[0] == "o":  # `a or b`: the first alternative whose type is known
                for alternative in token[1:]:
                    typed = self.infer(path, alternative, depth + 1)
                    if typed is not None:
                        return typed
                return None
        kind, index = token
        view = self.view(path)
        ref = view.facts.references[index]
        spec = view.spec
        if kind == "r" and ref.receiver is False and ref.name in spec.this_keywords:
            cls = self.enclosing_class(path, ref.container)
            return InferredType("instance", cls) if cls else None
        if ref.receiver is False and ref.name in spec.super_names:
            cls = self.enclosing_class(path, ref.container)
            return InferredType("super", cls) if cls else None
        if kind == "r" and ref.receiver is False and view.facts.narrowings:
            narrowed = _narrowed(view.facts, ref)
            if narrowed is not None:  # `if (x instanceof C) x.m()`, `isinstance(x, C) and x.m()`
                typed = self.infer(path, narrowed, depth + 1)
                if typed is not None and typed.kind == "instance":
                    return typed
        resolution = self.resolve_reference(path, index, ref)
        if kind == "c" and resolution.status != "found" and ref.name in spec.item_methods \
                and ref.receiver not in (False, None):
            # `users.find(…)` of `users: User[]` (typed by its items): a User
            owner = self.infer(path, ref.receiver, depth + 1)
            if owner is not None and owner.kind == "instance":
                return owner
        if resolution.status == "builtin":
            return InferredType("builtin") if kind != "r" else None
        if resolution.status != "found" or resolution.kind == "name-only" or resolution.target is None:
            return None
        target = resolution.target
        if target.is_module:
            return InferredType("module", target) if kind == "r" else None
        d = self.definition(target)
        if d is None:
            return None
        if kind in ("c", "n"):
            if d.kind in CLASS_KINDS or kind == "n" and d.kind == "function" \
                    and (d.extends or self.has_object_members(target)):
                return InferredType("instance", target)   # (`new View()` of `function View() {}`)
            if d.kind == "constructor":
                cls = self.enclosing_class(target.path, d.container)
                return InferredType("instance", cls) if cls else None
            if kind == "c" and d.type_parameters and d.returns:   # `first(users)` of `first<T>(xs: T[]): T`
                typed = self._generic_return(path, index, None, depth + 1)
                if typed is not None:
                    return typed
            if d.returns is not None and d.kind in _CALLABLE_KINDS \
                    and d.returns.strip().strip("\"'") in self.view(target.path).spec.self_types:
                # `min(n): this`, `-> Self`: the object it was called on, as typed there (a
                # subclass's instance stays one: `z.string().min(1)` is a ZodString)
                if ref.receiver not in (False, None):
                    owner = self.infer(path, ref.receiver, depth + 1)
                    if owner is not None and owner.kind == "instance":
                        return owner
                cls = self.enclosing_class(target.path, d.container)
                return InferredType("instance", cls) if cls else None
            if d.returns_span and (d.kind in _CALLABLE_KINDS or d.kind in _VALUE_KINDS):
                # a function, or a value declared with a function type (`get: (u) => Result`)
                typed = self.type_of_annotation(target, d.returns_span, d.returns, depth + 1)
                if (typed is None or typed.kind == "builtin") and d.kind in ("function", "method") \
                        and self._declares_inline_type(target, d, d.returns_span):
                    return InferredType("instance", target)   # `(): {result: R}`: the properties it declares
                # `get(id): T` of `class Store<T>`, called on an `AuthStore extends Store<Team>`
                return self._bound_through(path, ref, typed, depth)
            if d.kind in _CALLABLE_KINDS and d.returned and kind == "c":
                # no declared return type: what its `return` statements give
                for returned in d.returned[:4]:
                    typed = self.infer(target.path, returned, depth + 1)
                    if typed is not None and typed.kind == "instance":
                        return typed
            if d.kind in _VALUE_KINDS and kind == "c":
                # a value whose type has a call signature (`const ky: KyInstance`, then `ky(url)`)
                typed = self.type_of_definition(target, depth + 1)
                t = self.definition(typed.symbol) if typed is not None and typed.kind == "instance" else None
                if t is not None and t.returns_span and t.kind in CLASS_KINDS:
                    return self.type_of_annotation(typed.symbol, t.returns_span, t.returns, depth + 1)
            if d.kind in _VALUE_KINDS and d.value is not None and kind == "c":
                # a value holding a function (`export const string = ZodString.create`)
                from .flow import ValueFlow

                for function in ValueFlow(self).held_by(target)[:4]:
                    f = self.definition(function)
                    if f is not None and f.returns_span and f.kind in _CALLABLE_KINDS:
                        return self.type_of_annotation(function, f.returns_span, f.returns, depth + 1)
            return None
        return self._bound_through(path, ref, self.type_of_definition(target, depth + 1), depth)

    def _bound_through(self, path: str, ref, typed: InferredType | None, depth: int) -> InferredType | None:
        """``typed``, or, when it is a type parameter of the class of the member ``ref`` reads,
        what the receiver's class binds it to (``_bound_type_parameter``)."""
        if typed is not None and typed.symbol is not None and ref.receiver not in (False, None) \
                and depth < _MAX_DEPTH // 2:
            bound = self._bound_type_parameter(path, ref.receiver, typed.symbol, depth + 1)
            if bound is not None:
                return bound
        return typed

    def _parameter_of_declared_function(self, symbol: Symbol, d, depth: int) -> InferredType | None:
        """`const english: ErrorMap = (issue) => …` of `type ErrorMap = (issue: Issue) => string`:
        a parameter written without a type, of a function declared with a function type, has the
        type of that type's parameter at its place (TypeScript's contextual typing)."""
        function = Symbol(symbol.path, d.container)
        owner = self.definition(function)
        if owner is None or owner.kind != "function" or not owner.type_span:
            return None
        own = [i for i in self._parameters_inside(function) if self.definition(Symbol(symbol.path, i)).container == d.container]
        declared = self.type_of_annotation(function, owner.type_span, owner.type, depth + 1)
        alias = declared.symbol if declared is not None and declared.kind == "instance" else None
        a = self.definition(alias) if alias is not None else None
        if a is None or a.kind != "type" or symbol.index not in own:
            return None
        theirs = self._written_parameters(alias)
        position = own.index(symbol.index)
        if position >= len(theirs):
            return None
        return self.type_of_definition(Symbol(alias.path, theirs[position]), depth + 1)

    def _declares_inline_type(self, symbol: Symbol, d, span=None) -> bool:
        """Whether the type written for a definition (or ``span``, its return type) is an object
        type of its own (`opts: {id: string}`): the properties declared in it are then the
        definition's members."""
        view = self.view(symbol.path)
        defs = view.facts.definitions
        start, end = span or d.type_span
        documented = d.kind == "parameter"   # (its members a JSDoc documents: `[options.mask]`)
        return any(start <= defs[i].start_byte < end or documented and defs[i].scope < 0
                   for indices in view.members.get(symbol.index, {}).values() for i in indices)

    def _generic_return(self, path: str, call: int, given, depth: int) -> InferredType | None:
        """What the call (reference ``call``) of a generic function declared to return its type
        parameter (`load<T>(url): Promise<T>`, `first<T>(xs: T[]): T`) gives: the type argument
        it was ``given`` (a token), else the type of the argument passed where a parameter is
        declared with that parameter."""
        if depth > _MAX_DEPTH:
            return None
        found = self.resolve_reference(path, call)
        target = found.target if found.status == "found" else None
        d = self.definition(target) if target is not None and not target.is_module else None
        if d is None or d.kind not in _CALLABLE_KINDS or not d.type_parameters or not d.returns:
            return None
        read = self.view(target.path).spec.type_parameter_of
        returned = read(d.returns) if read is not None else None
        if returned is None:
            return None
        names = [self.definition(Symbol(target.path, i)) for i in d.type_parameters]
        position = next((n for n, p in enumerate(names) if p is not None and p.name == returned), None)
        if position is None:
            return None
        if given is not None:
            return self.infer(path, given, depth + 1) if position == 0 else None
        own = [i for i in self._parameters_inside(target) if self.definition(Symbol(target.path, i)).container == target.index]
        for n, parameter in enumerate(own):   # (not those of a callback's type: `fn: (v: T) => void`)
            p = self.definition(Symbol(target.path, parameter))
            if p is not None and p.signature and read(p.signature) == returned:
                argument = self._argument_token(path, call, n)
                return self.infer(path, argument, depth + 1) if argument is not None else None
        return None

    def _argument_token(self, path: str, call: int, position: int):
        """The token of the argument at ``position`` of the call of reference ``call`` (None: none
        there, given by keyword, or after a spread)."""
        key = ("arguments", path)
        by_callee = self.kept.get(key)
        facts = self.view(path).facts
        if by_callee is None:   # (the calls' places: their arguments are decoded when asked for)
            by_callee = self.kept[key] = {callee: k for k, callee in enumerate(facts.call_callees())}
        k = by_callee.get(call)
        passed = facts.call_arguments[k][1] if k is not None else ()
        if position >= len(passed) or any(splat for _, _, splat in passed[:position + 1]):
            return None
        keyword, token, _ = passed[position]
        return token if keyword is None else None

    def _bound_type_parameter(self, path: str, receiver, parameter: Symbol, depth: int) -> InferredType | None:
        """A member typed by a type parameter of its class (`_def: Def`), read through a receiver
        of a subclass that binds it (`class ZodString extends ZodType<string, ZodStringDef>`):
        the bound type. Follows the first-base chain, carrying bindings down."""
        p = self.definition(parameter)
        if p is None or p.kind != "type":
            return None
        owner = self.infer(path, receiver, depth + 1)
        if owner is None or owner.kind != "instance" or owner.symbol is None:
            return None
        cls, bindings = owner.symbol, {}
        for _ in range(8):
            d = self.definition(cls)
            if d is None or not d.extends or not d.type_arguments:
                return None
            base = self.infer(cls.path, d.extends[0], depth + 1)
            if base is None or base.symbol is None or base.symbol.is_module:
                return None
            base_d = self.definition(base.symbol)
            if base_d is None:
                return None
            bound = {}
            for position, index in enumerate(base_d.type_parameters):
                argument = d.type_arguments[position] if position < len(d.type_arguments) else None
                if argument is None:
                    continue
                named = self.resolve_reference(cls.path, argument[1])
                if named.status == "found" and named.target in bindings:
                    bound[Symbol(base.symbol.path, index)] = bindings[named.target]
                else:
                    typed = self.infer(cls.path, argument, depth + 1)
                    if typed is not None:
                        bound[Symbol(base.symbol.path, index)] = typed
            if parameter in bound:
                return bound[parameter]
            cls, bindings = base.symbol, bound
        return None

    def _has_members(self, cls: Symbol) -> bool:
        """Whether a type has members of its own or through its bases (a generic wrapper like
        `type Required<T> = T & {…}` has none: its argument's are what count)."""
        d = self.definition(cls)
        if d is not None and d.alternatives and not self._only_own_parameters(cls, d.alternatives):
            return True
        for klass in self.mro(cls):
            view = self.view(klass.path)
            if view is not None and (view.members.get(klass.index) or self.extension_members(klass)):
                return True
        return False

    def _looked_up_member(self, symbol: Symbol) -> Symbol | None:
        """The member a definition's declared type looks up (`T['key']`), if it does."""
        d = self.definition(symbol)
        if d is None or not d.type_span:
            return None
        view = self.view(symbol.path)
        refs = view.facts.references
        start, end = d.type_span
        for i in range(bisect_left(view.ref_starts, start), bisect_right(view.ref_starts, end)):
            receiver = refs[i].receiver
            if isinstance(receiver, tuple) and len(receiver) == 2 and receiver[0] == "r" \
                    and refs[receiver[1]].start_byte >= start:
                found = self.resolve_reference(symbol.path, i)
                if found.status == "found" and found.target is not None and not found.target.is_module:
                    member = self.definition(found.target)
                    if member is not None and member.kind not in CLASS_KINDS:
                        return found.target
        return None

    def _only_own_parameters(self, cls: Symbol, tokens) -> bool:
        """`type Mutable<T> = {[P in keyof T]: T[P]}`: its members are its argument's."""
        d = self.definition(cls)
        own = {Symbol(cls.path, i) for i in d.type_parameters}
        for token in tokens:
            if not (isinstance(token, tuple) and len(token) == 2 and token[0] == "r"):
                return False
            found = self.resolve_reference(cls.path, token[1])
            if found.status != "found" or found.target not in own:
                return False
        return bool(own)

    def parameter_at(self, path: str, call, position: int) -> Symbol | None:
        """Parameter ``position`` of what the call token ``call`` calls (a class: its constructor)."""
        if not isinstance(call, tuple) or call[0] not in ("c", "n"):
            return None
        called = self.resolve_reference(path, call[1])
        if called.status != "found" or called.kind == "name-only" or called.target is None or called.target.is_module:
            return None
        function = called.target
        d = self.definition(function)
        if d is not None and d.kind in CLASS_KINDS:
            view = self.view(function.path)
            function = next((c for c in (self.class_member(function, name) for name in view.spec.constructor_names)
                             if c is not None), None)
            d = self.definition(function)
        params = self._parameter_list(function)
        return params[position] if params is not None and position < len(params) else None

    def _parameter_list(self, function: Symbol) -> list[Symbol] | None:
        """The parameters a call of ``function`` passes its arguments to: a function's, or those
        of a value's function type (written inline, or the alias it names)."""
        d = self.definition(function)
        if d is None or not (d.kind in _CALLABLE_KINDS or d.kind in _VALUE_KINDS):
            return None  # a function, or a value of function type (its parameters are in its type)
        inside = self._parameters_inside(function)
        if not inside and d.kind in _VALUE_KINDS:
            # a value declared as another's member type (`onProgress: Options['onProgress']`)
            member = self._looked_up_member(function)
            if member is not None:
                function, d = member, self.definition(member)
                inside = self._parameters_inside(function)
        if not inside and d.kind in _VALUE_KINDS:
            # a value whose type is a function type alias (`hook` of `BeforeRetryHook[]`)
            typed = self.type_of_definition(function, 1)
            if typed is not None and typed.kind == "instance" and typed.symbol is not None:
                function, d = typed.symbol, self.definition(typed.symbol)
                inside = self._parameters_inside(function)
        view = self.view(function.path)
        params = self._written_parameters(function, inside)
        if params and view.facts.definitions[params[0]].name in view.spec.self_names and d.kind in ("method", "constructor"):
            params = params[1:]
        return [Symbol(function.path, i) for i in params]

    def _written_parameters(self, function: Symbol, inside: list[int] | None = None) -> list[int]:
        """The parameters written in a definition (``inside``: ``_parameters_inside``), one for each
        position: those of a parameter's own function type, and the names a destructured parameter
        binds, are not."""
        inside = self._parameters_inside(function) if inside is None else inside
        defs = self.view(function.path).facts.definitions
        params = [i for i in inside if defs[i].scope == defs[inside[0]].scope] if inside else []
        return [i for k, i in enumerate(params)
                if not any(defs[j].start_byte <= defs[i].start_byte < defs[j].end_byte for j in params[:k])]

    def _callback_parameter(self, path: str, call, position: int, index: int, depth: int) -> InferredType | None:
        """`each(rows, (row) => row.id)` of `each(rows: Row[], fn: (row: Row) => void)`: parameter
        ``index`` of the function passed as argument ``position`` of ``call`` has the type the
        callee's parameter declares for it (TypeScript's contextual typing)."""
        outer = self.parameter_at(path, call, position)
        params = self._parameter_list(outer) if outer is not None else None
        if not params or index >= len(params):
            return None
        return self.type_of_definition(params[index], depth + 1)

    def _parameters_inside(self, symbol: Symbol) -> list[int]:
        """The parameters written inside a definition (a property or alias of function type has
        them in its type: `get: (url: string, options?: Options) => R`)."""
        d = self.definition(symbol)
        return self.view(symbol.path).parameters_within(d.start_byte, d.end_byte, symbol.index)

    def type_of_definition(self, symbol: Symbol, depth: int = 0) -> InferredType | None:
        # asked again for every read of a variable, attribute or parameter whose members are used
        return self.settled(("type", symbol, depth), lambda: self._type_of_definition(symbol, depth))

    def _type_of_definition(self, symbol: Symbol, depth: int) -> InferredType | None:
        d = self.definition(symbol)
        if d is None or depth > _MAX_DEPTH:
            return None
        if d.kind in CLASS_KINDS:
            return InferredType("class", symbol)
        view = self.view(symbol.path)
        if d.kind in ("namespace", "module"):
            return InferredType("class", symbol)  # `ns::name`, `ns.name`: among the namespace's members
        if d.kind == "parameter" and d.name in view.spec.self_names:
            owner = self.definition(Symbol(symbol.path, d.container)) if d.container >= 0 else None
            if owner is not None and owner.kind in ("method", "constructor", "property"):
                first_param = view.first_parameter(owner.own_scope)
                cls = self.enclosing_class(symbol.path, owner.container)
                if cls is not None and first_param == symbol.index:
                    is_class = "classmethod" in owner.decorators or d.name == "cls"
                    return InferredType("class" if is_class else "instance", cls)
        if d.kind == "method" and "get" in d.modifiers:   # a getter (`get team()`): read, it gives what it returns
            if d.returns_span:
                return self.type_of_annotation(symbol, d.returns_span, d.returns, depth + 1)
            for returned in d.returned[:4]:
                typed = self.infer(symbol.path, returned, depth + 1)
                if typed is not None and typed.kind == "instance":
                    return typed
            return None
        if d.type_span:
            typed = self.type_of_annotation(symbol, d.type_span, d.type, depth + 1)
            if (typed is None or typed.kind == "builtin") and self._declares_inline_type(symbol, d):
                # `opts: {id: string}`, `blocks: {node: Node}[]` (a library's type inside): its own members
                return InferredType("instance", symbol)
            if typed is not None:
                return typed
        elif (d.kind in _VALUE_KINDS or d.kind == "function") and self.has_object_members(symbol):
            return InferredType("class", symbol)   # `var app = {}; app.use = …`: app is that object
        elif d.name == "default" and d.scope == 0 and d.kind == "constant" and d.value is None \
                and view.spec.members_assigned_to_objects:
            return InferredType("module", Symbol(symbol.path))   # `export default { isArray, … }`
        if d.kind == "property" and d.returns_span:
            return self.type_of_annotation(symbol, d.returns_span, d.returns, depth + 1)
        if d.value is not None:
            return self.infer(symbol.path, d.value, depth + 1)
        if d.kind == "parameter" and d.container >= 0 and not d.type_span:
            typed = self._parameter_of_declared_function(symbol, d, depth)
            if typed is not None:
                return typed
        if d.kind == "parameter" and view.spec.infer_parameters_from_calls:
            return self._type_from_callers(symbol, depth)
        return None

    def _type_from_callers(self, parameter: Symbol, depth: int) -> InferredType | None:
        """An unannotated parameter is what its callers pass, when they all pass instances of
        one class (Jedi's "dynamic parameters"); a name called from too many files is left
        unknown rather than scanned."""
        d = self.definition(parameter)
        owner = self.definition(Symbol(parameter.path, d.container)) if d.container >= 0 else None
        if owner is None or owner.kind not in ("function", "constructor"):
            return None
        name = owner.name
        if owner.kind == "constructor":
            cls = self.enclosing_class(parameter.path, owner.container)
            name = self.definition(cls).name if cls is not None else name
        self.note_users(name)   # how many files call it decides
        if len(self.index.used_in.get(name, ())) > _MAX_CALLER_FILES:
            return None
        from .flow import ValueFlow  # flow builds on this module
        found = None
        for path, token in ValueFlow(self).arguments(parameter):
            typed = self.infer(path, token, depth + 1)
            if typed is None or typed.kind != "instance" or typed.symbol is None \
                    or (found is not None and found.symbol != typed.symbol):
                return None
            found = typed
        return found

    def type_of_annotation(self, symbol: Symbol, span: tuple[int, int], text: str | None, depth: int) -> InferredType | None:
        view = self.view(symbol.path)
        d = self.definition(symbol)
        if d is not None and d.type_span == span:
            member = self._looked_up_member(symbol)
            if member is not None:  # `x: Options['retry']`: the type of Options.retry
                return self.type_of_definition(member, depth + 1)
        refs = view.facts.references
        start = bisect_left(view.ref_starts, span[0])
        end = bisect_right(view.ref_starts, span[1])
        first_class, outside = None, False
        for i in range(start, end):
            if refs[i].receiver is not False and refs[i].receiver is not None \
                    and not (refs[i].receiver[0] == "r" and refs[refs[i].receiver[1]].start_byte >= span[0]):
                continue  # a member of something outside the annotation; `ns::Type`/`mod.Class` count
            found = self.as_type(self.resolve_reference(symbol.path, i))
            if found.status in ("builtin", "unresolved") or found.kind == "name-only":
                outside = True  # a type from outside the project (`Headers`, a package's type)
                continue
            if found.status == "found" and found.target is not None and not found.target.is_module:
                d = self.definition(found.target)
                if d is not None and d.kind in CLASS_KINDS:
                    if self._has_members(found.target):
                        return InferredType("instance", found.target)
                    # `Required<Options>`: a wrapper without members of its own; its argument has them
                    first_class = first_class or found.target
        if outside:
            return InferredType("builtin")  # known, but not the project's (`Required<Headers>`): no guess
        if first_class is not None:
            return InferredType("instance", first_class)
        if text:
            bare = text.strip().strip("\"'")
            if start == end and view.spec.doc_type_name is not None:
                # a type written in a doc comment, where no reference lies (JSDoc `{Help}`,
                # `{Option[]}`: LanguageSpec.doc_types)
                bare = view.spec.doc_type_name(text) or ""
                text = ""
            # (or a forward reference: `"Node"`)
            if bare.isidentifier() and bare != text.strip():
                d = self.definition(symbol)
                found = self.resolve_name(symbol.path, d.scope if d.scope >= 0 else 0, bare, d.start_byte, depth)
                if found.status == "found" and found.target is not None and not found.target.is_module:
                    target = self.definition(found.target)
                    if target is not None and target.kind in CLASS_KINDS:
                        return InferredType("instance", found.target)
        return None
