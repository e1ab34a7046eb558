#!/usr/bin/env python
"""Start-up latency: a new process answering its first question (issues 14 and 20).

Every figure is a fresh process (or kernel), measured as wall seconds AND CPU seconds of every
process involved (the process, its children and grandchildren), each the minimum over --runs,
with the median beside it, and as a multiple of a floor measured in the same run:

  floor   python -c pass                                  the interpreter alone
  floor   python -c "import tree_sitter"                  the least a parsing process pays
  floor   python -c "import mcp.server.mcpserver"         the MCP SDK alone (the MCP figures' floor)
  import  python -c "from jupyter_codetrace import Project; Project"        (information)
  restart new process, warm cache: Project(stdlib).find_definition(...)    bar <= 0.3 s
  cli     codetrace --root stdlib def FILE:LINE:COL SYMBOL, warm cache      bar <= 0.3 s
  mcp     codetrace mcp --root fixtures/graph_py over stdio with the official client:
          spawn -> handshake, spawn -> first tool answer; warm and cold index cache
                                                                            bar <= 1 s
  magics  a fresh kernel (started untimed): %load_ext jupyter_codetrace + the first %def on
          fixtures/demo, cold and warm index cache                          bar <= 1 s

The restart and CLI question is a name imported from another file of the root
(``urlparse`` in urllib/request.py:309:12 -> urllib/parse.py), on the CPython standard library
copied by ``benchlib.ensure_stdlib_corpus`` (1,788 files; its index is built once per measured copy, untimed).

Bytecode: this machine's environment sets PYTHONDONTWRITEBYTECODE, so every start would compile
the package from source (~60 ms) where an installed package has its .pyc. By default the
measured processes write and read bytecode under a prefix in the bench cache
(PYTHONPYCACHEPREFIX; an untimed run first); --no-bytecode measures with the environment as is.
--source DIR measures another copy of the package (e.g. ``git archive`` of an older commit);
--against DIR measures a second copy beside it, each of its import, restart and cli runs right
after or before one of this copy's (alternating), so that a machine whose speed drifts from one
minute to the next weighs on both alike: compare ``restart`` with ``restart_against``.

    python bench/startup.py                     # everything, 7 runs each (~1.5 min)
    python bench/startup.py --only restart,cli --runs 11
    python bench/startup.py --source /tmp/old   # the package in /tmp/old/jupyter_codetrace
    python bench/startup.py --only import,restart,cli --runs 20 --against /tmp/old

Prints a table, then one JSON line (also bench/results/startup.json).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from benchlib import cache_dir, ensure_stdlib_corpus, log, results_dir  # noqa: E402

RESTART_QUERY = ("urlparse", "urllib/request.py", 309, 12)
RESTART_EXPECT = "urllib/parse.py"
MCP_ROOT = REPO / "fixtures" / "graph_py"
MCP_TOOL = ("find_definition", {"symbol_name": "place_order", "file_path": "main.py", "line_number": 11})
DEMO = REPO / "fixtures" / "demo"
_SOURCE_VARIABLE = "CODETRACE_BENCH_SOURCE"   # the measured copy's folder (the processes' working directory)
BARS = {"restart": 0.3, "cli": 0.3, "mcp_first_answer": 1.0, "magics_first_def": 1.0}

_RESTART_CODE = """
import sys
from jupyter_codetrace import Project
symbol, file, line, column = sys.argv[2:6]
result = Project(sys.argv[1]).find_definition(symbol, file, int(line), int(column))
print(result.status, getattr(result, "file", None))
"""


# --------------------------------------------------------------------------- measuring

def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tree_cpu(root_pid: int) -> float:
    """CPU seconds so far of the live descendants of ``root_pid`` (not itself), with what their
    own reaped children used (Linux /proc: utime + stime + cutime + cstime)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(f) for f in fields[11:15]) / tick
    total, frontier = 0.0, [root_pid]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                total += times[pid]
                frontier.append(pid)
    return total


def _spawn(command: list[str], env: dict, expect: str | None = None) -> dict:
    """One process to its end: wall seconds and the CPU seconds of it and its descendants."""
    cpu = _children_cpu()
    start = time.perf_counter()
    # run from the measured copy's folder: `python -c` puts the working directory first on the
    # path, so run from a checkout it would import that checkout's package, not the copy's
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=env.get(_SOURCE_VARIABLE))
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1) or (expect is not None and expect not in done.stdout):
        raise SystemExit(f"{command} failed ({done.returncode}): {done.stdout[-500:]} {done.stderr[-2000:]}")
    return {"wall": wall, "cpu": _children_cpu() - cpu}


def _summary(runs: list[dict]) -> dict:
    return {"wall_min": min(r["wall"] for r in runs), "wall_median": statistics.median(r["wall"] for r in runs),
            "cpu_min": min(r["cpu"] for r in runs), "cpu_median": statistics.median(r["cpu"] for r in runs),
            "runs": len(runs)}


