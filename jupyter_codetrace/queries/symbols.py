"""symbols: fuzzy workspace symbol search, ranked as a person expects.

A name matches the query when it covers the query: it is the query (case first), starts with it,
contains it (at a word start first), holds its letters in order from a word start (``usr`` in
``User``), or is a near miss of it (Damerau-Levenshtein, most of the query). A name shorter than
the query never matches by being inside it (``on`` is no answer to ``xylophone``). Within one
score: top-level before members, types and functions before variables, public before private,
project before tests. A query of several words (``usr sav``) also matches a member by its last
word and its container by the others.
"""

from __future__ import annotations

import re

from ..errors import InvalidRequest
from ..results import SymbolMatch, SymbolsResult
from .context import QueryContext, validate_length, whole_number

__all__ = ["symbols", "match_score"]

# a near miss: at least this similar (1 - edits / longer length), for a query of 3+ letters
_NEAR = 0.6
# within one score, these kinds first (the rest after, alphabetically by nothing: as found)
_KIND_ORDER = {kind: i for i, kind in enumerate(
    ("class", "interface", "struct", "trait", "enum", "type", "module", "namespace", "function", "method",
     "constructor", "macro"))}
_WORD_START = re.compile(r"(?:^|(?<=[_\-$.\s])|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]))\w", re.UNICODE)


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _word_starts(name: str) -> set[int]:
    return {m.start() for m in _WORD_START.finditer(name)}


def _subsequence(query: str, text: str, at: int) -> bool:
    for ch in query:
        at = text.find(ch, at)
        if at < 0:
            return False
        at += 1
    return True


def _spread(query: str, name: str, starts: set[int]) -> int | None:
    """The query's letters in order in ``name``, the first at a word start: how many of them fall
    on word starts (each taken at the next word start that leaves the rest matchable), or None."""
    lowered, best = name.lower(), None
    for start in sorted(starts):
        if lowered[start:start + 1] != query[0] or not _subsequence(query[1:], lowered, start + 1):
            continue
        hits, at = 1, start + 1
        for i, ch in enumerate(query[1:], 1):
            word = next((s for s in sorted(starts) if s >= at and lowered[s] == ch
                         and _subsequence(query[i + 1:], lowered, s + 1)), None)
            if word is not None:
                hits, at = hits + 1, word + 1
            else:
                at = lowered.find(ch, at) + 1
        best = max(best or 0, hits)
    return best


def match_score(query: str, name: str, near: bool = True) -> float | None:
    """How well ``name`` answers ``query`` (one word), 0-100, or None when it does not.

    100 the name itself, 97 in another case, 85-95 a prefix, 75-85 inside at a word start,
    65-75 inside elsewhere, 55-73 the letters spread from a word start (more on word starts and
    covering more of the name is higher), 58-70 a near miss (``near``); the more of the name the
    query covers, the higher in each band."""
    if not query or not name:
        return None
    if name == query:
        return 100.0
    q, n = query.lower(), name.lower()
    if n == q:
        return 97.0
    if len(n) < len(q) and len(n) <= 2:
        return None                       # a one- or two-letter name is no answer to a longer query
    cover = len(q) / len(n) if len(n) > len(q) else 1.0
    best = None
    if n.startswith(q):
        best = 85 + 10 * cover
    else:
        at = n.find(q)
        if at >= 0:
            starts = _word_starts(name)
            best = (75 if any(s in starts for s in _all(n, q)) else 65) + 10 * cover
    if best is None:
        letters = _letters(q)
        hits = _spread(letters, name, _word_starts(name)) if letters and len(letters) <= len(n) else None
        if hits:
            best = 55 + 9 * len(letters) / max(len(_letters(n)), 1) + 9 * hits / len(letters)
    if near and len(q) >= 3:
        from rapidfuzz.distance import DamerauLevenshtein   # (a search's, not every start's import)
        similar = DamerauLevenshtein.normalized_similarity(q, n)
        if similar >= _NEAR:
            best = max(best or 0.0, 40 + 30 * similar)
    return best


def _all(text: str, part: str):
    at = text.find(part)
    while at >= 0:
        yield at
        at = text.find(part, at + 1)


