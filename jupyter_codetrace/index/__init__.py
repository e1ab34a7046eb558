"""Indexing: walk the root, parse each file, extract per-file facts, keep them fresh.

Modules, in data-flow order: ``discover`` (which files), ``notebooks`` (``.ipynb`` to a
virtual source), ``parsing`` (tree-sitter), ``extract`` (facts), ``store`` (persistence),
``indexer`` (freshness). Import from the submodules; this package re-exports nothing.
"""

__all__: list[str] = []
