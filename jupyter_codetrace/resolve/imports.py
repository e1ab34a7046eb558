"""Imports and exports: what an import binds and what a module exports, through re-export chains.

A part of ``Resolver`` (resolve/resolver.py), which combines them; methods call each other
through ``self``.
"""

from __future__ import annotations

import re

from .base import CLASS_KINDS, _MAX_DEPTH, _END, Symbol, Resolution, binding_entries, binding_index, binding_kind

# `const X = require('./m')` (the whole module bound to one name) and `module.exports = X`
# (the import's statement is the declarator, the export's the text from `module` on)
_REQUIRE = re.compile(r"^(?:(?:const|let|var)\s+)?[A-Za-z_$][\w$]*\s*=\s*require\s*\(")
_MODULE_EXPORTS = re.compile(r"^module(?:\s*\.\s*exports\s*=(?!=)|$)")


def _is_require(statement: str | None) -> bool:
    return bool(statement) and bool(_REQUIRE.match(statement.strip()))


__all__ = ["ImportLookup"]


class ImportLookup:
    """Imports and exports."""

    def follow_import(self, path: str, import_index: int, depth: int = 0) -> Resolution:
        # asked again for every use of the name the import binds
        return self.settled(("import", path, import_index, depth), lambda: self._follow_import(path, import_index, depth))

    def _follow_import(self, path: str, import_index: int, depth: int) -> Resolution:
        view = self.view(path)
        imp = view.facts.imports[import_index]
        step = (path, imp.statement)
        if depth > _MAX_DEPTH:
            return Resolution("unresolved", via=imp.statement)
        module = imp.module
        if imp.kind == "dotted":
            module = imp.module.split(".")[0]
        targets = self._modules(module, path, view.facts.language)
        if not targets and view.spec.global_module_names:
            # Elixir: `alias Greetings.Greeter` whose module lives where Mix's convention does not
            # put it (`lib/greeter.ex`): the one file that defines a module of that full name
            found = self._global_module(module)
            if found is not None and found.target is not None:
                if imp.kind in ("dotted", "module", "namespace"):
                    return Resolution("found", found.target, "import", resolved_from=[step])
                targets = [found.target.path]
        if not targets:
            return Resolution("unresolved", via=imp.statement, missing=module)
        if imp.kind == "namespace" and _is_require(imp.statement):
            # `const X = require('./m')` where m assigns `module.exports = Counter`: X is Counter
            for target in targets:
                if self._assigns_module_exports(target):
                    found = self.module_member(target, "default", depth + 1)
                    if found.status == "found" and found.target is not None:
                        return found.with_chain(step)
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
                                  resolved_from=(step, *found.resolved_from), missing=found.missing)
        return Resolution("unresolved", via=imp.statement, resolved_from=[step])

    def _assigns_module_exports(self, module_path: str) -> bool:
        """The CommonJS module at ``module_path`` replaces its exports object (`module.exports = X`)."""
        if module_path.endswith("/"):
            return False
        try:
            exports = self.view(module_path).facts.exports
        except Exception:  # noqa: BLE001 - not an indexed file
            return False
        return any(e.kind == "default" and e.module is None and _MODULE_EXPORTS.match((e.statement or "").strip())
                   for e in exports)

    def module_member(self, module_path: str, name: str, depth: int = 0, star: bool = False) -> Resolution:
        """``name`` as seen by an importer of the module at ``module_path``. Kept for the
        generation (``settled``): a barrel's exports were searched again, and its `export *`
        chains followed again, for every import and every candidate file of find_references."""
        if depth > _MAX_DEPTH:
            self._partial += 1   # a re-export cycle cut short: no answer on the way is kept
            return Resolution("not_found")
        return self.settled(("module_member", module_path, name, star),
                            lambda: self._module_member(module_path, name, depth, star))

    def _module_member(self, module_path: str, name: str, depth: int, star: bool) -> Resolution:
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
                    return Resolution("unresolved", via=export.statement, missing=export.module)
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
                # `export default new Logger()`, `export default function () {…}`, `export default
                # { isArray, … }`: the definition `default` the query makes of it (this module's own:
                # a lookup by name would find another module's); its value types what is read of it
                entries = view.bindings.get(0, {}).get("default")
                for entry in binding_entries(entries) if entries else ():
                    if binding_kind(entry) == "d":
                        return Resolution("found", Symbol(module_path, binding_index(entry)), "import")
                if export.value is not None:
                    typed = self.infer(module_path, export.value, depth + 1)
                    if typed is not None and typed.symbol is not None:
                        return Resolution("found", typed.symbol, "import")
        if spec.module_object_names:
            defs = facts.definitions
            for i in view.named(name):   # `exports.f = …`: a member of the module object, before a
                if defs[i].scope < 0 and defs[i].container < 0:   # local binding of that name
                    return Resolution("found", Symbol(module_path, i), "import")
        entries = view.bindings.get(0, {}).get(name)
        if entries:
            outside = None
            for entry in reversed(binding_entries(entries)):  # what the module ends up binding
                imported, index = binding_kind(entry) == "i", binding_index(entry)
                if (imported and spec.imports_are_exported) or \
                        (not imported and (spec.top_level_is_exported or facts.definitions[index].exported)):
                    if imported and module_path in self._modules(
                            facts.imports[index].module, module_path, facts.language):
                        continue  # the module importing from itself (`from .live import Live` in live.py)
                    found = self._binding(module_path, entry, depth + 1, "scope")
                    if found.status == "found" and found.target is None:
                        continue  # a binding that leads nowhere (`from .me import X` in me.py): an earlier one counts
                    if found.status == "unresolved" and imported:
                        # `try: from _collections import OrderedDict` over a class written in Python:
                        # the compiled module has no source, the fallback definition does
                        outside = outside or found
                        continue
                    return found if found.kind != "scope" else Resolution("found", found.target, "import")
            if outside is not None:
                return outside
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
        if spec.members_assigned_to_objects and name != "default":
            found = self._commonjs_value_member(module_path, facts, name, depth)
            if found is not None:
                return found
        found = self._package_member(module_path, name, depth)
        if found is not None:
            return Resolution("found", found.target, "import", resolved_from=found.resolved_from)
        base = module_path.rsplit("/", 1)[0] if "/" in module_path else ""
        if module_path.endswith(("__init__.py", "__init__.pyi")):
            return self._submodule(base, name)
        return Resolution("not_found")

    def _commonjs_value_member(self, module_path: str, facts, name: str, depth: int) -> Resolution | None:
        """`require('./app').use`: a CommonJS module is the value it assigns to `module.exports`
        (`module.exports = View`, `var app = exports = module.exports = {}`), so its members are
        that class's or object's (``app.use = function …``)."""
        if not any(e.kind == "default" and not e.statement.startswith("export") for e in facts.exports):
            return None
        value = self.module_member(module_path, "default", depth + 1)
        if value.status != "found" or value.target is None or value.target.is_module:
            return None
        d = self.definition(value.target)
        if d is None or not (d.kind in CLASS_KINDS or self.has_object_members(value.target)):
            return None
        member = self.class_member(value.target, name)
        return Resolution("found", member, "member") if member is not None else None

    def _modules(self, spec: str, importer: str, language: str) -> list[str]:
        found = self.modules.resolve(spec, importer, language)
        if not found:
            self._note("*files")
            self._note("*missing")
        return found

    def _submodule(self, package: str, name: str) -> Resolution:
        self._note("*files")
        prefix = f"{package}/" if package else ""
        for candidate in (f"{prefix}{name}.py", f"{prefix}{name}/__init__.py", f"{prefix}{name}.pyi"):
            if self.index.has_file(candidate):
                return Resolution("found", Symbol(candidate), "import")
        if self.index.has_dir(f"{prefix}{name}"):
            return Resolution("found", Symbol(f"{prefix}{name}"), "import")
        self._note("*missing")
        return Resolution("not_found")
