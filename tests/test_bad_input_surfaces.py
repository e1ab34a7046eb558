"""Bad input on every query and every surface (issue 22, "Tests that catch wrong answers").

One table of bad arguments, built from the parameter lists the surfaces share
(``jupyter_codetrace.parameters``, the ``Project`` signatures), and one documented outcome for
each (CONTRACT.md): an ``InvalidRequest`` naming the argument (``field``), or a not-found
result whose message says what was there. The same table then runs through

- the Python API (``Project``),
- every REST route of a real jupyter-server (``jp_fetch``): 400 with the field, 403 for a path
  outside the root (the path not echoed), 404 with the not-found body,
- every MCP tool through a real in-memory client session: a tool error naming the argument,
  or the not-found text,
- every CLI subcommand as a subprocess: exit 0 found, 1 not found, 2 invalid (message on stderr),
- every magic's usage error in a real IPython shell: a UsageError line, no traceback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tornado.httpclient

from jupyter_codetrace import InvalidRequest, Project
from jupyter_codetrace.parameters import QUERIES, Parameter, call, parameters
from jupyter_codetrace.server.handlers import ROUTES

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "graph_py"
SECRET = "outside_secret_function"
UNKNOWN = "qqzzjjvvxx"   # no name of the fixture is near it
HUGE = "x" * 100_000


# --------------------------------------------------------------------------- the root

@pytest.fixture(scope="module")
def place(tmp_path_factory) -> tuple[Path, Path]:
    """(root, secret): a copy of graph_py with a binary .py and a Markdown file added, and a
    file outside it that no answer may name."""
    base = tmp_path_factory.mktemp("surfaces")
    root = base / "graph_py"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "blob.py").write_bytes(b"\x00\x01\x02def hidden():\x00\n" + bytes(range(256)) * 4)
    (root / "NOTES.md").write_text("place_order is in shop/orders.py\n", encoding="utf-8")
    (base / "outside_the_root").mkdir()
    secret = base / "outside_the_root" / "secret.py"
    secret.write_text(f"def {SECRET}():\n    return 'leak'\n", encoding="utf-8")
    return root, secret


@pytest.fixture(scope="module")
def root(place) -> Path:
    return place[0]


@pytest.fixture(scope="module")
def project(root) -> Project:
    project = Project(root)
    project.index()
    yield project
    project.close()


# --------------------------------------------------------------------------- the table

@dataclasses.dataclass(frozen=True)
class Invalid:
    """``InvalidRequest`` with ``field``; ``outside``: refused as outside the root."""

    field: str
    outside: bool = False


@dataclasses.dataclass(frozen=True)
class NotFound:
    """A result with a not-found ``status`` whose message carries each of ``says``."""

    status: str
    says: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Case:
    query: str
    name: str        # the flat argument (as REST names it)
    kind: str        # what is wrong with it
    value: object
    expect: Invalid | NotFound

    @property
    def id(self) -> str:
        return f"{self.query}-{self.name}-{self.kind}"


# A call of each query that is found; each case changes one argument of it.
BASE = {
    "find_definition": {"symbol": "place_order", "file": "main.py", "line": 11},
    "find_references": {"symbol": "total", "file": "shop/pricing.py", "line": 4},
    "trace": {"symbol": "total"},
    "dependencies_of": {"file": "main.py", "symbol": "main"},
    "dependents_of": {"file": "shop/pricing.py", "symbol": "round_price"},
    "paths_between": {"from_file": "main.py", "from_symbol": "main", "to_file": "shop/pricing.py",
                      "to_symbol": "round_price"},
    "symbols": {"query": "order"},
    "call_graph": {},
    "library_source": {"file": "json/__init__.py"},   # found only once an answer led there
    "document_symbols": {"file": "main.py"},
}
# document_symbols is public but not a query of the surfaces (parameters.QUERIES).
EXTRA_PARAMETERS = {"document_symbols": (Parameter("file", "string", True, None, "file"),)}

FILES = ("file", "from_file", "to_file")
SYMBOLS = ("symbol", "query", "from_symbol", "to_symbol")
FLAGS = ("references", "calls", "types", "include_declaration", "include_name_matches")
# the symbol a file argument is asked about: a missing file's message says where it is defined
ASKED = {"file": "symbol", "from_file": "from_symbol", "to_file": "to_symbol"}


def _unknown_says(query: str, name: str) -> tuple[str, ...]:
    """What a not-found answer for an unknown name lists instead (CONTRACT: not-found statuses)."""
    if query == "find_definition":
        return ("Names on that line: place_order",)
    if query == "find_references":
        return ("Names on that line: total",)
    if query == "symbols":
        return ("No symbol matches",)
    if query == "trace":
        return ("not defined in the project",)
    return ("That file defines",)        # graph queries: the file's names, closest first


def _not_found_status(query: str) -> str:
    return "reference_not_found" if query in ("find_definition", "find_references") else "symbol_not_found"


def _cases_for(query: str, parameter: Parameter, secret: str) -> list[Case]:
    name, cases = parameter.name, []

    def add(kind, value, expect):
        cases.append(Case(query, name, kind, value, expect))

    if name in ("line", "column", "cell", "limit"):
        bad = [("float", 1.5), ("true", True), ("string", "3"), ("negative", -1)]
        if name != "cell":
            bad.append(("zero", 0))
        if name == "limit":
            bad.append(("too-large", 1001))
        if name == "line":
            bad.append(("none", None))
        for kind, value in bad:
            add(kind, value, Invalid(name))
    elif name in FLAGS:
        for kind, value in (("string", "yes"), ("int", 1), ("none", None)):
            add(kind, value, Invalid(name))
    elif name == "mode":
        for kind, value in (("unknown", "implementation"), ("empty", ""), ("none", None)):
            add(kind, value, Invalid(name))
    elif name in FILES and query == "library_source":
        # Library files live outside the root: any file no answer reached is refused as not found,
        # with the same words whether it exists or not (no way to probe the disk through it).
        refused = NotFound("file_not_indexed", ("not a library file an answer has led to",))
        for kind, value in (("parent", "../outside.py"), ("dotdot", "shop/../../outside.py"),
                            ("absolute-elsewhere", secret), ("etc", "/etc/passwd"), ("missing", "missing.py"),
                            ("directory", "shop"), ("binary", "blob.py"), ("unsupported", "NOTES.md")):
            add(kind, value, refused)
        add("empty", "", Invalid(name))
        add("number", 5, Invalid(name))
    elif name in FILES:
        for kind, value in (("parent", "../outside.py"), ("dotdot", "shop/../../outside.py"),
                            ("absolute-elsewhere", secret), ("etc", "/etc/passwd")):
            add(kind, value, Invalid(name, outside=True))
        where = ("is defined in:",) if query != "document_symbols" else ()
        add("missing", "missing.py", NotFound("file_not_indexed", ("'missing.py'", "does not exist", *where)))
        add("directory", "shop", NotFound("file_not_indexed", ("'shop'", "is a folder", *where)))
        add("binary", "blob.py", NotFound("file_not_indexed", ("'blob.py'", "skipped (binary)", *where)))
        add("unsupported", "NOTES.md", NotFound("file_not_indexed", ("'NOTES.md'", "no supported language", *where)))
        if query != "trace":      # trace: an empty file is "not given" (the symbol is searched everywhere)
            add("empty", "", Invalid(name))
        add("number", 5, Invalid(name))
    elif name in SYMBOLS:
        for kind, value in (("empty", ""), ("blank", "   "), ("number", 5), ("none", None)):
            add(kind, value, Invalid(name))
        add("unknown", UNKNOWN, NotFound(_not_found_status(query), _unknown_says(query, name)))
        add("huge", HUGE, Invalid(name))         # longer than any name (MAX_NAME): refused, not echoed
    else:
        raise AssertionError(f"no bad inputs declared for {query}({name}): add them to this table")
    return cases


def _all_parameters(query: str) -> tuple[Parameter, ...]:
    return EXTRA_PARAMETERS.get(query) or parameters(query)


def build_cases(secret: str) -> list[Case]:
    cases = []
    for query in BASE:
        for parameter in _all_parameters(query):
            cases += _cases_for(query, parameter, secret)
    same = {"from_file": "main.py", "from_symbol": "main", "to_file": "main.py", "to_symbol": "main"}
    cases.append(Case("paths_between", "to_symbol", "same-symbol", same,
                      NotFound("same_symbol", ("same symbol",))))
    return cases


# The secret's path is only known per session; the table's ids are not: a placeholder stands
# in for it and is replaced when a case runs.
SECRET_PATH = "<absolute path outside the root>"
CASES = build_cases(SECRET_PATH)


def _value(case: Case, secret: Path):
    return str(secret) if case.value == SECRET_PATH else case.value


def _arguments(case: Case, secret: Path) -> dict:
    if case.kind == "same-symbol":
        return dict(case.value)
    return {**BASE[case.query], case.name: _value(case, secret)}


def _show(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, default=str)[:3000]


def test_the_table_covers_every_query_and_parameter():
    covered = {(c.query, c.name) for c in CASES}
    for query in BASE:
        for parameter in _all_parameters(query):
            assert (query, parameter.name) in covered, (query, parameter.name)
    assert set(BASE) >= set(QUERIES)


@pytest.mark.parametrize("query", [q for q in BASE if q != "library_source"])
def test_each_base_call_is_found(project, query):
    """The cases change one argument of a call that works: what fails is that argument."""
    if query == "document_symbols":
        result = project.document_symbols(**BASE[query])
    else:
        result = call(project, query, BASE[query])
    assert result.status == "found", _show(result.to_dict())


# --------------------------------------------------------------------------- Python API

def _api(project: Project, query: str, arguments: dict):
    if query == "document_symbols":
        return project.document_symbols(**arguments)
    return call(project, query, arguments)


def _assert_not_leaking(text: str, case: Case, secret: Path) -> None:
    value = _value(case, secret)
    if isinstance(value, str) and value.startswith("/"):
        assert value not in text, f"the refusal echoes the outside path: {text}"
    assert str(secret.parent) not in text and SECRET not in text, text


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_api(project, place, case):
    secret = place[1]
    arguments = _arguments(case, secret)
    if isinstance(case.expect, Invalid):
        with pytest.raises(InvalidRequest) as caught:
            _api(project, case.query, arguments)
        error = caught.value
        assert (error.field, error.outside_root) == (case.expect.field, case.expect.outside), \
            f"field={error.field!r} outside_root={error.outside_root}: {error}"
        assert str(error), "the message says what is wrong"
        _assert_not_leaking(str(error), case, secret)
    else:
        result = _api(project, case.query, arguments)
        data = result.to_dict()
        assert data["status"] == case.expect.status, _show(data)
        assert data.get("message"), f"a not-found answer says what was there:\n{_show(data)}"
        for text in case.expect.says:
            assert text in data["message"], f"{text!r} not in the message:\n{_show(data)}"
        _assert_not_leaking(json.dumps(data), case, secret)


def test_an_outside_path_is_refused_alike_whether_it_exists_or_not(project, place):
    """The refusal is no oracle for the disk outside the root."""
    secret = place[1]
    messages = set()
    for path in (str(secret), str(secret.parent / "no_such_file.py")):
        with pytest.raises(InvalidRequest) as caught:
            project.find_definition(SECRET, path, 1)
        messages.add(str(caught.value))
    assert len(messages) == 1, messages
    found = set()
    for path in (str(secret), str(secret.parent / "no_such_file.py")):
        found.add(project.library_source(path).to_dict()["message"].replace(path, "<path>"))
    assert len(found) == 1, found


# --------------------------------------------------------------------------- REST

ROUTE_OF = {handler.query: name for name, handler in ROUTES.items() if getattr(handler, "query", "")}


@pytest.fixture
def jp_server_config(root):
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
            "Codetrace": {"root": str(root)}}


async def _ready(jp_fetch) -> None:
    import asyncio

    for _ in range(400):
        status = json.loads((await jp_fetch("codetrace", "api", "status")).body)
        if status["state"] == "ready":
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the index never got ready: {status}")


async def _rest(jp_fetch, route: str, arguments: dict, method: str):
    try:
        if method == "POST":
            response = await jp_fetch("codetrace", "api", route, method="POST", body=json.dumps(arguments))
        else:
            response = await jp_fetch("codetrace", "api", route, params=arguments)
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
    return response.code, response.body.decode("utf-8", "replace")


def _rest_forms(case: Case, parameter: Parameter | None, secret: Path) -> list[tuple[str, dict]]:
    """The requests that carry the case's bad value: a JSON body (typed values), and a query
    string when the value is a string there too. REST's own readings are left out: query
    strings are integers and true/false words (so "3" and "yes" are fine), and an omitted or
    null argument takes its default."""
    value = _value(case, secret)
    if case.kind == "same-symbol":
        return [("POST", dict(case.value)), ("GET", dict(case.value))]
    if value is None and parameter is not None and parameter.default is not None:
        return []
    if case.kind in ("string",) and case.name in ("line", "column", "cell", "limit"):
        return []
    if case.name in FLAGS and case.kind in ("string", "int"):
        return []
    forms = [("POST", {**BASE[case.query], case.name: value})]
    if isinstance(value, str) and value.strip() and len(value) < 8000:   # a long value goes as a body
        forms.append(("GET", {**BASE[case.query], case.name: value}))
    elif isinstance(value, (float, bool)) or (isinstance(value, int) and case.name not in FILES + SYMBOLS):
        text = json.dumps(value)          # 1.5, true, -1 as the query string carries them
        forms.append(("GET", {**BASE[case.query], case.name: text}))
    return forms


# Bad values of REST's own: true/false words it does not know.
REST_EXTRA = [Case(q, flag, "word", "maybe", Invalid(flag)) for q in BASE if q in ROUTE_OF
              for flag in [p.name for p in parameters(q) if p.name in FLAGS]]
REST_CASES = [c for c in CASES if c.query in ROUTE_OF] + REST_EXTRA
REST_GROUPS = sorted({(c.query, c.name) for c in REST_CASES})


@pytest.mark.parametrize("query, name", REST_GROUPS, ids=[f"{ROUTE_OF[q]}-{n}" for q, n in REST_GROUPS])
async def test_rest(jp_fetch, place, query, name):
    """Every bad value of one argument of one route, through a real server: 400 naming the
    field, 403 for a path outside the root (not echoed), 404 with the not-found body."""
    secret = place[1]
    await _ready(jp_fetch)
    route = ROUTE_OF[query]
    parameter = next((p for p in parameters(query) if p.name == name), None)
    problems, checked = [], 0
    for case in [c for c in REST_CASES if (c.query, c.name) == (query, name)]:
        for method, arguments in _rest_forms(case, parameter, secret):
            checked += 1
            code, text = await _rest(jp_fetch, route, arguments, method)
            where = f"{method} {route} {case.kind}={str(arguments.get(name))[:40]!r}"
            try:
                body = json.loads(text)
            except ValueError:
                problems.append(f"{where}: {code} not JSON: {text[:200]}")
                continue
            expect = case.expect
            if isinstance(expect, Invalid):
                wanted = 403 if expect.outside else 400
                if code != wanted or body.get("field") != expect.field or not body.get("message"):
                    problems.append(f"{where}: wanted {wanted} field={expect.field}, got {code} {_show(body)[:400]}")
                if expect.outside and (str(arguments.get(name)) in text or str(secret.parent) in text):
                    problems.append(f"{where}: the 403 echoes the path: {text[:300]}")
            else:
                if code != 404 or body.get("status") != expect.status or \
                        not all(s in (body.get("message") or "") for s in expect.says):
                    problems.append(f"{where}: wanted 404 {expect.status} saying {expect.says}, got {code} "
                                    f"{_show(body)[:400]}")
    assert checked, "no request carried a bad value"
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- MCP

@dataclasses.dataclass(frozen=True)
class Tool:
    """One MCP tool over one query: its base arguments and where each flat argument goes
    (a name, or (outer, inner) for a nested object such as ``from.file_path``)."""

    name: str
    query: str
    base: dict
    arguments: dict


TOOLS = [
    Tool("find_definition", "find_definition", {"symbol_name": "place_order", "file_path": "main.py", "line_number": 11},
         {"symbol": "symbol_name", "file": "file_path", "line": "line_number", "column": "column_number"}),
    Tool("go_to_definition", "find_definition",
         {"locate": {"file_path": "main.py", "line": 11, "find": "place_order"}},
         {"symbol": ("locate", "find"), "file": ("locate", "file_path"), "line": ("locate", "line"), "mode": "mode"}),
    Tool("find_references", "find_references", {"path": "shop/pricing.py", "line": 4, "character": 5},
         {"file": "path", "line": "line", "column": "character", "include_declaration": "include_declaration"}),
    Tool("codebase_trace", "trace", {"symbol": "total"},
         {"symbol": "symbol", "file": "file", "references": "references", "calls": "calls", "types": "types"}),
    Tool("dependenciesOf", "dependencies_of", {"file_path": "main.py", "symbol": "main"},
         {"file": "file_path", "symbol": "symbol"}),
    Tool("dependentsOf", "dependents_of", {"file_path": "shop/pricing.py", "symbol": "round_price"},
         {"file": "file_path", "symbol": "symbol"}),
    Tool("pathsBetween", "paths_between",
         {"from": {"file_path": "main.py", "symbol": "main"}, "to": {"file_path": "shop/pricing.py", "symbol": "round_price"}},
         {"from_file": ("from", "file_path"), "from_symbol": ("from", "symbol"), "to_file": ("to", "file_path"),
          "to_symbol": ("to", "symbol")}),
    Tool("search_symbols", "symbols", {"query": "order"}, {"query": "query", "limit": "limit"}),
]

def _mcp_cases():
    out = []
    for tool in TOOLS:
        for case in CASES:
            if case.query != tool.query or case.name not in tool.arguments or case.kind == "same-symbol":
                continue
            out.append((tool, case))
        for flag in [a for a in tool.arguments if a in FLAGS]:
            out.append((tool, Case(tool.query, flag, "word", "maybe", Invalid(flag))))
    same = Case("paths_between", "to_symbol", "same-symbol", None, NotFound("same_symbol", ("same symbol",)))
    out.append((TOOLS[6], same))
    return out


def _skip_for_mcp(tool: Tool, case: Case) -> str | None:
    """The cases whose value is valid for the tool's schema (a default, or a lax boolean)."""
    if case.value is None and case.name in ("column",):
        return "column_number is optional: null means not given"
    if case.name in FLAGS and case.kind in ("string", "int"):
        return "MCP booleans are lax JSON-schema booleans ('yes', 1)"
    if tool.name == "codebase_trace" and case.name == "file" and case.kind == "empty":
        return "an empty file is 'not given'"
    return None


