#!/usr/bin/env python
"""Graph speed on the CPython standard library (the corpus of ``index_speed.py``).

Figures (targets from issue 3):
  1 cold index        Project(root).index() with a fresh cache dir (the reference time)
  2 graph build       the first call_graph() after it: every file's edges  <= 50% of (1)
  3 dependents_of     100 random function/method/class symbols, warm: p50/p95  p95 <= 200 ms
  4 paths_between     100 random pairs, warm: p50/p95                          p95 <= 200 ms
  5 trace (all flags) 100 random symbols, warm: p50/p95                        p95 <= 500 ms
  6 edit -> answer    a comment added to one file (only its lines move), a call added to it
                      (its code changes, its interface does not: the file is resolved again),
                      then a new function added (the readers that name it are redone too):
                      dependents_of right after, p50/p95 over 10 edits each (issue 20: <= 150 ms);
                      and after the new function is taken away again (an undo)
  7 save, pause, ask  the code and new-function edits again with Project.watch() on (as the
                      server and MCP run): the question comes --pause seconds after the save,
                      a person's pace; the background thread has taken the save in meanwhile
Wall time, with CPU seconds beside it (the cold index's include its worker processes).
Prints a table and one JSON line (also bench/results/graph_speed.json).
``--quick``: the 200-file corpus.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import ensure_stdlib_corpus, log, percentile, results_dir  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the index's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _ms(values):
    return {"p50": round(percentile(values, 50) * 1000, 1), "p95": round(percentile(values, 95) * 1000, 1),
            "n": len(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--pause", type=float, default=1.0,
                        help="seconds between a save and its question in figure 7 (default 1.0)")
    args = parser.parse_args()
    root, meta = ensure_stdlib_corpus(args.quick)
    rng = random.Random(args.seed)
    out: dict = {"corpus": meta}
    with tempfile.TemporaryDirectory() as cache:
        project = Project(root, cache_dir=cache)
        t, c = time.perf_counter(), _cpu()
        stats = project.index()
        out["cold_index_s"] = round(time.perf_counter() - t, 2)
        out["cold_index_cpu_s"] = round(_cpu() - c, 2)
        log(f"cold index: {out['cold_index_s']} s ({stats.files} files)")
        t, c = time.perf_counter(), _cpu()
        graph = project.call_graph()
        out["graph_build_s"] = round(time.perf_counter() - t, 2)
        out["graph_build_cpu_s"] = round(_cpu() - c, 2)
        out["graph_build_ratio"] = round(out["graph_build_s"] / out["cold_index_s"], 2)
        out["graph_build_cpu_ratio"] = round(out["graph_build_cpu_s"] / out["cold_index_cpu_s"], 2)
        out["nodes"], out["edges"] = len(graph.nodes), len(graph.edges)
        log(f"graph: {out['graph_build_s']} s, {out['nodes']} nodes, {out['edges']} edges")
        candidates = [n for n in graph.nodes if n.kind in ("function", "method", "class") and "<" not in n.id]
        sample = rng.sample(candidates, min(args.n, len(candidates)))

        def symbol_of(node):
            return node.id.split("#", 1)[1]

        timings = []
        found_edges = 0
        for node in sample:
            t = time.perf_counter()
            result = project.dependents_of(node.file, symbol_of(node))
            timings.append(time.perf_counter() - t)
            found_edges += len(result.edges)
        out["dependents_of_ms"] = _ms(timings)
        out["dependents_of_mean_edges"] = round(found_edges / len(sample), 1)
        timings, connected = [], 0
        for a, b in zip(sample, rng.sample(sample, len(sample))):
            t = time.perf_counter()
            result = project.paths_between((a.file, symbol_of(a)), (b.file, symbol_of(b)))
            timings.append(time.perf_counter() - t)
            connected += result.status == "found"
        # Random pairs rarely connect: add pairs known to connect (a caller and a callee's callee).
        callers = [e for e in graph.edges if e.kind == "CALLS"]
        for edge in rng.sample(callers, min(len(sample), len(callers))):
            a_file, a_symbol = edge.source.split("#", 1)
            b_file, b_symbol = edge.target.split("#", 1)
            if not a_symbol or not b_symbol:
                continue
            t = time.perf_counter()
            result = project.paths_between((a_file, a_symbol), (b_file, b_symbol))
            timings.append(time.perf_counter() - t)
            connected += result.status == "found"
        out["paths_between_ms"] = _ms(timings)
        out["paths_between_connected"] = connected
        timings = []
        for node in sample:
            t = time.perf_counter()
            result = project.trace(symbol_of(node), node.file, references=True, calls=True, types=True)
            result.to_text()
            timings.append(time.perf_counter() - t)
        out["trace_all_ms"] = _ms(timings)
        # Edits: (a) a new comment line (only the file's lines move: its part is moved, nothing
        # resolved), (b) a new call of a built-in (code that keeps the file's interface: only the
        # file is redone), (c) a new function (readers of the file are redone too).
        undo, undo_cpu, undo_redone = [], [], []   # the new function taken away again
        for kind in ("body", "code", "interface"):
            timings, cpu, redone = [], [], []
            for i, node in enumerate(sample[:10]):
                path = Path(root) / node.file
                original = path.read_bytes()
                if kind == "body":   # above the symbol's definition: the lines below it move
                    lines = original.split(b"\n")
                    indent = lines[node.line - 1][:len(lines[node.line - 1]) - len(lines[node.line - 1].lstrip())]
                    edited = b"\n".join(lines[:node.line - 1] + [indent + f"# bench edit {i}".encode()]
                                         + lines[node.line - 1:])
                else:
                    edited = original + ("\nlocals()\n" if kind == "code" else
                                         f"\n\ndef _bench_edit_{i}():\n    return {symbol_of(node).split('.')[0]}\n").encode()
                try:
                    path.write_bytes(edited)
                    t, c = time.perf_counter(), _cpu()
                    project.dependents_of(node.file, symbol_of(node))
                    timings.append(time.perf_counter() - t)
                    cpu.append(_cpu() - c)
                    redone.append(project._context._code_graph.last_rebuilt)
                finally:
                    path.write_bytes(original)
                t, c = time.perf_counter(), _cpu()
                project.dependents_of(node.file, symbol_of(node))
                if kind == "interface":
                    undo.append(time.perf_counter() - t)
                    undo_cpu.append(_cpu() - c)
                    undo_redone.append(project._context._code_graph.last_rebuilt)
            out[f"edit_{kind}_ms"] = _ms(timings)
            out[f"edit_{kind}_cpu_ms"] = _ms(cpu)
            out[f"edit_{kind}_files_redone"] = redone
        out["undo_interface_ms"], out["undo_interface_cpu_ms"] = _ms(undo), _ms(undo_cpu)
        out["undo_interface_files_redone"] = undo_redone
        # The same edits as a person makes them in a long-lived process (the server, MCP: they
        # call Project.watch()): a save, a pause while the person looks for what to ask, then the
        # question. The background thread has taken the save in meanwhile. The CPU column is the
        # whole process from the save to the answer (the thread's work included).
        if project.watch():
            for kind in ("code", "interface"):
                timings, cpu = [], []
                for i, node in enumerate(sample[:10]):
                    path = Path(root) / node.file
                    original = path.read_bytes()
                    edited = original + ("\nlocals()\n" if kind == "code" else
                                         f"\n\ndef _bench_pause_{i}():\n    return {symbol_of(node).split('.')[0]}\n").encode()
                    try:
                        c = _cpu()
                        path.write_bytes(edited)
                        time.sleep(args.pause)
                        t = time.perf_counter()
                        project.dependents_of(node.file, symbol_of(node))
                        timings.append(time.perf_counter() - t)
                        cpu.append(_cpu() - c)
                    finally:
                        path.write_bytes(original)
                    time.sleep(args.pause)
                    project.dependents_of(node.file, symbol_of(node))
                out[f"paused_{kind}_ms"] = _ms(timings)
                out[f"paused_{kind}_cpu_ms"] = _ms(cpu)
            out["pause_s"] = args.pause
        project.close()
    print(f"{'cold index':<28}{out['cold_index_s']:>10} s  ({out['cold_index_cpu_s']} s CPU, with the index's workers)")
    print(f"{'graph build':<28}{out['graph_build_s']:>10} s  ({out['graph_build_ratio']:.0%} of cold index; CPU "
          f"{out['graph_build_cpu_s']} s = {out['graph_build_cpu_ratio']:.0%} of the index's CPU; target <= 50%)")
    for key, target in (("dependents_of_ms", 200), ("paths_between_ms", 200), ("trace_all_ms", 500), ("edit_body_ms", 150),
                        ("edit_code_ms", 150), ("edit_interface_ms", None), ("undo_interface_ms", None), ("paused_code_ms", 150),
                        ("paused_interface_ms", None)):
        v = out.get(key)
        if v is None:   # no inotify: nothing is taken in ahead of the question
            continue
        cpu = out.get(key.replace("_ms", "_cpu_ms"))
        print(f"{key:<28}{v['p50']:>10} / {v['p95']} ms (p50/p95)" + (f"  target p95 <= {target} ms" if target else "")
              + (f"  CPU {cpu['p50']} / {cpu['p95']} ms" if cpu else ""))
    line = json.dumps(out)
    print(line)
    (results_dir() / "graph_speed.json").write_text(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
