"""Graph queries: ``dependencies_of``, ``dependents_of``, ``paths_between``, ``call_graph``.

Example on the bundled fixture::

    >>> project = Project("fixtures/python_app")
    >>> print(project.dependents_of("app/models.py", "User.save").to_text())   # doctest: +SKIP
    ## Graph
    <BLANKLINE>
    run --CALLS--> User.save
    ...
"""

from __future__ import annotations

import weakref

from ..graph import traverse
from ..graph.build import NODE_KINDS, CodeGraph
from ..graph.persist import store_for
from ..resolve.resolver import CLASS_KINDS, Symbol
from ..results import GraphEdge, GraphNode, GraphResult
from .context import QueryContext, validate_flag, validate_symbol
from .definition import _implementation

__all__ = ["dependencies_of", "dependents_of", "paths_between", "call_graph", "find_symbol", "SymbolLookup",
           "graph_nodes", "snippets"]

_SNIPPET_NODES = 15      # the seed format: snippets only when there are at most this many nodes
_SNIPPET_LINES = 12      # longer definitions are cut in the snippet (offset/limit still cover all)


class SymbolLookup:
    """A symbol named in a file: found (``target``), or a not-found answer to return."""

    __slots__ = ("target", "chain", "status", "message", "suggestions")

    def __init__(self, target: Symbol | None = None, chain: tuple = (), status: str = "found",
                 message: str | None = None, suggestions: tuple = ()):
        self.target, self.chain, self.status, self.message, self.suggestions = \
            target, chain, status, message, suggestions


def find_symbol(ctx: QueryContext, file, symbol: str) -> SymbolLookup:
    """``symbol`` (``name`` or dotted ``Class.member``) as defined in — or imported into — ``file``."""
    path = ctx.file_argument(file, field="file")
    if not ctx.index.has_file(path):
        message, suggestions = ctx.not_indexed_message(path, symbol)
        return SymbolLookup(status="file_not_indexed", message=message, suggestions=suggestions)
    resolver = ctx.resolver
    parts = tuple(symbol.split("."))
    view = resolver.view(path)
    defs = view.facts.definitions
    best = None
    for i, d in enumerate(defs):
        if d.name != parts[-1] or d.kind == "parameter":
            continue
        nesting = ctx.qualified_path(Symbol(path, i))
        if nesting[-len(parts):] != parts:
            continue
        rank = (nesting != parts, d.declaration, d.scope < 0, i)
        if best is None or rank < best[0]:
            best = (rank, i)
    if best is not None:
        return SymbolLookup(Symbol(path, best[1]))
    # Not defined here: maybe imported here (then follow the import to the real definition).
    for j, imp in enumerate(view.facts.imports):
        if imp.local != parts[0] or imp.scope != 0:
            continue
        found = resolver.follow_import(path, j)
        if found.status != "found" or found.target is None:
            continue
        target = found.target
        for name in parts[1:]:
            target = _member(ctx, target, name)
            if target is None:
                break
        if target is not None:
            chain = tuple({"file": f, "via": via} for f, via in found.resolved_from)
            return SymbolLookup(target, chain)
    return _symbol_not_found(ctx, path, symbol)


def _member(ctx: QueryContext, owner: Symbol, name: str) -> Symbol | None:
    resolver = ctx.resolver
    if owner.is_module:
        found = resolver.module_member(owner.path, name)
        return found.target if found.status == "found" else None
    d = resolver.definition(owner)
    if d is not None and d.kind in CLASS_KINDS:
        return resolver.class_member(owner, name)
    return None


