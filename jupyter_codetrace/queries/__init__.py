"""One module per contract query: validate -> compute -> Result (no rendering, no I/O)."""

from .context import QueryContext
from .definition import find_definition
from .references import find_references
from .symbols import symbols

__all__ = ["QueryContext", "find_definition", "find_references", "symbols"]
