"""symbols: fuzzy workspace symbol search, ranked (exact, prefix, then fuzzy; public first)."""

from __future__ import annotations

from rapidfuzz import fuzz, process

from ..errors import InvalidRequest
from ..resolve.resolver import Symbol
from ..results import SymbolMatch, SymbolsResult
from .context import QueryContext, validate_length, whole_number

__all__ = ["symbols"]

_SEARCHED_KINDS_EXCLUDED = {"parameter"}


def symbols(ctx: QueryContext, query, limit=50) -> SymbolsResult:
    if not isinstance(query, str) or not query.strip():
        raise InvalidRequest("query is required (part of a symbol name)", field="query")
    limit = whole_number(limit, "limit")
    if limit > 1000:
        raise InvalidRequest(f"limit must be between 1 and 1000, got {limit}", field="limit")
    query = validate_length(query.strip(), "query")
    wanted = query.split(".")[-1]
    with ctx.lock:
        resolver = ctx.fresh()
        names = list(ctx.index.defined_in)
        lowered = wanted.lower()
        scored = process.extract(wanted, names, scorer=fuzz.WRatio, limit=max(limit * 4, 40), score_cutoff=45)
        ranked: list[tuple[float, SymbolMatch]] = []
        for name, score, _ in scored:
            bonus = 30 if name == wanted else 20 if name.lower() == lowered else \
                10 if name.lower().startswith(lowered) else 0
            for path in sorted(ctx.index.defined_in.get(name, ())):
                view = resolver.view(path)
                if view is None:
                    continue
                for i, d in enumerate(view.facts.definitions):
                    if d.name != name or d.kind in _SEARCHED_KINDS_EXCLUDED or (d.scope > 0 and not ctx.is_member(Symbol(path, i), d)):
                        continue
                    qualified = ctx.qualified_path(Symbol(path, i))
                    if "." in query and query.lower() not in ".".join(qualified).lower():
                        continue
                    container = ".".join(qualified[:-1]) or None
                    rank = score + bonus + (5 if d.exported else 0) - (5 if ctx.is_test(path) else 0)
                    ranked.append((rank, SymbolMatch(name, d.kind, path, d.line, d.column, container,
                                                     d.signature or None, rank, d.exported)))
        ranked.sort(key=lambda item: (-item[0], item[1].file, item[1].line))
        matches = tuple(m for _, m in ranked[:limit])
        if not matches:
            return SymbolsResult("symbol_not_found", query, (), f"No symbol matches '{query}'.")
        return SymbolsResult("found", query, matches, None, len(ranked) > limit)
