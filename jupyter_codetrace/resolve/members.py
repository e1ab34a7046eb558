"""Members: of a module, of a class through its MRO and out-of-line definitions (C++ `Foo::bar`, Go receivers, Rust impls), of `this`.

A part of ``Resolver`` (resolve/resolver.py), which combines them; methods call each other
through ``self``.
"""

from __future__ import annotations

from ..languages import spec_of
from .base import CLASS_KINDS, _VALUE_KINDS, Symbol, Resolution, InferredType, Recording

__all__ = ["MemberLookup"]



class MemberLookup:
    """Members."""

    def _member_of(self, owner: InferredType | None, name: str, path: str, depth: int) -> Resolution:
        if owner is None:
            return self.name_only(name, path, members=True)
        if owner.kind == "builtin":
            return Resolution("builtin")
        if owner.kind == "module":
            found = self.module_member(owner.symbol.path, name, depth + 1)
            if found.status == "found" and found.target is not None:
                return Resolution("found", found.target, "member", found.candidates, found.resolved_from)
            return found if found.status != "not_found" else self.name_only(name, path, members=True)
        start_after_self = owner.kind == "super"
        found = self.class_member(owner.symbol, name, skip_self=start_after_self)
        if found is not None:
            return Resolution("found", found, "member")
        return self.name_only(name, path, members=True, external_base=self._has_external_base(owner.symbol))

    def member_of_token(self, path: str, token, name: str) -> Resolution:
        """The member ``name`` of what an expression token is (a literal's declared type …)."""
        key = ("member_of_token", path, token, name)
        cached = self.recall(key)   # its reads read again: the graph redoes a file when any changes
        if cached is not None:
            return cached
        with self.recording() as read:
            self.view(path)
            found = self._member_of(self.infer(path, token, 1), name, path, 1)
        self.remember(key, found, read)
        return found

    def enclosing_class(self, path: str, container: int) -> Symbol | None:
        view = self.view(path)
        defs = view.facts.definitions
        objects = view.spec.members_assigned_to_objects
        while container >= 0:
            d = defs[container]
            if d.kind in CLASS_KINDS:
                return Symbol(path, container)
            if d.qualifier:
                return self.qualifier_class(path, container)
            if objects and d.scope < 0 and d.container >= 0:
                # `View.prototype.render = function () { this.… }`, `api = { get() { this.… } }`:
                # the object (or constructor function) the method was given to
                return Symbol(path, d.container)
            if objects and d.kind == "function" and self.has_object_members(Symbol(path, container)):
                return Symbol(path, container)   # `function View() { this.… }`: a constructor
            container = d.container
        return None

    def class_member(self, cls: Symbol, name: str, skip_self: bool = False) -> Symbol | None:
        """The member ``name`` of class ``cls`` (or of its bases only: ``skip_self``), through its
        MRO, out-of-line definitions and a union's alternatives. Kept per class and name (with
        what it read): `self.assertEqual` is looked up 34,000 times in the stdlib's tests, each
        a walk of the same MRO."""
        return self.settled(("class_member", cls, name, skip_self),
                            lambda: self._class_member(cls, name, skip_self, 0))

    def _class_member(self, cls: Symbol, name: str, skip_self: bool, _depth: int) -> Symbol | None:
        for klass in self.mro(cls)[1 if skip_self else 0:]:
            view = self.view(klass.path)
            indices = view.members.get(klass.index, {}).get(name) if view else None
            owner = self.definition(klass) if indices and view.spec.members_assigned_to_objects else None
            if owner is not None and owner.kind in ("function", "method"):
                # a function: what was given to it, and what its written return type declares
                # (`(): {id: string}`), not its locals (a variable's are what was given to it and
                # what its written type declares: `opts: {id: string}`)
                returns = owner.returns_span or (0, 0)
                indices = [i for i in indices if view.facts.definitions[i].scope < 0
                           or returns[0] <= view.facts.definitions[i].start_byte < returns[1]]
            if indices:
                defs = view.facts.definitions
                # A member declared in the class body beats one assigned in a method, except a
                # bare annotation (`x: int` in a Python class body) where a method assigns it:
                # the assignment defines it (as Jedi answers; `declaration` mode keeps both).
                bare = view.spec.assignment_defines_annotated_member
                best = min(indices, key=lambda i: (
                    bare and defs[i].scope >= 0 and defs[i].value is None and defs[i].type is not None
                    and defs[i].kind in ("field", "variable"),
                    defs[i].scope < 0, defs[i].declaration, i))
                return Symbol(klass.path, best)
            found = self.extension_members(klass).get(name)
            if found is not None:
                return found
        d = self.definition(cls)
        for token in d.alternatives if d is not None and not skip_self and _depth < 8 else ():
            alternative = self.infer(cls.path, token, 1)  # `type R = A | B`: A's member, else B's
            if alternative is not None and alternative.symbol is not None and not alternative.symbol.is_module \
                    and alternative.symbol != cls:
                found = self._class_member(alternative.symbol, name, False, _depth + 1)
                if found is not None:
                    return found
        return None

    def extension_members(self, cls: Symbol) -> dict[str, Symbol]:
        """Members defined outside the type's body: C++ `Foo::bar() {}`, Go methods with a
        `Foo` receiver, Rust `impl Foo { … }` blocks. Found through the files naming Foo."""
        d = self.definition(cls)
        if d is None or not self._extensible(cls):
            return {}
        # any file naming the type may add members to it (an extension), or defining it (TypeScript)
        self.note_name(d.name)
        self.note_users(d.name)
        cached = self._extensions.get(d.name, {}).get(cls)
        if cached is not None:
            if cls in self._extending:
                self._partial += 1
            return cached
        self._extensions.setdefault(d.name, {})[cls] = found = {}
        self._extending.add(cls)   # asked again meanwhile, it gives what is found so far
        try:
            with Recording(self._read, keep=False):
                self._collect_extensions(cls, d.name, found)
        finally:
            self._extending.discard(cls)
        return found

    def _collect_extensions(self, cls: Symbol, type_name: str, found: dict[str, Symbol]) -> None:
        self._module_augmentations(cls, type_name, found)
        d_name = type_name
        for path in sorted(self.index.used_in.get(d_name, ())):
            if not self._may_hold_outside_members(path):
                continue   # not loaded: most files naming a type are of languages without such members
            view = self.view(path)
            if view is None:
                continue
            defs = view.facts.definitions
            for i in view.extensions:
                token = defs[i].qualifier
                if token[0] != "r" or view.facts.references[token[1]].name != d_name:
                    continue
                owner = self.resolve_reference(path, token[1])
                if owner.status != "found" or owner.target != cls:
                    continue
                if defs[i].kind == "impl":
                    for member, indices in view.members.get(i, {}).items():
                        found.setdefault(member, Symbol(path, indices[0]))
                else:
                    found.setdefault(defs[i].name, Symbol(path, i))

    def _extensible(self, cls: Symbol) -> bool:
        """Whether members of the type may be defined outside its body: in its language (C++,
        Go, Rust), or by a TypeScript module augmentation. A Python or Java class's are all in its
        body, and no other file's change can add one (nothing is looked up, no name is noted)."""
        view = self.view(cls.path)
        language = view.facts.language if view is not None else None
        spec = spec_of(language)
        return spec is None or spec.members_outside_types or language in ("typescript", "tsx", "javascript")

    def _may_hold_outside_members(self, path: str) -> bool:
        spec = spec_of(self.index.language_of(path)) if not self.is_library(path) else None
        return spec is None or spec.members_outside_types   # a library file's is known once read

    def _module_augmentations(self, cls: Symbol, type_name: str, found: dict[str, Symbol]) -> None:
        """TypeScript module augmentation: ``declare module "./config" { interface Config {…} }``
        in another file adds its members to the interface ``Config`` of the module it names."""
        for path in sorted(self.index.defined_in.get(type_name, ())):
            if path == cls.path or self.index.language_of(path) not in ("typescript", "tsx"):
                continue   # known before the file is read: most files defining the name are not TS
            view = self.view(path)
            if view is None or view.facts.language not in ("typescript", "tsx"):
                continue
            defs = view.facts.definitions
            for i in view.named(type_name):   # (not every definition of the file made and compared)
                d = defs[i]
                outer = d.container
                if d.kind != "interface" or not 0 <= outer < len(defs) \
                        or defs[outer].kind != "namespace" or not defs[outer].name.startswith((".", "/")):
                    continue
                if cls.path not in self.modules.resolve(defs[outer].name, path, view.facts.language):
                    continue
                for member, indices in view.members.get(i, {}).items():
                    found.setdefault(member, Symbol(path, indices[0]))

    def has_object_members(self, symbol: Symbol) -> bool:
        """TS/JS: whether a variable or function was given members (`app.use = function …`,
        `View.prototype.render = …`, the literal `const api = {get() {}}` holds): it is then typed
        as that object, whose members they are."""
        view = self.view(symbol.path)
        if view is None or not view.spec.members_assigned_to_objects:
            return False
        defs = view.facts.definitions
        return any(defs[i].scope < 0 for indices in view.members.get(symbol.index, {}).values() for i in indices)

    def qualifier_class(self, path: str, index: int) -> Symbol | None:
        """The type an out-of-line member (or impl block) belongs to."""
        d = self.view(path).facts.definitions[index]
        if not d.qualifier or d.qualifier[0] != "r":
            return None
        owner = self.resolve_reference(path, d.qualifier[1])
        if owner.status == "found" and owner.target is not None and not owner.target.is_module:
            target = self.definition(owner.target)
            if target is not None and target.kind in CLASS_KINDS:
                return owner.target
        return None

    def mro(self, cls: Symbol) -> tuple[Symbol, ...]:
        """The class and its bases, breadth first."""
        return self.settled(("mro", cls), lambda: self._mro(cls))

    def _mro(self, cls: Symbol) -> tuple[Symbol, ...]:
        order: list[Symbol] = []
        stack = [cls]
        while stack and len(order) < 64:
            klass = stack.pop(0)
            if klass in order:
                continue
            order.append(klass)
            d = self.definition(klass)
            if d is None:
                continue
            for token in d.extends + d.implements:
                base = self.infer(klass.path, token, 1)
                if base is not None and base.symbol is not None and base.kind in ("class", "instance") \
                        and not base.symbol.is_module:
                    stack.append(base.symbol)
        return tuple(order)

    def _has_external_base(self, cls: Symbol | None) -> bool:
        d = self.definition(cls) if cls else None
        return bool(d and len(self.mro(cls)) <= len(d.extends))
