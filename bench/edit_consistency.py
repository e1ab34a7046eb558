#!/usr/bin/env python
"""After each edit of a real package, is the kept call graph the graph of a fresh start?

The graph is brought up to date after a save by redoing only the files the change can reach
(``graph/build.py`` ``CodeGraph._update``). This script checks those rules on code nobody here
wrote: seeded random edits of the package's files, as a person makes them —

  append_call    a function appended that passes an argument to a function of the file
  append_remove  the same appended, then taken away again (an undo)
  append_method  a method appended to the class that ends the file (Python)
  arg_change     one call's argument replaced inside a body

— and after each, the whole call graph (every edge and node) is compared with that of a new
``Project`` on the same files with a fresh cache. It prints one line per edit (files redone,
OK / DIFFERS with a few of the edges missing or extra) and one JSON line; exit status 1 on any
difference. Corpora as ``accuracy.py`` fetches them (cache: ``~/.cache/jupyter_codetrace-bench``).

    python bench/edit_consistency.py                      # rich and zod, 12 edits each
    python bench/edit_consistency.py --ts-package zod@4.6.7 --py-package '' -n 30 --seed 3
    python bench/edit_consistency.py --between-processes   # each save made between two processes
    python bench/edit_consistency.py --py-package '' --ts-package '' --js-package express@5.1.0 -n 30
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import ensure_python_corpus, ensure_ts_corpus, log, results_dir  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402

_CALL = re.compile(r"\b\w+\((\w+)\)")


def _graph(project) -> tuple[list[str], list[str]]:
    found = project.call_graph().to_dict()
    return sorted(map(str, found["edges"])), sorted(map(str, found["nodes"]))


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    stamp = time.time() + 2   # a new mtime even on coarse-clock filesystems
    os.utime(path, (stamp, stamp))


def _edits(rng: random.Random, i: int, path: Path, text: str, callee: str) -> tuple[str, list[str]]:
    """(the kind of edit, the texts the file is saved with in turn)."""
    python = path.suffix == ".py"
    appended = (f"\n\ndef added_{i}(value):\n    return {callee}(value)\n" if python else
                f"\nexports.added_{i} = function added_{i}(value) {{\n  return {callee}(value);\n}};\n"
                if path.suffix == ".js" else
                f"\nexport function added_{i}(value: any) {{\n  return {callee}(value);\n}}\n")
    kind = rng.choice(["append_call", "append_remove", "append_method", "arg_change"])
    last = text.rstrip().splitlines()[-1:] or [""]
    if kind == "append_method" and python and last[0].startswith("    "):
        return kind, [text.rstrip() + f"\n\n    def method_{i}(self, other):\n        return {callee}(other)\n"]
    if kind in ("append_method", "arg_change"):
        calls = list(_CALL.finditer(text))
        if not calls:
            return "append_call", [text + appended]
        call = rng.choice(calls)
        return "arg_change", [text[:call.start(1)] + "None" + text[call.end(1):]]
    return kind, [text + appended] + ([text] if kind == "append_remove" else [])


def check(source: Path, edits: int, seed: int, between: bool = False) -> dict:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="edit-consistency-"))
    root = work / source.name
    shutil.copytree(source, root)
    rows = []
    project = Project(root, cache_dir=work / "kept")

    def save(path: Path, text: str) -> None:
        nonlocal project
        if between:   # saved while no process runs: the next one starts from what the last kept
            project.close()
        _write(path, text)
        if between:
            project = Project(root, cache_dir=work / "kept")

    try:
        _graph(project)
        files = sorted(f for f in project._context.index.files() if Path(f).suffix in (".py", ".ts", ".js"))
        for i in range(edits):
            rel = rng.choice(files)
            path = root / rel
            text = path.read_text(encoding="utf-8")
            tops = [d.name for d in project._context.index.facts(rel).definitions
                    if d.container < 0 and d.kind in ("function", "class")]
            kind, steps = _edits(rng, i, path, text, rng.choice(tops) if tops else "String")
            for step, new in enumerate(steps):
                save(path, new)
                kept = _graph(project)
                redone = project._context._code_graph.last_rebuilt
                with Project(root, cache_dir=work / f"fresh-{i}-{step}") as fresh:
                    expected = _graph(fresh)
                row = {"file": rel, "edit": kind, "step": step, "redone": redone, "same": kept == expected}
                if not row["same"]:
                    row["missing"] = [e for e in expected[0] if e not in kept[0]][:3]
                    row["extra"] = [e for e in kept[0] if e not in expected[0]][:3]
                rows.append(row)
                log(f"{i:>3} {rel} {kind} {step}: {redone} redone, {'OK' if row['same'] else 'DIFFERS'}"
                    + ("" if row["same"] else f"\n    missing {row['missing']}\n    extra {row['extra']}"))
            save(path, text)
            _graph(project)
    finally:
        project.close()
        shutil.rmtree(work, ignore_errors=True)
    return {"corpus": source.name, "edits": edits, "seed": seed, "between_processes": between, "checked": len(rows),
            "differ": sum(not r["same"] for r in rows), "redone": [r["redone"] for r in rows], "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--py-package", default="rich==15.0.0", help="PyPI NAME==VERSION ('' for none)")
    parser.add_argument("--ts-package", default="zod@4.6.7", help="npm NAME@VERSION ('' for none)")
    parser.add_argument("--js-package", default="", help="npm NAME@VERSION of CommonJS sources "
                        "(e.g. express@5.1.0; default none)")
    parser.add_argument("-n", type=int, default=12, help="edits per corpus (default 12)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--between-processes", action="store_true",
                        help="each save made while no process runs: the kept graph is that of a new Project "
                             "on the kept cache (a restart after the edit), not of the process that saw it")
    args = parser.parse_args()
    corpora = []
    if args.py_package:
        corpora.append(ensure_python_corpus(args.py_package)[0])
    if args.ts_package:
        corpora.append(ensure_ts_corpus(args.ts_package)[0])
    if args.js_package:
        corpora.append(ensure_ts_corpus(args.js_package, language="javascript")[0])
    results = [check(root, args.n, args.seed, args.between_processes) for root in corpora]
    for found in results:
        print(f"{found['corpus']:<16} {found['checked']:>3} saves checked, {found['differ']} differ from a fresh start; "
              f"files redone per save: {found['redone']}")
    line = json.dumps([{k: v for k, v in found.items() if k != "rows"} for found in results])
    print(line)
    (results_dir() / "edit_consistency.json").write_text(json.dumps(results) + "\n")
    return 1 if any(found["differ"] for found in results) else 0


if __name__ == "__main__":
    sys.exit(main())
