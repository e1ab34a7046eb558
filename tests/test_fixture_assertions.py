"""Caret assertions carried by the fixture repositories, run as one parametrized test.

Every folder under ``fixtures/`` is a project root. Its expected answers are written either in
its source files, as comments under the code they are about (ARCHITECTURE.md, habit 4), or, for
a fixture whose code has to read as ordinary code (the demo a newcomer opens first), in an
expectations file beside the folder: ``fixtures/NAME.expectations`` (outside the root, so the
indexer never sees it). A fixture uses one or the other, not both. In a source file::

    from app.models import User
    User().save()
    #      ^ def: app/models.py:14
    #      ^ usage: call

The comment text after the language's line-comment prefix is ``^ WORD: VALUE``. The caret's
column (1-based, in code points) names the character above it on the nearest line above that
is not itself an assertion comment; the symbol is the whole identifier covering that column.
Queries are sent with the caret's own column (which may fall inside the identifier, as an
editor's cursor does); reference positions are compared with the identifier's first column.

Words checked here:

``def: FILE:LINE`` / ``decl: FILE:LINE`` / ``typedef: FILE:LINE``
    ``find_definition`` with mode ``definition`` / ``declaration`` / ``type_definition``
    answers ``found`` at FILE (root-relative) and LINE (the line of the defining name).
``usage: KIND``
    ``find_references`` from there contains a reference at exactly this line and column with
    this usage (``declaration`` asks with ``include_declaration=True``).
``kind: KIND``      the definition's ``kind``.
``status: STATUS``  ``find_definition``'s status (``builtin``, ``unresolved`` ...).
``library: PACKAGE [FILE]``  found in library code: PACKAGE is ``stdlib`` or the distribution /
                    npm package (``networkx``, ``@acme/ui``), FILE the path under its import root.
``refs: N``         ``find_references(include_declaration=False)`` counts N references.

Negative and exact words, which fail on a wrong answer that sits beside the right one:

``not-def: FILE:LINE``  ``find_definition`` (mode ``definition``) must not answer FILE:LINE, nor,
                    when it says ``found``, list FILE:LINE among its ``candidates`` (the traps:
                    a same-named member of another class, a shadowed outer name, a name-only
                    guess). Any status passes as long as that place is not claimed.
``refs-at: FILE:LINE, FILE:LINE ...``  ``find_references(include_declaration=False)`` from there
                    answers ``found`` with references on exactly those lines: a missing one and
                    an extra one both fail (``none``: found, and no reference at all). A line
                    holding two references is named twice.

Graph words, checked against ``call_graph()`` (edges whose site is the caret's line, from
the node enclosing it; QUALIFIED is the target's ``qualified_name``, e.g. ``app.models.User.save``
or ``src/models.User.save``; only edges resolved better than by name count):

``calls: QUALIFIED``       a ``CALLS`` edge to QUALIFIED (``calls: none``: no edge on that line
                           to anything named like the caret's symbol)
``not-calls: QUALIFIED``   no ``CALLS`` edge to QUALIFIED there (the traps of inferred edges:
                           another item of the same container, a same-named function)
``calls-exactly: Q1, Q2``  the ``CALLS`` edges whose site is the caret's line are exactly these
                           targets, no more and no fewer (``calls-exactly: none``: no edge at all).
                           Unlike ``calls``, this sees every call on the line, whatever its name.
``references: QUALIFIED``  a ``REFERENCES`` edge (a function or class passed, stored, decorating)
``extends: QUALIFIED`` / ``implements: QUALIFIED``   an ``EXTENDS`` / ``IMPLEMENTS`` edge

An expectations file holds one assertion a line, ``FILE:LINE:COLUMN  SYMBOL  WORD: VALUE``
(its header explains it; see ``fixtures/demo.expectations``)::

    app/main.py:2:8  save  def: app/models.py:14

FILE:LINE:COLUMN is the caret's place and SYMBOL the identifier covering it: when the code no
longer has SYMBOL there (a line added above it), the entry fails and says where SYMBOL is now.
Blank lines and lines starting with ``#`` are ignored; a line of any other shape fails.

An unknown word fails (a misspelt one would check nothing). Adding a fixture or an assertion
needs no change here. Each precise language's fixtures must keep at least
``MINIMUM_ASSERTIONS`` of each kind (``def``, negative words, ``not-def`` traps, exact sets):
``test_each_precise_language_carries_enough_assertions`` counts the collected assertions.
"""

