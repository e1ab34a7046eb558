"""A real MCP client session over stdio: the SDK's client spawns `codetrace mcp --root FIXTURE`,
lists the tools and calls each one — found, not found, invalid input, outside the root. Text
outputs are compared with golden files (regenerate: CODETRACE_REGEN_GOLDEN=1), structured
content with the Python API's to_dict() for the same query."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import mcp
import pytest
from mcp import StdioServerParameters

from jupyter_codetrace import Project

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"
GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("CODETRACE_REGEN_GOLDEN") == "1"
TOOLS = {"find_definition", "go_to_definition", "find_references", "codebase_trace", "dependenciesOf",
         "dependentsOf", "pathsBetween", "search_symbols"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def api():
    return Project(FIXTURE)


def _params():
    return StdioServerParameters(command=sys.executable, args=["-m", "jupyter_codetrace.cli", "--root", str(FIXTURE), "mcp"],
                                 env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})


def _golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name}: no golden file yet; run with CODETRACE_REGEN_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8"), f"{name}: text differs from {path}"


CALLS = [
    ("find_definition", {"symbol_name": "place_order", "file_path": "main.py", "line_number": 11},
     lambda p: p.find_definition("place_order", "main.py", 11)),
    ("go_to_definition", {"locate": {"file_path": "main.py", "line": 11, "find": "place_order"}},
     lambda p: p.find_definition("place_order", "main.py", 11)),
    ("go_to_definition", {"locate": {"symbol": "Order.checkout"}, "include_code": False},
     lambda p: p.trace("Order.checkout").definition),
    ("find_references", {"path": "shop/pricing.py", "line": 25, "character": 5, "include_declaration": True},
     lambda p: p.find_references("round_price", "shop/pricing.py", 25, 5, include_declaration=True)),
    ("codebase_trace", {"symbol": "total", "references": True, "calls": True, "types": True},
     lambda p: p.trace("total", references=True, calls=True, types=True)),
    ("dependenciesOf", {"file_path": "main.py", "symbol": "main"}, lambda p: p.dependencies_of("main.py", "main")),
    ("dependentsOf", {"file_path": "shop/pricing.py", "symbol": "round_price"},
     lambda p: p.dependents_of("shop/pricing.py", "round_price")),
    ("pathsBetween", {"from": {"file_path": "main.py", "symbol": "main"},
                      "to": {"file_path": "shop/pricing.py", "symbol": "round_price"}},
     lambda p: p.paths_between(("main.py", "main"), ("shop/pricing.py", "round_price"))),
    ("search_symbols", {"query": "order", "limit": 5}, lambda p: p.symbols("order", 5)),
]

NOT_FOUND = [
    ("find_definition", {"symbol_name": "nope", "file_path": "main.py", "line_number": 11}, "reference_not_found"),
    ("go_to_definition", {"locate": {"symbol": "plac_order"}}, "symbol_not_found"),
    ("find_references", {"path": "nothing.py", "line": 1, "character": 1}, None),
    ("codebase_trace", {"symbol": "plac_order"}, "symbol_not_found"),
    ("dependentsOf", {"file_path": "shop/chain.py", "symbol": "round_price"}, "symbol_not_found"),
    ("pathsBetween", {"from": {"file_path": "shop/chain.py", "symbol": "step1"},
                      "to": {"file_path": "shop/recursion.py", "symbol": "factorial"}}, "no_path"),
]

INVALID = [
    ("find_definition", {"symbol_name": "x", "file_path": "main.py", "line_number": 0}, "line"),
    ("find_references", {"path": "main.py", "line": 11, "character": 11}, "symbol"),
    ("go_to_definition", {"locate": {"file_path": "main.py", "line": 11}}, "find"),
    ("codebase_trace", {"symbol": "main", "file": "../../../etc/passwd"}, "outside the project root"),
    ("dependenciesOf", {"file_path": "/etc/passwd", "symbol": "x"}, "outside the project root"),
]


@pytest.mark.anyio
async def test_a_stdio_session_lists_and_calls_every_tool(api):
    async with mcp.Client(_params(), read_timeout_seconds=120) as client:
        listed = await client.list_tools()
        assert {t.name for t in listed.tools} == TOOLS
        for tool in listed.tools:
            assert len(tool.description) > 120 and "Example" in tool.description, tool.name
        for i, (name, arguments, query) in enumerate(CALLS):
            result = await client.call_tool(name, arguments)
            assert not result.is_error, (name, result.content)
            text = result.content[0].text
            _golden(f"{i:02d}_{name}", text)
            assert result.structured_content == query(api).to_dict(), name
        for name, arguments, status in NOT_FOUND:
            result = await client.call_tool(name, arguments)
            assert not result.is_error, (name, result.content)
            text = result.content[0].text
            if status:
                assert result.structured_content["status"] == status, (name, text)
            assert any(word in text for word in ("Did you mean", "defined in", "Closest", "No path", "not indexed",
                                                 "Candidates", "Names on that line")), (name, text)
        for name, arguments, words in INVALID:
            result = await client.call_tool(name, arguments)
            text = result.content[0].text
            assert result.is_error and words in text, (name, text)
            assert "passwd" not in text and "/etc" not in text


@pytest.mark.anyio
async def test_streamable_http_on_loopback(api):
    import socket
    import subprocess

    import anyio

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(FIXTURE), "mcp",
                               "--http", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                await anyio.sleep(0.1)
        async with mcp.Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            result = await client.call_tool("search_symbols", {"query": "round_price", "limit": 3})
            assert result.structured_content == api.symbols("round_price", 3).to_dict()
    finally:
        server.terminate()
        server.wait(timeout=20)


@pytest.mark.anyio
async def test_library_answers_name_the_library_never_the_machine():
    """`json.dumps` and `networkx.DiGraph.add_edge` through the MCP tools: found in library code,
    shown under the import root with the package (seed 003: no absolute path an agent could see)."""
    root = Path(__file__).resolve().parents[2] / "fixtures" / "py_libs"
    params = StdioServerParameters(command=sys.executable, args=["-m", "jupyter_codetrace.cli", "--root", str(root),
                                                                 "mcp"],
                                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    machine = {sys.prefix, sys.base_prefix, os.path.realpath(sys.prefix), str(Path.home())}
    async with mcp.Client(params, read_timeout_seconds=120) as client:
        add_edge = await client.call_tool("find_definition", {"symbol_name": "add_edge", "file_path": "analysis.py",
                                                               "line_number": 20})
        dumps = await client.call_tool("go_to_definition", {"locate": {"file_path": "analysis.py", "line": 29,
                                                                       "find": "dumps"}})
        uses = await client.call_tool("find_references", {"path": "analysis.py", "line": 29, "character": 17})
        trace = await client.call_tool("codebase_trace", {"symbol": "supplier_graph", "calls": True})
    texts = [r.content[0].text for r in (add_edge, dumps, uses, trace)]
    assert "networkx/classes/digraph.py" in texts[0] and "networkx" in add_edge.structured_content["library"]["package"]
    assert "json/__init__.py" in texts[1] and "stdlib" in texts[1]
    assert "analysis.py:29" in texts[2] and "notebook_helpers.py" in texts[2] and "json/__init__.py" in texts[2]
    assert "networkx.DiGraph.add_edge" in texts[3]
    for text, result in zip(texts, (add_edge, dumps, uses, trace)):
        for path in machine:
            assert path not in text and path not in str(result.structured_content), path
        assert "::py" not in text


@pytest.mark.anyio
async def test_go_to_definition_by_name_honours_the_mode():
    """{symbol} with mode=declaration answers the header prototype (the engine's by-name lookup),
    not the definition relabelled by the tool; an answer without a declaration says it fell back."""
    root = Path(__file__).resolve().parents[2] / "fixtures" / "demo"
    params = StdioServerParameters(command=sys.executable, args=["-m", "jupyter_codetrace.cli", "--root", str(root),
                                                                 "mcp"],
                                   env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    async with mcp.Client(params, read_timeout_seconds=120) as client:
        declared = await client.call_tool("go_to_definition", {"locate": {"symbol": "pricing.total"},
                                                                "mode": "declaration"})
        body = await client.call_tool("go_to_definition", {"locate": {"symbol": "pricing.total"}})
        python = await client.call_tool("go_to_definition", {"locate": {"symbol": "compute_total"},
                                                              "mode": "declaration"})
    assert declared.structured_content["file"] == "native/include/pricing.hpp"
    assert declared.structured_content["mode_resolution"] == "exact"
    assert body.structured_content["file"] == "native/src/pricing.cpp"
    assert python.structured_content["mode_resolution"] == "fell_back_to_definition"
