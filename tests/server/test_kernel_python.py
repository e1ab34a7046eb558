"""A notebook whose kernel runs another Python than the server (issue 21, item 1): the panel's and
the editor's questions about that notebook resolve library names in the kernel's environment.
Real jupyter-server, a real kernel started through the sessions API on a second interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path

import pytest
import tornado.httpclient


def _other_python(base: Path) -> Path:
    """A venv that runs ipykernel (our site-packages through a .pth) and has `unitsy` of its own."""
    venv.EnvBuilder(with_pip=False).create(base / "venv")
    python = base / "venv" / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "ours.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    (site / "unitsy").mkdir()
    (site / "unitsy" / "__init__.py").write_text(
        "class Length:\n    def to_centimetres(self):\n        return 1\n", encoding="utf-8")
    return python


@pytest.fixture
def setup(tmp_path, jp_data_dir):
    python = _other_python(tmp_path / "env")
    spec = jp_data_dir / "kernels" / "otherpy"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Other Python", "language": "python"}), encoding="utf-8")
    root = tmp_path / "project"
    root.mkdir()
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
             for source in ("from unitsy import Length\n", "Length().to_centimetres()\n")]
    (root / "analysis.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                                                     "cells": cells}), encoding="utf-8")
    return root


@pytest.fixture
def jp_server_config(setup):
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}, "root_dir": str(setup)},
            "Codetrace": {"root": str(setup)}}


async def _definition(jp_fetch):
    try:
        response = await jp_fetch("codetrace", "api", "definition",
                                  params={"symbol": "to_centimetres", "file": "analysis.ipynb", "line": 1, "cell": 1})
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
    return json.loads(response.body)


async def test_a_notebooks_kernel_environment_answers_for_it(jp_fetch):
    for _ in range(200):
        if json.loads((await jp_fetch("codetrace", "api", "status")).body)["state"] == "ready":
            break
        time.sleep(0.05)
    before = await _definition(jp_fetch)   # no kernel yet: the server's Python has no unitsy
    assert before["status"] == "unresolved" and "`unitsy` is not installed" in before["message"], before
    session = await jp_fetch("api", "sessions", method="POST", body=json.dumps({
        "path": "analysis.ipynb", "type": "notebook", "name": "analysis.ipynb", "kernel": {"name": "otherpy"}}))
    kernel = json.loads(session.body)["kernel"]
    try:
        found = await _definition(jp_fetch)
        assert found["status"] == "found", found
        assert (found["file"], found["library"]["package"]) == ("unitsy/__init__.py", "unitsy")
    finally:
        await jp_fetch("api", "kernels", kernel["id"], method="DELETE")
    assert sys.executable  # the server's own answers are unchanged for files of no kernel
