"""Result objects: plain frozen dataclasses with ``to_dict`` and the display protocol.

Queries build them; ``render/`` turns them into text. Not-found answers are results with a
not-found ``status`` and a ``message`` that says what *was* there (``suggestions``).
"""

from __future__ import annotations

from dataclasses import field

from .dataclass_code import dataclass

__all__ = [
    "NOT_FOUND_STATUSES", "Location", "DefinitionResult", "Reference", "ReferencesResult",
    "SymbolMatch", "SymbolsResult", "GraphNode", "GraphEdge", "GraphResult", "TraceResult",
    "LibrarySourceResult", "library_label",
]

NOT_FOUND_STATUSES = ("file_not_indexed", "reference_not_found", "symbol_not_found", "unresolved",
                      "builtin", "no_path", "same_symbol")


@dataclass(frozen=True)
class Location:
    """A place in a file (1-based line and column), with the kind and name found there."""

    file: str
    line: int
    column: int
    kind: str | None = None
    name: str | None = None
    cell: int | None = None
    library: dict | None = None     # as DefinitionResult.library

    def to_dict(self) -> dict:
        data = {"file": self.file, "line": self.line, "column": self.column}
        if self.kind is not None:
            data["kind"] = self.kind
        if self.name is not None:
            data["name"] = self.name
        if self.cell is not None:
            data["cell"] = self.cell
        if self.library is not None:
            data["library"] = dict(self.library)
        return data

    def where(self) -> str:
        """``file:line:column``, with the library it lies in (``json/__init__.py:183:5 — stdlib 3.11``)."""
        text = f"{self.file}:{self.line}:{self.column}"
        return f"{text} — {library_label(self.library)}" if self.library else text


class _Displayable:
    """The display protocol shared by every result."""

    def to_markdown(self) -> str:
        from .render import markdown

        return markdown.render(self)

    def to_text(self) -> str:
        from .render import text

        return text.render(self)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        what = getattr(self, "symbol", None) or getattr(self, "query", "")
        where = getattr(self, "file", None)
        line = getattr(self, "line", None)
        return f"<{type(self).__name__} {self.status} {what!r}" + (f" {where}:{line}" if where else "") + ">"

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        """text/plain in IPython and notebooks: the plain-text answer, not the dataclass fields."""
        printer.text(self.to_text().rstrip("\n"))

    @property
    def found(self) -> bool:
        return self.status == "found"


def library_label(library: dict | None) -> str | None:
    """``stdlib 3.11``, ``networkx 3.4.2``: what a library location is, in a few words."""
    if not library:
        return None
    name = "stdlib" if library.get("kind") == "stdlib" else library.get("package") or "library"
    return f"{name} {library['version']}" if library.get("version") else name


@dataclass(frozen=True, repr=False)
class DefinitionResult(_Displayable):
    """The answer of find_definition: a status and, when found, where, the code, signature and docs."""

    status: str
    symbol: str
    mode: str = "definition"
    message: str | None = None
    suggestions: tuple[dict, ...] = ()
    name: str | None = None
    kind: str | None = None
    language: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    cell: int | None = None
    path: tuple[str, ...] = ()
    qualified_name: str | None = None
    signature: str | None = None
    parameters: tuple[dict, ...] = ()
    returns: str | None = None
    generics: str | None = None
    modifiers: tuple[str, ...] = ()
    decorators: tuple[str, ...] = ()
    exported: bool | None = None
    declaration: bool = False
    doc: str | None = None
    code: str | None = None
    resolved_from: tuple[dict, ...] = ()
    members: tuple[dict, ...] = ()
    overloads: tuple[dict, ...] = ()
    candidates: tuple[dict, ...] = ()
    resolution: str | None = None
    mode_resolution: str | None = None
    library: dict | None = None     # library code: {"kind": "stdlib"|"package", "package", "version"}

    def to_dict(self) -> dict:
        data = {"status": self.status, "symbol": self.symbol, "mode": self.mode}
        if self.status != "found":
            data["message"] = self.message
            data["suggestions"] = [dict(s) for s in self.suggestions]
            if self.resolved_from:
                data["resolved_from"] = [dict(s) for s in self.resolved_from]
            if self.candidates:
                data["candidates"] = [dict(c) for c in self.candidates]
            return data
        data.update({
            "name": self.name, "kind": self.kind, "language": self.language, "file": self.file,
            "line": self.line, "column": self.column, "end_line": self.end_line,
            "end_column": self.end_column, "path": list(self.path), "qualified_name": self.qualified_name,
            "signature": self.signature, "parameters": [dict(p) for p in self.parameters],
            "returns": self.returns, "generics": self.generics, "modifiers": list(self.modifiers),
            "decorators": list(self.decorators), "exported": self.exported,
            "declaration": self.declaration, "doc": self.doc, "code": self.code,
            "resolved_from": [dict(s) for s in self.resolved_from],
            "members": [dict(m) for m in self.members], "overloads": [dict(o) for o in self.overloads],
            "candidates": [dict(c) for c in self.candidates], "resolution": self.resolution,
            "mode_resolution": self.mode_resolution,
        })
        if self.cell is not None:
            data["cell"] = self.cell
        if self.library is not None:
            data["library"] = dict(self.library)
        if self.message:
            data["message"] = self.message
        return data


