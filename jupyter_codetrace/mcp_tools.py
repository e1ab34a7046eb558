"""The MCP tools' work, without the MCP SDK: arguments -> one ``Project`` query -> the seed's text
and the result's ``to_dict()``. ``mcp_server`` registers these with the SDK (which validates the
arguments against the schemas it publishes); ``mcp_front`` calls them directly for the first tool
calls, while the SDK is still loading. Importing this module imports neither the SDK nor the
project (the project loads on a thread)."""

from __future__ import annotations

import dataclasses
import os
import threading
import typing

from .dataclass_code import dataclass
from .errors import CodetraceError, InvalidRequest
from .mcp_budget import fit_structured, fit_text
from .render.text import plural

if typing.TYPE_CHECKING:
    from .project import Project

__all__ = ["Tools", "ToolAnswer", "ToolFailure"]

_MAX_REFERENCES = 150
# find_definition's not-found answers open with the seed's wording (seed 000, "Edge Cases");
# a built-in's message already is the seed's "Built-in symbol (no source available)".
_SEED_000_ERRORS = {"reference_not_found": "No reference at specified location.",
                    "unresolved": "Symbol could not be resolved (possibly external)."}


class ToolFailure(Exception):
    """The tool could not answer (an invalid request, a project that would not open): the MCP
    server reports the message as a tool error."""


@dataclass(frozen=True)
class ToolAnswer:
    """A tool's answer: the text and the structured content (the result's to_dict()), each within
    TEXT_BUDGET characters and saying what was cut (mcp_budget)."""

    text: str
    data: dict | None = None

    @classmethod
    def of(cls, text: str, data: dict | None = None) -> ToolAnswer:
        return cls(fit_text(text), fit_structured(data))

    def to_wire(self) -> dict:
        """The tool result as the SDK puts it on the wire (CallToolResult dumped without None fields),
        before the protocol's own additions (``mcp_front`` learns those from the SDK)."""
        wire = {"content": [{"text": self.text, "type": "text"}], "isError": False}
        if self.data is not None:
            wire["structuredContent"] = self.data
        return wire


# Each tool's argument for a field of the Python API (InvalidRequest.field): a tool error names
# what the agent wrote (`file_path is required`, not `file is required`). The tools' argument
# tables: parameters.py and tests/test_parameter_lists.py.
_ARGUMENTS: dict[str, dict[str, str]] = {
    "find_definition": {"symbol": "symbol_name", "file": "file_path", "line": "line_number",
                        "column": "column_number"},
    "go_to_definition": {"symbol": "locate.find", "file": "locate.file_path", "line": "locate.line",
                         "mode": "mode"},
    "find_references": {"file": "path", "line": "line", "column": "character", "symbol": "character",
                        "include_declaration": "include_declaration"},
    "codebase_trace": {"symbol": "symbol", "file": "file", "references": "references", "calls": "calls",
                       "types": "types"},
    "dependenciesOf": {"file": "file_path", "symbol": "symbol"},
    "dependentsOf": {"file": "file_path", "symbol": "symbol"},
    "pathsBetween": {"from_file": "from.file_path", "from_symbol": "from.symbol", "to_file": "to.file_path",
                     "to_symbol": "to.symbol"},
    "search_symbols": {"query": "query", "limit": "limit"},
}
# Each tool's method (pathsBetween's arguments are renamed first: ``Tools.answer``).
_METHODS = {name: name for name in _ARGUMENTS if name != "pathsBetween"} | {"dependenciesOf": "dependencies_of",
                                                                          "dependentsOf": "dependents_of"}
_LOCATE_BY_NAME = {"symbol": "locate.symbol", "mode": "mode"}


def _renamed(message: str, field: str | None, argument: str | None) -> str:
    """``message`` (which opens with the API's ``field``, e.g. "file is required", or "from file
    is required" for ``from_file``) with the tool's ``argument`` in its place."""
    if not field or not argument or argument == field:
        return message
    for spelled in (field, field.replace("_", " ")):
        if message == spelled or message.startswith(spelled + " "):
            return argument + message[len(spelled):]
    return f"{argument}: {message}"


