"""FileFacts persisted in SQLite, keyed by path and content hash.

One store per project root, under the user cache directory (never inside the repository).
The store is versioned by the indexer version, the grammar versions and a hash of every
``.scm`` file: any mismatch, or a file SQLite cannot read, discards the store and starts
empty — a cache is never trusted over the source.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sqlite3
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import CacheError
from ..facts import FileFacts

__all__ = ["Store", "FileRecord", "cache_root", "INDEXER_VERSION"]

INDEXER_VERSION = "1"


def cache_root() -> Path:
    explicit = os.environ.get("CODETRACE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jupyter_codetrace"


@dataclass(slots=True)
class FileRecord:
    path: str
    language: str
    size: int
    mtime_ns: int
    digest: str


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, language TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, digest TEXT NOT NULL, names BLOB NOT NULL, facts BLOB NOT NULL
);
"""


def encode(value) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)


def decode(blob: bytes):
    return pickle.loads(zlib.decompress(blob))


class Store:
    """The persisted index of one root. Not thread-safe: the owning ``Index`` serialises access."""

    def __init__(self, root: Path, version: str, directory: Path | None = None):
        directory = directory or cache_root()
        key = hashlib.sha1(str(root).encode()).hexdigest()[:16]
        self.path = directory / f"{root.name or 'root'}-{key}" / "index.sqlite"
        self.version = version
        self.root = str(root)
        self.discarded_reason: str | None = None
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = self._connect()
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
            root = db.execute("SELECT value FROM meta WHERE key = 'root'").fetchone()
            if row is None or row[0] != self.version or root is None or root[0] != self.root:
                if row is not None:
                    self.discarded_reason = "index built by another version"
                db.close()
                self._remove()
                db = self._connect()
                db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (self.version,))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('root', ?)", (self.root,))
                db.commit()
            return db
        except sqlite3.DatabaseError as error:
            self.discarded_reason = f"unreadable index discarded ({error})"
            self._remove()
            db = self._connect()
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (self.version,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('root', ?)", (self.root,))
            db.commit()
            return db

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level="DEFERRED")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(_SCHEMA)
        return db

    def _remove(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(f"{self.path}{suffix}")
            except FileNotFoundError:
                pass

    def records(self) -> list[tuple[FileRecord, bytes]]:
        """Every stored file with its names blob (the cross-file name index is built from these)."""
        try:
            rows = self._db.execute("SELECT path, language, size, mtime_ns, digest, names FROM files").fetchall()
        except sqlite3.DatabaseError as error:
            raise CacheError(str(error)) from error
        return [(FileRecord(*row[:5]), row[5]) for row in rows]

    def load(self, path: str) -> FileFacts | None:
        try:
            row = self._db.execute("SELECT facts FROM files WHERE path = ?", (path,)).fetchone()
            return FileFacts.from_rows(decode(row[0])) if row else None
        except (sqlite3.DatabaseError, zlib.error, pickle.UnpicklingError, EOFError, TypeError, ValueError) as error:
            raise CacheError(f"{path}: {error}") from error

    def save_many(self, items: list[tuple[FileRecord, bytes, bytes]]) -> None:
        """Store (record, names blob, facts blob) rows in one transaction."""
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(r.path, r.language, r.size, r.mtime_ns, r.digest, names, facts) for r, names, facts in items],
            )

    def touch(self, record: FileRecord) -> None:
        with self._db:
            self._db.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?",
                             (record.size, record.mtime_ns, record.path))

    def delete(self, paths: list[str]) -> None:
        with self._db:
            self._db.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in paths])

    def size_bytes(self) -> int:
        return sum(os.path.getsize(f"{self.path}{s}") for s in ("", "-wal") if os.path.exists(f"{self.path}{s}"))

    def close(self) -> None:
        try:
            self._db.close()
        except sqlite3.Error:
            pass
