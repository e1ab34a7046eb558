"""Every surface takes each query's parameters from one declaration: the ``Project`` method's
signature (``jupyter_codetrace.parameters``). REST routes, the OpenAPI document, the MCP tools'
input schemas and the CLI commands are compared with it here, so that a parameter added to a
query and forgotten by a surface fails a test.

MCP tools and CLI commands spell their arguments their own way (the seeds' names, positionals
such as FILE:LINE[:COL]); the tables below map each of them to the Project parameter it fills.
Every Project parameter is mapped or listed as deliberately not exposed, with the reason; every
place a surface's argument differs from the parameter (required, default) is listed, with the
reason. The error and status bodies of a real server are validated against their $defs in
``schema/results.schema.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import re
import time
from pathlib import Path

import jsonschema
import pytest
import tornado.httpclient

from jupyter_codetrace import Project
from jupyter_codetrace.cli import build_parser, main
from jupyter_codetrace.parameters import PAIRS, QUERIES, call, parameters
from jupyter_codetrace.server.handlers import ROUTES, SERVER_ARGUMENTS
from jupyter_codetrace.server.openapi import openapi_document

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "graph_py"
SCHEMA = json.loads((ROOT / "jupyter_codetrace/schema/results.schema.json").read_text(encoding="utf-8"))

# Public Project methods that are not queries of the REST, MCP and CLI surfaces.
NOT_QUERIES = {
    "index": "indexing, not a query (REST: the reindex route; CLI: the index command)",
    "for_python": "a project for another interpreter (the server picks it for a notebook's kernel)",
    "document_symbols": "one file's outline, served by the language server (documentSymbol) only",
    "library_path": "the absolute path of a library file on this machine, for an editor to open",
    "export_scip": "writes a file (CLI: the export command), returns no result",
    "set_overlay": "the editor's unsaved buffer: REST's `text` argument", "has_overlay": "as set_overlay",
    "clear_overlay": "as set_overlay", "close": "releases the index", "root": "a property",
    "compile_queries": "preparation a long-lived process does when idle (the server, after its index)",
    "watch": "a long-lived process takes in saves in the background (the server, MCP)",
}

MISSING = object()  # an argument without a default


def _flat(query: str) -> dict[str, tuple]:
    """Project parameter -> (JSON type, required, default) for one query."""
    return {p.name: (p.type, p.required, MISSING if p.required else p.default) for p in parameters(query)}


def test_every_public_project_method_is_a_query_or_listed():
    public = {name for name in dir(Project) if not name.startswith("_")}
    assert public == set(QUERIES) | set(NOT_QUERIES)


def test_the_parameter_lists_follow_the_signatures():
    """The flat lists are the signatures, with each (file, symbol) pair named by PAIRS."""
    for query in QUERIES:
        signature = inspect.signature(getattr(Project, query))
        names = []
        for name, parameter in list(signature.parameters.items())[1:]:
            names += PAIRS.get(query, {}).get(name, (name,))
        assert [p.name for p in parameters(query)] == names, query
        for p in parameters(query):
            declared = signature.parameters[p.argument]
            assert p.required == (declared.default is inspect.Parameter.empty), (query, p.name)
    assert [(p.name, p.type, p.required, p.default) for p in parameters("symbols")] == \
        [("query", "string", True, None), ("limit", "integer", False, 50)]
    assert [(p.name, p.argument) for p in parameters("paths_between")][:2] == \
        [("from_file", "source"), ("from_symbol", "source")]


# ------------------------------------------------------------------------------------ REST

def _sample(kind: str):
    return {"string": "text", "integer": 7, "boolean": True}[kind]


class _Recorder:
    """A stand-in Project that records the query call a route makes."""

    def __init__(self):
        self.calls = []

    def has_overlay(self, file):
        return False

    def set_overlay(self, file, text):
        return True

    def __getattr__(self, name):
        if name not in QUERIES:
            raise AttributeError(name)
        return lambda **arguments: self.calls.append((name, arguments))


def test_rest_routes_take_the_signature_and_their_additions():
    served = set()
    for route, handler in ROUTES.items():
        if not getattr(handler, "query", None):
            continue
        served.add(handler.query)
        additions = {p.name: p.type for p in handler.additions}
        assert handler.params == {p.name: p.type for p in parameters(handler.query)} | additions, route
        assert not set(additions) & set(_flat(handler.query)), f"{route}: an addition shadows a parameter"
        assert not set(handler.params) & (SERVER_ARGUMENTS | {"format"}), route

        # Every signature parameter reaches the call, a pair as its tuple; absent ones take the default.
        recorder, route_handler = _Recorder(), object.__new__(handler)   # no request needed to run the query
        route_handler.run(recorder, {p.name: _sample(p.type) for p in handler.parameters})
        route_handler.run(recorder, {})
        signature = inspect.signature(getattr(Project, handler.query))
        given, empty = {}, {}
        for name, parameter in list(signature.parameters.items())[1:]:
            pair = PAIRS.get(handler.query, {}).get(name)
            kind = {p.name: p.type for p in parameters(handler.query)}
            given[name] = tuple(_sample(kind[m]) for m in pair) if pair else _sample(kind[name])
            empty[name] = (None,) * len(pair) if pair else \
                (None if parameter.default is inspect.Parameter.empty else parameter.default)
        assert recorder.calls == [(handler.query, given), (handler.query, empty)], route
    assert served == set(QUERIES), "a Project query without a REST route"


def test_openapi_parameters_and_bodies_equal_the_routes():
    doc = openapi_document()
    for route, handler in ROUTES.items():
        if not getattr(handler, "query", None):
            continue
        operations = doc["paths"][f"/codetrace/api/{route}"]
        expected = {p.name: (p.type, p.required) for p in handler.parameters}
        listed = {p["name"]: (p["schema"]["type"], p["required"]) for p in operations["get"]["parameters"]
                  if p["name"] != "format"}
        assert listed == expected, route
        body = operations["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert {name: prop["type"] for name, prop in body["properties"].items() if name != "format"} == \
            {name: kind for name, (kind, _) in expected.items()}, route
        assert set(body["required"]) == {name for name, (_, required) in expected.items() if required}, route
        for p in operations["get"]["parameters"]:
            declared = _flat(handler.query).get(p["name"])
            if declared and declared[2] not in (MISSING, None):
                assert p["schema"]["default"] == declared[2], (route, p["name"])


# ------------------------------------------------------------------------------------ MCP

# tool -> (the Project query it calls, {argument (dotted inside an object) -> Project parameter})
MCP_TOOLS = {
    "find_definition": ("find_definition", {"symbol_name": "symbol", "file_path": "file", "line_number": "line",
                                            "column_number": "column"}),
    "go_to_definition": ("find_definition", {"locate.file_path": "file", "locate.line": "line", "locate.find": "symbol",
                                             "locate.symbol": "symbol", "mode": "mode"}),
    "find_references": ("find_references", {"path": "file", "line": "line", "character": "column",
                                            "include_declaration": "include_declaration"}),
    "codebase_trace": ("trace", {"symbol": "symbol", "file": "file", "references": "references", "calls": "calls",
                                 "types": "types"}),
    "dependenciesOf": ("dependencies_of", {"file_path": "file", "symbol": "symbol"}),
    "dependentsOf": ("dependents_of", {"file_path": "file", "symbol": "symbol"}),
    "pathsBetween": ("paths_between", {"from.file_path": "from_file", "from.symbol": "from_symbol",
                                       "to.file_path": "to_file", "to.symbol": "to_symbol"}),
    "search_symbols": ("symbols", {"query": "query", "limit": "limit"}),
}
# A tool's own arguments, which fill no Project parameter.
MCP_ADDITIONS = {
    ("go_to_definition", "include_hover"): "seed 001: leave the doc comment out of the Markdown",
    ("go_to_definition", "include_code"): "seed 001: leave the code out of the Markdown",
}
# (query, parameter) -> why no tool takes it (None as parameter: the whole query).
MCP_NOT_EXPOSED = {
    ("find_definition", "cell"): "the seed shapes (000, 001) have no notebook cell; notebooks are navigated from "
                                 "the panel, the magics, REST and the CLI",
    ("find_references", "cell"): "as find_definition's cell (seed 003)",
    ("find_references", "symbol"): "seed 003 names a position (path, line, character): the tool passes no symbol "
                                   "and the query reads the name at that column",
    ("dependencies_of", "include_name_matches"): "seed 004 has no such flag: name-only edges, the main source of "
                                                 "false results, stay out of agents' answers",
    ("dependents_of", "include_name_matches"): "as dependencies_of's",
    ("paths_between", "include_name_matches"): "as dependencies_of's",
    ("call_graph", None): "the whole graph fits no agent's text budget; no seed describes it",
    ("library_source", None): "the panel's read-only view of a library file; agents read library code through "
                              "go_to_definition's code",
}
# (tool, argument) -> why it differs from its Project parameter (required or default).
MCP_DIFFERENCES = {
    ("find_definition", "file_path"): "required by seed 000 (a position); by name alone: go_to_definition {symbol}",
    ("find_definition", "line_number"): "as file_path",
    ("go_to_definition", "locate.find"): "locate is {file_path, line, find} or {symbol}: either names the symbol",
    ("go_to_definition", "locate.symbol"): "as locate.find",
    ("find_references", "character"): "required by seed 003 (the tool passes no symbol: the column names it)",
    ("search_symbols", "limit"): "20, not 50: a shorter list within an agent's context",
}


@pytest.fixture(scope="module")
def mcp_schemas():
    import mcp

    from jupyter_codetrace.mcp_server import build_server

    async def listed():
        async with mcp.Client(build_server(Project(FIXTURE))) as client:
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    return asyncio.run(listed())


def _mcp_arguments(schema: dict, node: dict, prefix: str = "", required: bool = True):
    """dotted argument -> (JSON type, required, default) of a tool's input schema, nested objects opened."""
    found = {}
    for name, prop in node.get("properties", {}).items():
        target = schema["$defs"][prop["$ref"].rsplit("/", 1)[1]] if "$ref" in prop else prop
        needed = required and name in node.get("required", ())
        if target.get("type") == "object" and "properties" in target:
            found.update(_mcp_arguments(schema, target, f"{prefix}{name}.", needed))
            continue
        kinds = [b for b in target.get("anyOf", [target]) if b.get("type") != "null"]
        kind = kinds[0].get("type") or {str: "string"}[type(target["enum"][0])]
        found[prefix + name] = (kind, needed, target.get("default", MISSING))
    return found


