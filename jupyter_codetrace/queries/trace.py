"""trace: everything about one symbol — its definition always; references, call trees and
types on request.

Example on the bundled fixture::

    >>> project = Project("fixtures/python_app")
    >>> print(project.trace("User.save", calls=True).to_text())          # doctest: +SKIP
    definition:
      symbol: User.save
      kind: method
    ...
"""

from __future__ import annotations

import re

from ..graph import traverse
from ..graph.build import CALLABLE_KINDS, NODE_KINDS
from ..resolve.resolver import CLASS_KINDS, Symbol
from ..results import TraceResult
from .context import QueryContext, validate_flag, validate_symbol
from .definition import _implementation, describe
from .graph import _graph, find_symbol
from .references import references_to

__all__ = ["trace"]

_TYPE_GUARD = re.compile(r"^\s*(?:asserts\s+)?([A-Za-z_$][\w$]*)\s+is\s+(.+?)\s*$")
_MERGEABLE = frozenset({"interface", "namespace", "module", "class", "enum", "function"})
_CALLS = traverse.Follow(frozenset({"CALLS"}))
_SUPERTYPES = traverse.Follow(frozenset({"EXTENDS", "IMPLEMENTS"}))


def trace(ctx: QueryContext, symbol, file=None, references=False, calls=False, types=False) -> TraceResult:
    symbol = validate_symbol(symbol)
    references, calls, types = (validate_flag(v, n) for v, n in
                                ((references, "references"), (calls, "calls"), (types, "types")))
    if file is not None and isinstance(file, str) and not file.strip():
        file = None
    if file is not None:
        ctx.file_argument(file)
    with ctx.lock:
        ctx.fresh()
        note = None
        if file is not None:
            lookup = find_symbol(ctx, file, symbol)
            if lookup.status != "found":
                return TraceResult(lookup.status, symbol, lookup.message, lookup.suggestions)
            target, chain = lookup.target, lookup.chain
        else:
            found = _search(ctx, symbol)
            if isinstance(found, TraceResult):
                return found
            target, chain, note = found
        target = _implementation(ctx, target)
        definition = describe(ctx, target, symbol, resolution="import" if chain else "scope", chain=chain)
        graph = _graph(ctx) if (calls or types) else None
        node = graph.node_of(ctx.resolver, target) if graph else None
        return TraceResult(
            "found", symbol, definition=definition,
            references=_references(ctx, target, symbol) if references else None,
            calls=_calls(ctx, graph, node, target) if calls else None,
            types=_types(ctx, graph, node, target) if types else None,
            note=note,
        )


def _search(ctx: QueryContext, symbol: str):
    """The best definition of ``symbol`` across the project, and a note when there were several."""
    parts = tuple(symbol.split("."))
    resolver = ctx.resolver
    ranked = []
    for path in sorted(ctx.index.defined_in.get(parts[-1], ())):
        for place in resolver.places(path, parts[-1])[0]:   # not the file's facts (places.py)
            nesting = place.container + (place.name,)
            if nesting[-len(parts):] != parts:
                continue
            rank = (nesting != parts, place.kind not in NODE_KINDS, place.declaration, ctx.is_test(path),
                    not place.exported, not place.scoped, path.count("/"), path, place.index)
            ranked.append((rank, Symbol(path, place.index), nesting))
    if not ranked:
        names = ctx.similar_names(parts[-1], ctx.index.defined_in, limit=8)
        message = f"Symbol '{symbol}' is not defined in the project."
        suggestions = []
        for name in names:
            suggestions += ctx.where_defined(name, limit=1)
        if suggestions:
            message += " Closest names: " + ", ".join(f"{s['name']} ({s['file']})" for s in suggestions) + "."
        return TraceResult("symbol_not_found", symbol, message, tuple(suggestions))
    ranked.sort(key=lambda r: r[0])
    best = ranked[0]
    note = None
    others = [r for r in ranked[1:] if r[1].path != best[1].path or r[2] != best[2]]
    if others:
        where = ", ".join(f"{'.'.join(r[2])} ({r[1].path})" for r in others[:5])
        note = f"{len(others) + 1} definitions match '{symbol}'; this is the best one. Others: {where}" + \
            (f" and {len(others) - 5} more." if len(others) > 5 else ".")
    return best[1], (), note


def _references(ctx: QueryContext, target: Symbol, symbol: str) -> dict:
    found = references_to(ctx, target, symbol)
    by_file: dict[str, dict] = {}
    for ref in found.references:
        entry = by_file.setdefault(ref.file, {"file": ref.file, "test": ref.test, "usages": []})
        entry["usages"].append(ref.usage)
    return {
        "total": found.count, "files": found.files,
        "byFile": list(by_file.values()),
        "reExports": [{"file": e["file"], "exportedAs": e["exported_as"], "from": e["from"]} for e in found.re_exports],
        "locations": [r.to_dict() for r in found.references],
    }


def _calls(ctx: QueryContext, graph, node: str | None, target: Symbol) -> dict:
    d = ctx.resolver.definition(target)
    callable_ = d is not None and (d.kind in CALLABLE_KINDS or (d.kind == "property" and d.own_scope >= 0))
    if node is None or not callable_ or node not in graph.graph:
        return {"incoming": [], "outgoing": [], "truncated": False}
    incoming, cut_in = traverse.call_tree(graph.graph, node, _CALLS, forward=False)
    outgoing, cut_out = traverse.call_tree(graph.graph, node, _CALLS, forward=True)
    return {"incoming": _tree(ctx, graph, incoming), "outgoing": _tree(ctx, graph, outgoing, node),
            "truncated": cut_in or cut_out}


