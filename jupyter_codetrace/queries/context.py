"""What every query works with: the workspace, the fresh index and this generation's resolver,
plus the input validation and the "what was there" helpers every not-found answer uses."""

from __future__ import annotations

import gc
import operator
import os
import re
import threading
from bisect import bisect_left, bisect_right

from ..errors import InvalidRequest
from ..index.encoding import freeze_long_lived, gc_paused
from ..index.indexer import Index
from ..index.libraries import Libraries, LibraryPlace, WithLibraries, is_library_path
from ..nesting import nesting
from ..resolve.resolver import Resolver, Symbol
from ..workspace import Workspace, is_test_file
from .kept_answers import AnswerStore

__all__ = ["QueryContext", "validate_symbol", "validate_position", "whole_number", "validate_flag", "validate_length", "MODES"]

MODES = ("definition", "declaration", "type_definition")
_IDENTIFIER = re.compile(r"[^\W\d][\w$]*|\$[\w$]*")


MAX_NAME = 1000   # characters: longer is no name of any code (and would fill every not-found message)


def validate_symbol(symbol, field: str = "symbol") -> str:
    if not isinstance(symbol, str) or not symbol.strip():
        raise InvalidRequest(f"{field} is required (a name such as 'formatDate' or 'User.save')", field=field)
    return validate_length(symbol.strip(), field)


def validate_length(name: str, field: str) -> str:
    if len(name) > MAX_NAME:
        raise InvalidRequest(f"{field} is too long ({len(name):,} characters; a name has at most {MAX_NAME:,})",
                             field=field)
    return name


def whole_number(value, field: str, minimum: int = 1) -> int:
    """``value`` as an int >= ``minimum``, or ``InvalidRequest`` naming ``field``. Only integers
    are taken (``operator.index``): ``1.5``, ``True`` and the string ``"3"`` are refused, not
    coerced (REST turns its query strings into integers before the query sees them)."""
    if value is None:
        raise InvalidRequest(f"{field} is required (a whole number >= {minimum})", field=field)
    if isinstance(value, bool):
        raise InvalidRequest(f"{field} must be a whole number >= {minimum}, got {value!r}", field=field)
    try:
        value = operator.index(value)
    except TypeError:
        raise InvalidRequest(f"{field} must be a whole number >= {minimum}, got {value!r}", field=field) from None
    if value < minimum:
        based = {"line": " (lines are 1-based)", "column": " (columns are 1-based)"}.get(field, "")
        raise InvalidRequest(f"{field} must be >= {minimum}{based}, got {value}", field=field)
    return value


def validate_flag(value, field: str) -> bool:
    """A true/false argument: only ``True`` or ``False`` (``"yes"``, ``1`` or None are refused)."""
    if not isinstance(value, bool):
        raise InvalidRequest(f"{field} must be true or false, got {value!r}", field=field)
    return value


def validate_position(line, column) -> tuple[int, int | None]:
    line = whole_number(line, "line")
    if column is not None:
        column = whole_number(column, "column")
    return line, column


class QueryLock:
    """The lock every query and refresh of a project holds; while it is held the cyclic garbage
    collector is paused. Answers build and drop many acyclic objects, and a project's facts keep
    a million tracked objects alive, so each full collection in the middle of an answer cost
    0.5 s and freed nothing (an edit's answer: 0.44 → 0.24 s on the stdlib; issue 20)."""

    def __init__(self):
        self._lock = threading.RLock()
        self._pauses: list = []   # gc_paused() of each entry (a re-entry's leaves the collector as it is)

    def __enter__(self) -> "QueryLock":
        self._lock.acquire()
        pause = gc_paused()
        pause.__enter__()
        self._pauses.append(pause)
        return self

    def __exit__(self, *exc) -> None:
        if len(self._pauses) == 1 and gc.get_count()[0] > _FREEZE_AFTER:
            # An answer that loaded many files' facts (their views stay for the next answers):
            # not walked by a full collection as soon as it ends (0.3 s for 200 files' facts)
            freeze_long_lived()
        self._pauses.pop().__exit__(None, None, None)
        self._lock.release()


