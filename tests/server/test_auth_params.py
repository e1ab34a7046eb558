"""Jupyter's own URL arguments on every route, against a real jupyter-server (pytest-jupyter).

A link such as ``…/codetrace/api/trace?symbol=total&token=…`` is how Jupyter authenticates
without a header: the token in the URL must authenticate the call and not be taken for an
unknown argument (400); ``_xsrf`` (forms' XSRF token) is accepted the same way. A wrong token
is still refused, and a real unknown argument is still a 400.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import tornado.httpclient

from jupyter_codetrace import Project
from jupyter_codetrace.server.handlers import ROUTES

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"
NO_HEADER = {"Authorization": ""}  # jp_fetch adds the token header unless told otherwise

QUERIES = {
    "definition": ({"symbol": "place_order", "file": "main.py", "line": "11"},
                   lambda p: p.find_definition("place_order", "main.py", 11)),
    "references": ({"symbol": "total", "file": "shop/pricing.py", "line": "4"},
                   lambda p: p.find_references("total", "shop/pricing.py", 4)),
    "trace": ({"symbol": "total", "calls": "true"}, lambda p: p.trace("total", calls=True)),
    "dependencies": ({"file": "main.py", "symbol": "main"}, lambda p: p.dependencies_of("main.py", "main")),
    "dependents": ({"file": "shop/pricing.py", "symbol": "round_price"},
                   lambda p: p.dependents_of("shop/pricing.py", "round_price")),
    "paths": ({"from_file": "main.py", "from_symbol": "main", "to_file": "shop/pricing.py",
               "to_symbol": "round_price"},
              lambda p: p.paths_between(("main.py", "main"), ("shop/pricing.py", "round_price"))),
    "symbols": ({"query": "order", "limit": "5"}, lambda p: p.symbols("order", 5)),
    "graph": ({}, lambda p: p.call_graph()),
}


@pytest.fixture
def jp_server_config():
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}},
            "Codetrace": {"root": str(FIXTURE)}}


@pytest.fixture(scope="module")
def api():
    return Project(FIXTURE)


@pytest.fixture
def token(jp_serverapp):
    return jp_serverapp.identity_provider.token


async def _ready(jp_fetch):
    for _ in range(200):
        status = json.loads((await jp_fetch("codetrace", "api", "status")).body)
        if status["state"] == "ready":
            return status
        time.sleep(0.05)
    raise AssertionError(f"the index never got ready: {status}")


async def _fetch(jp_fetch, route, **kwargs):
    try:
        return await jp_fetch("codetrace", "api", route, **kwargs)
    except tornado.httpclient.HTTPClientError as error:
        return error.response


def test_every_query_route_is_covered():
    # library-source answers only after another answer led to a library file: its own test below
    assert set(QUERIES) | {"status", "reindex", "openapi.json", "library-source"} == set(ROUTES)


async def test_a_token_in_the_url_authenticates_the_library_source_route(jp_fetch, token):
    await _ready(jp_fetch)
    response = await _fetch(jp_fetch, "library-source", params={"file": "json/__init__.py", "token": token,
                                                                "_xsrf": "2|abc|def|1"}, headers=dict(NO_HEADER))
    assert response.code == 404 and json.loads(response.body)["status"] == "file_not_indexed"


@pytest.mark.parametrize("route", sorted(QUERIES))
async def test_a_token_in_the_url_authenticates_every_query_route(jp_fetch, api, token, route):
    await _ready(jp_fetch)
    params, query = QUERIES[route]
    response = await _fetch(jp_fetch, route, params={**params, "token": token}, headers=dict(NO_HEADER))
    assert response.code == 200, response.body
    assert json.loads(response.body) == query(api).to_dict()


@pytest.mark.parametrize("route", sorted(QUERIES))
async def test_xsrf_and_token_arguments_are_accepted_with_the_header_too(jp_fetch, api, token, route):
    await _ready(jp_fetch)
    params, query = QUERIES[route]
    response = await _fetch(jp_fetch, route, params={**params, "token": token, "_xsrf": "2|abc|def|1"})
    assert response.code == 200, response.body
    assert json.loads(response.body) == query(api).to_dict()


async def test_a_post_with_the_token_in_the_url_and_in_the_body(jp_fetch, api, token):
    await _ready(jp_fetch)
    body = json.dumps({"symbol": "place_order", "file": "main.py", "line": 11, "token": token})
    response = await _fetch(jp_fetch, "definition", method="POST", body=body, params={"token": token},
                            headers=dict(NO_HEADER))
    assert response.code == 200, response.body
    assert json.loads(response.body) == api.find_definition("place_order", "main.py", 11).to_dict()


async def test_the_other_routes_take_the_token_in_the_url(jp_fetch, token):
    await _ready(jp_fetch)
    for route in ("status", "openapi.json"):
        response = await _fetch(jp_fetch, route, params={"token": token}, headers=dict(NO_HEADER))
        assert response.code == 200, (route, response.body)
    response = await _fetch(jp_fetch, "reindex", method="POST", body="{}", params={"token": token},
                            headers=dict(NO_HEADER))
    assert response.code == 202
    await _ready(jp_fetch)


async def test_a_wrong_token_in_the_url_is_refused(jp_fetch):
    await _ready(jp_fetch)
    response = await _fetch(jp_fetch, "symbols", params={"query": "order", "token": "wrong"}, headers=dict(NO_HEADER))
    assert response.code == 403


async def test_an_unknown_argument_is_still_a_400(jp_fetch, token):
    await _ready(jp_fetch)
    response = await _fetch(jp_fetch, "symbols", params={"query": "order", "tokens": token})
    assert response.code == 400
    assert json.loads(response.body)["field"] == "tokens"
