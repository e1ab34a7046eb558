"""Lexical names: a name read in a scope, through enclosing scopes, star imports, sibling files of a package and global module names.

A part of ``Resolver`` (resolve/resolver.py), which combines them; methods call each other
through ``self``.
"""

from __future__ import annotations

from ..languages.spec import _no_counterparts
from .base import (CLASS_KINDS, _MERGED_KINDS, Symbol, Resolution, Recording, binding_entries, binding_index,
                   binding_kind, nearest_binding)

__all__ = ["ScopeLookup"]


class ScopeLookup:
    """Lexical names."""

    def resolve_name(self, path: str, scope: int, name: str, at: int, depth: int = 0) -> Resolution:
        view = self.view(path)
        if view is None:
            return Resolution("not_found")
        facts, spec = view.facts, view.spec
        first = True
        s = scope
        while s >= 0:
            sc = facts.scopes[s]
            if name in sc.globals:
                s, first = 0, False
                continue
            if name in sc.nonlocals:
                s, first = sc.parent, False
                continue
            if sc.kind == "class" and not spec.class_body_binds_names or \
                    sc.kind == "class" and not first and not spec.class_scope_encloses:
                s = sc.parent
                continue
            entries = view.bindings.get(s, {}).get(name)
            if entries:
                binding = nearest_binding(entries, at)
                return self._binding(path, binding, depth, "scope")
            for j in view.stars.get(s, ()):
                found = self._via_star(path, j, name, depth)
                if found is not None:
                    return found
            if spec.implicit_members and sc.owner >= 0:
                owner = facts.definitions[sc.owner]
                cls = None
                if owner.qualifier:
                    cls = self.qualifier_class(path, sc.owner)  # `Foo::bar() { x_; }` reads Foo's x_
                elif sc.kind == "class" and owner.kind in CLASS_KINDS:
                    cls = Symbol(path, sc.owner)  # a method body reads inherited members bare
                member = self.class_member(cls, name) if cls is not None else None
                if member is not None:
                    return Resolution("found", member, "member")
            first = False
            s = sc.parent if s > 0 else -1
        found = self._package_member(path, name, depth)
        if found is not None:
            return found
        if spec.global_module_names:
            found = self._global_module(name)
            if found is not None:
                return found
        if name in spec.builtins:
            return Resolution("builtin")
        return self.name_only(name, path, members=False)

    def bare_reads(self, path: str, name: str) -> Resolution | None:
        """What every bare read of ``name`` in the file resolves to (a read not through a
        receiver, not as a type), when that cannot depend on where it is: the file binds the
        name exactly once, at its top level, a read at the top resolves alike
        (``read_alike_in``), no star import inside can answer first, and a call chooses no
        overload. None otherwise. find_references of a name used everywhere (a module: `os`,
        10,000 reads in 700 files) resolves it once a file instead of once a use."""
        view = self.view(path)
        if view is None or any(scope != 0 for scope in view.stars) or not self.read_alike_in(path, 0, name):
            return None
        facts = view.facts
        scopes = facts.definition_column("scope")
        bindings = [(scopes[i], i) for i in view.named(name) if scopes[i] >= 0]
        bindings += [(imp.scope, -1) for imp in facts.imports if imp.local == name and imp.kind != "star"]
        if len(bindings) != 1 or bindings[0][0] != 0:
            return None
        entry = view.bindings.get(0, {}).get(name)
        if type(entry) is not int:   # (none, or more than one)
            return None
        found = self._binding(path, entry, 0, "scope")
        if found.status == "found" and found.target is None:
            return Resolution("not_found")
        return None if self.chooses_overload(found) else found

    def read_alike_in(self, path: str, scope: int, name: str) -> bool:
        """Whether every bare read of ``name`` written in scope ``scope`` (not in a scope inside
        it) resolves alike, and gives a value of one type, wherever it is: the scope that binds it
        binds it once (no position chooses among bindings), no star import or class's implicit
        members can answer first, and no test narrows its type somewhere (``isinstance``,
        ``instanceof``). A receiver read so (`self`, `parser`) has one type in that scope, so
        each member read through it does too: find_references resolves one of them."""
        view = self.view(path)
        if view is None:
            return False
        facts, spec = view.facts, view.spec
        if spec.implicit_members or spec.namespace_members_visible or name in spec.this_keywords \
                or name in spec.super_names or any(narrowed == name for narrowed, *_ in facts.narrowings):
            return False
        s = scope
        while s >= 0:
            sc = facts.scopes[s]
            if name in sc.globals or name in sc.nonlocals or view.stars.get(s):
                return False
            entries = view.bindings.get(s, {}).get(name)
            if entries:
                return type(entries) is int
            s = sc.parent if s > 0 else -1
        return True   # bound nowhere in the file: another file's, a built-in (not a position's)

    def _binding(self, path: str, binding: int, depth: int, kind: str) -> Resolution:
        index = binding_index(binding)
        if binding_kind(binding) == "d":
            symbol = Symbol(path, index)
            if self.view(path).facts.definitions[index].kind in _MERGED_KINDS:
                symbol = self.variable_group(symbol)[0]  # merged declarations: the first stands for all
            return Resolution("found", symbol, kind)
        return self.follow_import(path, index, depth)

    def _via_star(self, path: str, import_index: int, name: str, depth: int) -> Resolution | None:
        view = self.view(path)
        imp = view.facts.imports[import_index]
        for target in self._modules(imp.module, path, view.facts.language):
            found = self.module_member(target, name, depth + 1, star=True)
            if found.status == "found" and found.target is not None:
                return found.with_chain((path, imp.statement))
        return None

    def _global_module(self, name: str) -> Resolution | None:
        """Elixir: `Shop.Cart` names the one module defined with that full name, in any file."""
        self._note(f"*name:{name}")
        found = []
        with Recording(self._read, keep=False):
            for other in sorted(self.index.defined_in.get(name, ())):
                view = self.view(other)
                if view is None:
                    continue
                found += [Symbol(other, i) for i in view.named(name)
                          if view.facts.definitions[i].kind in ("module", "namespace")]
        return Resolution("found", found[0], "import") if len(found) == 1 else None

    def _package_member(self, path: str, name: str, depth: int) -> Resolution | None:
        """``name`` bound at the top of another file of the same package (Go: same folder)."""
        view = self.view(path)
        if view is None:
            return None
        siblings = view.spec.package_files(path, self.modules)
        if view.spec.package_files is not _no_counterparts:
            # the answer depends on the folder's files even when this one is alone: a file added
            # beside it may bind the name (Go: a package-level `max` shadows the builtin)
            self._note("*files")
        if not siblings:
            return None
        for other in siblings:
            other_view = self.view(other)
            if other_view is None:
                continue
            entries = other_view.bindings.get(0, {}).get(name)
            for entry in binding_entries(entries) if entries else ():
                if binding_kind(entry) == "d":  # a sibling's imports are its own, only its definitions are shared
                    return self._binding(other, entry, depth + 1, "scope")
        return None
