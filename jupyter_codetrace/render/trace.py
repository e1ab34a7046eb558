"""The trace as YAML-structured text, without line or column numbers, within a budget.

When the text is over ``BUDGET`` characters it is rendered again with less detail, in this
order, and the end of the text says what was shrunk: drop declaration-file and external
entries, collapse outgoing calls to counts, drop the files of type flows, reduce the depth of
the call trees (down to one level), then cut long lists with a count of what was cut.
"""

from __future__ import annotations

import json

__all__ = ["render", "BUDGET"]

BUDGET = 12_000   # characters: about 3,000 tokens, what an agent can afford for one answer
_DECLARATION_FILES = (".d.ts", ".d.mts", ".d.cts", ".pyi")


def _q(text) -> str:
    """A YAML scalar: plain when safe, else double-quoted (JSON escaping is valid YAML)."""
    text = str(text)
    if not text or text != text.strip() or any(c in text for c in ':#{}[],&*?|<>=!%@`"\'\n\\') \
            or text[0] in "-" or text.lower() in ("true", "false", "null", "yes", "no"):
        return json.dumps(text, ensure_ascii=False)
    return text


def _short(path: str) -> str:
    return path


class _Options:
    def __init__(self, drop_external=False, collapse_outgoing=False, flow_files=True, depth=None, list_limit=None):
        self.drop_external, self.collapse_outgoing = drop_external, collapse_outgoing
        self.flow_files, self.depth, self.list_limit = flow_files, depth, list_limit


def render(result) -> str:
    if result.status != "found":
        return f"{result.status}: {result.message}\n"
    steps = []
    options = _Options()
    text = _render(result, options)
    if len(text) <= BUDGET:
        return text
    options.drop_external = True
    steps.append("dropped declaration-file and external entries")
    text = _render(result, options)
    if len(text) > BUDGET and result.calls:
        options.collapse_outgoing = True
        steps.append("collapsed outgoing calls to counts")
        text = _render(result, options)
    if len(text) > BUDGET and result.types:
        options.flow_files = False
        steps.append("dropped the files of type flows")
        text = _render(result, options)
    if len(text) > BUDGET and result.calls:
        depth = _depth(result.calls.get("incoming", []))
        while len(text) > BUDGET and depth > 1:
            depth -= 1
            options.depth = depth
            text = _render(result, options)
        if options.depth is not None:
            steps.append(f"reduced call depth to {options.depth}")
    limit = 200
    while len(text) > BUDGET and limit >= 5:
        options.list_limit = limit
        text = _render(result, options)
        limit //= 2
    if options.list_limit is not None:
        steps.append(f"cut lists to {options.list_limit} entries")
    return text + f"# over the {BUDGET:,}-character budget: " + "; ".join(steps) + "\n"


def _depth(tree: list[dict]) -> int:
    return 1 + max((_depth(e.get("children", [])) for e in tree), default=0) if tree else 0


def _cut(items: list, options: _Options) -> tuple[list, int]:
    if options.list_limit is None or len(items) <= options.list_limit:
        return items, 0
    return items[: options.list_limit], len(items) - options.list_limit


def _render(result, options: _Options) -> str:
    lines: list[str] = []
    _definition(lines, result.definition, options)
    if result.note:
        lines.append(f"note: {_q(result.note)}")
    if result.references is not None:
        _references(lines, result.references, options)
    if result.calls is not None:
        _calls(lines, result.calls, options)
    if result.types is not None:
        _types(lines, result.types, options)
    return "\n".join(lines) + "\n"


def _definition(lines: list[str], d, options: _Options) -> None:
    lines.append("definition:")
    lines.append(f"  symbol: {_q(d.symbol)}")
    lines.append(f"  kind: {d.kind}")
    lines.append(f"  file: {_q(d.file)}" + (f"  # cell {d.cell}" if d.cell is not None else ""))
    lines.append(f"  exported: {'true' if d.exported else 'false'}")
    if d.modifiers:
        lines.append(f"  modifiers: [{', '.join(d.modifiers)}]")
    if d.signature:
        lines.append(f"  signature: {json.dumps(d.signature, ensure_ascii=False)}")
    if d.generics:
        lines.append(f"  generics: {json.dumps(d.generics, ensure_ascii=False)}")
    if d.doc:
        lines.append(f"  doc: {json.dumps(d.doc, ensure_ascii=False)}")
    if d.parameters:
        lines.append("  parameters:")
        for p in d.parameters:
            text = p["name"] + (f": {p['type']}" if p.get("type") else "") + \
                (f" = {p['default']}" if p.get("default") is not None else "")
            lines.append(f"    - {_q(text)}")
    if d.returns:
        lines.append(f"  returns: {_q(d.returns)}")
    if d.overloads:
        lines.append("  overloads:")
        for o in d.overloads:
            lines.append(f"    - {json.dumps(o['signature'], ensure_ascii=False)}")
    if d.resolved_from:
        lines.append("  resolvedFrom:")
        for step in d.resolved_from:
            lines.append(f"    - {_q(step['file'] + ' → ' + ' '.join(step['via'].split()))}")
        lines.append(f"    - {_q(d.file + ' → defined here')}")
    if d.members:
        members, cut = _cut(list(d.members), options)
        lines.append("  members:")
        for m in members:
            sig = m.get("signature") or ""
            text = f"{m['name']}{sig if sig.startswith('(') else (': ' + sig if sig else '')} ({m['kind']})"
            lines.append(f"    - {_q(text)}")
        if cut:
            lines.append(f"    # … {cut} more members")


