#!/usr/bin/env python
"""Restart → first graph answer (issue 20): the graph's per-file parts are kept beside the index
(graph/persist.py), so a new process answers ``dependents_of`` without resolving again.

On the CPython standard library (the corpus of ``index_speed.py``; ``--quick``: 200 files), each
step in a fresh process, with CPU seconds of the process beside wall time and peak RSS:
  1 cold       a fresh cache: index, then the first dependents_of (builds and stores the graph)
  2 restart    a new process, warm cache: Project() → the first dependents_of answer
  3 body       a line inside a function of that file changed between processes (a string), then a
               new process: the first answer
    edit       the file gains a function instead, then a new process: the first answer
  4 saves      the restarted process keeps running while a file is saved 5 times (a comment line
               added each time, then a function): each answer after a save, in that process
The floor, measured in the same run, is step 1's index alone (the bar: graph ≤ 50 % of it; a
restart's first graph answer ≤ 0.5 s).

    .venv/bin/python bench/graph_restart.py [--quick] [--runs 3] [--scale 1|2|4]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import ensure_stdlib_corpus  # noqa: E402

_CHILD = r'''
import json, resource, sys, time
def cpu():  # this process and its index workers
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
wall0, cpu0 = time.perf_counter(), cpu()
from jupyter_codetrace import Project
root, cache, symbol_file, symbol = sys.argv[1:5]
project = Project(root, cache_dir=cache)
project.index()
index = (time.perf_counter() - wall0, cpu() - cpu0)
answer = project.dependents_of(symbol_file, symbol)
total = (time.perf_counter() - wall0, cpu() - cpu0)
graph = project._context._code_graph
saves = []
if len(sys.argv) > 5:   # step 4: saves of one file while this process runs
    edited = __import__("pathlib").Path(root) / sys.argv[5]
    original = edited.read_text(encoding="utf-8")
    for n in range(6):
        extra = f"\n# saved {n}\n" * (n + 1) if n < 5 else "\n\ndef _bench_saved():\n    return 1\n"
        edited.write_text(original + extra, encoding="utf-8")
        wall1, cpu1 = time.perf_counter(), cpu()
        project.dependents_of(symbol_file, symbol)
        saves.append([time.perf_counter() - wall1, cpu() - cpu1, project._context._code_graph.last_rebuilt])
    edited.write_text(original, encoding="utf-8")
print(json.dumps({"index": index, "total": total, "graph": [total[0] - index[0], total[1] - index[1]], "saves": saves,
                  "status": answer.status, "redone": graph.last_rebuilt, "edges": graph.graph.number_of_edges(),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "rss_now_mb": int(open("/proc/self/statm").read().split()[1]) * resource.getpagesize() / 2**20,
                  "largest_worker_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
'''


def _child(root: Path, cache: Path, file: str, symbol: str, *saved: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(cache), file, symbol, *saved],
                          capture_output=True, text=True, check=True,
                          cwd=str(Path(__file__).resolve().parent.parent))
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the 200-file corpus")
    parser.add_argument("--runs", type=int, default=3, help="restart measurements (the minimum is kept)")
    parser.add_argument("--scale", type=int, default=1,
                        help="N copies of the corpus side by side (copy_1/ … beside the original): growth from 1× to N×")
    args = parser.parse_args()
    corpus, meta = ensure_stdlib_corpus(quick=args.quick)
    with tempfile.TemporaryDirectory(prefix="codetrace-graph-restart-") as tmp:
        root = Path(tmp) / "corpus"
        shutil.copytree(corpus, root)
        for copy in range(1, args.scale):
            shutil.copytree(corpus, root / f"copy_{copy}")
        if args.scale > 1:
            meta = {**meta, "files": meta.get("files", 0) * args.scale, "lines": meta.get("lines", 0) * args.scale,
                    "scale": args.scale}
        # a class used across the corpus (in both the full stdlib and its first 200 files)
        file, symbol = "argparse.py", "ArgumentParser"
        cache = Path(tmp) / "cache"
        cold = _child(root, cache, file, symbol)
        restarts = [_child(root, cache, file, symbol) for _ in range(args.runs)]
        target = root / file
        original = target.read_text(encoding="utf-8")
        # a line inside a body changed while no process ran (a `git pull` of a fix): the file alone
        assert "_('usage: ')" in original
        target.write_text(original.replace("_('usage: ')", "_('Usage: ')", 1), encoding="utf-8")
        body = _child(root, cache, file, symbol)
        target.write_text(original + "\n\ndef _bench_added():\n    return 1\n", encoding="utf-8")
        edited = _child(root, cache, file, symbol)
        # a module most of the corpus does not read: the saves redo it alone (the first 200 files
        # hold no json package)
        saved = next(name for name in ("json/decoder.py", "_markupbase.py") if (root / name).is_file())
        saves = _child(root, cache, file, symbol, saved)
    best = min(restarts, key=lambda r: r["total"][1])
    floor = cold["index"]
    print(f"corpus: {meta.get('files')} files, {meta.get('lines'):,} lines; question: dependents_of({file}, {symbol})")
    # RSS: the process's peak, what it holds after the answer, and the largest child's peak (an
    # index worker, or the child a build from nothing runs in: graph/build.py)
    print(f"{'step':<10}{'wall s':>9}{'cpu s':>9}{'graph cpu s':>13}{'÷ index':>9}{'redone':>8}{'edges':>9}"
          f"{'peak MB':>9}{'now MB':>8}{'child MB':>10}")
    for name, r in (("cold", cold), ("restart", best), ("body", body), ("edit", edited)):
        print(f"{name:<10}{r['total'][0]:>9.2f}{r['total'][1]:>9.2f}{r['graph'][1]:>13.2f}"
              f"{r['graph'][1] / floor[1]:>9.2f}{r['redone']:>8}{r['edges']:>9}{r['rss_mb']:>9.0f}"
              f"{r['rss_now_mb']:>8.0f}{r['largest_worker_rss_mb']:>10.0f}")
    print(f"floor: cold index {floor[0]:.2f} s wall, {floor[1]:.2f} s CPU")
    print(f"saves in a restarted process ({saved}; the 6th adds a function), each answer's "
          "wall / CPU ms and files redone: " + ", ".join(
              f"{w * 1000:.0f}/{c * 1000:.0f} ({n})" for w, c, n in saves["saves"]))
    print(json.dumps({"bench": "graph_restart", "corpus": meta, "cold": cold, "restart": best, "body": body, "edit": edited,
                      "saves": saves["saves"], "saved": saved}))


if __name__ == "__main__":
    main()
