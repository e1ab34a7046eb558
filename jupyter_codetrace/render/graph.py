"""The "GPS for code" text of a graph result: ``## Graph`` then ``## Nodes``.

``## Graph`` puts a linear chain on one line (``a --CALLS--> b --CALLS--> c``) and starts a new
line at every node with several outgoing edges; names shared by different nodes get ``#1``,
``#2`` suffixes. ``## Nodes`` lists the nodes the query discovered (not its inputs) with
``file``, ``offset`` and ``limit`` for a file-read tool, and a numbered snippet for small graphs.
"""

from __future__ import annotations

from collections import defaultdict

__all__ = ["render", "labels"]

_EMPTY = {"dependencies": "No dependencies found.", "dependents": "No dependents found.",
          "paths": "No path found.", "graph": "The graph is empty."}


def labels(result) -> dict[str, str]:
    """Node id -> display name; colliding names get ``#N`` in order of appearance."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for node in result.nodes:
        name = _display_name(node)
        by_name[name].append(node.id)
    shown = {}
    for name, ids in by_name.items():
        for i, node_id in enumerate(ids, 1):
            shown[node_id] = name if len(ids) == 1 else f"{name}#{i}"
    return shown


def _display_name(node) -> str:
    if node.kind == "module":
        return node.file  # the module's own code: its file says it best
    nesting = node.id.split("#", 1)[1]
    return nesting


def render(result) -> str:
    if result.status != "found":
        return f"{result.message}\n" if result.status in ("no_path", "same_symbol") else \
            f"{result.status}: {result.message}\n"
    if not result.edges:
        return _EMPTY.get(result.query, "Nothing found.") + "\n"
    names = labels(result)
    lines = ["## Graph", ""]
    lines += _graph_lines(result, names)
    if result.truncated:
        lines += ["", "(truncated: the walk stopped at its limit; narrow the query to see the rest)"]
    inputs = set(result.inputs)
    discovered = [n for n in result.nodes if n.id not in inputs]
    if discovered:
        lines += ["", "## Nodes"]
        for node in discovered:
            lines += ["", f"{names.get(node.id, node.name)}:", f"  file: {node.file}"]
            if node.cell is not None:
                lines.append(f"  cell: {node.cell}")
            lines.append(f"  offset: {node.offset}, limit: {node.limit}")
            snippet = result.snippets.get(node.id)
            if snippet:
                lines.append("  snippet:")
                for number, text in snippet:
                    lines.append(f"    {number}: {text}" if number is not None else f"    {text}")
    return "\n".join(lines) + "\n"


def _graph_lines(result, names: dict[str, str]) -> list[str]:
    order = {n.id: i for i, n in enumerate(result.nodes)}
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    incoming: dict[str, int] = defaultdict(int)
    for edge in result.edges:
        step = (edge.target, edge.kind)
        if step not in out[edge.source]:
            out[edge.source].append(step)
            incoming[edge.target] += 1
    for steps in out.values():
        steps.sort(key=lambda s: (order.get(s[0], len(order)), s[1]))
    printed: set[tuple[str, str, str]] = set()

    def remaining(node: str) -> list[tuple[str, str]]:
        return [s for s in out.get(node, ()) if (node,) + s not in printed]

    lines: list[str] = []
    starts = [n for n in result.inputs if n in out] if result.query == "dependencies" else []
    starts += sorted((n for n in out if incoming[n] == 0), key=lambda n: order.get(n, len(order)))
    starts += sorted(out, key=lambda n: order.get(n, len(order)))
    queue = list(dict.fromkeys(starts))
    while queue:
        node = queue.pop(0)
        for target, kind in remaining(node):
            if (node, target, kind) in printed:
                continue
            printed.add((node, target, kind))
            text = [names.get(node, node), f"--{kind}-->", names.get(target, target)]
            on_line = {node, target}
            current = target
            while True:
                nxt = remaining(current)
                if len(nxt) != 1 or nxt[0][0] in on_line:
                    break
                step_target, step_kind = nxt[0]
                printed.add((current, step_target, step_kind))
                text += [f"--{step_kind}-->", names.get(step_target, step_target)]
                on_line.add(step_target)
                current = step_target
            lines.append(" ".join(text))
            if remaining(current):
                queue.insert(0, current)
    return lines