def _references(lines: list[str], refs: dict, options: _Options) -> None:
    lines.append("references:")
    lines.append(f"  total: {refs['total']}")
    lines.append(f"  files: {refs['files']}")
    by_file, cut = _cut(refs["byFile"], options)
    lines.append("  byFile:" + ("" if by_file else " []"))
    for entry in by_file:
        lines.append(f"    - file: {_q(entry['file'])}")
        if entry.get("test"):
            lines.append("      test: true")
        lines.append(f"      usages: [{', '.join(entry['usages'])}]")
    if cut:
        lines.append(f"    # … {cut} more files")
    if refs["reExports"]:
        lines.append("  reExports:")
        for e in refs["reExports"]:
            lines.append(f"    - file: {_q(e['file'])}")
            lines.append(f"      exportedAs: {_q(e['exportedAs'])}")
            lines.append(f"      from: {_q(e['from'])}")


def _calls(lines: list[str], calls: dict, options: _Options) -> None:
    lines.append("calls:")
    for key in ("incoming", "outgoing"):
        tree = calls.get(key, [])
        if key == "outgoing" and options.collapse_outgoing:
            lines.append(f"  {key}:" + ("" if tree else " []"))
            for entry in _visible(tree, options):
                count = _count(entry.get("children", []), options)
                lines.append(f"    - {_label(entry)}" + (f"  # +{count} callees" if count else ""))
            continue
        lines.append(f"  {key}:" + ("" if tree else " []"))
        _tree(lines, tree, 2, 1, options)


def _visible(entries: list[dict], options: _Options) -> list[dict]:
    if not options.drop_external:
        return entries
    return [e for e in entries if not e.get("external") and not str(e.get("file", "")).endswith(_DECLARATION_FILES)]


def _count(entries: list[dict], options: _Options) -> int:
    return sum(1 + _count(e.get("children", []), options) for e in _visible(entries, options))


def _label(entry: dict) -> str:
    if entry.get("external"):
        return f"{entry['symbol']} (external)"
    text = f"{entry['symbol']} (module)" if entry.get("kind") == "module" else \
        f"{entry['symbol']} ({_short(entry['file'])})"
    if entry.get("cycle"):
        text += " (cycle)"
    elif entry.get("seen"):
        text += " (see above)"
    return text


def _tree(lines: list[str], entries: list[dict], indent: int, depth: int, options: _Options) -> None:
    entries, cut = _cut(_visible(entries, options), options)
    for entry in entries:
        children = _visible(entry.get("children", []), options)
        lines.append("  " * indent + f"- {_label(entry)}" +
                     (f"  # +{_count(children, options)} more" if children and options.depth is not None
                      and depth >= options.depth else ""))
        if children and (options.depth is None or depth < options.depth):
            _tree(lines, children, indent + 1, depth + 1, options)
    if cut:
        lines.append("  " * indent + f"# … {cut} more")


def _types(lines: list[str], types: dict, options: _Options) -> None:
    lines.append("types:")
    h = types["hierarchy"]
    lines.append("  hierarchy:")

    def entry(e):
        return f"{e['symbol']} ({_short(e['file'])}, {e['kind']})"

    if len(h["extends"]) == 1:
        lines.append(f"    extends: {_q(entry(h['extends'][0]))}")
    elif h["extends"]:
        lines.append(f"    extends: [{', '.join(_q(entry(e)) for e in h['extends'])}]")
    if h["implements"]:
        lines.append(f"    implements: [{', '.join(_q(entry(e)) for e in h['implements'])}]")
    subtypes, cut = _cut(h["subtypes"], options)
    lines.append("    subtypes:" + ("" if subtypes else " []"))
    for e in subtypes:
        lines.append(f"      - {_q(entry(e))}")
    if cut:
        lines.append(f"      # … {cut} more")
    f = types["flows"]

    def flow(item, name=None):
        where = f" ({_short(item['file'])})" if options.flow_files and item.get("file") else ""
        return (f"{name} → " if name else "") + f"{item['type']}{where}"

    lines.append("  flows:")
    lines.append("    parameters:" + ("" if f["parameters"] else " []"))
    for p in f["parameters"]:
        lines.append(f"      - {_q(flow(p, p['name']))}")
    if f["returns"]:
        lines.append(f"    returns: {_q(flow(f['returns']))}")
    props, cut = _cut(f["properties"], options)
    if props:
        lines.append("    properties:")
        for p in props:
            lines.append(f"      - {_q(flow(p, p['name']))}")
        if cut:
            lines.append(f"      # … {cut} more")
    if types.get("typeGuard"):
        g = types["typeGuard"]
        lines.append(f"  typeGuard: {_q(flow(g, g['parameter']))}")
    if types.get("mergedDeclarations"):
        lines.append("  mergedDeclarations:")
        for m in types["mergedDeclarations"]:
            lines.append(f"    - {_q(m['symbol'] + ' (' + m['file'] + ')')}")
