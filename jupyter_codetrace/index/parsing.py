"""The only importer of tree-sitter and the language pack: parsers and compiled queries, cached.

``tree-sitter-language-pack`` is pinned to 0.13.0 because 1.x downloads grammars at first use,
which fails offline; keeping every call here lets the pin move in one place.

Nothing is loaded before it is needed: tree-sitter and the pack are imported at the first parse
or query, a grammar when a file of its language is first parsed, and a language's query is
compiled (``tree_sitter.Query``: 5–260 ms per language, about 1.2 s for all of them) when its
facts are first extracted. A process answering from stored facts loads none of it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ..languages.spec import LanguageSpec

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["parse", "query_for", "compile_every_query", "needs_whole_query", "is_compiled", "run_query", "pattern_captures", "compile_query", "capture_names", "grammar_version", "Tree", "Node", "RecoveredTree"]


def __getattr__(name: str):
    # ``Tree`` and ``Node`` name tree-sitter's classes without importing it with this module.
    if name in ("Tree", "Node"):
        import tree_sitter

        return getattr(tree_sitter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=None)
def _parser(grammar: str) -> tree_sitter.Parser:
    import tree_sitter_language_pack

    return tree_sitter_language_pack.get_parser(grammar)


@lru_cache(maxsize=None)
def _language(grammar: str) -> tree_sitter.Language:
    import tree_sitter_language_pack

    return tree_sitter_language_pack.get_language(grammar)


def parse(spec: LanguageSpec, source: bytes) -> "tree_sitter.Tree | RecoveredTree":
    """The syntax tree of ``source``; where a syntax error swallowed what follows it, the tree of
    the source with the broken top-level statement blanked out (see :func:`_recover`)."""
    parser = _parser(spec.grammar)
    tree = parser.parse(source)
    if tree.root_node.has_error:
        return _recover(spec, parser, source, tree)
    return tree


class _ErrorRoot:
    """The root of a recovered tree: the re-parsed root in every way but ``has_error``, which
    still says the file has a syntax error (its facts are partial)."""

    __slots__ = ("node",)
    has_error = True

    def __init__(self, node: tree_sitter.Node):
        self.node = node

    def __getattr__(self, name: str):
        return getattr(self.node, name)


class RecoveredTree:
    """What :func:`parse` returns when it worked around a syntax error: ``root_node`` as a tree's."""

    __slots__ = ("tree", "root_node", "blanked")

    def __init__(self, tree: tree_sitter.Tree, blanked: list[tuple[int, int]]):
        self.tree = tree
        self.root_node = _ErrorRoot(tree.root_node)
        self.blanked = blanked   # the byte ranges left out


_RECOVERY_ROUNDS = 8
_CLOSERS = frozenset(b" \t\r\n\f\v})]")


def _recover(spec: LanguageSpec, parser: tree_sitter.Parser, source: bytes, tree: tree_sitter.Tree):
    """Recover the top-level statements a syntax error swallowed.

    Tree-sitter keeps going after an error, but an unbalanced bracket (``function f( {``) can turn
    everything after it into one ERROR node, where no query finds a definition. When the first
    broken top-level statement reaches past the next line that starts at column 0 after the
    error (the next top-level statement, as written), that statement — from its first line to
    that line — is blanked (every byte but line breaks becomes a space, so every byte offset,
    line and column stays what it is in the file) and the source is parsed again. The new tree
    is kept only if it parses cleanly up to the end of the blanked range and the language's
    query finds more definitions in it (a broken class is not traded for what follows it); then
    the next error is looked at, a few times at most. Nodes of the new tree never start inside a
    blanked range, so their offsets read the original source.
    """
    blanked: list[tuple[int, int]] = []
    patched = source
    found = None
    whole = needs_whole_query(spec, source)
    for _ in range(_RECOVERY_ROUNDS):
        region = _swallowing_error(tree.root_node, patched)
        if region is None:
            break
        start, end = region
        candidate = patched[:start] + bytes(b if b in b"\r\n" else 32 for b in patched[start:end]) + patched[end:]
        retry = parser.parse(candidate)
        first = _first_error(retry.root_node)
        if first is not None and first.start_byte < end:
            break   # no better: keep what we have
        if found is None:
            found = _definitions_found(spec, tree.root_node, whole)
        now = _definitions_found(spec, retry.root_node, whole)
        if len(now) < len(found) or sum(p >= end for p in now) <= sum(p >= end for p in found):
            break   # fewer definitions in all, or none more after the error: not worth it
        tree, patched, found = retry, candidate, now
        blanked.append(region)
        if first is None:
            break
    return RecoveredTree(tree, blanked) if blanked else tree