def _differences(declared: dict, arguments: dict, mapping: dict) -> set[str]:
    """The arguments whose required-ness or default differ from their Project parameter's."""
    differ = set()
    for argument, (kind, required, default) in arguments.items():
        parameter = mapping[argument]
        members = parameter if isinstance(parameter, tuple) else (parameter,)
        p_kind, p_required, p_default = declared[members[0]]
        if len(members) == 1:
            assert kind == p_kind, (argument, kind, parameter, p_kind)
        if required != p_required or (not required and default is not MISSING and default != p_default):
            differ.add(argument)
    return differ


def test_mcp_tools_map_every_project_parameter(mcp_schemas):
    assert set(mcp_schemas) == set(MCP_TOOLS)
    reached = set()
    for tool, (query, mapping) in MCP_TOOLS.items():
        arguments = _mcp_arguments(mcp_schemas[tool], mcp_schemas[tool])
        additions = {a for (t, a) in MCP_ADDITIONS if t == tool}
        assert set(arguments) == set(mapping) | additions, tool
        declared = _flat(query)
        assert set(mapping.values()) <= set(declared), tool
        reached |= {(query, parameter) for parameter in mapping.values()}
        mapped = {a: v for a, v in arguments.items() if a in mapping}
        assert _differences(declared, mapped, mapping) == {a for (t, a) in MCP_DIFFERENCES if t == tool}, tool
    for query in QUERIES:
        if (query, None) in MCP_NOT_EXPOSED:
            assert not any(q == query for q, _ in reached), query
            continue
        for parameter in _flat(query):
            assert ((query, parameter) in reached) != ((query, parameter) in MCP_NOT_EXPOSED), \
                f"Project.{query}({parameter}): map it to an MCP tool argument or list it as not exposed"


