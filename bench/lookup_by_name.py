#!/usr/bin/env python
"""Lookups by name on a large project (issue 20): a symbol search, a did-you-mean answer to a
typo, where an unresolved member's name is defined — each asked in a process that has not
asked it before, on a warm index cache.

Corpus: the CPython standard library (``benchlib.ensure_stdlib_corpus``: 1,788 files, 858k
lines), indexed once (untimed). Each of --runs fresh processes then answers, in order, a found
lookup by name (``find_definition("urlparse")``: the floor, the least a lookup by name costs),
the symbol searches of SEARCHES, the typos of TYPOS (``find_definition`` of a name defined
nowhere: the closest names and where they are), the unresolved questions of UNRESOLVED, and
BY_NAME (``find_definition`` of a name alone that many files define: the best and its rivals).
Each figure is wall and CPU milliseconds of that process for that one answer, the median over
the runs, and its ratio to the floor's.

    .venv/bin/python bench/lookup_by_name.py [--runs 3] [--quick] [--source DIR]

``--source DIR`` measures the package in ``DIR/jupyter_codetrace`` (e.g. ``git archive`` of an
older commit) with its own cache. Prints a table, then one JSON line (also
bench/results/lookup_by_name.json).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from benchlib import cache_dir, ensure_stdlib_corpus, log, results_dir  # noqa: E402

SEARCHES = ["parse_args", "urlparse", "get", "json load", "Serializer", "TestCase", "usr sav", "a"]
TYPOS = ["urlparze", "assertEqaul", "getvalu", "Serialiser"]
BY_NAME = ["get", "__init__", "run"]   # find_definition by name alone of names defined in many files
UNRESOLVED = [("as_integer_ratio", "test/test_fractions.py", 348, 35), ("getvalue", "test/test_importlib/frozen/test_loader.py", 188, 33)]

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from jupyter_codetrace import Project

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def timed(call):
    wall, used = time.perf_counter(), cpu()
    answer = call()
    return {"wall_ms": (time.perf_counter() - wall) * 1000, "cpu_ms": (cpu() - used) * 1000, "status": answer.status}

project = Project(sys.argv[2])
project.index()
out = {"floor": timed(lambda: project.find_definition("urlparse"))}
for query in json.loads(sys.argv[3]):
    out["search " + query] = timed(lambda: project.symbols(query))
for typo in json.loads(sys.argv[4]):
    out["typo " + typo] = timed(lambda: project.find_definition(typo))
for name in json.loads(sys.argv[6]):
    out["by name " + name] = timed(lambda: project.find_definition(name))
for name, path, line, column in json.loads(sys.argv[5]):
    out["unresolved " + name] = timed(lambda: project.find_definition(name, path, line, column))
print(json.dumps(out))
"""


def _run(source: Path, root: Path, cache: Path, quick: bool) -> dict:
    env = {**os.environ, "CODETRACE_CACHE_DIR": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # an installed package has its bytecode
    env["PYTHONPYCACHEPREFIX"] = str(cache / "pycache")
    searches = SEARCHES[:3] if quick else SEARCHES
    done = subprocess.run([sys.executable, "-c", _CHILD, str(source), str(root), json.dumps(searches),
                           json.dumps(TYPOS[:2] if quick else TYPOS), json.dumps([] if quick else UNRESOLVED),
                           json.dumps(BY_NAME[:1] if quick else BY_NAME)],
                          env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"the measured process failed: {done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes; the median of each figure")
    parser.add_argument("--quick", action="store_true", help="the first 200 stdlib files, fewer questions")
    parser.add_argument("--source", type=Path, default=BENCH.parent, help="the folder holding jupyter_codetrace/")
    args = parser.parse_args()
    root, _ = ensure_stdlib_corpus(args.quick)
    cache = cache_dir() / "lookup-store" / hashlib.sha1(str(args.source.resolve()).encode()).hexdigest()[:12]
    cache.mkdir(parents=True, exist_ok=True)
    log(f"[lookup] warming the index of {root} under {cache} (untimed)")
    started = time.perf_counter()
    _run(args.source, root, cache, args.quick)
    log(f"[lookup] warm in {time.perf_counter() - started:.1f} s; {args.runs} measured processes")
    runs = [_run(args.source, root, cache, args.quick) for _ in range(args.runs)]
    figures = {}
    for key in runs[0]:
        figures[key] = {"wall_ms": statistics.median(r[key]["wall_ms"] for r in runs),
                        "cpu_ms": statistics.median(r[key]["cpu_ms"] for r in runs),
                        "status": runs[0][key]["status"]}
    floor = figures["floor"]["wall_ms"]
    print(f"{'question':34s} {'wall ms':>9s} {'CPU ms':>9s} {'x floor':>8s}  status")
    for key, f in figures.items():
        print(f"{key:34s} {f['wall_ms']:9.1f} {f['cpu_ms']:9.1f} {f['wall_ms'] / floor:8.1f}  {f['status']}")
    result = {"source": str(args.source), "runs": args.runs, "quick": args.quick, "figures": figures}
    line = json.dumps(result)
    print(line)
    (results_dir() / "lookup_by_name.json").write_text(line + "\n")


if __name__ == "__main__":
    main()
