#!/usr/bin/env python
"""Load on the REST extension: a real `jupyter server` on loopback, concurrent clients.

Phase 1 (``--seconds``, default 20; the issue's run is 60): 20 clients send a mix of
definition / references / trace / paths requests on a copy of the ``graph_py`` fixture — half
of them about the fixture's own files (their answers must never change), half about the files
an editor renames, adds, deletes and edits (bodies and interfaces) meanwhile, checked against
the history of the edits (see ``Editor``: what a stale answer is, precisely).
Phase 2 (10 s): definition requests only, as fast as the clients can send (throughput).
Phase 3 (10 s): definition requests only, sent on a schedule at ``--rate`` requests/s in all
(default 250): the latency at a given load (issue 20: p95 <= 50 ms at >= 200 req/s).

Reports requests/s, p50/p95 (all and per route), errors, stale answers, the server process's
CPU (with its index workers). Targets (issue 5): >= 200
definition requests/s on 2 cores with p95 <= 100 ms; no error; no stale answer.
Then the "indexing while serving" check: a server started on the CPython stdlib answers
queries during its first index with 200 or a clean 503, and the status route's progress
never moves back (``--stdlib``; a few minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import ensure_stdlib_corpus, percentile, results_dir  # noqa: E402

from tornado.httpclient import AsyncHTTPClient, HTTPClientError  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, root: Path, workdir: Path):
        self.port, self.token = _free_port(), "load-token"
        self.base = f"http://127.0.0.1:{self.port}/codetrace/api/"
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(workdir / "cfg"), "JUPYTER_RUNTIME_DIR": str(workdir / "rt"),
               "CODETRACE_CACHE_DIR": str(workdir / "cache")}
        self.log = (workdir / f"server-{self.port}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "server", "--no-browser", "--allow-root", f"--port={self.port}",
             "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={root}",
             "--ServerApp.log_level=WARN"],
            env=env, stdout=subprocess.DEVNULL, stderr=self.log)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


async def _get(client, server, route, **params):
    from urllib.parse import urlencode

    url = server.base + route + ("?" + urlencode(params) if params else "")
    start = time.perf_counter()
    try:
        response = await client.fetch(url, headers={"Authorization": f"token {server.token}"}, request_timeout=60)
        code, body = response.code, response.body
    except HTTPClientError as error:
        code, body = error.code, (error.response.body if error.response else b"")
    return code, body, time.perf_counter() - start


async def _wait_ready(client, server, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            code, body, _ = await _get(client, server, "status")
            if code == 200 and json.loads(body)["state"] == "ready":
                return
        except (OSError, ValueError):
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("server not ready")


async def _wait_fresh(client, server):
    """The live files written after the server's first index are answered for."""
    for _ in range(600):
        code, _, _ = await _get(client, server, "definition", symbol="f0_0")
        if code == 200:
            return
        await asyncio.sleep(0.1)
    raise SystemExit("live files never answered")


MIX = [
    ("definition", {"symbol": "place_order", "file": "main.py", "line": "11"}),
    ("definition", {"symbol": "total", "file": "shop/orders.py", "line": "21"}),
    ("references", {"symbol": "round_price", "file": "shop/pricing.py", "line": "25"}),
    ("trace", {"symbol": "total", "calls": "true"}),
    ("paths", {"from_file": "main.py", "from_symbol": "main", "to_file": "shop/pricing.py", "to_symbol": "round_price"}),
]


# ------------------------------------------------------------------ concurrent edits
#
# The editor owns `live/`: LIVE modules `live/m{k}*.py`, each defining `f{k}_{gen}` (and a helper
# it calls), and LIVE users `live/use{k}.py` importing and calling it on line 3. Every EDIT_EVERY
# seconds it does one of: a body edit (lines added or removed above the function: its line moves;
# the body changes), an interface edit (the function renamed and its parameters changed, then the
# user rewritten to match), a rename of the module file (then the user's import), a delete of the
# module (the user's import is broken until it comes back), an add (the deleted module comes back
# under a new name). Every file write is atomic (a temporary file renamed over it, as editors
# save), so the repository goes through a sequence of versions; each is logged with the time just
# before and just after the change, and the text of every live file in it.
#
# A **stale answer** names a (file, line) that, in every version that could have been on disk
# while the request ran, does not hold what the answer says is there: a definition's line must
# read `def <symbol>(`, a reference's line must name the symbol. The versions that could have been
# on disk while a request ran (sent at s, answered at r) are those that began before r (their
# change started: t_before <= r) and had not been replaced before s (the next change's t_after >= s).
# Each named line is checked on its own (a refresh reads files one after another, not a snapshot).
# A by-name definition that answers "not found" while the name was defined in every such version
# is a stale answer too (a missed one). Errors: any 5xx, any other status than 200/404 on these
# routes, any exception or timeout, any 404 on the fixture's own (unchanging) questions, and any
# answer to those that differs from the answer given before the load started.