from __future__ import annotations

import os
import pprint
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"

# Fallback when the language registry cannot tell (or does not know the language yet).
_COMMENT_PREFIXES = {
    ".py": "#",
    ".pyi": "#",
    ".ts": "//",
    ".tsx": "//",
    ".mts": "//",
    ".cts": "//",
    ".js": "//",
    ".jsx": "//",
    ".mjs": "//",
    ".cjs": "//",
}

# Folders the engine never indexes (CONTRACT.md, "Ignoring"); fixtures should not use them.
_SKIPPED_DIRS = {"node_modules", ".git", "__pycache__", ".venv", "venv", "dist", "build", "target"}

_IDENTIFIER_CHAR = re.compile(r"[\w$]")


def _comment_prefix(path: Path) -> str | None:
    """The line-comment prefix of a source file, or None when it is not a source file."""
    try:
        from jupyter_codetrace.languages import for_path
    except ImportError:
        for_path = None
    if for_path is not None:
        try:
            spec = for_path(path.as_posix())
        except Exception:  # noqa: BLE001 - a registry in flux must not break collection
            spec = None
        comment = getattr(spec, "comment", None)
        if comment:
            return comment
    return _COMMENT_PREFIXES.get(path.suffix.lower())


@dataclass(frozen=True)
class CaretAssertion:
    fixture: str          # "python_app"
    root: Path            # the fixture's project root
    file: str             # root-relative POSIX path of the file holding the assertion
    line: int             # 1-based line of the code the caret points into
    column: int           # 1-based code-point column of the caret
    word: str             # "def", "usage", ...
    value: str            # "app/models.py:14", "call", ...
    symbol: str = ""      # the identifier covering the caret
    symbol_column: int = 0  # 1-based column where that identifier starts
    source: str = ""      # the code line
    comment: str = ""     # the assertion comment line
    comment_line: int = 0
    error: str = ""       # a malformed assertion: reported as a failure of its own id
    origin: str = ""      # the expectations file holding it ("": a comment in ``file`` itself)

    def where(self) -> str:
        return f"{self.fixture}/{self.file}:{self.line}:{self.column}"

    def context(self) -> str:
        """The code line with the assertion under it (or its entry), for failure messages."""
        if self.origin:
            return (
                f"{self.where()}  [{self.word}: {self.value}]  symbol={self.symbol!r}\n"
                f"  {self.file}:{self.line} | {self.source}\n"
                f"  {self.origin}:{self.comment_line} | {self.comment}"
            )
        width = len(str(self.comment_line))
        return (
            f"{self.where()}  [{self.word}: {self.value}]  symbol={self.symbol!r}\n"
            f"  {self.line:>{width}} | {self.source}\n"
            f"  {self.comment_line:>{width}} | {self.comment}"
        )


def _assertion_pattern(prefix: str) -> re.Pattern[str]:
    return re.compile(
        r"^\s*" + re.escape(prefix) + r"\s*(?P<caret>\^)\s*(?P<word>[A-Za-z_][\w-]*)\s*:\s*(?P<value>.*?)\s*$"
    )


def parse_assertions(text: str, prefix: str, *, fixture: str = "", root: Path = Path("."),
                     file: str = "") -> list[CaretAssertion]:
    """All caret assertions in one file's text (``prefix`` is its line-comment prefix)."""
    pattern = _assertion_pattern(prefix)
    lines = text.splitlines()
    found: list[CaretAssertion] = []
    target_index: int | None = None  # index of the nearest non-assertion line so far
    for index, raw in enumerate(lines):
        match = pattern.match(raw)
        if not match:
            target_index = index
            continue
        caret_column = match.start("caret") + 1
        base = dict(fixture=fixture, root=root, file=file, column=caret_column,
                    word=match.group("word"), value=match.group("value"),
                    comment=raw, comment_line=index + 1)
        if target_index is None:
            found.append(CaretAssertion(line=index + 1, error=(
                f"{fixture}/{file}:{index + 1}: assertion comment has no code line above it"), **base))
            continue
        source = lines[target_index]
        symbol, start, problem = _identifier_at(source, caret_column)
        error = ""
        if problem:
            error = (f"{fixture}/{file}:{index + 1}: the caret at column {caret_column} {problem}\n"
                     f"  {target_index + 1} | {source}\n  {index + 1} | {raw}")
        elif not match.group("value"):
            error = f"{fixture}/{file}:{index + 1}: assertion {match.group('word')!r} has no value"
        found.append(CaretAssertion(line=target_index + 1, symbol=symbol, symbol_column=start,
                                    source=source, error=error, **base))
    return found