# ------------------------------------------------------------------------------------ CLI

# command -> (query, {argparse dest -> Project parameter, or the tuple a positional's text gives})
CLI_COMMANDS = {
    "def": ("find_definition", {"location": ("file", "line", "column"), "symbol": "symbol", "mode": "mode",
                                "cell": "cell"}),
    "refs": ("find_references", {"location": ("file", "line", "column"), "symbol": "symbol",
                                 "include_declaration": "include_declaration", "cell": "cell"}),
    "trace": ("trace", {"symbol": "symbol", "file": "file", "references": "references", "calls": "calls",
                        "types": "types"}),
    "deps": ("dependencies_of", {"file": "file", "symbol": "symbol", "include_name_matches": "include_name_matches"}),
    "dependents": ("dependents_of", {"file": "file", "symbol": "symbol",
                                     "include_name_matches": "include_name_matches"}),
    "paths": ("paths_between", {"source": ("from_file", "from_symbol"), "target": ("to_file", "to_symbol"),
                                "include_name_matches": "include_name_matches"}),
    "symbols": ("symbols", {"query": "query", "limit": "limit"}),
    "graph": ("call_graph", {"include_name_matches": "include_name_matches"}),
}
OTHER_COMMANDS = {"index", "export", "mcp", "lsp"}          # not queries (see NOT_QUERIES)
GLOBAL_OPTIONS = {"help", "root", "json", "python"}
CLI_ADDITIONS = {
    ("trace", "all"): "--references --calls --types at once",
    ("paths", "format"): "the printed form (text, dot, svg)",
    ("graph", "format"): "the printed form (json, dot, graphml)",
}
CLI_NOT_EXPOSED = {
    ("library_source", None): "the panel's read-only view of a library file; `def` prints library code",
}
CLI_DIFFERENCES = {
    ("def", "location"): "FILE:LINE are required: `def` goes to the name at a position; by name alone: `trace`",
}