LIVE = 8
EDIT_EVERY = 0.15


def _module_text(k: int, m: dict) -> str:
    params = ", ".join(f"p{i}" for i in range(m["params"]))
    return (f'"""Live module {k}."""\n' + "".join(f"# padding {i}\n" for i in range(m["pad"]))
            + f"def f{k}_{m['gen']}({params}):\n    return helper_{k}({m['body']})\n\n\n"
            + f"def helper_{k}(x):\n    return x\n")


def _use_text(k: int, m: dict) -> str:
    module = m["path"][:-3].replace("/", ".") if m["path"] else f"live.gone{k}"
    args = ", ".join(str(i) for i in range(m["params"]))
    return f"from {module} import f{k}_{m['gen']}\n\nvalue = f{k}_{m['gen']}({args})\n"


class Editor:
    """The live files, their history, and the checks of answers against it."""

    def __init__(self, root: Path, seed: int = 7):
        self.root, self.rng = root, random.Random(seed)
        self.mods = {k: {"path": f"live/m{k}.py", "gen": 0, "pad": 0, "params": 1, "body": 0, "renames": 0}
                     for k in range(LIVE)}
        self.files: dict[str, str] = {}
        self.versions: list[tuple[float, float, dict]] = []   # (t_before, t_after, files)
        self.ops: dict[str, int] = {}
        (root / "live").mkdir()
        (root / "live/__init__.py").write_text("")
        for k, m in self.mods.items():
            self._write(m["path"], _module_text(k, m))
            self._write(f"live/use{k}.py", _use_text(k, m))
        self.versions.append((0.0, time.time(), dict(self.files)))

    # ---- changes
    def _write(self, path: str, text: str) -> None:
        target = self.root / path
        temporary = target.with_name(f".{target.name}.tmp")   # dot-file of another extension: not indexed
        temporary.write_text(text)
        os.replace(temporary, target)
        self.files[path] = text

    def _step(self, change) -> None:
        before = time.time()
        change()
        self.versions.append((before, time.time(), dict(self.files)))

    def edit(self) -> None:
        k = self.rng.randrange(LIVE)
        m = self.mods[k]
        op = "add" if m["path"] is None else self.rng.choice(("body", "body", "interface", "rename", "delete"))
        self.ops[op] = self.ops.get(op, 0) + 1
        if op == "body":
            m["pad"], m["body"] = self.rng.randrange(6), self.rng.randrange(1000)
            self._step(lambda: self._write(m["path"], _module_text(k, m)))
        elif op == "interface":
            m["gen"], m["params"] = m["gen"] + 1, self.rng.randrange(1, 4)
            self._step(lambda: self._write(m["path"], _module_text(k, m)))
            self._step(lambda: self._write(f"live/use{k}.py", _use_text(k, m)))
        elif op == "rename":
            m["renames"] += 1
            old, new = m["path"], f"live/m{k}_r{m['renames']}.py"

            def rename():
                os.rename(self.root / old, self.root / new)
                self.files[new] = self.files.pop(old)
            m["path"] = new
            self._step(rename)
            self._step(lambda: self._write(f"live/use{k}.py", _use_text(k, m)))
        elif op == "delete":
            old = m["path"]

            def delete():
                os.remove(self.root / old)
                del self.files[old]
            m["path"] = None
            self._step(delete)
        else:
            m["renames"] += 1
            m["path"] = f"live/m{k}_r{m['renames']}.py"
            self._step(lambda: self._write(m["path"], _module_text(k, m)))
            self._step(lambda: self._write(f"live/use{k}.py", _use_text(k, m)))

    # ---- questions
    def question(self, rng: random.Random) -> tuple[str, dict]:
        k = rng.randrange(LIVE)
        m = self.mods[k]
        name = f"f{k}_{m['gen']}"
        kind = rng.randrange(4)
        if kind == 0 or m["path"] is None:
            return "definition", {"symbol": name}
        if kind == 1:
            return "definition", {"symbol": name, "file": f"live/use{k}.py", "line": "3"}
        if kind == 2:
            return "trace", {"symbol": name}
        return "references", {"symbol": name, "file": m["path"], "line": str(2 + m["pad"])}

    def _alive(self, sent: float, received: float) -> list[dict]:
        alive = []
        for i, (before, _after, files) in enumerate(self.versions):
            replaced = self.versions[i + 1][1] if i + 1 < len(self.versions) else float("inf")
            if before <= received and replaced >= sent:
                alive.append(files)
        return alive

    @staticmethod
    def _holds(files: dict, path: str, line: int, name: str, definition: bool) -> bool:
        text = files.get(path)
        if text is None:
            return False
        lines = text.split("\n")
        if not 1 <= line <= len(lines):
            return False
        if definition:
            return lines[line - 1].startswith(f"def {name}(")
        return re.search(rf"\b{re.escape(name)}\b", lines[line - 1]) is not None

    def check(self, route: str, params: dict, code: int, body: dict, sent: float, received: float) -> str | None:
        """None, or why the answer is stale."""
        name = params["symbol"]
        alive = self._alive(sent, received)
        claims = []
        if code == 200:
            definition = body.get("definition") if route in ("trace", "references") else body
            if definition and "file" in definition:
                claims.append((definition["file"], definition["line"], True))
            for ref in body.get("references", ()) if route == "references" else ():
                claims.append((ref["file"], ref["line"], False))
        elif route == "definition" and "file" not in params:
            if all(any(self._holds(files, path, 1 + t.count("\n", 0, t.find(f"def {name}(")), name, True)
                       for path, t in files.items() if f"def {name}(" in t) for files in alive):
                return f"{name} not found, but defined in all {len(alive)} versions on disk meanwhile"
        for path, line, definition in claims:
            if not any(self._holds(files, path, line, name, definition) for files in alive):
                return (f"{route} {params}: {path}:{line} {'defines' if definition else 'names'} {name} "
                        f"in none of the {len(alive)} versions on disk meanwhile")
        return None


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its waited-for children (its index workers)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")