def _identifier_at(source: str, column: int) -> tuple[str, int, str]:
    """(identifier, its 1-based start column, problem) for the code point at ``column``."""
    index = column - 1
    if index >= len(source):
        return "", 0, f"is past the end of the code line ({len(source)} characters)"
    if not _IDENTIFIER_CHAR.match(source[index]):
        return "", 0, f"points at {source[index]!r}, not at an identifier"
    start = index
    while start > 0 and _IDENTIFIER_CHAR.match(source[start - 1]):
        start -= 1
    end = index + 1
    while end < len(source) and _IDENTIFIER_CHAR.match(source[end]):
        end += 1
    return source[start:end], start + 1, ""


EXPECTATIONS_SUFFIX = ".expectations"

_ENTRY = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<column>\d+)\s+(?P<symbol>\S+)\s+"
                    r"(?P<word>[A-Za-z_][\w-]*)\s*:\s*(?P<value>.*?)\s*$")


def _written_at(lines: list[str], symbol: str) -> list[str]:
    """``LINE:COLUMN`` of every place ``symbol`` is written as a whole identifier."""
    pattern = re.compile(r"(?<![\w$])" + re.escape(symbol) + r"(?![\w$])")
    return [f"{number}:{match.start() + 1}" for number, line in enumerate(lines, 1)
            for match in pattern.finditer(line)]


def parse_expectations(text: str, *, fixture: str = "", root: Path = Path("."),
                       origin: str = "", read: Callable[[str], str | None] | None = None,
                       ) -> list[CaretAssertion]:
    """The entries of an expectations file (``FILE:LINE:COLUMN  SYMBOL  WORD: VALUE``).

    ``read`` returns a root-relative file's text, or None when there is no such file (default:
    read it under ``root``). An entry is checked against the code before anything is asked: the
    identifier covering LINE:COLUMN must be SYMBOL, or the entry carries an error saying where
    SYMBOL is written now.
    """
    if read is None:
        def read(rel: str) -> str | None:
            try:
                return (root / rel).read_bytes().decode("utf-8", errors="replace")
            except OSError:
                return None
    sources: dict[str, list[str] | None] = {}
    found: list[CaretAssertion] = []
    for index, raw in enumerate(text.splitlines()):
        entry = raw.strip()
        if not entry or entry.startswith("#"):
            continue
        here = f"{origin}:{index + 1}"
        match = _ENTRY.match(entry)
        if not match:
            found.append(CaretAssertion(
                fixture=fixture, root=root, file=origin, line=index + 1, column=0, word="entry", value=entry,
                comment=raw, comment_line=index + 1, origin=origin,
                error=f"{here}: not an entry, want FILE:LINE:COLUMN  SYMBOL  WORD: VALUE\n  | {raw}"))
            continue
        file, line, column = match.group("file"), int(match.group("line")), int(match.group("column"))
        symbol, word, value = match.group("symbol"), match.group("word"), match.group("value")
        if file not in sources:
            content = read(file)
            sources[file] = None if content is None else content.splitlines()
        lines = sources[file]
        source, start, error = "", 0, ""
        if lines is None:
            error = f"{here}: {fixture}/{file} does not exist"
        elif not 1 <= line <= len(lines):
            error = f"{here}: {fixture}/{file} has no line {line} (it has {len(lines)})"
        else:
            source = lines[line - 1]
            written, start, problem = _identifier_at(source, column) if column >= 1 else ("", 0, "is not a column")
            if written != symbol:
                places = _written_at(lines, symbol)
                now = (f"{symbol!r} is written at {', '.join(places[:8])}{' ...' if len(places) > 8 else ''}"
                       if places else f"{symbol!r} is written nowhere in {file}")
                what = f"is {written!r}" if written else problem
                error = (f"{here}: the identifier at {file}:{line}:{column} {what}, not {symbol!r}; {now}\n"
                         f"  {file}:{line} | {source}\n  {here} | {raw}")
        if not error and not value:
            error = f"{here}: assertion {word!r} has no value"
        found.append(CaretAssertion(fixture=fixture, root=root, file=file, line=line, column=column, word=word,
                                    value=value, symbol=symbol, symbol_column=start,
                                    source=source, comment=raw, comment_line=index + 1, error=error,
                                    origin=origin))
    return found


