"""The code graph's store: the part of networkx's ``MultiDiGraph`` interface the engine uses,
with each edge kept as one tuple instead of a dictionary of attributes (issue 20: networkx spent
~3 KB an edge; 245k edges of the standard library took 750 MB).

Semantics follow networkx where the engine relies on them: nodes are created by ``add_edge`` when
missing, a node's attributes are a dict that can be changed in place, removing a node removes its
edges, and ``out_edges``/``in_edges`` list neighbours in the order their first edge was added,
each neighbour's edges in the order they were added — so walks, and the answers built from them,
come out in the same order as before. An edge's key is an integer the graph gives (``add_edge``
returns it), never given again (a removed edge leaves an empty slot of 8 bytes), so a key held
after its edge went (a node removal takes its edges) can never name another edge.

networkx still serves where it earns its place: GraphML export of a result (cli.py).
"""

from __future__ import annotations

__all__ = ["CompactGraph"]

# An edge: (source, target, kind, file, line, resolution). Its data, for the callers that read
# it as networkx's attribute dict, is built when asked for.


def _data(edge: tuple) -> dict:
    return {"kind": edge[2], "file": edge[3], "line": edge[4], "resolution": edge[5]}


class _Nodes:
    """``graph.nodes``: ``[id]`` and ``.get(id)`` give the attribute dict, iteration the ids,
    ``graph.nodes(data=True)`` (id, attributes) pairs."""

    __slots__ = ("_graph",)

    def __init__(self, graph: "CompactGraph"):
        self._graph = graph

    def __getitem__(self, node: str) -> dict:
        return self._graph._attrs[self._graph._index[node]]

    def get(self, node: str, default=None):
        index = self._graph._index.get(node)
        return default if index is None else self._graph._attrs[index]

    def __iter__(self):
        return iter(list(self._graph._index))

    def __len__(self) -> int:
        return len(self._graph._index)

    def __contains__(self, node) -> bool:
        return node in self._graph._index

    def __call__(self, data: bool = False):
        graph = self._graph
        if not data:
            return list(graph._index)
        return [(node, graph._attrs[i]) for node, i in graph._index.items()]


class _Edges:
    """``graph.edges[source, target, key]`` (the data dict) and ``graph.edges(keys=, data=)``."""

    __slots__ = ("_graph",)

    def __init__(self, graph: "CompactGraph"):
        self._graph = graph

    def __getitem__(self, triple) -> dict:
        source, target, key = triple
        edge = self._graph._edge(source, target, key)
        if edge is None:
            raise KeyError(triple)
        return _data(edge)

    def __call__(self, keys: bool = False, data: bool = False):
        graph = self._graph
        for node, i in list(graph._index.items()):
            for by_target in graph._succ[i].values():
                for key in by_target:
                    edge = graph._edges[key]
                    yield _row(edge, key, keys, data)


def _row(edge: tuple, key: int, keys: bool, data: bool) -> tuple:
    row = (edge[0], edge[1])
    if keys:
        row += (key,)
    if data:
        row += (_data(edge),)
    return row


class CompactGraph:
    def __init__(self):
        self._index: dict[str, int] = {}           # node id -> slot
        self._ids: list[str | None] = []           # slot -> node id
        self._attrs: list[dict | None] = []
        self._succ: list[dict[int, list[int]] | None] = []   # slot -> {target slot: [edge keys]}
        self._pred: list[dict[int, list[int]] | None] = []
        self._free_nodes: list[int] = []
        self._edges: list[tuple | None] = []       # key -> edge tuple (None: removed)
        self._removed = 0
        self.nodes = _Nodes(self)
        self.edges = _Edges(self)

    # ---- nodes ---------------------------------------------------------------------------------
    def __contains__(self, node) -> bool:
        return node in self._index

    def __len__(self) -> int:
        return len(self._index)

    def has_node(self, node: str) -> bool:
        return node in self._index

    def _slot(self, node: str) -> int:
        slot = self._index.get(node)
        if slot is None:
            if self._free_nodes:
                slot = self._free_nodes.pop()
                self._ids[slot], self._attrs[slot], self._succ[slot], self._pred[slot] = node, {}, {}, {}
            else:
                slot = len(self._ids)
                self._ids.append(node)
                self._attrs.append({})
                self._succ.append({})
                self._pred.append({})
            self._index[node] = slot
        return slot

    def add_node(self, node: str, **attrs) -> None:
        self._attrs[self._slot(node)].update(attrs)

    def remove_nodes_from(self, nodes) -> None:
        for node in list(nodes):
            slot = self._index.get(node)
            if slot is None:
                continue
            for keys in list(self._succ[slot].values()) + list(self._pred[slot].values()):
                for key in list(keys):
                    self._remove(key)
            del self._index[node]
            self._ids[slot] = self._attrs[slot] = self._succ[slot] = self._pred[slot] = None
            self._free_nodes.append(slot)

    # ---- edges -----------------------------------------------------------------------------------
    def add_edge(self, source: str, target: str, kind: str, file: str, line: int, resolution: str) -> int:
        s, t = self._slot(source), self._slot(target)
        key = len(self._edges)
        self._edges.append((source, target, kind, file, line, resolution))
        self._succ[s].setdefault(t, []).append(key)
        self._pred[t].setdefault(s, []).append(key)
        return key

    def add_edges(self, file: str, edges) -> list[int]:
        """``add_edge`` for each (source, target, kind, line, resolution) of one file: the keys.
        (A file's part at once: a restart loads 245k edges of the stdlib through here.)"""
        index, succ, pred, store, slot = self._index, self._succ, self._pred, self._edges, self._slot
        keys = []
        for source, target, kind, line, resolution in edges:
            s = index.get(source)
            if s is None:
                s = slot(source)
            t = index.get(target)
            if t is None:
                t = slot(target)
            key = len(store)
            store.append((source, target, kind, file, line, resolution))
            out = succ[s].get(t)
            if out is None:
                succ[s][t] = [key]
                pred[t][s] = [key]
            else:
                out.append(key)
                pred[t][s].append(key)
            keys.append(key)
        return keys

    def _edge(self, source: str, target: str, key) -> tuple | None:
        if not isinstance(key, int) or not 0 <= key < len(self._edges):
            return None
        edge = self._edges[key]
        return edge if edge is not None and edge[0] == source and edge[1] == target else None

    def has_edge(self, source: str, target: str, key) -> bool:
        return self._edge(source, target, key) is not None

    def remove_edge(self, source: str, target: str, key) -> None:
        if self._edge(source, target, key) is None:
            raise KeyError((source, target, key))
        self._remove(key)

    def _remove(self, key: int) -> None:
        source, target = self._edges[key][:2]
        s, t = self._index[source], self._index[target]
        for table, a, b in ((self._succ, s, t), (self._pred, t, s)):
            keys = table[a][b]
            keys.remove(key)
            if not keys:
                del table[a][b]
        self._edges[key] = None
        self._removed += 1

    def number_of_edges(self) -> int:
        return len(self._edges) - self._removed

    def out_edges(self, node: str, keys: bool = False, data: bool = False):
        slot = self._index.get(node)
        if slot is None:
            return
        for edge_keys in list(self._succ[slot].values()):
            for key in edge_keys:
                yield _row(self._edges[key], key, keys, data)

    def in_edges(self, node: str, keys: bool = False, data: bool = False):
        slot = self._index.get(node)
        if slot is None:
            return
        for edge_keys in list(self._pred[slot].values()):
            for key in edge_keys:
                yield _row(self._edges[key], key, keys, data)
