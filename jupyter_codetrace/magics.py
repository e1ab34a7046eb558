"""IPython magics: ``%codetrace``, ``%def``, ``%refs``, ``%trace``, ``%paths``, ``%deps``,
``%dependents``. Each parses its line, makes one ``Project`` call and returns the result,
which renders itself (Markdown card, HTML call tree, Graphviz SVG) — so ``r = %def foo``
gives the data too (``r.to_dict()``).

    %load_ext jupyter_codetrace
    %codetrace ../fixtures/demo
    %def OrderService.place_order
    %refs compute_total --no-tests
    %trace compute_total --calls
    %paths inventory/cli.py:main round_money

A name the project does not define is looked for next in this kernel's own executed cells
(``In``), which are indexed as a notebook of their own by the same engine, and last among the
kernel's live objects through ``inspect`` (an installed library), marked as outside the project.
"""

from __future__ import annotations

import builtins
import dataclasses
import inspect
import json
import linecache
import os
import re
import tempfile
from pathlib import Path

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .errors import InvalidRequest
from .project import Project
from .results import DefinitionResult, ReferencesResult, library_label

__all__ = ["CodetraceMagics", "load_ipython_extension", "unload_ipython_extension", "find_root"]

_ROOT_MARKERS = (".git", "pyproject.toml", "package.json", "Cargo.toml", "go.mod")
_SESSION_CELL = re.compile(r"^<ipython-input-(\d+)-[0-9a-f]+>$|^/tmp/ipykernel_\d+/\d+\.py$")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
_SESSION_FILE = "session.ipynb"
_NOT_WHOLE = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)$")   # a number where LINE or COL goes


def find_root(start: str | os.PathLike) -> Path:
    """The nearest folder at or above ``start`` holding a repository marker, else ``start``."""
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in _ROOT_MARKERS):
            return folder
    return start


def _location(text: str) -> tuple[str, int | None, int | None]:
    """``FILE[:LINE[:COL]]`` (a Windows drive letter or a colon in a name stays in FILE)."""
    parts = text.split(":")
    numbers = []
    while len(parts) > 1 and parts[-1].isdigit() and len(numbers) < 2:
        numbers.insert(0, int(parts.pop()))
    if len(parts) > 1 and _NOT_WHOLE.match(parts[-1]):
        # `main.py:1.5`, `main.py:-3`: a line that is not a whole number >= 1, not a file name
        raise UsageError(f"expected FILE[:LINE[:COL]] with LINE and COL whole numbers >= 1, got {text!r}")
    file = ":".join(parts)
    line = numbers[0] if numbers else None
    column = numbers[1] if len(numbers) > 1 else None
    return file, line, column


class _Session:
    """This kernel's executed cells written out as one notebook in a private folder and indexed
    by its own ``Project``: names defined in earlier cells — even in a notebook that was never
    saved — are then resolved by the same engine as the repository, cell by cell, with later
    cells rebinding a name as they do at run time.

    The cells are ``In`` (cell ``n`` of that notebook is ``In[n]``; ``In[0]`` is the empty entry
    IPython keeps). Cells run without history (nbval, some front ends) are not in ``In``; then
    the compiler's cache of every cell run, in run order, stands in, labelled "session cell k"."""

    def __init__(self, shell):
        self.shell = shell
        self._folder: tempfile.TemporaryDirectory | None = None
        self._project: Project | None = None
        self._written: list[str] | None = None
        self.labels: list[str] = []

    def _history(self) -> tuple[list[str], list[str]]:
        history = [str(cell) for cell in (self.shell.user_ns.get("In") or [""])]
        if len(history) > 1:
            return history, [f"In[{n}]" for n in range(len(history))]
        names = [name for name in getattr(getattr(self.shell, "compile", None), "_filename_map", {})
                 if name in linecache.cache]
        cells = [""] + ["".join(linecache.cache[name][2]) for name in names]
        return cells, [""] + [f"session cell {k}" for k in range(1, len(cells))]

    def _sync(self, probe: str) -> tuple[Project, int]:
        """Write the history plus a last cell holding just ``probe`` (the name asked about):
        resolving the name *there* gives the binding in force now."""
        history, self.labels = self._history()
        cells = history + [probe]
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="codetrace-session-")
            root = Path(self._folder.name) / "cells"
            root.mkdir()
            self._project = Project(root, cache_dir=Path(self._folder.name) / "cache")
        if cells != self._written:
            notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
                {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}
                for source in cells]}
            (Path(self._project.root) / _SESSION_FILE).write_text(json.dumps(notebook), encoding="utf-8")
            self._written = cells
        return self._project, len(history)

    def definition(self, symbol: str) -> DefinitionResult | None:
        if not _DOTTED.match(symbol):
            return None
        project, probe = self._sync(symbol)
        if probe < 2:
            return None  # nothing has run yet but the %def itself
        name = symbol.rsplit(".", 1)[-1]
        result = project.find_definition(name, _SESSION_FILE, 1, len(symbol) - len(name) + 1, cell=probe)
        if result.found and result.library is not None:
            # `import json` ran in a cell: `json.dumps` is the standard library's
            return dataclasses.replace(result, message=f"Outside the project: {library_label(result.library)}.")
        if not result.found or result.file != _SESSION_FILE or result.cell is None:
            return None
        return dataclasses.replace(result, file=self.labels[result.cell], cell=None, language="python",
                                   message="Defined in this notebook session (a cell run in this kernel).")

    def references(self, symbol: str, include_declaration: bool,
                   definition: DefinitionResult | None = None) -> ReferencesResult | None:
        """References of a name defined in this session's cells (``definition``: its
        ``definition(symbol)`` when the caller has it already)."""
        definition = definition or self.definition(symbol)
        if definition is None or definition.library is not None:
            return None
        project, probe = self._sync(symbol)
        cell = self.labels.index(definition.file)
        result = project.find_references(definition.name, _SESSION_FILE, definition.line, definition.column,
                                         include_declaration, cell=cell)
        if not result.found:
            return result
        shown = tuple(dataclasses.replace(ref, file=self.labels[ref.cell], cell=None)
                      for ref in result.references if ref.cell != probe)  # not the probe cell itself
        where = dataclasses.replace(result.definition, file=definition.file, cell=None)
        return dataclasses.replace(result, references=shown, definition=where)

    def close(self) -> None:
        if self._project is not None:
            self._project.close()
        if self._folder is not None:
            self._folder.cleanup()
        self._folder = self._project = self._written = None