# Folders under ``fixtures/`` that hold other fixtures rather than being one: ``seeds/`` keeps the
# seed conformance repositories, each checked by its own tests under ``tests/seeds/``.
_NOT_ROOTS = {"seeds"}


def fixture_roots() -> list[Path]:
    """Every folder directly under ``fixtures/`` is a project root (but those in ``_NOT_ROOTS``)."""
    if not FIXTURES_DIR.is_dir():
        return []
    return sorted(p for p in FIXTURES_DIR.iterdir()
                  if p.is_dir() and not p.name.startswith((".", "_")) and p.name not in _NOT_ROOTS)


def expectations_file(root: Path) -> Path:
    """Where a fixture root's expectations file is, if it has one: ``fixtures/NAME.expectations``."""
    return root.parent / f"{root.name}{EXPECTATIONS_SUFFIX}"


def collect_comment_assertions(root: Path) -> list[CaretAssertion]:
    """The caret comments in one fixture root's source files."""
    found: list[CaretAssertion] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED_DIRS)
        for name in sorted(filenames):
            path = Path(dirpath) / name
            prefix = _comment_prefix(path)
            if prefix is None:
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
            rel = path.relative_to(root).as_posix()
            found.extend(parse_assertions(text, prefix, fixture=root.name, root=root, file=rel))
    return found


def collect_assertions(roots: list[Path] | None = None) -> list[CaretAssertion]:
    """Every fixture root's assertions: its caret comments, then its expectations file's entries."""
    found: list[CaretAssertion] = []
    for root in fixture_roots() if roots is None else roots:
        found.extend(collect_comment_assertions(root))
        expectations = expectations_file(root)
        if expectations.is_file():
            found.extend(parse_expectations(expectations.read_text(encoding="utf-8"), fixture=root.name,
                                            root=root, origin=expectations.name))
    return found


def assertion_ids(assertions: list[CaretAssertion]) -> list[str]:
    """``python_app/app/main.py:7:def``; ``:col`` and then ``-N`` added where ids collide."""
    def plain(a: CaretAssertion) -> str:
        return f"{a.fixture}/{a.file}:{a.line}:{a.word}"

    def with_column(a: CaretAssertion) -> str:
        return f"{a.fixture}/{a.file}:{a.line}:{a.column}:{a.word}"

    plain_counts = Counter(plain(a) for a in assertions)
    ids = [plain(a) if plain_counts[plain(a)] == 1 else with_column(a) for a in assertions]
    counts = Counter(ids)
    seen: Counter[str] = Counter()
    unique = []
    for ident in ids:
        if counts[ident] > 1:
            seen[ident] += 1
            ident = f"{ident}-{seen[ident]}"
        unique.append(ident)
    return unique


# --------------------------------------------------------------------------- checking

_PROJECTS: dict[Path, Any] = {}


def _project(root: Path):
    """One Project per fixture root, so each fixture is indexed once per test session."""
    if root not in _PROJECTS:
        from jupyter_codetrace import Project

        _PROJECTS[root] = Project(root)
    return _PROJECTS[root]


def _as_dict(result: Any) -> dict:
    return result.to_dict() if hasattr(result, "to_dict") else dict(result)


def _show_target(root: Path, file: Any, line: Any) -> str:
    """The fixture's text at file:line, so a wrong answer can be read at a glance."""
    try:
        text = (root / str(file)).read_text(encoding="utf-8", errors="replace").splitlines()
        return f"{file}:{line} | {text[int(line) - 1].strip()}"
    except (OSError, ValueError, TypeError, IndexError):
        return f"{file}:{line} | <no such line>"


def _fail(a: CaretAssertion, what: str, payload: Any) -> None:
    pytest.fail(f"{what}\n{a.context()}\nresult:\n{pprint.pformat(payload, width=100, sort_dicts=False)}",
                pytrace=False)


_MODES = {"def": "definition", "decl": "declaration", "typedef": "type_definition"}


