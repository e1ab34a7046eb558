"""The stdio front answers the first tool calls itself while the MCP SDK loads (mcp_front): it may
answer a call only where the SDK would have accepted the same arguments, and its answer must be
the SDK's, byte for byte, in both protocol eras; everything else is left to the SDK."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

from jupyter_codetrace import mcp_front
from jupyter_codetrace.mcp_server import build_server
from jupyter_codetrace.mcp_tools import Tools, ToolFailure

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "graph_py"

# One call each tool answers (found), and some it does not (not found, a path outside the root).
CALLS = [
    ("find_definition", {"symbol_name": "place_order", "file_path": "main.py", "line_number": 11}),
    ("find_definition", {"symbol_name": "place_order", "file_path": "main.py", "line_number": 11, "column_number": 5}),
    ("find_definition", {"symbol_name": "nothing_here", "file_path": "main.py", "line_number": 11}),
    ("go_to_definition", {"locate": {"file_path": "main.py", "line": 11, "find": "place_order"}}),
    ("go_to_definition", {"locate": {"symbol": "Order.checkout"}, "include_code": False}),
    ("go_to_definition", {"locate": {"symbol": "Order"}, "mode": "declaration"}),
    ("find_references", {"path": "shop/pricing.py", "line": 25, "character": 5, "include_declaration": True}),
    ("codebase_trace", {"symbol": "total", "references": True, "calls": True, "types": True}),
    ("codebase_trace", {"symbol": "totl", "file": "shop/pricing.py"}),
    ("dependenciesOf", {"file_path": "main.py", "symbol": "main"}),
    ("dependentsOf", {"file_path": "shop/pricing.py", "symbol": "round_price"}),
    ("pathsBetween", {"from": {"file_path": "main.py", "symbol": "main"},
                      "to": {"file_path": "shop/pricing.py", "symbol": "round_price"}}),
    ("search_symbols", {"query": "ord", "limit": 3}),
    ("dependentsOf", {"file_path": "../outside.py", "symbol": "x"}),
]

# Values put in place of an argument (or of a member of an object argument): of every JSON type,
# and strings the SDK's lax validation might turn into numbers or booleans.
ODD_VALUES = [None, 0, -1, 1, 3, 2.0, True, False, "3", "true", "", "x", [], {}, {"symbol": "main"}]


@pytest.fixture(scope="module")
def server():
    tools = Tools(str(FIXTURE))
    sdk = build_server(tools)
    schemas = {tool.name: tool.model_dump(mode="json", by_alias=True, exclude_none=True)["inputSchema"]
               for tool in anyio.run(sdk.list_tools)}
    return tools, sdk, schemas


def _variants(arguments: dict):
    """The arguments as given, each argument (and each member of an object argument) missing or
    replaced by an odd value, and with a member nobody declared."""
    yield arguments
    yield {**arguments, "unexpected": 1}
    for name, value in arguments.items():
        yield {key: item for key, item in arguments.items() if key != name}
        for odd in ODD_VALUES:
            yield {**arguments, name: odd}
        if isinstance(value, dict):
            yield {**arguments, name: {**value, "unexpected": 1}}
            for member in value:
                yield {**arguments, name: {key: item for key, item in value.items() if key != member}}
                for odd in ODD_VALUES:
                    yield {**arguments, name: {**value, member: odd}}


def _sdk_answer(sdk, tool: str, arguments: dict):
    try:
        result = anyio.run(sdk.call_tool, tool, arguments)
    except ToolError as error:   # (a failure is the SDK's to put in words: the front leaves it)
        return ("error", str(error).removeprefix(f"Error executing tool {tool}: "))
    return ("answer", result.content[0].text, result.structured_content)


def _front_answer(tools: Tools, tool: str, arguments: dict):
    try:
        answer = tools.answer(tool, arguments)
    except ToolFailure as failure:
        return ("error", str(failure))
    return ("answer", answer.text, answer.data)


def test_the_front_takes_only_arguments_the_sdk_accepts_and_answers_as_it_does(server):
    tools, sdk, schemas = server
    taken = left = 0
    for tool, arguments in CALLS:
        assert mcp_front._fitted(arguments, schemas[tool]) is not None, (tool, arguments)  # the usual calls
        for variant in _variants(arguments):
            fitted = mcp_front._fitted(variant, schemas[tool])
            if fitted is None:
                left += 1
                continue
            taken += 1
            assert _front_answer(tools, tool, fitted) == _sdk_answer(sdk, tool, variant), (tool, variant)
    assert taken > 50 and left > 200, (taken, left)


def test_bools_and_digit_strings_are_left_to_the_sdk(server):
    _, _, schemas = server
    schema = schemas["find_references"]
    base = {"path": "shop/pricing.py", "line": 25, "character": 5}
    assert mcp_front._fitted(base, schema) == {**base, "include_declaration": False}   # the default filled in
    for odd in ({**base, "line": "25"}, {**base, "line": 25.0}, {**base, "line": True}, {**base, "line": 0},
                {**base, "include_declaration": "true"}, {**base, "include_declaration": 1}, {**base, "x": 1}):
        assert mcp_front._fitted(odd, schema) is None, odd
    assert mcp_front._fitted(base, {**schema, "additionalProperties": False}) is None   # a keyword it does not know


# ---------------------------------------------------------------------- whole sessions over stdio
def _messages(era: str):
    """A client's first messages, as the SDK's client sends them in each protocol era; a `ping` just
    before the tool calls (only the SDK answers it)."""
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
                      "io.modelcontextprotocol/clientCapabilities": {}}} if era == "2026" else {}
    if era == "2026":
        opening = [{"jsonrpc": "2.0", "id": "hello", "method": "server/discover", "params": meta}]
    else:
        opening = [{"jsonrpc": "2.0", "id": "hello", "method": "initialize",
                    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "test", "version": "1"}}},
                   {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    calls = [{"jsonrpc": "2.0", "id": number, "method": "tools/call",
              "params": {"name": tool, "arguments": arguments, **meta}}
             for number, (tool, arguments) in enumerate(CALLS)]
    bad = {"jsonrpc": "2.0", "id": "bad", "method": "tools/call",
           "params": {"name": "search_symbols", "arguments": {"query": 3}, **meta}}
    listing = {"jsonrpc": "2.0", "id": "list", "method": "tools/list", "params": meta}
    return [*opening, listing, {"jsonrpc": "2.0", "id": "ping", "method": "ping", **({"params": meta} if meta else {})},
            *calls, bad]


def _session(cache: Path, era: str, front: bool) -> list[tuple[str, bytes]]:
    """The answers of one server process, in the order they came: (id, the raw line)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "CODETRACE_CACHE_DIR": str(cache),
           "CODETRACE_MCP_FRONT": "1" if front else "0"}
    messages = _messages(era)
    expected = sum("id" in message for message in messages)
    process = subprocess.Popen([sys.executable, "-m", "jupyter_codetrace.cli", "mcp", "--root", str(FIXTURE)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        for message in messages:
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        answers = []
        while len(answers) < expected:
            line = process.stdout.readline()
            assert line, f"the server stopped after {len(answers)} answers"
            answers.append((json.loads(line)["id"], line))
        return answers
    finally:
        process.stdin.close()
        process.wait(timeout=60)


@pytest.mark.parametrize("era", ["2025", "2026"])
def test_a_session_answered_by_the_front_is_the_sdks_byte_for_byte(tmp_path, era):
    plain = dict(_session(tmp_path / "plain", era, front=False))
    _session(tmp_path / "front", era, front=True)   # records the SDK's answers, schemas and envelope
    recorded = json.loads((tmp_path / "front" / "mcp-answers.json").read_text())
    assert any(key.startswith("schemas:") for key in recorded) and any(key.startswith("envelope:") for key in recorded)
    answers = _session(tmp_path / "front", era, front=True)
    assert dict(answers) == plain
    order = [key for key, _ in answers]
    # The tool calls were answered before the SDK, which loads after the first index, could answer
    # the ping sent before them; the invalid call was left to the SDK.
    assert order.index(0) < order.index("ping") < order.index("bad"), order
    assert json.loads(dict(answers)["bad"])["result"]["isError"] is True


def test_a_front_with_nothing_recorded_leaves_every_call_to_the_sdk(tmp_path, server, monkeypatch):
    tools, _, _ = server
    monkeypatch.setenv("CODETRACE_CACHE_DIR", str(tmp_path))
    front = mcp_front.Front(tools)
    assert not front.answers_calls
    for number, (tool, arguments) in enumerate(CALLS):
        call = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
        assert front._answer_call(call) is False
