"""The OpenAPI 3.1 description of the REST routes, built from the handlers' parameter lists (the
Project signatures, ``jupyter_codetrace.parameters``) and the result schema
(``schema/results.schema.json``: payloads, error bodies, status), so they cannot drift apart."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

__all__ = ["openapi_document", "RESPONSE_SCHEMAS"]

# Route -> the result schema of its 200/404 JSON body.
RESPONSE_SCHEMAS = {
    "definition": "Definition", "references": "References", "trace": "Trace", "dependencies": "Graph",
    "dependents": "Graph", "paths": "Graph", "symbols": "Symbols", "graph": "Graph",
    "library-source": "LibrarySource",
}
_SUMMARIES = {
    "definition": "Go to definition of the name at file:line[:column] (mode: definition, declaration, type_definition)",
    "references": "Every use of the symbol at file:line[:column], with usage kinds",
    "trace": "Everything about a symbol: definition, and with flags references, call trees, types (format=text: YAML)",
    "dependencies": "What a symbol depends on, transitively (format=text|dot|svg)",
    "dependents": "Who depends on a symbol, transitively (format=text|dot|svg)",
    "paths": "How two symbols connect, in either direction, shortest first (format=text|dot|svg)",
    "symbols": "Fuzzy workspace symbol search",
    "graph": "The whole graph (format=dot for Graphviz)",
    "library-source": "Read-only text of a library file an answer led to (json/__init__.py, node_modules/...); "
                      "any other file is refused (404)",
}


def _components() -> dict:
    """The result schema's $defs (every payload, the error bodies and the status) as components."""
    text = resources.files("jupyter_codetrace").joinpath("schema/results.schema.json").read_text(encoding="utf-8")
    return json.loads(text.replace('"#/$defs/', '"#/components/schemas/'))["$defs"]


def _schema(parameter) -> dict:
    schema = {"type": parameter.type}
    if parameter.default is not None:
        schema["default"] = parameter.default
    return schema


def _json(ref: str) -> dict:
    return {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}


@lru_cache(maxsize=1)
def openapi_document() -> dict:
    from .handlers import ROUTES, _QueryHandler

    paths: dict = {}
    for name, handler in ROUTES.items():
        path = f"/codetrace/api/{name}"
        if name in RESPONSE_SCHEMAS:
            parameters = [{"name": p.name, "in": "query", "required": p.required, "schema": _schema(p)}
                          for p in handler.parameters]
            formats = list(handler.formats)
            if len(formats) > 1:
                parameters.append({"name": "format", "in": "query", "required": False,
                                   "schema": {"enum": formats, "default": "json"}})
            ok = _json(RESPONSE_SCHEMAS[name])
            if "text" in formats:
                ok["text/plain"] = {"schema": {"type": "string"}}
            if "dot" in formats:
                ok["text/vnd.graphviz"] = {"schema": {"type": "string"}}
            if "svg" in formats:
                ok["image/svg+xml"] = {"schema": {"type": "string"}}
            responses = {
                "200": {"description": "Found", "content": ok},
                "400": {"description": "Invalid input; the message names the field", "content": _json("InvalidRequest")},
                "403": {"description": "A path outside the project root, or not authenticated / not authorized "
                                       "(then jupyter-server's own body)", "content": _json("Forbidden")},
                "404": {"description": "Not found: the body says what was there",
                        "content": _json(RESPONSE_SCHEMAS[name])},
                "503": {"description": "Indexing; retry after the Retry-After header", "content": _json("Indexing")},
            }
            body_schema = {"type": "object", "required": [p.name for p in handler.parameters if p.required],
                           "additionalProperties": False,
                           "properties": {p.name: _schema(p) for p in handler.parameters}}
            if len(formats) > 1:
                body_schema["properties"]["format"] = {"enum": formats}
            paths[path] = {
                "get": {"summary": _SUMMARIES[name], "operationId": f"get_{name}", "parameters": parameters,
                        "responses": responses},
                "post": {"summary": _SUMMARIES[name] + " (JSON body, same arguments)", "operationId": f"post_{name}",
                         "requestBody": {"required": True, "content": {"application/json": {"schema": body_schema}}},
                         "responses": responses},
            }
            assert issubclass(handler, _QueryHandler)
        elif name == "status":
            paths[path] = {"get": {"summary": "Indexing state, progress, languages, skipped files", "operationId": "get_status",
                                   "responses": {"200": {"description": "Status", "content": _json("Status")}}}}
        elif name == "reindex":
            paths[path] = {"post": {"summary": "Index again in the background", "operationId": "post_reindex",
                                    "responses": {"202": {"description": "Started (or already running)",
                                                          "content": _json("Status")}}}}
        elif name == "openapi.json":
            paths[path] = {"get": {"summary": "This document", "operationId": "get_openapi",
                                   "responses": {"200": {"description": "OpenAPI 3.1",
                                                         "content": {"application/json": {"schema": {"type": "object"}}}}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "jupyter_codetrace REST API", "version": "1",
                 "description": "Code navigation over the server's root. Paths are relative to the root; "
                                "lines and columns are 1-based (columns in code points)."},
        "paths": paths,
        "components": {"schemas": _components(),
                       "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization"}}},
        "security": [{"token": []}],
    }
