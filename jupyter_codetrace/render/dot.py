"""Graphviz: DOT text for graph results, and SVG through the ``dot`` binary (the only place
that runs it). Without ``dot``, ``to_svg`` raises ``CodetraceError`` saying how to install it."""

from __future__ import annotations

import shutil
import subprocess
from collections import defaultdict

from ..errors import CodetraceError

__all__ = ["graph_to_dot", "to_svg", "available", "INSTALL_HINT"]

INSTALL_HINT = ("Graphviz's `dot` program is needed to draw this graph: install it with "
                "`apt-get install graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or "
                "`conda install graphviz`. The text form (`.to_text()`) and the DOT source "
                "(`.to_dot()`) work without it.")
_STYLE = {"CALLS": 'color="#1f6feb"', "REFERENCES": 'color="#8250df", style=dotted',
          "EXTENDS": 'color="#1a7f37", arrowhead=empty', "IMPLEMENTS": 'color="#1a7f37", style=dashed, arrowhead=empty',
          "IMPORTS": 'color="#8c959f"'}
_SHAPES = {"class": "box", "interface": "box", "struct": "box", "trait": "box", "enum": "box",
           "module": "folder", "type": "box"}
_TIMEOUT_S = 20


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def graph_to_dot(result) -> str:
    from .graph import labels

    names = labels(result)
    inputs = set(result.inputs)
    lines = ["digraph codetrace {", "  rankdir=LR;", '  node [shape=ellipse, fontname="Helvetica", fontsize=11];',
             '  edge [fontname="Helvetica", fontsize=9];']
    by_file = defaultdict(list)
    for node in result.nodes:
        by_file[node.file].append(node)
    for i, (file, nodes) in enumerate(sorted(by_file.items())):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(f"    label={_quote(file)}; style=rounded; color=\"#d0d7de\"; fontsize=10;")
        for node in nodes:
            attrs = [f"label={_quote(names.get(node.id, node.name))}", f"shape={_SHAPES.get(node.kind, 'ellipse')}",
                     f"tooltip={_quote(f'{node.kind} {node.qualified_name} ({node.file}:{node.line})')}"]
            if node.id in inputs:
                attrs.append('style="filled,bold", fillcolor="#fff8c5"')
            lines.append(f"    {_quote(node.id)} [{', '.join(attrs)}];")
        lines.append("  }")
    seen = set()
    for edge in result.edges:
        key = (edge.source, edge.target, edge.kind)
        if key in seen:
            continue
        seen.add(key)
        style = _STYLE.get(edge.kind, "")
        if edge.resolution == "name-only":
            style += ", style=dashed, penwidth=0.8"
        lines.append(f"  {_quote(edge.source)} -> {_quote(edge.target)} [label={_quote(edge.kind)}, {style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def available() -> bool:
    return shutil.which("dot") is not None


def to_svg(dot_source: str) -> str:
    executable = shutil.which("dot")
    if executable is None:
        raise CodetraceError(INSTALL_HINT)
    try:
        done = subprocess.run([executable, "-Tsvg"], input=dot_source.encode("utf-8"), capture_output=True,
                              timeout=_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise CodetraceError(f"Graphviz took longer than {_TIMEOUT_S} s to lay out this graph; "
                             "narrow the query or use the text form.") from None
    if done.returncode != 0:
        raise CodetraceError("Graphviz failed: " + done.stderr.decode("utf-8", "replace").strip()[:500])
    return done.stdout.decode("utf-8", "replace")
