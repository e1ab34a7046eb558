"""The ``codetrace`` command: a thin surface over ``Project``.

Exit codes: 0 found, 1 not found, 2 invalid input.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time

from .errors import CodetraceError, InvalidRequest

# Project (tree-sitter, the index, networkx) is imported where a command needs it, so that
# `codetrace mcp` can start answering while it loads, and `--help` is instant.

__all__ = ["main", "build_parser"]


def _location(text: str) -> tuple[str, int, int | None]:
    """``FILE:LINE[:COL]`` (the file itself may contain colons on Windows-like paths: split from the right)."""
    parts = text.rsplit(":", 2)
    try:
        if len(parts) == 3 and parts[2].isdigit() and parts[1].isdigit():
            return parts[0], int(parts[1]), int(parts[2])
        head, line = text.rsplit(":", 1)
        return head, int(line), None
    except ValueError:
        raise InvalidRequest(f"expected FILE:LINE[:COL], got {text!r}", field="location") from None


_LOCATION_HELP = ("where the name is written: FILE relative to the root (or absolute "
                  "inside it), LINE and COL 1-based (COL counts characters; without it, the name is "
                  "looked up anywhere on that line). Example: app/main.py:38 or app/main.py:38:12")

_CELL_HELP = "for a notebook (.ipynb): the code cell's 0-based index; LINE is then the line within that cell"


def _global_options(parser: argparse.ArgumentParser, *, defaults: bool) -> None:
    """The options every command accepts, before or after its name.

    The top-level parser holds the defaults; each subcommand declares the same options with
    ``argparse.SUPPRESS`` defaults, so an option left out after the command does not overwrite
    the value given (or defaulted) before it.
    """
    root_default = "." if defaults else argparse.SUPPRESS
    json_default = False if defaults else argparse.SUPPRESS
    parser.add_argument("--root", metavar="DIR", default=root_default,
                        help="project root: every path is relative to it (default: the current folder)")
    parser.add_argument("--json", action="store_true", default=json_default,
                        help="print the result as JSON (its to_dict()) instead of Markdown/text")
    parser.add_argument("--python", metavar="INTERPRETER", default=None if defaults else argparse.SUPPRESS,
                        help="the Python whose standard library and site-packages library names resolve "
                             "into (e.g. .venv/bin/python; default: $CODETRACE_PYTHON, else the one running "
                             "codetrace)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codetrace",
        description="Code navigation: definitions, references, call graphs, paths, symbols.",
        epilog="Global options (--root, --json, --python) may be given before or after the command. "
               "Exit status: 0 found, 1 not found, 2 invalid input. "
               "`codetrace COMMAND --help` describes a command's arguments.")
    _global_options(parser, defaults=True)
    common = argparse.ArgumentParser(add_help=False)
    _global_options(common, defaults=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, usage_example: str, description: str = "") -> argparse.ArgumentParser:
        return commands.add_parser(
            name, parents=[common], help=summary,
            description=f"{summary[0].upper()}{summary[1:]}. {description}".strip(),
            epilog=f"Example: {usage_example}")

    d = command("def", "go to the definition of the name written at a position",
                "codetrace --root fixtures/python_app def app/main.py:38 User",
                "Prints the definition's file, position, code, signature and docs.")
    d.add_argument("location", metavar="FILE:LINE[:COL]", help=_LOCATION_HELP)
    d.add_argument("symbol", metavar="SYMBOL", help="the name as written at that position (plain or dotted: User, User.save)")
    d.add_argument("--mode", default="definition", choices=["definition", "declaration", "type_definition"],
                   help="definition (default); declaration (e.g. a C/C++ prototype or a .pyi stub); "
                        "type_definition (the definition of the name's type)")
    d.add_argument("--cell", type=int, default=None, metavar="N", help=_CELL_HELP)

    r = command("refs", "find every reference to the name written at a position",
                "codetrace --root fixtures/python_app refs app/main.py:38 User",
                "Lists each use with its usage kind (call, import, read, write, type-ref).")
    r.add_argument("location", metavar="FILE:LINE[:COL]", help=_LOCATION_HELP)
    r.add_argument("symbol", metavar="SYMBOL", help="the name as written at that position (plain or dotted)")
    r.add_argument("--include-declaration", action="store_true", help="also list the declaration itself")
    r.add_argument("--cell", type=int, default=None, metavar="N", help=_CELL_HELP)

    s = command("symbols", "fuzzy symbol search across the project",
                "codetrace --root fixtures/python_app symbols user")
    s.add_argument("query", metavar="QUERY", help="(part of) a name; letters may be spread out (usr sav)")
    s.add_argument("--limit", type=int, default=50, metavar="N", help="at most N matches (default: 50)")

    t = command("trace", "everything about a symbol, as YAML",
                "codetrace --root fixtures/graph_py trace place_order --file main.py --all",
                "The definition always; references, call trees and types on request.")
    t.add_argument("symbol", metavar="SYMBOL", help="a plain or dotted name (place_order, Order.checkout)")
    t.add_argument("--file", default=None, metavar="FILE", help="the file where you met the symbol (searched first)")
    t.add_argument("--references", action="store_true", help="add every use, grouped by file")
    t.add_argument("--calls", action="store_true", help="add the incoming and outgoing call trees")
    t.add_argument("--types", action="store_true", help="add the type hierarchy and type flows")
    t.add_argument("--all", action="store_true", help="references, calls and types")

    for name, what in (("deps", "what SYMBOL depends on (calls, references, base types), transitively"),
                       ("dependents", "who depends on SYMBOL (callers, referrers, subtypes), transitively")):
        g = command(name, what, f"codetrace --root fixtures/graph_py {name} main.py main",
                    "Printed as a '## Graph' section (a --CALLS--> b chains) and a '## Nodes' section.")
        g.add_argument("file", metavar="FILE", help="the file that defines SYMBOL (relative to the root)")
        g.add_argument("symbol", metavar="SYMBOL", help="a plain or dotted name defined in FILE")
        g.add_argument("--include-name-matches", action="store_true",
                       help="also follow call edges matched by name only (less precise)")

    p = command("paths", "how two symbols connect through the call graph (shortest paths first)",
                "codetrace --root fixtures/graph_py paths main.py:main shop/pricing.py:round_price")
    p.add_argument("source", metavar="FILE:SYMBOL", help="where the path starts: the defining file and the name")
    p.add_argument("target", metavar="FILE:SYMBOL", help="where the path ends: the defining file and the name")
    p.add_argument("--include-name-matches", action="store_true",
                   help="also follow call edges matched by name only (less precise)")
    p.add_argument("--format", choices=["text", "dot", "svg"], default="text",
                   help="text (default), Graphviz DOT, or SVG (needs Graphviz's dot); ignored with --json")

    e = command("graph", "export the whole call graph",
                "codetrace --root fixtures/graph_py graph --format graphml > graph.graphml")
    e.add_argument("--format", choices=["json", "dot", "graphml"], default="json",
                   help="json (default: nodes and edges), Graphviz DOT, or GraphML")
    e.add_argument("--include-name-matches", action="store_true",
                   help="also include call edges matched by name only (less precise)")

    x = command("export", "write the whole index for code-intelligence platforms (SCIP)",
                "codetrace --root fixtures/graph_py export --format scip -o index.scip",
                "One SCIP index (https://github.com/sourcegraph/scip, protobuf) for Sourcegraph and other "
                "platforms: a document per indexed file (a notebook: its code cells), every definition, resolved "
                "reference and import with its symbol, symbol documentation, signatures and relationships; "
                "ranges in UTF-16 code units. Documents unchanged since the last export are reused. "
                "Needs the scip extra: pip install 'jupyter_codetrace[scip]'.")
    x.add_argument("--format", choices=["scip"], default="scip", help="scip (the only format, the default)")
    x.add_argument("-o", "--output", default="index.scip", metavar="FILE",
                   help="the file to write (default: index.scip in the current folder)")

    command("index", "index the project now and print statistics", "codetrace --root fixtures/graph_py index",
            "Not needed before queries: every query re-indexes what changed.")

    m = command("mcp", "serve the navigation tools to LLM agents over MCP",
                "codetrace mcp --root /path/to/repo",
                "Speaks MCP over stdio (the default) or streamable HTTP with --http.")
    m.add_argument("--http", type=int, default=None, metavar="PORT",
                   help="serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio")
    command("lsp", "serve editors over the Language Server Protocol (stdio)",
            "codetrace lsp --root /path/to/repo",
            "Speaks LSP over stdin/stdout for VS Code, Neovim, JupyterLab (jupyter-lsp) and any LSP client: "
            "definition, declaration, typeDefinition, references, hover, documentSymbol, workspace/symbol, "
            "call hierarchy and type hierarchy, answering over the editor's unsaved buffers; the first index "
            "is reported with $/progress. The root is --root when given, else the client's workspace folder. "
            "Needs the lsp extra: pip install 'jupyter_codetrace[lsp]'.")
    return parser


def _file_symbol(text: str, field: str) -> tuple[str, str]:
    """``FILE:SYMBOL`` (split at the last colon: symbols have none)."""
    file, colon, symbol = text.rpartition(":")
    if not colon or not file or not symbol:
        raise InvalidRequest(f"expected FILE:SYMBOL, got {text!r}", field=field)
    return file, symbol


def _graphml(result) -> str:
    import io

    import networkx as nx

    graph = nx.MultiDiGraph()
    for node in result.nodes:
        graph.add_node(node.id, **{k: v for k, v in node.to_dict().items() if k != "id" and not isinstance(v, list)})
    for edge in result.edges:
        graph.add_edge(edge.source, edge.target, kind=edge.kind, file=edge.file, line=edge.line,
                       resolution=edge.resolution)
    buffer = io.BytesIO()
    nx.write_graphml(graph, buffer)
    return buffer.getvalue().decode("utf-8")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "mcp":
        return _serve_mcp(args)
    if args.command == "lsp":
        return _serve_lsp(args)
    # The project is closed once the answer is out: that writes the graph's snapshot for the next
    # run (the exit hook of graph/build.py finds no graph once the project is freed).
    with contextlib.ExitStack() as stack:
        answer = _run(args, stack)
        if answer is None:
            return 2
        text, status = answer
        try:
            sys.stdout.write(text)
            sys.stdout.flush()  # inside the try: a closed pipe is noticed here, not at exit
        except BrokenPipeError:
            # The reader went away (`codetrace ... | head`): stop quietly. Python would flush stdout
            # again at exit and report the error there; point the descriptor at devnull, as the
            # Python documentation recommends ("Note on SIGPIPE" in the signal module's page).
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    return status


# At most this long the MCP SDK waits for the first index before it loads, when the front can
# answer tool calls meanwhile (a request only the SDK answers, such as `ping`, waits as long).
_MCP_SDK_WAITS_SECONDS = 2.0


def _serve_mcp(args: argparse.Namespace) -> int:
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        print("codetrace: the MCP server needs the `mcp` package: pip install 'jupyter_codetrace[mcp]'",
              file=sys.stderr)
        return 2
    if not os.path.isdir(args.root):
        print(f"codetrace: --root {args.root!r} is not a folder", file=sys.stderr)
        return 2
    # Over stdio, the handshake, the tool list and the first tool calls are answered at once
    # (from the SDK's own earlier answers, and by the same tools) while the SDK loads (mcp_front);
    # CODETRACE_MCP_FRONT=0 turns that off. When the front can answer tool calls, the project (its
    # imports and the first index) loads first and the SDK after it; else the SDK first (the
    # handshake waits for it), then the project on a thread. Tool calls wait for the project.
    if args.python:
        os.environ["CODETRACE_PYTHON"] = args.python  # what the server's Project reads
    front = None
    if args.http is None and os.environ.get("CODETRACE_MCP_FRONT", "1") != "0":
        from .mcp_front import Front

        front = Front()
        front.start()   # before the tools' imports: the handshake is answered meanwhile
    from .mcp_tools import Tools

    tools = Tools(args.root, start=False)
    if front is not None:
        front.use(tools)
        if front.answers_calls:   # the SDK's imports would slow the first answers (the GIL): after them
            tools.start()
            tools.indexed.wait(_MCP_SDK_WAITS_SECONDS)
    from .mcp_server import serve

    try:
        serve(tools, args.http)
    finally:
        if front is not None:
            front.close()
    return 0


def _serve_lsp(args: argparse.Namespace) -> int:
    import importlib.util

    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        print("codetrace: the language server needs pygls and lsprotocol: pip install 'jupyter_codetrace[lsp]'",
              file=sys.stderr)
        return 2
    root = None if args.root in (".", None) else args.root   # the default: the client's workspace folder
    if root is not None and not os.path.isdir(root):
        print(f"codetrace: --root {root!r} is not a folder", file=sys.stderr)
        return 2
    from .lsp import serve

    serve(root, getattr(args, "python", None))
    return 0


class _ProgressBar:
    """Indexing progress on a terminal (stderr): files done, files/s and time left, redrawn at most
    ten times a second, erased when done. Only shown once indexing has taken half a second."""

    def __init__(self, stream):
        self.stream = stream
        self.started = time.monotonic()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, done: int, total: int, _path: str) -> None:
        now = time.monotonic()
        elapsed = now - self.started
        if elapsed < 0.5 or (now - self.drawn < 0.1 and done < total) or total <= 0:
            return
        self.drawn = now
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        width = 24
        filled = int(width * done / total)
        self.stream.write(f"\rIndexing [{'#' * filled}{'.' * (width - filled)}] {done}/{total} files "
                          f"{rate:,.0f} files/s, {left:,.0f} s left ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _index_with_progress(project):
    """Index now, with a progress bar when stderr is a terminal (silent when piped or redirected)."""
    if not sys.stderr.isatty():
        return project.index()
    bar = _ProgressBar(sys.stderr)
    try:
        return project.index(progress=bar)
    finally:
        bar.close()


def _run(args: argparse.Namespace, stack: contextlib.ExitStack) -> tuple[str, int] | None:
    """One query: the text to print and the exit status (None: invalid input, already reported).
    The project is closed by ``stack``."""
    try:
        from .project import Project

        project = stack.enter_context(Project(args.root, python=args.python))
        if args.command != "index" and sys.stderr.isatty():
            _index_with_progress(project)  # the first index of a large root shows how far it is
        if args.command == "index":
            stats = _index_with_progress(project)
            return (json.dumps(stats.to_dict(), indent=2) if args.json else stats.to_text()) + "\n", 0
        if args.command == "def":
            file, line, column = _location(args.location)
            result = project.find_definition(args.symbol, file, line, column, mode=args.mode, cell=args.cell)
        elif args.command == "refs":
            file, line, column = _location(args.location)
            result = project.find_references(args.symbol, file, line, column,
                                             include_declaration=args.include_declaration, cell=args.cell)
        elif args.command == "trace":
            every = args.all
            result = project.trace(args.symbol, args.file, references=args.references or every,
                                   calls=args.calls or every, types=args.types or every)
        elif args.command in ("deps", "dependents"):
            query = project.dependencies_of if args.command == "deps" else project.dependents_of
            result = query(args.file, args.symbol, include_name_matches=args.include_name_matches)
        elif args.command == "paths":
            result = project.paths_between(_file_symbol(args.source, "from"), _file_symbol(args.target, "to"),
                                           include_name_matches=args.include_name_matches)
            if result.status == "found" and not args.json and args.format != "text":
                return (result.to_dot() if args.format == "dot" else result.to_svg()), 0
        elif args.command == "export":
            try:
                result = project.export_scip(args.output)
            except OSError as error:  # -o names a folder, or a path under a file: the caller's argument
                raise InvalidRequest(f"cannot write {args.output!r}: {error.strerror or error}", field="output") from None
        elif args.command == "graph":
            result = project.call_graph(include_name_matches=args.include_name_matches)
            if args.format == "dot":
                return result.to_dot(), 0
            if args.format == "graphml":
                return _graphml(result), 0
            args.json = True
        else:
            result = project.symbols(args.query, limit=args.limit)
    except InvalidRequest as error:
        print(f"codetrace: {error}", file=sys.stderr)
        return None
    except CodetraceError as error:
        print(f"codetrace: {error}", file=sys.stderr)
        return "", 1
    status = 0 if result.status == "found" else 1
    if args.json:
        return json.dumps(result.to_dict(), indent=2, ensure_ascii=False) + "\n", status
    if args.command in ("trace", "deps", "dependents", "paths"):
        return result.to_text(), status
    return result.to_markdown(), status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
