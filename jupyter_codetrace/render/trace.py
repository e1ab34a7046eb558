"""The trace as YAML text (seed 002's look), without line or column numbers, within a budget.

The text is valid YAML by construction: :func:`document` builds the plain structure (mappings,
lists, strings, numbers, booleans) that the text stands for, and :func:`emit` writes it, quoting
every scalar that YAML would otherwise read differently, so that ``yaml.safe_load(text)`` is
:func:`plain` of that structure. What the structure holds, derived from ``to_dict()``:

- ``definition``: ``symbol kind file [cell] exported [modifiers] [signature] [generics] [doc]
  [parameters] [returns] [overloads] [resolvedFrom] [members]``; a parameter is
  ``{name: "type[ = default]"}`` when it has a type, else the string ``name[ = default]``;
  ``resolvedFrom`` is ``"file → statement"`` per step and ends with ``"file → defined here"``;
  a member is ``"name(signature) (kind)"`` or ``"name: type (kind)"``.
- ``note`` when several definitions matched.
- ``references``: ``total files byFile [reExports]``; a ``byFile`` entry is ``file [test: true]
  usages``.
- ``calls``: ``incoming`` and ``outgoing``, each a list of call-tree entries: the label
  ``"name (file)"`` (``(external)``, ``(module)``, ``(cycle)``, ``(see above)`` as the tree says)
  for an entry shown without children, the one-key mapping ``{label: [children]}`` for one with
  children; ``truncated: true`` when the tree hit its node cap.
- ``types``: ``hierarchy`` (``[extends] [implements] subtypes``, lists of ``"name (file, kind)"``),
  ``flows`` (``parameters [returns] [properties]``, ``"name → type (file)"``), ``[typeGuard]``,
  ``[mergedDeclarations]``.

When the text is over ``BUDGET`` characters it is rendered again with less detail, in this
order: drop declaration-file and external entries, collapse outgoing calls to counts, drop the
files of type flows, reduce the depth of the call trees (down to one level), then cut long lists.
What was left out is said in YAML comments (``# +30 callees``, ``# … 12 more``), and the last line
of the text says what was shrunk. A not-found trace is the one-line mapping ``status: message``.
"""

from __future__ import annotations

import functools
import io
import re

import yaml

from .text import plural

__all__ = ["render", "document", "emit", "plain", "BUDGET"]

BUDGET = 12_000   # characters: about 3,000 tokens, what an agent can afford for one answer
_NOTE_ROOM = 240  # the closing "# over the budget: …" line (at most ~200 characters) fits in the budget too
_DECLARATION_FILES = (".d.ts", ".d.mts", ".d.cts", ".pyi")
_SIMPLE_KEY_LIMIT = 1000  # YAML reads a one-line key of at most 1024 characters as a simple key


# --- the structure -------------------------------------------------------------------------

class Quoted(str):
    """A string always written double-quoted (signatures, docs: as the seed shows them)."""


class Flow(list):
    """A list written in flow style, ``[a, b]`` (modifiers, usages)."""


class Comment(str):
    """A list item that is a comment on its own line: part of the text, not of the data."""


class Trailing:
    """A scalar list item followed by a comment on the same line."""

    def __init__(self, value, comment: str):
        self.value, self.comment = value, comment

    def __repr__(self):
        return f"Trailing({self.value!r}, {self.comment!r})"


def plain(value):
    """The data of a structure, as ``yaml.safe_load`` reads it back from the text."""
    if isinstance(value, Trailing):
        return plain(value.value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value if not isinstance(v, Comment)]
    if isinstance(value, str):
        return str(value)
    return value


# --- scalars -------------------------------------------------------------------------------

_ANALYZER = yaml.emitter.Emitter(io.StringIO(), allow_unicode=True)
_RESOLVER = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
# What YAML 1.2 parsers (JavaScript's `yaml`, ruamel) read as something else than a string, on
# top of what PyYAML's YAML 1.1 resolver knows: keep those quoted for every reader.
_OTHER_IMPLICIT = re.compile(r"""[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?
    |0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|~|null|Null|NULL
    |true|True|TRUE|false|False|FALSE|y|Y|n|N|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF""", re.X)


