"""find_references: every place in the project that uses the symbol named at FILE:LINE[:COL].

Each candidate use (a reference or import with the same name, found through the name index)
is resolved, and kept only when it resolves to the same definition: precision over recall.
"""

from __future__ import annotations

from ..resolve.resolver import Symbol
from ..results import Location, Reference, ReferencesResult
from .context import QueryContext, validate_position, validate_symbol
from .definition import _implementation, locate

__all__ = ["find_references", "references_to"]

_CONTEXT_CHARS = 160
_VALUE_KINDS = frozenset({"variable", "constant", "field", "property", "enum_member"})


def find_references(ctx: QueryContext, symbol, file, line, column=None, include_declaration=False,
                    cell=None) -> ReferencesResult:
    line, column = validate_position(line, column)
    path = ctx.file_argument(file)
    if symbol is None and column is not None:
        with ctx.lock:  # a cursor position without a name: the identifier there
            ctx.fresh()
            if not ctx.index.has_file(path):
                message, suggestions = ctx.not_indexed_message(path, None)
                return ReferencesResult("file_not_indexed", "", message, suggestions)
            symbol = ctx.identifier_at(path, ctx.virtual_line(path, cell, line), column)
    symbol = validate_symbol(symbol)
    with ctx.lock:
        ctx.fresh()
        if not ctx.index.has_file(path):
            message, suggestions = ctx.not_indexed_message(path, symbol)
            return ReferencesResult("file_not_indexed", symbol, message, suggestions)
        line = ctx.virtual_line(path, cell, line)
        located = locate(ctx, path, symbol, line, column)
        if located is None:
            names = ctx.names_on_line(path, line)
            message = f"No reference named '{symbol}' at {path}:{line}."
            message += f" Names on that line: {', '.join(names)}." if names else " That line names nothing."
            return ReferencesResult("reference_not_found", symbol, message, tuple({"name": n} for n in names))
        resolution = located.resolution
        if resolution.status != "found":
            status = "builtin" if resolution.status == "builtin" else "unresolved"
            message = "Built-in symbol (no source available)" if status == "builtin" else \
                f"'{symbol}' does not resolve to a definition in the project" + \
                (f" (it comes through `{resolution.via}`)." if resolution.via else ".")
            return ReferencesResult(status, symbol, message)
        target = _implementation(ctx, resolution.target)
        return references_to(ctx, target, symbol, include_declaration)


def references_to(ctx: QueryContext, target: Symbol, symbol: str, include_declaration: bool = False) -> ReferencesResult:
    resolver = ctx.resolver
    group = resolver.variable_group(target)
    target = group[0]
    members = set(group)
    d = resolver.definition(target)
    name = d.name if d is not None else target.path.rsplit("/", 1)[-1].split(".")[0]
    found: dict[tuple[str, int, int], Reference] = {}
    re_exports = []
    candidates = set(ctx.index.used_in.get(name, ())) | {target.path}
    for path in sorted(candidates):
        view = resolver.view(path)
        if view is None:
            continue
        lines = None
        facts = view.facts
        test = ctx.is_test(path)

        def add(line, column, usage, resolution):
            nonlocal lines
            if lines is None:
                lines = ctx.source_lines(path)
            text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
            cell, shown_line = ctx.cell_position(path, line)
            found[(path, line, column)] = Reference(path, shown_line, column, usage, test,
                                                    text[:_CONTEXT_CHARS], resolution, cell)

        for i, ref in enumerate(facts.references):
            if ref.name != name:
                continue
            resolution = resolver.resolve_reference(path, i)
            if resolution.status == "found" and resolution.kind != "name-only" and \
                    _same(ctx, resolution.target, members):
                add(ref.line, ref.column, ref.usage, resolution.kind)
        for j, imp in enumerate(facts.imports):
            if imp.name != name and imp.local != name:
                continue
            resolution = resolver.follow_import(path, j)
            if resolution.status == "found" and _same(ctx, resolution.target, members):
                if imp.name == name:
                    add(imp.name_line, imp.name_column, "import", "import")
                elif imp.local == name:
                    add(imp.line, imp.column, "import", "import")
        for export in facts.exports:
            if export.exported_as != name and export.name != name:
                continue
            resolution = resolver.module_member(path, export.exported_as or name)
            if resolution.status == "found" and _same(ctx, resolution.target, members) and path != target.path:
                re_exports.append({"file": path, "exported_as": export.exported_as, "from": export.module or path,
                                   "line": export.line})
    for other in group[1:]:
        od = resolver.definition(other)
        merged = od.kind not in _VALUE_KINDS  # a merged declaration, not a later assignment
        if merged and not include_declaration:
            continue
        lines = ctx.source_lines(other.path)
        cell, shown_line = ctx.cell_position(other.path, od.line)
        text = lines[od.line - 1].strip() if 0 < od.line <= len(lines) else ""
        found[(other.path, od.line, od.column)] = Reference(other.path, shown_line, od.column,
                                                            "declaration" if merged else "write",
                                                            ctx.is_test(other.path), text[:_CONTEXT_CHARS], "scope", cell)
    if include_declaration and d is not None:
        lines = ctx.source_lines(target.path)
        cell, shown_line = ctx.cell_position(target.path, d.line)
        text = lines[d.line - 1].strip() if 0 < d.line <= len(lines) else ""
        found[(target.path, d.line, d.column)] = Reference(target.path, shown_line, d.column, "declaration",
                                                           ctx.is_test(target.path), text[:_CONTEXT_CHARS], "scope", cell)
    ordered = tuple(found[k] for k in sorted(found))
    definition = None
    if d is not None:
        cell, shown_line = ctx.cell_position(target.path, d.line)
        definition = Location(target.path, shown_line, d.column, d.kind, d.name, cell)
    else:
        definition = Location(target.path, 1, 1, "module", name)
    return ReferencesResult("found", symbol, None, (), definition, ordered, tuple(re_exports))


def _same(ctx: QueryContext, found: Symbol, targets: set[Symbol]) -> bool:
    return found in targets or _implementation(ctx, found) in targets