@magics_class
class CodetraceMagics(Magics):
    """Code navigation from a notebook: definitions, references, call trees and paths."""

    def __init__(self, shell):
        super().__init__(shell)
        self._project: Project | None = None
        self.session = _Session(shell)

    # ------------------------------------------------------------------ project
    @property
    def project(self) -> Project:
        if self._project is None:
            self._project = Project(find_root(self._notebook_folder()))
        return self._project

    def _notebook_folder(self) -> Path:
        """The running notebook's folder when the server says which notebook this is
        (``JPY_SESSION_NAME`` / ``__session__``), else the kernel's working directory."""
        named = self.shell.user_ns.get("__session__") or os.environ.get("JPY_SESSION_NAME")
        if named:
            path = Path(named)
            path = path if path.is_absolute() else Path.cwd() / path
            if path.parent.is_dir():
                return path.parent
        return Path.cwd()

    def _run(self, query, *args, **kwargs):
        try:
            return query(*args, **kwargs)
        except InvalidRequest as error:
            raise UsageError(str(error)) from None

    @line_magic
    def codetrace(self, line: str):
        """%codetrace [ROOT] — show or set the project root for this kernel; prints index status.

        Default root: the notebook folder's repository (the nearest folder above it with .git,
        pyproject.toml, package.json, Cargo.toml or go.mod), else the working directory."""
        root = line.strip().strip("'\"")
        if root:
            path = Path(os.path.expanduser(root))
            if not path.is_dir():
                raise UsageError(f"%codetrace: ROOT {root!r} is not a folder")
            if self._project is not None:
                self._project.close()
            self._project = Project(path)
        return self.project.index()

    # ------------------------------------------------------------------ lookups
    def _definition_by_name(self, symbol: str) -> DefinitionResult:
        """The best definition of a bare or dotted name: in the project (others listed in the
        message), else in this kernel's earlier cells, else a live object of the kernel."""
        trace = self._run(self.project.trace, symbol)
        if trace.found:
            return trace.definition if not trace.note else dataclasses.replace(trace.definition, message=trace.note)
        found = self.session.definition(symbol) or self._live(symbol)
        if found is not None:
            return found
        return DefinitionResult(trace.status, symbol, message=trace.message, suggestions=trace.suggestions)

    def _live(self, symbol: str) -> DefinitionResult | None:
        """An object of the running kernel that the repository does not define (an installed
        library): its source through ``inspect``, marked as outside the project."""
        if not _DOTTED.match(symbol):
            return None  # only names are looked up: nothing the user typed is evaluated
        parts = symbol.split(".")
        if parts[0] in self.shell.user_ns:
            value = self.shell.user_ns[parts[0]]
        elif hasattr(builtins, parts[0]):
            value = getattr(builtins, parts[0])
        else:
            return None
        for part in parts[1:]:
            try:
                value = inspect.getattr_static(value, part)
            except AttributeError:
                return None
            value = getattr(value, "__func__", value)  # classmethod / staticmethod wrappers
        target = value if _has_source_kind(value) else type(value)
        note = "" if target is value else f" `{symbol}` is a `{target.__qualname__}` instance: showing its class."
        try:
            file = inspect.getsourcefile(target)
            lines, start = inspect.getsourcelines(target)
        except (TypeError, OSError):
            return DefinitionResult("builtin", symbol, message="Built-in symbol (no source available)" + note)
        cell = _SESSION_CELL.match(file or "")
        if cell:  # a cell that `In` no longer holds (a %run, an exec): still this session
            file = "In[…] (this session)"
            message = "Defined in this notebook session."
        else:
            message = "Outside the project: found in the running kernel."
        return DefinitionResult(
            "found", symbol, name=getattr(target, "__name__", symbol), kind=_live_kind(target), language="python",
            file=file, line=start or 1, column=1, end_line=(start or 1) + len(lines) - 1, end_column=1,
            doc=inspect.getdoc(target), code="".join(lines[:80]).rstrip("\n"), exported=None,
            message=message + note, resolution="inferred", mode_resolution="exact")

    def _where(self, symbol: str) -> tuple[str, str]:
        """``FILE:SYMBOL`` or a bare ``SYMBOL`` -> (file, symbol), looking the file up by name."""
        if ":" in symbol:
            file, _, name = symbol.rpartition(":")
            return file, name
        trace = self._run(self.project.trace, symbol)
        if not trace.found:
            raise UsageError(f"{symbol!r}: {trace.message}")
        return trace.definition.file, ".".join(trace.definition.path) or symbol

    # ------------------------------------------------------------------ magics
    @magic_arguments("def")
    @argument("symbol", help="a name (Client, Client.send)")
    @argument("location", nargs="?", help="FILE[:LINE[:COL]] where the name is written")
    @argument("--cell", type=int, default=None, help="for a notebook FILE: the cell (0-based); LINE is in the cell")
    @argument("--mode", default="definition", choices=["definition", "declaration", "type_definition"])
    @argument("--no-code", action="store_true", help="leave the code out")
    @argument("--no-doc", action="store_true", help="leave the docstring out")
    @line_magic("def")
    def def_(self, line: str):
        """Go to definition. Without a location the name is looked up across the project (best
        match first, the others listed), then in this session's cells, then among live objects."""
        args = self._parse(self.def_, line)
        if args.location:
            file, number, column = _location(args.location)
            if number is None:
                if args.cell is not None:
                    raise UsageError("%def: --cell needs FILE:LINE (the line within the cell)")
                found = self._run(self.project.trace, args.symbol, file)
                result = found.definition if found.found else \
                    DefinitionResult(found.status, args.symbol, message=found.message, suggestions=found.suggestions)
            else:
                result = self._run(self.project.find_definition, args.symbol, file, number, column, args.mode,
                                   args.cell)
        elif args.cell is not None:
            raise UsageError("%def: --cell needs a notebook FILE:LINE")
        else:
            result = self._definition_by_name(args.symbol)
        if result.found and (args.no_code or args.no_doc):
            result = dataclasses.replace(result, code=None if args.no_code else result.code,
                                         doc=None if args.no_doc else result.doc)
        return result

    @magic_arguments()
    @argument("symbol")
    @argument("location", nargs="?", help="FILE:LINE[:COL] where the name is written; default: its definition")
    @argument("--cell", type=int, default=None, help="for a notebook FILE: the cell (0-based); LINE is in the cell")
    @argument("--include-declaration", action="store_true")
    @argument("--no-tests", action="store_true", help="hide references in test files")
    @line_magic
    def refs(self, line: str):
        """Find every reference, grouped by file, with usage kinds and test files marked."""
        args = self._parse(self.refs, line)
        if args.location:
            file, number, column = _location(args.location)
            if number is None:
                raise UsageError("%refs: give FILE:LINE (or no location to start from the definition)")
            cell = args.cell
        elif args.cell is not None:
            raise UsageError("%refs: --cell needs a notebook FILE:LINE")
        else:
            trace = self._run(self.project.trace, args.symbol)
            if not trace.found:
                found = self.session.definition(args.symbol)
                in_session = self.session.references(args.symbol, args.include_declaration, found)
                if in_session is not None:
                    return in_session
                library = found
                if library is not None and library.library is not None:
                    # `json.dumps`: where the project uses the library's function
                    result = self._run(self.project.find_references, library.name, library.file, library.line,
                                       library.column, args.include_declaration)
                    if result.found and args.no_tests:
                        result = dataclasses.replace(result, references=tuple(r for r in result.references
                                                                              if not r.test))
                    return result
                live = self._live(args.symbol)
                message = trace.message if live is None else \
                    f"{args.symbol!r} is not defined in the project; it lives in the running kernel " \
                    f"({live.file or 'built-in'}), and references are searched in the project only."
                return ReferencesResult(trace.status, args.symbol, message, trace.suggestions)
            d = trace.definition
            file, number, column, cell = d.file, d.line, d.column, d.cell
        result = self._run(self.project.find_references, args.symbol.split(".")[-1], file, number, column,
                           args.include_declaration, cell)
        if result.found and args.no_tests:
            result = dataclasses.replace(result, references=tuple(r for r in result.references if not r.test))
        return result

    @magic_arguments()
    @argument("symbol")
    @argument("--file", default=None, help="the file where you met the symbol")
    @argument("--references", action="store_true")
    @argument("--calls", action="store_true", help="incoming and outgoing call trees")
    @argument("--types", action="store_true")
    @argument("--all", action="store_true", help="references, calls and types")
    @argument("--explore", action="store_true",
              help="an interactive call-tree explorer (ipywidgets) instead: for large trees")
    @line_magic
    def trace(self, line: str):
        """Everything about a symbol: definition, and references, call trees, types on request.
        With --explore: a widget whose nodes expand on click and show their definition."""
        args = self._parse(self.trace, line)
        if args.explore:
            from .widgets import CallTreeExplorer  # ipywidgets only when asked for

            return CallTreeExplorer(self.project, args.symbol, args.file)
        every = args.all
        return self._run(self.project.trace, args.symbol, args.file, args.references or every,
                         args.calls or every, args.types or every)

    @magic_arguments()
    @argument("source", help="SYMBOL or FILE:SYMBOL")
    @argument("target", help="SYMBOL or FILE:SYMBOL")
    @line_magic
    def paths(self, line: str):
        """How two symbols connect, as a Graphviz diagram (text form in terminals)."""
        args = self._parse(self.paths, line)
        return self._run(self.project.paths_between, self._where(args.source), self._where(args.target))

    @magic_arguments()
    @argument("symbol", help="SYMBOL or FILE:SYMBOL")
    @line_magic
    def deps(self, line: str):
        """What a symbol depends on, transitively."""
        args = self._parse(self.deps, line)
        return self._run(self.project.dependencies_of, *self._where(args.symbol))

    @magic_arguments()
    @argument("symbol", help="SYMBOL or FILE:SYMBOL")
    @line_magic
    def dependents(self, line: str):
        """Who depends on a symbol, transitively."""
        args = self._parse(self.dependents, line)
        return self._run(self.project.dependents_of, *self._where(args.symbol))

    def _parse(self, magic, line: str):
        try:
            return parse_argstring(magic, line)
        except UsageError:
            raise
        except SystemExit:  # argparse's own exit on a malformed line
            raise UsageError(f"%{magic.__name__.rstrip('_')}: invalid arguments {line!r}") from None
        except ValueError as error:  # the line's quoting: `%def "unbalanced`
            raise UsageError(f"%{magic.__name__.rstrip('_')}: {error} in {line!r}") from None

    def close(self) -> None:
        self.session.close()
        if self._project is not None:
            self._project.close()
            self._project = None


def _has_source_kind(value) -> bool:
    return inspect.isclass(value) or inspect.isroutine(value) or inspect.ismodule(value) \
        or inspect.iscode(value) or inspect.isframe(value) or inspect.istraceback(value)


def _live_kind(value) -> str:
    if inspect.isclass(value):
        return "class"
    if inspect.ismethod(value):
        return "method"
    if inspect.isroutine(value):
        return "function"
    if inspect.ismodule(value):
        return "module"
    return "variable"


def load_ipython_extension(shell) -> None:
    if not any(isinstance(m, CodetraceMagics) for m in shell.magics_manager.registry.values()):
        shell.register_magics(CodetraceMagics)


def unload_ipython_extension(shell) -> None:
    """Close the project and the session index (a later ``%load_ext`` starts afresh)."""
    magics = shell.magics_manager.registry.pop(CodetraceMagics.__name__, None)
    if magics is not None:
        magics.close()
        for name in ("codetrace", "def", "refs", "trace", "paths", "deps", "dependents"):
            shell.magics_manager.magics["line"].pop(name, None)
