#!/usr/bin/env python
"""MCP latency: a real stdio session spawning `codetrace mcp --root ROOT` (default fixtures/demo,
else fixtures/graph_py): time from spawn to the first answer (cold: fresh cache), and warm
calls of each tool. Targets (issue 8): cold <= 2 s, warm <= 100 ms."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
import mcp
from mcp import StdioServerParameters

REPO = Path(__file__).resolve().parent.parent


async def run(root: Path, rounds: int) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "CODETRACE_CACHE_DIR": cache, "PYTHONPATH": str(REPO)}
        params = StdioServerParameters(command=sys.executable, args=["-m", "jupyter_codetrace.cli", "--root", str(root), "mcp"],
                                       env=env)
        start = time.perf_counter()
        async with mcp.Client(params, read_timeout_seconds=120) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            symbols = (await client.call_tool("search_symbols", {"query": "main", "limit": 5})).structured_content
            cold = time.perf_counter() - start
            first = symbols["symbols"][0] if symbols["symbols"] else None
            calls = {"search_symbols": {"query": "main", "limit": 5}}
            if first:
                calls["codebase_trace"] = {"symbol": first["name"], "file": first["file"], "calls": True}
                calls["dependentsOf"] = {"file_path": first["file"], "symbol": first["name"]}
                calls["find_references"] = {"path": first["file"], "line": first["line"], "character": first["column"]}
                calls["find_definition"] = {"symbol_name": first["name"], "file_path": first["file"],
                                            "line_number": first["line"]}
            warm = {}
            for name, arguments in calls.items():
                times = []
                for _ in range(rounds):
                    t = time.perf_counter()
                    await client.call_tool(name, arguments)
                    times.append((time.perf_counter() - t) * 1000)
                warm[name] = {"p50_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)}
    return {"root": str(root), "tools": sorted(tools), "cold_first_answer_s": round(cold, 2), "warm": warm}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    default = REPO / "fixtures" / ("demo" if (REPO / "fixtures" / "demo").exists() else "graph_py")
    parser.add_argument("--root", type=Path, default=default)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    out = anyio.run(run, args.root, args.rounds)
    print(f"cold start -> first answer: {out['cold_first_answer_s']} s (target <= 2 s)")
    for name, w in out["warm"].items():
        print(f"  {name:<18} p50 {w['p50_ms']} ms  max {w['max_ms']} ms (target <= 100 ms)")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
