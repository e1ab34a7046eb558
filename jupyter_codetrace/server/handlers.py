"""REST routes under ``{base_url}codetrace/api/``: parse the arguments, call one ``Project``
query in the executor, answer with its ``to_dict()`` (or its text, DOT or SVG).

HTTP statuses: 200 found, 404 a not-found status (the body says what was there), 400 invalid
input (the message names the field), 403 a path outside the root (without echoing it) — and
jupyter-server's own 403 for unauthenticated calls. 503 with ``Retry-After`` while the first
index of the root runs.

A route's arguments are its Project method's parameters, read from the signature
(``jupyter_codetrace.parameters``), plus the route's own ``additions`` and ``format``.
"""

from __future__ import annotations

import asyncio
import json

import tornado.web
from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join

from ..errors import CodetraceError, InvalidRequest
from ..parameters import Parameter, call, parameters as query_parameters
from .openapi import openapi_document
from .registry import ProjectRegistry

__all__ = ["ROUTES", "route_handlers"]

AUTH_RESOURCE = "codetrace"
_TRUE, _FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off", ""}
# The server's own arguments, read by jupyter-server before a handler runs: `?token=` is how
# Jupyter links authenticate, `_xsrf` carries the XSRF token of forms. Every route accepts them
# (and passes them to no query).
SERVER_ARGUMENTS = frozenset({"token", "_xsrf"})
_FORMATS = {
    "json": None,
    "text": "text/plain; charset=utf-8",
    "dot": "text/vnd.graphviz; charset=utf-8",
    "svg": "image/svg+xml",
}


class _Base(APIHandler):
    auth_resource = AUTH_RESOURCE

    def initialize(self, registry: ProjectRegistry):
        self.registry = registry

    def _error(self, status: int, body: dict) -> None:
        self.set_status(status)
        self.finish(json.dumps(body))