async def _load(server, seconds: float, clients: int, mix, editor: Editor | None, rate: float | None = None):
    client = AsyncHTTPClient(max_clients=clients + 2)
    timings: dict[str, list[float]] = {}
    errors: list[str] = []
    stale: list[str] = []
    checks = 0
    answered: dict[str, int] = {}   # live questions: "<route> <code>" -> count
    baseline = {}
    for route, params in mix:   # the fixture's own questions: their answers must never change
        code, body, _ = await _get(client, server, route, **params)
        baseline[(route, tuple(sorted(params.items())))] = (code, body)
    stop = time.time() + seconds

    async def worker(seed):
        nonlocal checks
        rng = random.Random(seed)
        # at a given rate the clients send on a schedule (each every clients/rate s, spread out):
        # the latency of a server that keeps up, not of a queue that saturated clients build
        interval = clients / rate if rate else 0.0
        next_send = time.time() + interval * seed / max(1, clients)
        while time.time() < stop:
            if interval:
                await asyncio.sleep(max(0.0, next_send - time.time()))
                next_send += interval
            live = editor is not None and rng.random() < 0.5
            route, params = editor.question(rng) if live else rng.choice(mix)
            sent = time.time()
            try:
                code, body, took = await _get(client, server, route, **params)
            except Exception as error:  # noqa: BLE001 - counted, never fatal to the run
                errors.append(f"{route} {params}: {type(error).__name__}: {error}")
                continue
            received = time.time()
            timings.setdefault(route, []).append(took)
            if not live:
                if code != 200 or (code, body) != baseline[(route, tuple(sorted(params.items())))]:
                    errors.append(f"{route} {params}: {code} {body[:200]!r} (answered differently before the load)")
                continue
            if code not in (200, 404):
                errors.append(f"{route} {params}: {code} {body[:200]!r}")
                continue
            checks += 1
            answered[f"{route} {code}"] = answered.get(f"{route} {code}", 0) + 1
            why = editor.check(route, params, code, json.loads(body), sent, received)
            if why:
                stale.append(why)

    async def edits():
        while time.time() < stop:
            editor.edit()
            await asyncio.sleep(EDIT_EVERY)

    tasks = [worker(i) for i in range(clients)]
    if editor is not None:
        tasks.append(edits())
    cpu_before = _cpu_seconds(server.process.pid)
    started = time.time()
    await asyncio.gather(*tasks)
    elapsed = time.time() - started
    cpu = _cpu_seconds(server.process.pid) - cpu_before
    total = sum(len(v) for v in timings.values())
    everything = [t for v in timings.values() for t in v]
    return {
        "seconds": round(elapsed, 1), "requests": total, "rps": round(total / elapsed, 1),
        "p50_ms": round(percentile(everything, 50) * 1000, 1), "p95_ms": round(percentile(everything, 95) * 1000, 1),
        "server_cpu_s": round(cpu, 1), "server_cpu_pct": round(100 * cpu / elapsed),
        "routes": {r: {"n": len(v), "p50_ms": round(percentile(v, 50) * 1000, 1),
                       "p95_ms": round(percentile(v, 95) * 1000, 1)} for r, v in sorted(timings.items())},
        "errors": len(errors), "error_samples": errors[:5], "edit_checks": checks,
        "stale_answers": len(stale), "stale_samples": stale[:5], "live_answers": dict(sorted(answered.items())),
        "edits": dict(editor.ops) if editor else {}, "versions": len(editor.versions) if editor else 0,
    }


