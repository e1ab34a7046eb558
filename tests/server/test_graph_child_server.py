"""The graph's build in a forked child (graph/build.py ``_built_in_child``) inside a real
jupyter-server: the fork happens in one of the server's query threads while its event loop and
other requests run; the server's answers are the Python API's, and the server goes on answering
(its index and store connections untouched by the child)."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.graph import build

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child is forked on Linux only")


@pytest.fixture
def root(copy_fixture):
    return copy_fixture("graph_py")


@pytest.fixture
def jp_server_config(root):
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
            "Codetrace": {"root": str(root)}}


async def _json(jp_fetch, route, **params):
    return json.loads((await jp_fetch("codetrace", "api", route, params=params)).body)


async def test_graph_answers_built_in_a_child_while_the_server_answers_others(jp_fetch, root, graph_forks, tmp_path):
    for _ in range(200):
        if (await _json(jp_fetch, "status"))["state"] == "ready":
            break
        time.sleep(0.05)
    # the graph's first question, with definitions asked beside it
    asked = [_json(jp_fetch, "dependents", file="shop/pricing.py", symbol="round_price"),
             *(_json(jp_fetch, "definition", symbol="place_order", file="main.py", line="11") for _ in range(4)),
             _json(jp_fetch, "dependencies", file="main.py", symbol="main")]
    dependents, *definitions, dependencies = await asyncio.gather(*asked)
    assert len(graph_forks) == 1, "the graph was not built in a child"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "CHILD_BUILD_FILES", 10**9)
        with Project(root, cache_dir=tmp_path / "in-process") as api:   # built here, from nothing
            assert dependents == api.dependents_of("shop/pricing.py", "round_price").to_dict()
            assert dependencies == api.dependencies_of("main.py", "main").to_dict()
            assert all(d == api.find_definition("place_order", "main.py", 11).to_dict() for d in definitions)
            assert not api._context._code_graph.last_in_child
    # later questions are answered from what this process read, by the same connections
    callers = await _json(jp_fetch, "dependents", file="shop/pricing.py", symbol="round_price")
    assert callers == dependents and len(graph_forks) == 1


async def test_graph_answers_built_by_children_sharing_the_files(jp_fetch, root, graph_forks, tmp_path, monkeypatch):
    """The same with the build shared among two children (graph/build.py ``_built_in_shares``),
    then a third writing the snapshot: forked from a query thread, the server answering meanwhile."""
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    shares = build._shares
    monkeypatch.setattr(build, "_shares", lambda paths, summaries, workers: shares(paths, summaries, 2))
    for _ in range(200):
        if (await _json(jp_fetch, "status"))["state"] == "ready":
            break
        time.sleep(0.05)
    asked = [_json(jp_fetch, "dependents", file="shop/pricing.py", symbol="round_price"),
             *(_json(jp_fetch, "definition", symbol="place_order", file="main.py", line="11") for _ in range(4))]
    dependents, *definitions = await asyncio.gather(*asked)
    assert len(graph_forks) == 3, "the graph was not shared among children"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "CHILD_BUILD_FILES", 10**9)
        with Project(root, cache_dir=tmp_path / "in-process") as api:
            assert dependents == api.dependents_of("shop/pricing.py", "round_price").to_dict()
            assert all(d == api.find_definition("place_order", "main.py", 11).to_dict() for d in definitions)
    assert await _json(jp_fetch, "dependents", file="shop/pricing.py", symbol="round_price") == dependents
    assert len(graph_forks) == 3
