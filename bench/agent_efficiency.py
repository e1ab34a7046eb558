#!/usr/bin/env python
"""Agent efficiency: characters an agent reads to answer 20 navigation questions with our tools
vs. by reading the files involved (default corpus: rich 15.0.0, as in accuracy.py).

Questions, for 20 random functions/methods (seeded): "where is X defined, who calls it, what does
it call?" (codebase_trace with calls), "who uses X?" (find_references), and "how does the caller
reach X?" (pathsBetween from one of its callers). Tool cost = the characters of the tools' text
answers (what the MCP tools return). Baseline = the characters of every file an agent must read
to answer the same question without them: the files that mention the name (a grep), plus the
files of its callees. Reports both totals and the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import ensure_python_corpus  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--py-package", default="rich==15.0.0")
    parser.add_argument("-n", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    root, _ = ensure_python_corpus(args.py_package)
    texts = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8", errors="replace")
             for p in root.rglob("*.py")}
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as cache:
        project = Project(root, cache_dir=cache)
        graph = project.call_graph()
        callers = {}
        for e in graph.edges:
            if e.kind == "CALLS":
                callers.setdefault(e.target, []).append(e.source)
        nodes = [n for n in graph.nodes if n.kind in ("function", "method") and n.id in callers]
        rows = []
        for node in rng.sample(nodes, min(args.n, len(nodes))):
            symbol = node.id.split("#", 1)[1]
            trace = project.trace(symbol, node.file, calls=True)
            refs = project.find_references(node.name, node.file, node.line, None)
            caller = callers[node.id][0]
            cfile, csymbol = caller.split("#", 1)
            path = project.paths_between((cfile, csymbol or node.name), (node.file, symbol)) if csymbol else None
            tool_chars = len(trace.to_text()) + len(refs.to_text()) + (len(path.to_text()) if path else 0)
            word = re.compile(rf"\b{re.escape(node.name)}\b")
            involved = {f for f, t in texts.items() if word.search(t)}
            involved |= {e.target.split("#", 1)[0] for e in project.dependencies_of(node.file, symbol).edges}
            baseline = sum(len(texts[f]) for f in involved if f in texts)
            rows.append({"symbol": f"{node.file}#{symbol}", "tool_chars": tool_chars, "files_read": len(involved),
                         "baseline_chars": baseline})
        project.close()
    tool_total = sum(r["tool_chars"] for r in rows)
    base_total = sum(r["baseline_chars"] for r in rows)
    for r in rows:
        print(f"{r['symbol']:<60} tools {r['tool_chars']:>7}  files {r['files_read']:>3} = {r['baseline_chars']:>8} chars")
    print(f"total: tools {tool_total:,} chars vs reading the files {base_total:,} chars: "
          f"{base_total / max(tool_total, 1):.1f}x less to read")
    print(json.dumps({"questions": len(rows) * 3, "symbols": len(rows), "tool_chars": tool_total,
                      "baseline_chars": base_total, "ratio": round(base_total / max(tool_total, 1), 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
