"""IPython magics: ``%codetrace``, ``%def``, ``%refs``, ``%trace``, ``%paths``, ``%deps``,
``%dependents``. Each parses its line, makes one ``Project`` call and returns the result,
which renders itself (Markdown card, HTML call tree, Graphviz SVG) — so ``r = %def foo``
gives the data too (``r.to_dict()``).

    %load_ext jupyter_codetrace
    %codetrace ../fixtures/graph_py
    %def place_order
    %trace total --calls
    %paths main.py:main shop/pricing.py:round_price
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
from pathlib import Path

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .errors import InvalidRequest
from .project import Project
from .results import DefinitionResult

__all__ = ["CodetraceMagics", "load_ipython_extension", "unload_ipython_extension", "find_root"]

_ROOT_MARKERS = (".git", "pyproject.toml", "package.json", "Cargo.toml", "go.mod")
_SESSION_CELL = re.compile(r"^<ipython-input-(\d+)-[0-9a-f]+>$|^/tmp/ipykernel_\d+/\d+\.py$")


def find_root(start: str | os.PathLike) -> Path:
    """The nearest folder at or above ``start`` holding a repository marker, else ``start``."""
    start = Path(start).resolve()
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in _ROOT_MARKERS):
            return folder
    return start


def _location(text: str) -> tuple[str, int | None, int | None]:
    """``FILE[:LINE[:COL]]``."""
    parts = text.split(":")
    numbers = []
    while len(parts) > 1 and parts[-1].isdigit() and len(numbers) < 2:
        numbers.insert(0, int(parts.pop()))
    file = ":".join(parts)
    line = numbers[0] if numbers else None
    column = numbers[1] if len(numbers) > 1 else None
    return file, line, column


@magics_class
class CodetraceMagics(Magics):
    """Code navigation from a notebook: definitions, references, call trees and paths."""

    def __init__(self, shell):
        super().__init__(shell)
        self._project: Project | None = None

    # ------------------------------------------------------------------ project
    @property
    def project(self) -> Project:
        if self._project is None:
            self._project = Project(find_root(os.getcwd()))
        return self._project

    def _run(self, query, *args, **kwargs):
        try:
            return query(*args, **kwargs)
        except InvalidRequest as error:
            raise UsageError(str(error)) from None

    @line_magic
    def codetrace(self, line: str):
        """%codetrace [ROOT] — show or set the project root for this kernel; prints index status."""
        root = line.strip()
        if root:
            path = Path(os.path.expanduser(root))
            if not path.is_dir():
                raise UsageError(f"%codetrace: {root!r} is not a folder")
            if self._project is not None:
                self._project.close()
            self._project = Project(path)
        return self.project.index()

    # ------------------------------------------------------------------ lookups
    def _definition_by_name(self, symbol: str) -> DefinitionResult:
        """The best definition of a bare or dotted name across the project; a live object of the
        kernel as a fallback (marked as outside the project)."""
        trace = self._run(self.project.trace, symbol)
        if trace.found:
            return trace.definition if not trace.note else dataclasses.replace(trace.definition, message=trace.note)
        live = self._live(symbol)
        if live is not None:
            return live
        return DefinitionResult(trace.status, symbol, message=trace.message, suggestions=trace.suggestions)

    def _live(self, symbol: str) -> DefinitionResult | None:
        """An object of the running kernel that the repository does not define (an installed
        library): its source through ``inspect``, marked as outside the project."""
        try:
            value = eval(symbol, self.shell.user_ns)  # noqa: S307 - the user's own expression in their own kernel
        except Exception:  # noqa: BLE001 - not a live name: nothing to show
            return None
        try:
            file = inspect.getsourcefile(value)
            lines, start = inspect.getsourcelines(value)
        except (TypeError, OSError):
            return DefinitionResult("builtin", symbol, message="Built-in symbol (no source available)")
        cell = _SESSION_CELL.match(file or "")
        if cell:  # defined in a cell of this kernel session (maybe not saved to any file yet)
            file = f"In[{cell.group(1)}]" if cell.group(1) else "In[…] (this session)"
            message = "Defined in this notebook session (kernel history)."
        else:
            message = "Outside the project: found in the running kernel."
        return DefinitionResult(
            "found", symbol, name=getattr(value, "__name__", symbol), kind=_live_kind(value), language="python",
            file=file, line=start or 1, column=1, end_line=(start or 1) + len(lines) - 1, end_column=1,
            doc=inspect.getdoc(value), code="".join(lines[:80]).rstrip("\n"), exported=None,
            message=message, resolution="inferred", mode_resolution="exact")

    def _where(self, symbol: str) -> tuple[str, str]:
        """``FILE:SYMBOL`` or a bare ``SYMBOL`` -> (file, symbol), looking the file up by name."""
        if ":" in symbol:
            file, _, name = symbol.rpartition(":")
            return file, name
        definition = self._definition_by_name(symbol)
        if not definition.found or definition.file is None or definition.resolution == "inferred" \
                and definition.message and not definition.path:
            raise UsageError(definition.message or f"{symbol!r} is not defined in the project")
        return definition.file, ".".join(definition.path) or symbol

    # ------------------------------------------------------------------ magics
    @magic_arguments()
    @argument("symbol", help="a name (Client, Client.send)")
    @argument("location", nargs="?", help="FILE[:LINE[:COL]] where the name is written")
    @argument("--mode", default="definition", choices=["definition", "declaration", "type_definition"])
    @argument("--no-code", action="store_true", help="leave the code out")
    @argument("--no-doc", action="store_true", help="leave the docstring out")
    @line_magic("def")
    def def_(self, line: str):
        """Go to definition. Without a location the name is looked up across the project."""
        args = self._parse(self.def_, line)
        if args.location:
            file, number, column = _location(args.location)
            if number is None:
                result = self._run(self.project.trace, args.symbol, file).definition \
                    or self._definition_by_name(args.symbol)
            else:
                result = self._run(self.project.find_definition, args.symbol, file, number, column, args.mode)
        else:
            result = self._definition_by_name(args.symbol)
        if result.found and (args.no_code or args.no_doc):
            result = dataclasses.replace(result, code=None if args.no_code else result.code,
                                         doc=None if args.no_doc else result.doc)
        return result

    @magic_arguments()
    @argument("symbol")
    @argument("location", nargs="?", help="FILE[:LINE[:COL]]; default: the symbol's definition")
    @argument("--include-declaration", action="store_true")
    @argument("--no-tests", action="store_true", help="hide references in test files")
    @line_magic
    def refs(self, line: str):
        """Find every reference, grouped by file, with usage kinds."""
        args = self._parse(self.refs, line)
        if args.location:
            file, number, column = _location(args.location)
            cell = None
            if number is None:
                raise UsageError("%refs: give FILE:LINE (or no location to start from the definition)")
        else:
            definition = self._definition_by_name(args.symbol)
            if not definition.found or definition.line is None or definition.message and \
                    definition.resolution == "inferred" and not definition.path:
                return definition  # a live object: it has no references in the project
            file, number, column, cell = definition.file, definition.line, definition.column, definition.cell
        result = self._run(self.project.find_references, args.symbol.split(".")[-1], file, number, column,
                           args.include_declaration, cell)
        if result.found and args.no_tests:
            result = dataclasses.replace(result, references=tuple(r for r in result.references if not r.test))
        return result

    @magic_arguments()
    @argument("symbol")
    @argument("--file", default=None, help="the file where you met the symbol")
    @argument("--references", action="store_true")
    @argument("--calls", action="store_true")
    @argument("--types", action="store_true")
    @argument("--all", action="store_true", help="references, calls and types")
    @line_magic
    def trace(self, line: str):
        """Everything about a symbol: definition, and references, call trees, types on request."""
        args = self._parse(self.trace, line)
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


def _live_kind(value) -> str:
    if inspect.isclass(value):
        return "class"
    if inspect.ismethod(value):
        return "method"
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return "function"
    if inspect.ismodule(value):
        return "module"
    return "variable"


def load_ipython_extension(shell) -> None:
    shell.register_magics(CodetraceMagics)


def unload_ipython_extension(shell) -> None:
    """Nothing to undo: IPython keeps registered magics until the kernel stops."""