def _flag(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidRequest(f"{name} must be true or false, got {value!r}", field=name)


class _QueryHandler(_Base):
    """One route over one Project query: ``query`` names the method, whose signature gives the
    accepted arguments (``parameters.parameters``); ``additions`` are the route's own arguments
    beside them, ``formats`` the accepted ``format`` values (the ``format`` argument)."""

    query: str = ""
    additions: tuple[Parameter, ...] = ()
    formats: tuple[str, ...] = ("json",)
    parameters: tuple[Parameter, ...] = ()   # the query's and the additions, set per route
    params: dict[str, str] = {}              # name -> JSON type, of the same

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.parameters = query_parameters(cls.query) + tuple(cls.additions)
        cls.params = {p.name: p.type for p in cls.parameters}

    def run(self, project, args: dict):
        return call(project, self.query, args)

    def _arguments(self, body: dict | None) -> dict:
        raw: dict = {}
        if body is not None:
            raw.update((name, value) for name, value in body.items() if name not in SERVER_ARGUMENTS)
        else:
            for name in self.request.query_arguments:
                if name.isdigit() or name in SERVER_ARGUMENTS:
                    continue  # JupyterLab's cache-busting `&1795368168814`; `?token=`, `_xsrf`
                raw[name] = self.get_query_argument(name)
        unknown = sorted(set(raw) - set(self.params) - {"format"})
        if unknown:
            raise InvalidRequest(f"unknown argument {unknown[0]!r}; this route takes: "
                                 + ", ".join(sorted(self.params)), field=unknown[0])
        args = {}
        for name, value in raw.items():
            kind = self.params.get(name, "string")
            if value is None:
                continue
            if kind == "boolean":
                args[name] = _flag(name, value)
            elif kind == "integer" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
                args[name] = int(value)
            else:
                args[name] = value  # the query validates (and names the field when it is wrong)
        return args

    async def _answer(self, body: dict | None) -> None:
        registry = self.registry
        try:
            args = self._arguments(body)
            fmt = str(args.pop("format", "json")).lower()
            if fmt not in self.formats:
                raise InvalidRequest(f"format must be one of {', '.join(self.formats)}, got {fmt!r}", field="format")
        except InvalidRequest as error:
            return self._error(400, {"status": "invalid_request", "message": str(error), "field": error.field})
        if not registry.ready:
            progress = registry.state.to_dict()
            self.set_header("Retry-After", "2")
            return self._error(503, {"status": "indexing", "message": "The project is being indexed; retry shortly.",
                                     "progress": progress})
        loop = asyncio.get_running_loop()
        try:
            project = await registry.project_for(args.get("file"))   # a notebook's kernel may run another Python
            result = await loop.run_in_executor(registry.executor, self.run, project, args)
            payload = await loop.run_in_executor(registry.executor, _render, result, fmt)
        except InvalidRequest as error:
            if error.outside_root:
                return self._error(403, {"status": "forbidden", "field": error.field,
                                         "message": f"{error.field or 'path'} is outside the project root"})
            return self._error(400, {"status": "invalid_request", "message": str(error), "field": error.field})
        except CodetraceError as error:
            return self._error(500 if fmt != "svg" else 501, {"status": "error", "message": str(error)})
        self.set_status(200 if result.status == "found" else 404)
        if fmt == "json" or result.status != "found":
            self.finish(json.dumps(result.to_dict(), ensure_ascii=False))
        else:
            self.finish(payload, set_content_type=_FORMATS[fmt])

    @tornado.web.authenticated
    @authorized
    async def get(self):
        await self._answer(None)

    @tornado.web.authenticated
    @authorized
    async def post(self):
        try:
            body = json.loads(self.request.body or b"{}")
        except ValueError:
            return self._error(400, {"status": "invalid_request", "message": "the body is not valid JSON", "field": None})
        if not isinstance(body, dict):
            return self._error(400, {"status": "invalid_request", "message": "the body must be a JSON object",
                                     "field": None})
        await self._answer(body)


def _render(result, fmt: str):
    if result.status != "found" or fmt == "json":
        return None
    if fmt == "text":
        return result.to_text()
    if fmt == "dot":
        return result.to_dot()
    return result.to_svg()


def _editor_text(project, a: dict) -> None:
    """``text``: the editor's unsaved buffer of ``file``, answered from instead of the disk (an
    overlay, issue 18); a request about that file without it means the editor holds what is on
    disk again (saved or reverted)."""
    file, text = a.get("file"), a.get("text")
    if not isinstance(file, str) or not file.strip():
        return
    if text is not None:
        if not isinstance(text, str):
            raise InvalidRequest("text must be the file's text (a string)", field="text")
        project.set_overlay(file, text)
    elif project.has_overlay(file):
        project.clear_overlay(file)


# The routes' own arguments, beside the query's (which come from the Project signature).
TEXT = Parameter("text", "string", required=False)   # the editor's unsaved buffer of `file` (_editor_text)


class DefinitionHandler(_QueryHandler):
    query, additions = "find_definition", (TEXT,)

    def run(self, project, a):
        _editor_text(project, a)
        return super().run(project, a)


class ReferencesHandler(DefinitionHandler):
    query = "find_references"


class TraceHandler(_QueryHandler):
    query, formats = "trace", ("json", "text")


class DependenciesHandler(_QueryHandler):
    query, formats = "dependencies_of", ("json", "text", "dot", "svg")


class DependentsHandler(DependenciesHandler):
    query = "dependents_of"


class PathsHandler(_QueryHandler):
    query, formats = "paths_between", ("json", "text", "dot", "svg")


class SymbolsHandler(_QueryHandler):
    query = "symbols"


class GraphHandler(_QueryHandler):
    query, formats = "call_graph", ("json", "dot")


class LibrarySourceHandler(_QueryHandler):
    query, formats = "library_source", ("json", "text")


class StatusHandler(_Base):
    @tornado.web.authenticated
    @authorized
    async def get(self):
        data = self.registry.state.to_dict()
        data["root"] = "."  # paths in answers are relative to it; the absolute root is not disclosed
        data["contents_path"] = self.registry.contents_path  # where that is in JupyterLab's file tree
        self.finish(json.dumps(data))


class ReindexHandler(_Base):
    @tornado.web.authenticated
    @authorized
    async def post(self):
        started = self.registry.start_indexing()
        self.set_status(202)
        self.finish(json.dumps({**self.registry.state.to_dict(), "started_now": started}))


class OpenAPIHandler(_Base):
    @tornado.web.authenticated
    @authorized
    async def get(self):
        self.finish(json.dumps(openapi_document()))


ROUTES = {
    "definition": DefinitionHandler, "references": ReferencesHandler, "trace": TraceHandler,
    "dependencies": DependenciesHandler, "dependents": DependentsHandler, "paths": PathsHandler,
    "symbols": SymbolsHandler, "graph": GraphHandler, "library-source": LibrarySourceHandler,
    "status": StatusHandler, "reindex": ReindexHandler,
    "openapi.json": OpenAPIHandler,
}


def route_handlers(base_url: str, registry: ProjectRegistry) -> list[tuple]:
    return [(url_path_join(base_url, "codetrace", "api", name), handler, {"registry": registry})
            for name, handler in ROUTES.items()]