def _argument_name(tool: Tool, name: str) -> str:
    place = tool.arguments[name]
    return place if isinstance(place, str) else place[0]


def _with(tool: Tool, name: str, value) -> dict:
    arguments = json.loads(json.dumps(tool.base))
    place = tool.arguments[name]
    if isinstance(place, str):
        arguments[place] = value
    else:
        arguments[place[0]][place[1]] = value
    return arguments


MCP_CASES = []
for _tool, _case in _mcp_cases():
    _id = f"{_tool.name}-{_case.name}-{_case.kind}"
    MCP_CASES.append(pytest.param(_tool, _case, id=_id))


class _McpSession:
    def __init__(self, portal, client):
        self.portal, self.client = portal, client

    def call(self, tool: str, arguments: dict):
        result = self.portal.call(self.client.call_tool, tool, arguments)
        text = "".join(getattr(part, "text", "") for part in result.content)
        return bool(result.is_error), text


@pytest.fixture(scope="module")
def mcp(root):
    """A real MCP client session, in memory, over the server build_server makes for the root:
    the initialize handshake and the published schemas apply as for a stdio client."""
    import mcp as sdk
    from anyio.from_thread import start_blocking_portal

    from jupyter_codetrace.mcp_server import build_server

    with start_blocking_portal("asyncio") as portal:
        server = build_server(str(root))
        with portal.wrap_async_context_manager(sdk.Client(server, mode="legacy", read_timeout_seconds=120)) as client:
            yield _McpSession(portal, client)


