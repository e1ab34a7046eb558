"""``.ipynb`` notebooks as one virtual Python source, and the map back to cells.

A notebook is indexed as the concatenation of its code cells, each followed by a newline, so
one parse yields definitions and references across cells (a name defined in cell 2 and used in
cell 5 resolves like any module-level name). :class:`CellSpan` records where each cell landed;
:func:`to_cell_position` and :func:`from_cell_position` translate between virtual lines and the
contract's ``notebook.ipynb`` + cell index + line-in-cell positions. Columns need no
translation: every line keeps its text and therefore its columns.

IPython syntax is not Python, and tree-sitter would turn it into error nodes that swallow the
code around them. Such lines are replaced, one line for one line (alignment is the point):

* ``%magic ...`` and ``!shell ...`` at the start of a statement become ``pass`` at the same
  indentation (a bare blank line could leave a ``for`` body empty, which does not parse);
* ``x = !cmd`` and ``x = %magic`` keep ``x = `` and become ``x = None``, so ``x`` is still
  defined where the user defined it;
* ``obj?``, ``?obj``, ``obj??`` (help) become ``pass``;
* a ``%%cell_magic`` cell becomes blank lines, except for the magics whose body is Python run
  in the user namespace (``%%time``, ``%%timeit``, ``%%capture``, ``%%prun``, ``%%debug``):
  there only the ``%%`` line is blanked and the body is kept.

"At the start of a statement" is decided by a small scanner that tracks brackets, strings and
backslash continuations, as IPython itself does: ``(a\\n % b)`` is Python's modulo and a ``%``
line inside a triple-quoted string is text, so neither is touched.
"""

from __future__ import annotations

import bisect
import json
import re

from ..dataclass_code import dataclass

__all__ = ["CellSpan", "notebook_source", "to_cell_position", "from_cell_position",
           "PYTHON_BODY_CELL_MAGICS"]

#: Cell magics whose body is ordinary Python executed in the kernel's namespace: their
#: definitions and calls are real, so the body is indexed. Every other ``%%magic`` body
#: (``%%bash``, ``%%html``, ``%%writefile``, ``%%sql``, and ``%%python``, which runs in a
#: separate process) is blanked.
PYTHON_BODY_CELL_MAGICS: frozenset[str] = frozenset({"time", "timeit", "capture", "prun", "debug"})


@dataclass(frozen=True)
class CellSpan:
    """Where code cell ``cell`` (its index in the notebook's ``cells``, 0-based, counting
    markdown and raw cells too) sits in the virtual source: ``line_count`` lines starting at
    virtual line ``first_line`` (1-based)."""

    cell: int
    first_line: int
    line_count: int


def notebook_source(raw: bytes) -> tuple[bytes, list[CellSpan]]:
    """The code cells of a notebook as one UTF-8 Python source, and where each cell lies.

    ``raw`` is the ``.ipynb`` file's bytes (nbformat 4, where a cell's ``source`` is a string
    or a list of strings; nbformat 3's ``worksheets`` are read too). A cell of ``n`` lines
    occupies exactly ``n`` virtual lines; an empty cell occupies one. Line endings are
    normalised to ``\\n``, as Jupyter shows them. Raises ``ValueError`` when ``raw`` is not a
    notebook (invalid JSON or UTF-8, no cell list, a malformed cell).
    """
    cells = _load_cells(raw)
    parts: list[str] = []
    spans: list[CellSpan] = []
    next_line = 1
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise ValueError(f"not a valid notebook: cell {index} is not an object")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", cell.get("input", ""))
        text = _cell_text(source, index)
        lines = text.split("\n")
        neutral = _neutralize(lines)
        parts.append("\n".join(neutral))
        parts.append("\n")
        spans.append(CellSpan(index, next_line, len(lines)))
        next_line += len(lines)
    # "replace": a lone surrogate (legal in JSON "\ud800", not in UTF-8) becomes "?", one code
    # point for one, so columns stay put.
    return "".join(parts).encode("utf-8", errors="replace"), spans


def to_cell_position(spans: list[CellSpan], line: int) -> tuple[int, int]:
    """``(cell index, 1-based line in that cell)`` for a 1-based virtual ``line``.

    Raises ``ValueError`` for a line outside every cell.
    """
    if spans:
        starts = [span.first_line for span in spans]
        position = bisect.bisect_right(starts, line) - 1
        if position >= 0:
            span = spans[position]
            offset = line - span.first_line
            if 0 <= offset < span.line_count:
                return span.cell, offset + 1
    raise ValueError(f"line {line} is outside the notebook's code cells")


def from_cell_position(spans: list[CellSpan], cell: int, line_in_cell: int) -> int:
    """The 1-based virtual line of ``line_in_cell`` (1-based) in cell ``cell``.

    Raises ``ValueError`` when ``cell`` is not a code cell of the notebook or the line is not
    in it.
    """
    for span in spans:
        if span.cell == cell:
            if not 1 <= line_in_cell <= span.line_count:
                raise ValueError(
                    f"line {line_in_cell} is outside cell {cell} (1-{span.line_count})")
            return span.first_line + line_in_cell - 1
    raise ValueError(f"cell {cell} is not a code cell of this notebook")


