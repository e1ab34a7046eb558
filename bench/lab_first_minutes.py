#!/usr/bin/env python
"""JupyterLab's first minutes with the extension: how long JupyterLab's own requests wait while
the panel's root is indexed and right after, and how long the server takes to exit when stopped
mid-index (issues 20 and the first-ten-minutes one).

A real `jupyter lab` (the arguments of `make lab`) on --root (default fixtures/demo) with an empty
index cache. A client lists the root's folder through the contents API (what the file browser
does) every 20 ms, from the server's start until --after seconds past "ready", then pauses 5 s
(the server may then do its idle work) and lists again for 3 s. The floor is the same run with
the extension disabled, measured in the same invocation. Then the server is started again, sent
SIGTERM 0.5 s after its status route first answers (the index under way), and the seconds until
it exits are measured.

    python bench/lab_first_minutes.py
    python bench/lab_first_minutes.py --root ~/.cache/jupyter_codetrace-bench/corpora/python/rich-15.0.0
    python bench/lab_first_minutes.py --source /tmp/old     # the package in /tmp/old (PYTHONPATH)

Prints a table, then one JSON line (also bench/results/lab_first_minutes.json). CPU seconds are
the server's and all its children's (index workers), read when it has exited.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchlib import percentile, save_result  # noqa: E402

CHECKOUT = Path(__file__).resolve().parent.parent
TOKEN = "bench"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class Lab:
    def __init__(self, root: Path, extension: bool, source: str | None):
        self.tmp = Path(tempfile.mkdtemp(prefix="lab-first-minutes-"))
        self.port = _free_port()
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(self.tmp / "config"),
               "JUPYTER_RUNTIME_DIR": str(self.tmp / "rt"), "CODETRACE_CACHE_DIR": str(self.tmp / "cache")}
        if source:
            env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
        if not extension:   # the floor: the same JupyterLab without this extension
            (self.tmp / "config").mkdir()
            (self.tmp / "config" / "jupyter_server_config.json").write_text(
                json.dumps({"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": False}}}))
        command = [sys.executable, "-m", "jupyter", "lab", f"--Codetrace.root={root}", f"--ServerApp.root_dir={root}",
                   "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                   "--allow-root", "--no-browser", f"--port={self.port}", "--ServerApp.ip=127.0.0.1",
                   f"--IdentityProvider.token={TOKEN}", f"--LabApp.workspaces_dir={self.tmp / 'ws'}"]
        self.cpu_before = _children_cpu()
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, env=env,
                                        stdout=subprocess.DEVNULL, stderr=(self.tmp / "log").open("wb"))
        self.extension = extension

    def get(self, route: str, timeout: float = 60):
        url = f"http://127.0.0.1:{self.port}/{route}{'&' if '?' in route else '?'}token={TOKEN}"
        return json.load(urllib.request.urlopen(url, timeout=timeout))

    def wait_up(self) -> float:
        while True:
            try:
                self.get("api/status", timeout=2)
                return time.monotonic() - self.started
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit(f"jupyter lab ended: see {self.tmp / 'log'}")
                time.sleep(0.05)

    def ready(self) -> bool:
        return not self.extension or self.get("codetrace/api/status").get("state") == "ready"

    def stop(self) -> tuple[float, float]:
        """Seconds from SIGTERM to exit, and the CPU seconds of the server and its children."""
        sent = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return float("inf"), _children_cpu() - self.cpu_before
        return time.monotonic() - sent, _children_cpu() - self.cpu_before


def _listings(lab: Lab, seconds: float | None, until_ready: bool = False) -> list[float]:
    waits, end = [], None if seconds is None else time.monotonic() + seconds
    while True:
        began = time.perf_counter()
        lab.get("api/contents")
        waits.append(time.perf_counter() - began)
        if until_ready and lab.ready():
            return waits
        if end is not None and time.monotonic() > end:
            return waits
        time.sleep(0.02)


def _summary(waits: list[float]) -> dict:
    return {"n": len(waits), "p95_ms": (percentile(waits, 95) or 0) * 1000, "max_ms": max(waits, default=0) * 1000}


def session(root: Path, extension: bool, after: float, source: str | None, indexing_s: float | None = None) -> dict:
    """One server's first minutes; without the extension, ``indexing_s`` stands for its index."""
    lab = Lab(root, extension, source)
    try:
        up = lab.wait_up()
        indexing = _listings(lab, indexing_s, until_ready=extension)
        ready_at = time.monotonic() - lab.started
        after_ready = _listings(lab, after)
        time.sleep(5)   # nobody uses JupyterLab: idle work may run
        later = _listings(lab, 3)
    finally:
        exit_s, cpu = lab.stop()
    return {"up_s": up, "ready_s": ready_at, "indexing": _summary(indexing), "after_ready": _summary(after_ready),
            "after_a_pause": _summary(later), "exit_s": exit_s, "cpu_s": cpu}


def exit_mid_index(root: Path, source: str | None) -> dict:
    lab = Lab(root, True, source)
    lab.wait_up()
    while True:
        try:
            lab.get("codetrace/api/status", timeout=2)
            break
        except OSError:
            time.sleep(0.05)
    time.sleep(0.5)
    state = lab.get("codetrace/api/status").get("state")
    exit_s, cpu = lab.stop()
    return {"state_when_stopped": state, "exit_s": exit_s, "cpu_s": cpu}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=str(CHECKOUT / "fixtures" / "demo"))
    parser.add_argument("--after", type=float, default=8.0, help="seconds of listings after the index is ready")
    parser.add_argument("--source", help="a folder holding another copy of the package (put first on PYTHONPATH)")
    parser.add_argument("--exits", type=int, default=3, help="servers stopped mid-index")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    res = {"bench": "lab_first_minutes", "root": str(root), "source": args.source or str(CHECKOUT)}
    res["extension"] = session(root, True, args.after, args.source)
    res["floor"] = session(root, False, args.after, args.source,
                           indexing_s=res["extension"]["ready_s"] - res["extension"]["up_s"])
    res["exits"] = [exit_mid_index(root, args.source) for _ in range(args.exits)]
    floor = res["floor"]
    print(f"JupyterLab on {root} ({res['source']}): a contents listing every 20 ms")
    print(f"{'figure':<44} {'extension':>12} {'floor':>12} {'ratio':>7}")
    for phase in ("indexing", "after_ready", "after_a_pause"):
        for key in ("p95_ms", "max_ms"):
            ours, base = res["extension"][phase][key], floor[phase][key]
            print(f"{phase + ' ' + key:<44} {ours:>10.0f}ms {base:>10.0f}ms {ours / base if base else 0:>6.1f}x")
    print(f"{'server up after start (s)':<44} {res['extension']['up_s']:>11.2f}s {floor['up_s']:>11.2f}s")
    print(f"{'index ready after start (s)':<44} {res['extension']['ready_s']:>11.2f}s")
    print(f"{'server CPU, with its children (s)':<44} {res['extension']['cpu_s']:>11.2f}s {floor['cpu_s']:>11.2f}s")
    exits = sorted(e["exit_s"] for e in res["exits"])
    print(f"{'exit after SIGTERM mid-index (s, each)':<44} {', '.join(f'{e:.2f}' for e in exits)}"
          f"   (idle exit: {floor['exit_s']:.2f} s)")
    save_result("lab_first_minutes", res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
