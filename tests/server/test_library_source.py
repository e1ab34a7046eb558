"""The read-only library-source route against a real jupyter-server (issue 21, item 7): it shows
a library file an answer led to, and nothing else, however the path is spelled."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.parse
import venv
from pathlib import Path

import pytest
import tornado.httpclient

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "py_libs"


@pytest.fixture
def env_python(tmp_path_factory):
    """A second interpreter whose site-packages hold a module that links outside them and a
    non-source file: what the route must refuse even once the engine has read them."""
    base = tmp_path_factory.mktemp("env")
    venv.EnvBuilder(with_pip=False).create(base / "venv")
    python = base / "venv" / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("def leak():\n    return 'secret'\n", encoding="utf-8")
    (site / "linked.py").symlink_to(outside / "secret.py")
    (site / "honest.py").write_text("def greet():\n    return 'hi'\n", encoding="utf-8")
    (site / "notes.txt").write_text("not source\n", encoding="utf-8")
    return python


@pytest.fixture
def root(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root)
    (root / "uses_env.py").write_text("import honest\nimport linked\n\nhonest.greet()\nlinked.leak()\n",
                                      encoding="utf-8")
    return root


@pytest.fixture
def jp_server_config(root, env_python):
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
            "Codetrace": {"root": str(root), "python": str(env_python)}}


async def _ready(jp_fetch):
    for _ in range(200):
        status = json.loads((await jp_fetch("codetrace", "api", "status")).body)
        if status["state"] == "ready":
            return
        time.sleep(0.05)
    raise AssertionError(f"the index never got ready: {status}")


async def _get(jp_fetch, route, **params):
    try:
        response = await jp_fetch("codetrace", "api", route, params=params)
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
    return response.code, json.loads(response.body) if response.body else None


async def test_a_file_is_shown_once_an_answer_led_there(jp_fetch):
    await _ready(jp_fetch)
    code, body = await _get(jp_fetch, "library-source", file="honest.py")
    assert code == 404 and body["status"] == "file_not_indexed" and "led to" in body["message"]
    code, definition = await _get(jp_fetch, "definition", symbol="greet", file="uses_env.py", line=4)
    assert code == 200 and (definition["file"], definition["library"]["kind"]) == ("honest.py", "package")
    code, body = await _get(jp_fetch, "library-source", file=definition["file"])
    assert code == 200 and body["text"].startswith("def greet():") and body["language"] == "python"
    assert body["library"]["kind"] == "package" and body["file"] == "honest.py"
    text = await jp_fetch("codetrace", "api", "library-source", params={"file": "honest.py", "format": "text"})
    assert "(read-only)" in text.body.decode() and "def greet" in text.body.decode()


async def test_nothing_else_is_handed_out(jp_fetch, root, env_python):
    await _ready(jp_fetch)
    code, leak = await _get(jp_fetch, "definition", symbol="leak", file="uses_env.py", line=5)
    assert code == 200  # the engine may read through the link, as Python would import it
    await _get(jp_fetch, "definition", symbol="greet", file="uses_env.py", line=4)
    site = env_python.parents[1]
    attempts = [
        "linked.py",                                   # reached, but links out of site-packages
        "notes.txt", "honest.pyc",                     # not source / not reached
        "../outside/secret.py", "honest.py/../../outside/secret.py", "./../../../../etc/passwd",
        "/etc/passwd", str(root / "analysis.py"), urllib.parse.quote("../outside/secret.py", safe=""),
        "%2e%2e/outside/secret.py", "..%2Foutside%2Fsecret.py", "honest.py\x00.txt", "honest.py\\..\\x",
        "analysis.py",                                 # project files are not library files
        str(site / "honest.py"),                       # an absolute path, even to a reached file
        "node_modules/../analysis.py", "node_modules/x/../../analysis.py",
    ]
    for attempt in attempts:
        code, body = await _get(jp_fetch, "library-source", file=attempt)
        assert code in (400, 403, 404), (attempt, code)
        assert "text" not in (body or {}), attempt
        assert "return 'secret'" not in json.dumps(body or {}) and "root:" not in json.dumps(body or {}), attempt


async def test_the_route_is_described_in_openapi(jp_fetch):
    doc = json.loads((await jp_fetch("codetrace", "api", "openapi.json")).body)
    route = doc["paths"]["/codetrace/api/library-source"]["get"]
    assert [p["name"] for p in route["parameters"] if p["required"]] == ["file"]
    assert "LibrarySource" in doc["components"]["schemas"]
