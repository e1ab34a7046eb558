"""Reference -> Resolution: lexical scopes, imports and re-exports, members and inferred types.

The only cross-file stage. It never branches on a language's name: what differs between
languages comes from the facts and from ``LanguageSpec`` hooks. Results are cached for one
index generation (any file change starts a new one).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from ..facts import Definition, FileFacts
from ..languages import by_name
from ..languages.spec import LanguageSpec
from .modules import ProjectModules

__all__ = ["Resolver", "Resolution", "Symbol", "CLASS_KINDS", "MEMBER_OWNER_KINDS"]

CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "type"})
MEMBER_OWNER_KINDS = CLASS_KINDS | {"impl", "namespace", "module"}
_VALUE_KINDS = frozenset({"variable", "constant", "field", "property", "parameter", "enum_member"})
_CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
_MERGED_KINDS = frozenset({"interface", "namespace"})
_MAX_DEPTH = 24          # import chains and inference steps; deeper is almost surely a cycle
_MAX_CANDIDATES = 8
_END = 1 << 60           # "after everything": what a module finally binds


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition (``index`` into the file's definitions) or a whole module (``index == -1``)."""

    path: str
    index: int = -1

    @property
    def is_module(self) -> bool:
        return self.index < 0


@dataclass(slots=True)
class Resolution:
    status: str                                     # found | builtin | unresolved | not_found
    target: Symbol | None = None
    kind: str = "scope"                             # scope | import | member | inferred | name-only
    candidates: list[Symbol] = field(default_factory=list)
    resolved_from: list[tuple[str, str]] = field(default_factory=list)
    via: str | None = None                          # the import an unresolved name came through

    def with_chain(self, step: tuple[str, str]) -> "Resolution":
        return Resolution(self.status, self.target, "import" if self.kind == "scope" else self.kind,
                          self.candidates, [step] + self.resolved_from, self.via)


_UNKNOWN = Resolution("not_found")
_NO_VIEW = object()


@dataclass(frozen=True, slots=True)
class _Type:
    kind: str            # instance | class | module | builtin | super
    symbol: Symbol | None = None


class _FileView:
    """A file's facts with the lookup tables resolution needs, built once per generation."""

    __slots__ = ("facts", "spec", "bindings", "stars", "ref_starts", "members", "extensions", "_by_name",
                 "_first_params")

    def __init__(self, facts: FileFacts, spec: LanguageSpec):
        self.facts, self.spec = facts, spec
        bindings: dict[int, dict[str, list]] = {}
        members: dict[int, dict[str, list[int]]] = {}
        for i, d in enumerate(facts.definitions):
            if d.scope >= 0:
                # A variable's own value cannot see it (`x = x + 1` reads the previous x).
                blind_until = d.end_byte if d.kind in _VALUE_KINDS else -1
                bindings.setdefault(d.scope, {}).setdefault(d.name, []).append((d.start_byte, "d", i, blind_until))
            if d.container >= 0 and d.kind != "parameter":
                members.setdefault(d.container, {}).setdefault(d.name, []).append(i)
            if spec.namespace_members_visible:
                # C++: a namespace's members are also seen from around it (and from other
                # files through `#include`), as the namespace is reopened wherever it is used.
                inner = d
                while inner.container >= 0 and inner.scope >= 0:
                    outer = facts.definitions[inner.container]
                    if outer.kind not in ("namespace", "module") or outer.own_scope != inner.scope or outer.scope < 0:
                        break
                    bindings.setdefault(outer.scope, {}).setdefault(d.name, []).append((d.start_byte, "d", i, -1))
                    inner = outer
        stars: dict[int, list[int]] = {}
        for j, imp in enumerate(facts.imports):
            if imp.kind == "star":
                stars.setdefault(imp.scope, []).append(j)
            elif imp.local:
                bindings.setdefault(imp.scope, {}).setdefault(imp.local, []).append((imp.start_byte, "i", j, -1))
        for table in bindings.values():
            for entries in table.values():
                entries.sort()
        self.bindings, self.stars, self.members = bindings, stars, members
        self.extensions = [i for i, d in enumerate(facts.definitions) if d.qualifier]
        self.ref_starts = [r.start_byte for r in facts.references]
        self._by_name: dict[str, list[int]] | None = None
        self._first_params: dict[int, int] | None = None

    def named(self, name: str) -> list[int]:
        """Indices of the definitions called ``name``."""
        if self._by_name is None:
            self._by_name = {}
            for i, d in enumerate(self.facts.definitions):
                self._by_name.setdefault(d.name, []).append(i)
        return self._by_name.get(name, [])

    def first_parameter(self, scope: int) -> int | None:
        """The first parameter bound in function scope ``scope`` (``self`` of a method)."""
        if self._first_params is None:
            self._first_params = {}
            for i, d in enumerate(self.facts.definitions):
                if d.kind == "parameter":
                    self._first_params.setdefault(d.scope, i)
        return self._first_params.get(scope)


