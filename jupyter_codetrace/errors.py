"""The small error tree of jupyter_codetrace.

    ValueError
     └── InvalidRequest        bad input from a caller: a missing argument, ``line < 1``,
                                a path outside the project root, an unknown mode.
    Exception
     └── CodetraceError        an internal failure worth naming
          └── CacheError       the persisted index is unreadable (it is discarded and rebuilt)

Not-found answers are never exceptions: they are results with a not-found ``status``.
"""

from __future__ import annotations

__all__ = ["InvalidRequest", "CodetraceError", "CacheError"]


class InvalidRequest(ValueError):
    """The request itself is wrong; the message says which argument and why."""

    def __init__(self, message: str, field: str | None = None, outside_root: bool = False):
        super().__init__(message)
        self.field = field
        self.outside_root = outside_root


class CodetraceError(Exception):
    """An internal failure that is not the caller's fault."""


class CacheError(CodetraceError):
    """The persisted index cannot be used; callers discard it and rebuild."""
