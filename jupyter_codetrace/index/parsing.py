"""The only importer of tree-sitter and the language pack: parsers and compiled queries, cached.

``tree-sitter-language-pack`` is pinned to 0.13.0 because 1.x downloads grammars at first use,
which fails offline; keeping every call here lets the pin move in one place.
"""

from __future__ import annotations

from functools import lru_cache

import tree_sitter
import tree_sitter_language_pack

from ..languages.spec import LanguageSpec

__all__ = ["parse", "query_for", "run_query", "pattern_captures", "compile_query", "capture_names", "grammar_version", "Tree", "Node"]

Tree = tree_sitter.Tree
Node = tree_sitter.Node


@lru_cache(maxsize=None)
def _parser(grammar: str) -> tree_sitter.Parser:
    return tree_sitter_language_pack.get_parser(grammar)


@lru_cache(maxsize=None)
def _language(grammar: str) -> tree_sitter.Language:
    return tree_sitter_language_pack.get_language(grammar)


def parse(spec: LanguageSpec, source: bytes) -> tree_sitter.Tree:
    return _parser(spec.grammar).parse(source)


@lru_cache(maxsize=None)
def query_for(spec: LanguageSpec) -> tree_sitter.Query:
    """The compiled ``.scm`` of a language (raises tree_sitter.QueryError on a bad query)."""
    return compile_query(spec.grammar, spec.query_text)


def compile_query(grammar: str, text: str) -> tree_sitter.Query:
    return tree_sitter.Query(_language(grammar), text)


def run_query(spec: LanguageSpec, root: tree_sitter.Node) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    return tree_sitter.QueryCursor(query_for(spec)).matches(root)


def capture_names(query: tree_sitter.Query) -> list[str]:
    return [query.capture_name(i) for i in range(query.capture_count)]


@lru_cache(maxsize=None)
def pattern_captures(spec: LanguageSpec) -> tuple[frozenset[str], ...]:
    """The capture names each pattern of a language's query can produce, by pattern index."""
    query = query_for(spec)
    names = capture_names(query)
    result = []
    for pattern in range(query.pattern_count):
        present = set()
        for index, name in enumerate(names):
            try:
                query.capture_quantifier(pattern, index)
            except SystemError:  # "quantifier 0": the capture is not in this pattern
                continue
            present.add(name)
        result.append(frozenset(present))
    return tuple(result)


def grammar_version() -> str:
    """Identifies the grammars in use, for cache invalidation."""
    import importlib.metadata as md

    return f"ts{md.version('tree-sitter')}-pack{md.version('tree-sitter-language-pack')}"
