"""Facts of library files, persisted for every project of this machine (issue 21: parse a library
module once, then keep it by path, size and mtime, apart from the projects' own facts).

One SQLite file, ``<cache root>/libraries/facts.sqlite``. A row is one library file as one
interpreter's import path names it (the engine path ``::py1/json/__init__.py`` depends on the
order of ``sys.path``, so it is part of the key), with the file's size and mtime when it was
parsed and its facts in the data-only encoding. Like the project store, nothing in it is trusted
over the source: a row whose file changed, or whose checksum fails, is parsed again; a store of
another engine version is emptied; and when the cache cannot be used at all, library files are
simply parsed in each process (no error, no warning: it is only a cache).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..facts import FileFacts
from ..hashing import blake2b
from .encoding import DecodeError, decode, encode, gc_paused
from .side_store import SideStore

__all__ = ["LibraryStore"]

def _checksum(absolute: str, path: str, size: int, mtime_ns: int, blob: bytes) -> bytes:
    h = blake2b(digest_size=12)
    h.update(f"{absolute}\0{path}\0{size}\0{mtime_ns}\0".encode())
    h.update(blob)
    return h.digest()


class LibraryStore(SideStore):
    TABLE = "facts"
    COLUMNS = ("absolute TEXT NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
               "blob BLOB NOT NULL, sum BLOB NOT NULL, PRIMARY KEY (absolute, path)")

    def __init__(self, directory: Path, version):
        super().__init__(directory / "libraries" / "facts.sqlite", version)

    def load(self, absolute: str, path: str, size: int, mtime_ns: int) -> FileFacts | None:
        with self._lock:
            db = self.connection()
            if db is None:
                return None
            try:
                row = db.execute("SELECT size, mtime_ns, blob, sum FROM facts WHERE absolute = ? AND path = ?",
                                 (absolute, path)).fetchone()
            except sqlite3.Error:
                return None
        if row is None or (row[0], row[1]) != (size, mtime_ns) or not isinstance(row[2], bytes) \
                or _checksum(absolute, path, size, mtime_ns, row[2]) != row[3]:
            return None
        try:
            with gc_paused():
                facts = FileFacts.from_rows(decode(row[2]))
        except (DecodeError, TypeError, ValueError, AttributeError, IndexError):
            return None
        return facts if facts.path == path else None

    def save(self, absolute: str, path: str, size: int, mtime_ns: int, facts: FileFacts) -> None:
        blob = encode(facts.to_rows())
        with self._lock:
            db = self.connection()
            if db is None:
                return
            try:
                db.execute("INSERT OR REPLACE INTO facts VALUES (?, ?, ?, ?, ?, ?)",
                           (absolute, path, size, mtime_ns, blob, _checksum(absolute, path, size, mtime_ns, blob)))
            except sqlite3.Error:
                pass