def _cli_arguments(parser: argparse.ArgumentParser) -> dict:
    """dest -> (JSON type, required, default) of a subcommand's arguments (global options left out)."""
    found = {}
    for action in parser._actions:
        if action.dest in GLOBAL_OPTIONS:
            continue
        if isinstance(action, argparse._StoreTrueAction):
            found[action.dest] = ("boolean", False, action.default)
        else:
            kind = {None: "string", int: "integer"}[action.type]
            positional = not action.option_strings
            found[action.dest] = (kind, positional or action.required, MISSING if positional else action.default)
    return found


def test_cli_commands_map_every_project_parameter():
    subcommands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(subcommands) == set(CLI_COMMANDS) | OTHER_COMMANDS
    reached = set()
    for command, (query, mapping) in CLI_COMMANDS.items():
        arguments = _cli_arguments(subcommands[command])
        additions = {a for (c, a) in CLI_ADDITIONS if c == command}
        assert set(arguments) == set(mapping) | additions, command
        declared = _flat(query)
        for parameter in mapping.values():
            members = parameter if isinstance(parameter, tuple) else (parameter,)
            assert set(members) <= set(declared), (command, parameter)
            reached |= {(query, m) for m in members}
        mapped = {a: v for a, v in arguments.items() if a in mapping}
        assert _differences(declared, mapped, mapping) == {a for (c, a) in CLI_DIFFERENCES if c == command}, command
    for query in QUERIES:
        if (query, None) in CLI_NOT_EXPOSED:
            continue
        for parameter in _flat(query):
            assert ((query, parameter) in reached) != ((query, parameter) in CLI_NOT_EXPOSED), \
                f"Project.{query}({parameter}): map it to a CLI argument or list it as not exposed"


def test_the_cli_cell_reaches_the_query(capsys):
    root = ROOT / "fixtures" / "demo"
    project = Project(root)
    for command, query in (("def", project.find_definition), ("refs", project.find_references)):
        assert main(["--root", str(root), "--json", command, "notebooks/explore.ipynb:1", "stocked_service",
                     "--cell", "3"]) == 0
        assert json.loads(capsys.readouterr().out) == query("stocked_service", "notebooks/explore.ipynb", 1,
                                                            cell=3).to_dict()


def test_the_tables_name_only_real_things():
    for table in (MCP_NOT_EXPOSED, CLI_NOT_EXPOSED):
        for query, parameter in table:
            assert query in QUERIES and (parameter is None or parameter in _flat(query)), (query, parameter)
    assert {t for t, _ in MCP_ADDITIONS} | {t for t, _ in MCP_DIFFERENCES} <= set(MCP_TOOLS)
    assert {c for c, _ in CLI_ADDITIONS} | {c for c, _ in CLI_DIFFERENCES} <= set(CLI_COMMANDS)


def test_a_forgotten_parameter_fails(monkeypatch):
    """A parameter added to a Project query and to no surface fails the tests above."""
    from jupyter_codetrace import parameters as module

    def symbols(self, query: str, limit: int = 50, kinds: str | None = None):
        raise NotImplementedError

    monkeypatch.setattr(Project, "symbols", symbols)
    module._signature.cache_clear()
    module.parameters.cache_clear()
    try:
        assert [p.name for p in parameters("symbols")] == ["query", "limit", "kinds"]
        with pytest.raises(AssertionError, match="kinds"):
            test_cli_commands_map_every_project_parameter()
        with pytest.raises(AssertionError, match="symbols"):   # the route was declared before the parameter
            test_rest_routes_take_the_signature_and_their_additions()
    finally:
        monkeypatch.undo()
        module._signature.cache_clear()
        module.parameters.cache_clear()


# ------------------------------------------------------------------------- error and status bodies

def _validate(name: str, payload: dict) -> None:
    jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"}).validate(payload)


