"""A SQLite cache file beside the index that only saves time: opened on first use, emptied when
the engine version it was written by differs, and given up silently when it cannot be used (the
work is then done in each process). Shared by the library facts store and the graph's parts."""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
import weakref
from pathlib import Path

from ..hashing import blake2b

__all__ = ["SideStore", "interpreter_file", "renew_after_fork"]

# Connections a forked process inherited: never used there (SQLite's locks belong to the process
# that took them) and never closed (closing could checkpoint or unlink the parent's WAL files).
_INHERITED: list = []
_FORKABLE: "weakref.WeakSet" = weakref.WeakSet()


def renew_after_fork(owner) -> None:
    """Have ``owner._after_fork()`` called in every forked child (the graph's build,
    graph/build.py; an index worker): it lets go of the connections and locks it inherited."""
    _FORKABLE.add(owner)


def _after_fork_in_child() -> None:
    for owner in list(_FORKABLE):
        owner._after_fork()


def keep_inherited(connection) -> None:
    if connection is not None:
        _INHERITED.append(connection)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


# A file written beside a store and renamed over its own (graph/persist.py's snapshot) that is
# still there after this long was left by a process stopped while writing it.
_LEFT_BEHIND_S = 3600

# Files of other interpreters kept beside the project's index (a kernel's, the server's, the CLI's
# venv: each answers into its own libraries); the least recently used beyond these are deleted.
_KEEP_STORES = 4


# A write-ahead log past this size is emptied after the write that made it (empty_large_log):
# SQLite's own checkpoints keep a log that saves grow at about 4 MB (1,000 pages), which it reuses
# from the start; a first index or a graph snapshot writes one many times that size.
_LARGE_LOG = 8 << 20
_LOG_WAIT_MS = 50
_SIDE_BUSY_WAIT_S = 10


def empty_large_log(db: sqlite3.Connection, database: str, busy_timeout_s: float) -> None:
    """Copy a large write-ahead log into the database file and empty it. A process that opens a
    database no other process has open reads its whole log first, and the log stays as large as
    the largest write until a connection closes cleanly — which a script, a kernel or a server
    exiting without ``close()`` never does: after a first index of the stdlib, 32 MB read by
    every later start (~30 ms; 4x that at 4x the code). Skipped, not waited for, while another
    process reads (emptying the log waits for its readers); the next large write tries again."""
    try:
        if os.path.getsize(f"{database}-wal") < _LARGE_LOG:
            return
    except OSError:
        return
    try:
        db.execute(f"PRAGMA busy_timeout = {_LOG_WAIT_MS}")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.Error:
        pass   # busy, or a failing disk: a later write, or a clean close, empties it
    finally:
        try:
            db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        except sqlite3.Error:
            pass


