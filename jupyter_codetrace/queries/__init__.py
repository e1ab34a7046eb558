"""One module per contract query: validate -> compute -> Result (no rendering, no I/O)."""

from .context import QueryContext
from .definition import find_definition
from .references import find_references
from .graph import call_graph, dependencies_of, dependents_of, paths_between
from .library import library_source
from .outline import document_symbols
from .symbols import symbols
from .trace import trace

__all__ = ["QueryContext", "find_definition", "find_references", "symbols", "trace", "dependencies_of",
           "dependents_of", "paths_between", "call_graph", "library_source", "document_symbols"]
