"""HTML for notebooks: call trees as nested ``<details>`` (collapsible in JupyterLab, readable
in static renderers such as GitHub and nbconvert) and references grouped by file with usage
badges. Pure functions: result -> str."""

from __future__ import annotations

from html import escape

from .text import plural

__all__ = ["trace_html", "references_html", "graph_markdown"]

_STYLE = ("<style>.ct-badge{display:inline-block;padding:0 .4em;margin-right:.3em;border-radius:.6em;"
          "font-size:85%;background:var(--jp-layout-color2,#eee);}"
          ".ct-test{background:var(--jp-warn-color3,#fff3cd);}"
          ".ct-tree details{margin-left:1.2em;}.ct-tree summary{cursor:pointer;}"
          ".ct-muted{color:var(--jp-ui-font-color2,#777);}</style>")


def _where(file: str, line: int | None, cell: int | None = None) -> str:
    """``file:line``, or ``file cell C, line L`` in a notebook (the line is within the cell)."""
    if cell is not None:
        return f"{file} cell {cell}, line {line}"
    return f"{file}:{line}" if line else file


def _node(entry: dict) -> str:
    if entry.get("external"):
        return f"<code>{escape(entry['symbol'])}</code> <span class='ct-muted'>(external)</span>"
    where = escape(_where(entry["file"], entry.get("line"), entry.get("cell")))
    mark = " <span class='ct-muted'>(cycle)</span>" if entry.get("cycle") else \
        " <span class='ct-muted'>(see above)</span>" if entry.get("seen") else ""
    return f"<code>{escape(entry['symbol'])}</code> <span class='ct-muted'>{where}</span>{mark}"


def _tree(entries: list[dict], depth: int = 0) -> str:
    parts = []
    for entry in entries:
        children = entry.get("children") or []
        if children:
            opened = " open" if depth < 2 else ""
            parts.append(f"<details{opened}><summary>{_node(entry)}</summary>{_tree(children, depth + 1)}</details>")
        else:
            parts.append(f"<div style='margin-left:1.2em'>{_node(entry)}</div>")
    return "".join(parts)


def trace_html(result) -> str:
    """The definition as Markdown-like HTML plus the call trees, references and types."""
    d = result.definition
    parts = [_STYLE, "<div class='ct-tree'>",
             f"<h4><code>{escape(d.file or '')}</code>: {escape(d.qualified_name or d.name or '')} "
             f"<span class='ct-badge'>{escape(d.kind or '')}</span></h4>"]
    parts.append(f"<div class='ct-muted'>defined at <code>{escape(_where(d.file, d.line, d.cell))}</code></div>")
    if d.signature:
        parts.append(f"<div><code>{escape(d.name or '')}{escape(d.signature)}</code></div>")
    if d.doc:
        parts.append(f"<p>{escape(d.doc)}</p>")
    if result.note:
        parts.append(f"<p class='ct-muted'>{escape(result.note)}</p>")
    if result.calls is not None:
        for key, title in (("incoming", "Callers (incoming)"), ("outgoing", "Callees (outgoing)")):
            entries = result.calls.get(key) or []
            body = _tree(entries) if entries else "<div class='ct-muted' style='margin-left:1.2em'>none</div>"
            parts.append(f"<details open><summary><b>{title}</b> ({len(entries)})</summary>{body}</details>")
    if result.references is not None:
        refs = result.references
        test = "<span class='ct-badge ct-test'>test</span>"
        rows = "".join(
            f"<li><code>{escape(entry['file'])}</code> {test if entry['test'] else ''}"
            + "".join(f"<span class='ct-badge'>{escape(u)}</span>" for u in entry["usages"]) + "</li>"
            for entry in refs["byFile"])
        parts.append(f"<details open><summary><b>References</b> ({refs['total']} in {plural(refs['files'], 'file')})</summary>"
                     f"<ul>{rows}</ul></details>")
    if result.types is not None:
        h = result.types["hierarchy"]
        items = [f"extends {escape(e['symbol'])}" for e in h["extends"]] + \
            [f"implements {escape(e['symbol'])}" for e in h["implements"]] + \
            [f"subtype {escape(e['symbol'])} <span class='ct-muted'>{escape(e['file'])}</span>" for e in h["subtypes"]]
        parts.append("<details><summary><b>Types</b></summary><ul>" + "".join(f"<li>{i}</li>" for i in items)
                     + "</ul></details>")
    parts.append("</div>")
    return "".join(parts)


def references_html(result) -> str:
    """References grouped by file: usage badges, test files marked, the line's code."""
    by_file: dict[str, list] = {}
    for ref in result.references:
        by_file.setdefault(ref.file, []).append(ref)
    d = result.definition
    parts = [_STYLE, f"<h4>References to <code>{escape(result.symbol)}</code>: {result.count} in {plural(result.files, 'file')}</h4>"]
    if d is not None:
        parts.append(f"<div class='ct-muted'>defined at <code>{escape(d.where() if d.library else _where(d.file, d.line, d.cell))}</code></div>")
    for file, refs in by_file.items():
        test = " <span class='ct-badge ct-test'>test</span>" if refs[0].test else ""
        rows = "".join(
            f"<tr><td class='ct-muted'>{(f'cell {r.cell}, ' if r.cell is not None else '')}{r.line}:{r.column}</td>"
            f"<td><span class='ct-badge'>{escape(r.usage)}</span></td><td><code>{escape(r.context.strip())}</code></td></tr>"
            for r in refs)
        parts.append(f"<details open><summary><code>{escape(file)}</code>{test} ({len(refs)})</summary>"
                     f"<table>{rows}</table></details>")
    return "".join(parts)


def graph_markdown(result) -> str | None:
    """The Markdown form of a graph result where no diagram is drawn: ``None`` when Graphviz
    draws it (the SVG is the rich output); else the text form, after a note saying how to get
    the diagram when only the missing ``dot`` program stands in the way."""
    from . import dot

    if result.status == "found" and result.edges:
        if dot.available():
            return None
        return f"> {dot.INSTALL_HINT}\n\n" + result.to_markdown()
    return result.to_markdown()