def _symbol_not_found(ctx: QueryContext, path: str, symbol: str) -> SymbolLookup:
    name = symbol.split(".")[-1]
    elsewhere = [w for w in ctx.where_defined(name, limit=50) if w["file"] != path]
    if elsewhere:
        ranked = ctx.similar_names(path, [w["file"] for w in elsewhere], limit=10) or [w["file"] for w in elsewhere]
        order = {f: i for i, f in enumerate(ranked)}
        elsewhere.sort(key=lambda w: (order.get(w["file"], len(order)), w["file"], w["line"]))
        message = (f"Symbol '{symbol}' not found at {path}. It is defined in: "
                   + ", ".join(f"{w['file']}:{w['line']}" for w in elsewhere[:10]) + ".")
        return SymbolLookup(status="symbol_not_found", message=message, suggestions=tuple(elsewhere[:10]))
    view = ctx.resolver.view(path)
    defs = view.facts.definitions
    names = [".".join(ctx.qualified_path(Symbol(path, i))) for i, d in enumerate(defs)
             if d.kind in NODE_KINDS or (d.container < 0 and d.kind != "parameter")
             or (d.container >= 0 and defs[d.container].kind in CLASS_KINDS and d.kind != "parameter")]
    close = ctx.similar_names(symbol, names, limit=10)
    message = f"Symbol '{symbol}' not found at {path}."
    if close:
        message += " Symbols in that file, closest first: " + ", ".join(close) + "."
    elif names:
        message += " That file defines, closest first: " + ", ".join(_by_similarity(symbol, names)[:20]) + "."
    else:
        message += " That file defines nothing."
    return SymbolLookup(status="symbol_not_found", message=message, suggestions=tuple({"name": n} for n in close))


def _by_similarity(symbol: str, names) -> list[str]:
    """All of ``names``, the most similar to ``symbol`` first (edit distance ignoring case, to the
    whole name or to its last part), for a file where no name is close enough to be a did-you-mean."""
    from rapidfuzz.distance import DamerauLevenshtein

    query = symbol.casefold()

    def distance(name: str) -> tuple:
        folded = name.casefold()
        return (min(DamerauLevenshtein.distance(query, folded),
                    DamerauLevenshtein.distance(query, folded.rsplit(".", 1)[-1])),
                DamerauLevenshtein.distance(query, folded), name)

    return sorted(set(names), key=distance)


def _graph(ctx: QueryContext, only_stored: bool = False) -> CodeGraph | None:
    """The project's graph, up to date (made on first use). ``only_stored``: None rather than
    a build from nothing, when no earlier process left a snapshot of it."""
    graph = getattr(ctx, "_code_graph", None)
    if graph is None:
        # not ctx itself: the context holds the graph, and a cycle between them is never freed
        # once a large build froze it (freeze_long_lived) — a dropped project's files stayed open
        context = weakref.ref(ctx)
        graph = CodeGraph(implementation=lambda symbol: _implementation(context(), symbol),
                          store=store_for(ctx.index, ctx.libraries))
        if only_stored and (graph.store is None or not graph.store.has_snapshot()):
            return None
        ctx._code_graph = graph
    graph.update(ctx.resolver, ctx.index)
    return graph


def start_nodes(ctx: QueryContext, graph: CodeGraph, target: Symbol) -> list[str]:
    """The node of ``target``; for a class, also its members (its code is theirs) — so that
    the dependents of a class include the callers of its constructor."""
    node = graph.node_of(ctx.resolver, target)
    if node is None:
        return []
    d = ctx.resolver.definition(target)
    body = graph.node_of(ctx.resolver, _implementation(ctx, target)) if d is not None and d.declaration else None
    if body is not None and body != node:
        return [node, body]  # a prototype and its body are one function
    if d is None or d.kind not in CLASS_KINDS:
        return [node]
    prefix = node + "."
    return [node] + sorted(n for n in graph.file_nodes(target.path) if n.startswith(prefix))


def _lookup_or_fail(ctx: QueryContext, file, symbol, query: str):
    lookup = find_symbol(ctx, file, symbol)
    if lookup.status != "found":
        return None, GraphResult(lookup.status, query, lookup.message, lookup.suggestions)
    return lookup, None


def dependencies_of(ctx: QueryContext, file, symbol, include_name_matches: bool = False) -> GraphResult:
    return _closure(ctx, file, symbol, include_name_matches, forward=True)


def dependents_of(ctx: QueryContext, file, symbol, include_name_matches: bool = False) -> GraphResult:
    return _closure(ctx, file, symbol, include_name_matches, forward=False)


