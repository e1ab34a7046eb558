"""What `make lab` (scripts/lab.sh) serves: JupyterLab on the checkout with the tutorials one
click away and the panel on fixtures/demo, or both on the repository given as REPO; and how
the status route tells the panel where the traced root sits in JupyterLab's file tree."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from jupyter_codetrace.server import _contents_path

CHECKOUT = Path(__file__).resolve().parents[2]
LAB_SH = CHECKOUT / "scripts" / "lab.sh"


def _dry_run(*args: str, cwd: Path = CHECKOUT) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(LAB_SH), *args], cwd=cwd, capture_output=True, text=True, timeout=30,
                          env={**os.environ, "CODETRACE_LAB_DRY_RUN": "1"})


def _settings(done: subprocess.CompletedProcess) -> dict[str, str]:
    assert done.returncode == 0, done.stderr
    return dict(line.split("=", 1) for line in done.stdout.splitlines() if line.startswith("--") and "=" in line)


def test_contents_path_places_the_root_in_the_servers_tree(tmp_path):
    (tmp_path / "fixtures" / "demo").mkdir(parents=True)
    assert _contents_path(str(tmp_path / "fixtures" / "demo"), str(tmp_path)) == "fixtures/demo"
    assert _contents_path(str(tmp_path), str(tmp_path)) == ""
    assert _contents_path(str(tmp_path), str(tmp_path / "fixtures")) is None
    assert _contents_path(str(tmp_path / "fixtures-2"), str(tmp_path / "fixtures")) is None


def test_by_default_lab_serves_the_checkout_and_traces_the_demo():
    settings = _settings(_dry_run())
    assert settings["--ServerApp.root_dir"] == str(CHECKOUT.resolve())
    assert settings["--Codetrace.root"] == str(CHECKOUT.resolve() / "fixtures" / "demo")
    assert settings["--LabApp.default_url"] == "/lab/tree/notebooks"


def test_one_argument_points_lab_and_the_panel_at_another_repository(tmp_path):
    repo = tmp_path / "my repo"
    repo.mkdir()
    # Relative to where it is called from, as a user types it.
    settings = _settings(_dry_run("my repo", "--port=8899", cwd=tmp_path))
    assert settings["--ServerApp.root_dir"] == settings["--Codetrace.root"] == str(repo.resolve())
    assert settings["--port"] == "8899"


def test_a_root_dir_of_yours_replaces_ours_instead_of_failing():
    done = _dry_run("--ServerApp.root_dir=/srv/work")
    assert [line for line in done.stdout.splitlines() if "root_dir" in line] == ["--ServerApp.root_dir=/srv/work"]


def test_a_missing_repository_is_refused_with_the_usage():
    done = _dry_run("no/such/folder")
    assert done.returncode == 2 and "usage: scripts/lab.sh [REPO]" in done.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.mark.timeout(120)
def test_the_server_lab_sh_starts_opens_the_tutorials_and_maps_the_demo(tmp_path):
    command = _dry_run().stdout.splitlines()
    assert command[:2] == ["jupyter", "lab"]
    port, token = _free_port(), "layout-token"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
           "CODETRACE_CACHE_DIR": str(tmp_path / "cache")}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", *command[2:], "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
         f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                status = json.load(urllib.request.urlopen(f"{base}/codetrace/api/status?token={token}", timeout=2))
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError("jupyter lab did not start")
        assert status["contents_path"] == "fixtures/demo"
        opener = urllib.request.build_opener(_NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as redirect:
            opener.open(f"{base}/?token={token}", timeout=5)
        assert redirect.value.headers["Location"].split("?")[0].endswith("/lab/tree/notebooks")
    finally:
        server.terminate()
        server.wait(timeout=30)