def check_location(project, a: CaretAssertion) -> None:
    file, sep, line = a.value.rpartition(":")
    if not sep or not line.strip().isdigit():
        pytest.fail(f"malformed location {a.value!r}, want FILE:LINE\n{a.context()}", pytrace=False)
    expected_file, expected_line = file.strip(), int(line)
    d = _as_dict(project.find_definition(a.symbol, a.file, a.line, a.column, mode=_MODES[a.word]))
    got = (d.get("status"), d.get("file"), d.get("line"))
    if got != ("found", expected_file, expected_line):
        _fail(a, f"find_definition(mode={_MODES[a.word]!r}) of {a.symbol!r}: "
                 f"expected {expected_file}:{expected_line}\n"
                 f"  want {_show_target(a.root, expected_file, expected_line)}\n"
                 f"  got  status={d.get('status')!r} "
                 f"{_show_target(a.root, d.get('file'), d.get('line')) if d.get('file') else ''}", d)


def check_kind(project, a: CaretAssertion) -> None:
    d = _as_dict(project.find_definition(a.symbol, a.file, a.line, a.column))
    if d.get("status") != "found" or d.get("kind") != a.value:
        _fail(a, f"kind of {a.symbol!r}: expected {a.value!r}, got status={d.get('status')!r} "
                 f"kind={d.get('kind')!r}", d)


def check_status(project, a: CaretAssertion) -> None:
    d = _as_dict(project.find_definition(a.symbol, a.file, a.line, a.column))
    if d.get("status") != a.value:
        _fail(a, f"status of {a.symbol!r}: expected {a.value!r}, got {d.get('status')!r}", d)


def check_library(project, a: CaretAssertion) -> None:
    """``library: PACKAGE[ FILE]``: found in library code of PACKAGE (``stdlib`` for the standard
    library), in FILE under its import root when given."""
    d = _as_dict(project.find_definition(a.symbol, a.file, a.line, a.column))
    package, _, file = a.value.partition(" ")
    library = d.get("library") or {}
    name = "stdlib" if library.get("kind") == "stdlib" else library.get("package")
    if d.get("status") != "found" or name != package or (file and d.get("file") != file):
        _fail(a, f"library of {a.symbol!r}: expected {a.value!r}, got status={d.get('status')!r} "
                 f"library={library!r} file={d.get('file')!r}", d)


def check_usage(project, a: CaretAssertion) -> None:
    include = a.value == "declaration"
    d = _as_dict(project.find_references(a.symbol, a.file, a.line, a.column, include_declaration=include))
    references = d.get("references") or []
    here = [r for r in references
            if r.get("file") == a.file and r.get("line") == a.line and r.get("column") == a.symbol_column]
    if d.get("status") != "found" or not here:
        _fail(a, f"find_references({a.symbol!r}) has no reference at {a.file}:{a.line}:{a.symbol_column} "
                 f"(status={d.get('status')!r})", d)
    if here[0].get("usage") != a.value:
        _fail(a, f"reference at {a.file}:{a.line}:{a.symbol_column}: expected usage {a.value!r}, "
                 f"got {here[0].get('usage')!r}", here[0])


def _places(value: str) -> list[tuple[str, int]] | None:
    """``FILE:LINE, FILE:LINE`` as (file, line) pairs; None when malformed; [] for ``none``."""
    if value.strip() == "none":
        return []
    places = []
    for item in value.split(","):
        file, sep, line = item.strip().rpartition(":")
        if not sep or not file or not line.strip().isdigit():
            return None
        places.append((file.strip(), int(line)))
    return places


def check_not_def(project, a: CaretAssertion) -> None:
    places = _places(a.value)
    if not places or len(places) != 1:
        pytest.fail(f"malformed location {a.value!r}, want FILE:LINE\n{a.context()}", pytrace=False)
    (trap,) = places
    d = _as_dict(project.find_definition(a.symbol, a.file, a.line, a.column))
    if (d.get("file"), d.get("line")) == trap:
        _fail(a, f"find_definition of {a.symbol!r} answered the trap {_show_target(a.root, *trap)} "
                 f"(status={d.get('status')!r}, resolution={d.get('resolution')!r})", d)
    if d.get("status") == "found":
        listed = [c for c in d.get("candidates") or [] if (c.get("file"), c.get("line")) == trap]
        if listed:
            _fail(a, f"find_definition of {a.symbol!r} lists the trap {_show_target(a.root, *trap)} among its "
                     f"candidates (answer {d.get('file')}:{d.get('line')}, resolution={d.get('resolution')!r})", d)


