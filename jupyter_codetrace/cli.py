"""The ``codetrace`` command: a thin surface over ``Project``.

Exit codes: 0 found, 1 not found, 2 invalid input.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import CodetraceError, InvalidRequest
from .project import Project

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codetrace", description="Code navigation: definitions, references, call graphs, paths, symbols.")
    parser.add_argument("--root", default=".", help="project root (default: the current folder)")
    parser.add_argument("--json", action="store_true", help="print the result's to_dict() as JSON")
    commands = parser.add_subparsers(dest="command", required=True)

    d = commands.add_parser("def", help="go to definition: codetrace def FILE:LINE[:COL] SYMBOL")
    d.add_argument("location")
    d.add_argument("symbol")
    d.add_argument("--mode", default="definition", choices=["definition", "declaration", "type_definition"])

    r = commands.add_parser("refs", help="find references: codetrace refs FILE:LINE[:COL] SYMBOL")
    r.add_argument("location")
    r.add_argument("symbol")
    r.add_argument("--include-declaration", action="store_true")

    s = commands.add_parser("symbols", help="fuzzy symbol search: codetrace symbols QUERY")
    s.add_argument("query")
    s.add_argument("--limit", type=int, default=50)

    t = commands.add_parser("trace", help="everything about a symbol: codetrace trace SYMBOL [--file F] [--references] [--calls] [--types]")
    t.add_argument("symbol")
    t.add_argument("--file", default=None, help="the file where you met the symbol (searched first)")
    t.add_argument("--references", action="store_true", help="add every use, grouped by file")
    t.add_argument("--calls", action="store_true", help="add the incoming and outgoing call trees")
    t.add_argument("--types", action="store_true", help="add the type hierarchy and type flows")
    t.add_argument("--all", action="store_true", help="references, calls and types")

    for name, what in (("deps", "what SYMBOL depends on"), ("dependents", "who depends on SYMBOL")):
        g = commands.add_parser(name, help=f"{what}: codetrace {name} FILE SYMBOL")
        g.add_argument("file")
        g.add_argument("symbol")
        g.add_argument("--include-name-matches", action="store_true", help="also follow edges matched by name only")

    p = commands.add_parser("paths", help="how two symbols connect: codetrace paths FILE:SYMBOL FILE:SYMBOL")
    p.add_argument("source")
    p.add_argument("target")
    p.add_argument("--include-name-matches", action="store_true")
    p.add_argument("--format", choices=["text", "dot", "svg"], default="text")

    e = commands.add_parser("graph", help="export the whole graph: codetrace graph [--format json|dot|graphml]")
    e.add_argument("--format", choices=["json", "dot", "graphml"], default="json")
    e.add_argument("--include-name-matches", action="store_true")

    commands.add_parser("index", help="index now and print statistics")

    m = commands.add_parser("mcp", help="serve the tools to LLM agents over MCP (stdio, or --http PORT)")
    m.add_argument("--http", type=int, default=None, metavar="PORT", help="streamable HTTP on 127.0.0.1:PORT")
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "mcp":
        import threading

        project = Project(args.root)
        # Index while the MCP SDK is imported (about a second each on a cold start).
        threading.Thread(target=project.index, name="codetrace-warm-up", daemon=True).start()
        try:
            from .mcp_server import serve
        except ImportError:
            print("codetrace: the MCP server needs the `mcp` package: pip install 'jupyter_codetrace[mcp]'",
                  file=sys.stderr)
            return 2
        serve(project, args.http)
        return 0
    try:
        project = Project(args.root)
        if args.command == "index":
            stats = project.index()
            print(json.dumps(stats.to_dict(), indent=2) if args.json else stats.to_text())
            return 0
        if args.command == "def":
            file, line, column = _location(args.location)
            result = project.find_definition(args.symbol, file, line, column, mode=args.mode)
        elif args.command == "refs":
            file, line, column = _location(args.location)
            result = project.find_references(args.symbol, file, line, column,
                                             include_declaration=args.include_declaration)
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
                print(result.to_dot() if args.format == "dot" else result.to_svg(), end="")
                return 0
        elif args.command == "graph":
            result = project.call_graph(include_name_matches=args.include_name_matches)
            if args.format == "dot":
                print(result.to_dot(), end="")
                return 0
            if args.format == "graphml":
                print(_graphml(result), end="")
                return 0
            args.json = True
        else:
            result = project.symbols(args.query, limit=args.limit)
    except InvalidRequest as error:
        print(f"codetrace: {error}", file=sys.stderr)
        return 2
    except CodetraceError as error:
        print(f"codetrace: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    elif args.command in ("trace", "deps", "dependents", "paths"):
        print(result.to_text(), end="")
    else:
        print(result.to_markdown(), end="")
    return 0 if result.status == "found" else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
