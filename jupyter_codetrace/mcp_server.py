"""The MCP server: code navigation for LLM agents, in the tool shapes agents already use.

``codetrace mcp [--root DIR]`` serves stdio; ``--http PORT`` serves streamable HTTP on
127.0.0.1. Every tool is a thin adapter — arguments -> one ``Project`` query -> the seed's text
format — and also returns the result's ``to_dict()`` as structured content (the work itself:
``mcp_tools``). This is the only module that imports the MCP SDK (``mcp`` 2.x).
"""

from __future__ import annotations

import inspect
import typing
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field
from typing_extensions import NotRequired, TypedDict

from . import __version__
from .mcp_budget import TEXT_BUDGET
from .mcp_tools import Tools, ToolFailure

if typing.TYPE_CHECKING:
    from .project import Project

__all__ = ["build_server", "serve", "TEXT_BUDGET"]

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


def _result(tool, *arguments) -> CallToolResult:
    """A tool's answer (mcp_tools) as the SDK's result; a ToolFailure becomes a tool error."""
    try:
        answer = tool(*arguments)
    except ToolFailure as failure:
        raise ToolError(str(failure)) from None
    return CallToolResult(content=[TextContent(type="text", text=answer.text)], structured_content=answer.data)


def build_server(root: str | Project | Tools) -> MCPServer:
    """An MCP server over the repository at ``root`` (indexing starts at once, in the background),
    or over the tools given (those the stdio front answers with)."""
    tools = root if isinstance(root, Tools) else Tools(root)
    tools.start()
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
        return _result(tools.find_definition, symbol_name, file_path, line_number, column_number)

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
        return _result(tools.go_to_definition, locate, mode, include_hover, include_code)

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
        return _result(tools.find_references, path, line, character, include_declaration)

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
        return _result(tools.codebase_trace, symbol, file, references, calls, types)

    @server.tool(name="dependenciesOf", description=(
        "What a symbol depends on (calls, references, base types), transitively. Output: '## Graph' "
        "(a --CALLS--> b chains) and '## Nodes' (file, offset, limit for a file-read tool, snippets). "
        "Example: dependenciesOf(file_path='main.py', symbol='main'). Empty: 'No dependencies found.' "
        "Not found: the file's symbols or the files where the symbol exists."))
    def dependencies_of(
        file_path: Annotated[str, Field(description="The file that defines the symbol, relative to the project root.")],
        symbol: Annotated[str, Field(description="The symbol's plain or dotted name, e.g. 'main' or 'Order.checkout'.")],
    ) -> CallToolResult:
        return _result(tools.dependencies_of, file_path, symbol)

    @server.tool(name="dependentsOf", description=(
        "Who depends on a symbol (callers, referrers, subtypes), transitively — the blast radius of "
        "a change. Same output as dependenciesOf. Example: dependentsOf(file_path='shop/pricing.py', "
        "symbol='round_price'). Empty: 'No dependents found.'"))
    def dependents_of(
        file_path: Annotated[str, Field(description="The file that defines the symbol, relative to the project root.")],
        symbol: Annotated[str, Field(description="The symbol's plain or dotted name, e.g. 'round_price'.")],
    ) -> CallToolResult:
        return _result(tools.dependents_of, file_path, symbol)

    def paths_between(**arguments) -> CallToolResult:
        return _result(tools.paths_between, arguments.get("from"), arguments.get("to"))

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
        return _result(tools.search_symbols, query, limit)

    server.codetrace_tools = tools  # for tests and benchmarks: the project behind the tools
    return server


def serve(root: str | Project | Tools, http_port: int | None = None) -> None:
    server = build_server(root)
    if http_port is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=http_port)