def _definitions_found(spec: LanguageSpec, root: tree_sitter.Node, whole: bool) -> list[int]:
    """Where the language's definition patterns match in a tree (start bytes of the names)."""
    patterns = _definition_patterns(spec, whole)
    return [captures["name"][0].start_byte for pattern, captures in run_query(spec, root, whole=whole)
            if pattern in patterns and captures.get("name")]


@lru_cache(maxsize=None)
def _definition_patterns(spec: LanguageSpec, whole: bool) -> frozenset[int]:
    from ..languages.captures import DEFINITION_KINDS, definition_capture

    names = {definition_capture(kind) for kind in DEFINITION_KINDS}
    return frozenset(i for i, captures in enumerate(pattern_captures(spec, whole)) if captures & names)


def _first_error(root: tree_sitter.Node) -> tree_sitter.Node | None:
    for child in root.children:
        if child.has_error or child.is_error or child.is_missing:
            return child
    return None


def _swallowing_error(root: tree_sitter.Node, source: bytes) -> tuple[int, int] | None:
    """The byte range to blank for the first top-level statement with an error, or None when the
    error stays within that statement (tree-sitter recovered on its own)."""
    statement = _first_error(root)
    if statement is None:
        return None
    node = statement   # down to the first error inside it, iteratively (trees nest thousands deep)
    while True:
        child = next((c for c in node.children if c.is_error or c.is_missing or c.has_error), None)
        if child is None:
            break
        node = child
        if node.is_error or node.is_missing:
            break
    origin = node.start_byte
    # the next line after the error's line that starts at column 0 with a statement
    position = source.find(b"\n", origin)
    while position >= 0:
        position += 1
        if position < len(source) and source[position] not in _CLOSERS:
            break
        position = source.find(b"\n", position)
    if position < 0 or position >= len(source) or statement.end_byte <= position:
        return None
    start = source.rfind(b"\n", 0, statement.start_byte) + 1
    return start, position


_COMPILED: set[str] = set()   # languages query_for has compiled in this process


def query_for(spec: LanguageSpec, whole: bool = False) -> tree_sitter.Query:
    """The compiled ``.scm`` of a language (raises tree_sitter.QueryError on a bad query): the
    query most files need, without the patterns asking for a rare word (``LanguageSpec.rare_words``),
    or with ``whole`` every pattern in one query (what the checks of the queries read: extraction
    matches a file holding a rare word with the lean query and then the rare patterns alone,
    ``run_query``). A language without rare words has one query, whichever is asked."""
    if whole and spec.rare_words:
        return _whole_query(spec)
    return _lean_query(spec)


@lru_cache(maxsize=None)
def _lean_query(spec: LanguageSpec) -> tree_sitter.Query:
    query = compile_query(spec.grammar, spec.lean_query_text)
    _COMPILED.add(spec.name)
    return query


@lru_cache(maxsize=None)
def _whole_query(spec: LanguageSpec) -> tree_sitter.Query:
    return compile_query(spec.grammar, spec.query_text)


@lru_cache(maxsize=None)
def _rare_query(spec: LanguageSpec) -> tree_sitter.Query:
    return compile_query(spec.grammar, spec.rare_query_text)


def compile_every_query(spec: LanguageSpec) -> None:
    """Compile what ``run_query`` may match a file of the language with: before workers are forked,
    so that none compiles its own (TypeScript's patterns asking for `require`: 0.07 s a worker; a
    project's files hold the word somewhere, in a comment if nowhere else)."""
    query_for(spec)
    if spec.rare_words:
        _rare_query(spec)


