"""Schemathesis fuzzes every route of the OpenAPI description against a live local server:
no 5xx, and every response conforms to the documented schema. A bounded run (10 examples per
operation, ~15 s); `CODETRACE_FUZZ_EXAMPLES=200 pytest tests/server/test_fuzz.py` for a long one."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server(tmp_path):
    port, token = _free_port(), "fuzz-token"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "server", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={FIXTURE}"],
        env=env, stdout=subprocess.DEVNULL, stderr=(tmp_path / "server.log").open("wb"))  # a pipe would fill and stall it
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                request = urllib.request.Request(f"{base}/codetrace/api/status", headers={"Authorization": f"token {token}"})
                if json.loads(urllib.request.urlopen(request, timeout=2).read())["state"] == "ready":
                    break
            except OSError:
                pass
            time.sleep(0.1)
        else:
            pytest.fail("the server did not start")
        yield base, token
    finally:
        server.terminate()
        server.wait(timeout=20)


@pytest.mark.timeout(240)
def test_schemathesis_finds_no_server_error_and_no_schema_violation(live_server, tmp_path):
    base, token = live_server
    request = urllib.request.Request(f"{base}/codetrace/api/openapi.json", headers={"Authorization": f"token {token}"})
    spec = tmp_path / "openapi.json"
    spec.write_bytes(urllib.request.urlopen(request, timeout=10).read())
    executable = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
    examples = os.environ.get("CODETRACE_FUZZ_EXAMPLES", "10")
    done = subprocess.run(
        [executable, "run", str(spec), "--url", base, "-H", f"Authorization: token {token}", "-n", examples,
         "-c", "not_a_server_error,response_schema_conformance", "--seed", "1"],
        capture_output=True, text=True, timeout=220)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
