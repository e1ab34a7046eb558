"""Answers kept across index generations and processes, each with what it was worked out from.

A find_references answer for a popular name resolves every use of it in hundreds of files
(`assertEqual`: 34,000 uses in 700 files, seconds). Such an answer is stored with what it read:
the content digest of every file its resolutions looked into, the project's file listing (a file
added or removed can change where any import leads), and for each name it looked up across the
project, the files that define or use that name with their digests. Asked again — after an edit
elsewhere, or in a later process (a restart, a CLI call, a kernel) — it is served while all of
that is unchanged, and worked out again otherwise. An answer that met a module found nowhere
("*missing") also depends on the folders packages are installed in (an installed package may
provide it since).

The rows live beside the index, one file per interpreter (``interpreter_file``), emptied when
the code that makes answers changes (``answers_version``); a row that fails its checksum or
decoding, or whose key is not the one asked, is ignored. Nothing here is trusted over the source.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

from ..graph.persist import engine_version
from ..hashing import blake2b
from ..index.encoding import DecodeError, decode, encode
from ..index.side_store import SideStore, interpreter_file

__all__ = ["AnswerStore", "Dependencies", "answers_version", "dependencies_of", "still_holds"]

_PACKAGE = Path(__file__).resolve().parent.parent
# Code besides the resolver's (engine_version) whose change can change a kept answer.
_ANSWER_SOURCES = ("queries/references.py", "queries/definition.py", "queries/context.py",
                   "queries/kept_answers.py", "results.py")
_KEPT_ROWS = 2000   # answers kept per store; the least recently stored beyond go


@functools.lru_cache(maxsize=None)
def answers_version() -> str:
    """The store's version: the resolver's and the answers' code (a change of either empties it)."""
    digest = blake2b(digest_size=12)
    for name in _ANSWER_SOURCES:
        digest.update(name.encode())
        digest.update((_PACKAGE / name).read_bytes())
    return engine_version(f"answers:{digest.hexdigest()}")


class Dependencies:
    """What an answer was worked out from, as the index said then."""

    __slots__ = ("listing", "project", "files", "names", "libraries")

    def __init__(self, listing: str, project: str, files: tuple, names: tuple, libraries: str | None):
        # when ``project`` (every project file with its content: project_digest) is as it was,
        # so is everything of the project read below (a restart's common case)
        self.listing = listing   # the project's file listing (listing_digest)
        self.project = project
        self.files = files       # ((path, content digest or None), ...) of every file read
        self.names = names       # ((name, names_digest), ...) of every name looked up project-wide
        self.libraries = libraries   # libraries_digest when a module was found nowhere, else None

    def to_rows(self) -> tuple:
        return self.listing, self.project, self.files, self.names, self.libraries

    @classmethod
    def from_rows(cls, rows) -> "Dependencies":
        listing, project, files, names, libraries = rows
        if type(listing) is not str or type(project) is not str \
                or not all(type(p) is str and (d is None or type(d) is str) for p, d in files) \
                or not all(type(n) is str and type(h) is str for n, h in names) \
                or not (libraries is None or type(libraries) is str):
            raise TypeError("dependencies of another shape")
        return cls(listing, project, files, names, libraries)


