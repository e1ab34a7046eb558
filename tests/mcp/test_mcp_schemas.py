"""Tool input schemas an agent can trust: every parameter described, enums for closed sets, strict
1-based integers for positions (no coercion of "12" or true), and the package version in serverInfo."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import mcp
import pytest

import jupyter_codetrace
from jupyter_codetrace.mcp_server import build_server

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"

# tool -> parameter -> path of the 1-based integer inside the arguments
POSITIONS = {
    "find_definition": ["line_number", "column_number"],
    "find_references": ["line", "character"],
    "go_to_definition": ["locate.line"],
    "search_symbols": ["limit"],
}

VALID = {
    "find_definition": {"symbol_name": "place_order", "file_path": "main.py", "line_number": 11},
    "find_references": {"path": "shop/pricing.py", "line": 25, "character": 5},
    "go_to_definition": {"locate": {"file_path": "main.py", "line": 11, "find": "place_order"}},
    "search_symbols": {"query": "order", "limit": 5},
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def server():
    return build_server(FIXTURE)


def _resolve(schema: dict, node: dict) -> dict:
    ref = node.get("$ref")
    if ref:
        return schema["$defs"][ref.rsplit("/", 1)[1]]
    return node


def _walk_properties(schema: dict, node: dict, prefix: str = ""):
    """Every (dotted name, property schema) of an object schema, nested objects included."""
    for name, prop in node.get("properties", {}).items():
        yield prefix + name, prop
        target = _resolve(schema, prop)
        if target.get("type") == "object" and "properties" in target:
            yield from _walk_properties(schema, target, prefix + name + ".")


def _integer_branch(schema: dict, prop: dict) -> dict:
    prop = _resolve(schema, prop)
    branches = [b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"]
    assert len(branches) == 1, prop
    return branches[0]


@pytest.mark.anyio
async def test_server_info_carries_the_package_version(server):
    async with mcp.Client(server) as client:
        info = client.server_info
    assert info.name == "codetrace"
    assert info.version and info.version == jupyter_codetrace.__version__
    try:
        assert info.version == importlib.metadata.version("jupyter_codetrace")
    except importlib.metadata.PackageNotFoundError:  # running from a source tree without an install
        pass


@pytest.mark.anyio
async def test_every_parameter_is_described_and_typed(server):
    async with mcp.Client(server) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for tool in tools.values():
        schema = tool.input_schema
        names = list(_walk_properties(schema, schema))
        assert names, tool.name
        for name, prop in names:
            assert prop.get("description", "").strip(), f"{tool.name}.{name} has no description"
            resolved = _resolve(schema, prop)
            assert "type" in resolved or "anyOf" in resolved or "enum" in resolved, (tool.name, name)

    mode = tools["go_to_definition"].input_schema["properties"]["mode"]
    assert mode["enum"] == ["definition", "declaration", "type_definition"]
    assert mode["default"] == "definition"

    for tool_name, parameters in POSITIONS.items():
        schema = tools[tool_name].input_schema
        properties = dict(_walk_properties(schema, schema))
        for parameter in parameters:
            branch = _integer_branch(schema, properties[parameter])
            assert branch["type"] == "integer" and branch["minimum"] == 1, (tool_name, parameter, branch)

    for tool_name in ("pathsBetween",):
        schema = tools[tool_name].input_schema
        properties = dict(_walk_properties(schema, schema))
        for end in ("from", "to"):
            endpoint = _resolve(schema, properties[end])
            assert set(endpoint["required"]) == {"file_path", "symbol"}, endpoint


def _with(arguments: dict, dotted: str, value) -> dict:
    arguments = {k: dict(v) if isinstance(v, dict) else v for k, v in arguments.items()}
    *parents, last = dotted.split(".")
    target = arguments
    for parent in parents:
        target = target[parent]
    target[last] = value
    return arguments


BAD = [("12", "valid integer"), (True, "valid integer"), (1.5, "valid integer"), (0, "greater than or equal to 1"),
       (-3, "greater than or equal to 1")]


@pytest.mark.anyio
async def test_positions_must_be_json_integers_from_1(server):
    cases = [(tool, parameter) for tool, parameters in POSITIONS.items() for parameter in parameters]
    async with mcp.Client(server) as client:
        for tool, arguments in VALID.items():
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, result.content)
        for tool, parameter in cases:
            for value, words in BAD:
                result = await client.call_tool(tool, _with(VALID[tool], parameter, value))
                text = result.content[0].text
                assert result.is_error, (tool, parameter, value, text)
                assert parameter in text and words in text, (tool, parameter, value, text)


@pytest.mark.anyio
async def test_enums_and_required_fields_are_enforced(server):
    async with mcp.Client(server) as client:
        result = await client.call_tool("go_to_definition", {**VALID["go_to_definition"], "mode": "decl"})
        assert result.is_error and "mode" in result.content[0].text and "type_definition" in result.content[0].text
        for mode in ("definition", "declaration", "type_definition"):
            result = await client.call_tool("go_to_definition", {**VALID["go_to_definition"], "mode": mode})
            assert not result.is_error, (mode, result.content)
        result = await client.call_tool("pathsBetween", {"from": {"file_path": "main.py"},
                                                         "to": {"file_path": "main.py", "symbol": "main"}})
        assert result.is_error and "from.symbol" in result.content[0].text
