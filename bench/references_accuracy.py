#!/usr/bin/env python
"""find_references against the TypeScript language service's "find all references".

For a seeded sample of definitions in a TypeScript corpus (the same npm corpora as
``accuracy.py``; default ``zod@4.6.7``) — half of them members of classes, interfaces and type
aliases (properties and methods used through typed values), half top-level functions, classes,
interfaces, type aliases and constants — the oracle is ``findReferences`` at the definition's
name; its entries that are not definitions and lie inside the root are the expected uses. Ours:
``Project.find_references(name, file, line, column)`` (declaration left out). Positions are
compared as (file, line, column in code points).

  recall    = per symbol, expected uses we list / expected uses; averaged over symbols with
              at least one expected use (macro), and over all uses (micro)
  precision = per symbol, our uses the oracle lists / our uses (macro and micro)

Prints both, by kind of symbol, then one JSON line; the worst symbols go to
bench/results/references_accuracy-<corpus>.txt.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402

_MEMBER_KINDS = {"property", "method", "field"}
_TOP_KINDS = {"function", "class", "interface", "type", "constant", "enum"}


def _utf16_offset(lines: list[str], line: int, column: int) -> int:
    before = sum(len(l.encode("utf-16-le")) // 2 + 1 for l in lines[: line - 1])
    return before + len(lines[line - 1][: column - 1].encode("utf-16-le")) // 2


def sample_definitions(project: Project, n: int, seed: int) -> list[dict]:
    ctx = project._context
    members, top = [], []
    with ctx.lock:
        resolver = ctx.fresh()
        for path in sorted(ctx.index._summaries):
            if not path.endswith((".ts", ".tsx")) or path.endswith(".d.ts"):
                continue
            facts = resolver.view(path).facts
            defs = facts.definitions
            for d in facts.definitions:
                if d.declaration or not d.name.isidentifier():
                    continue
                owner = defs[d.container] if d.container >= 0 else None
                if d.kind in _MEMBER_KINDS and owner is not None and owner.kind in ("class", "interface", "type"):
                    members.append({"file": path, "line": d.line, "column": d.column, "name": d.name, "kind": "member"})
                elif d.kind in _TOP_KINDS and d.scope == 0:
                    top.append({"file": path, "line": d.line, "column": d.column, "name": d.name, "kind": "top-level"})
    rng = random.Random(seed)
    return rng.sample(members, min(n // 2, len(members))) + rng.sample(top, min(n - n // 2, len(top)))


def oracle(root: Path, symbols: list[dict], ts_version: str) -> list[set]:
    ts_module = benchlib.ensure_typescript_module(ts_version)
    script = Path(__file__).resolve().parent / "ts_refs_oracle.js"
    texts: dict[str, list[str]] = {}

    def lines(rel: str) -> list[str]:
        if rel not in texts:
            texts[rel] = (root / rel).read_text(encoding="utf-8").split("\n")
        return texts[rel]

    with tempfile.TemporaryDirectory() as tmp:
        queries = [{"id": i, "file": s["file"], "offset": _utf16_offset(lines(s["file"]), s["line"], s["column"])}
                   for i, s in enumerate(symbols)]
        Path(tmp, "q.json").write_text(json.dumps(queries))
        subprocess.run(["node", str(script), str(ts_module), str(root), str(Path(tmp, "q.json")),
                        str(Path(tmp, "o.json"))], check=True)
        out = json.loads(Path(tmp, "o.json").read_text())
    expected = []
    for answer in out["answers"]:
        uses = set()
        for r in answer["refs"]:
            try:
                rel = str(Path(r["file"]).resolve().relative_to(root.resolve()))
            except ValueError:
                continue  # a use outside the root (lib.d.ts, node_modules)
            if r["definition"]:
                continue
            text = lines(rel)[r["line0"]]
            uses.add((rel, r["line0"] + 1, benchlib.utf16_to_code_points(text, r["char16"]) + 1))
        expected.append(uses)
    return expected


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ts-package", default="zod@4.6.7")
    parser.add_argument("--typescript-version", default="5.9.3")
    parser.add_argument("-n", type=int, default=200, help="definitions sampled")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    root, meta = benchlib.ensure_ts_corpus(args.ts_package)
    with tempfile.TemporaryDirectory() as cache:
        project = Project(root, cache_dir=cache)
        project.index()
        symbols = sample_definitions(project, args.n, args.seed)
        start = time.perf_counter()
        expected = oracle(root, symbols, args.typescript_version)
        oracle_s = time.perf_counter() - start
        rows, times = [], []
        for symbol, want in zip(symbols, expected):
            t = time.perf_counter()
            result = project.find_references(symbol["name"], symbol["file"], symbol["line"], symbol["column"])
            times.append(time.perf_counter() - t)
            got = {(r.file, r.line, r.column) for r in result.references} if result.found else set()
            rows.append({**symbol, "expected": len(want), "ours": len(got), "hit": len(want & got),
                         "missed": sorted(want - got)[:5], "extra": sorted(got - want)[:5], "status": result.status})
        project.close()

    def summary(selected):
        scored = [r for r in selected if r["expected"]]
        claimed = [r for r in selected if r["ours"]]
        return {
            "symbols": len(selected), "with_uses": len(scored),
            "recall_macro": round(100 * sum(r["hit"] / r["expected"] for r in scored) / len(scored), 1) if scored else None,
            "recall_micro": round(100 * sum(r["hit"] for r in scored) / max(1, sum(r["expected"] for r in scored)), 1),
            "precision_macro": round(100 * sum(r["hit"] / r["ours"] for r in claimed) / len(claimed), 1) if claimed else None,
            "precision_micro": round(100 * sum(r["hit"] for r in claimed) / max(1, sum(r["ours"] for r in claimed)), 1),
        }

    report = {"all": summary(rows), "member": summary([r for r in rows if r["kind"] == "member"]),
              "top-level": summary([r for r in rows if r["kind"] == "top-level"])}
    print(f"corpus {meta['name']} {meta['version']}: {len(symbols)} definitions; oracle {oracle_s:.1f} s")
    print(f"{'kind':<10} {'symbols':>7} {'recall (macro/micro)':>22} {'precision (macro/micro)':>25}")
    for kind, s in report.items():
        print(f"{kind:<10} {s['with_uses']:>7} {str(s['recall_macro']) + ' / ' + str(s['recall_micro']):>22} "
              f"{str(s['precision_macro']) + ' / ' + str(s['precision_micro']):>25}")
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))] * 1000 if times else 0
    print(f"find_references p50 {times[len(times) // 2] * 1000:.1f} ms, p95 {p95:.1f} ms")
    worst = sorted((r for r in rows if r["expected"]), key=lambda r: r["hit"] / r["expected"])[:40]
    out = benchlib.results_dir() / f"references_accuracy-{meta['name'].replace('/', '+')}.txt"
    out.write_text("\n".join(json.dumps(r) for r in worst) + "\n")
    print(json.dumps({"bench": "references_accuracy", "corpus": f"{meta['name']} {meta['version']}",
                      "seed": args.seed, **report}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