def _repeat(runs: int, command: list[str], env: dict, expect: str | None = None, against: dict | None = None):
    """``runs`` timed processes (after an untimed one); with ``against`` (the environment of
    another copy of the package), as many of that copy, alternating run by run so that the
    machine's drift weighs on both alike: then (this copy's summary, the other's)."""
    _spawn(command, env, expect)   # untimed: bytecode written, page cache warm
    if against is None:
        return _summary([_spawn(command, env, expect) for _ in range(runs)])
    _spawn(command, against, expect)
    mine, theirs = [], []
    for i in range(runs):
        for which in ((env, mine), (against, theirs)) if i % 2 == 0 else ((against, theirs), (env, mine)):
            which[1].append(_spawn(command, which[0], expect))
    return _summary(mine), _summary(theirs)


# --------------------------------------------------------------------------- MCP

async def _mcp_once(command: list[str], env: dict, tool: str, arguments: dict) -> dict:
    import mcp
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    me = os.getpid()
    cpu0 = _children_cpu()
    marks = {}
    start = time.perf_counter()
    async with mcp.Client(params, read_timeout_seconds=300) as client:
        marks["handshake"] = {"wall": time.perf_counter() - start, "cpu": _tree_cpu(me) + _children_cpu() - cpu0}
        result = await client.call_tool(tool, arguments)
        marks["first_answer"] = {"wall": time.perf_counter() - start, "cpu": _tree_cpu(me) + _children_cpu() - cpu0}
        if result.is_error:
            raise SystemExit(f"MCP {tool} failed: {result.content}")
    return marks


def _mcp(runs: int, command: list[str], env: dict, cold: bool) -> dict:
    import anyio

    out: dict[str, list[dict]] = {"handshake": [], "first_answer": []}
    with tempfile.TemporaryDirectory() as caches:
        shared = os.path.join(caches, "shared")
        anyio.run(_mcp_once, command, {**env, "CODETRACE_CACHE_DIR": shared}, *MCP_TOOL)  # untimed
        for _ in range(runs):
            cache = tempfile.mkdtemp(dir=caches) if cold else shared
            marks = anyio.run(_mcp_once, command, {**env, "CODETRACE_CACHE_DIR": cache}, *MCP_TOOL)
            for name in out:
                out[name].append(marks[name])
    return {name: _summary(values) for name, values in out.items()}


# --------------------------------------------------------------------------- magics

