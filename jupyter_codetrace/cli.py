"""The ``codetrace`` command: a thin surface over ``Project``.

Exit codes: 0 found, 1 not found, 2 invalid input.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import InvalidRequest
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
    parser = argparse.ArgumentParser(prog="codetrace", description="Code navigation: definitions, references, symbols.")
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

    commands.add_parser("index", help="index now and print statistics")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
        else:
            result = project.symbols(args.query, limit=args.limit)
    except InvalidRequest as error:
        print(f"codetrace: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False) if args.json else result.to_markdown(), end="")
    return 0 if result.status == "found" else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