@functools.lru_cache(maxsize=65_536)
def _double_quoted(text: str) -> str:
    out = yaml.safe_dump(text, default_style='"', allow_unicode=True, width=float("inf"))
    return out[: out.rindex('"') + 1]


@functools.lru_cache(maxsize=65_536)
def _plain_allowed(text: str, flow: bool) -> bool:
    if not text or _OTHER_IMPLICIT.fullmatch(text):
        return False
    if _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) != _STR_TAG:
        return False
    analysis = _ANALYZER.analyze_scalar(text)
    if analysis.empty or analysis.multiline:
        return False
    return analysis.allow_flow_plain if flow else analysis.allow_block_plain


def scalar(value, flow: bool = False) -> str:
    """One YAML scalar: plain when YAML reads it back unchanged, else double-quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if not isinstance(value, Quoted) and _plain_allowed(text, flow):
        return text
    return _double_quoted(text)


# --- the writer ----------------------------------------------------------------------------

def emit(value) -> str:
    """The YAML text of a structure built from dicts, lists, :class:`Flow`, :class:`Comment`,
    :class:`Trailing` and scalars: mappings and lists in block style, a list indented two spaces
    under its key, a one-key mapping in a list written ``- key:`` with its list under it."""
    lines: list[str] = []
    if isinstance(value, dict):
        _mapping(lines, value, 0)
    else:
        _sequence(lines, value, 0)
    return "\n".join(lines) + "\n"


def _key(key) -> str:
    text = scalar(key if isinstance(key, str) else str(key))
    return text if len(text) <= _SIMPLE_KEY_LIMIT else ""  # "" → an explicit ``? key`` entry


def _inline(value) -> str | None:
    """The value written after ``key: ``, or None when it goes on the lines below."""
    if isinstance(value, Flow):
        return "[" + ", ".join(scalar(v, flow=True) for v in value) + "]"
    if isinstance(value, list) and not plain(value):
        return "[]"  # nothing but comments: an empty list
    if isinstance(value, (list, dict)):
        return None if value else ("[]" if isinstance(value, list) else "{}")
    if isinstance(value, Trailing):
        return scalar(value.value) + f"  # {value.comment}"
    return scalar(value)


def _mapping(lines: list[str], mapping: dict, indent: int, first_prefix: str | None = None) -> None:
    """``first_prefix`` replaces the indentation of the first key (``"- "`` in a list)."""
    pad = " " * indent
    for n, (key, value) in enumerate(mapping.items()):
        lead = first_prefix if (n == 0 and first_prefix is not None) else pad
        key_text = _key(key)
        inline = _inline(value)
        if not key_text:  # a key too long for YAML's simple keys
            lines.append(f"{lead}? {scalar(key if isinstance(key, str) else str(key))}")
            if inline is not None:
                lines.append(f"{pad}: {inline}")
            elif isinstance(value, dict):
                _mapping(lines, value, indent + 2, first_prefix=pad + ": ")
            else:
                _sequence(lines, value, indent + 2, first_prefix=pad + ": ")
            continue
        if inline is not None:
            lines.append(f"{lead}{key_text}: {inline}")
        elif isinstance(value, dict):
            lines.append(f"{lead}{key_text}:")
            _mapping(lines, value, indent + 2)
        else:
            lines.append(f"{lead}{key_text}:")
            _sequence(lines, value, indent + 2)


def _sequence(lines: list[str], items: list, indent: int, first_prefix: str | None = None) -> None:
    pad = " " * indent
    first = True
    for item in items:
        if isinstance(item, Comment):
            lines.append(f"{pad}# {item}")
            continue
        lead = first_prefix if (first and first_prefix is not None) else pad
        first = False
        if isinstance(item, dict) and item:
            if len(item) == 1 and isinstance(next(iter(item.values())), list) \
                    and not isinstance(next(iter(item.values())), Flow) and next(iter(item.values())) \
                    and _key(next(iter(item))):
                # an entry with children: ``- "label":`` and the children under the label
                (key, children), = item.items()
                lines.append(f"{lead}- {_key(key)}:")
                _sequence(lines, children, indent + 2)
            else:
                _mapping(lines, item, indent + 2, first_prefix=lead + "- ")
        elif isinstance(item, list) and item and not isinstance(item, Flow):
            lines.append(f"{lead}-")
            _sequence(lines, item, indent + 2)
        else:
            lines.append(f"{lead}- {_inline(item)}")


# --- from the result to the structure ------------------------------------------------------

class _Options:
    def __init__(self, drop_external=False, collapse_outgoing=False, flow_files=True, depth=None, list_limit=None):
        self.drop_external, self.collapse_outgoing = drop_external, collapse_outgoing
        self.flow_files, self.depth, self.list_limit = flow_files, depth, list_limit


def render(result) -> str:
    if result.status != "found":
        return emit({result.status: result.message or ""})
    steps = []
    options = _Options()
    text = emit(document(result, options))
    if len(text) <= BUDGET:
        return text
    budget = BUDGET - _NOTE_ROOM  # what is left once the closing note is there
    options.drop_external = True
    steps.append("dropped declaration-file and external entries")
    text = emit(document(result, options))
    if len(text) > budget and result.calls:
        options.collapse_outgoing = True
        steps.append("collapsed outgoing calls to counts")
        text = emit(document(result, options))
    if len(text) > budget and result.types:
        options.flow_files = False
        steps.append("dropped the files of type flows")
        text = emit(document(result, options))
    if len(text) > budget and result.calls:
        depth = max(_depth(result.calls.get("incoming", [])),  # collapsed outgoing calls are one level already
                    1 if options.collapse_outgoing else _depth(result.calls.get("outgoing", [])))
        while len(text) > budget and depth > 1:
            depth -= 1
            options.depth = depth
            text = emit(document(result, options))
        if options.depth is not None:
            steps.append(f"reduced call depth to {options.depth}")
    limit = 200
    while len(text) > budget and limit >= 5:
        options.list_limit = limit
        text = emit(document(result, options))
        limit //= 2
    if options.list_limit is not None:
        steps.append(f"cut lists to {plural(options.list_limit, 'entry', 'entries')}")
    return text + f"# over the {BUDGET:,}-character budget: " + "; ".join(steps) + "\n"


def document(result, options: _Options | None = None) -> dict:
    """The structure the text of a found trace writes (see the module's docstring)."""
    options = options or _Options()
    doc = {"definition": _definition(result.definition, options)}
    if result.note:
        doc["note"] = result.note
    if result.references is not None:
        doc["references"] = _references(result.references, options)
    if result.calls is not None:
        doc["calls"] = _calls(result.calls, options)
    if result.types is not None:
        doc["types"] = _types(result.types, options)
    return doc


def _depth(tree: list[dict]) -> int:
    return 1 + max((_depth(e.get("children", [])) for e in tree), default=0) if tree else 0


def _cut(items: list, options: _Options) -> tuple[list, int]:
    if options.list_limit is None or len(items) <= options.list_limit:
        return list(items), 0
    return list(items[: options.list_limit]), len(items) - options.list_limit


def _more(cut: int, what: str | None = None) -> list:
    """The comment that says how many entries a cut list left out: ``… 3 more files``."""
    return [Comment(f"… {cut} more" + (f" {what if cut == 1 else what + 's'}" if what else ""))] if cut else []


def _parameter(p: dict):
    default = f" = {p['default']}" if p.get("default") is not None else ""
    if p.get("type"):
        return {p["name"]: f"{p['type']}{default}"}
    return f"{p['name']}{default}"


def _member(m: dict) -> str:
    sig = m.get("signature") or ""
    return f"{m['name']}{sig if sig.startswith('(') else (': ' + sig if sig else '')} ({m['kind']})"


def _definition(d, options: _Options) -> dict:
    out = {"symbol": d.symbol, "kind": d.kind, "file": d.file}
    if d.cell is not None:
        out["cell"] = d.cell
    out["exported"] = bool(d.exported)
    if d.modifiers:
        out["modifiers"] = Flow(d.modifiers)
    for key, value in (("signature", d.signature), ("generics", d.generics), ("doc", d.doc)):
        if value:
            out[key] = Quoted(value)
    if d.parameters:
        out["parameters"] = [_parameter(p) for p in d.parameters]
    if d.returns:
        out["returns"] = d.returns
    if d.overloads:
        out["overloads"] = [Quoted(o["signature"]) for o in d.overloads]
    if d.resolved_from:
        out["resolvedFrom"] = [step["file"] + " → " + " ".join(step["via"].split()) for step in d.resolved_from]
        out["resolvedFrom"].append(d.file + " → defined here")
    if d.members:
        members, cut = _cut(d.members, options)
        out["members"] = [_member(m) for m in members] + _more(cut, "member")
    return out


def _references(refs: dict, options: _Options) -> dict:
    by_file, cut = _cut(refs["byFile"], options)
    entries = []
    for entry in by_file:
        item = {"file": entry["file"]}
        if entry.get("test"):
            item["test"] = True
        item["usages"] = Flow(entry["usages"])
        entries.append(item)
    out = {"total": refs["total"], "files": refs["files"], "byFile": entries + _more(cut, "file")}
    if refs.get("reExports"):
        out["reExports"] = [{"file": e["file"], "exportedAs": e["exportedAs"], "from": e["from"]}
                            for e in refs["reExports"]]
    return out


def _calls(calls: dict, options: _Options) -> dict:
    out = {}
    for key in ("incoming", "outgoing"):
        tree = calls.get(key, [])
        if key == "outgoing" and options.collapse_outgoing:
            items = []
            entries, cut = _cut(_visible(tree, options), options)
            for entry in entries:
                count = _count(entry.get("children", []), options)
                items.append(Trailing(_label(entry), "+" + plural(count, "callee")) if count else _label(entry))
            out[key] = items + _more(cut)
        else:
            out[key] = _tree(tree, 1, options)
    if calls.get("truncated"):
        out["truncated"] = True
    return out


def _visible(entries: list[dict], options: _Options) -> list[dict]:
    if not options.drop_external:
        return entries
    return [e for e in entries if not e.get("external") and not str(e.get("file", "")).endswith(_DECLARATION_FILES)]


def _count(entries: list[dict], options: _Options) -> int:
    return sum(1 + _count(e.get("children", []), options) for e in _visible(entries, options))


def _label(entry: dict) -> str:
    if entry.get("external"):
        return f"{entry['symbol']} (external)"
    text = f"{entry['symbol']} (module)" if entry.get("kind") == "module" else f"{entry['symbol']} ({entry['file']})"
    if entry.get("cycle"):
        text += " (cycle)"
    elif entry.get("seen"):
        text += " (see above)"
    return text


def _tree(entries: list[dict], depth: int, options: _Options) -> list:
    entries, cut = _cut(_visible(entries, options), options)
    items: list = []
    for entry in entries:
        children = _visible(entry.get("children", []), options)
        if not children:
            items.append(_label(entry))
        elif options.depth is not None and depth >= options.depth:
            items.append(Trailing(_label(entry), f"+{_count(children, options)} more"))
        else:
            items.append({_label(entry): _tree(children, depth + 1, options)})
    return items + _more(cut)


def _types(types: dict, options: _Options) -> dict:
    h = types["hierarchy"]

    def entry(e):
        return f"{e['symbol']} ({e['file']}, {e['kind']})"

    hierarchy = {}
    for key in ("extends", "implements"):
        if h.get(key):
            hierarchy[key] = [entry(e) for e in h[key]]
    subtypes, cut = _cut(h["subtypes"], options)
    hierarchy["subtypes"] = [entry(e) for e in subtypes] + _more(cut)

    def flow(item, name=None):
        where = f" ({item['file']})" if options.flow_files and item.get("file") else ""
        return (f"{name} → " if name else "") + f"{item['type']}{where}"

    f = types["flows"]
    flows = {"parameters": [flow(p, p["name"]) for p in f["parameters"]]}
    if f.get("returns"):
        flows["returns"] = flow(f["returns"])
    props, cut = _cut(f.get("properties") or [], options)
    if props:
        flows["properties"] = [flow(p, p["name"]) for p in props] + _more(cut)
    out = {"hierarchy": hierarchy, "flows": flows}
    if types.get("typeGuard"):
        g = types["typeGuard"]
        out["typeGuard"] = flow(g, g["parameter"])
    if types.get("mergedDeclarations"):
        out["mergedDeclarations"] = [f"{m['symbol']} ({m['file']})" for m in types["mergedDeclarations"]]
    return out
