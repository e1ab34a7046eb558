#!/usr/bin/env python
"""Where a file's extraction spends its CPU, as multiples of the bare tree-sitter parse (issue 20:
"measure the pure-Python ceiling first").

On a sample of the stdlib corpus (every ``--step``-th file of ``index_speed.py``'s corpus), one
process, one core, the garbage collector off as the indexer runs extraction (``gc_paused``),
best of ``--runs`` for each figure:

  parse            ``Parser.parse`` of every file                                   (the floor)
  walk             the query cursor over every tree with a one-node pattern (``(module)``): what
                   visiting the nodes costs, whatever the patterns
  matches          ``QueryCursor.matches`` of the language's lean query, every match and node
                   made into Python objects (what extraction iterates), without the parse
  identifiers      ``QueryCursor.captures`` of ``(identifier) @reference`` alone: the query's
                   single most frequent pattern (about half of the matches)
  extract          ``extract_file`` of every file: parse, matches and all the Python work

parse + matches is the part no Python can shorten: what the 3x bar leaves for the rest.
Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import ensure_stdlib_corpus, log  # noqa: E402


def _best(runs: int, work) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--step", type=int, default=9, help="every STEP-th file of the corpus (default 9: ~200)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)

    from tree_sitter import Query, QueryCursor

    from jupyter_codetrace.index.extract import extract_file
    from jupyter_codetrace.index.parsing import MATCH_LIMIT, _language, parse, query_for
    from jupyter_codetrace.languages import by_name

    root, _ = ensure_stdlib_corpus(False)
    files = sorted(root.rglob("*.py"))[:: args.step]
    sources = [(str(f.relative_to(root)), f.read_bytes()) for f in files]
    spec = by_name("python")
    query = query_for(spec)
    language = _language(spec.grammar)
    walk_query, identifiers = Query(language, "(module) @m"), Query(language, "(identifier) @reference")
    log(f"{len(sources)} files, {sum(len(s) for _, s in sources) / 1e6:.1f} MB")
    gc.disable()
    trees = [parse(spec, source).root_node for _, source in sources]
    matches = sum(len(QueryCursor(query, match_limit=MATCH_LIMIT).matches(t)) for t in trees)
    figures = {
        "parse": _best(args.runs, lambda: [parse(spec, source) for _, source in sources]),
        "walk": _best(args.runs, lambda: [QueryCursor(walk_query).matches(t) for t in trees]),
        "matches": _best(args.runs, lambda: [QueryCursor(query, match_limit=MATCH_LIMIT).matches(t) for t in trees]),
        "identifiers": _best(args.runs, lambda: [QueryCursor(identifiers).captures(t) for t in trees]),
        "extract": _best(args.runs, lambda: [extract_file(path, source, spec) for path, source in sources]),
    }
    gc.enable()
    floor = figures["parse"]
    print(f"\n{len(sources)} stdlib files, {matches:,} matches; CPU seconds, best of {args.runs}")
    print(f"{'figure':<14}{'CPU s':>9}{'x parse':>10}")
    for name, seconds in figures.items():
        print(f"{name:<14}{seconds:>9.2f}{seconds / floor:>10.2f}")
    python = figures["extract"] - figures["parse"] - figures["matches"]
    print(f"{'python work':<14}{python:>9.2f}{python / floor:>10.2f}   (extract - parse - matches)")
    print(json.dumps({"files": len(sources), "matches": matches, "cpu_s": figures,
                      "ratios": {k: v / floor for k, v in figures.items()}, "python_work_ratio": python / floor}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
