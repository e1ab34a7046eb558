"""jupyter_codetrace: code navigation for Jupyter — definitions, references, call trees, paths.

>>> from jupyter_codetrace import Project
>>> project = Project("fixtures/python_app")                    # doctest: +SKIP
>>> project.find_definition("Client", "app/main.py", 3)         # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import typing

from .errors import CodetraceError, InvalidRequest

if typing.TYPE_CHECKING:
    from .index.indexer import IndexStats
    from .project import Project
    from .results import DefinitionResult, GraphResult, ReferencesResult, SymbolsResult, TraceResult

__all__ = [
    "Project", "InvalidRequest", "CodetraceError", "IndexStats",
    "DefinitionResult", "ReferencesResult", "SymbolsResult", "TraceResult", "GraphResult", "__version__",
]

__version__ = "0.1.0"

# Imported on first use (PEP 562), so that `codetrace mcp`, `codetrace --help` and the server
# extension's discovery do not pay for tree-sitter, networkx and the index before they need them.
_LAZY = {"Project": ".project", "IndexStats": ".index.indexer", "DefinitionResult": ".results",
         "ReferencesResult": ".results", "SymbolsResult": ".results", "TraceResult": ".results",
         "GraphResult": ".results"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def load_ipython_extension(shell):
    """``%load_ext jupyter_codetrace``: the %def, %refs, %trace, %paths, %deps magics."""
    from .magics import load_ipython_extension as load

    load(shell)


def unload_ipython_extension(shell):
    """``%unload_ext jupyter_codetrace``: removes the magics and closes their index."""
    from .magics import unload_ipython_extension as unload

    unload(shell)


def _jupyter_server_extension_points():
    """jupyter-server finds the extension here (enabled on install by jupyter-config/)."""
    return [{"module": "jupyter_codetrace"}]


def _load_jupyter_server_extension(serverapp):
    from .server import load_extension

    load_extension(serverapp)
