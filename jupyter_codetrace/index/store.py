"""FileFacts persisted in SQLite, keyed by path and content hash.

One store per project root, under the user cache directory (never inside the repository).
The store is versioned by the indexer version, the grammar versions and a hash of every
``.scm`` file: any mismatch, or a file SQLite cannot read, discards the store and starts
empty — a cache is never trusted over the source. Each row carries checksums of its blobs
(with its path), verified on loading; an unusable cache directory gives an in-memory store.
Blobs hold data only (``encoding.py``: msgpack arrays of primitives), never pickles: loading a
cache file someone else wrote cannot run code.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from ..dataclass_code import dataclass
from ..errors import CacheError
from ..facts import FileFacts
from ..hashing import blake2b, sha1
from ..places import checked
from .encoding import DecodeError, decode, encode, gc_paused
from .side_store import empty_large_log, keep_inherited, renew_after_fork

__all__ = ["Store", "FileRecord", "cache_root", "INDEXER_VERSION", "encode", "decode"]

# 2: per-row checksums; CR line breaks, UTF-16/32 files and syntax-error recovery in reading
# and parsing (index/discover.py, index/parsing.py) changed what is extracted.
# 3: blobs in the data-only encoding (encoding.py) instead of pickles: older stores are discarded.
# 4: references no longer carry their expression's span (read by nothing after extraction).
# 5: a file's references are one encoded array inside its blob (decoded when first read).
# 7: a summary's name sets are a blob of their own inside its names blob (decoded when first read).
# 8: the names a file uses are no longer compressed (a lookup by name searches them as written).
# 9: each file's places (places.py) in a column of their own; the large blobs last in a row.
# 10: a summary's counts and warnings in a small column of their own (``head``): a start reads
#     those alone, the names when first asked for (``names``).
# 11: an index holding what a start reads of each row (``heads``): its pages alone are read.
# 12: a summary's roles hold the names of its definitions that are call graph nodes.
INDEXER_VERSION = "12"


def cache_root() -> Path:
    """$CODETRACE_CACHE_DIR, else the platform's cache folder for the user: ~/.cache/jupyter_codetrace
    on Linux ($XDG_CACHE_HOME honoured), ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows."""
    explicit = os.environ.get("CODETRACE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("jupyter_codetrace", appauthor=False))


@dataclass(slots=True)
class FileRecord:
    """A stored file's identity: path, language, size, modification time and content digest."""

    path: str
    language: str
    size: int
    mtime_ns: int
    digest: str


_BUSY_WAIT_S = 30   # how long a statement waits for another process's write to end

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, language TEXT NOT NULL, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, digest TEXT NOT NULL, head BLOB NOT NULL, head_sum BLOB NOT NULL,
    names_sum BLOB NOT NULL, facts_sum BLOB NOT NULL, places_sum BLOB NOT NULL,
    names BLOB NOT NULL, places BLOB NOT NULL, facts BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS heads ON files (path, language, size, mtime_ns, digest, head, head_sum);
"""


def checksum(path: str, language: str, digest: str, blob: bytes) -> bytes:
    """What a row's blob is checked against on loading: its file's path, language and content
    digest with the blob, so a blob stored under another file's name does not pass."""
    h = blake2b(digest_size=12)
    h.update(f"{path}\0{language}\0{digest}\0".encode())
    h.update(blob)
    return h.digest()


