"""The server takes in a save before the next request (``Project.watch`` once its index is ready):
a file saved through the contents API — as JupyterLab saves, checkpoint included — is in the graph
before anyone asks, and the request answers without redoing it. Real jupyter-server."""

from __future__ import annotations

import json
import time

import pytest


@pytest.fixture
def jp_server_config(demo_server_config):
    return demo_server_config


async def _get(jp_fetch, route, **params):
    response = await jp_fetch("codetrace", "api", route, params=params)
    return json.loads(response.body)


async def test_a_save_is_in_the_graph_before_the_request(jp_fetch, jp_serverapp):
    registry = jp_serverapp.web_app.settings["codetrace_registry"]
    assert registry.wait(60)
    if not registry.project._index.watching:
        pytest.skip("no inotify here: each request takes in the changes itself")
    deadline = time.monotonic() + 10
    while registry.project._ahead is None:   # watch() follows the ready state in the index thread
        assert time.monotonic() < deadline
        time.sleep(0.02)
    before = await _get(jp_fetch, "dependents", file="inventory/pricing.py", symbol="round_money")
    assert "inventory/audit.py" not in {n["file"] for n in before["nodes"]}
    updates = registry.project._ahead.updates
    body = {"type": "file", "format": "text",
            "content": "from inventory.pricing import round_money\n\n\ndef audit(amount):\n    return round_money(amount)\n"}
    await jp_fetch("api", "contents", "inventory", "audit.py", method="PUT", body=json.dumps(body))
    await jp_fetch("api", "contents", "inventory", "audit.py", "checkpoints", method="POST", body="")
    deadline = time.monotonic() + 30
    while registry.project._ahead.updates == updates:
        assert time.monotonic() < deadline, registry.project._ahead.error
        time.sleep(0.02)
    graph = registry.project._context._code_graph
    generation = graph.generation
    after = await _get(jp_fetch, "dependents", file="inventory/pricing.py", symbol="round_money")
    assert "inventory/audit.py" in {n["file"] for n in after["nodes"]}
    assert not any(".ipynb_checkpoints" in n["file"] for n in after["nodes"])
    assert graph.generation == generation   # the request found the graph up to date