@pytest.mark.parametrize("tool, case", MCP_CASES)
def test_mcp(mcp, place, tool, case):
    skip = _skip_for_mcp(tool, case)
    if skip:
        pytest.skip(skip)
    secret = place[1]
    if case.kind == "same-symbol":
        arguments = {"from": {"file_path": "main.py", "symbol": "main"}, "to": {"file_path": "main.py", "symbol": "main"}}
    else:
        arguments = _with(tool, case.name, _value(case, secret))
    is_error, text = mcp.call(tool.name, arguments)
    if isinstance(case.expect, Invalid):
        assert is_error, f"not refused: {text[:500]}"
        assert _argument_name(tool, case.name) in text, f"the error does not name {_argument_name(tool, case.name)!r}: {text[:500]}"
        if case.expect.outside:
            _assert_not_leaking(text, case, secret)
            assert str(_value(case, secret)) not in text, text
    else:
        assert not is_error, f"a not-found answer is no tool error: {text[:500]}"
        if tool.name != "search_symbols" and case.kind != "same-symbol":   # those two speak the seeds' words
            assert case.expect.status in text, text[:500]
        for words in case.expect.says:
            if words == "is defined in:" and tool.name == "find_references":
                continue    # the tool takes no name (the one at `character` is used): nothing to look for
            assert words in text, f"{words!r} not in: {text[:500]}"


