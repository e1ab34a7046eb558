"""Value flow for calls: which functions and classes a value may be.

Flow-insensitive and bounded, in the manner of PyCG's assignment graph: a variable may hold
whatever any of its assignments gives; a call gives whatever the called function returns; an
item of a literal container (`handlers[key]`) is any of its items; `a or b` is either. Used for
calls whose callee is not itself a function (`alias = f; alias()`, `make()()`,
`handlers[key]()`), so the call graph finds them; each such edge is marked ``inferred``.
"""

from __future__ import annotations

from .resolver import CLASS_KINDS, Resolver, Symbol
from .types import literal_item

__all__ = ["ValueFlow", "MAX_VALUES"]

_CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
_HOLDER_KINDS = frozenset({"variable", "constant", "field", "property"})
_MAX_DEPTH = 12
MAX_VALUES = 16   # a value that may be more than this many functions tells nothing useful
# Files naming a function beyond which the arguments of its calls are not collected: a name used
# that widely (`get`, `run`) is mostly other functions' name, and reading every such file for
# each parameter dominated the graph of a large repository (and every edit of its file).
MAX_CALLER_FILES = 48
_PENDING = ((), frozenset())   # ValueFlow.arguments' answer while it is being worked out


class ValueFlow:
    """Answers for one resolver generation; every step reads through the resolver, so the
    graph's incremental bookkeeping sees what a flow answer depended on."""

    def __init__(self, resolver: Resolver):
        self.resolver = resolver

    def held_by(self, symbol: Symbol, depth: int = 0) -> list[Symbol]:
        """The functions and classes a definition stands for: itself when it is one, else what
        its assignments give (a variable, constant, field or property)."""
        d = self.resolver.definition(symbol)
        if d is None or depth > _MAX_DEPTH:
            return []
        if d.kind in _CALLABLE_KINDS or d.kind in CLASS_KINDS:
            return [symbol]
        if d.kind == "parameter":
            found = self.values(symbol.path, d.value, depth + 1) if d.value is not None else []
            _extend(found, self.passed_to(symbol, depth + 1))
            return found
        if d.kind not in _HOLDER_KINDS:
            return []
        found: list[Symbol] = []
        for assignment in self.resolver.variable_group(symbol):
            value = self.resolver.definition(assignment)
            if value is not None and value.value is not None:
                _extend(found, self.values(assignment.path, value.value, depth + 1))
        return found

    def values(self, path: str, token, depth: int = 0) -> list[Symbol]:
        """The functions and classes an expression token may evaluate to."""
        if not isinstance(token, tuple) or not token or depth > _MAX_DEPTH:
            return []
        kind = token[0]
        found: list[Symbol] = []
        if kind == "g":   # a generic call given a type argument: the call's values
            return self.values(path, token[1], depth + 1)
        if kind == "o":
            for alternative in token[1:]:
                _extend(found, self.values(path, alternative, depth + 1))
        elif kind in ("s", "u"):
            key = token[2] if len(token) > 2 else None
            for item_path, item in self.items(path, token[1], depth + 1, key):
                _extend(found, self.values(item_path, item, depth + 1))
        elif kind == "r":
            target = self._resolved(path, token[1])
            if target is not None:
                found = self.held_by(target, depth + 1)
        elif kind == "d":
            found = self.held_by(Symbol(path, token[1]), depth + 1)
        elif kind in ("c", "n"):
            target = self._resolved(path, token[1])
            if target is not None and kind == "c":
                for function in self.held_by(target, depth + 1):
                    _extend(found, self.returned(function, depth + 1))
        elif kind == "i":
            facts = self.resolver.view(path).facts
            if 0 <= token[1] < len(facts.indirect_calls):
                for function in self.values(path, facts.indirect_calls[token[1]][0], depth + 1):
                    _extend(found, self.returned(function, depth + 1))
        return found

    def passed_to(self, parameter: Symbol, depth: int = 0) -> list[Symbol]:
        """The functions and classes the callers of a function pass for one of its parameters."""
        found: list[Symbol] = []
        for path, token in self.arguments(parameter):
            _extend(found, self.values(path, token, depth + 1))
        return found

    def arguments(self, parameter: Symbol) -> list[tuple[str, tuple]]:
        """What the callers of a function pass for one of its parameters (by position or by
        keyword), over the call sites the name index finds: (caller's path, token) pairs.
        Kept with what it read (``Resolver.remember``): the graph's incremental bookkeeping still
        sees every file it depended on, and later generations keep it while none of that changes."""
        resolver = self.resolver
        key = ("arguments", parameter)
        if resolver.kept.get(key) is _PENDING:   # a cycle through this parameter gives nothing
            resolver._partial += 1
            return []
        cached = resolver.recall(key)
        if cached is not None:
            return cached
        resolver.kept[key] = _PENDING
        try:
            with resolver.recording() as read:
                resolver.view(parameter.path)
                found = self._arguments(parameter)
        except BaseException:
            del resolver.kept[key]   # not an answer: it must not outlive this generation
            raise
        resolver.remember(key, found, read)
        return found

    def _arguments(self, parameter: Symbol) -> list[tuple[str, tuple]]:
        resolver = self.resolver
        d = resolver.definition(parameter)
        view = resolver.view(parameter.path)
        defs = view.facts.definitions
        if d is None or not 0 <= d.container < len(defs) or defs[d.container].kind not in _CALLABLE_KINDS:
            return []
        function = Symbol(parameter.path, d.container)
        params = view.parameters_of(d.container)
        # the names a destructured parameter binds are inside it: one position for them all
        params = [i for k, i in enumerate(params)
                  if not any(defs[j].start_byte <= defs[i].start_byte < defs[j].end_byte for j in params[:k])]
        if parameter.index not in params:
            return []
        position = params.index(parameter.index)
        if params and defs[params[0]].name in view.spec.self_names and defs[d.container].kind in ("method", "constructor"):
            position -= 1  # `obj.method(a)`: a is the second parameter
        owner = defs[d.container]
        names = {owner.name}
        if owner.kind == "constructor":  # `Cls(a)` calls `__init__`
            cls = resolver.enclosing_class(parameter.path, owner.container)
            if cls is not None:
                names = {resolver.definition(cls).name}
        found: list[tuple[str, tuple]] = []
        for name in names:
            resolver.note_users(name)   # a file that starts or stops calling it changes this
            if len(resolver.index.used_in.get(name, ())) > MAX_CALLER_FILES:
                continue
            for path in sorted(resolver.index.used_in.get(name, ())):
                caller = resolver.view(path)
                if caller is None:
                    continue
                refs = caller.facts.references
                # a holder here can hold the function only if this file names it as a value
                held_here = name in self._value_names(path)
                by_callee, holders = self._calls_of(path)
                calls = by_callee.get(name, ())
                if held_here:  # and the calls of what may hold it, in the file's order
                    calls = sorted(set(calls) | set(holders))
                for k in calls:
                    ref_index, passed = caller.facts.call_arguments[k]
                    token = _argument(passed, d.name, position)
                    if token is None:
                        continue
                    if refs[ref_index].name != name:
                        # `alias = f; alias(x)`: a variable or parameter holding the function,
                        # in a file that names it (where its value can come from)
                        if held_here and refs[ref_index].name not in names and self._holds(path, ref_index, function) \
                                and (path, token) not in found and len(found) < MAX_VALUES:
                            found.append((path, token))
                        continue
                    called = self._resolved(path, ref_index)
                    if called is None or (called != function and resolver.definition(called) is not None
                                          and resolver.definition(called).kind not in CLASS_KINDS):
                        continue
                    if called != function and self._constructor_of(called) != function:
                        continue
                    if (path, token) not in found and len(found) < MAX_VALUES:
                        found.append((path, token))
        return found

    def _calls_of(self, path: str) -> tuple[dict[str, list[int]], list[int]]:
        """A file's calls with arguments, by the callee's name, and those whose callee is a plain
        name this file binds as a variable or parameter (what could be a holder: ``_holds``):
        positions in ``call_arguments`` (looked up for every parameter whose values are asked
        for: scanning every call each time was quadratic, and so was checking every plain call
        of a file, most of them calls of functions, for each such parameter)."""
        key = ("calls_of", path)
        found = self.resolver.kept.get(key)
        if found is None:
            view = self.resolver.view(path)
            facts = view.facts
            kinds = facts.definition_column("kind")
            by_callee: dict[str, list[int]] = {}
            holders: list[int] = []
            holder_names: dict[str, bool] = {}
            for k, ref_index in enumerate(facts.call_callees()):
                name = facts.reference_name(ref_index)   # (no reference made: a file's every call is read)
                by_callee.setdefault(name, []).append(k)
                if facts.reference_receiver(ref_index) is False:
                    held = holder_names.get(name)
                    if held is None:
                        held = holder_names[name] = any(kinds[i] in _HOLDER_KINDS or kinds[i] == "parameter"
                                                        for i in view.named(name))
                    if held:
                        holders.append(k)
            found = self.resolver.kept[key] = (by_callee, holders)
        return found

    def _value_names(self, path: str) -> frozenset[str]:
        """Names a file reads as values (not only calls): where a function can flow into a variable."""
        key = ("value_names", path)
        names = self.resolver.kept.get(key)
        if names is None:
            view = self.resolver.view(path)
            names = self.resolver.kept[key] = frozenset(
                name for name, usage in zip(view.facts.reference_column("name"), view.facts.reference_column("usage"))
                if usage == "read") if view else frozenset()
        return names

    def _holds(self, path: str, ref_index: int, function: Symbol) -> bool:
        """Whether the callee of call ``ref_index`` — a plain name this file binds as a variable
        or parameter (``_calls_of``) — may hold ``function``."""
        target = self._resolved(path, ref_index)
        d = self.resolver.definition(target) if target is not None else None
        if d is None or not (d.kind in _HOLDER_KINDS or d.kind == "parameter"):
            return False
        # asked again for each parameter of each function the file may pass a holder to
        return function in self.resolver.settled(("held_by", target), lambda: tuple(self.held_by(target, 1)))

    def _constructor_of(self, cls: Symbol) -> Symbol | None:
        view = self.resolver.view(cls.path)
        for name in view.spec.constructor_names if view else ():
            member = self.resolver.class_member(cls, name)
            if member is not None:
                return member
        return None

    def returned(self, function: Symbol, depth: int = 0) -> list[Symbol]:
        """What a function's `return` statements give."""
        d = self.resolver.definition(function)
        found: list[Symbol] = []
        if d is not None and d.kind in _CALLABLE_KINDS:
            for token in d.returned:
                _extend(found, self.values(function.path, token, depth + 1))
        return found

    def items(self, path: str, token, depth: int = 0, key=None) -> list[tuple[str, tuple]]:
        """The item tokens an expression's containers may hold — at ``key`` (a literal position
        or dict key) when it is known: literal lists, tuples and dicts, what a variable is
        assigned, what is added later (`d[k] = v`, `xs.append(v)`), what a function returns,
        what callers pass for a parameter."""
        if not isinstance(token, tuple) or not token or depth > _MAX_DEPTH:
            return []
        kind = token[0]
        if kind == "e":
            item = literal_item(token, key) if isinstance(key, int) else None
            if isinstance(key, int):
                return [(path, item)] if item is not None else []
            return [(path, item) for item in token[1:] if item is not None]
        if kind == "k":  # a dict: the items at that key, or at keys that are not literals
            pairs = token[1:]
            return [(path, pairs[i + 1]) for i in range(0, len(pairs) - 1, 2)
                    if pairs[i + 1] is not None and (key is None or pairs[i] is None or pairs[i] == key)]
        found: list[tuple[str, tuple]] = []
        if kind == "g":   # a generic call given a type argument: the call's items
            return self.items(path, token[1], depth + 1, key)
        if kind == "o":
            for alternative in token[1:]:
                found += self.items(path, alternative, depth + 1, key)
        elif kind in ("s", "u"):  # an item of an item (`table[0][1]`, `a, (b, c) = …`)
            inner_key = token[2] if len(token) > 2 else None
            for item_path, item in self.items(path, token[1], depth + 1, inner_key):
                found += self.items(item_path, item, depth + 1, key)
        elif kind == "c":  # what the called function returns; a generator: what it yields
            target = self._resolved(path, token[1])
            for function in self.held_by(target, depth + 1) if target is not None else ():
                d = self.resolver.definition(function)
                if d is not None and d.kind in _CALLABLE_KINDS:
                    found += [(function.path, t) for t in d.yielded]
                    for returned in d.returned:
                        found += self.items(function.path, returned, depth + 1, key)
        elif kind == "r":
            target = self._resolved(path, token[1])
            d = self.resolver.definition(target) if target is not None else None
            if d is None:
                return []
            if d.kind == "parameter":
                for argument_path, argument in self.arguments(target):
                    found += self.items(argument_path, argument, depth + 1, key)
            elif d.kind in _HOLDER_KINDS:
                group = self.resolver.variable_group(target)
                added, replaced = self._added_items(group, depth, key)
                if not replaced:
                    for assignment in group:
                        value = self.resolver.definition(assignment)
                        if value is not None and value.value is not None:
                            found += self.items(assignment.path, value.value, depth + 1, key)
                found += added
        if not found and kind in ("r", "c", "n"):  # an object that iterates itself: what `__next__` gives
            methods = self.iteration(path, token, depth + 1)
            if methods:
                last = self.resolver.definition(methods[-1])
                found = [(methods[-1].path, t) for t in last.returned] if last is not None else []
        return found[:4 * MAX_VALUES]

    def iteration(self, path: str, token, depth: int = 0) -> list[Symbol]:
        """The methods a loop over this value calls (``LanguageSpec.iteration_methods``: Python's
        `__iter__`, then `__next__` of what it gives — the object itself unless it says)."""
        view = self.resolver.view(path)
        names = view.spec.iteration_methods if view else ()
        if depth > _MAX_DEPTH:
            return []
        typed = self.resolver.infer(path, token) if names else None
        if typed is None and names and token[0] == "r":  # a parameter: what its callers pass
            target = self._resolved(path, token[1])
            d = self.resolver.definition(target) if target is not None else None
            if d is not None and d.kind == "parameter":
                found: list[Symbol] = []
                for argument_path, argument in self.arguments(target):
                    if argument[0] != "r" or self._resolved(argument_path, argument[1]) != target:
                        _extend(found, self.iteration(argument_path, argument, depth + 1))
                return found
        if typed is None or typed.kind != "instance" or typed.symbol is None:
            return []
        found: list[Symbol] = []
        cls = typed.symbol
        for name in names:
            method = self.resolver.class_member(cls, name)
            d = self.resolver.definition(method) if method is not None else None
            if d is None or d.kind not in _CALLABLE_KINDS:
                break
            found.append(method)
            for returned in d.returned[:4]:
                gives = self.resolver.infer(method.path, returned)
                if gives is not None and gives.kind == "instance" and gives.symbol is not None:
                    cls = gives.symbol
                    break
        return found

    def _added_items(self, group: list[Symbol], depth: int, key) -> tuple[list[tuple[str, tuple]], bool]:
        """Items added to a variable's container after it is made, in the files it is assigned
        in; and whether one was written at exactly ``key`` (`d["a"] = g` after `d = {"a": f}`:
        the write replaces the literal's item there, as PyCG's benchmark expects)."""
        found: list[tuple[str, tuple]] = []
        replaced = False
        for path in dict.fromkeys(s.path for s in group):
            view = self.resolver.view(path)
            for container, at, value, spread in view.facts.item_writes if view else ():
                if container[0] != "r" or self._resolved(path, container[1]) not in group:
                    continue
                if spread:
                    more = self.items(path, value, depth + 1, key)
                    replaced = replaced or (key is not None and bool(more) and value[0] == "k"
                                            and literal_item(value, key) is not None)
                    found += more
                elif key is None or at is None or at == key:
                    found.append((path, value))
                    replaced = replaced or (key is not None and at == key)
        return found, replaced

    def _resolved(self, path: str, ref_index: int) -> Symbol | None:
        resolution = self.resolver.resolve_reference(path, ref_index)
        if resolution.status != "found" or resolution.kind == "name-only" or resolution.target is None \
                or resolution.target.is_module:
            return None
        return resolution.target


def _argument(passed: tuple, keyword: str, position: int):
    """The token passed for a parameter: by keyword, else by position (unknown after a splat)."""
    for name, token, _splat in passed:
        if name == keyword:
            return token
    if position < 0:
        return None
    positional = 0
    for name, token, splat in passed:
        if splat:
            return None
        if name is None:
            if positional == position:
                return token
            positional += 1
    return None


def _extend(found: list[Symbol], more: list[Symbol]) -> None:
    for symbol in more:
        if symbol not in found and len(found) < MAX_VALUES:
            found.append(symbol)
