"""The code graph: definitions as nodes, located and typed edges between them, kept fresh.

Nodes are definitions that can do or be something in a call graph (functions, methods,
constructors, classes, interfaces, …) plus one node per module for its top-level code. A node's
id is ``file#nesting`` (``app/models.py#User.save``); a module's is ``file#`` (its
``qualified_name`` is the module's name, ``app.models``).

Edges (``CALLS``, ``REFERENCES``, ``EXTENDS``, ``IMPLEMENTS``, ``IMPORTS``) come from one file's
references resolved by the resolver, so each file owns the edges whose site it holds. The graph
is rebuilt per file: a changed file redoes its own edges, and so does every file whose
resolutions read it (the resolver records what each resolution looked at).
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
import os
import select
import signal
import sys
import time
import warnings
import weakref
from array import array
from collections import Counter
from dataclasses import field
from pathlib import Path

from ..dataclass_code import dataclass
from ..facts import NODE_KINDS, decode_calls_whole
from ..hashing import blake2b
from ..index.encoding import DecodeError, decode, encode, freeze_long_lived, gc_paused
from ..languages import spec_of
from ..nesting import qualifier_names
from ..resolve.flow import ValueFlow
from ..resolve.resolver import CLASS_KINDS, Resolver, Symbol
from .compact import CompactGraph, merge_snapshots

__all__ = ["CodeGraph", "NODE_KINDS", "EDGE_KINDS", "CALLABLE_KINDS", "FileGraph"]

CALLABLE_KINDS = frozenset({"function", "method", "constructor", "macro"})
EDGE_KINDS = ("CALLS", "REFERENCES", "EXTENDS", "IMPLEMENTS", "IMPORTS")


@dataclass(slots=True)
class FileGraph:
    """What one file contributes: its nodes, the edges whose sites it holds, and what it read."""

    path: str
    module: str                                     # the module node's id
    nodes: dict[str, dict] = field(default_factory=dict)
    edges: list[tuple[str, str, str, int, str]] = field(default_factory=list)  # (source, target, kind, line, resolution)
    external_calls: dict[str, list[str]] = field(default_factory=dict)
    read: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()             # every name defined here, "name()" for nodes
    interface: tuple = ()                           # see _interface()


class _Parts(dict):
    """path -> the file's ``FileGraph``; those of a snapshot (``_read_snapshot``) are made from its
    rows when first asked for: a restart whose files are unchanged asks for none (making all
    1,788 of the stdlib took 0.12-0.15 s of its 0.5 s), an edit for its file's, or for all when
    the readers of a changed interface are looked for."""

    __slots__ = ("_ids",)

    def __init__(self, rows: dict[str, tuple] | None = None, ids=()):
        super().__init__(rows or {})
        self._ids = ids

    def __getitem__(self, path: str) -> FileGraph:
        part = dict.__getitem__(self, path)
        if type(part) is tuple:   # (node slots, interface, names, read) as the snapshot holds them
            slots, interface, names, read = part
            ids = self._ids
            part = FileGraph(path, f"{path}#", dict.fromkeys(ids[i] for i in slots), [], {},
                             frozenset(decode(read, compressed=False)) if type(read) is bytes else read,
                             frozenset(decode(names, compressed=False)), interface)
            dict.__setitem__(self, path, part)
        return part

    def get(self, path: str, default=None):
        return self[path] if path in self else default

    def items(self):
        return ((path, self[path]) for path in list(self))

    def values(self):
        return (self[path] for path in list(self))

    def reads(self):
        """(path, what its part read) of every file, without making the parts: what a change
        elsewhere may reach (``CodeGraph._update``; a restarted process's first save that changes
        an interface made every part for it: 45 ms of the stdlib's). Each read is decoded once."""
        for path, part in dict.items(self):
            if type(part) is tuple:
                read = part[3]
                if type(read) is bytes:
                    read = frozenset(decode(read, compressed=False))
                    dict.__setitem__(self, path, part[:3] + (read,))   # (a value replaced: no resize)
                yield path, read
            else:
                yield path, part.read

    def names(self):
        """(path, the names its part lists) of every file, without making the parts."""
        for path, part in dict.items(self):
            yield path, decode(part[2], compressed=False) if type(part) is tuple else part.names

    def pop(self, path: str, *default):
        if path not in self:
            if default:
                return default[0]
            raise KeyError(path)
        part = self[path]
        dict.__delitem__(self, path)
        return part


class _NodeTable:
    """Definition index -> node id for one file (non-node definitions map to their owner); and
    the nodes' attributes, until the file's part takes them (``CodeGraph._file_graph``)."""

    __slots__ = ("path", "module_id", "ids", "nodes")

    def __init__(self, resolver: Resolver, path: str):
        view = resolver.view(path)
        facts = view.facts
        spec = view.spec
        self.path = path
        module_name = spec.module_name(path, resolver.modules) if facts.language != "notebook" \
            else path.rsplit(".", 1)[0].replace("/", ".")
        self.module_id = f"{path}#"
        self.nodes: dict[str, dict] | None = {self.module_id: {
            "name": module_name, "qualified_name": module_name, "kind": "module", "file": path,
            "line": 1, "end_line": max(facts.line_count, 1), "offset": 1,
            "limit": max(facts.line_count, 1), "index": -1,
        }}
        self.ids: list[str | None] = []
        defs = facts.definitions
        nesting_of: list[tuple[str, ...]] = []
        for i, d in enumerate(defs):
            # `Circle::area`, a Go method: the type's member
            nesting = (nesting_of[d.container] if 0 <= d.container < i else ()) \
                + (qualifier_names(facts, i) if isinstance(d.qualifier, tuple) else ()) + (d.name,)
            nesting_of.append(nesting)
            # a property is a node when it has code (a getter) or a function type (`get: (u) => R`)
            is_node = d.kind in NODE_KINDS or (d.kind == "property" and (d.own_scope >= 0 or d.returns is not None))
            if not is_node or d.kind == "parameter":
                self.ids.append(None)
                continue
            node_id = f"{path}#{'.'.join(nesting)}"
            self.ids.append(node_id)
            existing = self.nodes.get(node_id)
            if existing is not None and not (existing.get("declaration") and not d.declaration):
                continue  # a redefinition or overload: the first (or the body) stands for it
            cell_line = d.start_line
            self.nodes[node_id] = {
                "name": d.name, "qualified_name": ".".join((module_name,) + nesting),
                "kind": resolver.kind_of(Symbol(path, i)) if d.qualifier is not None else d.kind,
                "file": path, "line": d.line, "end_line": d.end_line, "offset": cell_line,
                "limit": d.end_line - d.start_line + 1, "index": i, "declaration": d.declaration,
                "nesting": ".".join(nesting),
            }

    def owner(self, defs, container: int) -> str:
        """The node a site inside definition ``container`` belongs to."""
        while container >= 0:
            node_id = self.ids[container]
            if node_id is not None:
                return node_id
            container = defs[container].container
        return self.module_id


class CodeGraph:
    """The project's graph for the current index generation, rebuilt file by file."""

    def __init__(self, implementation=None, store=None):
        # symbol -> its body when it is a declaration (a C/C++ prototype, an overload signature):
        # calls are edges to the code that runs. Given by the query layer, which knows the
        # declaration/definition pairing of every language.
        self.implementation = implementation
        self.store = store   # graph/persist.py GraphStore: parts kept for the next process, or None
        self.graph = CompactGraph()
        self._keys: dict[str, list[int]] = {}   # file -> keys of the edges its part added
        self.files = _Parts()   # path -> FileGraph
        self._hashes: dict[str, str] = {}
        self._tables: dict[str, _NodeTable] = {}
        # The nodes that may have lost their definition since the last prune (those of the parts
        # dropped, the edges' targets no part had yet); None: every node may have (_prune)
        self._maybe_stale: set[str] | None = None
        self.generation = -1
        self.last_rebuilt = 0
        # the names of the project's nodes (a read of another name is no REFERENCES edge: not
        # resolved), each with how many files define it
        self._node_names: dict[str, int] = {}
        self._node_names_made = False
        # the counts as the snapshot read kept them (``_encoded_counts``), until an update needs them
        self._stored_node_names: bytes | None = None
        self._implicit: list[tuple[str, str, str]] | None = None   # inferred IMPLEMENTS edges (Go)
        # the index's summaries when the graph was last brought up to date (what changed files
        # named then); None when a new process starts from what an earlier one stored
        self._summaries: dict | None = None
        self._snapshot_due = False    # the graph changed since the store's snapshot was written
        self._exit_hook = False
        self.last_in_child = False    # the last update's files were redone in a child (_built_in_child)

    # ------------------------------------------------------------------ kept for the next process
    def _read_snapshot(self) -> bool:
        """The whole graph as a new process left it: one read of flat arrays, and of each file
        what an update needs (its edge keys, node ids, names, interface, what it read) — no part
        decoded. The files changed since are then redone as after an edit."""
        found = self.store.load_snapshot()
        if found is None:
            return False
        try:
            (digests, files, implicit, node_names), data = found
            if type(node_names) is not bytes:
                raise ValueError("a snapshot's node names of another shape")
            graph = CompactGraph.from_snapshot(data)
            hashes = dict(digests)
            ids, rows, keys = graph.snapshot_ids(), {}, {}
            for path, start, count, slots, interface, names, read in files:
                if not (type(slots) is tuple and type(names) is type(read) is bytes and _is_interface(interface)
                        and (not slots or 0 <= min(slots) and max(slots) < len(ids))):
                    raise ValueError("a snapshot's file of another shape")
                rows[path] = (slots, interface, names, read)
                keys[path] = range(start, start + count)
            parts = _Parts(rows, ids)
            if set(parts) != set(hashes):
                raise ValueError("a snapshot whose files and digests differ")
            edges = [graph.edge_of_key(key) for key in implicit]
        except (ValueError, TypeError, IndexError, KeyError):
            return False
        if any(e is None for e in edges):
            return False
        self.graph, self._hashes, self.files, self._keys = graph, hashes, parts, keys
        self._implicit = [(e[0], e[1], key) for e, key in zip(edges, implicit)]
        self._stored_node_names = node_names
        return True

    def write_snapshot(self) -> None:
        """Keep the whole graph for the next process (when it changed since the last time)."""
        if self.store is None or not self._snapshot_due:
            return
        snapshot, new_key = self._snapshot()
        (_digests, files, _implicit, _node_names), data = snapshot
        # The graph is from now on the snapshot's arrays, as a restarted process reads it: the
        # objects the build made (150 MB on the stdlib) go before the blob is encoded, and are
        # made again only for what is asked. Its keys are the snapshot's: each file's a range.
        self.graph = CompactGraph.from_snapshot(data)
        self._keys = {path: range(start, start + count) for path, start, count, *_ in files}
        if self._implicit is not None:
            self._implicit = [(source, target, new_key[key]) for source, target, key in self._implicit]
        if self.store.save_snapshot(snapshot):
            self._snapshot_due = False

    def _snapshot(self) -> tuple[tuple, array]:
        """The snapshot of the graph and of each file (what ``_read_snapshot`` reads), and the map
        from each edge key to its key in it (``CompactGraph.snapshot``)."""
        order, files = [], []
        for path, fg in self.files.items():
            keys = self._keys.get(path, ())
            files.append((path, len(order), len(keys), fg))
            order.extend(keys)
        implicit = [key for _s, _t, key in self._implicit or ()]
        data, new_key = self.graph.snapshot(order + implicit)
        slot_of = {node: i for i, node in enumerate(data[1])}
        # a file's names and reads stay encoded until its part is made (most never are: they
        # were half of a restart's decode)
        files = tuple((path, start, count, tuple(slot_of[n] for n in fg.nodes if n in slot_of), fg.interface,
                       encode(tuple(sorted(fg.names)), compress=False), encode(tuple(sorted(fg.read)), compress=False))
                      for path, start, count, fg in files)
        digests = tuple((path, self._hashes[path]) for path in self.files if path in self._hashes)
        if self._node_names_made:
            node_names = _encoded_counts(self._node_names)
        elif self._stored_node_names is not None:   # (read with the snapshot; no file redone since)
            node_names = self._stored_node_names
        else:
            counts: dict[str, int] = {}
            for _path, names in self.files.names():
                _count_node_names(counts, names, 1)
            node_names = _encoded_counts(counts)
        return ((digests, files, tuple(new_key[k] for k in implicit), node_names), data), new_key

    def file_nodes(self, path: str) -> tuple[str, ...]:
        """The ids of the nodes ``path`` defines."""
        fg = self.files.get(path)
        return tuple(fg.nodes) if fg is not None else ()

    # ------------------------------------------------------------------ freshness
    def update(self, resolver: Resolver, index) -> int:
        """Bring the graph up to date with ``index``; returns how many files were redone."""
        if self.generation == index.generation:
            return 0
        # Resolving allocates millions of acyclic tuples; each full collection then walks them
        # all and frees nothing (14 on the stdlib: a third of the build's CPU).
        first = not self.files   # the whole graph is made or read from the store now
        with gc_paused():
            redone = self._update(resolver, index)
        if first or redone > _SNAPSHOT_NOW:
            freeze_long_lived()   # what the build made lives as long as the project
        return redone

    def _update(self, resolver: Resolver, index, may_fork: bool = True) -> int:
        current = index.digests()
        from_parts = False
        if self.store is not None and not self.files and not self._hashes and not self._read_snapshot():
            # a new process starts where an earlier one stopped: its graph (above), else its
            # parts, with the digests of the files they were made from (what changed since is
            # redone below, as in-process)
            from_parts = True
            for fg, digest in self.store.load(FileGraph):
                self._add(fg)
                self._hashes[fg.path] = digest
        gone = [p for p in self.files if p not in current]
        changed = [p for p, h in current.items() if self._hashes.get(p) != h]
        # A file's node ids depend on its own facts only: the tables of the files unchanged stay
        # (an edit looked up the nodes of the 20-50 files its calls reach: 5-20 ms to make them again)
        for path in (*gone, *changed):
            self._tables.pop(path, None)
        # A file whose change only moved what it says (a comment, blank lines) keeps its part, at
        # the new lines (its resolutions are the same: Index.moved_lines). One whose lines were
        # reflowed is redone, from the resolutions the resolver kept (Index.only_moved).
        moved_lines = getattr(index, "moved_lines", None)
        moved = {p: lines for p in changed if moved_lines is not None and p in self.files
                 and (lines := moved_lines(p, self._hashes[p], current[p])) is not None}
        redo = {p for p in changed if p not in moved}
        # What a changed file can change elsewhere, by what other parts read (`FileGraph.read`):
        # - whatever went through the files naming a name it starts or stops naming ("*used:":
        #   the callers of a function, whose arguments its parameters hold; value flow);
        # - its interface unchanged (an edit inside a body): nothing more;
        # - its definitions kept, maybe with more after them or fewer at the end, and its imports
        #   and exports kept (a function added or removed there, other arguments passed): the
        #   lookups of the names added or removed ("*name:"), the readers that name one, and, when
        #   its calls pass other arguments, the readers that went through the files naming a name
        #   it names (its callees' parameters);
        # - else: every reader, and the lookups of the names it gains or loses.
        # What it named before is known from the summaries of the last update; in a new process,
        # from what the store kept of each file with its part (a file without: all it names now
        # stands for it, and the rule above is not applied to it).
        seen = self._summaries if self._summaries is not None and resolver._summaries is not None else None
        if seen is None and resolver._summaries is not None and self.store is not None and self._hashes:
            then = {p: self._hashes[p] for p in (*changed, *gone) if p in self._hashes}
            seen = {p: _NamedThen(names) for p, names in self.store.used_names(then).items()} if then else {}
        now = resolver._summaries or {}
        touched = set(gone)
        at_end: dict[str, tuple[frozenset[str], frozenset[str]]] = {}   # path -> (names added or removed, "*used:" reads)
        defined: set[str] = set()
        used: set[str] = set()
        for path in redo:
            after = now.get(path)
            before = seen.get(path) if seen is not None else None
            if after is not None and before is not None:
                used |= before.used ^ after.used
            elif after is not None:
                used |= after.used
            part = self.files.get(path)
            if part is None:
                touched.add(path)
                continue
            interface = _interface(resolver, path)
            if interface == part.interface:
                continue
            replaced = resolver.replaced_facts(path, self._hashes.get(path)) if before is not None else None
            names = _at_the_end(resolver, path, part.interface, interface, replaced, before.used | after.used) \
                if before is not None else None
            if names is None:
                touched.add(path)
                continue
            callees = frozenset()
            if interface[3] != part.interface[3]:   # what its calls pass changed: the callees, if known
                callees = _callees_passed_otherwise(replaced, resolver.view(path).facts) if replaced is not None \
                    else before.used | after.used
            at_end[path] = (names, frozenset(f"*used:{n}" for n in callees))
            defined |= names
        if seen is not None:
            for path in gone:
                if path in seen:
                    used |= seen[path].used
        if (touched or at_end or used) and self.files:
            # Same-name lookups elsewhere change only with the names a file gains or loses.
            for path in touched:
                before = self.files[path].names if path in self.files else frozenset()
                after = _defined_names(resolver, path) if path in current else frozenset()
                defined |= {n.rstrip("()") for n in before ^ after}
            added_or_gone = set(gone) | {p for p in changed if p not in self._hashes}
            name_reads = {f"*name:{n}" for n in defined} | {f"*used:{n}" for n in used}
            # A file added or removed may change which file an import finds (`shapes/mod.rs` beside
            # `shapes/circle.rs`, `pkg.py` beside `pkg/`): the files that read its folder or the one
            # above it are redone.
            near = {folder for p in added_or_gone for folder in _folder_and_parent(p)}
            for path, read in self.files.reads():
                if path in redo or path not in current:
                    continue
                if not read.isdisjoint(touched) or not read.isdisjoint(name_reads) or \
                        (added_or_gone and ("*files" in read or any(_folder(r) in near for r in read))):
                    redo.add(path)
                elif at_end and any(p in read and (not names.isdisjoint(now[path].used) or not read.isdisjoint(callees))
                                    for p, (names, callees) in at_end.items()):
                    redo.add(path)
        # a moved file that reads a changed one is redone (its answers may change)
        moved = {p: lines for p, lines in moved.items() if p not in redo}
        if may_fork and self.store is not None and len(redo) > CHILD_BUILD_FILES and (
                (not self.files and self._built_in_shares(resolver, index, current, redo))
                or self._built_in_child(index, lambda: self._redo(resolver, index, current, gone, redo, moved,
                                                                  touched | at_end.keys(), changed, from_parts=True))):
            # What the child stored is read as a restarted process reads it (and what changed
            # meanwhile, if anything, is redone here).
            self._forget_all()
            self._update(resolver, index, may_fork=False)
            self.last_rebuilt, self.last_in_child = len(redo) + len(moved), True
            return len(redo) + len(moved)
        return self._redo(resolver, index, current, gone, redo, moved, touched | at_end.keys(), changed, from_parts)

    def _redo(self, resolver: Resolver, index, current: dict[str, str], gone: list[str], redo: set[str],
              moved: dict[str, dict[int, int]], touched: set[str], changed: list[str], from_parts: bool) -> int:
        """Drop the files gone, make the parts of the files to redo, move those of the files
        moved (line maps); store them."""
        # Names of every node in the project: a read of any other name cannot be a REFERENCES
        # edge, so it is not resolved (most reads are of variables). Made again only when a file
        # comes, goes or changes the names it defines (not for an edit inside a body).
        # Kept as counts (name -> how many files define it), so that a file gaining or losing a
        # function changes its own names' counts instead of the set being made again from every
        # file's (60k names of the stdlib: 50 ms of each such save).
        if redo or gone:
            if not self._node_names_made and self._stored_node_names is not None:
                # a restarted process: the counts the snapshot kept, not every file's names again
                # (the stdlib's: 60 ms of its first save that adds or removes a function)
                counts = _decoded_counts(self._stored_node_names)
                if counts is not None:
                    self._node_names, self._node_names_made = counts, True
            self._stored_node_names = None
        if (redo or gone) and self._node_names_made:
            counts = self._node_names
            for path in (*gone, *redo):
                if path in self.files:
                    _count_node_names(counts, self.files[path].names, -1)
                if path in redo:
                    _count_node_names(counts, _defined_names(resolver, path), 1)
        for path in gone:
            self._drop(path)
            self._hashes.pop(path, None)
        for path in sorted(redo):
            self._drop(path)
        if redo and not self._node_names_made:
            counts = {}
            for path, names in self.files.names():
                if path not in redo:
                    _count_node_names(counts, names, 1)
            _count_names_of(counts, resolver, redo, current)
            self._node_names = counts
            self._node_names_made = True
        made: list[FileGraph] = []   # whole, for the store (self.files keeps less: _add)
        # A build from nothing stores its parts as it goes (kept to the end, they were a second
        # copy of the graph at the build's peak: ~46 MB on the stdlib). Not when parts were kept:
        # a part stored before its readers' could outlive theirs if the process ended in between.
        early = self.store is not None and not self._hashes
        for path in sorted(redo):
            fg = self._file_graph(resolver, path)
            if fg is not None:
                self._add(fg)
                made.append(fg)
                self._hashes[path] = current[path]
                if early and len(made) >= _SAVE_EVERY:
                    self.store.save(made, current, [], _used_blobs(resolver, made, current))
                    made.clear()
        for path, lines in sorted(moved.items()):
            fg = self._moved_part(resolver, path, lines)
            self._drop(path)
            fg = fg if fg is not None else self._file_graph(resolver, path)
            if fg is not None:
                self._add(fg)
                made.append(fg)
                self._hashes[path] = current[path]
        if touched:
            self._prune()
        for table in self._tables.values():   # kept for their ids: node attributes are the graph's
            table.nodes = None
        # redone on any change of those files: an edit that only moves lines moves the edges' lines
        if self._implicit is None or any(_implicit_language(resolver, p) for p in changed):
            self._implicit_interfaces(resolver, current)
        self.generation = index.generation
        self._summaries = resolver._summaries
        self.last_rebuilt, self.last_in_child = len(redo) + len(moved), False
        if self.store is not None and (redo or moved or gone):
            self.store.save(made, current, sorted(set(gone) | {p for p in redo if p not in self.files}),
                            _used_blobs(resolver, made, current))
        made.clear()   # stored: freed before the snapshot below (its peak is the build's)
        if self.store is not None and (redo or moved or gone or from_parts):
            self._snapshot_due = True
            if from_parts or len(redo) > _SNAPSHOT_NOW:
                self.write_snapshot()
            elif not self._exit_hook:   # a few files: kept when the project closes or the process ends
                self._exit_hook = True
                atexit.register(_write_at_exit, weakref.ref(self))
        return len(redo) + len(moved)

    def _moved_part(self, resolver: Resolver, path: str, lines: dict[int, int]) -> FileGraph | None:
        """The part of a file whose change only moved what it says: its edges and calls as
        they were, at their new lines, its nodes as its new facts place them. None when that
        cannot be (a node or a line it does not know): the file is then redone."""
        part = self.files.get(path)
        table = self.table(resolver, path) if part is not None else None
        if table is None or table.nodes is None or table.nodes.keys() != part.nodes.keys():
            return None
        edges = []
        for key in self._keys.get(path, ()):
            edge = self.graph.edge_of_key(key)
            if edge is not None:
                source, target, kind, _file, line, resolution = edge
                if line not in lines:
                    return None
                edges.append((source, target, kind, lines[line], resolution))
        calls = {}
        for node_id in table.nodes:
            found = self.graph.nodes[node_id].get("external_calls") if self.graph.has_node(node_id) else None
            if found:
                calls[node_id] = found
        nodes, table.nodes = table.nodes, None   # handed over, as _file_graph does
        return FileGraph(path, table.module_id, nodes, edges, calls, part.read, part.names, part.interface)

    def _built_in_shares(self, resolver: Resolver, index, current: dict[str, str], redo: set[str]) -> bool:
        """A graph made from nothing on every core the index uses: ``redo`` shared among forked
        children, each storing its share's parts and its share's snapshot (``_store_parts``);
        then one more child merges those into the snapshot (``_merged_shares``), or, when it
        cannot, reads every part, as a restarted process would, and writes it. True when all of
        that succeeded; False when there is one share only (a small project, one worker) or a
        child failed: the caller then builds in one child as before (redoing every file). A
        file's part does not depend on which process made it: each resolves what it needs itself
        (the files every share imports are resolved in each: ~10 % more CPU in all, half the wait)."""
        summaries = resolver._summaries or {}
        lines = sum(summaries[p].lines for p in redo if p in summaries)
        shares = _shares(sorted(redo), summaries, min(getattr(index, "workers", 1), _children_that_fit(lines)))
        if len(shares) < 2 or not sys.platform.startswith("linux"):
            return False
        # The shares' snapshots, merged by the last child. Not where a language's interfaces are
        # implicit (Go): those edges are found over every file at once (_implicit_interfaces).
        share_files = [self.store.share_file(f"{os.getpid()}-share{i}") for i in range(len(shares))] \
            if not any(_implicit_language(resolver, p) for p in redo) else [None] * len(shares)
        pids = []
        try:
            try:
                with index.steady(), warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    for share, share_file in zip(shares, share_files):
                        try:
                            pid = os.fork()
                        except OSError:
                            break
                        if pid == 0:
                            status = 1
                            try:
                                decode_calls_whole()   # (as _built_in_child's)
                                self._store_parts(resolver, share, redo, current, share_file)
                                status = 0
                            finally:
                                os._exit(status)
                        pids.append(pid)
                done = [_child_exit_code(pid) == 0 for pid in pids]
            except BaseException:   # interrupted: the children go too
                for pid in pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, 0)
                raise
            if len(done) < len(shares) or not all(done):
                return False
            # every part is stored: one more child writes the snapshot; if it fails, the asking
            # process reads the parts themselves (as a restarted one without a snapshot does)
            self._built_in_child(index, lambda: self._merged_shares(share_files)
                                 or self._update(resolver, index, may_fork=False))
            return True
        finally:
            for share_file in share_files:
                if share_file is not None:
                    with contextlib.suppress(OSError):
                        share_file.unlink()

    def _store_parts(self, resolver: Resolver, share: list[str], redo: set[str], current: dict[str, str],
                     share_file: Path | None) -> None:
        """In a child of ``_built_in_shares``: make and store the parts of the files of ``share``,
        and write their graph's snapshot to ``share_file`` (None: none is merged)."""
        # the names of the nodes every file to redo defines, not only this share's (as _redo)
        counts: dict[str, int] = {}
        _count_names_of(counts, resolver, redo, current)
        self._node_names, self._node_names_made = counts, True
        made: list[FileGraph] = []
        for at, path in enumerate(share):
            fg = self._file_graph(resolver, path)
            if fg is not None:
                made.append(fg)
                if share_file is not None:
                    self._add(fg)
                    self._hashes[path] = current[path]
            if made and (len(made) >= _SAVE_EVERY or at == len(share) - 1):
                if not self.store.save(made, current, [], _used_blobs(resolver, made, current)):
                    raise OSError("the graph's parts could not be stored")   # (this child fails: one builds all)
                made.clear()
        if share_file is not None:
            # The snapshot of this share's files (the names they define counted, as a snapshot
            # of parts read counts them: the merge adds the shares' counts). When it cannot be
            # written, the last child reads every part instead.
            self._node_names_made = False
            self.store.save_snapshot(self._snapshot()[0], share_file)

    def _merged_shares(self, share_files: list[Path | None]) -> bool:
        """In the last child of ``_built_in_shares``: the snapshot of the whole graph made of the
        shares' (``merge_snapshots``; the files' rows renumbered, their node names counted
        together), and written. False when a share's is missing or they do not merge: the
        parts are read instead."""
        shares = [self.store.load_snapshot(file) if file is not None else None for file in share_files]
        if any(share is None for share in shares):
            return False
        try:
            merged = merge_snapshots([data for _head, data in shares])
            if merged is None:
                return False
            data, slot_maps, offsets = merged
            digests, files, counts = [], [], {}
            for ((share_digests, rows, implicit, node_names), _data), slots, offset in zip(shares, slot_maps, offsets):
                share_counts = _decoded_counts(node_names)
                if implicit or share_counts is None:
                    return False
                digests += share_digests
                # each file's edges after those of the shares before, its nodes at their slots in the whole
                files += [(path, start + offset, count, tuple(map(slots.__getitem__, nodes)), *rest)
                          for path, start, count, nodes, *rest in rows]
                for name, count in share_counts.items():
                    counts[name] = counts.get(name, 0) + count
        except (ValueError, TypeError, IndexError):
            return False   # (a share's snapshot of another shape)
        return self.store.save_snapshot(((tuple(digests), tuple(files), (), _encoded_counts(counts)), data))

    def _built_in_child(self, index, work) -> bool:
        """Run ``work`` — redoing many files, which stores their parts and the graph's snapshot —
        in a forked child, and wait for it; True when it succeeded. The peak of redoing many
        files (their resolutions and the facts they load: 1.2 GB for a build of the standard
        library) is then the child's alone, given back to the system when it ends; this process
        reads what the child stored, as a restarted one does, and holds only the graph's arrays
        and what its own answers load. A child that stops working is killed (``_child_exit_code``)."""
        if not sys.platform.startswith("linux"):
            return False   # (elsewhere fork is missing, or unsafe in a process with threads)
        with index.steady(), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)   # 3.12+: "multi-threaded process"
            try:
                pid = os.fork()
            except OSError:
                return False
        if pid == 0:   # the child: only this thread runs, and it never returns from here
            status = 1
            try:
                decode_calls_whole()   # (it reads every file's calls; the memory is given back when it ends)
                work()
                status = 0 if not self._snapshot_due else 1
            finally:
                os._exit(status)   # no exit hooks: they are the parent's (its snapshot, a kernel's sockets)
        try:
            return _child_exit_code(pid) == 0
        except BaseException:   # interrupted (a kernel's interrupt, Ctrl-C): the child goes too
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise

    def _forget_all(self) -> None:
        """Back to a graph of nothing (the store's snapshot is read next)."""
        self.graph, self._keys, self.files, self._hashes, self._tables = CompactGraph(), {}, _Parts(), {}, {}
        self._node_names, self._node_names_made, self._implicit, self._snapshot_due = {}, False, None, False
        self._stored_node_names = None
        self._maybe_stale = None
        self._summaries = None

    def _drop(self, path: str) -> None:
        fg = self.files.pop(path, None)
        if fg is None:
            return
        for key in self._keys.pop(path, ()):
            self.graph.discard_edge(key)   # (a node removal may have taken it already)
        maybe_stale = self._maybe_stale
        for node_id in fg.nodes:
            if self.graph.has_node(node_id):
                self.graph.nodes[node_id].clear()
                self.graph.nodes[node_id]["stale"] = True
                if maybe_stale is not None:
                    maybe_stale.add(node_id)

    def _add(self, fg: FileGraph) -> None:
        # Kept: what a later update reads (node ids, reads, names, interface), like a part read
        # from the snapshot. Its node attributes, edges and external calls are the graph's now
        # (copies of 250k edges and 70k attribute dicts: 50 MB on the stdlib).
        self.files[fg.path] = FileGraph(fg.path, fg.module, dict.fromkeys(fg.nodes), [], {}, fg.read, fg.names,
                                        fg.interface)
        for node_id, attrs in fg.nodes.items():
            if self.graph.has_node(node_id):
                self.graph.nodes[node_id].clear()
            self.graph.add_node(node_id, **attrs)
            calls = fg.external_calls.get(node_id)
            if calls:
                self.graph.nodes[node_id]["external_calls"] = calls
        if self._maybe_stale is not None:   # a target no part has added yet: a node with no kind
            graph = self.graph
            self._maybe_stale.update(target for _source, target, *_ in fg.edges if target not in graph)
        self._keys[fg.path] = self.graph.add_edges(fg.path, fg.edges)

    def _prune(self) -> None:
        """Drop nodes no file defines any more (a deleted or renamed definition): the first time
        looked for among every node (a graph read from a store may hold some), then among those
        that may have become so since (an edit's: walking all 73k nodes of the stdlib's graph
        was most of a small file's save that added a function)."""
        graph = self.graph
        if self._maybe_stale is None:
            stale = graph.stale_nodes()
        else:
            nodes = graph.nodes
            stale = [node for node in self._maybe_stale
                     if node in graph and (nodes[node].get("stale") or "kind" not in nodes[node])]
        graph.remove_nodes_from(stale)
        self._maybe_stale = set()

    def _implicit_interfaces(self, resolver: Resolver, paths) -> None:
        """Languages where interfaces are satisfied implicitly (Go): a type whose methods include
        all of an interface's gets an IMPLEMENTS edge marked ``inferred``. A whole-project pass
        over those languages' files, redone when one of them changes."""
        for source, target, key in self._implicit or ():
            if self.graph.has_edge(source, target, key):
                self.graph.remove_edge(source, target, key)
        self._implicit = []
        interfaces: dict[Symbol, set[str]] = {}
        methods: dict[Symbol, set[str]] = {}
        for path in paths:
            if not _implicit_language(resolver, path):
                continue
            view = resolver.view(path)
            defs = view.facts.definitions
            for i, d in enumerate(defs):
                if d.kind == "interface":
                    interfaces[Symbol(path, i)] = set(view.members.get(i, {}))   # (its members' names)
                elif d.kind == "method" and isinstance(d.qualifier, tuple) and len(d.qualifier) == 2:
                    owner = resolver.resolve_reference(path, d.qualifier[1])
                    if owner.status == "found" and owner.target is not None and not owner.target.is_module:
                        methods.setdefault(owner.target, set()).add(d.name)
        for owner, names in methods.items():
            source = self.node_of(resolver, owner)
            d = resolver.definition(owner)
            for interface, needed in interfaces.items():
                if not needed or not needed <= names or interface == owner:
                    continue
                target = self.node_of(resolver, interface)
                if source and target:
                    key = self.graph.add_edge(source, target, "IMPLEMENTS", owner.path, d.line, "inferred")
                    self._implicit.append((source, target, key))

    # ------------------------------------------------------------------ one file
    def table(self, resolver: Resolver, path: str) -> _NodeTable | None:
        table = self._tables.get(path)
        if table is None:
            if resolver.is_library(path) or resolver.view(path) is None:
                return None  # library code is never a node: calls into it are external_calls
            table = self._tables[path] = _NodeTable(resolver, path)
        return table

    def node_of(self, resolver: Resolver, symbol: Symbol) -> str | None:
        table = self.table(resolver, symbol.path)
        if table is None:
            return None
        if symbol.is_module:
            return table.module_id
        if symbol.index >= len(table.ids):
            return None
        return table.ids[symbol.index]

    def _file_graph(self, resolver: Resolver, path: str) -> FileGraph | None:
        view = resolver.view(path)
        if view is None:
            return None
        with resolver.recording() as read:
            table = self._tables[path] = _NodeTable(resolver, path)   # (its nodes' attributes: made now)
            # handed over, not copied: the graph takes the attributes (_add), the table keeps its ids
            nodes, table.nodes = table.nodes, None
            fg = FileGraph(path, table.module_id, nodes)
            _FileEdges(self, resolver, view, table, fg).collect()
        read.discard(path)
        fg.read = frozenset(read)
        fg.names = _defined_names(resolver, path)
        fg.interface = _interface(resolver, path)
        return fg