@pytest.mark.parametrize("tool, arguments, message", [
    ("go_to_definition", {"locate": {"symbol": ""}}, "Invalid request: locate.symbol is required"),
    ("go_to_definition", {"locate": {"symbol": "   "}, "mode": "declaration"},
     "Invalid request: locate.symbol is required"),
    ("go_to_definition", {"locate": {"file_path": "main.py", "line": 11, "symbol": ""}},
     "Invalid request: locate.symbol is required"),
    ("go_to_definition", {"locate": {"file_path": "main.py", "find": "place_order"}},
     "Invalid request: locate.line is required with locate.file_path"),
    ("go_to_definition", {"locate": {"line": 11, "find": "place_order"}}, "Invalid request: locate.file_path is required"),
    ("find_definition", {"symbol_name": "place_order", "file_path": "", "line_number": 11},
     "Invalid request: file_path is required"),
    ("find_definition", {"symbol_name": " ", "file_path": "main.py", "line_number": 11},
     "Invalid request: symbol_name is required"),
    ("find_references", {"path": "", "line": 4, "character": 5}, "Invalid request: path is required"),
    ("dependenciesOf", {"file_path": "../x.py", "symbol": "main"},
     "Invalid request: file_path is outside the project root"),
    ("pathsBetween", {"from": {"file_path": "main.py", "symbol": "main"}, "to": {"file_path": "", "symbol": "main"}},
     "Invalid request: to.file_path is required"),
    ("pathsBetween", {"from": {"file_path": "main.py", "symbol": "main"}, "to": {"file_path": "main.py", "symbol": " "}},
     "Invalid request: to.symbol is required"),
    ("pathsBetween", {"from": {"file_path": "main.py", "symbol": HUGE}, "to": {"file_path": "main.py", "symbol": "x"}},
     "Invalid request: from.symbol is too long"),
])
def test_mcp_error_names_the_tool_argument(mcp, tool, arguments, message):
    """The whole opening of the error: the tool's argument (nested ones dotted), never the API's field."""
    is_error, text = mcp.call(tool, arguments)
    assert is_error and text.startswith(f"Error executing tool {tool}: {message}"), text[:300]


