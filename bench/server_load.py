#!/usr/bin/env python
"""Load on the REST extension: a real `jupyter server` on loopback, concurrent clients.

Phase 1 (``--seconds``, default 20; the issue's run is 60): 20 clients send a mix of
definition / references / trace / paths requests on a copy of the demo repository while one
more client edits a file every second and checks that the next answer reflects the edit
(a function renamed back and forth: the definition of the new name must be found at once).
Phase 2 (10 s): definition requests only, for the throughput target.

Reports requests/s, p50/p95 per route, errors, stale answers. Targets (issue 5): >= 200
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


MIX = [
    ("definition", {"symbol": "place_order", "file": "main.py", "line": "11"}),
    ("definition", {"symbol": "total", "file": "shop/orders.py", "line": "21"}),
    ("references", {"symbol": "round_price", "file": "shop/pricing.py", "line": "25"}),
    ("trace", {"symbol": "total", "calls": "true"}),
    ("paths", {"from_file": "main.py", "from_symbol": "main", "to_file": "shop/pricing.py", "to_symbol": "round_price"}),
]


async def _load(server, seconds: float, clients: int, mix, editor_root: Path | None):
    client = AsyncHTTPClient(max_clients=clients + 2)
    timings: dict[str, list[float]] = {}
    errors: list[str] = []
    stale = checks = 0
    stop = time.time() + seconds

    async def worker(seed):
        rng = random.Random(seed)
        while time.time() < stop:
            route, params = rng.choice(mix)
            code, body, took = await _get(client, server, route, **params)
            if code != 200:
                errors.append(f"{route} {code} {body[:200]!r}")
            timings.setdefault(route, []).append(took)

    async def editor():
        nonlocal stale, checks
        path = editor_root / "shop/chain.py"
        original = path.read_text()
        i = 0
        while time.time() < stop:
            i += 1
            name = f"step_renamed_{i}"
            path.write_text(original.replace("def step6():", f"def {name}():"))
            code, body, _ = await _get(client, server, "trace", symbol=name, file="shop/chain.py")
            checks += 1
            if code != 200:
                stale += 1
            path.write_text(original)
            await asyncio.sleep(1)

    tasks = [worker(i) for i in range(clients)]
    if editor_root is not None:
        tasks.append(editor())
    started = time.time()
    await asyncio.gather(*tasks)
    elapsed = time.time() - started
    total = sum(len(v) for v in timings.values())
    return {
        "seconds": round(elapsed, 1), "requests": total, "rps": round(total / elapsed, 1),
        "routes": {r: {"n": len(v), "p50_ms": round(percentile(v, 50) * 1000, 1),
                       "p95_ms": round(percentile(v, 95) * 1000, 1)} for r, v in sorted(timings.items())},
        "errors": len(errors), "error_samples": errors[:5], "edit_checks": checks, "stale_answers": stale,
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
            out["mixed"] = await _load(server, args.seconds, args.clients, MIX, root)
            out["definition_only"] = await _load(server, 10, args.clients, MIX[:2], None)
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
    args = parser.parse_args()
    out = asyncio.run(main_async(args))
    for phase in ("mixed", "definition_only"):
        r = out[phase]
        print(f"{phase}: {r['rps']} req/s over {r['seconds']} s, errors {r['errors']}, "
              f"stale {r['stale_answers']}/{r['edit_checks']}")
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
