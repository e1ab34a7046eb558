"""document_symbols: the outline of one file — its definitions, nested as written.

What an editor's outline view (LSP ``textDocument/documentSymbol``) shows: classes, functions,
methods, fields and module-level variables, each with its children. Parameters and the local
variables of functions are left out (they are not part of a file's outline); a field assigned
several times (``self.x = ...`` in two methods) is listed once, where it is first assigned.

    >>> Project("fixtures/graph_py").document_symbols("shop/models.py").symbols[0].name  # doctest: +SKIP
    'Entity'
"""

from __future__ import annotations


from ..dataclass_code import dataclass
from ..results import _Displayable
from .context import QueryContext

__all__ = ["document_symbols", "OutlineSymbol", "OutlineResult"]

_LOCAL_OWNERS = frozenset({"function", "method", "constructor"})
_NESTED_KEPT = frozenset({"function", "method", "constructor", "class", "interface", "struct", "enum", "trait",
                          "type", "namespace", "module", "impl"})


@dataclass(frozen=True)
class OutlineSymbol:
    """One definition of the file: ``line``/``column`` at its name (1-based, code points),
    ``start_line`` to ``end_line``/``end_column`` its whole span."""

    name: str
    kind: str
    line: int
    column: int
    start_line: int
    end_line: int
    end_column: int
    detail: str | None = None
    children: tuple["OutlineSymbol", ...] = ()
    cell: int | None = None

    def to_dict(self) -> dict:
        data = {"name": self.name, "kind": self.kind, "line": self.line, "column": self.column,
                "start_line": self.start_line, "end_line": self.end_line, "end_column": self.end_column,
                "detail": self.detail, "children": [c.to_dict() for c in self.children]}
        if self.cell is not None:
            data["cell"] = self.cell
        return data


@dataclass(frozen=True, repr=False)
class OutlineResult(_Displayable):
    """The answer of document_symbols: a file's definitions, nested as written."""

    status: str
    file: str
    symbols: tuple[OutlineSymbol, ...] = ()
    message: str | None = None

    def to_dict(self) -> dict:
        data = {"status": self.status, "file": self.file}
        if self.status != "found":
            data["message"] = self.message
            return data
        data["symbols"] = [s.to_dict() for s in self.symbols]
        return data

    def to_text(self) -> str:
        if self.status != "found":
            return f"{self.message}\n"
        lines = []

        def walk(entries, depth):
            for s in entries:
                lines.append(f"{'  ' * depth}{s.kind} {s.name}{s.detail or ''}  ({self.file}:{s.line})")
                walk(s.children, depth + 1)

        walk(self.symbols, 0)
        return "\n".join(lines) + "\n"

    def to_markdown(self) -> str:
        return f"```\n{self.to_text()}```\n"


def document_symbols(ctx: QueryContext, file) -> OutlineResult:
    path = ctx.file_argument(file)
    with ctx.lock:
        resolver = ctx.fresh()
        view = resolver.view(path) if ctx.index.has_file(path) else None
        if view is None:
            message, _ = ctx.not_indexed_message(path, None)
            return OutlineResult("file_not_indexed", path, (), message)
        definitions = view.facts.definitions
        kept: dict[int, list] = {}          # index -> [definition, children]
        roots: list[int] = []
        seen_fields: set[tuple[int, str]] = set()
        for i, d in enumerate(definitions):
            if d.kind == "parameter":
                continue
            owner = d.container
            # a local of a function (or of anything left out) is not part of the outline
            if owner >= 0 and (owner not in kept or
                               (definitions[owner].kind in _LOCAL_OWNERS and d.kind not in _NESTED_KEPT)):
                continue
            if d.scope < 0:
                if (owner, d.name) in seen_fields:
                    continue
                seen_fields.add((owner, d.name))
            kept[i] = []
            (kept[owner] if owner >= 0 else roots).append(i)

        def build(i: int) -> OutlineSymbol:
            d = definitions[i]
            cell, line = ctx.cell_position(path, d.line)
            _, start = ctx.cell_position(path, d.start_line)
            _, end = ctx.cell_position(path, d.end_line)
            return OutlineSymbol(d.name, d.kind, line, d.column, min(start, line), max(end, line), d.end_column,
                                 d.signature or None, tuple(build(c) for c in kept[i]), cell)

        return OutlineResult("found", ctx.shown_path(path), tuple(build(i) for i in roots))