def check_refs_at(project, a: CaretAssertion) -> None:
    expected = _places(a.value)
    if expected is None:
        pytest.fail(f"malformed places {a.value!r}, want FILE:LINE, FILE:LINE ... or none\n{a.context()}",
                    pytrace=False)
    d = _as_dict(project.find_references(a.symbol, a.file, a.line, a.column, include_declaration=False))
    references = d.get("references") or []
    got = Counter((r.get("file"), r.get("line")) for r in references)
    want = Counter(expected)
    if d.get("status") != "found" or got != want:
        extra = sorted((got - want).elements())
        missing = sorted((want - got).elements())
        lines = [f"extra   {_show_target(a.root, f, n)}" for f, n in extra]
        lines += [f"missing {_show_target(a.root, f, n)}" for f, n in missing]
        _fail(a, f"references of {a.symbol!r} (status={d.get('status')!r}) are not exactly {a.value!r}\n  "
                 + "\n  ".join(lines), d)


def check_refs(project, a: CaretAssertion) -> None:
    if not a.value.strip().isdigit():
        pytest.fail(f"malformed count {a.value!r}\n{a.context()}", pytrace=False)
    expected = int(a.value)
    d = _as_dict(project.find_references(a.symbol, a.file, a.line, a.column, include_declaration=False))
    references = d.get("references") or []
    count = d.get("count", len(references))
    if d.get("status") != "found" or count != expected or len(references) != expected:
        listing = [f"{r.get('file')}:{r.get('line')}:{r.get('column')} {r.get('usage')}" for r in references]
        _fail(a, f"references of {a.symbol!r}: expected {expected}, got status={d.get('status')!r} "
                 f"count={count!r}\n  " + "\n  ".join(listing), d)


_GRAPHS: dict[int, dict] = {}


def _edges_by_site(project) -> dict:
    """(file, line, kind) -> {target qualified name: edge} from the project's whole graph."""
    key = id(project)
    if key not in _GRAPHS:
        graph = project.call_graph().to_dict()
        names = {n["id"]: n["qualified_name"] for n in graph["nodes"]}
        sites: dict = {}
        for e in graph["edges"]:
            sites.setdefault((e["file"], e["line"], e["kind"]), {})[names.get(e["target"], e["target"])] = e
        _GRAPHS[key] = sites
    return _GRAPHS[key]


_EDGE_WORDS = {"calls": "CALLS", "not-calls": "CALLS", "calls-exactly": "CALLS", "references": "REFERENCES", "extends": "EXTENDS", "implements": "IMPLEMENTS"}


def check_edge(project, a: CaretAssertion) -> None:
    kind = _EDGE_WORDS[a.word]
    here = _edges_by_site(project).get((a.file, a.line, kind), {})
    if a.word == "calls-exactly":
        want = set() if a.value.strip() == "none" else {q.strip() for q in a.value.split(",") if q.strip()}
        got = set(here)
        if got != want:
            _fail(a, f"expected exactly these {kind} edges from {a.file}:{a.line}: {sorted(want) or 'none'}\n"
                     f"  extra   {sorted(got - want)}\n  missing {sorted(want - got)}", here)
        return
    if a.value == "none":
        named = sorted(q for q in here if q.rsplit(".", 1)[-1] == a.symbol)
        if named:
            _fail(a, f"expected no {kind} edge to a {a.symbol!r} at {a.file}:{a.line}, got {named}", here)
        return
    if a.word.startswith("not-"):
        if a.value in here:
            _fail(a, f"expected no {kind} edge to {a.value!r} from {a.file}:{a.line}; edges there: {sorted(here)}", here)
        return
    if a.value not in here:
        _fail(a, f"expected a {kind} edge to {a.value!r} from {a.file}:{a.line}; edges there: {sorted(here)}", here)


CHECKS: dict[str, Callable[[Any, CaretAssertion], None]] = {
    "calls": check_edge,
    "not-calls": check_edge,
    "calls-exactly": check_edge,
    "not-def": check_not_def,
    "refs-at": check_refs_at,
    "references": check_edge,
    "extends": check_edge,
    "implements": check_edge,
    "def": check_location,
    "decl": check_location,
    "typedef": check_location,
    "kind": check_kind,
    "status": check_status,
    "library": check_library,
    "usage": check_usage,
    "refs": check_refs,
}