_TOKEN_NAME_LIMIT = 4096
# An update that redid more files than this writes the snapshot at once (a first build, a restart
# after many changes); fewer (an edit) leave it to Project.close() or the end of the process.
_SNAPSHOT_NOW = 50
_SAVE_EVERY = 200   # parts a build from nothing stores at a time
# An update that redoes more files than this does it in a forked child (_built_in_child).
CHILD_BUILD_FILES = 300
# A child that used no CPU time for this long is stuck (_child_exit_code): killed, the build is
# done here. Longer than any wait of its own (a database locked by another process: 30 s at most).
CHILD_STALL_SECONDS = 60.0


# A build from nothing is shared among children (_built_in_shares) when each gets this many files,
# and among this many at most: each child holds the facts of the files it resolves through (most
# of a project: ~1 GB on the stdlib), so more children cost memory for less and less time.
SHARE_FILES = 200
MAX_SHARES = 4
# What one such child holds at its peak, per line of the project: 0.98-1.08 KB measured on 1, 2
# and 4 copies of the stdlib (858k-3.4M lines; bench/graph_restart.py --scale), with room to spare.
_CHILD_BYTES_PER_LINE = 1300


def _children_that_fit(lines: int) -> int:
    """How many children building a graph of ``lines`` lines fit in four fifths of the memory
    available now; at least one (the build in one child needs about as much)."""
    available = _available_memory()
    if available is None:
        return MAX_SHARES   # (not known: the other bounds decide)
    return max(1, int(available * 0.8) // max(1, lines * _CHILD_BYTES_PER_LINE))


# A container's memory bound and use (cgroup v2, then v1): in a container /proc/meminfo tells the
# host's memory, and a JupyterHub pod's bound is often a few GB of a large machine.
_CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                 ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"))


def _available_memory() -> int | None:
    """Bytes of memory this process's children can still take: the system's available memory
    (/proc/meminfo), or less when the process's container is bound to less. None when unknown."""
    try:
        with open("/proc/meminfo", "rb") as meminfo:
            available = next(int(line.split()[1]) * 1024 for line in meminfo if line.startswith(b"MemAvailable:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return None
    for bound_file, used_file in _CGROUP_FILES:
        try:
            with open(bound_file, "rb") as bound, open(used_file, "rb") as used:
                limit, usage = bound.read().strip(), int(used.read())
        except (OSError, ValueError):
            continue
        if limit.isdigit() and int(limit) < 1 << 60:   # ("max", or v1's huge number: no bound)
            available = min(available, max(0, int(limit) - usage))
        break
    return available


def _shares(paths: list[str], summaries: dict, workers: int) -> list[list[str]]:
    """``paths`` (sorted) cut into runs of about equal work, one per worker with SHARE_FILES
    files at least: by each file's definitions and references (a file's count of resolutions).
    Runs, not every n-th file: files side by side import the same modules, which each child then
    resolves once."""
    count = max(1, min(workers, MAX_SHARES, len(paths) // SHARE_FILES))
    if count == 1:
        return [paths]
    weights = []
    for path in paths:
        summary = summaries.get(path)
        weights.append(1 + (summary.definitions + summary.references if summary is not None else 0))
    total, shares, share, done = sum(weights), [], [], 0
    for path, weight in zip(paths, weights):
        share.append(path)
        done += weight
        if len(shares) < count - 1 and done >= total * (len(shares) + 1) / count:
            shares.append(share)
            share = []
    if share:
        shares.append(share)
    return shares


def _child_exit_code(pid: int) -> int | None:
    """The exit code of the forked child ``pid`` once it ends; None when it stopped working — no
    CPU time for CHILD_STALL_SECONDS — and was killed. A fork copies only its own thread: a lock
    another thread held at that instant (an import under way, a database call) stays held in the
    child for good, and a child that needs it would wait forever, and this process with it."""
    try:
        ended = os.pidfd_open(pid)   # readable once the child ends
        waiting = select.poll()
        waiting.register(ended, select.POLLIN)
    except (AttributeError, OSError):
        ended = None
    try:
        used, since = _cpu_ticks(pid), time.monotonic()
        while True:
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return None
            if done:
                return os.waitstatus_to_exitcode(status)
            if ended is not None:
                waiting.poll(1000)
            else:
                time.sleep(0.05)
            now_used = _cpu_ticks(pid)
            if now_used != used:
                used, since = now_used, time.monotonic()
            elif time.monotonic() - since > CHILD_STALL_SECONDS:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
    finally:
        if ended is not None:
            os.close(ended)


def _cpu_ticks(pid: int) -> int | None:
    """The CPU time a process has used so far, in clock ticks (None: not readable)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[11]) + int(fields[12])   # utime + stime
    except (OSError, IndexError, ValueError):
        return None


def _write_at_exit(graph_ref) -> None:
    graph = graph_ref()
    if graph is not None:
        try:
            graph.write_snapshot()
        except Exception:  # noqa: BLE001 - a cache that only saves time must not fail the exit
            pass


def _folder(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _folder_and_parent(path: str) -> tuple[str, str]:
    folder = _folder(path)
    return folder, _folder(folder) if folder else ""


_COMPOSITE = ("o", "e", "s", "u", "w", "k", "i", "d", "g", "t")   # _token_name: not a reference's index


def _token_name(refs, token) -> tuple:
    """A value token spelled with names instead of reference indexes, flattened (prefix order),
    for the interface hash. Iterative and bounded: a receiver chain thousands long
    (``a.b.c.…``, generated code) neither recurses nor costs more than the limit."""
    if token is None:
        return ((None,),)
    if isinstance(token, tuple) and len(token) == 2 and token[0] not in _COMPOSITE and isinstance(token[1], int) \
            and 0 <= token[1] < len(refs):
        # the common token, a name read (`("r", 3)`) of no receiver: what the loop below gives it
        ref = refs[token[1]]
        if not isinstance(ref.receiver, tuple):
            return ((token[0], ref.name), ref.receiver)
    out: list = []
    stack = [token]
    while stack and len(out) < _TOKEN_NAME_LIMIT:
        token = stack.pop()
        if isinstance(token, tuple) and token and token[0] in ("o", "e", "s", "u", "w", "k", "g"):
            out.append((token[0], len(token) - 1))
            stack.extend(reversed(token[1:]))
        elif not isinstance(token, tuple) or len(token) != 2 or not isinstance(token[1], int) \
                or token[0] in ("i", "d", "t") or not 0 <= token[1] < len(refs):
            out.append((token,))
        else:
            ref = refs[token[1]]
            out.append((token[0], ref.name))
            if isinstance(ref.receiver, tuple):
                stack.append(ref.receiver)
            else:
                out.append(ref.receiver)
    if stack:
        out.append("…")
    return tuple(out)


def _interface(resolver: Resolver, path: str) -> tuple[int, int, int, int]:
    """What other files can see of this one — not bodies, not lines — as (how many definitions,
    a hash of them, a hash of its imports, exports and item writes, a hash of the arguments its
    calls pass): a change of the first three but for definitions at the end (``_at_the_end``) may
    change what its readers resolve to; one of the arguments alone, what its callees' parameters
    hold (value flow: the readers of ``*used:`` the callee)."""
    cached = resolver.kept.get(("interface", path))
    if cached is not None:
        return cached
    view = resolver.view(path)
    if view is None:
        return ()
    facts = view.facts
    definitions = _definition_parts(facts)
    found = resolver.kept[("interface", path)] = (
        len(definitions), _hash(definitions), _hash(_outer_parts(facts)), _hash(_passed_parts(facts)))
    return found


def _passed_parts(facts) -> list[tuple]:
    """What a file passes to functions elsewhere, by callee name: their parameters' values (value
    flow) read it."""
    refs = facts.references
    return [(refs[i].name, tuple((k, _token_name(refs, t)) for k, t, _ in passed)) for i, passed in facts.call_arguments]


def _callees_passed_otherwise(before, after) -> frozenset[str]:
    """The names called with other arguments in ``after`` than in ``before`` (a file's facts)."""
    old, new = Counter(_passed_parts(before)), Counter(_passed_parts(after))
    return frozenset(name for name, _passed in (old - new) + (new - old))


def _is_interface(value) -> bool:
    return type(value) is tuple and len(value) == 4 and all(type(n) is int for n in value)


def _hash(parts: list) -> int:
    # a hash that is the same in every process (str hashes are not): parts are kept across them
    # (marshal's version 2 writes no back-references: equal parts give equal bytes, whatever
    # objects they share; twice as fast as repr)
    return int.from_bytes(blake2b(marshal.dumps(parts, 2), digest_size=8).digest(), "big")


def _definition_parts(facts) -> list[tuple]:
    """Each definition as other files see it: name, kind, nesting, types, bases, decorators, what
    a variable is assigned from, what a function returns."""
    refs = facts.references
    parts = []
    for d in facts.definitions:
        gives = d.returned + d.yielded
        bases = d.extends + d.implements + d.alternatives
        parts.append((d.name, d.kind, d.container, d.scope >= 0, d.type, d.returns, d.exported, d.declaration,
                      d.decorators, _token_name(refs, d.value),
                      tuple([_token_name(refs, t) for t in gives]) if gives else (),   # mostly none
                      tuple([_token_name(refs, t) for t in bases]) if bases else ()))
    return parts


def _outer_parts(facts) -> list:
    """A file's imports, exports, ``__all__`` and the items it adds to containers (`HANDLERS[k] =
    f`: what their readers' calls may reach)."""
    refs = facts.references
    parts = [facts.all_names, facts.language]
    parts += [(i.module, i.kind, i.name, i.local, i.scope == 0) for i in facts.imports]
    parts += [(e.kind, e.name, e.exported_as, e.module, _token_name(refs, e.value)) for e in facts.exports]
    parts += [(_token_name(refs, c), k, _token_name(refs, v), spread) for c, k, v, spread in facts.item_writes]
    return parts


class _NamedThen:
    """What a file named when its part was made, as the store kept it: in a new process, the
    stand-in for the index's summary of the last update (``_update`` reads its ``used``)."""

    __slots__ = ("used",)

    def __init__(self, used: frozenset[str]):
        self.used = used


def _used_blobs(resolver: Resolver, parts: list, current: dict[str, str]) -> dict[str, bytes]:
    """path -> the names each part's file uses, for the store (``GraphStore.save``): from the
    index's summary of the file at the digest the part was made from."""
    summaries = resolver._summaries or {}
    blobs = {}
    for fg in parts:
        summary = summaries.get(fg.path)
        if summary is not None and summary.record.digest == current.get(fg.path):
            blobs[fg.path] = summary.used_blob()
    return blobs


def _at_the_end(resolver: Resolver, path: str, before: tuple, now: tuple, replaced,
                named: frozenset[str]) -> frozenset[str] | None:
    """When ``path``'s definitions are those it had at ``before`` (its interface then; ``now``: its
    interface now) with more after them (a function appended, a method added to the last class),
    or with the last ones gone (``replaced``: its facts then, if known), and its imports, exports
    and item writes are the same: the names other files can reach of the definitions added or removed (not a
    function's locals). None otherwise; when one of them is called implicitly (a constructor,
    `__iter__`, an operator: a reader's calls may reach it without naming it); and when one
    not a member is a name the file uses (``named``, then or now: its code may now find it
    rather than an import, and pass it on to other files)."""
    view = resolver.view(path)
    if view is None or not _is_interface(before) or not _is_interface(now) or now[2] != before[2]:
        return None
    facts = view.facts
    count, definitions = before[:2]
    parts = _definition_parts(facts)
    if len(parts) >= count:
        return _reachable_names(facts.definitions, count, named) if _hash(parts[:count]) == definitions else None
    if replaced is None:
        return None
    old = _definition_parts(replaced)
    if len(old) != count or _hash(old) != definitions or old[:len(parts)] != parts:
        return None
    return _reachable_names(replaced.definitions, len(parts), named)


def _reachable_names(defs, start: int, named: frozenset[str]) -> frozenset[str] | None:
    """The names of ``defs[start:]`` other files can reach; None when one is called implicitly or
    is not a member and among ``named``."""
    names = set()
    for d in defs[start:]:
        if d.kind == "parameter" or (0 <= d.container < len(defs) and defs[d.container].kind in CALLABLE_KINDS):
            continue   # (a local's name no other file's lookup finds)
        if d.kind == "constructor" or not d.name.isidentifier() or d.name.startswith("__") \
                or d.name == "constructor" or (d.container < 0 and d.name in named):
            return None
        names.add(d.name)
    return frozenset(names)


_ACCESSOR_DECORATORS = frozenset({"property", "cached_property", "functools.cached_property"})


def _is_accessor(d) -> bool:
    """A definition whose read runs code: a getter (`get x()`, `@property`) with a body."""
    if d.own_scope < 0:
        return False
    return "get" in d.modifiers or any(dec in _ACCESSOR_DECORATORS or dec.endswith((".getter", ".setter"))
                                       for dec in d.decorators)


def _implicit_language(resolver: Resolver, path: str) -> bool:
    spec = spec_of(resolver.index.language_of(path))   # not the facts: a restart loads none it need not
    return spec is not None and spec.implicit_interfaces


def _count(counts: dict[str, int], node_names, step: int) -> None:
    """Add ``step`` to the count of each of a file's ``node_names``; a name no file defines any
    more leaves ``counts``."""
    for name in node_names:
        left = counts.get(name, 0) + step
        if left > 0:
            counts[name] = left
        else:
            counts.pop(name, None)


def _count_node_names(counts: dict[str, int], names, step: int) -> None:
    """``_count`` of the node names among a file's ``names`` ("name()" for a node: ``_defined_names``)."""
    _count(counts, (name[:-2] for name in names if name.endswith("()")), step)


def _count_names_of(counts: dict[str, int], resolver: Resolver, paths, current: dict[str, str]) -> None:
    """Count the node names of the files at ``paths`` (being redone) into ``counts``: from each
    file's summary (``_Summary.node_names``) when it is of the file's content now, which loads
    no file (every child sharing a build counts every file's: loading them all for that was a
    tenth of each child's time); else from its facts."""
    summaries = resolver._summaries or {}
    for path in paths:
        summary = summaries.get(path)
        if summary is not None and summary.record.digest == current.get(path):
            _count(counts, summary.node_names, 1)
        else:
            _count_node_names(counts, _defined_names(resolver, path), 1)


def _encoded_counts(counts: dict[str, int]) -> bytes:
    """Node name counts as a snapshot keeps them: the names, then their counts as an array."""
    return encode((tuple(counts), array("i", counts.values()).tobytes()), compress=False)


def _decoded_counts(blob: bytes) -> dict[str, int] | None:
    """The inverse of ``_encoded_counts``; None for anything else (the counts are made again)."""
    try:
        names, counts = decode(blob, compressed=False)
        numbers = array("i")
        numbers.frombytes(counts)
    except (DecodeError, TypeError, ValueError):
        return None
    if type(names) is not tuple or len(names) != len(numbers) or not all(type(n) is str for n in names) \
            or (numbers and min(numbers) < 1):
        return None
    return dict(zip(names, numbers))


def _defined_names(resolver: Resolver, path: str) -> frozenset[str]:
    cached = resolver.kept.get(("defined_names", path))
    if cached is not None:
        return cached
    view = resolver.view(path)
    if view is None:
        return frozenset()
    column = view.facts.definition_column   # (a stored file's definitions are not made for this)
    names = {name for name, kind in zip(column("name"), column("kind")) if kind != "parameter"}
    names.update(name + "()" for name in view.facts.node_names())
    found = resolver.kept[("defined_names", path)] = frozenset(names)
    return found


class _FileEdges:
    """Collects one file's edges."""

    def __init__(self, graph: CodeGraph, resolver: Resolver, view, table: _NodeTable, fg: FileGraph):
        self.graph, self.resolver, self.view, self.table, self.fg = graph, resolver, view, table, fg
        self.flow = ValueFlow(resolver)
        self.seen: dict[tuple, int] = {}   # (source, target, kind, line) -> its place in fg.edges

    def collect(self) -> None:
        facts = self.view.facts
        facts.hold_as_lists()   # (each is read many times over now)
        defs = facts.definitions
        refs = facts.references
        # A name read only to reach a member (`Foo.bar`) or to name a base class is not a
        # reference to the function or class in the REFERENCES sense.
        receivers = {r.receiver[1] for r in refs
                     if isinstance(r.receiver, tuple) and len(r.receiver) == 2 and r.receiver[0] == "r"}
        for d in defs:
            # the type an out-of-line member is qualified by (`Circle::area`) is its owner, not a use
            for token in d.extends + d.implements + (d.qualifier,):
                if isinstance(token, tuple) and len(token) == 2:
                    receivers.add(token[1])
        skipped: set[str] = set()
        imported = {imp.local for imp in facts.imports if imp.local}  # `import f as g`: g may be a function
        for i, ref in enumerate(refs):
            if ref.usage == "call" or ref.new:  # `new X()` is a call even where X reads as a type (Java)
                self._call(i, ref, defs)
            elif ref.usage == "read" and i not in receivers:
                if ref.name in self.graph._node_names or ref.name in imported:
                    self._read(i, ref, defs)
                else:
                    skipped.add(ref.name)
        self._indirect_calls(defs)
        self._calls_through_builtins(defs)
        for token, line, container in self.view.facts.iterations:  # `for x in it`: it.__iter__() …
            self._inferred_calls(self.table.owner(defs, container), self.flow.iteration(self.table.path, token), line)
        # Should one of these names become a function or class somewhere, redo this file.
        self.resolver._read[-1].update(f"*name:{name}" for name in skipped)
        for i, d in enumerate(defs):
            source = self.table.ids[i]
            if source is None:
                continue
            for kind, tokens in (("EXTENDS", d.extends), ("IMPLEMENTS", d.implements)):
                for token in tokens:
                    self._supertype(source, kind, token, d)
        self._imports()

    def _edge(self, source: str, target: str, kind: str, line: int, resolution: str) -> None:
        key = (source, target, kind, line)
        at = self.seen.get(key)
        if at is None:
            self.seen[key] = len(self.fg.edges)
            self.fg.edges.append((source, target, kind, line, resolution))
        elif self.fg.edges[at][4] == "name-only" and resolution != "name-only":
            # the same edge found properly later on the line: a guess must not hide it (name-only
            # edges are left out of answers by default)
            self.fg.edges[at] = (source, target, kind, line, resolution)

    def _target(self, symbol: Symbol, constructor: bool) -> str | None:
        resolver = self.resolver
        d = resolver.definition(symbol)
        if d is None:
            return self.graph.node_of(resolver, symbol) if symbol.is_module and not constructor else None
        if constructor and d.kind in CLASS_KINDS:
            init = self._constructor(symbol)
            if init is not None:
                symbol, d = init, resolver.definition(init)
        if d is not None and d.declaration and self.graph.implementation is not None:
            symbol = self.graph.implementation(symbol)   # a prototype (a C++ constructor's too): its body
        return self.graph.node_of(resolver, symbol)

    def _constructor(self, cls: Symbol) -> Symbol | None:
        # asked for every call of a class, in every file that calls it
        return self.resolver.settled(("constructor", cls), lambda: self._find_constructor(cls))

    def _find_constructor(self, cls: Symbol) -> Symbol | None:
        resolver = self.resolver
        for klass in resolver.mro(cls):
            view = resolver.view(klass.path)
            if view is None:
                continue
            names = view.spec.constructor_names
            for name, indices in view.members.get(klass.index, {}).items():
                for i in indices:
                    if view.facts.definitions[i].kind == "constructor" or name in names:
                        return Symbol(klass.path, i)
        return None

    def _call(self, i: int, ref, defs) -> None:
        source = self.table.owner(defs, ref.container)
        resolution = self.resolver.resolve_reference(self.table.path, i)
        if resolution.status != "found" or resolution.target is None:
            if resolution.status in ("builtin", "unresolved", "not_found"):
                calls = self.fg.external_calls.setdefault(source, [])
                if ref.name not in calls and len(calls) < 64:
                    calls.append(ref.name)
            return
        if self.resolver.is_library(resolution.target.path):
            # named as the project's code names it (`networkx.DiGraph.add_edge`)
            calls = self.fg.external_calls.setdefault(source, [])
            name = self.resolver.library_name(resolution.target)
            if name not in calls and len(calls) < 64:
                calls.append(name)
            return
        target = self._target(resolution.target, constructor=True)
        if target is not None:
            self._edge(source, target, "CALLS", ref.line, resolution.kind)
        elif resolution.kind != "name-only":
            # a variable or property holding a function (`alias = f; alias()`)
            self._inferred_calls(source, self.flow.held_by(resolution.target), ref.line)

    def _indirect_calls(self, defs) -> None:
        """`make()()`, `handlers[key]()`: what the callee expression may be, by value flow."""
        for token, line, _column, container in self.view.facts.indirect_calls:
            source = self.table.owner(defs, container)
            self._inferred_calls(source, self.flow.values(self.table.path, token), line)

    def _calls_through_builtins(self, defs) -> None:
        """`map(f, xs)`, `sorted(xs, key=f)`, `threading.Thread(target=f)`: a built-in that calls
        the function it is given (``LanguageSpec.calling_builtins``: name -> positions/keywords)."""
        calling = self.view.spec.calling_builtins
        if not calling:
            return
        refs = self.view.facts.references
        for ref_index, passed in self.view.facts.call_arguments:
            ref = refs[ref_index]
            slots = calling.get(ref.name)
            if slots is None:
                continue
            if self.resolver.resolve_reference(self.table.path, ref_index).status != "builtin":
                continue
            source = self.table.owner(defs, ref.container)
            positional = 0
            for keyword, token, splat in passed:
                if splat:
                    break
                if (keyword is None and positional in slots) or (keyword is not None and keyword in slots):
                    self._inferred_calls(source, self.flow.values(self.table.path, token), ref.line)
                positional += keyword is None

    def _inferred_calls(self, source: str, callees: list, line: int) -> None:
        for callee in callees:
            target = self._target(callee, constructor=True)
            if target is not None:
                self._edge(source, target, "CALLS", line, "inferred")

    def _read(self, i: int, ref, defs) -> None:
        resolution = self.resolver.resolve_reference(self.table.path, i)
        if resolution.status != "found" or resolution.target is None or resolution.target.is_module:
            return
        d = self.resolver.definition(resolution.target)
        accessor = d is not None and _is_accessor(d)
        if d is None or not (accessor or d.kind in CALLABLE_KINDS or d.kind in CLASS_KINDS):
            return
        target = self.graph.node_of(self.resolver, resolution.target)
        source = self.table.owner(defs, ref.container)
        if target is not None and target != source:
            # reading a getter (`order.total` of an `@property`, `cart.size` of `get size()`) runs it
            self._edge(source, target, "CALLS" if accessor else "REFERENCES", ref.line, resolution.kind)

    def _supertype(self, source: str, kind: str, token, d) -> None:
        if not isinstance(token, tuple) or len(token) != 2 or token[0] != "r":
            return
        resolution = self.resolver.resolve_reference(self.table.path, token[1])
        if resolution.status != "found" or resolution.target is None or resolution.target.is_module:
            return
        base = self.resolver.definition(resolution.target)
        if base is None or base.kind not in CLASS_KINDS:
            return
        target = self.graph.node_of(self.resolver, resolution.target)
        if target is not None:
            line = self.view.facts.references[token[1]].line
            self._edge(source, target, kind, line, resolution.kind)

    def _imports(self) -> None:
        facts = self.view.facts
        language = facts.language
        done: set[str] = set()
        for imp in facts.imports:
            module = imp.module.split(".")[0] if imp.kind == "dotted" else imp.module
            targets = self.resolver._modules(module, self.table.path, language)
            if not targets or targets[0].endswith("/"):
                continue
            target_path = targets[0]
            if target_path in done or target_path == self.table.path:
                continue
            done.add(target_path)
            target = self.graph.node_of(self.resolver, Symbol(target_path))
            if target is not None:
                self._edge(self.table.module_id, target, "IMPORTS", imp.line, "import")
