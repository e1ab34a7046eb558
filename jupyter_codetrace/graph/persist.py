"""The graph's per-file parts, kept beside the project's index so that a new process (a restart, a
CLI call, a kernel) answers its first graph question without resolving every reference again.

What is stored is each file's ``FileGraph`` — its nodes, the edges whose sites it holds, what its
resolutions read, its names and interface hash — with the content digest of the file it was made
from, in the data-only encoding of the facts cache. A new process loads the parts whose digest
is the file's digest now; ``CodeGraph.update`` then redoes, as within one process, the files that
changed since and every file whose resolutions read them.

Beside the parts, one snapshot of the whole graph (``CompactGraph.snapshot``: flat integer
arrays; a file of its own beside the database, headed by the engine version) with the digests of
the files it was made from: a new process whose files are unchanged reads it and answers at once,
without decoding a part; one whose files changed reads it and what the changed files named when
their parts were made (``used_names``), then redoes what each part's reads say a change reaches, as
within one process. The snapshot is written after a build of many files, else when the project
closes or the process ends.

A part is only as good as the engine that made it: the store is keyed by a version that hashes
the engine's resolution, graph and language code and the interpreter's import path (answers
into libraries depend on it). Nothing in it is trusted over the source: a row that fails its
checksum or decoding is ignored (that file is built again); when the store cannot be opened or
written, the graph is simply built in each process.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import struct
import zlib
from pathlib import Path

from ..hashing import blake2b
from ..index.encoding import DecodeError, decode, encode, encode_chunks, gc_paused
from ..index.side_store import SideStore, interpreter_file

__all__ = ["GraphStore", "engine_version"]

_PACKAGE = Path(__file__).resolve().parent.parent
# Code whose change can change a file's graph part.
_ENGINE_SOURCES = ("graph", "resolve", "languages", "nesting.py", "facts.py", "index/extract.py",
                   "index/encoding.py", "queries/definition.py")


def engine_version(extra: str = "") -> str:
    """A hash of the code that makes graph parts (and ``extra``); computed once per process."""
    return _engine_version(extra)


@functools.lru_cache(maxsize=None)
def _engine_version(extra: str) -> str:
    digest = blake2b(digest_size=12)
    for name in _ENGINE_SOURCES:
        path = _PACKAGE / name
        files = sorted(path.rglob("*")) if path.is_dir() else [path]
        for file in files:
            if file.suffix in (".py", ".scm") and file.is_file():
                digest.update(file.relative_to(_PACKAGE).as_posix().encode())
                digest.update(file.read_bytes())
    digest.update(extra.encode())
    return digest.hexdigest()


# What ends a snapshot file: the CRC-32 of what its head is followed by, and that length. A CRC
# (at ~1 GB/s; blake2b took 0.08 s of a restart): what it guards against is a damaged or torn
# file, not a forged one.
_SEAL = struct.Struct(">IQ")


def _checksum(path: str, digest: str, blob: bytes) -> bytes:
    h = blake2b(digest_size=12)
    h.update(f"{path}\0{digest}\0".encode())
    h.update(blob)
    return h.digest()


def _pairs(mapping: dict) -> tuple:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in mapping.items())


def part_to_rows(fg) -> tuple:
    return (fg.path, fg.module, tuple((node, _pairs(attrs)) for node, attrs in fg.nodes.items()),
            tuple(fg.edges),
            tuple((node, tuple(calls)) for node, calls in fg.external_calls.items()),
            tuple(sorted(fg.read)), tuple(sorted(fg.names)), fg.interface)


def part_from_rows(rows, cls):
    path, module, nodes, edges, calls, read, names, interface = rows
    if not (isinstance(path, str) and isinstance(module, str) and type(interface) is tuple and len(interface) == 4
            and all(type(n) is int for n in interface)):
        raise DecodeError("not a graph part")
    return cls(path, module, {node: dict(attrs) for node, attrs in nodes},
               list(edges),
               {node: list(c) for node, c in calls}, frozenset(read), frozenset(names), interface)


class GraphStore(SideStore):
    TABLE = "parts"
    COLUMNS = "path TEXT PRIMARY KEY, digest TEXT NOT NULL, blob BLOB NOT NULL, sum BLOB NOT NULL"
    # The names each file used when its part was made (a blob of sorted names, at that digest): a
    # new process finds a file changed since and needs what it named then, as an update within one
    # process has it from the index (graph/build.py ``_update``), to redo only the files a change
    # can reach: without them, every reader of every name the file names was redone (a function
    # appended to argparse.py: 108 files, 22 s, where one process redoes 1).
    MORE_TABLES = (("used_names", "path TEXT PRIMARY KEY, digest TEXT NOT NULL, blob BLOB NOT NULL, sum BLOB NOT NULL"),)
    # the snapshot as rows of earlier versions: one blob, then pieces of ~1 MB (now a file of its own)
    DROPPED_TABLES = ("snapshot", "snapshot_pieces")

    @property
    def snapshot_file(self) -> Path:
        """The snapshot of the whole graph: a file beside the database (``graph-….snapshot``),
        read with one call. As ~1 MB rows of the database it was a walk of overflow pages, then
        a copy of each into one buffer: the stdlib's 32 MB took 0.18-0.27 s to load, 0.10-0.15 s
        now (its decoding included). Written to a file of its own, then renamed over it: a
        reader finds the old snapshot or the new one, whole."""
        return self.file.with_suffix(".snapshot")

    def has_snapshot(self) -> bool:
        """Whether a snapshot is kept (whether it is whole and of this engine, loading tells)."""
        return self.snapshot_file.is_file()

    def share_file(self, tag: str) -> Path:
        """Where a child sharing a build keeps its share's snapshot until the last child merges
        them (graph/build.py ``_built_in_shares``); a ``.tmp`` file, so that one a stopped process
        left goes once old (``_forget_old_files``)."""
        return self.snapshot_file.with_name(f"{self.snapshot_file.name}.{tag}.tmp")

    def load_snapshot(self, path: Path | None = None):
        """The whole graph as ``CodeGraph.write_snapshot`` left it (primitives), or None when
        there is none, or it is of another engine version, torn or damaged. (``path``: a share's.)"""
        try:
            with open(path or self.snapshot_file, "rb") as file:
                blob = file.read()   # (one read into a buffer of the file's size, not zeroed first)
        except (OSError, MemoryError):
            return None
        size = len(blob)
        head = self._snapshot_head()
        if size < len(head) + _SEAL.size or blob[:len(head)] != head:
            return None
        body = memoryview(blob)[len(head):size - _SEAL.size]
        if _SEAL.unpack_from(blob, size - _SEAL.size) != (zlib.crc32(body), len(body)):
            return None
        try:
            with gc_paused():
                return decode(body, compressed=False)
        except DecodeError:
            return None
        finally:
            body.release()

    def save_snapshot(self, data, path: Path | None = None) -> bool:
        """Keep ``data`` as the snapshot (False when it could not be written: a cache)."""
        file = path or self.snapshot_file
        temporary = file.with_name(f"{file.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            # (the umask decides its mode, as for the database beside it)
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except OSError:
            return False
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(self._snapshot_head())
                crc, length = 0, 0
                for piece in encode_chunks(data, depth=4):   # made as written: never one buffer
                    out.write(piece)
                    crc, length = zlib.crc32(piece, crc), length + len(piece)
                out.write(_SEAL.pack(crc, length))
            os.replace(temporary, file)
            return True
        except OSError:
            return False
        finally:
            try:
                os.unlink(temporary)   # (renamed already when it was written)
            except OSError:
                pass

    def _snapshot_head(self) -> bytes:
        version = self._version() if callable(self._version) else self._version
        return b"codetrace graph snapshot " + version.encode() + b"\n"

    def load(self, cls) -> list[tuple[object, str]]:
        """Every stored part with the digest of the file it was made from (files changed or gone
        since included: the graph updates from them as an earlier process would have)."""
        # in the order of the files' paths, as a build adds them: the graph's lists (a node's
        # neighbours, in the order their first edge was added) come out as a build's, whatever
        # order the parts were written in (children sharing a build write theirs side by side)
        rows = self.read("SELECT path, digest, blob, sum FROM parts ORDER BY path") or []
        parts = []
        with gc_paused():
            for path, digest, blob, expected in rows:
                if not isinstance(blob, bytes) or not isinstance(digest, str) \
                        or _checksum(path, digest, blob) != expected:
                    continue
                try:
                    fg = part_from_rows(decode(blob), cls)
                except (DecodeError, TypeError, ValueError):
                    continue
                if fg.path == path:
                    parts.append((fg, digest))
        return parts

    def save(self, parts: list, digests: dict[str, str], gone: list[str],
             used: dict[str, bytes] | None = None) -> bool:
        """Store ``parts`` (made from files at ``digests``) with the names each file uses (``used``:
        path -> the blob of its sorted names, ``_Summary.used_blob``; a part without one has its old row dropped) and
        forget the parts of ``gone`` files. False when they could not be written (a cache)."""
        rows, named = [], []
        used = used or {}
        for fg in parts:
            digest = digests.get(fg.path)
            if digest is None:
                continue
            blob = encode(part_to_rows(fg))
            rows.append((fg.path, digest, blob, _checksum(fg.path, digest, blob)))
            names = used.get(fg.path)
            if names is not None:
                named.append((fg.path, digest, names, _checksum(fg.path, digest, names)))
        unnamed = [(fg.path,) for fg in parts if fg.path not in used] + [(p,) for p in gone]

        def work(db) -> None:
            db.executemany("DELETE FROM parts WHERE path = ?", [(p,) for p in gone])
            db.executemany("INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?)", rows)
            db.executemany("DELETE FROM used_names WHERE path = ?", unnamed)
            db.executemany("INSERT OR REPLACE INTO used_names VALUES (?, ?, ?, ?)", named)

        return self.write(work)

    def used_names(self, digests: dict[str, str]) -> dict[str, frozenset[str]]:
        """path -> the names the file used when its part was made, for each of ``digests`` (path ->
        the digest of that part's file) stored at that digest and whole; the others are left out."""
        found = {}
        paths = list(digests)
        for at in range(0, len(paths), 500):   # (SQLite's bound on a statement's parameters)
            chunk = paths[at:at + 500]
            rows = self.read(f"SELECT path, digest, blob, sum FROM used_names WHERE path IN ({','.join('?' * len(chunk))})",
                             tuple(chunk)) or []
            for path, digest, blob, expected in rows:
                if digest != digests.get(path) or not isinstance(blob, bytes) or _checksum(path, digest, blob) != expected:
                    continue
                try:
                    names = decode(blob, compressed=False)
                except DecodeError:
                    continue
                if type(names) is tuple and all(type(n) is str for n in names):
                    found[path] = frozenset(names)
        return found



def store_for(index, libraries) -> GraphStore | None:
    """The graph store beside ``index``'s facts for the interpreter ``libraries`` imports with
    (None for an index without a store file): one file per interpreter (``interpreter_file``)."""
    file = interpreter_file(index, libraries, "graph")
    return GraphStore(file, engine_version) if file is not None else None