def _candidates(words: list[str], names: list[str], lowered: list[str]) -> dict[str, float]:
    """The names that match the query's last word, with their scores (``lowered``: each name in
    lower case). A near miss is looked up with rapidfuzz over all names; every other band needs
    the query's letters in order in the name, which one regular expression finds among them all
    before a name is scored (a query's first letter alone let 23k of the stdlib's 66k names
    through: 1.2 s)."""
    last = words[-1]
    first = _letters(last)[:1]
    near: set[str] = set()
    if len(last) >= 3:
        from rapidfuzz import process
        from rapidfuzz.distance import DamerauLevenshtein
        # rapidfuzz's cut at the band's bound (0.6) leaves out some names at exactly 0.6, which
        # match_score, which decides, puts in the band: those holding the query's first letter
        # are taken from a looser cut too (`serial` for `serializer`, not `normalize`)
        for cutoff in (_NEAR, _NEAR - 0.02):
            near.update(name for name, _, _ in process.extract(
                last.lower(), names, scorer=DamerauLevenshtein.normalized_similarity, processor=str.lower,
                score_cutoff=cutoff, limit=None) if cutoff == _NEAR or not first or first in name.lower())
    found: dict[str, float] = {}
    for name in _holding_letters(_letters(last), names, lowered) | near:
        score = match_score(last, name)
        if score is not None:
            found[name] = score
    if len(words) == 1:
        # a query written without its separators or with spaces for them ("plce ordr")
        return found
    joined = "".join(words)
    for name in _holding_letters(_letters(joined), names, lowered):
        score = match_score(joined, name, near=False)
        if score is not None and score > found.get(name, -1):
            found[name] = score
    return found


def _holding_letters(letters: str, names: list[str], lowered: list[str]) -> set[str]:
    """The names holding ``letters`` in order (all of them when there are none): what a name
    needs to match but as a near miss."""
    if not letters:
        return set(names)
    holds = re.compile(".*?".join(map(re.escape, letters)), re.DOTALL).search
    return {name for name, low in zip(names, lowered) if holds(low)}


def _best(scored: dict[str, float], count: int) -> dict[str, float]:
    """The ``count`` best-scored names, with those tied with the last of them (at most 5 × count):
    each name is then looked up in every file defining it, which a one-letter query over a large
    project would otherwise do for every name it has."""
    if len(scored) <= count:
        return scored
    ordered = sorted(scored.items(), key=lambda item: (-item[1], item[0]))
    last = ordered[count - 1][1]
    kept = [item for item in ordered[:count * 5] if item[1] >= last]
    return dict(kept)


def symbols(ctx: QueryContext, query, limit=50) -> SymbolsResult:
    if not isinstance(query, str) or not query.strip():
        raise InvalidRequest("query is required (part of a symbol name)", field="query")
    limit = whole_number(limit, "limit")
    if limit > 1000:
        raise InvalidRequest(f"limit must be between 1 and 1000, got {limit}", field="limit")
    query = validate_length(query.strip(), "query")
    words = query.split(".")[-1].split()
    leading = words[:-1]                 # "usr sav": the container's words, then the name's
    with ctx.lock:
        resolver = ctx.fresh()
        names, lowered = ctx.defined_names()
        scored = _best(_candidates(words, names, lowered), max(limit * 4, 100))
        whole = {n for n in scored if leading and match_score("".join(words), n, near=False) == scored[n]}
        ranked: list[tuple[tuple, SymbolMatch]] = []
        for name, score in scored.items():
            for path in sorted(ctx.index.defined_in.get(name, ())):
                test = ctx.is_test(path)
                for place in resolver.places(path, name)[0]:   # not the file's facts (places.py)
                    if not place.searchable:
                        continue
                    qualified = place.container + (name,)
                    if "." in query and query.lower() not in ".".join(qualified).lower():
                        continue
                    if leading and name not in whole and not _container_matches(leading, place.container):
                        continue
                    container = ".".join(place.container) or None
                    order = (-score, test, len(qualified) > 1, _KIND_ORDER.get(place.kind, len(_KIND_ORDER)),
                             not place.exported, path, place.line)
                    ranked.append((order, SymbolMatch(name, place.kind, path, place.line, place.column, container,
                                                      place.signature or None, round(score, 1), place.exported)))
        ranked.sort(key=lambda item: item[0])
        matches = tuple(m for _, m in ranked[:limit])
        if not matches:
            return SymbolsResult("symbol_not_found", query, (), f"No symbol matches '{query}'.")
        return SymbolsResult("found", query, matches, None, len(ranked) > limit)


def _container_matches(words: list[str], container: tuple[str, ...]) -> bool:
    """Each of ``words`` answered by a part of the container (``usr`` by ``User``)."""
    return bool(container) and all(any(match_score(w, part) is not None for part in container) for w in words)
