"""Freshness and the index: which files exist now, which changed, and their facts.

Every query calls ``refresh()`` first: a stat walk of the root; only files whose size or
mtime changed are read and hashed, and only those whose hash changed are re-extracted.
Initial indexing runs extraction in a process pool on all cores and reports progress.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import field, replace
from sys import intern
from typing import Callable

from ..dataclass_code import dataclass
from ..errors import CacheError
from ..facts import FileFacts, Moves, line_moves
from ..hashing import blake2b, sha1
from ..languages import by_name, for_path, spec_of
from ..languages.spec import QUERY_DIR
from ..places import Place, places_named, places_of, stored_places
from ..workspace import VENDORED_DIRS, Workspace
from .discover import WALK_ONLY_NAMES, BinaryFile, discover, read_source, restat
from .encoding import gc_paused
from .extract import extract_file
from .parsing import compile_every_query, grammar_version, is_compiled
from .store import INDEXER_VERSION, FileRecord, Store, cache_root, decode, encode
from .watch import DirectoryWatcher

__all__ = ["Index", "IndexStats", "Progress"]

Progress = Callable[[int, int, str], None]   # (done, total, path)

NOTEBOOK = "notebook"
# Below this many files to (re)extract, a process pool costs more than it saves (~0.3 s start-up).
_POOL_THRESHOLD = 64
_FACTS_CACHE_SIZE = 512
# ... and at most this many definitions and references in all (about 400 bytes each in memory):
# 512 files of generated code would otherwise be kept whole (issue 16, item 10). The file just
# indexed or loaded always stays.
_FACTS_CACHE_WEIGHT = 300_000
# Places (places.py) read from the store and kept, by their rows in all: the stdlib has 180k.
_PLACES_CACHE_WEIGHT = 200_000
# A refresh that extracts at most this many files (saves, not a checkout) compares each with its
# previous facts (``only_moved``): 10-15 % of extracting it, for a save that changes no code.
_MOVES_CHECKED = 8
# A file's extraction answers this when the file is no longer there: renamed or deleted after
# the walk listed it. Not a skip reason: the refresh walks again, which finds its new name.
_GONE = "gone since the walk"
# Walks one refresh makes at most while files the last walk listed are gone before they are
# read (renamed in between). tests/reliability/test_concurrent_edits with 200 edits a thread:
# 15 of 1,664 refreshes walked twice, none three times. Beyond this, the files are found by the
# next query's walk (their inotify events are queued).
_WALKS = 3


_LANGUAGE_BY_SUFFIX: dict[str, str | None] = {}


def _language_for_path(path: str) -> str | None:
    """Called for every file on every query: a dict lookup on the suffix, computed once each."""
    suffix = path[path.rfind("."):] if "." in path else ""
    if suffix == ".ts" and path.endswith(".d.ts"):
        suffix = ".d.ts"
    try:
        return _LANGUAGE_BY_SUFFIX[suffix]
    except KeyError:
        if suffix == ".ipynb":
            language = NOTEBOOK
        else:
            spec = for_path("file" + suffix) if suffix else None
            language = spec.name if spec else None
        _LANGUAGE_BY_SUFFIX[suffix] = language
        return language


def _index_version() -> str:
    digest = sha1()
    for scm in sorted(QUERY_DIR.glob("*.scm")):
        digest.update(scm.read_bytes())
    for module in sorted(QUERY_DIR.glob("*.py")):
        digest.update(module.read_bytes())
    package = os.path.dirname(os.path.dirname(__file__))
    # what shapes the stored facts and places: a change to any makes a new store
    for module in (os.path.join(os.path.dirname(__file__), "extract.py"), os.path.join(package, "facts.py"),
                   os.path.join(package, "places.py"), os.path.join(package, "nesting.py"),
                   os.path.join(os.path.dirname(__file__), "encoding.py")):
        with open(module, "rb") as handle:
            digest.update(handle.read())
    return f"{INDEXER_VERSION}-{grammar_version()}-{digest.hexdigest()[:16]}"


@dataclass
class IndexStats:
    """What an indexing pass saw and did; ``to_dict()`` is the ``codetrace index`` payload."""

    root: str
    files: int = 0
    by_language: dict[str, int] = field(default_factory=dict)
    skipped: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    syntax_errors: list[str] = field(default_factory=list)
    definitions: int = 0
    references: int = 0
    lines: int = 0
    parsed: int = 0
    from_cache: int = 0
    removed: int = 0
    seconds: float = 0.0
    cache: str = ""
    cache_note: str | None = None

    def to_dict(self) -> dict:
        return {
            "root": self.root, "files": self.files, "by_language": dict(sorted(self.by_language.items())),
            "skipped": list(self.skipped), "warnings": list(self.warnings),
            "syntax_errors": list(self.syntax_errors), "definitions": self.definitions,
            "references": self.references, "lines": self.lines, "parsed": self.parsed,
            "from_cache": self.from_cache, "removed": self.removed, "seconds": round(self.seconds, 3), "cache": self.cache,
            "cache_note": self.cache_note,
        }

    def to_text(self) -> str:
        from ..languages import REGISTRY

        precise = {spec.name for spec in REGISTRY if spec.precise} | {NOTEBOOK}
        lines = [f"Indexed {self.files} files ({self.lines} lines) under {self.root} in {self.seconds:.2f} s "
                 f"({self.parsed} parsed, {self.from_cache} from cache)."]
        for language, count in sorted(self.by_language.items()):
            lines.append(f"  {language:<12} {count:>6} files  ({'precise' if language in precise else 'fallback'})")
        lines.append(f"Definitions: {self.definitions}   References: {self.references}")
        if self.syntax_errors:
            lines.append(f"Files with syntax errors (partial facts): {len(self.syntax_errors)}")
            lines.extend(f"  {p}" for p in self.syntax_errors[:20])
        if self.skipped:
            lines.append(f"Skipped: {len(self.skipped)}")
            lines.extend(f"  {s['path']}: {s['reason']}" for s in self.skipped[:50])
        if self.warnings:
            lines.append(f"Warnings: {len(self.warnings)}")
            lines.extend(f"  {w['path']}: {w['message']}" for w in self.warnings[:50])
        if self.cache_note:
            lines.append(f"Cache: {self.cache_note}")
        return "\n".join(lines)

    to_markdown = to_text

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(self.to_text())


class _Summary:
    """What the index keeps in memory per file (facts themselves are loaded on demand). Its name
    sets stay encoded until first read, each on its own: a restart's first answers need none of
    them, and a lookup by name only the names defined (decoding them all was 0.12 of the 0.2 s
    that reading the stdlib's 1,788 summaries took; what files use is three quarters of it). A
    summary loaded from the store has not even read them: ``stored`` reads every such summary's
    names at once when the first is asked for (3.8 MB for the stdlib, 45 ms of a restart that a
    position's answer never needed). Names are interned: a project's files name a few tens of
    thousands of names between them, each decoded once per file it appears in (the stdlib's
    summaries: 41 -> 28 MB)."""

    __slots__ = ("record", "definitions", "references", "lines", "warnings", "has_errors",
                 "_defined", "_roles", "_used", "_stored")

    def __init__(self, record: FileRecord, names: tuple[bytes, bytes, bytes] | None, definitions: int,
                 references: int, lines: int, warnings: tuple, has_errors: bool, stored: "_StoredNames | None" = None):
        self.record, self.definitions, self.references, self.lines = record, definitions, references, lines
        self.warnings, self.has_errors = warnings, has_errors
        # encoded: the names defined and the names used (not compressed: a lookup by name searches
        # them as they are, _FilesByName; rows written before session 33 hold the names used
        # compressed), (members, top) as (name, indexes) pairs; each replaced once read. None
        # while ``stored`` has not read them.
        self._defined, self._roles, self._used = names or (None, None, None)
        self._stored = stored

    def encoded(self, field: str):
        """The ``defined`` or ``used`` set as it is held: its blob until decoded, then the set."""
        if self._defined is None:
            self._read_names()
        return self._defined if field == "defined" else self._used

    def used_blob(self) -> bytes:
        """The names used as a blob of the sorted names, not compressed (as the graph's store
        keeps them): the one held while still encoded."""
        held = self.encoded("used")
        if type(held) is bytes:
            return held
        return encode(tuple(sorted(self.used)), compress=False)

    def _read_names(self) -> None:
        self._stored.read()
        if self._defined is None:   # no longer among the index's summaries (replaced meanwhile)
            self._stored.read(self)

    @property
    def defined(self) -> frozenset:
        defined = self.encoded("defined")
        if type(defined) is bytes:
            defined = self._defined = frozenset(map(intern, _names_in(defined, compressed=False)))
        return defined

    @property
    def used(self) -> frozenset:
        used = self.encoded("used")
        if type(used) is bytes:
            used = self._used = frozenset(map(intern, _names_in(used, compressed=False)))
        return used

    def names_once(self, field: str):
        """The ``defined`` or ``used`` names, decoded for this once if they are still encoded
        (not kept): inverting every file's names into the name -> files tables needs each set
        once, and kept decoded beside those tables the stdlib's were 17 MB more."""
        held = self.encoded(field)
        return _names_in(held, compressed=False) if type(held) is bytes else held

    def _role_maps(self) -> tuple[dict, dict, frozenset]:
        if self._defined is None:
            self._read_names()
        roles = self._roles
        if type(roles) is bytes:
            try:
                members, top, nodes = decode(roles)
                roles = ({intern(name): indexes for name, indexes in members},
                         {intern(name): indexes for name, indexes in top}, frozenset(map(intern, nodes)))
            except (TypeError, ValueError):   # as in _names_in
                roles = ({}, {}, frozenset())
            self._roles = roles
        return roles

    @property
    def members(self) -> dict[str, tuple[int, ...]]:
        """Names defined as members, with their definitions' indexes (facts.name_roles)."""
        return self._role_maps()[0]

    @property
    def top(self) -> dict[str, tuple[int, ...]]:
        """Names defined at the top level, with their definitions' indexes."""
        return self._role_maps()[1]

    @property
    def node_names(self) -> frozenset[str]:
        """The names of its definitions that are call graph nodes (``FileFacts.node_names``)."""
        return self._role_maps()[2]

    def take_names(self, names: tuple) -> None:
        """Its name sets, read (``_StoredNames``) or rebuilt: three blobs, or the sets themselves."""
        self._defined, self._roles, self._used = names
        self._stored = None


_NO_NAMES = (frozenset(), ({}, {}, frozenset()), frozenset())


class _StoredNames:
    """The name sets of the summaries an index loaded from its store, read in one query the first
    time any of them is asked for (``Index._read_stored_names``); until then a summary holds its
    counts and warnings only."""

    def __init__(self, index: "Index"):
        # weakly: the index holds its summaries, which hold this; a cycle through the index
        # would keep a dropped project's files and inotify instance until a collection
        self._index = weakref.ref(index)
        self.done = False

    def read(self, only: "_Summary | None" = None) -> None:
        """Read every summary's names (once), or ``only`` that summary's."""
        index = self._index()
        if index is not None and (only is not None or not self.done):
            index._read_stored_names(self, only)


def _names_in(blob: bytes, compressed: bool = True) -> tuple[str, ...]:
    try:
        names = decode(blob, compressed)
    except ValueError:   # DecodeError is one
        names = None
    # a row that passed its checksum yet holds no names here (written by something else): the
    # file is found by none of them, as if it had none
    return names if type(names) is tuple and all(type(n) is str for n in names) else ()


def _summary(record: FileRecord, head: bytes, names: bytes | None = None, stored: _StoredNames | None = None) -> _Summary:
    """A file's summary from its head blob and, when at hand, its names blob (``_extract_blobs``:
    not compressed, the three name sets inside it encoded on their own); without them ``stored``
    reads them when first asked for. A blob of another shape raises."""
    n_defs, n_refs, lines, warnings, has_errors = decode(head, compressed=False)
    if type(warnings) is not tuple or type(n_defs) is not int or type(n_refs) is not int or type(lines) is not int \
            or (warnings and not all(type(w) is str for w in warnings)):
        raise TypeError("a summary of another shape")
    return _Summary(record, None if names is None else _name_sets(names), n_defs, n_refs, lines, warnings,
                    bool(has_errors), stored)


def _name_sets(names: bytes) -> tuple[bytes, bytes, bytes]:
    """The three encoded sets of a names blob; another shape raises."""
    sets = decode(names, compressed=False)
    if type(sets) is not tuple or len(sets) != 3 or not all(type(each) is bytes for each in sets):
        raise TypeError("names of another shape")
    return sets


def _names_blob(facts: FileFacts) -> bytes:
    """A file's names blob: the names it defines, where (members, top level; and those that are
    call graph nodes), and the names it uses."""
    defined, used = facts.names()
    members, top = facts.name_roles()
    roles = (sorted(members.items()), sorted(top.items()), sorted(facts.node_names()))
    return encode((encode(sorted(defined), compress=False), encode(roles),
                   encode(sorted(used), compress=False)), compress=False)   # searched as written (_FilesByName)


def _event_matters(name: str) -> bool:
    """Whether a change of a file named ``name`` can change what the index holds."""
    return name in WALK_ONLY_NAMES or _language_for_path(name) is not None


def _compile_queries(languages) -> None:
    """Compile the languages' queries here, before the pool's workers are forked: they inherit
    them instead of each compiling its own (C++ 0.19 s, TypeScript 0.23 s a worker: half of a
    small C project's index CPU). A query that fails to compile fails in each file's job."""
    for spec in filter(None, map(spec_of, languages)):
        try:
            compile_every_query(spec)
        except Exception:  # noqa: BLE001 - reported per file by the jobs
            continue


# Languages whose query a worker compiled for this process's first index of them (_first_compiles):
# the next time, this process compiles it itself, once.
_COMPILED_IN_WORKERS: set[str] = set()


def _first_compiles(sources) -> dict[str, list]:
    """The files to extract of each language whose query this process has not compiled (and no
    worker has compiled for it before), by the language that analyses them (a notebook's is
    Python's). With two such languages or more, each is extracted in a process of its own (the
    language of most files in this one, the others in workers): the compiles, 0.15-0.8 s each and
    nearly all of a small project's first index (Python, TypeScript and C++: 1.3 s), then run
    side by side."""
    groups: dict[str, list] = {}
    for source in sources:
        spec = spec_of(source.language)
        if spec is not None and spec.name not in _COMPILED_IN_WORKERS and not is_compiled(spec):
            groups.setdefault(spec.name, []).append(source)
    return groups


def _worker_pool(workers: int):
    """A pool of extraction processes: forked from this process when the calling thread is its
    only one (they inherit the queries it compiled), else new interpreters (``workers.py`` says
    why a fork is unsafe then)."""
    if _pool_inherits_queries():
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor(max_workers=workers)
    from .workers import ProcessWorkers

    return ProcessWorkers(workers)


def _pool_inherits_queries() -> bool:
    """Whether :func:`_worker_pool`'s workers are forked from here: the calling thread is the
    only one, or the interpreter is embedded (no program to start a new one with)."""
    return hasattr(os, "fork") and (threading.active_count() == 1 or not sys.executable)


def _extract_group(root: str, items: list[tuple[str, str]], max_size: int) -> list:
    """``_extract_job`` for each (path, language) of one worker's share."""
    return [_extract_job(root, path, language, max_size) for path, language in items]


def _folders_holding(paths) -> set[str]:
    """Every folder that holds an indexed file, directly or below it ("" only for a file at the
    root): ``has_dir`` in one lookup, asked for each module and package an import may name."""
    folders: set[str] = set()
    for path in paths:
        folder = os.path.dirname(path)
        if not folder:
            folders.add("")
        while folder and folder not in folders:
            folders.add(folder)
            folder = os.path.dirname(folder)
    return folders


def _extract_job(root: str, path: str, language: str, max_size: int, keep_facts: bool = False):
    """Read, hash and extract one file (in a worker process: facts travel only as a blob). Never raises:
    whatever goes wrong with one file is that file's skip reason, never the whole refresh's failure."""
    try:
        with gc_paused():   # a file's facts are acyclic: collections during extraction free nothing (8 % of it)
            return _extract_one(root, path, language, max_size, keep_facts)
    except Exception as error:  # noqa: BLE001 - one pathological file must not take the repository down
        return path, None, _failure(error)


def _failure(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "extraction failed: nested too deeply"
    text = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
    return f"extraction failed: {type(error).__name__}" + (f": {text}" if text else "")


def _extract_one(root: str, path: str, language: str, max_size: int, keep_facts: bool):
    workspace = Workspace(root, max_file_size=max_size)
    absolute = os.path.join(root, path)
    try:
        stat = os.stat(absolute)
        data, warnings = read_source(workspace, path)
    except BinaryFile:
        return path, None, "binary"
    except FileNotFoundError:
        return path, None, _GONE
    except OSError as error:
        return path, None, f"unreadable: {error.strerror or error}"
    digest = blake2b(data, digest_size=16).hexdigest()
    record = FileRecord(path, language, stat.st_size, stat.st_mtime_ns, digest)
    payload, problem = _extract_blobs(record, data, list(warnings))
    if payload is not None and not keep_facts:
        payload = payload[:5] + (None,)
    return path, payload, problem


def _extract_blobs(record: FileRecord, data: bytes, warnings: list[str]):
    cells = None
    spec_name = record.language
    if record.language == NOTEBOOK:
        from .notebooks import notebook_source

        try:
            data, spans = notebook_source(data)
        except (ValueError, RecursionError) as error:
            return None, f"invalid notebook: {error if isinstance(error, ValueError) else 'nested too deeply'}"
        cells = tuple((s.cell, s.first_line, s.line_count) for s in spans)
        spec_name = "python"
    try:
        facts = extract_file(record.path, data, by_name(spec_name))
    except Exception as error:  # noqa: BLE001 - a pathological file: say so, keep going
        return None, _failure(error)
    facts.language = record.language if record.language != NOTEBOOK else NOTEBOOK
    facts.notebook_cells = cells
    facts.warnings = tuple(warnings) + facts.warnings   # reading's, then analysis' (extract.py)
    head = encode((len(facts.definitions), facts.reference_count, facts.line_count, facts.warnings, facts.has_errors),
                  compress=False)
    rows = encode(facts.to_rows())   # first: its references are still the blob extraction made (read, they are decoded)
    return (record, head, _names_blob(facts), rows, encode(places_of(facts)), facts), None


class Index:
    """The fresh, persisted index of one workspace."""

    def __init__(self, workspace: Workspace, cache_dir: str | os.PathLike | None = None, workers: int | None = None):
        self.workspace = workspace
        self.workers = workers or max(1, os.cpu_count() or 1)
        self._cache_dir = cache_dir
        self._lock = threading.RLock()
        self._store: Store | None = None
        self._summaries: dict[str, _Summary] = {}
        self._totals = _Totals()   # what IndexStats sums over the summaries, kept as they change
        self._skipped: dict[str, str] = {}
        # path -> (size, mtime_ns, reason) of files whose extraction failed: not retried on
        # every query, only once they change.
        self._failed: dict[str, tuple[int, int, str]] = {}
        self._facts: OrderedDict[str, FileFacts] = OrderedDict()
        self._facts_weight = 0
        self._places: OrderedDict[tuple[str, str], tuple] = OrderedDict()   # (path, digest) -> stored places
        self._places_weight = 0
        self._defined_in: _FilesByName | None = None   # made on first use: a restart
        self._used_in: _FilesByName | None = None      # answers before paying for it
        self.generation = 0
        self.last_stats: IndexStats | None = None
        self.parsed_in_process = 0   # files extracted by this process's refreshes, all told
        self._dirs: set[str] = set()
        self._watcher = DirectoryWatcher()
        self._watching = False
        self._walk_again = False
        self._broken: str | None = None   # why the store failed a write, until it is rebuilt
        self._notes: list[str] = []        # what the store discarded, until reported
        # Unsaved editor buffers (set_overlay): path -> (bytes, language). Their facts live here
        # only, never in the store; ``_overlay_pending`` holds those not indexed yet.
        self._overlay: dict[str, tuple[bytes, str]] = {}
        self._overlay_pending: set[str] = set()
        self._overlay_facts: dict[str, FileFacts] = {}
        # path -> (digest before, digest after, facts.Moves) of its last change, when that only
        # moved its facts (facts.line_moves)
        self._moves: dict[str, tuple[str, str, Moves]] = {}

    # ------------------------------------------------------------------ public
    def set_overlay(self, path: str, text: str, language: str | None = None) -> bool:
        """Index ``path`` (root-relative) from ``text`` instead of the disk, from the next
        refresh on, until :meth:`clear_overlay`; the file need not exist. The overlay's facts
        are never persisted and the file on disk is never touched. ``language`` defaults to the
        one the extension names. False (and nothing changes) for a file that would not be
        indexed: no supported language, or ignored."""
        language = language or _language_for_path(path)
        if language is None or self.workspace.is_ignored(path):
            return False
        if language != NOTEBOOK:
            try:
                by_name(language)
            except KeyError:
                return False   # a language id no spec claims (an editor's "json", "markdown")
        data = text.encode("utf-8", "surrogatepass")
        with self._lock:
            if self._overlay.get(path) == (data, language) and path not in self._overlay_pending:
                return True   # the same text again (a save, a re-open): nothing to redo
            self._overlay[path] = (data, language)
            self._overlay_pending.add(path)
        return True

    def clear_overlay(self, path: str) -> None:
        """Back to the file on disk (or to no file, for one that only the overlay had)."""
        with self._lock:
            if self._overlay.pop(path, None) is None:
                return
            self._overlay_pending.discard(path)
            if path in self._summaries:
                self._forget(path)
                self.generation += 1
            self.last_stats = None   # the next refresh walks the disk and finds the file again

    def overlays(self) -> list[str]:
        with self._lock:
            return sorted(self._overlay)

    def steady(self) -> threading.RLock:
        """A lock that, while held, no other thread changes the index under (a process forked
        meanwhile copies a consistent one: the graph's build, graph/build.py)."""
        return self._lock

    @property
    def defined_in(self) -> "_FilesByName":
        """name -> files defining it (``.get(name, default)``, ``keys()``, iteration)."""
        if self._defined_in is None:
            self._defined_in = _FilesByName(self._summaries, "defined")
        return self._defined_in

    @property
    def used_in(self) -> "_FilesByName":
        """name -> files using (referencing, importing, exporting) it."""
        if self._used_in is None:
            self._used_in = _FilesByName(self._summaries, "used")
        return self._used_in

    @property
    def store(self) -> Store:
        if self._store is None:
            from pathlib import Path

            self._store = Store(self.workspace.root, _index_version(),
                                Path(self._cache_dir) if self._cache_dir else None)
            self._load_summaries()
        return self._store

    def refresh(self, progress: Progress | None = None, report: bool = False) -> IndexStats:
        """Bring the index in line with the disk; returns what was seen and done.

        ``cache_note`` says what was discarded from the store (or that it fell back to memory)
        since the last ``report=True`` refresh, which is what ``Project.index()`` shows: queries
        refresh too, and must not swallow the note before anyone sees it.

        A store that fails while in use (a damaged page, a write refused) is discarded and the
        whole root indexed again, in this same call: answers never depend on a broken cache."""
        with self._lock:
            try:
                stats = self._refresh(progress)
            except CacheError as error:
                self._discard_store(f"index discarded and rebuilt ({error})")
                stats = self._refresh(progress)
            note = self.store.take_notes()
            if note:
                self._notes.append(note)
            stats.cache_note = "; ".join(dict.fromkeys(self._notes)) or None
            if report:
                self._notes.clear()
            return stats

    def _discard_store(self, reason: str) -> None:
        self.store.reset(reason)
        self._summaries.clear()
        self._totals = _Totals()
        self._facts.clear()
        self._facts_weight = 0
        self._places.clear()
        self._places_weight = 0
        self._defined_in = self._used_in = None
        self._broken = None
        self._overlay_pending.update(self._overlay)
        self.generation += 1
        self.last_stats = None

    def _refresh(self, progress: Progress | None) -> IndexStats:
        started = time.perf_counter()
        if self._broken is not None:
            raise CacheError(self._broken)
        changed, new_folders, paths = self._watcher.drain()
        if self._watching and not changed and not self._walk_again and self.last_stats is not None \
                and not self._overlay_pending:
            # Nothing under the root changed since the last walk: no need to walk again.
            return replace(self.last_stats, parsed=0, from_cache=self.last_stats.files, removed=0,
                           seconds=time.perf_counter() - started)
        store = self.store
        stats = IndexStats(root=str(self.workspace.root), cache=":memory:" if store.in_memory else str(store.path))
        walk_again, self._walk_again = self._walk_again, False
        removed: list[str] = []
        parsed_paths: set[str] = set()
        added = False   # a file not indexed before: the folders holding files may change
        # A save names its files: they alone are looked at, unless only a walk can tell what
        # changed (a folder, an ignore file here or above the root, a symlink, too many files).
        walk = not (self._watching and paths is not None and self.last_stats is not None
                    and not new_folders and not walk_again and not self.workspace.ignore_files_changed())
        if not walk:
            root = os.path.join(str(self.workspace.root), "")
            named = {p[len(root):].replace(os.sep, "/") for p in paths if p.startswith(root)}
            found = restat(self.workspace, named, _language_for_path)
            if found is None:
                walk = True
            else:
                sources, skipped = found
                for path in named:
                    self._skipped.pop(path, None)
                self._skipped.update((s.path, s.reason) for s in skipped)
                listed = {s.path for s in sources}
                gone, file_added = self._take_listing(sources, [p for p in named if p not in listed],
                                                      progress, removed, parsed_paths)
                added |= file_added
                walk = gone   # renamed between the look and the read: its new name is in a walk
                present = set(self._summaries) | set(self._failed) | set(self._overlay)
        for _ in range(_WALKS if walk else 0):
            sources, skipped = discover(self.workspace, _language_for_path)
            self._skipped = {s.path: s.reason for s in skipped}
            present = {s.path for s in sources} | set(self._overlay)
            gone, file_added = self._take_listing(sources, [p for p in self._summaries if p not in present]
                                                  + [p for p in self._failed if p not in present],
                                                  progress, removed, parsed_paths)
            added |= file_added
            if not gone:
                break
            # Files this walk listed were gone when read: renamed meanwhile, they are under
            # their new names in no listing this walk made. The next walk has them.
        if self._overlay_pending:
            added = True   # an overlay may be of a file not on disk
            parsed_paths |= self._index_overlays()
        if self._broken is not None:
            raise CacheError(self._broken)
        parsed = len(parsed_paths)
        if removed or added or not self._dirs:   # the files listed changed (not only their contents)
            self._dirs = _folders_holding(present)
        if removed or parsed:
            self.generation += 1
        if new_folders or not self._watching:
            self._watcher.forget()
            self._watching = self._watcher.watch(self._folders())
            # a file written in a folder after the walk above and before its watch began sends
            # no event: the next refresh walks once more (a project being written while its first
            # index runs was otherwise missing those files until some other change)
            self._walk_again = True
        stats.removed = len(removed)
        self._fill_stats(stats)
        # the two add up to the files indexed, whatever happened in between
        stats.parsed = sum(1 for path in parsed_paths if path in self._summaries)
        stats.from_cache = stats.files - stats.parsed
        stats.seconds = time.perf_counter() - started
        self.last_stats = stats
        self.parsed_in_process += stats.parsed
        return stats

    def _take_listing(self, sources: list, unlisted: list[str], progress, removed: list[str],
                      parsed_paths: set[str]) -> tuple[bool, bool]:
        """Bring the index in line with what a walk (or a save's files) listed: ``unlisted`` paths
        are no longer files to index, ``sources`` are read again where their size or time
        changed. Returns (some listed file was gone when read, a file not indexed before was)."""
        absent = [p for p in unlisted if p in self._summaries and p not in self._overlay]
        for path in unlisted:
            self._failed.pop(path, None)
        if absent:
            for path in absent:
                self._forget(path)   # first: it may read the file's stored names (_Summary)
            self._write(self.store.delete, absent)
            removed += absent
        stale = []
        for source in sources:
            if source.path in self._overlay:
                continue   # the editor's text wins over the disk's
            failed = self._failed.get(source.path)
            if failed is not None:
                if failed[:2] == (source.size, source.mtime_ns):
                    self._skipped[source.path] = failed[2]
                    continue
                del self._failed[source.path]
            summary = self._summaries.get(source.path)
            if summary is None or summary.record.size != source.size or summary.record.mtime_ns != source.mtime_ns:
                stale.append(source)
        added = any(source.path not in self._summaries for source in stale)
        indexed, gone = self._reindex(stale, progress) if stale else (set(), [])
        parsed_paths |= indexed
        return bool(gone), added

    def facts(self, path: str) -> FileFacts | None:
        with self._lock:
            facts = self._overlay_facts.get(path)
            if facts is not None:
                return facts
            facts = self._facts.get(path)
            if facts is not None:
                self._facts.move_to_end(path)
                return facts
            if path not in self._summaries:
                return None
            try:
                facts = self.store.load(path) if self._broken is None else None
            except CacheError:
                facts = None
            if facts is None:  # the store lost it: rebuild this one file
                self._reindex([_Source(path, self._summaries[path].record.language)], None)
                facts = self._facts.get(path)
            else:
                self._remember(path, facts)
            return facts

    def places(self, path: str, name: str) -> tuple[list[Place], bool]:
        """Where the file defines ``name``, and whether a parameter has it (``places.py``): from
        its facts when this process holds them, else from its stored places, read once for all
        the names asked of it (a search asks a file for several)."""
        with self._lock:
            facts = self._overlay_facts.get(path) or self._facts.get(path)
            summary = self._summaries.get(path)
            if facts is None and summary is not None and self._broken is None:
                key = (path, summary.record.digest)
                stored = self._places.get(key)
                if stored is None:
                    try:
                        stored = self.store.places(path)
                    except CacheError:   # a damaged row: the file is indexed again, as for its facts
                        self._reindex([_Source(path, summary.record.language)], None)
                        stored = None
                    if stored is not None:
                        self._keep_places(key, stored)
                else:
                    self._places.move_to_end(key)
                if stored is not None:
                    return stored_places(stored, name)
            facts = facts or self.facts(path)   # not stored, or the store lost it: its facts
        return places_named(facts, name) if facts is not None else ([], False)

    def _keep_places(self, key: tuple[str, str], stored: tuple) -> None:
        self._places[key] = stored
        self._places_weight += len(stored[0])
        while len(self._places) > 1 and self._places_weight > _PLACES_CACHE_WEIGHT:
            self._places_weight -= len(self._places.popitem(last=False)[1][0])

    def files(self) -> list[str]:
        return sorted(self._summaries)

    def library_store(self):
        """The machine's store of library files' facts, in this index's cache directory."""
        from pathlib import Path

        from .library_store import LibraryStore

        return LibraryStore(Path(self._cache_dir) if self._cache_dir else cache_root(), _index_version)

    def digest(self, path: str) -> str | None:
        summary = self._summaries.get(path)
        return summary.record.digest if summary is not None else None

    def compile_queries(self, languages=None) -> None:
        """Compile the tree-sitter queries of ``languages`` (default: those indexed now; 0.2-0.7 s
        each, once per process; what a process whose index came from the store has not done yet).
        A long-lived process calls it when idle, so that its first save is answered as fast as the
        next. It holds the interpreter meanwhile: never on a path that answers."""
        if languages is None:
            with self._lock:
                languages = {summary.record.language for summary in self._summaries.values()}
        _compile_queries(languages)

    def only_moved(self, path: str, before: str, after: str) -> bool:
        """Whether the file went from digest ``before`` to ``after`` in one change that only
        moved what it says (``facts.line_moves``: a comment, blank lines, a docstring, a reflow):
        every answer about it is the same. False for a change of code, one of several steps, or
        one not compared."""
        return self._last_moves(path, before, after) is not None

    def moved_lines(self, path: str, before: str, after: str) -> dict[int, int] | None:
        """When ``only_moved``: the file's old line -> new line of each line holding a fact;
        None also when a line was split or joined."""
        moves = self._last_moves(path, before, after)
        return moves.lines if moves is not None else None

    def _last_moves(self, path: str, before: str, after: str) -> Moves | None:
        found = self._moves.get(path)   # one read: a refresh may replace it meanwhile
        return found[2] if found is not None and found[0] == before and found[1] == after else None

    def summaries(self) -> dict[str, "_Summary"]:
        """path -> summary (``record.digest``, names ``defined`` and ``used``) of every indexed file,
        a copy: what a new resolver generation compares with the previous one's to keep the
        answers no change can reach. Summaries are never changed in place (a change replaces one)."""
        with self._lock:
            return dict(self._summaries)

    def digests(self) -> dict[str, str]:
        """path -> content digest of every indexed file (what the graph keys its files by)."""
        with self._lock:
            return {path: summary.record.digest for path, summary in self._summaries.items()}

    def has_file(self, path: str) -> bool:
        return path in self._summaries

    def has_dir(self, path: str) -> bool:
        return path.rstrip("/") in self._dirs

    def language_of(self, path: str) -> str | None:
        summary = self._summaries.get(path)
        return summary.record.language if summary else None

    def skipped_reason(self, path: str) -> str | None:
        return self._skipped.get(path)

    def source(self, path: str) -> bytes:
        """The text positions refer to: the file's bytes (an overlay's, when it has one), or a
        notebook's virtual source."""
        overlay = self._overlay.get(path)
        if overlay is not None:
            data = overlay[0]
        else:
            data, _ = read_source(self.workspace, path)
        if path.endswith(".ipynb"):
            from .notebooks import notebook_source

            data, _ = notebook_source(data)
        return data

    @property
    def watching(self) -> bool:
        """Whether changes under the root are watched (inotify), so a refresh walks only after one."""
        return self._watching and self._watcher.active

    def wait_for_change(self, timeout: float) -> bool:
        """Whether something the index holds may have changed since the last refresh, waiting up
        to ``timeout`` seconds for it: True at the first event on a folder, a file of a language,
        an ignore file or a virtual environment's marker — not for a log or a data file written
        under the root (the next refresh still sees every event). Always False where changes are
        not watched (no inotify, or before the first refresh): there only a refresh's walk finds
        them."""
        return self.watching and self._watcher.wait(timeout, _event_matters)

    def _folders(self) -> list[str]:
        """Every folder the walk enters (not ignored, not vendored), absolute, for the watcher."""
        root = str(self.workspace.root)
        folders, stack = [root], [(root, "")]
        while stack:
            folder, prefix = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False) and entry.name not in VENDORED_DIRS \
                        and not self.workspace.is_ignored(prefix + entry.name, is_dir=True):
                    folders.append(entry.path)
                    stack.append((entry.path, prefix + entry.name + "/"))
        return folders

    def close(self) -> None:
        self._watcher.close()
        if self._store is not None:
            self._store.close()

    # ------------------------------------------------------------------ internals
    def _load_summaries(self) -> None:
        try:
            rows = self._store.records()
        except CacheError as error:
            self._store.reset(f"unreadable index discarded ({error})")
            rows = []
        stored = _StoredNames(self)
        for record, head in rows:
            try:
                summary = _summary(record, head, stored=stored)
            except Exception:  # noqa: BLE001 - any undecodable row is re-extracted, never trusted
                continue
            self._add_summary(summary)

    def _read_stored_names(self, stored: _StoredNames, only: _Summary | None = None) -> None:
        """Give every summary loaded with ``stored`` (or ``only`` that one) its name sets, read
        from the store in one query. A file whose stored names fail their checksum or shape gets
        them from its facts (stored, or the file extracted again when those are lost too), and the
        store the mended blob. A row of another version of the file (another process indexed it
        since) gives none: the next refresh finds the file changed and indexes it again."""
        with self._lock:
            if only is None:
                if stored.done:
                    return
                stored.done = True
                pending = [s for s in self._summaries.values() if s._stored is stored]
            elif only._stored is stored:
                pending = [only]
            else:
                return
            try:
                blobs, bad = self.store.names(only.record.path if only else None) if self._broken is None else ({}, {})
            except CacheError as error:
                self._broken, blobs, bad = str(error), {}, {}
            mend = []
            for summary in pending:
                path, digest = summary.record.path, summary.record.digest
                summary.take_names(_NO_NAMES)   # until read, and if unreadable
                if self._broken is not None:
                    continue   # the next refresh rebuilds the store, and every summary
                if path in blobs:
                    if blobs[path][0] == digest:
                        try:
                            summary.take_names(_name_sets(blobs[path][1]))
                        except Exception:  # noqa: BLE001 - of another shape: rebuilt below
                            mend.append(summary)
                elif bad.get(path, digest) == digest:   # damaged, or its row lost
                    mend.append(summary)
            for summary in mend:
                path = summary.record.path
                facts = self.facts(path)
                current = self._summaries.get(path)
                if current is not None and current is not summary and current._stored is None:
                    summary.take_names((current._defined, current._roles, current._used))   # extracted again
                elif facts is not None:
                    names, record = _names_blob(facts), summary.record
                    summary.take_names(_name_sets(names))
                    self._write(lambda blob: self.store.save_names(path, record.language, record.digest, blob), names)

    def _add_summary(self, summary: _Summary) -> None:
        path = summary.record.path
        self._forget(path)
        self._summaries[path] = summary
        self._totals.add(path, summary)
        for table in (self._defined_in, self._used_in):
            if table is not None:
                table.added(path, summary)

    def _forget(self, path: str) -> None:
        old = self._summaries.get(path)
        if old is not None and old._stored is not None:
            # its names as stored, before its row is replaced: what changed is what a new
            # resolver generation compares (resolve/resolver.py `_carry`)
            old._stored.read(old)
        old = self._summaries.pop(path, None)
        self._moves.pop(path, None)
        self._facts_weight -= _weight(self._facts.pop(path, None))
        self._overlay_facts.pop(path, None)
        if old is None:
            return
        self._totals.remove(path, old)
        for table in (self._defined_in, self._used_in):
            if table is not None:
                table.removed(path, old)

    def _remember(self, path: str, facts: FileFacts) -> None:
        self._facts_weight += _weight(facts) - _weight(self._facts.get(path))
        self._facts[path] = facts
        self._facts.move_to_end(path)
        while len(self._facts) > 1 and (len(self._facts) > _FACTS_CACHE_SIZE
                                        or self._facts_weight > _FACTS_CACHE_WEIGHT):
            self._facts_weight -= _weight(self._facts.popitem(last=False)[1])

    def _reindex(self, sources: list, progress: Progress | None) -> tuple[set[str], list[str]]:
        """Read and extract these files; returns the paths parsed and indexed (failures are
        skipped, not among them), and those gone before they were read (left as they were)."""
        root = str(self.workspace.root)
        total = len(sources)
        results = []
        unchanged = []
        # Same size and content, new mtime (a `touch`, a checkout): no need to parse again.
        to_extract = []
        for source in sources:
            summary = self._summaries.get(source.path)
            if summary is not None and summary.record.size == getattr(source, "size", -1):
                try:
                    data, _ = read_source(self.workspace, source.path)
                except (BinaryFile, OSError):
                    data = None
                if data is not None and blake2b(data, digest_size=16).hexdigest() == summary.record.digest:
                    summary.record.mtime_ns = source.mtime_ns
                    unchanged.append(summary.record)
                    continue
            to_extract.append(source)
        for record in unchanged:
            self._write(self.store.touch, record)
        done = 0

        def extract_here(sources) -> None:
            nonlocal done
            for source in sources:
                results.append(_extract_job(root, source.path, source.language, self.workspace.max_file_size, True))
                done += 1
                if progress:
                    progress(done, total, source.path)

        in_process = to_extract
        shares: list[list] = []
        if self.workers > 1 and len(to_extract) >= _POOL_THRESHOLD:
            shares = [[s] for s in sorted(to_extract, key=lambda s: -getattr(s, "size", 0))]  # big files first
            if _pool_inherits_queries():
                _compile_queries({s.language for s in to_extract})   # inherited by the forked workers
            in_process = []
        elif self.workers > 1 and len(groups := _first_compiles(to_extract)) >= 2:
            # The language of most files is extracted here meanwhile (its query then stays in
            # this process: the language most saves will be of); the others in workers, the
            # longest query first (TypeScript's: the costliest to compile).
            shares = sorted(groups.values(), key=len)[:-1]
            shares.sort(key=lambda share: -len(spec_of(share[0].language).query_text))
            _COMPILED_IN_WORKERS.update(spec_of(share[0].language).name for share in shares)
            in_workers = {id(s) for share in shares for s in share}
            in_process = [s for s in to_extract if id(s) not in in_workers]
        if shares:
            # imported here: a process whose index is already stored never needs a pool
            from concurrent.futures.process import BrokenProcessPool

            with _worker_pool(min(self.workers, len(shares))) as pool:
                futures = [pool.submit(_extract_group, root, [(s.path, s.language) for s in share],
                                       self.workspace.max_file_size) for share in shares]
                extract_here(in_process)   # meanwhile
                in_process = []
                retry = []
                for share, future in zip(shares, futures):
                    try:
                        answers = future.result()
                    except BrokenProcessPool:  # a worker died (killed, out of memory): retry below
                        retry.extend(share)
                        continue
                    except Exception as error:  # noqa: BLE001 - the result did not come back: these files only
                        answers = [(source.path, None, _failure(error)) for source in share]
                    for answer in answers:
                        results.append(answer)
                        done += 1
                        if progress:
                            progress(done, total, answer[0])
            for source in retry:
                # One file at a time, each in a process of its own: the file that kills a worker
                # is then the only one that fails, and the indexing process itself never dies.
                try:
                    with _worker_pool(1) as single:
                        results.append(single.submit(_extract_job, root, source.path, source.language,
                                                     self.workspace.max_file_size).result())
                except Exception as error:  # noqa: BLE001
                    reason = "extraction crashed its worker process" if isinstance(error, BrokenProcessPool) \
                        else _failure(error)
                    results.append((source.path, None, reason))
                done += 1
                if progress:
                    progress(done, total, source.path)
        extract_here(in_process)
        rows = []
        gone = []
        by_path = {source.path: source for source in to_extract}
        for path, payload, problem in results:
            if payload is None:
                if problem == _GONE:
                    gone.append(path)   # not a failure: the next walk drops it as removed
                    continue
                self._skipped[path] = problem
                source = by_path.get(path)
                if source is not None and getattr(source, "size", -1) >= 0:
                    self._failed[path] = (source.size, source.mtime_ns, problem)
                if path in self._summaries:
                    self.generation += 1  # an indexed file became unindexable: answers change
                self._forget(path)
                self._write(self.store.delete, [path])
                continue
            record, head, names, blob, places, facts = payload
            rows.append((record, head, names, blob, places))
            moves = self._moved(path, record, facts) if len(to_extract) <= _MOVES_CHECKED else None
            self._add_summary(_summary(record, head, names))
            if facts is not None:
                self._remember(path, facts)
            if moves is not None:
                self._moves[path] = moves
        if rows:
            self._write(self.store.save_many, rows)
        # files parsed and indexed (failures are skipped, not here), and files gone
        return {row[0].path for row in rows}, gone

    def _index_overlays(self) -> set[str]:
        """Extract the pending overlays from their text, in this process; nothing is written to
        the store. Returns the paths indexed (a failure is that file's skip reason)."""
        indexed = set()
        for path in sorted(self._overlay_pending):
            data, language = self._overlay[path]
            digest = blake2b(data, digest_size=16).hexdigest()
            # size -1: never equal to a file's stat, so the disk version is read again once cleared
            record = FileRecord(path, language, -1, 0, digest)
            payload, problem = _extract_blobs(record, data, [])
            if payload is None:
                self._skipped[path] = problem
                if path in self._summaries:
                    self._forget(path)
                    self.generation += 1
                continue
            self._skipped.pop(path, None)
            _, head, names, _, _, facts = payload
            moves = self._moved(path, record, facts)
            self._add_summary(_summary(record, head, names))
            self._overlay_facts[path] = facts
            if moves is not None:
                self._moves[path] = moves
            indexed.add(path)
        self._overlay_pending.clear()
        return indexed

    def _moved(self, path: str, record: FileRecord, facts: FileFacts | None):
        """(digest before, digest after, line map) when the file's new facts only move its
        previous ones; else None."""
        summary = self._summaries.get(path)
        if facts is None or summary is None or summary.record.digest == record.digest:
            return None
        if (summary.definitions, summary.references, summary.has_errors) != (
                len(facts.definitions), facts.reference_count, facts.has_errors):
            return None   # as line_moves would say, without loading the file's previous facts
        before = self._overlay_facts.get(path) or self._facts.get(path)
        if before is None and self._broken is None:
            try:
                before = self.store.load(path)
            except CacheError:
                return None
        moves = line_moves(before, facts) if before is not None else None
        return (summary.record.digest, record.digest, moves) if moves is not None else None

    def _write(self, operation, argument) -> None:
        """A store write; a failure marks the store broken (the next refresh rebuilds it) and the
        in-memory index, which has the new facts, keeps answering."""
        if self._broken is not None:
            return
        try:
            operation(argument)
        except CacheError as error:
            self._broken = str(error)

    def _fill_stats(self, stats: IndexStats) -> None:
        self._totals.fill(stats)
        stats.skipped = [{"path": p, "reason": r} for p, r in sorted(self._skipped.items())]


class _Totals:
    """The sums IndexStats reports over every file's summary, kept as summaries are added and
    removed: a refresh after a save no longer adds up every summary (5 ms for the stdlib's 1,788
    files, each time). Warnings and syntax errors are listed in the order the files were added."""

    def __init__(self) -> None:
        self.files = self.definitions = self.references = self.lines = 0
        self.by_language: dict[str, int] = {}
        self.flagged: dict[str, _Summary] = {}   # path -> summary, for those with warnings or errors

    def add(self, path: str, summary: _Summary) -> None:
        self._count(summary, 1)
        if summary.warnings or summary.has_errors:
            self.flagged[path] = summary

    def remove(self, path: str, summary: _Summary) -> None:
        self._count(summary, -1)
        self.flagged.pop(path, None)

    def _count(self, summary: _Summary, sign: int) -> None:
        self.files += sign
        self.definitions += sign * summary.definitions
        self.references += sign * summary.references
        self.lines += sign * summary.lines
        language = summary.record.language
        count = self.by_language.get(language, 0) + sign
        if count:
            self.by_language[language] = count
        else:
            del self.by_language[language]

    def fill(self, stats: IndexStats) -> None:
        stats.files += self.files
        stats.definitions += self.definitions
        stats.references += self.references
        stats.lines += self.lines
        for language, count in self.by_language.items():
            stats.by_language[language] = stats.by_language.get(language, 0) + count
        for path, summary in self.flagged.items():
            stats.warnings.extend({"path": path, "message": message} for message in summary.warnings)
            if summary.has_errors:
                stats.syntax_errors.append(path)
        stats.syntax_errors.sort()


class _FilesByName:
    """name -> the files whose summaries hold it in one of their name sets (``defined`` or
    ``used``). A new process asks for a few names first (a restart's first answers, a kept
    answer's check): each is found by a search of every summary's encoded set for the name's own
    encoding — a byte search, no set decoded but those it is found in (a hit may be inside a
    longer name: the decoded set decides) — until ``SCANS`` names were asked; then every summary
    is inverted once (the stdlib's 1,788 files: decoding their sets for the first name cost 0.2 s
    defined, 0.28 s used; a search of them all ~2 ms). Listing the names inverts them at once. The
    summaries are the index's own dict, changed in place, and the index says what each change did
    (``added``, ``removed``)."""

    SCANS = 150
    DECODED = 0.25   # the share of summaries with decoded sets past which a name is not searched for

    def __init__(self, summaries: dict[str, _Summary], field: str):
        self._summaries, self._field = summaries, field
        # every name once inverted; else the names asked (maybe with no file). A name of one file
        # (four in five) holds the path itself: a set of one was 216 bytes (19 MB on the stdlib)
        self._table: dict[str, str | set[str]] = {}
        self._whole = False
        self._blobs = None   # _haystack()
        # the sets a search decoded to confirm a hit (a hit may be inside a longer name), until
        # every summary is inverted: kept on the summaries instead, beside the inverted tables,
        # they were 15 MB of the stdlib's warm process
        self._decoded: dict[str, frozenset] = {}

    def get(self, name: str, default=None):
        paths = self._table.get(name)
        if paths is None and not self._whole:
            # a summary whose set is decoded is searched in Python, not in the bytes: once a
            # quarter of them are (an edited project's: the graph and the resolver read them),
            # a search costs as much as decoding the rest (0.6 ms a name, 0.33 s for the first
            # 30 edits of the stdlib, where inverting took 0.05 s)
            if len(self._table) < self.SCANS and \
                    len(self._haystack()[3]) + len(self._decoded) < self.DECODED * len(self._summaries):
                paths = self._table[name] = self._search(name)
            else:
                paths = self._inverted().get(name)
        if type(paths) is str:   # a name's one file
            return {paths}
        return paths if paths else default

    def _search(self, name: str) -> set[str]:
        needle = encode(name, compress=False)   # as each name is written inside a set's array
        field = self._field
        found = set()
        blobs, starts, paths, others = self._haystack()
        at = blobs.find(needle)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            end = starts[k + 1] if k + 1 < len(starts) else len(blobs)
            if at + len(needle) <= end:   # (else it spans two files' sets: no name of either)
                names = self._decoded.get(paths[k])
                if names is None:
                    summary = self._summaries.get(paths[k])
                    names = self._decoded[paths[k]] = frozenset(map(intern, summary.names_once(field))) \
                        if summary is not None else frozenset()
                if name in names:
                    found.add(paths[k])
                at = blobs.find(needle, end)   # that file is decided: on to the next one's
            else:
                at = blobs.find(needle, at + 1)
        for path, summary in others:
            if name in getattr(summary, field):
                found.add(path)
        return found

    def _haystack(self):
        """Every summary's encoded set as one bytes (a file's set from ``starts[k]``, its path
        ``paths[k]``), searched in one pass instead of a loop over 1,788 summaries (4.4 ms a name
        on the stdlib); the summaries with no encoded set at hand (decoded already) are
        ``others``. Made again after any change (``added``, ``removed``)."""
        if self._blobs is None:
            field, parts, starts, paths, others, at = self._field, [], [], [], [], 0
            # a copy: the first read of stored names may mend a damaged file's summary meanwhile
            for path, summary in list(self._summaries.items()):
                names = summary.encoded(field)
                if type(names) is bytes:
                    parts.append(names)
                    starts.append(at)
                    paths.append(path)
                    at += len(names)
                else:
                    others.append((path, summary))
            self._blobs = (b"".join(parts), starts, paths, others)
        return self._blobs

    def keys(self):
        return self._inverted().keys()

    def __iter__(self):
        return iter(self._inverted())

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def added(self, path: str, summary: _Summary) -> None:
        self._blobs = None
        self._decoded.pop(path, None)
        names = getattr(summary, self._field)
        table = self._table
        if self._whole:
            _file_under(table, path, names)
        else:   # only the names asked so far: the others are scanned for when asked
            _file_under(table, path, table.keys() & names)

    def removed(self, path: str, summary: _Summary) -> None:
        self._blobs = None
        self._decoded.pop(path, None)
        table = self._table
        for name in getattr(summary, self._field):
            paths = table.get(name)
            if type(paths) is str:
                if paths != path:
                    continue
                if self._whole:
                    del table[name]
                else:
                    table[name] = set()   # asked, and now in no file
            elif paths:
                paths.discard(path)
                if len(paths) == 1:
                    table[name] = next(iter(paths))
                elif not paths and self._whole:
                    del table[name]

    def _inverted(self) -> dict[str, str | set[str]]:
        if not self._whole:
            table: dict[str, set[str]] = {}
            field = self._field
            decoded = self._decoded
            for path, summary in list(self._summaries.items()):   # a copy, as in _search
                _file_under(table, path, decoded.get(path) or map(intern, summary.names_once(field)))
            self._table, self._whole, self._blobs, self._decoded = table, True, None, {}
        return self._table


def _file_under(table: dict[str, str | set[str]], path: str, names) -> None:
    """Add ``path`` to each name's files in ``table`` (a name's one file as the path itself)."""
    for name in names:
        paths = table.get(name)
        if not paths:   # (none yet, or an asked name no file had)
            table[name] = path
        elif type(paths) is str:
            if paths != path:
                table[name] = {paths, path}
        else:
            paths.add(path)


def _weight(facts: FileFacts | None) -> int:
    return 0 if facts is None else len(facts.definitions) + facts.reference_count


@dataclass(slots=True)
class _Source:
    """A file to index: its path and language, with size and time once read."""

    path: str
    language: str
    size: int = -1
    mtime_ns: int = 0
