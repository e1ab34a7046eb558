"""Bounded, cycle-safe walks over the code graph: closures, paths between nodes, call trees.

Every walk takes an edge filter (``Follow``) and a limit, and says when it hit the limit.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from ..dataclass_code import dataclass

if TYPE_CHECKING:
    from .compact import CompactGraph

__all__ = ["Follow", "closure", "paths_between", "call_tree", "MAX_CLOSURE_NODES", "MAX_PATHS", "MAX_PATH_DEPTH",
           "MAX_TREE_NODES", "MAX_TREE_DEPTH"]

# A closure past a few hundred nodes is no longer readable as text or a diagram; the count of
# what was left out is reported instead (measured: the largest closure in the fixtures is 31).
MAX_CLOSURE_NODES = 400
MAX_PATHS = 10
MAX_PATH_DEPTH = 12
_MAX_PATH_EXPANSIONS = 50_000   # partial paths explored before giving up (dense graphs)
MAX_TREE_NODES = 2_000
# Levels of a call tree. Deeper trees do not fit the text budget anyway; the bound keeps every
# consumer that recurses over the tree (renderers, JSON encoders) far from the recursion limit.
MAX_TREE_DEPTH = 64
_SLACK = 3   # alternatives up to 3 edges longer than the shortest path


@dataclass(frozen=True)
class Follow:
    """Which edges a walk follows."""

    kinds: frozenset[str] = frozenset({"CALLS", "REFERENCES", "EXTENDS", "IMPLEMENTS"})
    include_name_matches: bool = False

    def accepts(self, data: dict) -> bool:
        return data.get("kind") in self.kinds and (self.include_name_matches or data.get("resolution") != "name-only")


def _out(graph: CompactGraph, node: str, follow: Follow):
    for _, target, key, data in graph.out_edges(node, keys=True, data=True):
        if follow.accepts(data):
            yield target, key, data


def _in(graph: CompactGraph, node: str, follow: Follow):
    for source, _, key, data in graph.in_edges(node, keys=True, data=True):
        if follow.accepts(data):
            yield source, key, data


def closure(graph: CompactGraph, starts: list[str], follow: Follow, forward: bool = True,
            limit: int = MAX_CLOSURE_NODES) -> tuple[list[str], list[tuple[str, str, str]], bool]:
    """Nodes reachable from ``starts`` (forward) or reaching them (reverse), breadth-first.

    Returns (nodes in discovery order, edges as (source, target, key) in the real direction,
    truncated)."""
    seen = set(starts)
    order: list[str] = []
    edges: list[tuple[str, str, str]] = []
    queue = deque(s for s in starts if s in graph)
    truncated = False
    step = _out if forward else _in
    while queue:
        node = queue.popleft()
        for other, key, _ in step(graph, node, follow):
            edge = (node, other, key) if forward else (other, node, key)
            if other not in seen:
                if len(order) >= limit:
                    truncated = True
                    continue
                seen.add(other)
                order.append(other)
                queue.append(other)
            edges.append(edge)
    return order, edges, truncated


def _distances(graph: CompactGraph, targets: set[str], follow: Follow, limit: int) -> dict[str, int]:
    """Edges needed to reach any of ``targets`` from each node (walking edges backwards)."""
    dist = {t: 0 for t in targets if t in graph}
    queue = deque(dist)
    while queue:
        node = queue.popleft()
        if dist[node] >= limit:
            continue
        for source, _, _ in _in(graph, node, follow):
            if source not in dist:
                dist[source] = dist[node] + 1
                queue.append(source)
    return dist


def _distances_within_reach(graph: CompactGraph, sources: list[str], targets: set[str], follow: Follow,
                            depth: int, limit: int = 5_000) -> dict[str, int] | None:
    """Distances to the targets, computed only over what the sources reach within ``depth``
    edges (a popular target such as ``assertEqual`` has thousands of callers; its callers'
    tests reach few functions). None when the sources reach more than ``limit`` nodes."""
    reach = {s: 0 for s in sources}
    successors: dict[str, set[str]] = {}
    queue = deque(sources)
    while queue:
        node = queue.popleft()
        if reach[node] >= depth:
            continue
        nexts = successors[node] = {other for other, _, _ in _out(graph, node, follow)}
        for other in nexts:
            if other not in reach:
                reach[other] = reach[node] + 1
                if len(reach) > limit:
                    return None
                queue.append(other)
    predecessors: dict[str, list[str]] = {}
    for node, nexts in successors.items():
        for other in nexts:
            predecessors.setdefault(other, []).append(node)
    dist = {t: 0 for t in targets if t in reach}
    queue = deque(dist)
    while queue:
        node = queue.popleft()
        for previous in predecessors.get(node, ()):
            if previous not in dist:
                dist[previous] = dist[node] + 1
                queue.append(previous)
    return dist


def _connected(graph: CompactGraph, sources: list[str], targets: set[str], follow: Follow,
               max_depth: int) -> int | None:
    """The length of the shortest path from any source to any target, if one exists within
    ``max_depth`` edges. Bidirectional breadth-first search, always growing the smaller frontier,
    so an unconnected pair stops as soon as one side runs out."""
    forward, backward = set(sources), {t for t in targets if t in graph}
    if not forward or not backward:
        return None
    if forward & backward:
        return 0
    frontier_f, frontier_b = set(forward), set(backward)
    depth = 0
    while frontier_f and frontier_b and depth < max_depth:
        depth += 1
        if len(frontier_f) <= len(frontier_b):
            frontier_f = {t for n in frontier_f for t, _, _ in _out(graph, n, follow)} - forward
            if frontier_f & backward:
                return depth
            forward |= frontier_f
        else:
            frontier_b = {s for n in frontier_b for s, _, _ in _in(graph, n, follow)} - backward
            if frontier_b & forward:
                return depth
            backward |= frontier_b
    return None


def paths_between(graph: CompactGraph, sources: list[str], targets: list[str], follow: Follow,
                  max_paths: int = MAX_PATHS, max_depth: int = MAX_PATH_DEPTH) -> tuple[list[list[tuple]], bool]:
    """Simple paths from any source to any target, shortest first: each a list of
    (source, target, key) edges. Breadth-first over partial paths, pruned by the distance to the
    targets so only paths that can still arrive within ``max_depth`` edges are grown."""
    target_set = set(targets)
    shortest = _connected(graph, [s for s in sources if s in graph], target_set, follow, max_depth)
    if shortest is None:
        return [], False  # most pairs are unconnected: settle that without walking a whole closure
    # Paths a few edges longer than the shortest are the useful alternatives; walking the whole
    # depth-12 closure of a popular function to find the tenth-longest was most of the time.
    max_depth = min(max_depth, shortest + _SLACK)
    dist = _distances_within_reach(graph, [s for s in sources if s in graph], target_set, follow, max_depth)
    if dist is None:  # a source that reaches too much: measure from the targets' side instead
        dist = _distances(graph, target_set, follow, max_depth)
    found: list[list[tuple]] = []
    queue = deque(([s], []) for s in sources if s in dist)
    expansions = 0
    truncated = False
    while queue and len(found) < max_paths:
        nodes, edges = queue.popleft()
        last = nodes[-1]
        if last in target_set and edges:
            found.append(edges)
            continue
        expansions += 1
        if expansions > _MAX_PATH_EXPANSIONS:
            truncated = True
            break
        used: set[str] = set()
        for other, key, _ in _out(graph, last, follow):
            if other in used or other in nodes or other not in dist:
                continue
            if len(edges) + 1 + dist[other] > max_depth:
                continue
            used.add(other)  # one edge per neighbour: parallel edges are the same path
            queue.append((nodes + [other], edges + [(last, other, key)]))
    return found, truncated or bool(queue) and len(found) >= max_paths


def call_tree(graph: CompactGraph, start: str, follow: Follow, forward: bool,
              limit: int = MAX_TREE_NODES, max_depth: int = MAX_TREE_DEPTH) -> tuple[list[dict], bool]:
    """The callers (``forward=False``) or callees of ``start`` as a nested tree, at most
    ``max_depth`` levels deep.

    A node on the current path is shown once more, marked ``cycle``; a node already expanded
    elsewhere in the tree is shown without children, marked ``seen``; a node at the depth bound
    is shown without children, marked ``deeper``, and the tree is reported truncated. Children
    are sorted by name so the tree reads the same on every run.

    Depth-first with an explicit stack (a generated chain of thousands of calls must not
    exhaust Python's recursion limit), in the same order a recursive walk would take; the depth
    bound keeps what the renderers and JSON encoders recurse over shallow too."""
    expanded: set[str] = {start}
    count = 0
    truncated = False
    step = _out if forward else _in

    def others_of(node: str) -> list[str]:
        return sorted({other for other, _, _ in step(graph, node, follow)},
                      key=lambda n: (graph.nodes[n].get("name", n), n))

    root: list[dict] = []
    on_path: set[str] = {start}
    # frames: (the list receiving entries, iterator over the node's neighbours, the node)
    stack = [(root, iter(others_of(start)), start)]
    while stack:
        result, others, node = stack[-1]
        other = next(others, None)
        if other is None or count >= limit:
            if other is not None:
                truncated = True
                stack.clear()
                break
            stack.pop()
            on_path.discard(node)
            continue
        count += 1
        entry = {"id": other}
        result.append(entry)
        if other in on_path:
            entry["cycle"] = True
        elif other in expanded:
            entry["seen"] = True
        elif len(stack) >= max_depth:
            entry["deeper"] = True
            truncated = True
        else:
            expanded.add(other)
            entry["children"] = []
            on_path.add(other)
            stack.append((entry["children"], iter(others_of(other)), other))
    return root, truncated
