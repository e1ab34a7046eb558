"""The REST extension against a real jupyter-server with authentication on (pytest-jupyter).

Each payload equals the Python API's ``to_dict()`` for the same query on the same fixture.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from pathlib import Path

import jsonschema
import pytest
import tornado.httpclient

from jupyter_codetrace import Project
from jupyter_codetrace.server.handlers import ROUTES
from jupyter_codetrace.server.openapi import RESPONSE_SCHEMAS, openapi_document

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"


@pytest.fixture
def jp_server_config():
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
            "Codetrace": {"root": str(FIXTURE)}}


@pytest.fixture(scope="module")
def api():
    return Project(FIXTURE)


async def _ready(jp_fetch):
    for _ in range(200):
        status = json.loads((await jp_fetch("codetrace", "api", "status")).body)
        if status["state"] == "ready":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the index never got ready: {status}")


async def _get(jp_fetch, route, **params):
    try:
        response = await jp_fetch("codetrace", "api", route, params=params)
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
    return response.code, response


def _body(response):
    return json.loads(response.body)


def _validate(route, code, payload):
    doc = openapi_document()
    op = doc["paths"][f"/codetrace/api/{route}"]["get"]
    schema = op["responses"][str(code)]["content"]["application/json"]["schema"]
    jsonschema.Draft202012Validator({**schema, "components": doc["components"]}).validate(payload)


FOUND = [
    ("definition", {"symbol": "place_order", "file": "main.py", "line": 11},
     lambda p: p.find_definition("place_order", "main.py", 11)),
    ("references", {"symbol": "total", "file": "shop/pricing.py", "line": 4, "include_declaration": "true"},
     lambda p: p.find_references("total", "shop/pricing.py", 4, include_declaration=True)),
    ("trace", {"symbol": "total", "references": "1", "calls": "true", "types": "true"},
     lambda p: p.trace("total", references=True, calls=True, types=True)),
    ("dependencies", {"file": "main.py", "symbol": "main"}, lambda p: p.dependencies_of("main.py", "main")),
    ("dependents", {"file": "shop/pricing.py", "symbol": "round_price"},
     lambda p: p.dependents_of("shop/pricing.py", "round_price")),
    ("paths", {"from_file": "main.py", "from_symbol": "main", "to_file": "shop/pricing.py", "to_symbol": "round_price"},
     lambda p: p.paths_between(("main.py", "main"), ("shop/pricing.py", "round_price"))),
    ("symbols", {"query": "order", "limit": "5"}, lambda p: p.symbols("order", 5)),
    ("graph", {}, lambda p: p.call_graph()),
]


@pytest.mark.parametrize("route, params, query", FOUND, ids=[f[0] for f in FOUND])
async def test_found_equals_the_python_api(jp_fetch, api, route, params, query):
    await _ready(jp_fetch)
    code, response = await _get(jp_fetch, route, **params)
    assert code == 200
    payload = _body(response)
    assert payload == query(api).to_dict()
    _validate(route, 200, payload)


@pytest.mark.parametrize("route, params, status", [
    ("definition", {"symbol": "nope", "file": "main.py", "line": 11}, "reference_not_found"),
    ("definition", {"symbol": "x", "file": "missing.py", "line": 1}, "file_not_indexed"),
    ("references", {"symbol": "nope", "file": "main.py", "line": 11}, "reference_not_found"),
    ("trace", {"symbol": "plac_order"}, "symbol_not_found"),
    ("dependencies", {"file": "shop/chain.py", "symbol": "round_price"}, "symbol_not_found"),
    ("dependents", {"file": "nope.py", "symbol": "main"}, "file_not_indexed"),
    ("paths", {"from_file": "shop/chain.py", "from_symbol": "step1", "to_file": "shop/recursion.py",
               "to_symbol": "factorial"}, "no_path"),
    ("paths", {"from_file": "main.py", "from_symbol": "main", "to_file": "main.py", "to_symbol": "main"}, "same_symbol"),
])
async def test_not_found_is_404_with_what_was_there(jp_fetch, route, params, status):
    await _ready(jp_fetch)
    code, response = await _get(jp_fetch, route, **params)
    payload = _body(response)
    assert (code, payload["status"]) == (404, status)
    assert payload["message"]
    _validate(route, 404, payload)


@pytest.mark.parametrize("route, params, field", [
    ("definition", {"symbol": "main", "file": "main.py", "line": "zero"}, "line"),
    ("definition", {"symbol": "main", "file": "main.py", "line": "0"}, "line"),
    ("definition", {"symbol": "main", "file": "main.py", "line": "3", "mode": "sideways"}, "mode"),
    ("definition", {"file": "main.py", "line": "3"}, "symbol"),
    ("references", {"symbol": "main", "file": "main.py", "line": "3", "include_declaration": "maybe"}, "include_declaration"),
    ("symbols", {"query": "a", "limit": "0"}, "limit"),
    ("trace", {"symbol": "main", "format": "svg"}, "format"),
    ("definition", {"symbol": "main", "file": "main.py", "line": "3", "colour": "red"}, "colour"),
])
async def test_invalid_input_is_400_naming_the_field(jp_fetch, route, params, field):
    await _ready(jp_fetch)
    code, response = await _get(jp_fetch, route, **params)
    payload = _body(response)
    assert code == 400 and payload["field"] == field and payload["message"]


@pytest.mark.parametrize("route, params", [
    ("definition", {"symbol": "x", "file": "../../etc/passwd", "line": "1"}),
    ("dependencies", {"file": "/etc/passwd", "symbol": "x"}),
])
async def test_outside_the_root_is_403_without_echoing_the_path(jp_fetch, route, params):
    await _ready(jp_fetch)
    code, response = await _get(jp_fetch, route, **params)
    assert code == 403
    assert "passwd" not in response.body.decode() and "/etc" not in response.body.decode()


async def test_the_frontends_cache_buster_is_ignored(jp_fetch, api):
    await _ready(jp_fetch)
    response = await jp_fetch("codetrace", "api", "symbols", params={"query": "order", "limit": "5", "1795368168814": ""})
    assert json.loads(response.body) == api.symbols("order", 5).to_dict()


async def test_post_bodies_equal_get(jp_fetch, api):
    await _ready(jp_fetch)
    body = json.dumps({"symbol": "place_order", "file": "main.py", "line": 11})
    response = await jp_fetch("codetrace", "api", "definition", method="POST", body=body)
    assert json.loads(response.body) == api.find_definition("place_order", "main.py", 11).to_dict()


async def test_text_dot_and_svg_formats(jp_fetch, api):
    await _ready(jp_fetch)
    code, response = await _get(jp_fetch, "trace", symbol="total", calls="true", format="text")
    assert code == 200 and response.body.decode() == api.trace("total", calls=True).to_text()
    assert response.headers["Content-Type"].startswith("text/plain")
    params = {"from_file": "shop/pricing.py", "from_symbol": "total", "to_file": "shop/pricing.py",
              "to_symbol": "round_price"}
    code, response = await _get(jp_fetch, "paths", format="dot", **params)
    assert code == 200 and response.body.decode().startswith("digraph codetrace {")
    code, response = await _get(jp_fetch, "paths", format="svg", **params)
    assert code == 200 and response.headers["Content-Type"] == "image/svg+xml" and b"</svg>" in response.body


async def test_status_and_reindex(jp_fetch):
    status = await _ready(jp_fetch)
    assert status["files"] >= 10 and "python" in status["languages"] and status["done"] == status["total"]
    assert str(FIXTURE) not in json.dumps(status)
    response = await jp_fetch("codetrace", "api", "reindex", method="POST", body="{}")
    assert response.code == 202
    status = await _ready(jp_fetch)
    assert status["runs"] >= 2


async def test_unauthenticated_requests_are_refused(jp_fetch, http_server_client, jp_base_url):
    await _ready(jp_fetch)
    for route in ROUTES:
        url = f"{jp_base_url}codetrace/api/{route}?" + urllib.parse.urlencode({"symbol": "main"})
        method, body = ("POST", "{}") if route == "reindex" else ("GET", None)
        with pytest.raises(tornado.httpclient.HTTPClientError) as error:
            await http_server_client.fetch(url, method=method, body=body, raise_error=True)
        assert error.value.code == 403, route


def test_openapi_lists_every_route_and_its_parameters():
    doc = openapi_document()
    assert set(doc["paths"]) == {f"/codetrace/api/{name}" for name in ROUTES}
    for name, schema in RESPONSE_SCHEMAS.items():
        get = doc["paths"][f"/codetrace/api/{name}"]["get"]
        assert {p["name"] for p in get["parameters"]} - {"format"} == set(ROUTES[name].params)
        assert get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(schema)
    jsonschema.Draft202012Validator.check_schema({"$defs": doc["components"]["schemas"]})


async def test_openapi_is_served(jp_fetch):
    response = await jp_fetch("codetrace", "api", "openapi.json")
    assert json.loads(response.body) == openapi_document()


class TestBeforeTheFirstIndex:
    @pytest.fixture
    def jp_server_config(self):
        return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
                "Codetrace": {"root": str(FIXTURE), "index_on_start": False}}

    async def test_queries_get_503_with_progress_until_indexed(self, jp_fetch):
        code, response = await _get(jp_fetch, "definition", symbol="main", file="main.py", line="10")
        assert code == 503 and response.headers["Retry-After"]
        payload = _body(response)
        assert payload["status"] == "indexing" and payload["progress"]["state"] == "idle"
        _validate("definition", 503, payload)
        response = await jp_fetch("codetrace", "api", "reindex", method="POST", body="{}")
        assert json.loads(response.body)["started_now"] is True
        await _ready(jp_fetch)
        code, _ = await _get(jp_fetch, "definition", symbol="main", file="main.py", line="10")
        assert code == 200

    async def test_a_later_reindex_does_not_stop_the_answers(self, jp_fetch, jp_serverapp):
        """Only the first index answers 503: a query during a later one (POST reindex) waits for
        it and answers, as each query takes in the changes first anyway."""
        await jp_fetch("codetrace", "api", "reindex", method="POST", body="{}")
        await _ready(jp_fetch)
        project = jp_serverapp.web_app.settings["codetrace_registry"].project
        held, release = threading.Event(), threading.Event()

        def busy():   # a query under way: the next run waits for it, still "indexing"
            with project._context.lock:
                held.set()
                release.wait(10)

        holder = threading.Thread(target=busy)
        holder.start()
        held.wait(10)
        try:
            response = await jp_fetch("codetrace", "api", "reindex", method="POST", body="{}")
            assert json.loads(response.body)["started_now"] is True
            assert json.loads((await jp_fetch("codetrace", "api", "status")).body)["state"] == "indexing"
            threading.Timer(0.5, release.set).start()
            code, response = await _get(jp_fetch, "definition", symbol="main", file="main.py", line="10")
        finally:
            release.set()
            holder.join()
        assert code == 200, _body(response)
        await _ready(jp_fetch)


def test_the_extension_is_enabled_on_install():
    """`pip install -e .` put jupyter-config/ in place: jupyter-server lists the extension enabled."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "jupyter", "server", "extension", "list"],
                          capture_output=True, text=True, timeout=120)
    listing = done.stdout + done.stderr
    import re

    assert re.search(r"^\s+jupyter_codetrace\s.*enabled", listing, re.M), listing