ASSERTIONS = collect_assertions()

# Known resolver gaps, each a strict xfail: the day one is fixed, its test fails until it is
# removed from this list. Say why in the reason; see the issue notes.
KNOWN_GAPS = {
    "cpp_app/include/geo/shape.hpp:28:refs-at": (
        "references of Square::area list the declarations of Shape::area and Circle::area and the calls "
        "`circle.area()` / `unit_circle().area()`, which resolve to Circle::area"),
    "rust_app/src/main.rs:27:def": (
        "inside macro arguments (`vec![Box::new(Circle::new(1.0))]`) `Circle::new` is two loose tokens; reading "
        "it as a path makes the consistency test fail, because graph/build.py keeps the first edge of a line "
        "to a target (`Box::new`, guessed by name) instead of the strongest"),
}


def _params(assertions):
    ids = assertion_ids(assertions)
    return [
        pytest.param(a, id=i, marks=pytest.mark.xfail(reason=KNOWN_GAPS[i], strict=True)) if i in KNOWN_GAPS
        else pytest.param(a, id=i)
        for a, i in zip(assertions, ids)
    ]


@pytest.mark.parametrize("a", _params(ASSERTIONS))
def test_fixture_assertion(a: CaretAssertion) -> None:
    if a.error:
        pytest.fail(a.error, pytrace=False)
    check = CHECKS.get(a.word)
    if check is None:   # a misspelt word would otherwise check nothing, silently
        pytest.fail(f"{a.file}:{a.line}: unknown assertion word {a.word!r}; known: {', '.join(sorted(CHECKS))}",
                    pytrace=False)
    check(_project(a.root), a)


def test_every_fixture_carries_assertions() -> None:
    """A fixture root without assertions is a fixture nobody checks."""
    per_root = Counter(a.fixture for a in ASSERTIONS)
    empty = [root.name for root in fixture_roots() if not per_root[root.name]]
    assert not empty, f"fixture roots without caret assertions: {empty}"


# The languages resolved precisely (not by the name-only fallback), and the least each one's
# fixtures must carry: a wrong answer beside the right one is only caught by a negative or exact
# word, so deleting those (or never writing them for a new language) fails here.
PRECISE_LANGUAGES = ("python", "typescript", "javascript", "rust", "c", "cpp", "go", "java", "elixir")
_LANGUAGE_ALIASES = {"tsx": "typescript", "jsx": "javascript"}
NEGATIVE_WORDS = frozenset({"not-def", "not-calls", "calls-exactly", "refs-at"})
MINIMUM_ASSERTIONS = {
    "def": 10,                                          # find_definition's answer
    "negative": 5,                                      # any of NEGATIVE_WORDS
    "not-def": 5,                                       # traps for find_definition
    "exact": 3,                                         # calls-exactly and refs-at together
}


def _language_of(a: CaretAssertion) -> str | None:
    try:
        from jupyter_codetrace.languages import for_path

        name = getattr(for_path(a.file), "name", None)
    except Exception:  # noqa: BLE001 - an unknown extension is no precise language
        return None
    return _LANGUAGE_ALIASES.get(name, name)


def assertion_counts(assertions: list[CaretAssertion]) -> dict[str, Counter]:
    """language -> Counter of word kinds (``def``, ``negative``, ``not-def``, ``exact``), over
    the well-formed assertions."""
    counts: dict[str, Counter] = {}
    for a in assertions:
        language = _language_of(a)
        if a.error or language is None:
            continue
        kinds = counts.setdefault(language, Counter())
        kinds[a.word] += 1
        if a.word in NEGATIVE_WORDS:
            kinds["negative"] += 1
        if a.word in ("calls-exactly", "refs-at"):
            kinds["exact"] += 1
    return counts


@pytest.mark.parametrize("language", PRECISE_LANGUAGES)
def test_each_precise_language_carries_enough_assertions(language: str) -> None:
    """Counted from the collected assertions, so deleting them from a fixture fails here."""
    kinds = assertion_counts(ASSERTIONS).get(language, Counter())
    short = {kind: f"{kinds[kind]} < {least}" for kind, least in MINIMUM_ASSERTIONS.items() if kinds[kind] < least}
    assert not short, f"{language}: too few fixture assertions of each kind: {short} (have {dict(kinds)})"