def interpreter_file(index, libraries, kind: str) -> Path | None:
    """``{kind}-{environment}.sqlite`` beside ``index``'s facts, for the interpreter ``libraries``
    imports with (None for an index without a store file). One file per interpreter, so that
    processes of different interpreters on one project do not empty each other's: what is kept
    there (the graph, answers) reaches into that interpreter's libraries."""
    store = getattr(index, "store", None)
    path = getattr(store, "path", None)
    if path is None or getattr(store, "in_memory", False):
        return None
    roots = ";".join(f"{r.kind}:{r.path}" for r in libraries.python_roots()) if libraries is not None else ""
    environment = blake2b(f"{sys.version}|{roots}".encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
    folder = Path(path).parent
    file = folder / f"{kind}-{environment}.sqlite"
    _forget_old_files(folder, kind, file)
    try:
        os.utime(file)   # used now: the last one to be forgotten
    except OSError:
        pass
    return file


def _forget_old_files(folder: Path, kind: str, keep: Path) -> None:
    try:
        (folder / f"{kind}.sqlite").unlink(missing_ok=True)   # the one-file layout of earlier versions
        others = sorted((p for p in folder.glob(f"{kind}-*.sqlite") if p != keep),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[_KEEP_STORES - 1:]:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{old}{suffix}").unlink(missing_ok=True)
            old.with_suffix(".snapshot").unlink(missing_ok=True)   # what a store keeps beside it
        # what a process stopped while it wrote (a file is written beside, then renamed)
        for left in folder.glob(f"{kind}-*.tmp"):
            if left.stat().st_mtime < time.time() - _LEFT_BEHIND_S:
                left.unlink(missing_ok=True)
    except OSError:
        pass


class SideStore:
    """Subclasses name their ``TABLE`` and its ``COLUMNS`` (the SQL after the table name)."""

    TABLE = ""
    COLUMNS = ""
    MORE_TABLES: tuple[tuple[str, str], ...] = ()   # (name, columns) kept and emptied with TABLE
    DROPPED_TABLES: tuple[str, ...] = ()            # tables of earlier versions, dropped when found

    def __init__(self, file: Path, version):
        """``version``: the engine's version, or a function that gives it (asked on first use)."""
        self.file = file
        self._version = version
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._failed = False
        renew_after_fork(self)

    def _after_fork(self) -> None:
        # another thread may have held the lock at the fork: it would never be released here
        self._lock = threading.Lock()
        keep_inherited(self._db)
        self._db = None   # opened again on first use

    def connection(self) -> sqlite3.Connection | None:
        """The open database, or None when the cache cannot be used. Call with ``_lock`` held.
        A file that is not a database (damaged, or something else's) is replaced by a new one."""
        if self._db is not None or self._failed:
            return self._db
        try:
            self._db = self._open()
        except sqlite3.OperationalError:   # locked past the timeout, unwritable, …: given up
            self._failed = True
        except sqlite3.DatabaseError:      # "file is not a database", "malformed"
            try:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{self.file}{suffix}").unlink(missing_ok=True)
                self._db = self._open()
            except (OSError, sqlite3.Error):
                self._failed = True
        except OSError:
            self._failed = True
        return self._db

    def _open(self) -> sqlite3.Connection:
        self.file.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(self.file), timeout=_SIDE_BUSY_WAIT_S, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            # a cache: a commit need not reach the disk before the answer (in WAL mode the file
            # stays whole after a crash; a lost row is made again). Each save's fsync was 50-90 ms.
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("BEGIN IMMEDIATE")  # one process makes or empties the tables at a time
        except BaseException:
            db.close()
            raise
        try:
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            for table in self.DROPPED_TABLES:
                db.execute(f"DROP TABLE IF EXISTS {table}")
            tables = ((self.TABLE, self.COLUMNS),) + self.MORE_TABLES
            for table, columns in tables:
                db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({columns})")
            version = self._version() if callable(self._version) else self._version
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
            if row is None or row[0] != version:
                for table, _columns in tables:
                    db.execute(f"DELETE FROM {table}")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (version,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            db.close()
            raise
        return db

    def read(self, sql: str, parameters: tuple = ()) -> list | None:
        """The rows of one query; None when the store cannot be used or the query failed."""
        with self._lock:
            db = self.connection()
            if db is None:
                return None
            try:
                return db.execute(sql, parameters).fetchall()
            except sqlite3.Error:
                return None

    def close(self) -> None:
        """Let go of the file (opened again on next use). Not left to the collector: a connection
        is in a cycle with its statement cache, never freed once gc.freeze() took it."""
        with self._lock:
            db, self._db = self._db, None
            if db is not None:
                try:
                    db.close()
                except sqlite3.Error:
                    pass

    def write(self, work) -> bool:
        """``work(db)`` in one write transaction; False when the store cannot be used or the
        write failed (a cache: nothing is lost but time)."""
        with self._lock:
            db = self.connection()
            if db is None:
                return False
            try:
                with db:
                    db.execute("BEGIN")
                    work(db)
            except sqlite3.Error:
                return False
            empty_large_log(db, str(self.file), _SIDE_BUSY_WAIT_S)
        return True