def _tree(ctx: QueryContext, graph, entries: list[dict], parent: str | None = None) -> list[dict]:
    out = []
    for entry in entries:
        a = graph.graph.nodes.get(entry["id"], {})
        if "kind" not in a:
            continue
        cell, line = ctx.cell_position(a["file"], a["line"])
        item = {"symbol": _label(a), "id": entry["id"], "kind": a["kind"], "file": a["file"],
                "line": line, "children": []}
        if cell is not None:
            item["cell"] = cell
        if entry.get("cycle"):
            item["cycle"] = True
        elif entry.get("seen"):
            item["seen"] = True
        else:
            item["children"] = _tree(ctx, graph, entry.get("children", []), entry["id"] if parent else None)
        out.append(item)
    if parent is not None:  # outgoing trees end in the calls that leave the project
        for name in graph.graph.nodes[parent].get("external_calls", ()):
            out.append({"symbol": name, "external": True, "children": []})
    return out


def _types(ctx: QueryContext, graph, node: str | None, target: Symbol) -> dict:
    resolver = ctx.resolver
    d = resolver.definition(target)
    result: dict = {"hierarchy": {"extends": [], "implements": [], "subtypes": []},
                    "flows": {"parameters": [], "returns": None, "properties": []},
                    "typeGuard": None, "mergedDeclarations": []}
    if d is None:
        return result
    if node is not None and node in graph.graph:
        for _, base, data in graph.graph.out_edges(node, data=True):
            if data["kind"] in ("EXTENDS", "IMPLEMENTS") and data["resolution"] != "name-only":
                key = "extends" if data["kind"] == "EXTENDS" else "implements"
                entry = _type_entry(graph, base)
                if entry not in result["hierarchy"][key]:
                    result["hierarchy"][key].append(entry)
        subtypes, _, _ = traverse.closure(graph.graph, [node], _SUPERTYPES, forward=False)
        result["hierarchy"]["subtypes"] = [_type_entry(graph, n) for n in subtypes]
    defs = resolver.view(target.path).facts.definitions
    if d.own_scope >= 0:
        for i, p in enumerate(defs):
            if p.kind == "parameter" and p.scope == d.own_scope and p.type:
                result["flows"]["parameters"].append(
                    {"name": p.name, "type": p.type, **_type_file(ctx, Symbol(target.path, i), p.type_span, p.type)})
    if d.returns:
        result["flows"]["returns"] = {"type": d.returns, **_type_file(ctx, target, d.returns_span, d.returns)}
        guard = _TYPE_GUARD.match(d.returns)
        if guard:
            result["typeGuard"] = {"parameter": guard.group(1), "type": guard.group(2),
                                   **_type_file(ctx, target, d.returns_span, guard.group(2))}
    if d.kind in CLASS_KINDS:
        seen = set()
        for i, m in enumerate(defs):
            if m.container == target.index and m.kind in ("property", "field", "variable") and m.type and m.name not in seen:
                seen.add(m.name)
                result["flows"]["properties"].append(
                    {"name": m.name, "type": m.type, **_type_file(ctx, Symbol(target.path, i), m.type_span, m.type)})
    if d.kind in _MERGEABLE:
        nesting = ctx.qualified_path(target)
        same = [i for i, o in enumerate(defs) if o.name == d.name and o.container == d.container and o.kind in _MERGEABLE
                and o.kind != "function" and ctx.qualified_path(Symbol(target.path, i)) == nesting]
        sites = [(target.path, i) for i in same] + _global_merges(ctx, target, d)
        if len(sites) > 1:
            merged = []
            for path, i in sites:
                o = resolver.view(path).facts.definitions[i]
                merged.append({"symbol": d.name, "kind": o.kind, "file": path,
                               "line": ctx.cell_position(path, o.line)[1]})
            result["mergedDeclarations"] = merged
    return result


_SCRIPT_LANGUAGES = frozenset({"typescript", "tsx"})


def _is_script(facts) -> bool:
    """A TypeScript file without imports or exports: its top-level declarations are global."""
    return facts.language in _SCRIPT_LANGUAGES and not facts.imports and not facts.exports \
        and not any(d.exported for d in facts.definitions)


def _global_merges(ctx: QueryContext, target: Symbol, d) -> list[tuple[str, int]]:
    """The declarations of a global TypeScript interface or namespace in other script files: they
    merge with this one (seed 002: "Interfaces declared in multiple files")."""
    resolver = ctx.resolver
    if d.kind not in ("interface", "namespace") or d.container != -1 or d.scope != 0 \
            or not _is_script(resolver.view(target.path).facts):
        return []
    sites = []
    for path in sorted(ctx.index.defined_in.get(d.name, ())):
        if path == target.path:
            continue
        view = resolver.view(path)
        if view is None or not _is_script(view.facts):
            continue
        sites += [(path, i) for i, o in enumerate(view.facts.definitions)
                  if o.name == d.name and o.kind == d.kind and o.container == -1 and o.scope == 0]
    return sites


def _label(attrs: dict) -> str:
    """A node as the trace names it: its nesting (``Order.add``), or a module's file."""
    return attrs["file"] if attrs["kind"] == "module" else attrs.get("nesting") or attrs["name"]


def _type_entry(graph, node_id: str) -> dict:
    a = graph.graph.nodes[node_id]
    return {"symbol": _label(a), "file": a["file"], "kind": a["kind"], "line": a["line"]}


def _type_file(ctx: QueryContext, owner: Symbol, span, text: str) -> dict:
    """``{"file": ...}`` when the annotation names a type defined in another project file."""
    if not span:
        return {}
    typed = ctx.resolver.type_of_annotation(owner, span, text, 0)
    if typed is None or typed.symbol is None or typed.symbol.is_module or typed.symbol.path == owner.path:
        return {}
    return {"file": typed.symbol.path}
