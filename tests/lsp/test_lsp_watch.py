"""The language server takes in what changes on disk once its first index is done
(``Project.watch``): a file written by something other than the editor (a branch switch, a
formatter) is in the index and the graph before the next request."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from jupyter_codetrace.lsp import build_server

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"


def test_files_written_on_disk_are_taken_in_before_the_next_request(tmp_path):
    shutil.copytree(DEMO, tmp_path / "demo")
    server = build_server(str(tmp_path / "demo"))
    server.start_project(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    server.index_with_progress()   # in this thread, as the server's own thread runs it
    project = server.project
    try:
        if not project._index.watching:
            pytest.skip("no inotify here: each request takes in the changes itself")
        assert project._ahead is not None and project._ahead.running
        (tmp_path / "demo" / "inventory" / "audit.py").write_text(
            "from inventory.pricing import round_money\n\n\ndef audit(amount):\n    return round_money(amount)\n")
        # taken in by the thread, without a question asked (its first refresh, which reads the
        # stored graph, may be the one that meets the new file: no update is then counted)
        deadline = time.monotonic() + 30
        while "inventory/audit.py" not in project._index.files():
            assert time.monotonic() < deadline, project._ahead.error
            time.sleep(0.02)
    finally:
        project.close()
    assert not project._ahead.running
