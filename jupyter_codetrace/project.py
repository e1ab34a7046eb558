"""Project: the Python API. Each method is a thin delegate to one query in ``queries/``."""

from __future__ import annotations

import os
from typing import Iterable, Sequence

from .index.indexer import Index, IndexStats, Progress
from .queries.context import QueryContext
from .queries.definition import find_definition
from .results import (
    DefinitionResult, GraphResult, LibrarySourceResult, ReferencesResult, SymbolsResult, TraceResult,
)
from .workspace import Workspace

__all__ = ["Project"]


class Project:
    """Code navigation over one repository.

    Cheap to create: nothing is read until the first query (or ``index()``). Every query
    answers from what is on disk now; changed files are re-indexed first.

    >>> project = Project("fixtures/python_app")                       # doctest: +SKIP
    >>> project.find_definition("Client", "app/main.py", 3).file       # doctest: +SKIP
    'app/client.py'
    """

    def __init__(self, root: str | os.PathLike, *, cache_dir: str | os.PathLike | None = None,
                 max_file_size: int = 2_000_000, exclude: Sequence[str] = (), workers: int | None = None,
                 python: str | os.PathLike | None = None):
        """``python``: the interpreter whose import path (standard library, site-packages) names
        from libraries resolve into; default ``$CODETRACE_PYTHON``, else the running one (in a
        notebook: the kernel's)."""
        self.workspace = Workspace(root, max_file_size=max_file_size, exclude=exclude)
        self._index = Index(self.workspace, cache_dir=cache_dir, workers=workers)
        python = python or os.environ.get("CODETRACE_PYTHON") or None
        self._context = QueryContext(self.workspace, self._index, str(python) if python else None)
        self._ahead = None   # AheadUpdates while watching

    def for_python(self, python: str | os.PathLike) -> "Project":
        """This project with library names resolved in another interpreter's import path (a
        notebook kernel's): the same index and files, its own resolutions and graph. While this
        project ``watch()``es, its thread takes saves in for the new one too."""
        other = object.__new__(Project)
        other.workspace, other._index = self.workspace, self._index
        other._context = QueryContext(self.workspace, self._index, str(python))
        other._ahead = None
        if self._ahead is not None and self._ahead.running:
            self._ahead.follow(other._context)
        return other

    @property
    def root(self) -> str:
        return str(self.workspace.root)

    def index(self, progress: Progress | None = None) -> IndexStats:
        """(Re)index now; returns what was seen: files by language, skipped files and why, timings."""
        with self._context.lock:
            return self._index.refresh(progress, report=True)

    def compile_queries(self, languages: Iterable[str] | None = None) -> None:
        """Compile the parsing queries of ``languages`` (names as ``index()`` counts them; default:
        all the project's) now, 0.2-0.7 s each, so that the first file saved in this process is
        answered as fast as the next: for a long-lived process, once its index is ready and it is
        idle (the server does it). The process does nothing else meanwhile."""
        self._index.compile_queries(languages)

    def watch(self) -> bool:
        """From now on, as soon as files under the root change, bring the index — and the graph,
        once a question has built it — up to date in a background thread, so that the question
        that follows a save finds the work done (a long-lived process does it: the server, MCP).
        A question asked while an update runs waits for it and is never answered from before
        the change. Indexes first where nothing is indexed yet (the watches begin there). False
        where changes cannot be watched (no inotify): then, as without ``watch()``, each
        question brings what changed up to date first. Stopped by ``close()``."""
        from .queries.ahead import AheadUpdates

        if self._ahead is None or not self._ahead.running:
            self._ahead = AheadUpdates(self._context)
        with self._context.lock:
            self._index.refresh()   # the watches begin at a refresh
        return self._index.watching

    def find_definition(self, symbol: str, file: str | None = None, line: int | None = None,
                        column: int | None = None, mode: str = "definition",
                        cell: int | None = None) -> DefinitionResult:
        """Where the name ``symbol`` written at ``file:line[:column]`` is defined.

        ``mode``: ``"definition"`` (the body), ``"declaration"`` (a stub, overload signature or
        prototype) or ``"type_definition"`` (the type of the variable or expression).
        Without ``file`` and ``line`` the name (``area`` or ``Circle.area``) is looked up across
        the project by name (``resolution: name-only``, its rivals in ``candidates``) and the
        mode applied to the best match: ``find_definition("area", mode="declaration")``.
        For a notebook, ``cell`` is the cell's 0-based index in the notebook and ``line`` the
        line within that cell.
        """
        return find_definition(self._context, symbol, file, line, column, mode, cell)

    def find_references(self, symbol: str, file: str, line: int, column: int | None = None,
                        include_declaration: bool = False, cell: int | None = None) -> ReferencesResult:
        """Every use of the symbol named at ``file:line[:column]`` (``cell``: as in
        ``find_definition``), with usage kinds."""
        from .queries.references import find_references

        return find_references(self._context, symbol, file, line, column, include_declaration, cell)

    def trace(self, symbol: str, file: str | None = None, references: bool = False, calls: bool = False,
              types: bool = False) -> TraceResult:
        """Everything about ``symbol``: its definition (always), and on request its references,
        incoming/outgoing call trees and type hierarchy and flows. ``.to_text()`` is YAML.

        With ``file``, the symbol is looked up in that file first (a definition there, or an
        import that is followed); without it, across the project, best match first.
        """
        from .queries.trace import trace

        return trace(self._context, symbol, file, references, calls, types)

    def dependencies_of(self, file: str, symbol: str, include_name_matches: bool = False) -> GraphResult:
        """What ``symbol`` (defined in ``file``) depends on: calls, references, base types — transitively."""
        from .queries.graph import dependencies_of

        return dependencies_of(self._context, file, symbol, include_name_matches)

    def dependents_of(self, file: str, symbol: str, include_name_matches: bool = False) -> GraphResult:
        """Who depends on ``symbol`` (defined in ``file``): callers, referrers, subtypes — transitively."""
        from .queries.graph import dependents_of

        return dependents_of(self._context, file, symbol, include_name_matches)

    def paths_between(self, source: tuple[str, str], target: tuple[str, str],
                      include_name_matches: bool = False) -> GraphResult:
        """How ``(file, symbol)`` pairs connect, in either direction: shortest paths first
        (at most 10, at most 12 edges); arrows show the real direction."""
        from .queries.graph import paths_between

        return paths_between(self._context, source, target, include_name_matches)

    def call_graph(self, include_name_matches: bool = False) -> GraphResult:
        """The whole graph: every node and edge (``.to_dot()``, ``.to_dict()``)."""
        from .queries.graph import call_graph

        return call_graph(self._context, include_name_matches)

    def symbols(self, query: str, limit: int = 50) -> SymbolsResult:
        """Fuzzy workspace symbol search, best first."""
        from .queries.symbols import symbols

        return symbols(self._context, query, limit)

    def library_source(self, file: str) -> LibrarySourceResult:
        """The text of a library file an answer led to (``file`` as the answer names it:
        ``json/__init__.py``, ``node_modules/ky/index.d.ts``), for a read-only view. Files no
        answer reached are refused (``file_not_indexed``)."""
        from .queries.library import library_source

        return library_source(self._context, file)

    def document_symbols(self, file: str):
        """The outline of one file: its classes, functions, methods, fields and module-level
        variables, nested as written (``queries.outline.OutlineResult``)."""
        from .queries.outline import document_symbols

        return document_symbols(self._context, file)

    def library_path(self, file: str) -> str | None:
        """The absolute path on this machine of a library file as an answer names it
        (``json/__init__.py`` with a ``library`` field), for an editor to open; None for a file
        no answer has led to in this process."""
        with self._context.lock:
            path = self._context.libraries.reached_file(file)
            return self._context.libraries.absolute(path) if path else None

    def export_scip(self, path: str | os.PathLike):
        """Write the whole index as one SCIP index (protobuf) to ``path``, for code-intelligence
        platforms; returns a ``ScipExportStats`` (counts, documents reused). What it holds and
        how (UTF-16 ranges, symbols, notebooks as one document of their code cells, name-only
        matches left out): ``jupyter_codetrace.scip``. Documents whose file and every file they
        read are unchanged since the last export are reused as encoded then. Needs ``protobuf``
        (``pip install 'jupyter_codetrace[scip]'``).

        >>> Project("fixtures/graph_py").export_scip("index.scip").documents   # doctest: +SKIP
        14
        """
        from .scip import ScipExporter

        exporter = self.__dict__.get("_scip_exporter")
        if exporter is None:
            exporter = self._scip_exporter = ScipExporter(self._context)
        return exporter.export(path)

    def set_overlay(self, file: str, text: str, language: str | None = None) -> bool:
        """Answer from ``text`` for ``file`` (an editor's unsaved buffer; the file need not exist)
        instead of what is on disk, until ``clear_overlay(file)``. Nothing is written: not the
        file, not the persisted index. ``language`` (``"python"``...) is for a file whose
        extension names none. False when the file would not be indexed (ignored, no language).

        >>> project.set_overlay("main.py", "def added(): ...\nadded()\n")    # doctest: +SKIP
        True
        """
        return self._index.set_overlay(self.workspace.relative(file), text, language)

    def has_overlay(self, file: str) -> bool:
        """Whether ``file`` is answered from an editor's buffer (``set_overlay``)."""
        return self.workspace.relative(file) in self._index.overlays()

    def clear_overlay(self, file: str) -> None:
        """Back to the file on disk (a file only the overlay had is no longer indexed)."""
        self._index.clear_overlay(self.workspace.relative(file))

    def close(self) -> None:
        if self._ahead is not None:
            self._ahead.stop()
        with self._context.lock:   # after an update under way
            self._context.close()
            self._index.close()

    def __enter__(self) -> "Project":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Project({self.root!r})"
