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

``--native`` also builds ``native_matches.c`` (the matches as one int32 array made in C, no node a
Python object) against the installed tree-sitter's own sources — its sdist, fetched from the
package index with pip into the bench cache once, never into the repository — with gcc, and adds:

  native           the lean query's matches into that array (predicates not applied)
  native + loop    the same, then a bare Python loop over every capture's row: what any Python
                   consumer of the array pays at least

what a compiled extraction core could start from (issue 20: "weigh a compiled extension").
Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import subprocess
import sys
import sysconfig
import tarfile
import time
from array import array
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
    parser.add_argument("--native", action="store_true", help="also the matches made in C (needs gcc, pip, the network)")
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
    if args.native:
        native = _native_module()
        figures["native"] = _best(args.runs, lambda: [native.flat_matches(query, t, MATCH_LIMIT) for t in trees])

        def native_and_loop():
            for t in trees:
                rows = array("i")
                rows.frombytes(native.flat_matches(query, t, MATCH_LIMIT))
                at = iter(rows)
                for _pattern, _capture, _match, _start, _end, _row, _column in zip(at, at, at, at, at, at, at):
                    pass

        figures["native + loop"] = _best(args.runs, native_and_loop)
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


def _native_module():
    """``native_matches`` built for the installed tree-sitter (cached by its version)."""
    from benchlib import cache_dir
    from jupyter_codetrace.installed import installed_version

    version = installed_version("tree_sitter", "tree-sitter")
    folder = cache_dir() / "native" / f"tree-sitter-{version}"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = folder / f"native_matches{suffix}"
    source = Path(__file__).resolve().with_name("native_matches.c")
    if not built.exists() or built.stat().st_mtime < source.stat().st_mtime:
        folder.mkdir(parents=True, exist_ok=True)
        sdist = folder / "sdist"
        if not sdist.exists():
            log(f"fetching tree-sitter {version}'s sources (pip download --no-binary)")
            subprocess.run([sys.executable, "-m", "pip", "download", f"tree-sitter=={version}", "--no-binary", ":all:",
                            "--no-deps", "--quiet", "-d", str(folder)], check=True)
            archive = next(folder.glob("tree_sitter-*.tar.gz"))
            with tarfile.open(archive) as tar:
                tar.extractall(sdist, filter="data")
        lib = next(sdist.glob("*/tree_sitter/core/lib"))
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
                        f"-I{lib / 'include'}", f"-I{lib / 'src'}", str(source), str(lib / "src" / "lib.c"),
                        "-o", str(built)], check=True)
    spec = importlib.util.spec_from_file_location("native_matches", built)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    raise SystemExit(main())