# --------------------------------------------------------------------------- CLI

def _codetrace() -> list[str]:
    script = Path(sys.executable).parent / "codetrace"
    return [str(script)] if script.exists() else [sys.executable, "-m", "jupyter_codetrace.cli"]


# (arguments after `--root ROOT`, exit status, words on stdout (0/1) or stderr (2))
CLI = [
    # found: 0
    (["def", "main.py:11", "place_order"], 0, "shop/orders.py"),
    (["refs", "shop/pricing.py:4", "total"], 0, "shop/orders.py"),
    (["trace", "total"], 0, "total"),
    (["deps", "main.py", "main"], 0, "## Graph"),
    (["dependents", "shop/pricing.py", "round_price"], 0, "## Graph"),
    (["paths", "main.py:main", "shop/pricing.py:round_price"], 0, "round_price"),
    (["symbols", "order"], 0, "place_order"),
    (["graph"], 0, '"nodes"'),
    (["index"], 0, "files"),
    # not found: 1, the message on stdout
    (["def", "main.py:11", UNKNOWN], 1, "Names on that line: place_order"),
    (["def", "missing.py:1", "place_order"], 1, "does not exist"),
    (["def", "blob.py:1", "hidden"], 1, "skipped (binary)"),
    (["refs", "shop/pricing.py:4", UNKNOWN], 1, "Names on that line: total"),
    (["refs", "shop:1", "total"], 1, "is a folder"),
    (["trace", UNKNOWN], 1, "symbol_not_found"),
    (["deps", "main.py", UNKNOWN], 1, "That file defines"),
    (["dependents", "NOTES.md", "main"], 1, "no supported language"),
    (["paths", "main.py:main", "main.py:main"], 1, "same symbol"),
    (["paths", "shop/chain.py:step1", "shop/recursion.py:factorial"], 1, "No path"),
    (["symbols", UNKNOWN], 1, "No symbol matches"),
    # invalid: 2, the message on stderr
    (["def", "main.py:1.5", "place_order"], 2, "FILE:LINE"),
    (["def", "main.py:0", "place_order"], 2, "line must be >= 1"),
    (["def", "main.py:11:0", "place_order"], 2, "column must be >= 1"),
    (["def", "main.py", "place_order"], 2, "FILE:LINE"),
    (["def", "main.py:11", ""], 2, "symbol is required"),
    (["def", "main.py:11", "place_order", "--mode", "bogus"], 2, "invalid choice"),
    (["def", "main.py:11", "place_order", "--cell", "x"], 2, "invalid int value"),
    (["def", "main.py:11", "place_order", "--cell", "1"], 2, "not a notebook"),
    (["def", "../outside.py:1", "place_order"], 2, "outside the project root"),
    (["refs", "shop/pricing.py:-4", "total"], 2, "line must be >= 1"),
    (["refs", "/etc/passwd:1", "root"], 2, "outside the project root"),
    (["trace", ""], 2, "symbol is required"),
    (["trace", "total", "--file", "shop/../../outside.py"], 2, "outside the project root"),
    (["deps", "/etc/passwd", "main"], 2, "outside the project root"),
    (["deps", "main.py", ""], 2, "symbol is required"),
    (["dependents", "", "main"], 2, "file is required"),
    (["paths", "main.py", "shop/pricing.py:total"], 2, "FILE:SYMBOL"),
    (["paths", "../a.py:main", "main.py:main"], 2, "from_file"),
    (["symbols", ""], 2, "query is required"),
    (["symbols", "order", "--limit", "0"], 2, "limit must be >= 1"),
    (["symbols", "order", "--limit", "1.5"], 2, "invalid int value"),
    (["symbols", "order", "--limit", "5000"], 2, "between 1 and 1000"),
    (["graph", "--format", "bogus"], 2, "invalid choice"),
    (["export", "--format", "bogus"], 2, "invalid choice"),
    (["export", "-o", "main.py/index.scip"], 2, "cannot write"),
    (["index", "--bogus"], 2, "unrecognized arguments"),
    (["bogus"], 2, "invalid choice"),
    ([], 2, "required"),
]
# Commands whose --root is wrong: 2 before anything runs (mcp and lsp never start serving).
CLI_BAD_ROOT = ["def main.py:11 place_order", "trace total", "symbols order", "graph", "index", "mcp", "lsp", "export"]