def needs_whole_query(spec: LanguageSpec, source: bytes) -> bool:
    """Whether a file must be matched with all its language's patterns (``run_query``'s
    ``whole``): it holds one of the words some of its patterns ask for (a pattern asking for
    ``require`` matches only where a node's text is ``require``, so without the word the other
    patterns find all there is)."""
    return any(word.encode() in source for word in spec.rare_words)


def is_compiled(spec: LanguageSpec) -> bool:
    """Whether this process has the language's query (compiling it costs 0.15-0.8 s)."""
    return spec.name in _COMPILED


def compile_query(grammar: str, text: str) -> tree_sitter.Query:
    from tree_sitter import Query

    return Query(_language(grammar), text)


# Matches a query may have in progress at once. Unbounded, a chain nested tens of thousands deep
# (`s()+s()+…` 30,000 times: generated code) keeps one per level open and matching turns
# quadratic (54 s for that 120 KB file). A first run with a small bound costs nothing on written
# code (facts are identical on 1,642 files: the stdlib, the fixtures, JupyterLab's TypeScript);
# a file that exceeds it is matched again with a large bound, which keeps a member chain 3,000
# links long whole and costs the 30,000-deep chain 4 s instead of 54. Past that, what was cut is
# said (a warning naming the file).
MATCH_LIMIT = 256
DEEP_MATCH_LIMIT = 8192
NESTED_TOO_DEEP = "nested too deeply to analyse completely (thousands of levels: generated code?): some uses may be missing"


def run_query(spec: LanguageSpec, root: tree_sitter.Node, notes: list[str] | None = None, whole: bool = False,
              ) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    """The lean query's matches; with ``whole``, then those of the patterns it leaves out (their
    indices after its own: ``pattern_captures(spec, whole)`` numbers them so). Two queries rather
    than the whole one: the whole TypeScript query compiled in 0.22 s besides the lean one's 0.16
    (in each worker meeting a `require`), its rare patterns alone in 0.07 s (JavaScript's 0.03 s).
    ``notes`` gets a warning when the match bound cut some."""
    matches = _matches(query_for(spec), root, notes)
    if whole and spec.rare_words:
        offset = query_for(spec).pattern_count
        matches += [(offset + pattern, caps) for pattern, caps in _matches(_rare_query(spec), root, notes)]
    return matches


def _matches(query: tree_sitter.Query, root, notes: list[str] | None) -> list:
    from tree_sitter import QueryCursor

    if isinstance(root, _ErrorRoot):
        root = root.node
    cursor = QueryCursor(query, match_limit=MATCH_LIMIT)
    matches = cursor.matches(root)
    if cursor.did_exceed_match_limit:
        cursor = QueryCursor(query, match_limit=DEEP_MATCH_LIMIT)
        matches = cursor.matches(root)
        if notes is not None and cursor.did_exceed_match_limit and NESTED_TOO_DEEP not in notes:
            notes.append(NESTED_TOO_DEEP)
    return matches


def capture_names(query: tree_sitter.Query) -> list[str]:
    return [query.capture_name(i) for i in range(query.capture_count)]


@lru_cache(maxsize=None)
def pattern_captures(spec: LanguageSpec, whole: bool = False) -> tuple[frozenset[str], ...]:
    """The capture names each pattern ``run_query(spec, …, whole)`` reports can produce, by its index."""
    lean = _captures_of(query_for(spec))
    return lean + _captures_of(_rare_query(spec)) if whole and spec.rare_words else lean


def _captures_of(query: tree_sitter.Query) -> tuple[frozenset[str], ...]:
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
    """Identifies the grammars in use, for cache invalidation (read without importlib.metadata)."""
    from ..installed import installed_version

    return (f"ts{installed_version('tree_sitter', 'tree-sitter')}"
            f"-pack{installed_version('tree_sitter_language_pack', 'tree-sitter-language-pack')}")