@pytest.fixture
def jp_server_config():
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}}, "Codetrace": {"root": str(FIXTURE)}}


async def _fetch(jp_fetch, route, **kwargs):
    try:
        response = await jp_fetch("codetrace", "api", route, **kwargs)
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
    return response.code, json.loads(response.body)


async def _ready(jp_fetch):
    for _ in range(200):
        code, status = await _fetch(jp_fetch, "status")
        if status["state"] == "ready":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the index never got ready: {status}")


async def test_real_error_and_status_bodies_match_their_schema(jp_fetch):
    _validate("Status", await _ready(jp_fetch))
    invalid = [
        ("definition", {"params": {"symbol": "main", "file": "main.py", "line": "zero"}}),
        ("symbols", {"params": {"query": "a", "colour": "red"}}),
        ("trace", {"params": {"symbol": "main", "format": "svg"}}),
        ("paths", {"method": "POST", "body": "{not json"}),
        ("paths", {"method": "POST", "body": "[1]"}),
    ]
    for route, request in invalid:
        code, payload = await _fetch(jp_fetch, route, **request)
        assert code == 400, (route, request)
        _validate("InvalidRequest", payload)
    for route, params in (("definition", {"symbol": "x", "file": "../../etc/passwd", "line": "1"}),
                          ("dependents", {"file": "/etc/passwd", "symbol": "x"})):
        code, payload = await _fetch(jp_fetch, route, params=params)
        assert code == 403 and payload["status"] == "forbidden"
        _validate("Forbidden", payload)
    code, payload = await _fetch(jp_fetch, "reindex", method="POST", body="{}")
    assert code == 202
    _validate("Status", payload)


class TestBeforeTheFirstIndex:
    @pytest.fixture
    def jp_server_config(self):
        return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
                "Codetrace": {"root": str(FIXTURE), "index_on_start": False}}

    async def test_the_indexing_body_matches_its_schema(self, jp_fetch):
        code, payload = await _fetch(jp_fetch, "symbols", params={"query": "main"})
        assert code == 503 and payload["status"] == "indexing"
        _validate("Indexing", payload)
        code, status = await _fetch(jp_fetch, "status")
        assert status["state"] == "idle"
        _validate("Status", status)


# ------------------------------------------------------------------------------------ the panel

# (route, field) -> why the panel's request type differs from the OpenAPI document (required).
PANEL_DIFFERENCES = {
    ("definition", "symbol"): "the panel asks by position: with a column the server reads the name written there",
    ("references", "symbol"): "as definition's",
}
_TS_TYPES = {"string": "string", "number": "integer", "boolean": "boolean"}


def _panel_route_params() -> dict[str, dict[str, tuple]]:
    """route -> field -> (JSON type or format values, required) of RouteParams in labextension/src/request.ts."""
    text = (ROOT / "labextension" / "src" / "request.ts").read_text(encoding="utf-8")
    body = re.search(r"^export interface RouteParams \{\n(.*?)^\}", text, re.S | re.M).group(1)
    routes = {}
    for route, fields in re.findall(r"^  '?([\w-]+)'?: (?:\{(.*?)\}|Record<string, never>);", body, re.S | re.M):
        routes[route] = {}
        for field in filter(None, (f.strip() for f in fields.split(";"))):
            name, optional, kind = re.fullmatch(r"(\w+)(\??): (.+)", field).groups()
            formats = re.fullmatch(r"Format<(.*)>", kind)
            kind = {"json", *re.findall(r"'(\w+)'", formats.group(1))} if formats else _TS_TYPES[kind]
            routes[route][name] = (kind, not optional)
    return routes


def test_the_panels_request_types_equal_the_openapi_parameters():
    panel, doc = _panel_route_params(), openapi_document()
    assert set(panel) == set(ROUTES) - {"openapi.json"}
    differ = set()
    for route, fields in panel.items():
        operation = next(iter(doc["paths"][f"/codetrace/api/{route}"].values()))
        listed = {p["name"]: (set(p["schema"]["enum"]) if "enum" in p["schema"] else p["schema"]["type"], p["required"])
                  for p in operation.get("parameters", [])}
        assert set(fields) == set(listed), route
        for name, (kind, required) in fields.items():
            assert kind == listed[name][0], (route, name)
            if required != listed[name][1]:
                differ.add((route, name))
    assert differ == set(PANEL_DIFFERENCES)
    source = (ROOT / "labextension" / "src" / "request.ts").read_text(encoding="utf-8")
    assert not re.search(r"\bany\b", re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S)), "no `any` in the request layer"