class Resolver:
    """Resolves references of one index generation."""

    def __init__(self, index, workspace, previous: "Resolver | None" = None):
        self.index = index
        self.modules = ProjectModules(index, workspace)
        self._views: dict[str, _FileView | None] = {}
        # Views of files that did not change are reused from the previous generation: building
        # them again (facts from the store, binding tables) is most of the cost of an answer
        # right after an edit.
        self._carried: dict[str, tuple[str, _FileView]] = {}
        if previous is not None:
            for path, view in previous._views.items():
                if view is not None:
                    self._carried[path] = (previous._digests.get(path), view)
        self._digests: dict[str, str | None] = {}
        self._resolved: dict[tuple[str, int], Resolution] = {}
        # What each resolution read: file paths, "*name:N" (a same-name lookup over the whole
        # project) and "*files" (a module or submodule that was not found). The graph uses it
        # to redo only the files whose answers a change can alter.
        self._read: list[set[str]] = [set()]
        self._reads: dict[tuple[str, int], frozenset[str]] = {}
        self._same_name: dict[tuple[str, bool], list[Symbol]] = {}
        self._extensions: dict[Symbol, dict[str, Symbol]] = {}
        self.memo: dict = {}   # later stages' per-generation caches (the graph's name sets)

    # ------------------------------------------------------------------ files
    def recording(self) -> "_Recording":
        """``with resolver.recording() as read:`` collects what resolutions inside it read."""
        return _Recording(self._read)

    def _note(self, what: str) -> None:
        self._read[-1].add(what)

    def view(self, path: str) -> _FileView | None:
        self._read[-1].add(path)
        found = self._views.get(path, _NO_VIEW)
        if found is _NO_VIEW:
            digest = self._digests[path] = self.index.digest(path)
            carried = self._carried.pop(path, None)
            if carried is not None and digest is not None and carried[0] == digest:
                self._views[path] = carried[1]
                return carried[1]
            facts = self.index.facts(path)
            if facts is None:
                found = None
            else:
                language = "python" if facts.language == "notebook" else facts.language
                found = _FileView(facts, by_name(language))
            self._views[path] = found
        return found

    def variable_group(self, symbol: Symbol) -> list[Symbol]:
        """Every assignment of the same variable (same name, same scope or same owner), first first.

        A variable is one symbol however often it is assigned: its first binding stands for it and
        the later ones are writes."""
        d = self.definition(symbol)
        if d is not None and d.kind in _MERGED_KINDS and d.scope >= 0:
            # TS declaration merging: `interface Shape` declared twice is one interface.
            defs = self.view(symbol.path).facts.definitions
            return [Symbol(symbol.path, i) for i in self.view(symbol.path).named(d.name)
                    if defs[i].kind == d.kind and defs[i].scope == d.scope] or [symbol]
        if d is None or d.kind not in _VALUE_KINDS or d.kind == "parameter":
            return [symbol]
        defs = self.view(symbol.path).facts.definitions
        if d.scope >= 0 and not (d.container >= 0 and defs[d.container].kind in CLASS_KINDS):
            same = [i for i, o in enumerate(defs) if o.name == d.name and o.scope == d.scope and o.kind in _VALUE_KINDS]
        else:
            same = [i for i, o in enumerate(defs) if o.name == d.name and o.container == d.container
                    and o.kind in _VALUE_KINDS and o.kind != "parameter"
                    and (o.scope < 0 or defs[d.container].own_scope == o.scope)]
        return [Symbol(symbol.path, i) for i in sorted(same, key=lambda i: (defs[i].scope < 0, i))] or [symbol]

    def definition(self, symbol: Symbol | None) -> Definition | None:
        if symbol is None:
            return None
        view = self.view(symbol.path)
        if view is None or symbol.index < 0 or symbol.index >= len(view.facts.definitions):
            return None
        return view.facts.definitions[symbol.index]

    # ------------------------------------------------------------------ references
    def resolve_reference(self, path: str, ref_index: int) -> Resolution:
        key = (path, ref_index)
        cached = self._resolved.get(key)
        if cached is None:
            self._resolved[key] = _UNKNOWN  # a cycle through this reference resolves to nothing
            with self.recording() as read:
                cached = self._resolve_reference(path, ref_index, 0)
            if cached.status == "found" and cached.target is None:
                cached = Resolution("not_found")
            self._resolved[key] = cached
            self._reads[key] = frozenset(read)
        else:
            self._read[-1].update(self._reads.get(key, ()))
        return cached

    def _resolve_reference(self, path: str, ref_index: int, depth: int) -> Resolution:
        view = self.view(path)
        ref = view.facts.references[ref_index]
        spec = view.spec
        if ref.receiver is False:
            if ref.name in spec.this_keywords:
                cls = self.enclosing_class(path, ref.container)
                if cls is not None:
                    return Resolution("found", cls, "member")
            found = self.resolve_name(path, ref.scope, ref.name, ref.start_byte, depth)
            return self.as_type(found) if ref.usage == "type-ref" else found
        if ref.receiver == ("b",):
            return Resolution("builtin")
        owner = self.infer(path, ref.receiver, depth + 1)
        return self._member_of(owner, ref.name, path, depth)

    def _member_of(self, owner: _Type | None, name: str, path: str, depth: int) -> Resolution:
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

    # ------------------------------------------------------------------ lexical names
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
            if sc.kind == "class" and not first and not spec.class_scope_encloses:
                s = sc.parent
                continue
            entries = view.bindings.get(s, {}).get(name)
            if entries:
                binding = _nearest(entries, at)
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

    def _binding(self, path: str, binding: tuple, depth: int, kind: str) -> Resolution:
        _, what, index, _ = binding
        if what == "d":
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

    # ------------------------------------------------------------------ imports
    def follow_import(self, path: str, import_index: int, depth: int = 0) -> Resolution:
        view = self.view(path)
        imp = view.facts.imports[import_index]
        step = (path, imp.statement)
        if depth > _MAX_DEPTH:
            return Resolution("unresolved", via=imp.statement)
        module = imp.module
        if imp.kind == "dotted":
            module = imp.module.split(".")[0]
        targets = self._modules(module, path, view.facts.language)
        if not targets:
            return Resolution("unresolved", via=imp.statement)
        if imp.kind in ("dotted", "module", "namespace"):
            return Resolution("found", Symbol(targets[0].rstrip("/")), "import", resolved_from=[step])
        name = "default" if imp.kind == "default" else imp.name
        if not name:
            return Resolution("found", Symbol(targets[0].rstrip("/")), "import", resolved_from=[step])
        for target in targets:
            found = self.module_member(target, name, depth + 1)
            if found.status == "found" and found.target is not None:
                return found.with_chain(step)
            if found.status in ("builtin", "unresolved"):
                return Resolution(found.status, via=found.via or imp.statement,
                                  resolved_from=[step] + found.resolved_from)
        return Resolution("unresolved", via=imp.statement, resolved_from=[step])

    def module_member(self, module_path: str, name: str, depth: int = 0, star: bool = False) -> Resolution:
        """``name`` as seen by an importer of the module at ``module_path``."""
        if depth > _MAX_DEPTH:
            return Resolution("not_found")
        if module_path.endswith("/"):  # a namespace package: only submodules
            return self._submodule(module_path.rstrip("/"), name)
        view = self.view(module_path)
        if view is None:
            return Resolution("not_found")
        facts, spec = view.facts, view.spec
        if star and facts.all_names is not None and name not in facts.all_names:
            return Resolution("not_found")
        for export in facts.exports:
            if export.kind == "named" and export.exported_as == name:
                step = (module_path, export.statement)
                if export.module is not None:
                    for target in self._modules(export.module, module_path, facts.language):
                        found = self.module_member(target, export.name, depth + 1)
                        if found.status == "found" and found.target is not None:
                            return found.with_chain(step)
                    return Resolution("unresolved", via=export.statement)
                found = self.resolve_name(module_path, 0, export.name, _END, depth + 1)
                if found.status == "found" and found.kind == "scope":
                    return Resolution("found", found.target, "import")
                return found
            if export.kind == "namespace" and export.exported_as == name and export.module:
                targets = self._modules(export.module, module_path, facts.language)
                if targets:
                    return Resolution("found", Symbol(targets[0].rstrip("/")), "import",
                                      resolved_from=[(module_path, export.statement)])
            if export.kind == "default" and name == "default":
                if export.name:
                    found = self.resolve_name(module_path, 0, export.name, _END, depth + 1)
                    if found.status == "found" and found.target is not None:
                        return Resolution("found", found.target, "import", resolved_from=found.resolved_from)
                if export.value is not None and export.value[0] == "r" \
                        and facts.references[export.value[1]].receiver is False:
                    # `export default api;`: the default export *is* the variable `api`
                    found = self.resolve_reference(module_path, export.value[1])
                    if found.status == "found" and found.target is not None:
                        return Resolution("found", found.target, "import", resolved_from=found.resolved_from)
                if export.value is not None:
                    typed = self.infer(module_path, export.value, depth + 1)
                    if typed is not None and typed.symbol is not None:
                        return Resolution("found", typed.symbol, "import")
        entries = view.bindings.get(0, {}).get(name)
        if entries:
            for entry in reversed(entries):  # what the module ends up binding
                if entry[1] == "i" or spec.top_level_is_exported or facts.definitions[entry[2]].exported:
                    if entry[1] == "i" and module_path in self._modules(
                            facts.imports[entry[2]].module, module_path, facts.language):
                        continue  # the module importing from itself (`from .live import Live` in live.py)
                    found = self._binding(module_path, entry, depth + 1, "scope")
                    if found.status == "found" and found.target is None:
                        continue  # a binding that leads nowhere (`from .me import X` in me.py): an earlier one counts
                    return found if found.kind != "scope" else Resolution("found", found.target, "import")
        for export in facts.exports:
            if export.kind == "star" and export.module:
                for target in self._modules(export.module, module_path, facts.language):
                    found = self.module_member(target, name, depth + 1, star=True)
                    if found.status == "found" and found.target is not None:
                        return found.with_chain((module_path, export.statement))
        for j in view.stars.get(0, ()):
            found = self._via_star(module_path, j, name, depth + 1)
            if found is not None:
                return found
        found = self._package_member(module_path, name, depth)
        if found is not None:
            return Resolution("found", found.target, "import", resolved_from=found.resolved_from)
        base = module_path.rsplit("/", 1)[0] if "/" in module_path else ""
        if module_path.endswith(("__init__.py", "__init__.pyi")):
            return self._submodule(base, name)
        return Resolution("not_found")

    def _global_module(self, name: str) -> Resolution | None:
        """Elixir: `Shop.Cart` names the one module defined with that full name, in any file."""
        self._note(f"*name:{name}")
        found = []
        with _Recording(self._read, keep=False):
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
        if not siblings:
            return None
        self._note("*files")
        for other in siblings:
            other_view = self.view(other)
            if other_view is None:
                continue
            entries = other_view.bindings.get(0, {}).get(name)
            for entry in entries or ():
                if entry[1] == "d":  # a sibling's imports are its own, only its definitions are shared
                    return self._binding(other, entry, depth + 1, "scope")
        return None

    def _modules(self, spec: str, importer: str, language: str) -> list[str]:
        found = self.modules.resolve(spec, importer, language)
        if not found:
            self._note("*files")
        return found

    def _submodule(self, package: str, name: str) -> Resolution:
        self._note("*files")
        prefix = f"{package}/" if package else ""
        for candidate in (f"{prefix}{name}.py", f"{prefix}{name}/__init__.py", f"{prefix}{name}.pyi"):
            if self.index.has_file(candidate):
                return Resolution("found", Symbol(candidate), "import")
        if self.index.has_dir(f"{prefix}{name}"):
            return Resolution("found", Symbol(f"{prefix}{name}"), "import")
        return Resolution("not_found")

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

    # ------------------------------------------------------------------ members and types
    def enclosing_class(self, path: str, container: int) -> Symbol | None:
        view = self.view(path)
        defs = view.facts.definitions
        while container >= 0:
            if defs[container].kind in CLASS_KINDS:
                return Symbol(path, container)
            if defs[container].qualifier:
                return self.qualifier_class(path, container)
            container = defs[container].container
        return None

    def class_member(self, cls: Symbol, name: str, skip_self: bool = False, _depth: int = 0) -> Symbol | None:
        for klass in self.mro(cls)[1 if skip_self else 0:]:
            view = self.view(klass.path)
            indices = view.members.get(klass.index, {}).get(name) if view else None
            if indices:
                defs = view.facts.definitions
                # A member declared in the class body beats one assigned in a method.
                best = min(indices, key=lambda i: (defs[i].scope < 0, defs[i].declaration, i))
                return Symbol(klass.path, best)
            found = self.extension_members(klass).get(name)
            if found is not None:
                return found
        d = self.definition(cls)
        for token in d.alternatives if d is not None and not skip_self and _depth < 8 else ():
            alternative = self.infer(cls.path, token, 1)  # `type R = A | B`: A's member, else B's
            if alternative is not None and alternative.symbol is not None and not alternative.symbol.is_module \
                    and alternative.symbol != cls:
                found = self.class_member(alternative.symbol, name, _depth=_depth + 1)
                if found is not None:
                    return found
        return None

    def extension_members(self, cls: Symbol) -> dict[str, Symbol]:
        """Members defined outside the type's body: C++ `Foo::bar() {}`, Go methods with a
        `Foo` receiver, Rust `impl Foo { … }` blocks. Found through the files naming Foo."""
        d = self.definition(cls)
        if d is None:
            return {}
        self._note(f"*name:{d.name}")  # any file naming the type may add members to it
        cached = self._extensions.get(cls)
        if cached is not None:
            return cached
        self._extensions[cls] = found = {}
        with _Recording(self._read, keep=False):
            self._collect_extensions(cls, d.name, found)
        return found

    def _collect_extensions(self, cls: Symbol, type_name: str, found: dict[str, Symbol]) -> None:
        d_name = type_name
        for path in sorted(self.index.used_in.get(d_name, ())):
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

    def mro(self, cls: Symbol) -> list[Symbol]:
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
        return order

    def _has_external_base(self, cls: Symbol | None) -> bool:
        d = self.definition(cls) if cls else None
        return bool(d and len(self.mro(cls)) <= len(d.extends))

    def infer(self, path: str, token, depth: int = 0) -> _Type | None:
        """The type of an expression token, when it can be known."""
        if token is None or token is False or depth > _MAX_DEPTH:
            return None
        if token == ("b",):
            return _Type("builtin")
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
        if token[0] in ("e", "i"):
            return _Type("builtin") if token[0] == "e" else None  # a literal container; value flow's
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
            return _Type("instance", cls) if cls else None
        if ref.receiver is False and ref.name in spec.super_names:
            cls = self.enclosing_class(path, ref.container)
            return _Type("super", cls) if cls else None
        resolution = self.resolve_reference(path, index)
        if resolution.status == "builtin":
            return _Type("builtin") if kind != "r" else None
        if resolution.status != "found" or resolution.kind == "name-only" or resolution.target is None:
            return None
        target = resolution.target
        if target.is_module:
            return _Type("module", target) if kind == "r" else None
        d = self.definition(target)
        if d is None:
            return None
        if kind in ("c", "n"):
            if d.kind in CLASS_KINDS:
                return _Type("instance", target)
            if d.kind == "constructor":
                cls = self.enclosing_class(target.path, d.container)
                return _Type("instance", cls) if cls else None
            if d.returns_span and (d.kind in _CALLABLE_KINDS or d.kind in _VALUE_KINDS):
                # a function, or a value declared with a function type (`get: (u) => Result`)
                return self.type_of_annotation(target, d.returns_span, d.returns, depth + 1)
            return None
        return self.type_of_definition(target, depth + 1)

    def type_of_definition(self, symbol: Symbol, depth: int = 0) -> _Type | None:
        d = self.definition(symbol)
        if d is None or depth > _MAX_DEPTH:
            return None
        if d.kind in CLASS_KINDS:
            return _Type("class", symbol)
        view = self.view(symbol.path)
        if d.kind in ("namespace", "module") and view.spec.namespace_members_visible:
            return _Type("class", symbol)  # `ns::name` looks among the namespace's members
        if d.kind == "parameter" and d.name in view.spec.self_names:
            owner = self.definition(Symbol(symbol.path, d.container)) if d.container >= 0 else None
            if owner is not None and owner.kind in ("method", "constructor", "property"):
                first_param = view.first_parameter(owner.own_scope)
                cls = self.enclosing_class(symbol.path, owner.container)
                if cls is not None and first_param == symbol.index:
                    is_class = "classmethod" in owner.decorators or d.name == "cls"
                    return _Type("class" if is_class else "instance", cls)
        if d.type_span:
            typed = self.type_of_annotation(symbol, d.type_span, d.type, depth + 1)
            if typed is not None:
                return typed
        if d.kind == "property" and d.returns_span:
            return self.type_of_annotation(symbol, d.returns_span, d.returns, depth + 1)
        if d.value is not None:
            return self.infer(symbol.path, d.value, depth + 1)
        return None

    def type_of_annotation(self, symbol: Symbol, span: tuple[int, int], text: str | None, depth: int) -> _Type | None:
        view = self.view(symbol.path)
        refs = view.facts.references
        start = bisect_left(view.ref_starts, span[0])
        end = bisect_right(view.ref_starts, span[1])
        for i in range(start, end):
            if refs[i].receiver is not False and refs[i].receiver is not None \
                    and not (refs[i].receiver[0] == "r" and refs[refs[i].receiver[1]].start_byte >= span[0]):
                continue  # a member of something outside the annotation; `ns::Type`/`mod.Class` count
            found = self.as_type(self.resolve_reference(symbol.path, i))
            if found.status == "found" and found.target is not None and not found.target.is_module:
                d = self.definition(found.target)
                if d is not None and d.kind in CLASS_KINDS:
                    # A member access `mod.Class` resolves on its last name: keep looking for it.
                    j = i + 1
                    while j < end and refs[j].receiver not in (False, None) and refs[j].receiver[1:] == (i,):
                        i = j
                        j += 1
                    return _Type("instance", found.target)
        if text:
            bare = text.strip().strip("\"'")
            if bare.isidentifier() and bare != text.strip():
                d = self.definition(symbol)
                found = self.resolve_name(symbol.path, d.scope if d.scope >= 0 else 0, bare, d.start_byte, depth)
                if found.status == "found" and found.target is not None and not found.target.is_module:
                    target = self.definition(found.target)
                    if target is not None and target.kind in CLASS_KINDS:
                        return _Type("instance", found.target)
        return None

    # ------------------------------------------------------------------ name-only fallback
    def name_only(self, name: str, from_path: str, members: bool, external_base: bool = False) -> Resolution:
        """No resolution: the same-named definitions, best first, honestly labelled."""
        self._note(f"*name:{name}")
        with _Recording(self._read, keep=False):  # the "*name:" note stands for these reads
            return self._name_only(name, from_path, members, external_base)

    def _name_only(self, name: str, from_path: str, members: bool, external_base: bool) -> Resolution:
        candidates = self._same_named_in(from_path, name, members)
        key = (name, members)
        others = self._same_name.get(key)
        if others is None:
            others = self._same_name[key] = self._same_named(name, members)
        for symbol in others:
            if len(candidates) >= _MAX_CANDIDATES:
                break
            if symbol.path != from_path:
                candidates.append(symbol)
        if not candidates:
            return Resolution("unresolved" if members or external_base else "not_found")
        view = self.view(from_path)
        if members and len(candidates) > 1 and view is not None and view.spec.precise:
            # A member of an unknown receiver that several types define: a guess would mostly be
            # wrong (measured: 6 of 29 right on zod, 0 of 8 on rich). Say so, listing them.
            return Resolution("unresolved", candidates=candidates[:_MAX_CANDIDATES])
        return Resolution("found", candidates[0], "name-only", candidates[:_MAX_CANDIDATES])

    def _same_named(self, name: str, members: bool) -> list[Symbol]:
        """The first same-named definitions in path order: enough for any file's candidate list
        (a common name is defined in hundreds of files; loading them all would cost seconds)."""
        found: list[Symbol] = []
        for path in sorted(self.index.defined_in.get(name, ())):
            found += self._same_named_in(path, name, members)
            if len(found) > _MAX_CANDIDATES * 2:
                break
        return found

    def _same_named_in(self, path: str, name: str, members: bool) -> list[Symbol]:
        view = self.view(path)
        if view is None:
            return []
        defs = view.facts.definitions
        found = []
        for i in view.named(name):
            d = defs[i]
            if d.kind == "parameter":
                continue
            is_member = d.container >= 0 and defs[d.container].kind in MEMBER_OWNER_KINDS
            if members and is_member or not members and d.scope == 0:
                found.append(Symbol(path, i))
        return found


class _Recording:
    __slots__ = ("stack", "read", "keep")

    def __init__(self, stack: list[set[str]], keep: bool = True):
        self.stack, self.read, self.keep = stack, set(), keep

    def __enter__(self) -> set[str]:
        self.stack.append(self.read)
        return self.read

    def __exit__(self, *exc) -> None:
        self.stack.pop()
        if self.keep:
            self.stack[-1].update(self.read)


def _nearest(entries: list, at: int):
    """The binding in effect at byte ``at``: the last one before it, else the first after it."""
    i = bisect_right(entries, (at, "~", 1 << 62, 0)) - 1
    while i >= 0 and entries[i][3] > at:  # skip a variable whose own value holds `at`
        i -= 1
    return entries[i] if i >= 0 else entries[0]
