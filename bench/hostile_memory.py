#!/usr/bin/env python
"""Peak memory of indexing hostile files (issue 16, item 10).

Generates, at run time and under a temporary folder, files shaped like generated or hostile
code in Python, TypeScript, JavaScript and C — very long lines, a 100,000-line function, huge
array/object literals, 50,000 tiny statements, brackets nested thousands deep, minified JS on
one line, a generated ``.d.ts`` with 20,000 members — each under the default 2 MB size limit
(larger files are skipped before they are read).

Each file is indexed alone in a fresh child process (``Project(root).index()`` in-process, one
worker); the child reports its peak RSS (``ru_maxrss``) and what the index said about the file
(warnings, skip reason, definitions, references). The cost of one file is that peak minus the
peak of a child indexing a one-line file (interpreter, tree-sitter, grammar, query). For
comparison, the stdlib's largest files are measured the same way: their MB per 1,000 lines is
what written code costs. Then all hostile files are indexed together, as one repository, and
the whole set's peak (the process and its pool workers, ``RUSAGE_CHILDREN``) is reported.

``--tracemalloc FILE`` prints the top allocation sites while indexing one generated file (what
to bound). Results go to ``bench/results/hostile_memory.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import ensure_stdlib_corpus, results_dir  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STDLIB_FILES = ("pydoc_data/topics.py", "_pydecimal.py", "typing.py", "argparse.py")


# ------------------------------------------------------------------ generators

def _py_long_lines() -> str:
    line = "x = " + " + ".join(f"a{i % 97}" for i in range(1800)) + "\n"   # ~10 KB per line
    return "".join(line for _ in range(180))


def _py_long_function() -> str:
    body = "".join(f"    v = v + w{i % 13}\n" for i in range(100_000))
    return "def long_function(v, w0):\n" + body + "    return v\n"


def _py_big_literal() -> str:
    items = ",\n".join(f"    {{'k': {i}, 'n': name{i % 50}}}" for i in range(60_000))
    return "TABLE = [\n" + items + "\n]\n"


def _py_tiny_statements() -> str:
    return "".join(f"x{i % 100} = y\n" for i in range(50_000))


def _py_nested() -> str:
    depth = 5000
    return "value = " + "(" * depth + "leaf" + ")" * depth + "\n" + "def after():\n    return value\n"


def _js_minified() -> str:
    parts = [f"function f{i}(a,b){{var c=a+b*f{max(i - 1, 0)}(a,b);return g(c,a.x,b.y)}}" for i in range(25_000)]
    return ";".join(parts) + ";\n"


def _js_nested_functions() -> str:
    depth = 3000
    return "".join(f"function n{i}(){{" for i in range(depth)) + "return 1;" + "}" * depth + "\n"


def _ts_declarations() -> str:
    members = "".join(f"    member{i}(arg: Input{i % 40}, other?: Array<Item{i % 7}>): Promise<Result{i % 11}>;\n"
                      for i in range(20_000))
    return "export declare interface Generated {\n" + members + "}\n"


def _ts_big_object() -> str:
    keys = ",\n".join(f"  key{i}: {{ id: {i}, ref: other{i % 30} }}" for i in range(40_000))
    return "export const data = {\n" + keys + "\n};\n"


def _c_big_array() -> str:
    rows = ",\n".join(", ".join(str((i * 31 + j) % 1000) for j in range(20)) for i in range(20_000))
    return "static const int table[] = {\n" + rows + "\n};\n"


def _c_long_function() -> str:
    body = "".join(f"    v = v + w[{i % 13}];\n" for i in range(80_000))
    return "int long_function(int v, int *w) {\n" + body + "    return v;\n}\n"


HOSTILE = {
    "py_long_lines.py": _py_long_lines,
    "py_long_function.py": _py_long_function,
    "py_big_literal.py": _py_big_literal,
    "py_tiny_statements.py": _py_tiny_statements,
    "py_nested.py": _py_nested,
    "js_minified.js": _js_minified,
    "js_nested_functions.js": _js_nested_functions,
    "ts_generated.d.ts": _ts_declarations,
    "ts_big_object.ts": _ts_big_object,
    "c_big_array.c": _c_big_array,
    "c_long_function.c": _c_long_function,
}


def write_hostile(folder: Path) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in HOSTILE.items():
        (folder / name).write_text(make(), encoding="utf-8")
    return list(HOSTILE)


# ------------------------------------------------------------------ measuring (children)

_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from jupyter_codetrace import Project
root, cache = sys.argv[2], sys.argv[3]
started = time.perf_counter()
with Project(root, cache_dir=cache) as project:
    stats = project.index()
    out = {"seconds": round(time.perf_counter() - started, 2),
           "self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
           "files": stats.files, "lines": stats.lines, "definitions": stats.definitions,
           "references": stats.references, "warnings": stats.warnings, "skipped": stats.skipped}
print(json.dumps(out))
"""


ENGINE = ROOT   # --engine: another checkout's (e.g. `git archive HEAD~1 jupyter_codetrace | tar -x -C /tmp/old`)


