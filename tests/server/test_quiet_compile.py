"""Once indexed, the server compiles its languages' parsing queries (so that the first save of each
is answered as fast as the next) only while nobody is using it: a compile holds the interpreter,
and with it every request JupyterLab makes — right after the index was ready, a listing of the
file browser waited 1.7 s on the demo's three languages. Real jupyter-server."""

from __future__ import annotations

import asyncio
import time

import pytest

from jupyter_codetrace.index import parsing
from jupyter_codetrace.languages import spec_of
from jupyter_codetrace.server import registry as registry_module


@pytest.fixture
def jp_server_config(demo_server_config):
    return demo_server_config


@pytest.fixture
def quiet_after_one_second(monkeypatch):
    monkeypatch.setattr(registry_module, "QUIET_SECONDS", 1.0)


async def test_the_queries_are_compiled_once_the_server_is_quiet(quiet_after_one_second, jp_fetch, jp_serverapp):
    registry = jp_serverapp.web_app.settings["codetrace_registry"]
    project = registry.project
    compiled: list[tuple[float, list]] = []   # when each call began, its languages (each still compiles them)
    compile_queries = project.compile_queries

    def recorded(languages=None):
        began = time.monotonic()
        compile_queries(languages)
        compiled.append((began, list(languages or ())))

    project.compile_queries = recorded
    # someone using JupyterLab while the index is made, and for 3 s after: no compile meanwhile
    deadline = time.monotonic() + 60
    while not registry.ready:
        assert time.monotonic() < deadline, "the index was not ready"
        await jp_fetch("api", "contents", method="GET")
        await asyncio.sleep(0.3)
    for _ in range(10):
        await asyncio.sleep(0.3)
        await jp_fetch("api", "contents", method="GET")
    last_request = time.monotonic()
    assert compiled == []
    # then nobody: each language's query, most files first, a second after the last request
    deadline = time.monotonic() + 30
    while len(compiled) < 3:
        assert time.monotonic() < deadline, f"the queries were not compiled once the server was quiet: {compiled}"
        await asyncio.sleep(0.1)
    assert [languages for _when, languages in compiled[:3]] == [["python"], ["typescript"], ["cpp"]]
    assert compiled[0][0] - last_request >= 0.9
    assert all(parsing.is_compiled(spec_of(language)) for language in ("python", "typescript", "cpp"))