class Tools:
    """The tool implementations over one project.

    Given a path, the project is created on a thread — importing tree-sitter and the index, then
    indexing — while the server (or the front) starts, so the handshake and the tool list do not
    wait for it; the first tool call does (``project``)."""

    def __init__(self, root: str | os.PathLike | Project, start: bool = True):
        self._root = root
        self._project: Project | None = None if isinstance(root, (str, os.PathLike)) else root
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self.indexed = threading.Event()   # the first index is done (or failed)
        self._started = False
        if start:
            self.start()

    def start(self) -> None:
        """Begin loading the project (once; ``start=False`` defers it to this call)."""
        if not self._started:
            self._started = True
            threading.Thread(target=self._load, args=(self._root,), name="codetrace-mcp-index", daemon=True).start()

    def _load(self, root) -> None:
        try:
            if self._project is None:
                from .project import Project

                self._project = Project(root)
        except BaseException as error:  # reported by the first tool call
            self._error = error
        finally:
            self._ready.set()
        if self._project is None:
            self.indexed.set()
            return
        try:
            self._project.index()
        finally:
            self.indexed.set()
        if isinstance(root, (str, os.PathLike)):   # a project it was given is the giver's to run
            self._project.watch()   # an agent's edits are taken in before its next question

    @property
    def project(self) -> Project:
        self._ready.wait()
        if self._error is not None:
            raise ToolFailure(f"The project could not be opened: {self._error}")
        return self._project

    def call(self, tool: str | dict, query, *args, **kwargs):
        """``query(*args, **kwargs)``; an InvalidRequest becomes a tool error naming the tool's own
        argument (``_ARGUMENTS[tool]``, or the mapping ``tool``), not the Python API's field."""
        try:
            return query(*args, **kwargs)
        except InvalidRequest as error:
            names = tool if isinstance(tool, dict) else _ARGUMENTS.get(tool, {})
            argument = names.get(error.field, error.field)
            if error.outside_root:
                raise ToolFailure(f"Invalid request: {argument or 'path'} is outside the project root; "
                                  "give a path relative to the project root.") from None
            raise ToolFailure(f"Invalid request: {_renamed(str(error), error.field, argument)}") from None
        except CodetraceError as error:
            raise ToolFailure(str(error)) from None

    def answer(self, tool: str, arguments: dict) -> ToolAnswer:
        """The tool named as on the wire, with its arguments as validated against its schema (every
        argument given, defaults filled in): what the SDK's registered function would call."""
        if tool == "pathsBetween":   # `from` is a Python keyword
            return self.paths_between(arguments["from"], arguments["to"])
        return getattr(self, _METHODS[tool])(**arguments)

    # ------------------------------------------------------------------ definitions
    def find_definition(self, symbol_name: str, file_path: str, line_number: int,
                        column_number: int | None = None) -> ToolAnswer:
        result = self.call("find_definition", self.project.find_definition, symbol_name, file_path, line_number, column_number)
        if result.found:
            return ToolAnswer.of(result.to_text(), result.to_dict())
        lead = _SEED_000_ERRORS.get(result.status)  # the seed's sentence first, then the details
        return ToolAnswer.of((f"{lead}\n" if lead else "") + _not_found_text(result), result.to_dict())

    def go_to_definition(self, locate: dict, mode: str = "definition", include_hover: bool = True,
                         include_code: bool = True) -> ToolAnswer:
        if not isinstance(locate, dict):
            raise ToolFailure("Invalid request: locate must be {file_path, line, find} or {symbol}")
        by_name = "symbol" in locate and locate.get("file_path") is None and locate.get("line") is None \
            and locate.get("find") is None
        if by_name and mode != "definition":
            # by name, in the mode asked: the engine says when it fell back to the definition
            result = self.call(_LOCATE_BY_NAME, self.project.find_definition, locate["symbol"], None, None, None, mode)
        elif by_name:
            trace = self.call(_LOCATE_BY_NAME, self.project.trace, locate["symbol"])
            if not trace.found:
                return ToolAnswer.of(f"# {_title(mode)}\n\n**{trace.status}**: {trace.message}\n", trace.to_dict())
            result = trace.definition
        else:
            file_path, line = locate.get("file_path"), locate.get("line")
            key = "find" if locate.get("find") is not None or "symbol" not in locate else "symbol"
            find = locate.get(key)
            if find is None:
                raise ToolFailure("Invalid request: locate.find (the text of the name on that line) is required")
            if line is None and file_path is not None:
                raise ToolFailure("Invalid request: locate.line is required with locate.file_path (to look a name up "
                                "anywhere in the project, give locate={symbol})")
            names = {**_ARGUMENTS["go_to_definition"], "symbol": f"locate.{key}"}
            result = self.call(names, self.project.find_definition, find, file_path, line, None, mode)
        shown = result
        if result.found:
            shown = dataclasses.replace(result, doc=result.doc if include_hover else None,
                                        code=result.code if include_code else None)
        return ToolAnswer.of(shown.to_markdown(), result.to_dict())

    # ------------------------------------------------------------------ references
    def find_references(self, path: str, line: int, character: int,
                        include_declaration: bool = False) -> ToolAnswer:
        result = self.call("find_references", self.project.find_references, None, path, line, character, include_declaration)
        if not result.found:
            return ToolAnswer.of(_not_found_text(result), result.to_dict())
        lines = [f"status: found", f"count: {plural(result.count, 'reference')} in {plural(result.files, 'file')}",
                 f"definition: {result.definition.where()}", ""]
        if not result.references:
            lines.append("No references found.")  # seed 003: an empty answer says so
        for ref in result.references[:_MAX_REFERENCES]:
            lines.append(f"{ref.file}:{ref.line}:{ref.column} [{ref.usage}{', test' if ref.test else ''}] {ref.context}")
        if result.count > _MAX_REFERENCES:
            lines.append(f"… {result.count - _MAX_REFERENCES} more references not shown")
        if result.re_exports:
            lines += ["", "re-exported by: " + ", ".join(f"{e['file']} as {e['exported_as']}" for e in result.re_exports)]
        return ToolAnswer.of("\n".join(lines) + "\n", result.to_dict())

    # ------------------------------------------------------------------ trace and graph
    def codebase_trace(self, symbol: str, file: str | None = None, references: bool = False,
                       calls: bool = False, types: bool = False) -> ToolAnswer:
        result = self.call("codebase_trace", self.project.trace, symbol, file, references, calls, types)
        return ToolAnswer.of(result.to_text(), result.to_dict())

    def dependencies_of(self, file_path: str, symbol: str) -> ToolAnswer:
        result = self.call("dependenciesOf", self.project.dependencies_of, file_path, symbol)
        return ToolAnswer.of(result.to_text(), result.to_dict())

    def dependents_of(self, file_path: str, symbol: str) -> ToolAnswer:
        result = self.call("dependentsOf", self.project.dependents_of, file_path, symbol)
        return ToolAnswer.of(result.to_text(), result.to_dict())

    def paths_between(self, source: dict, target: dict) -> ToolAnswer:
        for name, value in (("from", source), ("to", target)):
            if not isinstance(value, dict):
                raise ToolFailure(f"Invalid request: {name} must be {{file_path, symbol}}")
        # a missing or empty member is the query's to name (`to.file_path is required`)
        result = self.call("pathsBetween", self.project.paths_between, (source.get("file_path"), source.get("symbol")),
                           (target.get("file_path"), target.get("symbol")))
        return ToolAnswer.of(result.to_text(), result.to_dict())

    def search_symbols(self, query: str, limit: int = 20) -> ToolAnswer:
        result = self.call("search_symbols", self.project.symbols, query, limit)
        text = result.to_text() if result.matches else f"No symbol matches '{query}'.\n"
        return ToolAnswer.of(text, result.to_dict())


def _title(mode: str) -> str:
    return {"declaration": "Declaration Result", "type_definition": "Type definition Result"}.get(mode, "Definition Result")


def _not_found_text(result) -> str:
    text = f"{result.status}: {result.message}\n"
    names = [s.get("name") for s in result.suggestions if s.get("name")]
    files = [f"{s['file']}:{s['line']}" for s in result.suggestions if s.get("file") and s.get("line")]
    if names and not files:
        text += "Did you mean: " + ", ".join(dict.fromkeys(names)) + "\n"
    elif files:
        text += "Candidates: " + ", ".join(files[:10]) + "\n"
    return text