# Tracked objects an answer leaves alive beyond which they are frozen. The young generation is
# walked whole by the collection its next allocation starts: 5-27 ms for the 20k-100k objects a
# find_references or an edit of the stdlib leaves (its views and resolutions, kept for the next
# answers), in the middle of the next answer. A few files' facts (a small project's answers) stay
# collectable: a dropped project is in cycles that a frozen object would keep forever.
_FREEZE_AFTER = 10_000
_NOT_OPENED = object()
_LINES_KEPT = 8   # files whose lines source_lines keeps (an answer's own file, its target's, a few candidates)


class _Within:
    """Which of a list of names hold a text (called with the text and ``last``: each name's last
    dotted part when ``last``, else the whole folded name), and which are exactly a text
    (``exactly``). Every name is searched at once: all are written one after another, each
    after a line break, and found again from where the text occurs."""

    def __init__(self, folded: list[str], lasts: list[str]):
        self._texts = {True: lasts, False: folded}
        self._joined: dict[bool, tuple[str, list[int]]] = {}
        self._by_text: dict[bool, dict[str, list[int]]] = {}

    def __call__(self, text: str, last: bool) -> list[int]:
        joined, starts = self._written(last)
        found, at = [], joined.find(text)
        while at >= 0:
            i = bisect_right(starts, at) - 1
            found.append(i)
            at = joined.find(text, starts[i + 1] if i + 1 < len(starts) else len(joined))
        return found

    def exactly(self, text: str, last: bool) -> list[int]:
        by_text = self._by_text.get(last)
        if by_text is None:
            by_text = self._by_text[last] = {}
            for i, name in enumerate(self._texts[last]):
                by_text.setdefault(name, []).append(i)
        return by_text.get(text, [])

    def _written(self, last: bool) -> tuple[str, list[int]]:
        written = self._joined.get(last)
        if written is None:
            names = self._texts[last]
            starts, at = [], 1
            for name in names:
                starts.append(at)
                at += len(name) + 1
            written = self._joined[last] = ("\n" + "\n".join(names), starts)
        return written


