"""MCP start-up latency, as an agent sees it: spawn `codetrace mcp --root ROOT` over stdio with the
official `mcp` client, then time

- handshake:     spawn -> the client's session is ready (initialize, or server/discover in the
                 2026 protocol the SDK's client speaks by default);
- tools/list:    spawn -> the tool list is in;
- first answer:  spawn -> the first tool answer (find_definition on the fixture by default);

each with the server process's CPU seconds (user + system, from /proc) at that moment beside the
wall time, the median over --runs fresh processes. The index cache is a fresh folder per run
with --cold (the first answer then includes indexing the repository), else shared between runs.

    python bench/mcp_latency.py                       # fixtures/graph_py, 5 runs
    python bench/mcp_latency.py --root fixtures/demo --tool search_symbols --args '{"query": "total"}'
    python bench/mcp_latency.py --cold --runs 3 --json

Then each tool is called --rounds times in the last process (warm: p50 and max milliseconds).
"""

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

REPO = Path(__file__).resolve().parents[1]

# Runs the server as a child and writes the child's pid to a file at once, so that the benchmark
# can read the server's CPU time from /proc while it runs (the client owns the process it spawns).
_WRAPPER = """
import subprocess, sys
child = subprocess.Popen(sys.argv[2:])
open(sys.argv[1], "w").write(str(child.pid))
sys.exit(child.wait())
"""


def _cpu_seconds(pid_file: Path) -> float | None:
    """User + system CPU seconds of the server process so far (Linux /proc), None elsewhere."""
    try:
        pid = int(pid_file.read_text())
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def _one_run(root: Path, tool: str, arguments: dict, cache: str, command: list[str], rounds: int = 0) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        pid_file = Path(tmp) / "pid"
        env = {**os.environ, "CODETRACE_CACHE_DIR": cache}
        params = StdioServerParameters(command=sys.executable, args=["-c", _WRAPPER, str(pid_file), *command,
                                                                     "mcp", "--root", str(root)], env=env)
        marks = {}
        start = time.perf_counter()

        def mark(name: str) -> None:
            marks[name] = {"wall": time.perf_counter() - start, "cpu": _cpu_seconds(pid_file)}

        async with mcp.Client(params, read_timeout_seconds=300) as client:
            mark("handshake")
            tools = await client.list_tools()
            mark("tools_list")
            result = await client.call_tool(tool, arguments)
            mark("first_answer")
            assert not result.is_error, result.content
            second = time.perf_counter()
            await client.call_tool(tool, arguments)
            marks["second_answer"] = {"wall": time.perf_counter() - second, "cpu": None}
            marks["warm_ms"] = await _warm_calls(client, rounds) if rounds else {}
        marks["tools"] = len(tools.tools)
        return marks


async def _warm_calls(client, rounds: int) -> dict:
    """Each tool, ``rounds`` times, on the first symbol a search finds: p50 and max milliseconds."""
    found = (await client.call_tool("search_symbols", {"query": "main", "limit": 5})).structured_content
    calls = {"search_symbols": {"query": "main", "limit": 5}}
    if found.get("symbols"):
        first = found["symbols"][0]
        calls["codebase_trace"] = {"symbol": first["name"], "file": first["file"], "calls": True}
        calls["dependentsOf"] = {"file_path": first["file"], "symbol": first["name"]}
        calls["find_references"] = {"path": first["file"], "line": first["line"], "character": first["column"]}
        calls["find_definition"] = {"symbol_name": first["name"], "file_path": first["file"], "line_number": first["line"]}
    warm = {}
    for name, arguments in calls.items():
        times = []
        for _ in range(rounds):
            t = time.perf_counter()
            await client.call_tool(name, arguments)
            times.append((time.perf_counter() - t) * 1000)
        warm[name] = {"p50_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)}
    return warm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=str(REPO / "fixtures" / "graph_py"), help="the repository to serve")
    parser.add_argument("--tool", default="find_definition", help="the tool of the first call")
    parser.add_argument("--args", default='{"symbol_name": "place_order", "file_path": "main.py", "line_number": 11}',
                        help="its arguments (JSON)")
    parser.add_argument("--runs", type=int, default=5, help="fresh server processes (default 5); medians reported")
    parser.add_argument("--cold", action="store_true", help="a fresh index cache per run (the first answer indexes)")
    parser.add_argument("--command", default=None,
                        help="the server command before 'mcp' (default: this Python's jupyter_codetrace.cli)")
    parser.add_argument("--rounds", type=int, default=10,
                        help="then call each tool this many times in the last run: p50/max ms (0: skip)")
    parser.add_argument("--json", action="store_true", help="print the runs as JSON")
    args = parser.parse_args(argv)
    command = args.command.split() if args.command else [sys.executable, "-m", "jupyter_codetrace.cli"]
    arguments = json.loads(args.args)
    runs = []
    with tempfile.TemporaryDirectory() as shared:
        if not args.cold:  # warm the shared index cache once, outside the measurements
            anyio.run(_one_run, Path(args.root), args.tool, arguments, shared, command)
        for i in range(args.runs):
            cache = tempfile.mkdtemp(dir=shared) if args.cold else shared
            rounds = args.rounds if i == args.runs - 1 else 0
            runs.append(anyio.run(_one_run, Path(args.root), args.tool, arguments, cache, command, rounds))
    if args.json:
        print(json.dumps(runs, indent=2))
        return 0
    print(f"codetrace mcp --root {args.root}: {args.runs} runs, {'cold' if args.cold else 'warm'} index cache, "
          f"first call {args.tool}; medians, wall seconds [server CPU seconds]")
    for name in ("handshake", "tools_list", "first_answer", "second_answer"):
        wall = statistics.median(r[name]["wall"] for r in runs)
        cpus = [r[name]["cpu"] for r in runs if r[name]["cpu"] is not None]
        cpu = f" [{statistics.median(cpus):.2f} CPU]" if cpus else ""
        label = "second answer (alone)" if name == "second_answer" else f"spawn -> {name.replace('_', ' ')}"
        print(f"  {label:<26} {wall:6.2f} s{cpu}")
    for name, times in runs[-1]["warm_ms"].items():
        print(f"  warm {name:<21} p50 {times['p50_ms']:6.1f} ms, max {times['max_ms']:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