class Store:
    """The persisted index of one root. Not thread-safe: the owning ``Index`` serialises access.

    Nothing in it is trusted over the source: a store of another version or root, or one SQLite
    cannot read, is discarded; every row carries a checksum of its blobs (with its path), and a
    row that fails it is dropped (``records``) or refused (``load``) so that its file is indexed
    again. Where the cache directory cannot be used (not writable, a regular file, ``index.sqlite``
    a folder), an in-memory store is used instead — a copy of the cache file when that file is
    readable and valid — with one warning. Opening, creating and discarding a store file happen
    under a lock file, so concurrent indexers of one root never see it half made.

    What was discarded or fell back is said once: :meth:`take_notes`.
    """

    def __init__(self, root: Path, version: str, directory: Path | None = None):
        directory = directory or cache_root()
        key = sha1(str(root).encode()).hexdigest()[:16]
        self.path = directory / f"{root.name or 'root'}-{key}" / "index.sqlite"
        self.version = version
        self.root = str(root)
        self.in_memory = False
        self.notes: list[str] = []
        self.discarded_reason: str | None = None
        self._connection: sqlite3.Connection | None = None
        try:
            self._db = self._open()
        except (OSError, sqlite3.Error) as error:
            self._db = self._memory(error)
        renew_after_fork(self)

    @property
    def _db(self) -> sqlite3.Connection:
        if self._connection is None:   # in a forked process (_after_fork)
            self._connection = self._connect(str(self.path))
        return self._connection

    @_db.setter
    def _db(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def _after_fork(self) -> None:
        # A forked process (the graph's build, graph/build.py) reads through a connection of its
        # own; an in-memory store's database is in the copied memory and stays usable.
        if not self.in_memory:
            keep_inherited(self._connection)
            self._connection = None

    # ------------------------------------------------------------------ opening
    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_dir():
            raise IsADirectoryError(f"{self.path} is a directory")
        with self._locked():
            db = None
            try:
                db = self._connect(str(self.path))
                version, root = self._meta(db)
                if version != self.version or root != self.root:
                    if version is not None:
                        self._note("index built by another version discarded" if root == self.root
                                   else "index of another root discarded")
                    elif self._has_rows(db):
                        self._note("index without its version record discarded")
                    self._initialise(db)
                return db
            except sqlite3.DatabaseError as error:
                if db is not None:
                    db.close()
                if isinstance(error, sqlite3.OperationalError) and not self._damaged(error):
                    raise   # cannot open or write (permissions, a full disk): not the file's fault
                self._note(f"unreadable index discarded ({error})")
                self._remove()
                db = self._connect(str(self.path))
                self._initialise(db)
                return db

    @staticmethod
    def _damaged(error: sqlite3.Error) -> bool:
        text = str(error).lower()
        return any(s in text for s in ("malformed", "not a database", "no such table", "no such column",
                                       "has no column", "corrupt", "file is encrypted"))

    def _connect(self, target: str, **options) -> sqlite3.Connection:
        db = sqlite3.connect(target, timeout=_BUSY_WAIT_S, check_same_thread=False, isolation_level="DEFERRED", **options)
        if target != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        return db

    @staticmethod
    def _has_rows(db: sqlite3.Connection) -> bool:
        try:
            return db.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None
        except sqlite3.OperationalError:
            return False

    @staticmethod
    def _meta(db: sqlite3.Connection) -> tuple[str | None, str | None]:
        try:
            rows = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('version', 'root')").fetchall())
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):
                return None, None
            raise
        return rows.get("version"), rows.get("root")

    def _initialise(self, db: sqlite3.Connection) -> None:
        """Empty tables of this version, made in one transaction (a reader sees all or nothing)."""
        db.isolation_level = None
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("DROP TABLE IF EXISTS files")
                db.execute("DROP TABLE IF EXISTS meta")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany("INSERT INTO meta VALUES (?, ?)", [("version", self.version), ("root", self.root)])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        finally:
            db.isolation_level = "DEFERRED"

    @contextlib.contextmanager
    def _locked(self):
        """An exclusive lock file beside the store (POSIX ``flock``; elsewhere, no lock)."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield
            return
        with open(self.path.parent / "index.lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _memory(self, error: BaseException) -> sqlite3.Connection:
        """An in-memory store: a copy of the cache file when it is readable and valid, else empty."""
        self.in_memory = True
        db = self._connect(":memory:")
        copied = False
        try:
            if self.path.is_file():
                source = sqlite3.connect(f"{self.path.as_uri()}?mode=ro&immutable=1", uri=True)
                try:
                    if self._meta(source) == (self.version, self.root):
                        source.backup(db)
                        copied = True
                finally:
                    source.close()
        except (OSError, sqlite3.Error, ValueError):
            copied = False
        if not copied:
            self._initialise(db)
        reason = getattr(error, "strerror", None) or str(error)
        message = (f"cache {self.path} unusable ({type(error).__name__}: {reason}): using an in-memory index"
                   + (" (copied from the read-only cache)" if copied else "") + " for this session")
        import logging   # here: a store that is discarded is rare, and logging costs ~5 ms of a start

        logging.getLogger("jupyter_codetrace").warning("jupyter_codetrace: %s", message)
        self._note(message)
        return db

    def _note(self, message: str) -> None:
        self.notes.append(message)
        if self.discarded_reason is None:
            self.discarded_reason = message

    def take_notes(self) -> str | None:
        """What was discarded or fell back since the last call (said once), or None."""
        notes, self.notes = self.notes, []
        return "; ".join(dict.fromkeys(notes)) if notes else None

    def reset(self, reason: str) -> None:
        """Discard every row (the store failed while in use): start again empty."""
        self._note(reason)
        self.close()
        if self.in_memory:
            self._db = self._connect(":memory:")
            self._initialise(self._db)
            return
        try:
            with self._locked():
                self._remove()
                self._db = self._connect(str(self.path))
                self._initialise(self._db)
        except (OSError, sqlite3.Error) as error:
            self._db = self._memory(error)

    def _remove(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(f"{self.path}{suffix}")
            except FileNotFoundError:
                pass

    # ------------------------------------------------------------------ rows
    def records(self) -> list[tuple[FileRecord, bytes]]:
        """Every stored file with its head blob (counts and warnings: its summary without the
        names, which ``names`` reads). Rows failing their checksum are deleted and left out: their
        files are indexed again."""
        good, bad = [], []
        # SQLite reads these from the index `heads` alone (a row's other columns are kilobytes: a
        # scan of the table reads the first pages of every blob, 16 ms for the stdlib; 11 ms)
        for row in self._rows("SELECT path, language, size, mtime_ns, digest, head, head_sum FROM files"):
            record = FileRecord(*row[:5])
            if isinstance(row[5], bytes) and checksum(record.path, record.language, record.digest, row[5]) == row[6]:
                good.append((record, row[5]))
            else:
                bad.append(str(row[0]))
        if bad:
            self._note(_dropped(bad))
            self.delete(bad)
        return good

    def names(self, path: str | None = None) -> tuple[dict[str, tuple[str, bytes]], dict[str, str]]:
        """path -> (content digest, names blob) of every stored file (or of ``path``) whose blob
        passes its checksum, and path -> content digest of those that do not (said once, like
        ``records``; the caller mends them)."""
        where, parameters = (" WHERE path = ?", (path,)) if path is not None else ("", ())
        good, bad = {}, {}
        for path, language, digest, blob, expected in self._rows(
                "SELECT path, language, digest, names, names_sum FROM files" + where, parameters):
            if isinstance(blob, bytes) and checksum(path, language, digest, blob) == expected:
                good[path] = (digest, blob)
            else:
                bad[str(path)] = digest
        if bad:
            self._note(_dropped(list(bad)))
        return good, bad

    def save_names(self, path: str, language: str, digest: str, names: bytes) -> None:
        """Replace a row's names blob (one found damaged, rebuilt from the file's facts)."""
        self._write("UPDATE files SET names = ?, names_sum = ? WHERE path = ? AND digest = ?",
                    [(names, checksum(path, language, digest, names), path, digest)])

    def _rows(self, statement: str, parameters: tuple = ()) -> list[tuple]:
        try:
            return self._db.execute(statement, parameters).fetchall()
        except sqlite3.DatabaseError as error:
            raise CacheError(str(error)) from error

    def load(self, path: str) -> FileFacts | None:
        return self._read(path, "facts", FileFacts.from_rows)

    def places(self, path: str) -> tuple[tuple, frozenset] | None:
        """The stored file's places, checked (``places.checked``; None when it is not stored):
        where it defines each name, without its facts."""
        return self._read(path, "places", checked)

    def _read(self, path: str, column: str, read):
        """``read`` of the file's stored ``column`` (facts or places), checked: its checksum,
        then its shape."""
        try:
            row = self._db.execute(f"SELECT language, digest, {column}, {column}_sum FROM files WHERE path = ?",
                                   (path,)).fetchone()
            if row is None:
                return None
            language, digest, blob, expected = row
            if not isinstance(blob, bytes) or checksum(path, language, digest, blob) != expected:
                self._note(_dropped([path]))
                raise CacheError(f"{path}: checksum mismatch")
            with gc_paused():   # a file's facts are ~10^4 acyclic objects: no collection is due
                value = decode(blob)
                if column == "facts" and value[0] != path:
                    raise CacheError(f"{path}: facts of {value[0]}")
                return read(value)
        except sqlite3.DatabaseError as error:
            raise CacheError(f"{path}: {error}") from error
        except (DecodeError, TypeError, ValueError, AttributeError, IndexError) as error:
            # data of the wrong shape (damaged, foreign or hostile) under a valid checksum
            self._note(f"cached {column} of {path} could not be read ({str(error)[:200]}) and were indexed again")
            raise CacheError(f"{path}: {error}") from error

    def save_many(self, items: list[tuple[FileRecord, bytes, bytes, bytes, bytes]]) -> None:
        """Store (record, head blob, names blob, facts blob, places blob) rows in one transaction."""
        # The large blobs last: reading the heads (every start) never walks past their pages.
        self._write("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r.path, r.language, r.size, r.mtime_ns, r.digest, head,
                      checksum(r.path, r.language, r.digest, head), checksum(r.path, r.language, r.digest, names),
                      checksum(r.path, r.language, r.digest, facts), checksum(r.path, r.language, r.digest, places),
                      names, places, facts)
                     for r, head, names, facts, places in items])

    def touch(self, record: FileRecord) -> None:
        self._write("UPDATE files SET size = ?, mtime_ns = ? WHERE path = ?",
                    [(record.size, record.mtime_ns, record.path)])

    def delete(self, paths: list[str]) -> None:
        self._write("DELETE FROM files WHERE path = ?", [(p,) for p in paths])

    def _write(self, statement: str, rows: list[tuple]) -> None:
        try:
            with self._db:
                self._db.executemany(statement, rows)
        except sqlite3.DatabaseError as error:
            raise CacheError(str(error)) from error
        if not self.in_memory:
            empty_large_log(self._db, str(self.path), _BUSY_WAIT_S)

    def size_bytes(self) -> int:
        if self.in_memory:
            return 0
        return sum(os.path.getsize(f"{self.path}{s}") for s in ("", "-wal") if os.path.exists(f"{self.path}{s}"))

    def close(self) -> None:
        try:
            if self._connection is not None:
                self._connection.close()
        except sqlite3.Error:
            pass


def _dropped(paths: list[str]) -> str:
    shown = ", ".join(sorted(paths)[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    return f"{len(paths)} cached row{'s' if len(paths) != 1 else ''} failed their checksum and were indexed again: {shown}"