def test_assertion_counts_are_per_language_and_kind() -> None:
    text = ("x = f(1)\n#   ^ def: a.py:1\n#   ^ not-def: b.py:2\n#   ^ refs-at: a.py:1\n"
            "#   ^ calls-exactly: none\n#   ^ def:\n")
    counts = assertion_counts(parse_assertions(text, "#", file="a.py"))
    assert counts["python"] == Counter({"def": 1, "not-def": 1, "refs-at": 1, "calls-exactly": 1,
                                        "negative": 3, "exact": 2})


def test_parser_reads_carets_in_code_points() -> None:
    text = 'naïve = "héllo"; résumé(naïve)\n#                ^ def: x.py:1\n#                       ^ usage: read\n'
    first, second = parse_assertions(text, "#", fixture="f", file="x.py")
    assert (first.symbol, first.symbol_column, first.line, first.column) == ("résumé", 18, 1, 18)
    assert (second.symbol, second.symbol_column, second.column) == ("naïve", 25, 25)
    assert (first.word, first.value) == ("def", "x.py:1")


def test_parser_reports_a_caret_off_an_identifier() -> None:
    text = "x = f(1)\n#    ^ def: a.py:1\n//   ^ not: mine\n"
    (only,) = parse_assertions(text, "#", file="a.py")
    assert only.error and "'('" in only.error
    (ts,) = parse_assertions("a = b(c)\n//  ^ def: a.ts:1\n", "//", file="a.ts")
    assert (ts.symbol, ts.error) == ("b", "")


def test_a_fixture_with_an_expectations_file_keeps_its_code_clean() -> None:
    """Its answers live in one place: no caret comment is left in (or creeps back into) its code."""
    for root in fixture_roots():
        if expectations_file(root).is_file():
            stray = [f"{a.file}:{a.comment_line} | {a.comment.strip()}" for a in collect_comment_assertions(root)]
            assert not stray, f"{root.name} has {expectations_file(root).name}, yet carries caret comments:\n" + \
                "\n".join(stray)


def test_expectations_entries_name_their_symbol() -> None:
    code = {"app/main.py": "from app.models import User\nUser().save()\n"}
    text = ("# a comment, then a blank line\n\n"
            "app/main.py:2:8  save  def: app/models.py:14\n"
            "app/main.py:2:1  User  usage: call\n")
    good, second = parse_expectations(text, fixture="f", origin="f.expectations", read=code.get)
    assert (good.file, good.line, good.column, good.symbol, good.symbol_column) == ("app/main.py", 2, 8, "save", 8)
    assert (good.word, good.value, good.error, good.comment_line) == ("def", "app/models.py:14", "", 3)
    assert (second.symbol, second.word, second.value, second.error) == ("User", "usage", "call", "")
    # A column inside the identifier is taken as an editor's cursor; the reference column is its start.
    (inside,) = parse_expectations("app/main.py:2:10  save  def: app/models.py:14\n", read=code.get)
    assert (inside.column, inside.symbol_column, inside.error) == (10, 8, "")


def test_expectations_entries_fail_loudly_when_the_code_moved() -> None:
    code = {"app/main.py": "import os\nfrom app.models import User\nUser().save()\n"}
    (moved,) = parse_expectations("app/main.py:2:8  save  def: app/models.py:14\n", fixture="f",
                                  origin="f.expectations", read=code.get)
    assert "f.expectations:1" in moved.error and "is 'app', not 'save'" in moved.error
    assert "'save' is written at 3:8" in moved.error
    (off,) = parse_expectations("app/main.py:3:7  save  def: x.py:1\n", read=code.get)
    assert "points at '.'" in off.error
    (gone,) = parse_expectations("app/main.py:3:1  Order  def: x.py:1\n", read=code.get)
    assert "'Order' is written nowhere" in gone.error
    (short,) = parse_expectations("app/main.py:9:1  User  def: x.py:1\n", read=code.get)
    assert "has no line 9" in short.error
    (missing,) = parse_expectations("app/gone.py:1:1  User  def: x.py:1\n", read=code.get)
    assert "does not exist" in missing.error
    bad, empty = parse_expectations("app/main.py:3 User def: x.py:1\napp/main.py:3:1  User  def:\n",
                                    read=code.get)
    assert bad.word == "entry" and "not an entry" in bad.error
    assert "has no value" in empty.error
