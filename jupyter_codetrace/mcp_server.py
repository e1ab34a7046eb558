"""The MCP server: code navigation for LLM agents, in the tool shapes agents already use.

``codetrace mcp [--root DIR]`` serves stdio; ``--http PORT`` serves streamable HTTP on
127.0.0.1. Every tool is a thin adapter — arguments -> one ``Project`` query -> the seed's text
format — and also returns the result's ``to_dict()`` as structured content. This is the only
module that imports the MCP SDK (``mcp`` 2.x).
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import threading
import typing
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field
from typing_extensions import NotRequired, TypedDict

from . import __version__
from .errors import CodetraceError, InvalidRequest
from .mcp_budget import TEXT_BUDGET, fit_structured, fit_text
from .render.text import plural

if typing.TYPE_CHECKING:
    from .project import Project

__all__ = ["build_server", "serve", "TEXT_BUDGET"]

_MAX_REFERENCES = 150
# find_definition's not-found answers open with the seed's wording (seed 000, "Edge Cases");
# a built-in's message already is the seed's "Built-in symbol (no source available)".
_SEED_000_ERRORS = {"reference_not_found": "No reference at specified location.",
                    "unresolved": "Symbol could not be resolved (possibly external)."}

_INSTRUCTIONS = """Code navigation over one repository (paths are relative to its root; lines and
columns are 1-based). Use these tools instead of grepping or reading whole files:
- search_symbols: you know (part of) a name but not where it lives.
- go_to_definition / find_definition: you see a name in a file and want its definition
  (with its code, signature and docs). go_to_definition also takes a bare symbol name.
- find_references: every use of the symbol at a position, grouped with usage kinds.
- codebase_trace: the whole story of a symbol in one call (definition, references, call trees,
  types) as compact YAML.
- dependenciesOf / dependentsOf / pathsBetween: the call graph — what a symbol needs, who needs
  it, and how two symbols connect.
