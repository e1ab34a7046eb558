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

A graph can be written whole (``snapshot``) and read back (``from_snapshot``) as a few flat integer
arrays: reading builds no per-edge or per-node Python object. A node's adjacency, an edge's tuple
and a node's attribute dict are made from those arrays the first time they are asked for, so a
new process answers its first question after reading ~10 MB instead of rebuilding 250k edges
(issue 20: restart → first graph answer).

The snapshots of graphs built from runs of a project's files, one run after the other, merge into
the snapshot of the whole (``merge_snapshots``): children sharing a first build each write one,
and the last merges their arrays instead of adding every file's part again (issue 20).

networkx still serves where it earns its place: GraphML export of a result (cli.py).
"""

from __future__ import annotations

import sys
from array import array
from collections import deque
from itertools import accumulate, chain, compress
from operator import sub

from ..index.encoding import decode, encode

__all__ = ["CompactGraph", "merge_snapshots"]

_LAZY = 0   # an edge of the snapshot read at load, not yet made into its tuple
_FIELDS = 6  # an edge in a snapshot's flat array: source slot, target slot, kind, file, line, resolution

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
        return self._graph._attr(self._graph._index[node])

    def get(self, node: str, default=None):
        index = self._graph._index.get(node)
        return default if index is None else self._graph._attr(index)

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
        return [(node, graph._attr(i)) for node, i in graph._index.items()]


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
            for by_target in graph._out(i).values():
                for key in by_target:
                    yield _row(graph._edge_at(key), key, keys, data)


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
        self._attrs: list = []                     # slot -> attribute dict (None: a snapshot node not read yet)
        self._succ: list[dict[int, list[int]] | None] = []   # slot -> {target slot: [edge keys]} (None: in the base)
        self._pred: list[dict[int, list[int]] | None] = []
        self._free_nodes: list[int] = []
        self._edges: list = []                     # key -> edge tuple (None: removed; _LAZY: in the base)
        self._removed = 0
        self._base: _Base | None = None            # the arrays of the snapshot this graph was read from

    # Views made when asked for, not kept: a graph holding its views would be a reference cycle,
    # freed only by a collection (none runs while a build pauses the collector, and the one
    # after freezes what is alive), not as soon as the project lets go of it.
    @property
    def nodes(self) -> _Nodes:
        return _Nodes(self)

    @property
    def edges(self) -> _Edges:
        return _Edges(self)

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
        self._attr(self._slot(node)).update(attrs)

    def _attr(self, slot: int) -> dict:
        attrs = self._attrs[slot]
        if attrs is None:   # a snapshot's node, read for the first time
            attrs = self._attrs[slot] = self._base.attributes(slot)
        return attrs

    def stale_nodes(self) -> list[str]:
        """Nodes marked stale or that no file defines (no ``kind``), without reading the
        attributes of every snapshot node (a snapshot holds none of those)."""
        unfit = self._base.unfit_shapes() if self._base is not None else set()
        out = []
        for node, slot in self._index.items():
            attrs = self._attrs[slot]
            if attrs is None:
                if self._base.node_shapes[slot] not in unfit:
                    continue
                attrs = self._attr(slot)
            if attrs.get("stale") or "kind" not in attrs:
                out.append(node)
        return out

    def remove_nodes_from(self, nodes) -> None:
        for node in list(nodes):
            slot = self._index.get(node)
            if slot is None:
                continue
            for keys in list(self._out(slot).values()) + list(self._in(slot).values()):
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
        self._out(s).setdefault(t, []).append(key)
        self._in(t).setdefault(s, []).append(key)
        return key

    def add_edges(self, file: str, edges) -> list[int]:
        """``add_edge`` for each (source, target, kind, line, resolution) of one file: the keys.
        (A file's part at once: a restart loads 245k edges of the stdlib through here.)"""
        index, store, slot, out_of, in_of = self._index, self._edges, self._slot, self._out, self._in
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
            succ = out_of(s)
            out = succ.get(t)
            if out is None:
                succ[t] = [key]
                in_of(t)[s] = [key]
            else:
                out.append(key)
                in_of(t)[s].append(key)
            keys.append(key)
        return keys

    def _edge(self, source: str, target: str, key) -> tuple | None:
        if not isinstance(key, int) or not 0 <= key < len(self._edges):
            return None
        edge = self._edge_at(key)
        return edge if edge is not None and edge[0] == source and edge[1] == target else None

    def _edge_at(self, key: int) -> tuple | None:
        edge = self._edges[key]
        if edge is _LAZY:
            base = self._base
            i = key * _FIELDS
            s, t, kind, file, line, resolution = base.edges[i:i + _FIELDS]
            ids, strings = base.ids, base.strings
            edge = self._edges[key] = (ids[s], ids[t], strings[kind], strings[file], line, strings[resolution])
        return edge

    def edge_of_key(self, key: int) -> tuple | None:
        """(source, target, kind, file, line, resolution) of edge ``key``; None once removed."""
        return self._edge_at(key) if isinstance(key, int) and 0 <= key < len(self._edges) else None

    def discard_edge(self, key: int) -> None:
        """Remove edge ``key`` if it is still there (keys are never given twice)."""
        if self.edge_of_key(key) is not None:
            self._remove(key)

    def snapshot_ids(self) -> tuple[str, ...]:
        """Node ids by their slot in the snapshot this graph was read from."""
        return self._base.ids if self._base is not None else ()

    def has_edge(self, source: str, target: str, key) -> bool:
        return self._edge(source, target, key) is not None

    def remove_edge(self, source: str, target: str, key) -> None:
        if self._edge(source, target, key) is None:
            raise KeyError((source, target, key))
        self._remove(key)

    def _remove(self, key: int) -> None:
        source, target = self._edge_at(key)[:2]
        s, t = self._index[source], self._index[target]
        for table, a, b in ((self._out(s), s, t), (self._in(t), t, s)):
            keys = table[b]
            keys.remove(key)
            if not keys:
                del table[b]
        self._edges[key] = None
        self._removed += 1

    def number_of_edges(self) -> int:
        return len(self._edges) - self._removed

    def out_edges(self, node: str, keys: bool = False, data: bool = False):
        slot = self._index.get(node)
        if slot is None:
            return
        for edge_keys in list(self._out(slot).values()):
            for key in edge_keys:
                yield _row(self._edge_at(key), key, keys, data)

    def in_edges(self, node: str, keys: bool = False, data: bool = False):
        slot = self._index.get(node)
        if slot is None:
            return
        for edge_keys in list(self._in(slot).values()):
            for key in edge_keys:
                yield _row(self._edge_at(key), key, keys, data)

    # ---- adjacency of the snapshot, made per node when first asked for ----------------------------
    def _out(self, slot: int) -> dict[int, list[int]]:
        table = self._succ[slot]
        if table is None:
            table = self._succ[slot] = self._base.adjacency(slot, self._base.out_start, self._base.out_keys, 1)
        return table

    def _in(self, slot: int) -> dict[int, list[int]]:
        table = self._pred[slot]
        if table is None:
            table = self._pred[slot] = self._base.adjacency(slot, self._base.in_start, self._base.in_keys, 0)
        return table

    # ---- snapshot ----------------------------------------------------------------------------------
    def snapshot(self, order: list[int]) -> tuple[tuple, array]:
        """The whole graph as primitives and flat arrays (for the data-only encoding), and the map
        from each edge key to its key in the snapshot (an array indexed by key; -1: not in it).
        ``order`` lists the edge keys in the order the snapshot numbers them (removed ones
        included: they stay removed slots, so a key list kept beside the graph still lines up);
        live edges missing from it follow.

        Its peak is the process's when a build writes it (everything else is alive then), so the
        maps are integer arrays, not dicts (246k edges of the stdlib: 20 MB as a dict), and edges
        and attributes still in the base are copied from its arrays, never made into objects."""
        new_slot = array("i", [-1]) * len(self._ids)
        slots = []
        for slot, node in enumerate(self._ids):
            if node is not None:
                new_slot[slot] = len(slots)
                slots.append(slot)
        new_key = array("i", [-1]) * len(self._edges)
        for i, key in enumerate(order):
            new_key[key] = i
        order = list(order)
        for key, edge in enumerate(self._edges):
            if edge is not None and new_key[key] < 0:
                new_key[key] = len(order)
                order.append(key)
        strings: dict[str, int] = {}
        base = self._base
        from_base: dict[int, int] = {}   # a string's code in the base -> its code here
        flat = array("i")
        holes = []
        for key in order:
            edge = self._edges[key]
            if edge is None:
                holes.append(new_key[key])
                flat.extend((-1, -1, 0, 0, 0, 0))
            elif edge is _LAZY:
                i = key * _FIELDS
                s, t, kind, file, line, resolution = base.edges[i:i + _FIELDS]
                codes = []
                for code in (kind, file, resolution):
                    mine = from_base.get(code)
                    if mine is None:
                        mine = from_base[code] = strings.setdefault(base.strings[code], len(strings))
                    codes.append(mine)
                # a graph read from a snapshot keeps the base's slots (new nodes come after them)
                flat.extend((new_slot[s], new_slot[t], codes[0], codes[1], line, codes[2]))
            else:
                source, target, kind, file, line, resolution = edge
                flat.extend((new_slot[self._index[source]], new_slot[self._index[target]],
                             strings.setdefault(kind, len(strings)), strings.setdefault(file, len(strings)), line,
                             strings.setdefault(resolution, len(strings))))
        edges = flat.tobytes()
        del flat
        # a node not read since the base was: its attributes for the columns, not kept after
        attributes = _columns([self._attrs[slot] if self._attrs[slot] is not None else base.attributes(slot)
                               for slot in slots])
        csr = []
        for adjacency in (self._succ, self._pred):
            start, keys = array("i", [0]), array("i")
            for slot in slots:
                table = adjacency[slot]
                if table is None:   # still in the base: its rows, renumbered
                    row_start, row_keys = (base.out_start, base.out_keys) if adjacency is self._succ \
                        else (base.in_start, base.in_keys)
                    keys.extend(new_key[k] for k in row_keys[row_start[slot]:row_start[slot + 1]])
                else:
                    for by_neighbour in table.values():
                        keys.extend(new_key[k] for k in by_neighbour)
                start.append(len(keys))
            csr += [start.tobytes(), keys.tobytes()]
        data = (sys.byteorder, tuple(self._ids[slot] for slot in slots), attributes,
                tuple(strings), edges, tuple(holes), *csr)
        return data, new_key

    @classmethod
    def from_snapshot(cls, data) -> "CompactGraph":
        """The graph ``snapshot`` wrote. Raises ``ValueError`` for anything else (a damaged row
        fails its checksum before this; what a foreign one could still hold is wrong facts or an
        ``IndexError`` in a query, never code run)."""
        byteorder, ids, attributes, strings, flat, holes, out_start, out_keys, in_start, in_keys = data
        if byteorder != sys.byteorder:
            raise ValueError("a snapshot of another machine")
        base = _Base(ids, attributes, strings, flat, out_start, out_keys, in_start, in_keys)
        graph = cls()
        graph._base = base
        graph._ids = list(ids)
        graph._index = dict(zip(ids, range(len(ids))))
        if len(graph._index) != len(ids):
            raise ValueError("a node twice in a snapshot")
        graph._attrs = [None] * len(ids)
        graph._succ = [None] * len(ids)
        graph._pred = [None] * len(ids)
        graph._edges = [_LAZY] * (len(base.edges) // _FIELDS)
        for key in holes:
            if base.edges[key * _FIELDS] >= 0:
                raise ValueError("a snapshot hole that holds an edge")
            graph._edges[key] = None
        graph._removed = len(holes)
        return graph


def merge_snapshots(snapshots: list) -> tuple | None:
    """The snapshot of one graph that added what the graphs of ``snapshots`` (``snapshot``'s
    data) added, one graph after the other — children sharing a build each make one of their
    run of files (graph/build.py ``_built_in_shares``): its nodes in the order they first came,
    each snapshot's edges after the edges of those before it, a node's attributes those of the
    last snapshot that gave it some (a node that only an edge reaches has none). That holds when
    each node's out-edges are all in one snapshot (a file's edges start at its own nodes): a
    node's neighbours, in the order of their first edge, are then those of each snapshot one
    after the other. None when they are not, for a snapshot with removed edges, and when a key's
    values are of one type in one snapshot and of another in the next (as one column they would
    be of a third: ``_columns``). Made with C-level maps over the arrays, not node by node.

    Returns the data, and for each snapshot its slots' new slots and how many edges precede its own."""
    if not snapshots or any(data[0] != sys.byteorder or data[5] for data in snapshots):
        return None
    index: dict[str, int] = {}
    slot_maps = [[index.setdefault(node, len(index)) for node in data[1]] for data in snapshots]
    strings: dict[str, int] = {}
    flat, offsets = array("i"), []
    for data, slots in zip(snapshots, slot_maps):
        codes = [strings.setdefault(string, len(strings)) for string in data[3]]
        edges = _array("i", data[4])
        for field, new in ((0, slots), (1, slots), (2, codes), (3, codes), (5, codes)):
            edges[field::_FIELDS] = array("i", map(new.__getitem__, edges[field::_FIELDS]))
        offsets.append(len(flat) // _FIELDS)
        flat.extend(edges)
    csr = []
    for at in (6, 8):   # out-rows, then in-rows: (start, keys) at data[at], data[at + 1]
        rows: list = [()] * len(index)
        for data, slots, offset in zip(snapshots, slot_maps, offsets):
            start = _array("i", data[at])
            keys = array("i", map(offset.__add__, _array("i", data[at + 1])))
            # (the nodes with edges in this snapshot only: most have none in one of them)
            for slot, begin, end in compress(zip(slots, start, start[1:]), map(sub, start[1:], start)):
                if not rows[slot]:
                    rows[slot] = keys[begin:end]
                elif at == 8:
                    rows[slot] += keys[begin:end]
                else:
                    return None   # a node's out-edges in two snapshots
        keys = array("i", chain.from_iterable(rows))
        csr += [array("i", accumulate(map(len, rows), initial=0)).tobytes(), keys.tobytes()]
    attributes = _merged_columns([data[2] for data in snapshots], slot_maps, len(index))
    if attributes is None:
        return None
    data = (sys.byteorder, tuple(index), attributes, tuple(strings), flat.tobytes(), (), *csr)
    return data, slot_maps, offsets


def _merged_columns(snapshots: list, slot_maps: list, count: int) -> tuple | None:
    """``merge_snapshots``' attribute columns: each snapshot's columns (``_columns``) one after the
    other, their strings' codes renumbered into one table, then each node's value taken from where
    its attributes are."""
    # Each node's row in the snapshots' rows one after the other: the first it has (a node only
    # an edge reaches), then the last that gives it attributes (a shape with keys).
    where = array("i", [-1]) * count
    firsts = list(accumulate(map(len, slot_maps), initial=0))
    for slots, first in reversed(list(zip(slot_maps, firsts))):
        _put(where, slots, range(first, first + len(slots)))
    for (shapes, node_shapes, _keys, _values), slots, first in zip(snapshots, slot_maps, firsts):
        given = map(shapes.__getitem__, _array("i", node_shapes))   # (an empty shape: false)
        _put(where, *zip(*compress(zip(slots, range(first, first + len(slots))), given)) or ((), ()))
    all_shapes: dict[tuple, int] = {}
    rows = array("i")
    for shapes, node_shapes, _keys, _values in snapshots:
        codes = [all_shapes.setdefault(shape, len(all_shapes)) for shape in shapes]
        rows.extend(map(codes.__getitem__, _array("i", node_shapes)))
    node_shapes = array("i", map(rows.__getitem__, where))
    keys = list(dict.fromkeys(key for shape in all_shapes for key in shape))
    by_key = [dict(zip(keys_of, columns_of)) for _shapes, _rows, keys_of, columns_of in snapshots]
    columns = []
    for key in keys:
        found = [(columns_of.get(key), len(slots)) for columns_of, slots in zip(by_key, slot_maps)]
        kinds = {column[0] for column, _count in found if column is not None and not _no_value(column)}
        if len(kinds) > 1:
            return None
        kind = kinds.pop() if kinds else "s"
        # each snapshot's values one after the other (of a snapshot without any: what _columns
        # writes for None), then each node's taken from its row
        if kind == "s":
            table: dict[str, int] = {}
            values = array("i")
            for column, rows in found:
                if column is None or _no_value(column):
                    values.extend(array("i", [-1]) * rows)
                    continue
                _kind, joined, offsets, codes = column
                offsets = _array("q", offsets)
                # its strings' codes in the table of all (-1, no string, the map's last item: stays -1)
                new = [table.setdefault(joined[a:b], len(table)) for a, b in zip(offsets, offsets[1:])] + [-1]
                values.extend(map(new.__getitem__, _array("i", codes)))
            codes = array("i", map(values.__getitem__, where))
            columns.append(("s", "".join(table), _offsets(map(len, table)), codes.tobytes()))
        elif kind == "b":
            values = b"".join(column[1] if column is not None and column[0] == "b" else bytes([_NO_FLAG]) * rows
                              for column, rows in found)
            columns.append(("b", bytes(map(values.__getitem__, where))))
        elif kind == "i":
            values = array("q")
            for column, rows in found:
                values.extend(_array("q", column[1]) if column is not None and column[0] == "i"
                              else array("q", [0]) * rows)
            columns.append(("i", array("q", map(values.__getitem__, where)).tobytes()))
        else:
            values = []
            for column, rows in found:
                if column is None or column[0] != "v":
                    values += [b""] * rows
                    continue
                blob, offsets = column[1], _array("q", column[2])
                values += [blob[a:b] for a, b in zip(offsets, offsets[1:])]
            values = list(map(values.__getitem__, where))
            columns.append(("v", b"".join(values), _offsets(map(len, values))))
    return tuple(all_shapes), node_shapes.tobytes(), tuple(keys), tuple(columns)


def _put(target, places, values) -> None:
    """``target[place] = value`` for each pair, in C (as a loop, 10-20 ms of 70k nodes each time)."""
    deque(map(target.__setitem__, places, values), maxlen=0)


def _no_value(column: tuple) -> bool:
    """A column of strings with no string: every value None (it goes with a column of any type)."""
    return column[0] == "s" and len(column[2]) == array("q").itemsize


def _array(typecode: str, blob) -> array:
    if not isinstance(blob, bytes):
        raise ValueError("not a snapshot array")
    values = array(typecode)
    values.frombytes(blob)
    return values


def _columns(attrs: list[dict]) -> tuple:
    """Node attribute dicts as columns: each node's shape (its keys, in order), then one column
    per key — strings as codes into the column's table of distinct strings (one string, cut where
    an array of offsets says), integers as an array, anything else encoded node by node into one
    blob (with its offsets). A new process decodes a few large objects, not one per node and
    value (node names, qualified names and external calls were a third of a restart's decode);
    a value is made when a node's attributes are read."""
    shapes: dict[tuple, int] = {}
    node_shapes = array("i", (shapes.setdefault(tuple(a), len(shapes)) for a in attrs))
    keys = list(dict.fromkeys(k for shape in shapes for k in shape))
    columns = []
    for key in keys:
        values = [a.get(key) for a in attrs]
        types = set(map(type, values))   # (in C: a check per value in Python was half of this)
        types.discard(type(None))
        if types <= {str}:
            table: dict[str, int] = {}
            codes = array("i", [-1 if v is None else table.setdefault(v, len(table)) for v in values])
            columns.append(("s", "".join(table), _offsets(map(len, table)), codes.tobytes()))
        elif types == {bool}:   # (a flag of most nodes: `declaration`)
            columns.append(("b", bytes([_NO_FLAG if v is None else v for v in values])))
        elif types <= {int} and -2**62 < min(v for v in values if v is not None) \
                and max(v for v in values if v is not None) < 2**62:
            columns.append(("i", array("q", [0 if v is None else v for v in values]).tobytes()))
        else:
            blobs = [b"" if v is None else encode(tuple(v) if isinstance(v, list) else v, compress=False)
                     for v in values]
            columns.append(("v", b"".join(blobs), _offsets(map(len, blobs))))
    return tuple(shapes), node_shapes.tobytes(), tuple(keys), tuple(columns)


_NO_FLAG = 2   # a node without the flag, in a column of flags (``b``: 0 False, 1 True)


def _offsets(lengths) -> bytes:
    """Where each of a run of joined pieces starts, and where the last ends (an array's bytes)."""
    return array("q", accumulate(lengths, initial=0)).tobytes()


class _Base:
    """The arrays of a snapshot: edges six integers each, adjacency in compressed rows, node
    attributes in columns."""

    __slots__ = ("ids", "shapes", "node_shapes", "keys", "columns", "strings", "edges", "out_start",
                 "out_keys", "in_start", "in_keys")

    def __init__(self, ids, attributes, strings, flat, out_start, out_keys, in_start, in_keys):
        self.ids, self.strings = ids, strings
        shapes, node_shapes, keys, columns = attributes
        self.shapes, self.keys = shapes, keys
        self.node_shapes = _array("i", node_shapes)
        self.edges, self.out_start, self.out_keys, self.in_start, self.in_keys = (
            _array("i", b) for b in (flat, out_start, out_keys, in_start, in_keys))
        n = len(ids)
        if len(self.edges) % _FIELDS or len(self.out_start) != n + 1 or len(self.in_start) != n + 1 \
                or self.out_start[-1] != len(self.out_keys) or self.in_start[-1] != len(self.in_keys) \
                or len(self.node_shapes) != n or len(keys) != len(columns) \
                or any(not set(shape) <= set(keys) for shape in shapes):
            raise ValueError("inconsistent snapshot arrays")
        self.columns = {}
        for key, column in zip(keys, columns):
            if column[0] == "s" and len(column) == 4 and type(column[1]) is str:
                kind, joined, offsets, codes = column
                offsets, codes = _array("q", offsets), _array("i", codes)
                rows, pieces = len(codes), len(offsets) - 1
                if pieces < 0 or offsets[-1] != len(joined) or codes and not (-1 <= min(codes) and max(codes) < pieces):
                    raise ValueError("a snapshot column's strings out of range")
                column = (kind, joined, offsets, codes)
            elif column[0] == "b" and len(column) == 2 and type(column[1]) is bytes:
                rows = len(column[1])
                if column[1] and max(column[1]) > _NO_FLAG:
                    raise ValueError("a snapshot column's flags out of range")
            elif column[0] == "i" and len(column) == 2:
                column = ("i", _array("q", column[1]))
                rows = len(column[1])
            elif column[0] == "v" and len(column) == 3 and type(column[1]) is bytes:
                column = ("v", column[1], _array("q", column[2]))
                rows = len(column[2]) - 1
                if column[2][-1] != len(column[1]):
                    raise ValueError("a snapshot column's values out of range")
            else:
                raise ValueError("an unknown snapshot column")
            if rows != n:
                raise ValueError("a snapshot column of another length")
            self.columns[key] = column

    def attributes(self, slot: int) -> dict:
        attrs = {}
        for key in self.shapes[self.node_shapes[slot]]:
            column = self.columns[key]
            kind = column[0]
            if kind == "s":
                code = column[3][slot]
                offsets = column[2]
                value = column[1][offsets[code]:offsets[code + 1]] if code >= 0 else None
            elif kind == "i":
                value = column[1][slot]
            elif kind == "b":
                code = column[1][slot]
                value = None if code == _NO_FLAG else code == 1
            else:
                start, end = column[2][slot], column[2][slot + 1]
                value = decode(column[1][start:end], compressed=False) if end > start else None
                if type(value) is tuple:
                    value = list(value)
            attrs[key] = value
        return attrs

    def unfit_shapes(self) -> set[int]:
        return {i for i, shape in enumerate(self.shapes) if "stale" in shape or "kind" not in shape}

    def adjacency(self, slot: int, start, keys, other: int) -> dict[int, list[int]]:
        """{neighbour slot: [edge keys]} of ``slot`` (``other``: 1 = targets, 0 = sources), in
        the order the graph that wrote the snapshot listed them."""
        table: dict[int, list[int]] = {}
        edges = self.edges
        for key in keys[start[slot]:start[slot + 1]]:
            neighbour = edges[key * _FIELDS + other]
            found = table.get(neighbour)
            if found is None:
                table[neighbour] = [key]
            else:
                found.append(key)
        return table
