"""Answer budgets for the MCP tools: the text and the structured content each stay within
``TEXT_BUDGET`` characters, and say what was cut.

The structured content is a result's ``to_dict()``. When its compact JSON is longer than the
budget, the largest part is halved (a list keeps its first items — results are ordered best or
first first; a string keeps its first lines or words) until it fits, and a ``truncated`` key
lists every cut::

    "truncated": {"budget": 12000, "characters": 48213,
                  "cuts": [{"path": "references", "kept": 37, "total": 412},
                           {"path": "definition.code", "kept_characters": 1500, "total_characters": 9800}],
                  "note": "..."}

Nothing here imports the MCP SDK.
"""

from __future__ import annotations

import copy
import json

__all__ = ["TEXT_BUDGET", "fit_text", "fit_structured", "size_of"]

# Characters per answer (~3,000 tokens); the trace's YAML text has its own budget of the same size.
TEXT_BUDGET = 12_000
_MIN_STRING = 80       # strings shorter than this are never cut
_NOTE = ("Cut to fit the answer budget: each cut keeps the first items or characters. "
         "Narrow the query, or use the codetrace CLI / Python API (--json) for everything.")


def size_of(data) -> int:
    """Characters of the compact JSON of ``data`` (what a client passes on to a model)."""
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def fit_text(text: str, budget: int = TEXT_BUDGET) -> str:
    """``text`` cut at a line boundary to at most ``budget`` characters, saying how many lines were cut."""
    if len(text) <= budget:
        return text
    lines = text.count("\n", budget)
    note = f"\n… ({lines} more lines cut to stay within the answer budget)\n"
    head = text[: budget - len(note)]
    head = head.rsplit("\n", 1)[0] if "\n" in head else head
    return head + note


def _path(parent: str, key) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else str(key)


def _candidates(node, path: str, out: list) -> int:
    """Collect (size, path, container, key) for every cuttable list or string; returns the node's size."""
    if isinstance(node, dict):
        items = [(k, v) for k, v in node.items() if not (k == "truncated" and not path)]
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return size_of(node)
    total = 2
    for key, value in items:
        child = _path(path, key)
        size = _candidates(value, child, out)
        total += size + 1 + (len(json.dumps(key, ensure_ascii=False)) + 1 if isinstance(node, dict) else 0)
        if (isinstance(value, list) and len(value) > 1) or (isinstance(value, str) and len(value) > _MIN_STRING):
            out.append((size, child, node, key))
    return total


def _cut_string(text: str) -> str:
    """About half of ``text``, ending at a line break or a space (never inside a word)."""
    keep = max(_MIN_STRING // 2, len(text) // 2)
    head = text[:keep]
    for boundary in ("\n", " "):
        at = head.rfind(boundary)
        if at >= keep // 2:
            return head[:at].rstrip() + " …"
    return head + "…"


def fit_structured(data: dict | None, budget: int = TEXT_BUDGET) -> dict | None:
    """``data`` (a result's ``to_dict()``) within ``budget`` characters of compact JSON, with a
    ``truncated`` key saying what was cut; unchanged (the same object) when it already fits."""
    if data is None:
        return None
    original = size_of(data)
    if original <= budget:
        return data
    data = copy.deepcopy(data)
    cuts: dict[str, dict] = {}
    report = {"budget": budget, "characters": original, "cuts": [], "note": _NOTE}
    data["truncated"] = report
    while size_of(data) > budget:
        found: list = []
        _candidates(data, "", found)
        if not found:
            break
        _, path, container, key = max(found, key=lambda c: c[0])
        value = container[key]
        if isinstance(value, list):
            cut = cuts.setdefault(path, {"path": path, "kept": len(value), "total": len(value)})
            container[key] = value[: len(value) // 2]
            cut["kept"] = len(container[key])
        else:
            cut = cuts.setdefault(path, {"path": path, "kept_characters": len(value), "total_characters": len(value)})
            container[key] = _cut_string(value)
            cut["kept_characters"] = len(container[key])
        report["cuts"] = sorted(cuts.values(), key=lambda c: c["path"])
    return data