def _digest(parts) -> str:
    digest = blake2b(digest_size=12)
    for part in parts:
        digest.update(f"{part}\0".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _per_generation(ctx, name: str, work) -> str:
    """``work()``, once per index generation (the resolver's memo is the generation's)."""
    memo = ctx.resolver.memo
    found = memo.get(("answers", name))
    if found is None:
        found = memo[("answers", name)] = work()
    return found


def listing_digest(ctx) -> str:
    """The project's files, as one digest."""
    return _per_generation(ctx, "listing", lambda: _digest(ctx.index.files()))


def project_digest(ctx) -> str:
    """Every project file with its content digest, as one digest."""
    return _per_generation(ctx, "project", lambda: _digest(
        f"{path}\0{content}" for path, content in sorted(ctx.index.digests().items())))


def libraries_digest(ctx) -> str:
    """The folders packages are installed in (the interpreter's import roots, the project's
    ``node_modules`` and its scopes), by modification time: installing or removing a package
    changes one of them."""
    def stamps():
        folders = [root.path for root in ctx.libraries.python_roots()]
        modules = os.path.join(str(ctx.workspace.root), "node_modules")
        try:
            folders += [modules] + sorted(entry.path for entry in os.scandir(modules)
                                          if entry.name.startswith("@") and entry.is_dir())
        except OSError:
            pass
        for folder in folders:
            try:
                yield f"{folder}\0{os.stat(folder).st_mtime_ns}"
            except OSError:
                yield f"{folder}\0-1"

    return _per_generation(ctx, "libraries", lambda: _digest(stamps()))


def names_digest(ctx, name: str) -> str:
    """The files that define or use ``name``, with their content digests: what a project-wide
    lookup of the name depends on (a file that starts or stops naming it, or changes while it
    does)."""
    index = ctx.index
    paths = set(index.defined_in.get(name, ())) | set(index.used_in.get(name, ()))
    return _digest(f"{path}\0{index.digest(path)}" for path in sorted(paths))


def dependencies_of(ctx, read: set[str]) -> Dependencies:
    """The dependencies of an answer whose resolutions read ``read`` (a recording's paths and
    notes)."""
    index = ctx.index
    files, names = [], {}
    for what in sorted(read):
        if what.startswith(("*name:", "*used:")):   # (both six characters; one digest covers both)
            names.setdefault(what[6:], None)
        elif not what.startswith("*"):   # "*files": the listing stands for it
            files.append((what, index.digest(what)))
    names = [(name, names_digest(ctx, name)) for name in sorted(names)]
    return Dependencies(listing_digest(ctx), project_digest(ctx), tuple(files), tuple(names),
                        libraries_digest(ctx) if "*missing" in read else None)


def still_holds(ctx, dependencies: Dependencies) -> bool:
    """Whether everything the answer was worked out from is as it was."""
    if dependencies.libraries is not None and dependencies.libraries != libraries_digest(ctx):
        return False
    index = ctx.index
    if dependencies.project == project_digest(ctx):   # only library files may have changed
        return all(index.digest(path) == was for path, was in dependencies.files if index.is_library(path))
    if dependencies.listing != listing_digest(ctx):
        return False
    if any(index.digest(path) != was for path, was in dependencies.files):
        return False
    return all(names_digest(ctx, name) == was for name, was in dependencies.names)


def _checksum(key: bytes, blob: bytes) -> bytes:
    h = blake2b(digest_size=12)
    h.update(key)
    h.update(b"\0")
    h.update(blob)
    return h.digest()


class AnswerStore(SideStore):
    TABLE = "answers"
    COLUMNS = "key BLOB PRIMARY KEY, blob BLOB NOT NULL, sum BLOB NOT NULL, stored REAL NOT NULL"

    @classmethod
    def beside(cls, index, libraries) -> "AnswerStore | None":
        file = interpreter_file(index, libraries, "answers")
        return cls(file, answers_version) if file is not None else None

    def load(self, key: tuple):
        """(dependencies, answer rows) stored under ``key``, or None."""
        packed = _packed_key(key)
        rows = self.read("SELECT blob, sum FROM answers WHERE key = ?", (packed,))
        row = rows[0] if rows else None
        if row is None or not isinstance(row[0], bytes) or _checksum(packed, row[0]) != row[1]:
            return None
        try:
            stored_key, dependencies, answer = decode(row[0])
            if stored_key != key:
                return None
            return Dependencies.from_rows(dependencies), answer
        except (DecodeError, TypeError, ValueError):
            return None

    def save(self, key: tuple, dependencies: Dependencies, answer: tuple) -> None:
        packed = _packed_key(key)
        blob = encode((key, dependencies.to_rows(), answer))

        def work(db) -> None:
            db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)",
                       (packed, blob, _checksum(packed, blob), time.time()))
            db.execute("DELETE FROM answers WHERE key IN (SELECT key FROM answers "
                       "ORDER BY stored DESC LIMIT -1 OFFSET ?)", (_KEPT_ROWS,))

        self.write(work)


def _packed_key(key: tuple) -> bytes:
    return blake2b(encode(key, compress=False), digest_size=16).digest()