async def _indexing_while_serving(workdir: Path) -> dict:
    root, _ = ensure_stdlib_corpus(False)
    line = next(n for n, text in enumerate((Path(root) / "urllib/parse.py").read_text().splitlines(), 1)
                if text.startswith("def urlsplit("))
    server = Server(root, workdir)
    client = AsyncHTTPClient(max_clients=8)
    progress, codes, wrong = [], {}, 0
    try:
        for _ in range(600):
            try:
                code, body, _ = await _get(client, server, "status")
                break
            except OSError:
                await asyncio.sleep(0.1)
        while True:
            code, body, _ = await _get(client, server, "status")
            status = json.loads(body)
            progress.append((status["done"], status["total"]))
            code, body, _ = await _get(client, server, "definition", symbol="urlsplit", file="urllib/parse.py", line=str(line))
            codes[code] = codes.get(code, 0) + 1
            if code not in (200, 503) or code == 200 and json.loads(body).get("line") != line:
                wrong += 1
            if status["state"] == "ready":
                break
            await asyncio.sleep(0.5)
    finally:
        server.stop()
    monotonic = all(a[0] <= b[0] for a, b in zip(progress, progress[1:]))
    return {"polls": len(progress), "codes": codes, "wrong_answers": wrong, "progress_monotonic": monotonic,
            "last_progress": progress[-1] if progress else None}


async def main_async(args) -> dict:
    out = {}
    with tempfile.TemporaryDirectory() as work:
        workdir = Path(work)
        root = workdir / "repo"
        shutil.copytree(FIXTURES / args.fixture, root)
        server = Server(root, workdir)
        client = AsyncHTTPClient()
        try:
            await _wait_ready(client, server)
            editor = Editor(root)
            await _wait_fresh(client, server)
            out["mixed"] = await _load(server, args.seconds, args.clients, MIX, editor)
            out["definition_only"] = await _load(server, 10, args.clients, MIX[:2], None)
            out["definition_at_rate"] = await _load(server, 10, args.clients, MIX[:2], None, rate=args.rate)
        finally:
            server.stop()
        if args.stdlib:
            out["indexing_while_serving"] = await _indexing_while_serving(workdir)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--fixture", default="graph_py")
    parser.add_argument("--stdlib", action="store_true", help="also check indexing while serving on the stdlib")
    parser.add_argument("--rate", type=float, default=250,
                        help="phase 3: definition requests per second, all clients together (issue 20's bar: "
                             "p95 <= 50 ms at >= 200 req/s)")
    args = parser.parse_args()
    out = asyncio.run(main_async(args))
    for phase in ("mixed", "definition_only", "definition_at_rate"):
        r = out[phase]
        print(f"{phase}: {r['rps']} req/s over {r['seconds']} s (p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms), "
              f"errors {r['errors']}, stale {r['stale_answers']}/{r['edit_checks']} checked answers, "
              f"server CPU {r['server_cpu_s']} s ({r['server_cpu_pct']}%)"
              + (f", {r['versions']} versions from edits {r['edits']}" if r["edits"] else ""))
        if r["live_answers"]:
            print("  live questions answered:", r["live_answers"])
        for sample in r["error_samples"] + r["stale_samples"]:
            print("   ", sample)
        for route, t in r["routes"].items():
            print(f"  {route:<12} n={t['n']:<6} p50 {t['p50_ms']} ms  p95 {t['p95_ms']} ms")
    if "indexing_while_serving" in out:
        print("indexing while serving:", out["indexing_while_serving"])
    line = json.dumps(out)
    print(line)
    (results_dir() / "server_load.json").write_text(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