def _closure(ctx: QueryContext, file, symbol, include_name_matches: bool, forward: bool) -> GraphResult:
    symbol = validate_symbol(symbol)
    include_name_matches = validate_flag(include_name_matches, "include_name_matches")
    query = "dependencies" if forward else "dependents"
    ctx.file_argument(file)
    with ctx.lock:
        ctx.fresh()
        lookup, failure = _lookup_or_fail(ctx, file, symbol, query)
        if failure:
            return failure
        graph = _graph(ctx)
        starts = start_nodes(ctx, graph, lookup.target)
        follow = traverse.Follow(include_name_matches=bool(include_name_matches))
        found, edges, truncated = traverse.closure(graph.graph, starts, follow, forward)
        inside = set(starts)  # a class's own members calling each other are not its dependencies
        edges = [e for e in edges if not (e[0] in inside and e[1] in inside)]
        ids = [s for s in starts if s in graph.graph] + found
        return _result(ctx, graph, query, starts, ids, edges, truncated, include_name_matches)


def paths_between(ctx: QueryContext, source, target, include_name_matches: bool = False) -> GraphResult:
    file_a, symbol_a = _pair(source, "from")
    file_b, symbol_b = _pair(target, "to")
    ctx.file_argument(file_a, field="from_file")   # a refusal names the argument
    ctx.file_argument(file_b, field="to_file")
    include_name_matches = validate_flag(include_name_matches, "include_name_matches")
    with ctx.lock:
        ctx.fresh()
        lookup_a, failure = _lookup_or_fail(ctx, file_a, symbol_a, "paths")
        if failure:
            return failure
        lookup_b, failure = _lookup_or_fail(ctx, file_b, symbol_b, "paths")
        if failure:
            return failure
        graph = _graph(ctx)
        a = graph.node_of(ctx.resolver, lookup_a.target)
        b = graph.node_of(ctx.resolver, lookup_b.target)
        if lookup_a.target == lookup_b.target or (a is not None and a == b):
            return GraphResult("same_symbol", "paths", "Invalid query: source and target are the same symbol.",
                               inputs=tuple(x for x in (a,) if x))
        starts_a = start_nodes(ctx, graph, lookup_a.target)
        starts_b = start_nodes(ctx, graph, lookup_b.target)
        follow = traverse.Follow(include_name_matches=bool(include_name_matches))
        forward, cut_a = traverse.paths_between(graph.graph, starts_a, starts_b, follow)
        backward, cut_b = traverse.paths_between(graph.graph, starts_b, starts_a, follow)
        paths = sorted(forward + backward, key=len)[:traverse.MAX_PATHS]
        inputs = tuple(x for x in (a, b) if x)
        if not paths:
            message = "No path found."
            if not include_name_matches:
                # say when guesses by name alone would connect them (what the user may want to see)
                loose = traverse.Follow(include_name_matches=True)
                guessed = traverse.paths_between(graph.graph, starts_a, starts_b, loose)[0] \
                    or traverse.paths_between(graph.graph, starts_b, starts_a, loose)[0]
                if guessed:
                    shortest = min(len(p) for p in guessed)
                    message = (f"No path found through resolved edges. Counting calls matched by name only "
                               f"(include_name_matches; CLI --include-name-matches), a path of {shortest} "
                               f"edge{'s' if shortest != 1 else ''} connects them.")
            return GraphResult("no_path", "paths", message, inputs=inputs,
                               include_name_matches=bool(include_name_matches))
        ids: list[str] = []
        edges: list[tuple] = []
        for path in paths:
            for edge in path:
                edges.append(edge)
                for n in edge[:2]:
                    if n not in ids:
                        ids.append(n)
        node_paths = tuple(tuple([p[0][0]] + [e[1] for e in p]) for p in paths)
        result = _result(ctx, graph, "paths", list(inputs), ids, edges, cut_a or cut_b, include_name_matches)
        return GraphResult(result.status, "paths", inputs=result.inputs, nodes=result.nodes, edges=result.edges,
                           paths=node_paths, snippets=result.snippets, truncated=result.truncated,
                           include_name_matches=result.include_name_matches)