@dataclass(frozen=True, slots=True)
class Reference:
    """One use of a symbol: where, how it is used, whether in a test file, and its line of code."""

    file: str
    line: int
    column: int
    usage: str
    test: bool
    context: str
    resolution: str
    cell: int | None = None

    def to_dict(self) -> dict:
        data = {"file": self.file, "line": self.line, "column": self.column, "usage": self.usage,
                "test": self.test, "context": self.context, "resolution": self.resolution}
        if self.cell is not None:
            data["cell"] = self.cell
        return data


@dataclass(frozen=True, repr=False)
class ReferencesResult(_Displayable):
    """The answer of find_references: the definition and every use of it."""

    status: str
    symbol: str
    message: str | None = None
    suggestions: tuple[dict, ...] = ()
    definition: Location | None = None
    references: tuple[Reference, ...] = ()
    re_exports: tuple[dict, ...] = ()

    @property
    def count(self) -> int:
        return len(self.references)

    def _repr_html_(self) -> str | None:
        if self.status != "found":
            return None
        from .render.html import references_html

        return references_html(self)

    @property
    def files(self) -> int:
        return len({r.file for r in self.references})

    def to_dict(self) -> dict:
        data = {"status": self.status, "symbol": self.symbol}
        if self.status != "found":
            data["message"] = self.message
            data["suggestions"] = [dict(s) for s in self.suggestions]
            return data
        data.update({
            "definition": self.definition.to_dict() if self.definition else None,
            "count": self.count, "files": self.files,
            "references": [r.to_dict() for r in self.references],
            "re_exports": [dict(e) for e in self.re_exports],
        })
        return data


@dataclass(frozen=True)
class SymbolMatch:
    """One definition a symbol search found, with its score."""

    name: str
    kind: str
    file: str
    line: int
    column: int
    container: str | None
    signature: str | None
    score: float
    exported: bool

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "file": self.file, "line": self.line,
                "column": self.column, "container": self.container, "signature": self.signature,
                "score": round(self.score, 1), "exported": self.exported}


@dataclass(frozen=True, repr=False)
class SymbolsResult(_Displayable):
    """The answer of a symbol search: matches, best first."""

    status: str
    query: str
    matches: tuple[SymbolMatch, ...] = field(default_factory=tuple)
    message: str | None = None
    truncated: bool = False

    def to_dict(self) -> dict:
        data = {"status": self.status, "query": self.query, "count": len(self.matches),
                "truncated": self.truncated, "symbols": [m.to_dict() for m in self.matches]}
        if self.message:
            data["message"] = self.message
        return data


@dataclass(frozen=True)
class GraphNode:
    """A symbol in a graph answer: its id, names, kind and place."""

    id: str
    name: str
    qualified_name: str
    kind: str
    file: str
    line: int
    end_line: int
    offset: int                 # first line of the definition (decorators and doc comments included)
    limit: int                  # its number of lines: `offset`/`limit` suit a file-read tool
    external_calls: tuple[str, ...] = ()
    cell: int | None = None

    def to_dict(self) -> dict:
        data = {"id": self.id, "name": self.name, "qualified_name": self.qualified_name, "kind": self.kind,
                "file": self.file, "line": self.line, "end_line": self.end_line, "offset": self.offset,
                "limit": self.limit}
        if self.external_calls:
            data["external_calls"] = list(self.external_calls)
        if self.cell is not None:
            data["cell"] = self.cell
        return data


