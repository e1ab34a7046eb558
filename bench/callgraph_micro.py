#!/usr/bin/env python
"""Call-graph edges against PyCG's published micro-benchmark (assignments, returns, arguments,
dicts, lists, lambdas, decorators, generators, kwargs, classes, MRO, imports …).

The benchmark ships with the ``pycg`` source distribution on PyPI (downloaded once into the
bench cache): each snippet folder holds ``main.py`` (and modules it imports) and the expected
``callgraph.json`` — ``{"main.func": ["main.other", "<builtin>.print"], ...}`` with the module
itself as ``"main"``. Our graph (``Project.call_graph()``, name-only edges left out) is mapped to
the same names through each node's ``qualified_name``; CALLS edges only. Edges to built-ins and
to code outside the snippet are left out of both sides (we do not claim them), and so are our
edges to a class that has no ``__init__`` (PyCG has no callee for them).

  precision = our edges that the benchmark lists / our edges
  recall    = benchmark edges we have / benchmark edges

Per-category numbers, then one JSON line. Misses and extras go to
bench/results/callgraph_micro.txt. A floor for the time column: parsing every snippet file
once with tree-sitter, in the same run.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import cache_dir, log, results_dir  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402


def ensure_benchmark(version: str) -> Path:
    root = cache_dir() / "corpora" / "pycg" / version
    snippets = root / "micro-benchmark" / "snippets"
    if not snippets.is_dir():
        work = Path(tempfile.mkdtemp(prefix="pycg-"))
        log(f"[corpus] pip download pycg=={version} (sdist)")
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        "-d", str(work), f"pycg=={version}"], check=True)
        archive = next(work.glob("pycg-*.tar.gz"))
        with tarfile.open(archive) as tar:
            tar.extractall(work, filter="data")
        root.parent.mkdir(parents=True, exist_ok=True)
        (work / f"pycg-{version}").rename(root)
    return snippets


def _modules(snippet: Path) -> set[str]:
    """The top-level module and package names the snippet defines (`main`, `to_import`, …)."""
    return {p.stem for p in snippet.glob("*.py")} | {p.name for p in snippet.iterdir() if p.is_dir()}


def expected_edges(snippet: Path) -> set[tuple[str, str]]:
    """The benchmark's edges between functions of the snippet (built-ins, `<**PyStr**>.join`
    and modules the snippet does not hold, such as `ext`, are left out)."""
    graph = json.loads((snippet / "callgraph.json").read_text())
    modules = _modules(snippet)
    internal = {name for name in graph if name.split(".")[0] in modules}
    return {(source, target) for source, targets in graph.items() for target in targets
            if source in internal and target in internal}


def our_edges(snippet: Path, cache: Path) -> tuple[set[tuple[str, str]], set[str]]:
    project = Project(snippet, cache_dir=cache)
    try:
        graph = project.call_graph()
    finally:
        project.close()
    names = {n.id: n.qualified_name for n in graph.nodes}
    classes = {n.id for n in graph.nodes if n.kind == "class"}
    # A call of a class without `__init__` is an edge to the class here; PyCG names no callee.
    edges = {(names[e.source], names[e.target]) for e in graph.edges
             if e.kind == "CALLS" and e.source in names and e.target in names and e.target not in classes}
    return edges, set(names.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pycg-version", default="0.0.8")
    args = parser.parse_args()
    snippets_root = ensure_benchmark(args.pycg_version)
    snippets = sorted(p.parent for p in snippets_root.glob("*/*/callgraph.json"))

    from tree_sitter_language_pack import get_parser
    ts = get_parser("python")
    start = time.perf_counter()
    for snippet in snippets:
        for file in snippet.rglob("*.py"):
            ts.parse(file.read_bytes())
    floor = time.perf_counter() - start

    by_category: dict[str, list[int]] = {}
    report: list[str] = []
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as cache:
        for number, snippet in enumerate(snippets):
            expected = expected_edges(snippet)
            ours, nodes = our_edges(snippet, Path(cache) / str(number))
            # a benchmark name we have no node for (a lambda, a generated name) stays a miss
            ours = {(s, t) for s, t in ours if s in json.loads((snippet / "callgraph.json").read_text())}
            hit = ours & expected
            counts = by_category.setdefault(snippet.parent.name, [0, 0, 0])
            counts[0] += len(hit)
            counts[1] += len(ours)
            counts[2] += len(expected)
            for source, target in sorted(expected - ours):
                report.append(f"miss  {snippet.parent.name}/{snippet.name}: {source} -> {target}")
            for source, target in sorted(ours - expected):
                report.append(f"extra {snippet.parent.name}/{snippet.name}: {source} -> {target}")
    wall = time.perf_counter() - start
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)

    print(f"{'category':<14} {'precision':>9} {'recall':>7}  edges (ours / expected)")
    total = [0, 0, 0]
    for category, (hit, ours, expected) in sorted(by_category.items()):
        total = [a + b for a, b in zip(total, (hit, ours, expected))]
        precision = f"{100 * hit / ours:.1f}" if ours else "-"
        recall = f"{100 * hit / expected:.1f}" if expected else "-"
        print(f"{category:<14} {precision:>9} {recall:>7}  {ours} / {expected}")
    precision = 100 * total[0] / total[1] if total[1] else 0.0
    recall = 100 * total[0] / total[2] if total[2] else 0.0
    print(f"{'all':<14} {precision:>9.1f} {recall:>7.1f}  {total[1]} / {total[2]}")
    print(f"{len(snippets)} snippets: {wall:.2f} s wall, {cpu:.2f} s CPU; parse floor {floor:.3f} s")
    out = results_dir() / "callgraph_micro.txt"
    out.write_text("\n".join(report) + "\n")
    print(json.dumps({"benchmark": f"pycg {args.pycg_version} micro-benchmark", "snippets": len(snippets),
                      "precision": round(precision, 1), "recall": round(recall, 1),
                      "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "parse_floor_s": round(floor, 3),
                      "by_category": {c: v for c, v in sorted(by_category.items())}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