def call_graph(ctx: QueryContext, include_name_matches: bool = False) -> GraphResult:
    """The whole graph: every node and every edge (name-only edges only when asked)."""
    include_name_matches = validate_flag(include_name_matches, "include_name_matches")
    with ctx.lock:
        ctx.fresh()
        graph = _graph(ctx)
        follow = traverse.Follow(frozenset({"CALLS", "REFERENCES", "EXTENDS", "IMPLEMENTS", "IMPORTS"}),
                                 bool(include_name_matches))
        edges = [(s, t, k) for s, t, k, d in graph.graph.edges(keys=True, data=True) if follow.accepts(d)]
        ids = sorted(graph.graph.nodes)
        return GraphResult("found", "graph", nodes=tuple(graph_nodes(ctx, graph, ids)),
                           edges=tuple(_edges(graph, edges)), include_name_matches=bool(include_name_matches))


def _pair(value, field: str) -> tuple[str, str]:
    from ..errors import InvalidRequest

    if isinstance(value, dict):
        value = (value.get("file_path") or value.get("file"), value.get("symbol"))
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InvalidRequest(f"{field} must be a (file, symbol) pair", field=field)
    file, symbol = value
    if file is None or (isinstance(file, str) and not file.strip()):
        raise InvalidRequest(f"{field} file is required", field=f"{field}_file")
    try:
        symbol = validate_symbol(symbol, field=f"{field}_symbol")
    except InvalidRequest as error:  # "from symbol is required", "to symbol is too long"
        raise InvalidRequest(str(error).replace(f"{field}_symbol", f"{field} symbol", 1), field=error.field) from None
    return file, symbol


def graph_nodes(ctx: QueryContext, graph: CodeGraph, ids) -> list[GraphNode]:
    nodes = []
    for node_id in ids:
        a = graph.graph.nodes.get(node_id) or {}
        if "kind" not in a:
            continue
        cell, line = ctx.cell_position(a["file"], a["line"])
        _, end_line = ctx.cell_position(a["file"], a["end_line"])
        _, offset = ctx.cell_position(a["file"], a["offset"])
        nodes.append(GraphNode(node_id, a["name"], a["qualified_name"], a["kind"], a["file"], line, end_line,
                               offset, a["limit"], tuple(a.get("external_calls", ())), cell))
    return nodes


def _edges(graph: CodeGraph, edges) -> list[GraphEdge]:
    out, seen = [], set()
    for source, target, key in edges:
        if (source, target, key) in seen:
            continue
        seen.add((source, target, key))
        d = graph.graph.edges[source, target, key]
        out.append(GraphEdge(source, target, d["kind"], d["file"], d["line"], d["resolution"]))
    return out


def snippets(ctx: QueryContext, nodes: list[GraphNode]) -> dict:
    """Numbered source lines of each node (the seed format shows them for small graphs)."""
    found = {}
    for node in nodes:
        if node.kind == "module":
            continue
        a_offset = node.offset
        lines = ctx.source_lines(node.file)
        if node.cell is not None:  # notebook: number lines within the cell, read them from the virtual source
            continue
        last = min(a_offset + node.limit - 1, a_offset + _SNIPPET_LINES - 1, len(lines))
        found[node.id] = [(n, lines[n - 1]) for n in range(a_offset, last + 1)]
        if a_offset + node.limit - 1 > last:
            found[node.id].append((None, f"… ({a_offset + node.limit - 1 - last} more lines)"))
    return found


def _result(ctx, graph, query, inputs, ids, edges, truncated, include_name_matches) -> GraphResult:
    nodes = graph_nodes(ctx, graph, ids)
    discovered = [n for n in nodes if n.id not in set(inputs)]
    shown = snippets(ctx, discovered) if len(discovered) <= _SNIPPET_NODES else {}
    return GraphResult("found", query, inputs=tuple(i for i in inputs if i in graph.graph), nodes=tuple(nodes),
                       edges=tuple(_edges(graph, edges)), snippets=shown, truncated=truncated,
                       include_name_matches=bool(include_name_matches))
