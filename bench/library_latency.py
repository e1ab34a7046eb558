"""First and warm answers into installed libraries (issue 21): how long a name from the standard
library or a large package takes to resolve into its source, in a fresh process.

A small project (written to a temp folder) imports real installed packages the way notebook
code does. In a new process, after the project's own index is warm (a first run fills the
cache), each name is asked twice: the first answer parses the library modules it passes through
(json/__init__.py; IPython's interactiveshell.py, 4,000 lines), the second is warm. The floor is
the same question about a name defined in the project, asked in the same process.

    .venv/bin/python bench/library_latency.py [--runs 3]

Targets (issue 21): first answer into a large package ≤ 300 ms, later ones ≤ 10 ms; memory
bounded however many libraries are touched (peak RSS is reported).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

PROJECT = {
    "analysis.py": '''\
        import json
        from collections import OrderedDict
        from pathlib import Path

        import networkx as nx
        from IPython.core.interactiveshell import InteractiveShell
        from jupyter_server.serverapp import ServerApp
        from pygments.lexers import PythonLexer
        from hypothesis import strategies as st


        def local_helper(data):
            return len(data)


        def run(data):
            text = json.dumps(data)
            graph = nx.DiGraph()
            graph.add_edge("a", "b")
            shell = InteractiveShell.instance()
            shell.run_cell("1 + 1")
            app = ServerApp()
            app.initialize([])
            lexer = PythonLexer()
            numbers = st.integers(min_value=0)
            content = Path("x").read_text()
            ordered = OrderedDict()
            return local_helper(text), graph, lexer, numbers, content, ordered
        ''',
}

# (name, line) of each question, in analysis.py
QUESTIONS = [
    ("local_helper", 28), ("dumps", 17), ("DiGraph", 18), ("add_edge", 19), ("instance", 20),
    ("run_cell", 21), ("ServerApp", 22), ("initialize", 23), ("PythonLexer", 24), ("integers", 25),
    ("read_text", 26), ("OrderedDict", 27),
]

_CHILD = '''
import json, resource, sys, time
from jupyter_codetrace import Project
root, cache, questions = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
project = Project(root, cache_dir=cache)
project.index()
rows = []
for name, line in questions:
    times = []
    for _ in range(2):
        wall, cpu = time.perf_counter(), time.process_time()
        result = project.find_definition(name, "analysis.py", line)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    library = result.library or {}
    rows.append({"name": name, "status": result.status, "file": result.file,
                 "package": library.get("package"), "first": times[0], "warm": times[1]})
print(json.dumps({"rows": rows, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
'''


def _run_once(root: Path, cache: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(cache), json.dumps(QUESTIONS)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes; the minimum of each figure is kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="codetrace-libbench-") as tmp:
        root, cache = Path(tmp) / "project", Path(tmp) / "cache"
        root.mkdir()
        for name, text in PROJECT.items():
            (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
        _run_once(root, cache)  # fills the project's cache: the runs below start warm
        runs = [_run_once(root, cache) for _ in range(args.runs)]
    best: dict[str, dict] = {}
    for run in runs:
        for row in run["rows"]:
            seen = best.setdefault(row["name"], dict(row))
            for key in ("first", "warm"):
                seen[key] = min(seen[key], row[key], key=lambda t: t[1])
    floor = best["local_helper"]["first"]
    print(f"{'name':<14} {'status':<10} {'where':<52} {'first ms (cpu)':>16} {'warm ms (cpu)':>14} {'first/floor':>11}")
    for name, _ in QUESTIONS:
        row = best[name]
        where = f"{row['file']} ({row['package']})" if row["package"] else str(row["file"])
        first, warm = row["first"], row["warm"]
        print(f"{name:<14} {row['status']:<10} {where[:52]:<52} {first[0] * 1e3:7.1f} ({first[1] * 1e3:6.1f})"
              f" {warm[0] * 1e3:6.2f} ({warm[1] * 1e3:5.2f}) {first[1] / max(floor[1], 1e-6):10.1f}x")
    library_rows = [best[n] for n, _ in QUESTIONS if best[n]["package"]]
    worst_first = max(r["first"][1] for r in library_rows)
    worst_warm = max(r["warm"][1] for r in library_rows)
    print(f"\nfloor (a project name, first ask): {floor[0] * 1e3:.1f} ms wall, {floor[1] * 1e3:.1f} ms CPU")
    print(f"library answers: {len(library_rows)}/{len(QUESTIONS) - 1} found; worst first {worst_first * 1e3:.0f} ms CPU,"
          f" worst warm {worst_warm * 1e3:.2f} ms CPU; peak RSS {min(r['peak_rss_mb'] for r in runs):.0f} MB"
          f" (python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