Not-found answers say what was there instead (names on that line, closest names, files)."""


# ---------------------------------------------------------------------- argument schemas
# Every parameter carries a description; numbers are strict JSON integers (the strings "12" or
# the boolean true are refused, not coerced) with 1 as their minimum; enumerations are enums.


_Positive = Annotated[int, Field(strict=True, ge=1)]


def _position(description: str):
    return Annotated[int, Field(strict=True, ge=1, description=description)]


FilePath = Annotated[str, Field(description="A file path relative to the project root (or absolute inside it), "
                                            "POSIX-style, e.g. 'app/main.py'.")]
Mode = Literal["definition", "declaration", "type_definition"]
Symbol = Annotated[str, Field(description="A plain or dotted symbol name, e.g. 'place_order' or 'Order.checkout'.")]


class Locate(TypedDict):
    """Where the name is: {file_path, line, find} for a name written at a line, or {symbol} to search the
    whole project for a bare or dotted name."""

    file_path: NotRequired[FilePath]
    line: NotRequired[_position("The 1-based line where the name is written (with file_path).")]
    find: NotRequired[Annotated[str, Field(description="The name as written on that line, e.g. 'send_message' "
                                                        "(with file_path and line).")]]
    symbol: NotRequired[Annotated[str, Field(description="A bare or dotted name to search across the project, "
                                                          "e.g. 'Order.checkout' (instead of file_path/line/find).")]]


class Endpoint(TypedDict):
    """A symbol given by its defining file and its name."""

    file_path: FilePath
    symbol: Symbol


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


def _text_result(text: str, data: dict | None = None) -> CallToolResult:
    """The text and the structured content (the result's to_dict()), each within TEXT_BUDGET
    characters and saying what was cut (mcp_budget)."""
    return CallToolResult(content=[TextContent(type="text", text=fit_text(text))],
                          structured_content=fit_structured(data))


class _Tools:
    """The tool implementations over one project.

    Given a path, the project is created on a thread — importing tree-sitter, the index and
    networkx, then indexing — while the server starts, so the handshake and the tool list do
    not wait for it; the first tool call does (``project``)."""

    def __init__(self, root: str | os.PathLike | Project):
        self._project: Project | None = None if isinstance(root, (str, os.PathLike)) else root
        self._error: BaseException | None = None
        self._ready = threading.Event()
        threading.Thread(target=self._load, args=(root,), name="codetrace-mcp-index", daemon=True).start()

    def _load(self, root) -> None:
        try:
            if self._project is None:
                from .project import Project

                self._project = Project(root)
        except BaseException as error:  # reported by the first tool call
            self._error = error
        finally:
            self._ready.set()
        if self._project is not None:
            self._project.index()
            if isinstance(root, (str, os.PathLike)):   # a project it was given is the giver's to run
                self._project.watch()   # an agent's edits are taken in before its next question

    @property
    def project(self) -> Project:
        self._ready.wait()
        if self._error is not None:
            raise ToolError(f"The project could not be opened: {self._error}")
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
                raise ToolError(f"Invalid request: {argument or 'path'} is outside the project root; "
                                "give a path relative to the project root.") from None
            raise ToolError(f"Invalid request: {_renamed(str(error), error.field, argument)}") from None
        except CodetraceError as error:
            raise ToolError(str(error)) from None

    # ------------------------------------------------------------------ definitions
    def find_definition(self, symbol_name: str, file_path: str, line_number: int,
                        column_number: int | None = None) -> CallToolResult:
        result = self.call("find_definition", self.project.find_definition, symbol_name, file_path, line_number, column_number)
        if result.found:
            return _text_result(result.to_text(), result.to_dict())
        lead = _SEED_000_ERRORS.get(result.status)  # the seed's sentence first, then the details
        return _text_result((f"{lead}\n" if lead else "") + _not_found_text(result), result.to_dict())

    def go_to_definition(self, locate: dict, mode: str = "definition", include_hover: bool = True,
                         include_code: bool = True) -> CallToolResult:
        if not isinstance(locate, dict):
            raise ToolError("Invalid request: locate must be {file_path, line, find} or {symbol}")
        by_name = "symbol" in locate and locate.get("file_path") is None and locate.get("line") is None \
            and locate.get("find") is None
        if by_name and mode != "definition":
            # by name, in the mode asked: the engine says when it fell back to the definition
            result = self.call(_LOCATE_BY_NAME, self.project.find_definition, locate["symbol"], None, None, None, mode)
        elif by_name:
            trace = self.call(_LOCATE_BY_NAME, self.project.trace, locate["symbol"])
            if not trace.found:
                return _text_result(f"# {_title(mode)}\n\n**{trace.status}**: {trace.message}\n", trace.to_dict())
            result = trace.definition
        else:
            file_path, line = locate.get("file_path"), locate.get("line")
            key = "find" if locate.get("find") is not None or "symbol" not in locate else "symbol"
            find = locate.get(key)
            if find is None:
                raise ToolError("Invalid request: locate.find (the text of the name on that line) is required")
            if line is None and file_path is not None:
                raise ToolError("Invalid request: locate.line is required with locate.file_path (to look a name up "
                                "anywhere in the project, give locate={symbol})")
            names = {**_ARGUMENTS["go_to_definition"], "symbol": f"locate.{key}"}
            result = self.call(names, self.project.find_definition, find, file_path, line, None, mode)
        shown = result
        if result.found:
            shown = dataclasses.replace(result, doc=result.doc if include_hover else None,
                                        code=result.code if include_code else None)
        return _text_result(shown.to_markdown(), result.to_dict())

    # ------------------------------------------------------------------ references
    def find_references(self, path: str, line: int, character: int,
                        include_declaration: bool = False) -> CallToolResult:
        result = self.call("find_references", self.project.find_references, None, path, line, character, include_declaration)
        if not result.found:
            return _text_result(_not_found_text(result), result.to_dict())
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
        return _text_result("\n".join(lines) + "\n", result.to_dict())

    # ------------------------------------------------------------------ trace and graph
    def codebase_trace(self, symbol: str, file: str | None = None, references: bool = False,
                       calls: bool = False, types: bool = False) -> CallToolResult:
        result = self.call("codebase_trace", self.project.trace, symbol, file, references, calls, types)
        return _text_result(result.to_text(), result.to_dict())

    def dependencies_of(self, file_path: str, symbol: str) -> CallToolResult:
        result = self.call("dependenciesOf", self.project.dependencies_of, file_path, symbol)
        return _text_result(result.to_text(), result.to_dict())

    def dependents_of(self, file_path: str, symbol: str) -> CallToolResult:
        result = self.call("dependentsOf", self.project.dependents_of, file_path, symbol)
        return _text_result(result.to_text(), result.to_dict())

    def paths_between(self, source: dict, target: dict) -> CallToolResult:
        for name, value in (("from", source), ("to", target)):
            if not isinstance(value, dict):
                raise ToolError(f"Invalid request: {name} must be {{file_path, symbol}}")
        # a missing or empty member is the query's to name (`to.file_path is required`)
        result = self.call("pathsBetween", self.project.paths_between, (source.get("file_path"), source.get("symbol")),
                           (target.get("file_path"), target.get("symbol")))
        return _text_result(result.to_text(), result.to_dict())

    def search_symbols(self, query: str, limit: int = 20) -> CallToolResult:
        result = self.call("search_symbols", self.project.symbols, query, limit)
        text = result.to_text() if result.matches else f"No symbol matches '{query}'.\n"
        return _text_result(text, result.to_dict())


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


def build_server(root: str | Project) -> MCPServer:
    """An MCP server over the repository at ``root`` (indexing starts at once, in the background)."""
    tools = _Tools(root)
    server = MCPServer("codetrace", version=__version__, instructions=_INSTRUCTIONS)

    @server.tool(description=(
        "Go to the definition of a name you see at a position. Returns 'Definition for NAME:', "
        "'Defined in: file:line:column', the definition's code, Type, Signature and Exported. "
        "Example: find_definition(symbol_name='User', file_path='app/main.py', line_number=38). "
        "Not found: says which names are on that line, or where same-named definitions are."))
    def find_definition(
        symbol_name: Annotated[str, Field(description="The name as written at that position, e.g. 'User' "
                                                      "(a dotted name such as 'User.save' also works).")],
        file_path: FilePath,
        line_number: _position("The 1-based line where the name is written."),
        column_number: Annotated[_Positive | None, Field(
            description="The 1-based column (in characters) of any letter of the name; optional: without it "
                        "the name is looked up on the whole line.")] = None,
    ) -> CallToolResult:
        return tools.find_definition(symbol_name, file_path, line_number, column_number)

    @server.tool(description=(
        "Definition, declaration (e.g. a C/C++ header prototype or a .pyi stub) or type definition, "
        "rendered as Markdown ('# Definition Result', '### `file`: name (`Kind`)', docs, '## Content'). "
        "locate is {file_path, line, find} (find = the name as written on that line) or {symbol} "
        "(a bare or dotted name, searched across the project). mode: definition | declaration | "
        "type_definition. Example: go_to_definition(locate={'file_path': 'main.py', 'line': 15, "
        "'find': 'send_message'}). Not found: the names on that line or the closest names."))
    def go_to_definition(
        locate: Annotated[Locate, Field(description="Where the name is: {file_path, line, find} (find = the name "
                                                     "as written on that 1-based line) or {symbol} (a bare or "
                                                     "dotted name searched across the project).")],
        mode: Annotated[Mode, Field(description="What to go to: 'definition' (the body), 'declaration' (e.g. a "
                                                "C/C++ prototype or a .pyi stub) or 'type_definition' (the "
                                                "definition of the name's type).")] = "definition",
        include_hover: Annotated[bool, Field(description="Include the docstring / doc comment.")] = True,
        include_code: Annotated[bool, Field(description="Include the definition's source code.")] = True,
    ) -> CallToolResult:
        return tools.go_to_definition(locate, mode, include_hover, include_code)

    @server.tool(description=(
        "Every use of the symbol at path:line:character (1-based; character = column of any letter "
        "of the name). Returns status, count and project-local locations 'file:line:col [usage] code' "
        "with usage kinds call/import/read/write/type-ref. Example: find_references(path='app/models.py', "
        "line=8, character=7). Not found: the names on that line."))
    def find_references(
        path: FilePath,
        line: _position("The 1-based line where the symbol is written."),
        character: _position("The 1-based column (in characters) of any letter of the symbol's name on that line."),
        include_declaration: Annotated[bool, Field(description="Also list the declaration itself.")] = False,
    ) -> CallToolResult:
        return tools.find_references(path, line, character, include_declaration)

    @server.tool(description=(
        "The full semantic story of a symbol as YAML, no line numbers: definition (signature, doc, "
        "parameters, members, resolvedFrom import chain) always; references=true adds uses by file; "
        "calls=true adds incoming/outgoing call trees at full depth; types=true adds hierarchy, "
        "subtypes and type flows. file = where you met the symbol (optional). Example: "
        "codebase_trace(symbol='place_order', calls=true). Not found: the closest names and files."))
    def codebase_trace(
        symbol: Symbol,
        file: Annotated[str | None, Field(description="The file where you met the symbol, relative to the project "
                                                      "root (searched first); optional.")] = None,
        references: Annotated[bool, Field(description="Add every use of the symbol, grouped by file.")] = False,
        calls: Annotated[bool, Field(description="Add the incoming and outgoing call trees.")] = False,
        types: Annotated[bool, Field(description="Add the type hierarchy, subtypes and type flows.")] = False,
    ) -> CallToolResult:
        return tools.codebase_trace(symbol, file, references, calls, types)

    @server.tool(name="dependenciesOf", description=(
        "What a symbol depends on (calls, references, base types), transitively. Output: '## Graph' "
        "(a --CALLS--> b chains) and '## Nodes' (file, offset, limit for a file-read tool, snippets). "
        "Example: dependenciesOf(file_path='main.py', symbol='main'). Empty: 'No dependencies found.' "
        "Not found: the file's symbols or the files where the symbol exists."))
    def dependencies_of(
        file_path: Annotated[str, Field(description="The file that defines the symbol, relative to the project root.")],
        symbol: Annotated[str, Field(description="The symbol's plain or dotted name, e.g. 'main' or 'Order.checkout'.")],
    ) -> CallToolResult:
        return tools.dependencies_of(file_path, symbol)

    @server.tool(name="dependentsOf", description=(
        "Who depends on a symbol (callers, referrers, subtypes), transitively — the blast radius of "
        "a change. Same output as dependenciesOf. Example: dependentsOf(file_path='shop/pricing.py', "
        "symbol='round_price'). Empty: 'No dependents found.'"))
    def dependents_of(
        file_path: Annotated[str, Field(description="The file that defines the symbol, relative to the project root.")],
        symbol: Annotated[str, Field(description="The symbol's plain or dotted name, e.g. 'round_price'.")],
    ) -> CallToolResult:
        return tools.dependents_of(file_path, symbol)

    def paths_between(**arguments) -> CallToolResult:
        return tools.paths_between(arguments.get("from"), arguments.get("to"))

    # The seed names the first argument `from`, a Python keyword: the schema comes from a
    # signature with an alias, and the tool receives the arguments under their wire names.
    def schema_of_paths_between(
        from_: Annotated[Endpoint, Field(alias="from", description="Where the path starts: {file_path, symbol}.")],
        to: Annotated[Endpoint, Field(description="Where the path ends: {file_path, symbol}.")],
    ) -> CallToolResult:
        raise NotImplementedError

    paths_between.__signature__ = inspect.signature(schema_of_paths_between, eval_str=True)
    paths_between.__annotations__ = typing.get_type_hints(schema_of_paths_between, include_extras=True)
    server.add_tool(paths_between, name="pathsBetween", structured_output=False, description=(
        "How two symbols connect through the call graph, in either direction (arrows show the real "
        "one), shortest first. from/to are {file_path, symbol}. Example: pathsBetween(from={'file_path': "
        "'main.py', 'symbol': 'main'}, to={'file_path': 'shop/pricing.py', 'symbol': 'round_price'}). "
        "'No path found.' or 'Invalid query: source and target are the same symbol.'"))

    @server.tool(description=(
        "Fuzzy search for symbols by name across the project: name, kind, file:line, container. "
        "Use it when you know (part of) a name but not the file. Example: search_symbols(query='usr sav')."))
    def search_symbols(
        query: Annotated[str, Field(description="(Part of) a name; letters may be spread out, e.g. 'usr sav'.")],
        limit: Annotated[int, Field(strict=True, ge=1, description="At most this many matches.")] = 20,
    ) -> CallToolResult:
        return tools.search_symbols(query, limit)

    server.codetrace_tools = tools  # for tests and benchmarks: the project behind the tools
    return server


def serve(root: str | Project, http_port: int | None = None) -> None:
    server = build_server(root)
    if http_port is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=http_port)
