"""The stdio front (mcp_front): the second start answers the handshake and tools/list from the SDK's
recorded answers before the SDK has loaded — and the client cannot tell: the same server info,
instructions and tools as the SDK gives, each answer once, tool calls unchanged."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import mcp
import pytest
from mcp import StdioServerParameters

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "graph_py"


@pytest.fixture
def anyio_backend():
    return "asyncio"


def _dump(value):
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value


async def _session(cache: Path, front: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO), "CODETRACE_CACHE_DIR": str(cache),
           "CODETRACE_MCP_FRONT": "1" if front else "0"}
    params = StdioServerParameters(command=sys.executable, env=env,
                                   args=["-m", "jupyter_codetrace.cli", "mcp", "--root", str(FIXTURE)])
    start = time.perf_counter()
    async with mcp.Client(params, read_timeout_seconds=120) as client:
        handshake = time.perf_counter() - start
        tools = (await client.list_tools()).model_dump(mode="json")
        result = await client.call_tool("search_symbols", {"query": "round_price", "limit": 3})
        bad = await client.call_tool("find_definition", {"symbol_name": "x", "file_path": "main.py", "line_number": "3"})
        return {"handshake": handshake, "server": [_dump(client.server_info), _dump(client.server_capabilities),
                                                    getattr(client, "instructions", None)], "tools": tools,
                "text": result.content[0].text, "data": result.structured_content, "bad": bad.is_error}


@pytest.mark.anyio
async def test_recorded_answers_are_the_sdks_and_the_session_is_unchanged(tmp_path):
    plain = await _session(tmp_path / "plain", front=False)
    first = await _session(tmp_path / "front", front=True)   # records
    recorded = json.loads((tmp_path / "front" / "mcp-answers.json").read_text())
    assert len(recorded) >= 2, recorded.keys()  # the handshake and tools/list
    second = await _session(tmp_path / "front", front=True)  # answers from the record
    for run in (first, second):
        assert run["server"] == plain["server"]
        assert run["tools"] == plain["tools"]
        assert run["text"] == plain["text"] and run["data"] == plain["data"]
        assert run["bad"] and plain["bad"]
    assert json.loads((tmp_path / "front" / "mcp-answers.json").read_text()) == recorded  # confirmed, not rewritten