@pytest.mark.parametrize("arguments, status, words", CLI, ids=[" ".join(a)[:60] or "no-command" for a, _, _ in CLI])
def test_cli(root, tmp_path, arguments, status, words):
    arguments = [str(root / a) if a == "main.py/index.scip" else a for a in arguments]
    done = subprocess.run([*_codetrace(), "--root", str(root), *arguments], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == status, f"exit {done.returncode}\nstdout: {done.stdout[:1500]}\nstderr: {done.stderr[:1500]}"
    assert "Traceback" not in done.stderr, done.stderr
    if status == 2:
        assert words in done.stderr and not done.stdout, f"stdout: {done.stdout[:500]}\nstderr: {done.stderr[:1500]}"
        assert done.stderr.strip(), "a usage error says why on stderr"
    else:
        assert words in done.stdout, f"stdout: {done.stdout[:1500]}\nstderr: {done.stderr[:500]}"
    if any("/etc/passwd" in a or ".." in a for a in arguments):
        assert "/etc/passwd" not in done.stderr and "outside.py" not in done.stderr and "a.py" not in done.stderr


@pytest.mark.parametrize("command", CLI_BAD_ROOT)
def test_cli_bad_root(tmp_path, command):
    done = subprocess.run([*_codetrace(), "--root", str(tmp_path / "no_such_folder"), *command.split()],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (done.returncode, done.stdout[:500], done.stderr[:1500])
    assert "no_such_folder" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not done.stdout


def test_every_cli_subcommand_is_in_the_table():
    from jupyter_codetrace.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    tabled = {a[0] for a, _, _ in CLI if a} | {c.split()[0] for c in CLI_BAD_ROOT}
    assert set(commands) - {"bogus"} <= tabled, set(commands) - tabled


# --------------------------------------------------------------------------- magics

MAGICS = [
    ("def", "", "the following arguments are required: symbol"),
    ("def", "place_order main.py:1.5", "whole numbers"),
    ("def", "place_order main.py:-3", "whole numbers"),
    ("def", "place_order main.py:0", "line must be >= 1"),
    ("def", "place_order main.py:11:0", "column must be >= 1"),
    ("def", "place_order ../outside.py:1", "outside the project root"),
    ("def", "place_order /etc/passwd:1", "outside the project root"),
    ("def", "place_order --mode bogus", "invalid choice"),
    ("def", "place_order --cell 2", "--cell needs"),
    ("def", "place_order main.py --cell 2", "--cell needs"),
    ("def", "place_order main.py:11 --cell x", "invalid int value"),
    ("def", "place_order main.py:11 --cell 1", "not a notebook"),
    ("def", '"unbalanced', "No closing quotation"),
    ("refs", "", "the following arguments are required: symbol"),
    ("refs", "total shop/pricing.py", "give FILE:LINE"),
    ("refs", "total shop/pricing.py:1.5", "whole numbers"),
    ("refs", "total shop/pricing.py:0", "line must be >= 1"),
    ("refs", "total --cell 1", "--cell needs"),
    ("refs", "x ../outside.py:1", "outside the project root"),
    ("trace", "", "the following arguments are required: symbol"),
    ("trace", "total --file ../outside.py", "outside the project root"),
    ("trace", "total --bogus", "unrecognized arguments"),
    ("deps", "", "the following arguments are required: symbol"),
    ("deps", UNKNOWN, "not defined in the project"),
    ("deps", "../outside.py:main", "outside the project root"),
    ("deps", "main extra", "unrecognized arguments"),
    ("dependents", "", "the following arguments are required: symbol"),
    ("dependents", UNKNOWN, "not defined in the project"),
    ("dependents", "/etc/passwd:main", "outside the project root"),
    ("paths", "", "the following arguments are required: source, target"),
    ("paths", "main", "the following arguments are required: target"),
    ("paths", f"main {UNKNOWN}", "not defined in the project"),
    ("paths", "../outside.py:main main.py:main", "outside the project root"),
    ("codetrace", "/no/such/folder", "is not a folder"),
]


@pytest.fixture(scope="module")
def shell(root):
    from IPython import get_ipython as current_shell
    from IPython.testing.globalipapp import get_ipython

    ip = get_ipython() or current_shell()   # started once per process; a second start answers None
    ip.run_line_magic("load_ext", "jupyter_codetrace")
    ip.run_line_magic("codetrace", str(root))
    yield ip
    ip.run_line_magic("codetrace", str(FIXTURE))   # as tests/test_magics.py has it


def _run_magic(shell, magic: str, line: str):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        result = shell.run_cell(f"%{magic} {line}".rstrip(), store_history=False)
    return result, out.getvalue()


@pytest.mark.parametrize("magic, line, words", MAGICS, ids=[f"%{m} {l}"[:60] for m, l, _ in MAGICS])
def test_magic_usage_errors(shell, magic, line, words):
    from IPython.core.error import UsageError

    result, shown = _run_magic(shell, magic, line)
    assert isinstance(result.error_in_exec, UsageError), f"{type(result.error_in_exec).__name__}: {shown[:1500]}"
    assert "Traceback" not in shown and "UsageError:" in shown, shown[:1500]
    assert words in shown, shown[:1500]
    if words == "outside the project root":
        assert "passwd" not in shown and "outside.py" not in shown, shown   # the path is not echoed


def test_every_magic_is_in_the_table(shell):
    from jupyter_codetrace.magics import CodetraceMagics

    magics = set(CodetraceMagics.magics["line"])
    assert magics <= {m for m, _, _ in MAGICS}, magics - {m for m, _, _ in MAGICS}


@pytest.mark.parametrize("magic, line, status", [
    ("def", UNKNOWN, "symbol_not_found"),
    ("def", f"{UNKNOWN} main.py:11", "reference_not_found"),
    ("def", "place_order missing.py:1", "file_not_indexed"),
    ("refs", f"{UNKNOWN} shop/pricing.py:4", "reference_not_found"),
    ("trace", UNKNOWN, "symbol_not_found"),
])
def test_magic_not_found_is_a_result_not_an_error(shell, magic, line, status):
    result, shown = _run_magic(shell, magic, line)
    assert result.error_in_exec is None, shown[:1500]
    assert result.result.status == status and result.result.message, result.result.to_dict()