class QueryContext:
    """One project's engine state; ``fresh()`` is called at the start of every query."""

    def __init__(self, workspace: Workspace, index: Index, python: str | None = None):
        self.workspace = workspace
        # Library files (the standard library, installed packages, node_modules) are reached
        # through resolution only, read lazily; ``self.index.files()`` stays the project's.
        self.libraries = Libraries(workspace, python, index.library_store())
        self.index = WithLibraries(index, self.libraries)
        self._resolver: Resolver | None = None
        self._generation = -1
        self.lock = QueryLock()
        self._answer_store = _NOT_OPENED
        self._defined_prepared: tuple | None = None   # (key, similar_names' pool of the defined names)
        self._defined_names: tuple | None = None      # (key, defined_names())
        self._lines: dict[str, tuple[int, list[str]]] = {}   # path -> (generation, source_lines()), oldest first

    @property
    def answer_store(self) -> AnswerStore | None:
        """Where slow answers are kept for later generations and processes (kept_answers.py);
        None when the index has no store file."""
        if self._answer_store is _NOT_OPENED:
            self._answer_store = AnswerStore.beside(self.index, self.libraries)
        return self._answer_store

    def fresh(self) -> Resolver:
        self.index.refresh()
        if self._resolver is None or self._generation != self.index.generation:
            self.libraries.forget_lookups()  # a package installed since is found from now on
            self._resolver = Resolver(self.index, self.workspace, previous=self._resolver)
            self._generation = self.index.generation
        return self._resolver

    @property
    def resolver(self) -> Resolver:
        return self._resolver or self.fresh()

    # ------------------------------------------------------------------ files
    def library_place(self, path: str) -> LibraryPlace | None:
        """What a library file is (``json/__init__.py``, stdlib 3.11); None for project files."""
        return self.libraries.place(path) if is_library_path(path) and not self.index._index.has_file(path) else None

    def shown_path(self, path: str) -> str:
        """The path a result names: root-relative, or under its import root for a library file."""
        place = self.library_place(path)
        return place.file if place is not None else path

    def file_fields(self, path: str) -> dict:
        """``{"file": ...}`` for a result entry, with ``"library"`` when the file is library code."""
        place = self.library_place(path)
        if place is None:
            return {"file": path}
        return {"file": place.file, "library": place.to_dict()}

    def file_argument(self, file, field: str = "file") -> str:
        if file is None or (isinstance(file, str) and not file.strip()):
            raise InvalidRequest(f"{field} is required", field=field)
        path = self.workspace.relative(file, field=field)
        if not is_library_path(path) and not os.path.lexists(self.workspace.absolute(path)) \
                and path not in self.index.overlays():   # an unsaved new file is the project's too
            # a library file as results name it (`json/__init__.py`): where the import path has it.
            # Asked of the disk, not the index (not loaded yet in a new process): a file of the
            # project is never taken for a library's.
            path = self.libraries.find(path) or path
        return path

    def not_indexed_message(self, path: str, symbol: str | None) -> tuple[str, tuple[dict, ...]]:
        reason = self.index.skipped_reason(path)
        absolute = self.workspace.absolute(path)
        if reason:
            why = f"it was skipped ({reason})"
        elif not absolute.exists():
            why = "it does not exist"
        elif absolute.is_dir():
            why = "it is a folder"
        elif self.workspace.is_ignored(path):
            why = "it is ignored (.gitignore, .devtoolsignore or a vendored folder)"
        else:
            why = "no supported language claims its extension"
        message = f"File '{path}' is not indexed: {why}."
        suggestions: tuple[dict, ...] = ()
        if symbol:
            suggestions = tuple(self.where_defined(symbol.split(".")[-1]))
            if suggestions:
                places = ", ".join(f"{s['file']}:{s['line']}" for s in suggestions[:5])
                message += f" '{symbol}' is defined in: {places}."
        return message, suggestions

    def where_defined(self, name: str, limit: int = 10) -> list[dict]:
        resolver = self.resolver
        found = []
        for path in sorted(self.index.defined_in.get(name, ())):
            for place in resolver.places(path, name)[0]:
                found.append({"file": path, "line": place.line, "column": place.column, "kind": place.kind, "name": name})
                if len(found) >= limit:
                    return found
        return found

    def similar_names(self, name: str, candidates, limit: int = 8) -> list[str]:
        """The candidates a person most likely meant by ``name``, best first (did-you-mean).

        Ranked by edit distance (Damerau-Levenshtein, ignoring case; for a dotted candidate and
        an undotted name, the distance to its last part counts too), then by the distance with
        case, then by kind (types and functions before fields, variables before parameters),
        then by scope (exported, then top-level, then nested). Only close names are offered: at
        most about two edits in five characters, or a name that contains the other (or is
        contained in it) when the shorter is at least half the longer; one- and two-letter names
        are never offered for a longer name. Paths (candidates with ``/``) are all kept and
        ranked by the distance of their file names, then of the whole path."""
        pool, folded, lasts, paths, where = self._names_prepared(candidates)
        if not pool or not name:
            return []
        # imported here: only a not-found answer needs it, and it is 5 % of a CLI call's start
        from rapidfuzz import process
        from rapidfuzz.distance import DamerauLevenshtein
        if paths:
            base = name.rsplit("/", 1)[-1].casefold()
            pool = sorted(pool, key=lambda c: (DamerauLevenshtein.distance(base, c.rsplit("/", 1)[-1].casefold()),
                                               DamerauLevenshtein.distance(name.casefold(), c.casefold()), c))
            return pool[:limit]
        query = name.casefold()
        most = max(1, len(query) * 2 // 5)
        distance: dict[int, int] = {}
        for _, d, i in process.extract(query, folded, scorer=DamerauLevenshtein.distance, score_cutoff=most, limit=None):
            distance[i] = d
        if "." not in query and lasts is not folded:
            for _, d, i in process.extract(query, lasts, scorer=DamerauLevenshtein.distance, score_cutoff=most,
                                           limit=None):
                distance[i] = min(d, distance.get(i, d))
        if len(query) >= 3:
            # a name that contains the other or is contained in it (a test of each of the
            # stdlib's 66k names took 0.2 s): the names holding the query are found by searching
            # them all written one after another, those inside it by looking up its substrings
            parts = lasts if "." not in query else folded
            for i in where(query, "." not in query):
                if i not in distance and 2 * len(query) >= len(parts[i]):
                    distance[i] = len(parts[i]) - len(query)
            for size in range(max(3, (len(query) + 1) // 2), len(query)):
                for start in range(len(query) - size + 1):
                    for i in where.exactly(query[start:start + size], "." not in query):
                        if i not in distance:
                            distance[i] = len(query) - size
        ranked = []
        for i, d in distance.items():
            candidate = pool[i]
            if len(query) > 2 and len(candidate.rsplit(".", 1)[-1]) <= 2:
                continue  # `l`, `n` for `Consle`: never what a person meant
            cased = DamerauLevenshtein.distance(name, candidate)
            ranked.append(((d, cased, *self._kind_and_scope(candidate), abs(len(candidate) - len(name)), candidate),
                           candidate))
        ranked.sort()
        return [candidate for _, candidate in ranked[:limit]]

    def defined_names(self) -> tuple[list[str], list[str]]:
        """The names defined in the project, sorted, and each in lower case (the candidates of a
        symbol search), made once per generation."""
        key = (self.index.generation, id(self.index.defined_in))
        if self._defined_names is None or self._defined_names[0] != key:
            names = sorted(self.index.defined_in)
            self._defined_names = (key, (names, [name.lower() for name in names]))
        return self._defined_names[1]

    def _names_prepared(self, candidates) -> tuple:
        """(the candidate names sorted, each case-folded, each folded name's last dotted part —
        the folded list itself when no name has a dot —, whether any is a path, their ``_Within``).
        The project's defined names (every not-found answer's candidates: 66k in the stdlib) are
        prepared once per generation."""
        defined = self.index.defined_in
        mine = candidates is defined
        key = (self.index.generation, id(defined))
        if mine and self._defined_prepared is not None and self._defined_prepared[0] == key:
            return self._defined_prepared[1]
        # the defined names come sorted already (defined_names: one sort per generation for both)
        pool = [c for c in self.defined_names()[0] if c] if mine else sorted(
            {c for c in candidates if isinstance(c, str) and c})
        folded = [c.casefold() for c in pool]
        lasts = [f.rsplit(".", 1)[-1] for f in folded] if any("." in f for f in folded) else folded
        prepared = (pool, folded, lasts, any("/" in c for c in pool), _Within(folded, lasts))
        if mine:
            self._defined_prepared = (key, prepared)
        return prepared

    _KIND_RANK = {**dict.fromkeys(("class", "interface", "struct", "trait", "type", "enum", "function", "method",
                                   "constructor", "namespace", "module"), 0),
                  **dict.fromkeys(("constant", "property", "field", "enum_member", "macro", "impl"), 1),
                  "variable": 2}

    def _kind_and_scope(self, candidate: str) -> tuple[int, int]:
        """(kind rank, scope rank) of the best definition named like ``candidate``'s last part."""
        name = candidate.rsplit(".", 1)[-1]
        best = (3, 3)
        resolver = self.resolver
        for path in sorted(self.index.defined_in.get(name, ()))[:20]:
            places, parameter = resolver.places(path, name)
            for place in places:
                scope = 0 if place.exported else 1 if place.top_level else 2
                best = min(best, (self._KIND_RANK.get(place.kind, 3), scope))
            if parameter:   # a parameter: no kind of rank, enclosed by its function
                best = min(best, (3, 2))
        return best

    # ------------------------------------------------------------------ positions
    def refs_on_line(self, path: str, line: int):
        view = self.resolver.view(path)
        refs = view.facts.references
        lines = view.facts.reference_column("line")   # in order: bisected, no reference made
        lo, hi = bisect_left(lines, line), bisect_right(lines, line)
        return [(i, refs[i]) for i in range(lo, hi)]

    def names_on_line(self, path: str, line: int) -> list[str]:
        view = self.resolver.view(path)
        names = [r.name for _, r in self.refs_on_line(path, line)]
        names += [d.name for d in view.facts.definitions if d.line == line]
        for imp in view.facts.imports:
            if imp.name_line == line and imp.name:
                names.append(imp.name)
            if imp.line == line and imp.local:
                names.append(imp.local)
        return list(dict.fromkeys(names))

    def qualified_path(self, symbol: Symbol) -> tuple[str, ...]:
        """Names of the enclosing definitions, outermost first, ending with the symbol's own
        (an out-of-line member's type before its name: ``geo.Circle.area``, ``Store.Add``)."""
        resolver = self.resolver
        if symbol.is_module or resolver.definition(symbol) is None:
            return ()
        return nesting(resolver.view(symbol.path).facts, symbol.index)

    @staticmethod
    def is_test(path: str) -> bool:
        return is_test_file(path)

    def source_bytes(self, path: str) -> bytes:
        """The text the file's facts were made from (a notebook's code cells, as indexed); empty
        for a file that vanished mid-query (it shows no code, and answers as before)."""
        try:
            return self.index.source(path)
        except Exception:  # noqa: BLE001 - as source_lines
            return b""

    def source_lines(self, path: str) -> list[str]:
        """The file's lines as its facts number them (not to be changed: shared by the answers
        of one generation). Split at ``\n`` only, a ``\r`` before it dropped: tree-sitter's rows,
        and an editor's line numbers, break nowhere else — ``str.splitlines`` also breaks at a
        form feed (a page break, ``^L``, in GNU-style code), ``\x1c``-``\x1e``, ``\x85`` and
        U+2028, and every card below one showed the code a line off. The last few files' lines
        are kept until the next generation: an answer reads its file's lines several times."""
        kept = self._lines.get(path)
        if kept is not None and kept[0] == self._generation:
            return kept[1]
        data = self.source_bytes(path)
        if not data:
            return []
        lines = data.decode("utf-8", "replace").split("\n")
        if lines[-1] == "":
            lines.pop()   # the text ends with a line break: no line after it
        if b"\r" in data:
            lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        if len(self._lines) >= _LINES_KEPT:
            self._lines.pop(next(iter(self._lines)))
        self._lines[path] = (self._generation, lines)
        return lines

    def identifier_at(self, path: str, line: int, column: int) -> str | None:
        """The identifier covering ``line:column`` (1-based code points), for callers that give
        a position but no name (an editor cursor, an agent's ``line``/``character``)."""
        lines = self.source_lines(path)
        if not 0 < line <= len(lines):
            return None
        text = lines[line - 1]
        for match in _IDENTIFIER.finditer(text):
            if match.start() < column <= match.end() or (column == match.end() + 1 and match.end() == len(text)):
                return match.group()
        return None

    def virtual_line(self, path: str, cell, line: int) -> int:
        """The indexed line of ``line`` in notebook cell ``cell`` (0-based index in ``cells``)."""
        if cell is None:
            return line
        cell = whole_number(cell, "cell", minimum=0)
        view = self.resolver.view(path)
        cells = view.facts.notebook_cells if view else None
        if not cells:
            raise InvalidRequest(f"cell is given but '{path}' is not a notebook", field="cell")
        for index, first, count in cells:
            if index == cell:
                if not 1 <= line <= max(count, 1):
                    raise InvalidRequest(f"line {line} is outside cell {cell} (lines 1-{max(count, 1)})", field="line")
                return first + line - 1
        code_cells = ", ".join(str(c[0]) for c in cells)
        raise InvalidRequest(f"cell {cell} is not a code cell of '{path}' (code cells: {code_cells})", field="cell")

    def close(self) -> None:
        """Keep what this process built for the next one (the graph's snapshot, graph/persist.py),
        then let go of the side stores' files."""
        graph = getattr(self, "_code_graph", None)
        if graph is not None:
            graph.write_snapshot()
        answers = self._answer_store if self._answer_store is not _NOT_OPENED else None
        for store in (getattr(graph, "store", None), answers, self.libraries.store):
            if store is not None:
                store.close()

    def cell_position(self, path: str, line: int) -> tuple[int | None, int]:
        """(cell, line in cell) for notebooks; (None, line) otherwise."""
        if not path.endswith(".ipynb"):
            return None, line   # without loading the file's facts (a graph answer names hundreds of files)
        view = self.resolver.view(path)
        cells = view.facts.notebook_cells if view else None
        if not cells:
            return None, line
        for cell, first, count in cells:
            if first <= line < first + max(count, 1):
                return cell, line - first + 1
        return None, line