@dataclass(frozen=True)
class GraphEdge:
    """A dependency in a graph answer: from, to, what kind, where it is written and how it was resolved."""

    source: str
    target: str
    kind: str
    file: str
    line: int
    resolution: str

    def to_dict(self) -> dict:
        return {"source": self.source, "target": self.target, "kind": self.kind, "file": self.file,
                "line": self.line, "resolution": self.resolution}


@dataclass(frozen=True, repr=False)
class GraphResult(_Displayable):
    """``dependencies_of`` / ``dependents_of`` / ``paths_between`` / ``call_graph``."""

    status: str
    query: str                                  # dependencies | dependents | paths | graph
    message: str | None = None
    suggestions: tuple[dict, ...] = ()
    inputs: tuple[str, ...] = ()                # node ids the query started from
    nodes: tuple[GraphNode, ...] = ()
    edges: tuple[GraphEdge, ...] = ()
    paths: tuple[tuple[str, ...], ...] = ()     # paths_between: node ids, in the real direction
    snippets: dict = field(default_factory=dict, compare=False, repr=False)   # node id -> [(line, text)]
    truncated: bool = False
    include_name_matches: bool = False

    def to_dict(self) -> dict:
        data = {"status": self.status, "query": self.query}
        if self.status not in ("found",):
            data["message"] = self.message
            data["suggestions"] = [dict(s) for s in self.suggestions]
        data.update({
            "inputs": list(self.inputs), "nodes": [n.to_dict() for n in self.nodes],
            "edges": [e.to_dict() for e in self.edges], "truncated": self.truncated,
            "include_name_matches": self.include_name_matches,
        })
        if self.query == "paths":
            data["paths"] = [list(p) for p in self.paths]
        return data

    def to_dot(self) -> str:
        from .render import dot

        return dot.graph_to_dot(self)

    def to_svg(self) -> str:
        from .render import dot

        return dot.to_svg(self.to_dot())

    def _repr_svg_(self) -> str | None:
        from .render import dot

        if self.status != "found" or not self.edges or not dot.available():
            return None
        return self.to_svg()

    def _repr_markdown_(self) -> str | None:
        # Front ends rank Markdown above SVG (JupyterLab would show the text, not the diagram),
        # so the Markdown form is offered only when no diagram is.
        from .render.html import graph_markdown

        return graph_markdown(self)


@dataclass(frozen=True, repr=False)
class TraceResult(_Displayable):
    """Everything about one symbol: ``definition`` always; references, calls, types on request."""

    status: str
    symbol: str
    message: str | None = None
    suggestions: tuple[dict, ...] = ()
    definition: DefinitionResult | None = None
    references: dict | None = None
    calls: dict | None = None
    types: dict | None = None
    note: str | None = None                     # e.g. several definitions matched: which was taken

    def _repr_html_(self) -> str | None:
        if self.status != "found" or (self.calls is None and self.references is None):
            return None  # the Markdown card says it all
        from .render.html import trace_html

        return trace_html(self)

    def to_dict(self) -> dict:
        data = {"status": self.status, "symbol": self.symbol}
        if self.status != "found":
            data["message"] = self.message
            data["suggestions"] = [dict(s) for s in self.suggestions]
            return data
        data["definition"] = self.definition.to_dict()
        for key in ("references", "calls", "types"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True, repr=False)
class LibrarySourceResult(_Displayable):
    """The text of a library file an answer led to (``Project.library_source``): for a read-only
    view. Only files the engine itself reached inside the import roots or ``node_modules``."""

    status: str
    file: str
    message: str | None = None
    language: str | None = None
    library: dict | None = None
    text: str | None = None

    def to_dict(self) -> dict:
        data = {"status": self.status, "file": self.file}
        if self.status != "found":
            data["message"] = self.message
            return data
        data.update({"language": self.language, "library": dict(self.library or {}), "text": self.text})
        return data
