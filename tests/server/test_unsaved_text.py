"""The editor's unsaved text on the definition and references routes (issue 18): answered from it
without touching the file; a request without it goes back to the disk. Real jupyter-server."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
import tornado.httpclient

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"


@pytest.fixture
def root(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "graph_py")
    return tmp_path / "graph_py"


@pytest.fixture
def jp_server_config(root):
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}}, "Codetrace": {"root": str(root)}}


async def _post(jp_fetch, route, **body):
    try:
        response = await jp_fetch("codetrace", "api", route, method="POST", body=json.dumps(body))
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
    return response.code, json.loads(response.body)


async def _ready(jp_fetch):
    for _ in range(200):
        if json.loads((await jp_fetch("codetrace", "api", "status")).body)["state"] == "ready":
            return
        time.sleep(0.05)


async def test_an_unsaved_function_is_found_from_the_editors_text(jp_fetch, root):
    await _ready(jp_fetch)
    main = root / "main.py"
    on_disk = main.read_text(encoding="utf-8")
    lines = on_disk.count("\n")
    edited = on_disk + "\n\ndef audit_orders():\n    return 1\n\n\naudit_orders()\n"
    code, found = await _post(jp_fetch, "definition", symbol="audit_orders", file="main.py", line=lines + 7, text=edited)
    assert code == 200 and (found["file"], found["line"]) == ("main.py", lines + 3), found
    code, refs = await _post(jp_fetch, "references", symbol="audit_orders", file="main.py", line=lines + 3, text=edited)
    assert code == 200 and [(r["file"], r["line"]) for r in refs["references"]] == [("main.py", lines + 7)]
    assert main.read_text(encoding="utf-8") == on_disk   # nothing written
    code, gone = await _post(jp_fetch, "definition", symbol="audit_orders", file="main.py", line=lines + 7)
    assert code == 404 and gone["status"] == "reference_not_found"   # saved state again: the disk answers


async def test_a_new_unsaved_file_and_bad_text(jp_fetch):
    await _ready(jp_fetch)
    code, found = await _post(jp_fetch, "definition", symbol="helper", file="draft.py", line=4,
                              text="def helper():\n    return 2\n\nhelper()\n")
    assert code == 200 and (found["file"], found["line"]) == ("draft.py", 1)
    code, body = await _post(jp_fetch, "definition", symbol="x", file="../outside.py", line=1, text="x = 1\n")
    assert code == 403 and body["status"] == "forbidden"
    code, body = await _post(jp_fetch, "definition", symbol="x", file="main.py", line=1, text=["not", "text"])
    assert code == 400 and body["field"] == "text"