def _magics(runs: int, env: dict, cold: bool) -> dict:
    from jupyter_client.manager import start_new_kernel

    def execute(client, code: str) -> None:
        reply = client.execute_interactive(code, timeout=120, output_hook=lambda msg: None)
        if reply["content"]["status"] != "ok":
            raise SystemExit(f"{code!r} failed: {reply['content']}")

    samples = []
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "demo"   # on its own: inside this repository the root would be all of it
        shutil.copytree(DEMO, repo)
        (repo / ".git").mkdir()
        shared = os.path.join(tmp, "cache")
        try:
            for i in range(runs + 1):   # the first run is untimed (bytecode, the shared cache)
                os.environ.clear()
                os.environ.update(env)
                os.environ["CODETRACE_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp) if cold else shared
                manager, client = start_new_kernel(kernel_name="python3", cwd=str(repo), stderr=subprocess.DEVNULL)
                try:
                    execute(client, "pass")
                    kernel_pid = manager.provisioner.process.pid
                    tick = os.sysconf("SC_CLK_TCK")

                    def kernel_cpu() -> float:
                        fields = Path(f"/proc/{kernel_pid}/stat").read_text().rsplit(")", 1)[1].split()
                        return sum(int(f) for f in fields[11:15]) / tick + _tree_cpu(kernel_pid)

                    cpu, start = kernel_cpu(), time.perf_counter()
                    execute(client, "%load_ext jupyter_codetrace")
                    execute(client, "%def compute_total")
                    sample = {"wall": time.perf_counter() - start, "cpu": kernel_cpu() - cpu}
                finally:
                    client.stop_channels()
                    manager.shutdown_kernel(now=True)
                if i:
                    samples.append(sample)
        finally:
            os.environ.clear()
            os.environ.update(saved)
    return _summary(samples)


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed processes per figure (default 7): min and median")
    parser.add_argument("--only", default="floor,import,restart,cli,mcp,magics",
                        help="comma-separated figures (default: all)")
    parser.add_argument("--source", default=None,
                        help="a folder holding the jupyter_codetrace package to measure (default: this checkout)")
    parser.add_argument("--against", default=None,
                        help="another folder holding the package: the import, restart and cli figures alternate "
                             "its runs with this copy's (reported as <figure>_against)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep the environment's bytecode setting (here: compile from source every start)")
    parser.add_argument("--json", action="store_true", help="print only the JSON line")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))

    python = sys.executable
    env = dict(os.environ)
    source = Path(args.source).resolve() if args.source else REPO
    base = dict(env)
    if not args.no_bytecode:
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        base["PYTHONPYCACHEPREFIX"] = str(cache_dir() / "startup-pycache")

    def copy_env(folder: Path) -> dict:
        copy = dict(base)
        copy["PYTHONPATH"] = os.pathsep.join([str(folder)] + ([base["PYTHONPATH"]] if base.get("PYTHONPATH") else []))
        # one store per measured copy: copies of different engine versions would rebuild a shared one
        copy["CODETRACE_CACHE_DIR"] = str(cache_dir() / "startup-store" / hashlib.sha1(str(folder).encode()).hexdigest()[:12])
        copy[_SOURCE_VARIABLE] = str(folder)
        return copy

    env = copy_env(source)
    store = env["CODETRACE_CACHE_DIR"]
    against = copy_env(Path(args.against).resolve()) if args.against else None

    def put(name: str, measured) -> None:
        if isinstance(measured, tuple):
            res[name], res[f"{name}_against"] = measured
        else:
            res[name] = measured
    script = Path(python).with_name("codetrace")
    cli = [str(script)] if script.exists() else [python, "-m", "jupyter_codetrace.cli"]

    res: dict = {"source": str(source), "bytecode": not args.no_bytecode, "runs": args.runs}
    if args.against:
        res["against"] = str(Path(args.against).resolve())
    if only & {"floor", "restart", "cli", "mcp", "magics", "import"}:
        log("[floor] python -c pass / import tree_sitter / import mcp.server.mcpserver")
        # cheap, and the unit of every ratio: three times the runs
        res["floor_pass"] = _repeat(3 * args.runs, [python, "-c", "pass"], env)
        res["floor_tree_sitter"] = _repeat(3 * args.runs, [python, "-c", "import tree_sitter"], env)
    if only & {"floor", "mcp"}:
        res["floor_mcp_sdk"] = _repeat(args.runs, [python, "-c", "import mcp.server.mcpserver"], env)
    if "import" in only:
        log("[import] from jupyter_codetrace import Project")
        put("import_project", _repeat(args.runs, [python, "-c", "from jupyter_codetrace import Project; Project"], env,
                                      against=against))
    if only & {"restart", "cli"}:
        root, _ = ensure_stdlib_corpus(False)
        symbol, file, line, column = RESTART_QUERY
        restart = [python, "-c", _RESTART_CODE, str(root), symbol, file, str(line), str(column)]
        log(f"[restart] warming the index of {root} under {store} (untimed; once per engine version)")
        _spawn(restart, env, RESTART_EXPECT)
        if against is not None:
            _spawn(restart, against, RESTART_EXPECT)
        res["query"] = {"root": str(root), "symbol": symbol, "file": file, "line": line, "column": column}
        if "restart" in only:
            log("[restart] Project(root).find_definition in a new process")
            put("restart", _repeat(args.runs, restart, env, RESTART_EXPECT, against))
        if "cli" in only:
            log(f"[cli] {' '.join(cli)} --root ROOT def {file}:{line}:{column} {symbol}")
            put("cli", _repeat(args.runs, cli + ["--root", str(root), "def", f"{file}:{line}:{column}", symbol],
                               env, RESTART_EXPECT, against))
    if "mcp" in only:
        command = cli + ["mcp", "--root", str(MCP_ROOT)]
        for cold in (False, True):
            label = "cold" if cold else "warm"
            log(f"[mcp] spawn -> handshake / first {MCP_TOOL[0]}, {label} index cache")
            marks = _mcp(args.runs, command, env, cold)
            res[f"mcp_handshake_{label}"] = marks["handshake"]
            res[f"mcp_first_answer_{label}"] = marks["first_answer"]
    if "magics" in only:
        for cold in (True, False):
            label = "cold" if cold else "warm"
            log(f"[magics] fresh kernel: %load_ext + first %def, {label} index cache")
            res[f"magics_first_def_{label}"] = _magics(args.runs, env, cold)

    (results_dir() / "startup.json").write_text(json.dumps(res, indent=2))
    if not args.json:
        _table(res)
    print(json.dumps(res))
    return 0


def _table(res: dict) -> None:
    floor = res.get("floor_tree_sitter")
    sdk = res.get("floor_mcp_sdk")
    print(f"\nstart-up of {res['source']}/jupyter_codetrace ({'bytecode cached' if res['bytecode'] else 'no bytecode'}), "
          f"min [median] of {res['runs']} runs; CPU = all processes"
          + (f"; *_against: {res['against']}/jupyter_codetrace, run by run alternately" if res.get("against") else ""))
    print(f"{'figure':<34} {'wall s':>15} {'CPU s':>15} {'x ts floor':>11} {'bar':>6}")
    for key, value in res.items():
        if not isinstance(value, dict) or "wall_min" not in value:
            continue
        ratio = f"{value['wall_min'] / floor['wall_min']:.1f}x" if floor and floor["wall_min"] else ""
        if sdk and key.startswith("mcp_"):
            ratio += f" ({value['wall_min'] / sdk['wall_min']:.1f}x sdk)"
        bar = next((f"{b:g} s" for name, b in BARS.items() if key.startswith(name)), "")
        print(f"{key:<34} {value['wall_min']:6.3f} [{value['wall_median']:6.3f}] "
              f"{value['cpu_min']:6.3f} [{value['cpu_median']:6.3f}] {ratio:>11} {bar:>6}")


if __name__ == "__main__":
    sys.exit(main())