# -- reading ------------------------------------------------------------------------------

def _load_cells(raw: bytes) -> list:
    try:
        notebook = json.loads(raw)
    except UnicodeDecodeError as error:
        raise ValueError(f"not a valid notebook: not UTF-8 ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not a valid notebook: invalid JSON at line {error.lineno} "
                         f"column {error.colno}: {error.msg}") from None
    except RecursionError:
        # JSON nested thousands of levels deep: no notebook looks like this, and the decoder
        # would otherwise take the whole refresh down with it.
        raise ValueError("not a valid notebook: JSON nested too deeply") from None
    except ValueError as error:  # e.g. an integer literal longer than Python converts
        raise ValueError(f"not a valid notebook: {error}") from None
    if not isinstance(notebook, dict):
        raise ValueError("not a valid notebook: the top level is not a JSON object")
    cells = notebook.get("cells")
    if cells is None and isinstance(notebook.get("worksheets"), list):
        # nbformat 3: cells live in worksheets; indices count across all of them, in order.
        cells = [cell for sheet in notebook["worksheets"] if isinstance(sheet, dict)
                 for cell in sheet.get("cells", [])]
    if not isinstance(cells, list):
        raise ValueError("not a valid notebook: no \"cells\" list")
    return cells


def _cell_text(source: object, index: int) -> str:
    if source is None:
        return ""
    if isinstance(source, list):
        if not all(isinstance(piece, str) for piece in source):
            raise ValueError(f"not a valid notebook: cell {index} source is not text")
        source = "".join(source)
    if not isinstance(source, str):
        raise ValueError(f"not a valid notebook: cell {index} source is not text")
    # Jupyter shows "\r\n" and a lone "\r" as line breaks; tree-sitter counts only "\n".
    return source.replace("\r\n", "\n").replace("\r", "\n")


# -- IPython syntax -> neutral Python -------------------------------------------------------

# `x = !cmd`, `a, b = %magic`, `self.out = !ls`: simple targets only, as IPython's own
# assign_from_system / assign_from_magic transforms accept.
_ASSIGN_ESCAPE = re.compile(
    r"[ \t]*[A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*[ \t]*=[ \t]*(?=[!%])")
_CELL_MAGIC = re.compile(r"%%([A-Za-z_][\w.-]*)")
_ESCAPES = ("%", "!", "?")


def _neutralize(lines: list[str]) -> list[str]:
    """The cell's lines with IPython-only syntax replaced line for line (see module doc)."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].startswith("%%"):
        magic = _CELL_MAGIC.match(lines[first])
        out = list(lines)
        out[first] = ""
        if magic is None or magic.group(1) not in PYTHON_BODY_CELL_MAGICS:
            return [""] * len(lines)
        lines = out

    out: list[str] = []
    scanner = _Scanner()
    in_escape = False  # inside a backslash-continued magic / shell line
    for line in lines:
        if in_escape:
            out.append("")
            in_escape = line.endswith("\\")
            continue
        if scanner.at_statement_start():
            stripped = line.lstrip()
            indent = line[:len(line) - len(stripped)]
            assignment = _ASSIGN_ESCAPE.match(line)
            if assignment is not None:
                out.append(assignment.group(0) + "None")
                in_escape = line.endswith("\\")
                continue
            if stripped.startswith(_ESCAPES):
                out.append(indent + "pass")
                in_escape = line.endswith("\\")
                continue
            code = scanner.scan(line)
            if code.rstrip().endswith("?") and scanner.at_statement_start():
                out.append(indent + "pass")  # `obj?` / `obj??` help on a one-line statement
                continue
            out.append(line)
            continue
        scanner.scan(line)
        out.append(line)
    return out


class _Scanner:
    """Just enough of Python's tokenizer to know whether a line starts a new statement:
    open brackets, open strings (triple-quoted ones span lines) and backslash continuations.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None
        self.continued = False

    def at_statement_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.continued

    def scan(self, line: str) -> str:
        """Advance over one line; return the line's code without a trailing comment."""
        i = 0
        n = len(line)
        code_end = n
        while i < n:
            char = line[i]
            if self.quote is not None:
                if char == "\\":
                    i += 2
                    continue
                if line.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                    continue
                i += 1
                continue
            if char == "#":
                code_end = i
                break
            if char in "\"'":
                triple = char * 3
                self.quote = triple if line.startswith(triple, i) else char
                i += len(self.quote)
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        ends_with_backslash = code_end == n and line.endswith("\\")
        if self.quote is not None and len(self.quote) == 1 and not ends_with_backslash:
            self.quote = None  # an unterminated one-line string ends at the line's end
        self.continued = ends_with_backslash and self.quote is None
        return line[:code_end]
