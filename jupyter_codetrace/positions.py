"""Tree-sitter positions (row, byte column) -> 1-based line and code-point column, in one place.

Editors count columns in characters, tree-sitter in bytes; the two differ on any line with
non-ASCII text before the position.
"""

from __future__ import annotations

__all__ = ["LineMap"]


class LineMap:
    """Converts byte offsets of one UTF-8 source to (line, column), both 1-based."""

    __slots__ = ("source", "ascii", "plain_rows", "_starts")

    def __init__(self, source: bytes):
        self.source = source
        self.ascii = source.isascii()
        # Per row, whether it is ASCII (a column is then its byte column): in a file with some
        # non-ASCII text (a name in a comment, a test's sample string) most rows are, and each
        # reference on them needs no conversion. Empty when the whole source is ASCII.
        self.plain_rows: list[bool] = [] if self.ascii else [line.isascii() for line in source.split(b"\n")]
        self._starts: list[int] | None = None

    def column(self, row: int, byte_column: int, line_start_byte: int | None = None) -> int:
        """1-based code-point column of a tree-sitter point (row is 0-based)."""
        if self.ascii or (row < len(self.plain_rows) and self.plain_rows[row]):
            return byte_column + 1
        start = self.line_start(row) if line_start_byte is None else line_start_byte
        prefix = self.source[start : start + byte_column]
        if prefix.isascii():
            return byte_column + 1
        return len(prefix.decode("utf-8", "replace")) + 1

    def line_start(self, row: int) -> int:
        if self._starts is None:
            starts = [0]
            find = self.source.find
            i = find(b"\n")
            while i >= 0:
                starts.append(i + 1)
                i = find(b"\n", i + 1)
            self._starts = starts
        return self._starts[row] if row < len(self._starts) else len(self.source)

    def byte_column(self, row: int, column: int) -> int:
        """Inverse of ``column``: a 1-based code-point column -> 0-based byte column on row."""
        if self.ascii:
            return column - 1
        start = self.line_start(row)
        end = self.source.find(b"\n", start)
        line = self.source[start : end if end >= 0 else len(self.source)].decode("utf-8", "replace")
        return len(line[: column - 1].encode("utf-8"))