def _run_child(root: Path, cache: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(ENGINE), str(root), str(cache)],
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _alone(source: Path, work: Path, tag: str) -> dict:
    """Index ``source`` alone, in a fresh root and cache, in a child process."""
    root = work / f"alone-{tag}"
    root.mkdir()
    (root / source.name).write_bytes(source.read_bytes())
    result = _run_child(root, work / f"cache-{tag}")
    result["bytes"] = source.stat().st_size
    return result


def _tracemalloc(source: Path, top: int) -> str:
    code = r"""
import sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.index.parsing import parse
from jupyter_codetrace.languages import for_path
path = Path(sys.argv[2])
data = path.read_bytes()
spec = for_path(path.name)
parse(spec, b"x")
tracemalloc.start(8)
facts = extract_file(path.name, data, spec)
current, peak = tracemalloc.get_traced_memory()
snapshot = tracemalloc.take_snapshot()
print(f"python heap: peak {peak / 2**20:.0f} MB, kept {current / 2**20:.0f} MB "
      f"({len(facts.definitions)} definitions, {len(facts.references)} references)")
for stat in snapshot.statistics("lineno")[:int(sys.argv[3])]:
    print(f"  {stat.size / 2**20:7.1f} MB  {stat.count:>8}  {stat.traceback[0]}")
"""
    done = subprocess.run([sys.executable, "-c", code, str(ENGINE), str(source), str(top)],
                          capture_output=True, text=True, timeout=1800)
    return done.stdout + done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated generated file names to measure")
    parser.add_argument("--no-stdlib", action="store_true", help="skip the stdlib comparison")
    parser.add_argument("--no-together", action="store_true", help="skip indexing all hostile files together")
    parser.add_argument("--tracemalloc", metavar="FILE", help="top allocation sites of one generated file")
    parser.add_argument("--label", default="", help="stored with the results (e.g. before / after)")
    parser.add_argument("--copies", type=int, default=1,
                        help="copies of the hostile set indexed together (6 or more: through the process pool)")
    parser.add_argument("--engine", type=Path, default=ROOT,
                        help="folder holding the jupyter_codetrace package to measure (default: this checkout)")
    args = parser.parse_args()
    global ENGINE
    ENGINE = args.engine.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        hostile = work / "hostile"
        names = write_hostile(hostile)
        if args.tracemalloc:
            print(_tracemalloc(hostile / args.tracemalloc, 15))
            return 0
        if args.only:
            names = [n for n in names if n in args.only.split(",")]
        floor_file = work / "floor.py"
        floor_file.write_text("x = 1\n")
        floor = _alone(floor_file, work, "floor")["self_mb"]
        out = {"label": args.label, "engine": str(ENGINE), "floor_mb": round(floor, 1), "hostile": {}, "stdlib": {}}
        print(f"floor (a one-line file): {floor:.0f} MB")
        print(f"{'file':<24} {'KB':>6} {'lines':>7} {'MB':>6} {'MB/kline':>9} {'s':>6} {'defs':>7} {'refs':>8}  warning/skip")
        rows = [("hostile", hostile / n, n) for n in names]
        if not args.no_stdlib:
            stdlib, _ = ensure_stdlib_corpus(False)
            rows += [("stdlib", stdlib / n, n) for n in STDLIB_FILES if (stdlib / n).exists()]
        for group, path, name in rows:
            r = _alone(path, work, f"{group}-{name.replace('/', '_')}")
            if "error" in r:
                print(f"{name:<24} error: {r['error']}")
                out[group][name] = r
                continue
            cost = r["self_mb"] - floor
            lines = max(r["lines"], 1)
            note = "; ".join(w["message"][:60] for w in r["warnings"]) or "; ".join(s["reason"] for s in r["skipped"])
            print(f"{name:<24} {r['bytes'] // 1024:>6} {r['lines']:>7} {cost:>6.0f} {cost / lines * 1000:>9.2f} "
                  f"{r['seconds']:>6} {r['definitions']:>7} {r['references']:>8}  {note}")
            out[group][name] = {"kb": r["bytes"] // 1024, "lines": r["lines"], "mb": round(cost, 1),
                                "mb_per_kline": round(cost / lines * 1000, 2), "seconds": r["seconds"],
                                "definitions": r["definitions"], "references": r["references"],
                                "warnings": [w["message"] for w in r["warnings"]],
                                "skipped": [s["reason"] for s in r["skipped"]]}
        if not args.no_together:
            together = work / "together"
            # with 6 copies or more (64+ files) through the process pool, as a first index does
            for copy in range(args.copies):
                for name in names:
                    target = together / f"copy{copy}" / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes((hostile / name).read_bytes())
            started = time.perf_counter()
            r = _run_child(together, work / "cache-together")
            if "error" in r:
                print("together: error:", r["error"])
            else:
                print(f"together: {r['files']} files, {r['lines']} lines in {time.perf_counter() - started:.0f} s: "
                      f"peak {r['self_mb']:.0f} MB (indexing process), {r['children_mb']:.0f} MB (largest worker); "
                      f"{len(r['warnings'])} warnings, {len(r['skipped'])} skipped")
                out["together"] = {k: r[k] for k in ("files", "lines", "self_mb", "children_mb", "seconds")}
                out["together"]["warnings"] = len(r["warnings"])
    line = json.dumps(out)
    print(line)
    suffix = f"-{args.label}" if args.label else ""
    (results_dir() / f"hostile_memory{suffix}.json").write_text(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
