"""Markdown for notebooks and LLM agents: a heading `file: name (Kind)`, the location, the doc,
the code, type, signature and export status; references grouped by file."""

from __future__ import annotations

from ..results import (
    DefinitionResult, GraphResult, LibrarySourceResult, ReferencesResult, SymbolsResult, TraceResult, library_label,
)
from .text import plural

__all__ = ["render", "fence_language"]

_FENCES = {"python": "python", "notebook": "python", "typescript": "typescript", "tsx": "tsx",
           "javascript": "javascript", "rust": "rust", "c": "c", "cpp": "cpp", "go": "go",
           "java": "java", "elixir": "elixir"}
_MEMBERS_SHOWN = 30  # a class's members listed in a card; the rest counted ("… 12 more members")
_TITLES = {"definition": "Definition", "declaration": "Declaration", "type_definition": "Type definition"}


def fence_language(language: str | None) -> str:
    return _FENCES.get(language or "", language or "")


def render(result) -> str:
    if isinstance(result, DefinitionResult):
        return _definition(result)
    if isinstance(result, ReferencesResult):
        return _references(result)
    if isinstance(result, SymbolsResult):
        return _symbols(result)
    if isinstance(result, GraphResult):
        from . import graph

        return "```text\n" + graph.render(result) + "```\n"
    if isinstance(result, TraceResult):
        from . import trace

        return "```yaml\n" + trace.render(result) + "```\n"
    if isinstance(result, LibrarySourceResult):
        if result.status != "found":
            return f"# Library source\n\n**{result.status}**: {result.message}\n"
        return (f"# `{result.file}` — {library_label(result.library)} (read-only)\n\n"
                f"```{fence_language(result.language)}\n{result.text}\n```\n")
    raise TypeError(f"no Markdown renderer for {type(result).__name__}")


def _not_found(title: str, result) -> str:
    lines = [f"# {title}", "", f"**{result.status}**: {result.message}"]
    names = [s for s in result.suggestions if isinstance(s, dict)]
    if names:
        lines += ["", "Did you mean:"]
        for s in names[:10]:
            where = f" — `{s['file']}:{s['line']}`" if "file" in s else ""
            lines.append(f"- `{s.get('name', '?')}`{where}")
    return "\n".join(lines) + "\n"


def _location(result) -> str:
    if result.cell is not None:
        return f"{result.file} cell {result.cell}, line {result.line}:{result.column}"
    library = getattr(result, "library", None)
    if library:
        return f"{result.file}:{result.line}:{result.column}` — `{library_label(library)}"
    return f"{result.file}:{result.line}:{result.column}"


def _definition(r: DefinitionResult) -> str:
    title = f"{_TITLES.get(r.mode, 'Definition')} Result"
    if r.status != "found":
        return _not_found(title, r)
    lines = [f"# {title}", "", f"### `{r.file}`: {r.qualified_name or r.name} (`{(r.kind or '').title()}`)", "",
             f"Defined in: `{_location(r)}`"]
    if r.mode_resolution == "fell_back_to_definition":
        lines.append(f"_No separate {r.mode.replace('_', ' ')} exists: showing the definition._")
    if r.resolution == "name-only":
        lines.append("_Resolved by name only: the best same-named definition; others are listed below._")
    if r.message:  # e.g. the other same-named definitions, or "outside the project"
        lines.append(f"_{r.message}_")
    if r.doc:
        lines += ["", r.doc]
    if r.code:
        lines += ["", "## Content", f"```{fence_language(r.language)}", r.code, "```"]
    lines.append("")
    lines.append(f"- Type: {r.kind}")
    if r.signature:
        lines.append(f"- Signature: `{r.signature}`")
    lines.append(f"- Exported: {'yes' if r.exported else 'no'}")
    if r.resolved_from:
        chain = " → ".join(f"`{step['file']}` (`{step['via']}`)" for step in r.resolved_from)
        lines.append(f"- Resolved from: {chain}")
    if r.members:
        shown = ", ".join(f"`{m['name']}` ({m['kind']})" for m in r.members[:_MEMBERS_SHOWN])
        more = len(r.members) - _MEMBERS_SHOWN
        lines.append("- Members: " + shown + (f", … {plural(more, 'more member')} (`codetrace trace "
                                               f"{r.qualified_name or r.name}` lists them all)" if more > 0 else ""))
    if r.overloads:
        lines.append("- Overloads: " + ", ".join(f"`{o['signature']}`" for o in r.overloads))
    if r.candidates:
        lines += ["", "Other candidates:"]
        lines += [f"- `{c['name']}` ({c['kind']}) — `{c['file']}:{c['line']}`" for c in r.candidates]
    return "\n".join(lines) + "\n"


def _references(r: ReferencesResult) -> str:
    if r.status != "found":
        return _not_found("References", r)
    d = r.definition
    lines = [f"# References to `{r.symbol}`", "",
             f"{plural(r.count, 'reference')} in {plural(r.files, 'file')}"
             f" — defined at `{_location(d)}` ({d.kind})", ""]
    by_file: dict[str, list] = {}
    for ref in r.references:
        by_file.setdefault(ref.file, []).append(ref)
    for file, refs in by_file.items():
        marker = " _(test)_" if refs[0].test else ""
        lines.append(f"### `{file}`{marker}")
        for ref in refs:
            where = f"cell {ref.cell}, line {ref.line}" if ref.cell is not None else f"{ref.line}:{ref.column}"
            lines.append(f"- {where} `{ref.usage}` — `{ref.context}`")
        lines.append("")
    if r.re_exports:
        lines.append("Re-exported from: " + ", ".join(f"`{e['file']}` as `{e['exported_as']}`" for e in r.re_exports))
    return "\n".join(lines).rstrip() + "\n"


def _symbols(r: SymbolsResult) -> str:
    if r.status != "found":
        return f"# Symbols\n\n**{r.status}**: {r.message}\n"
    lines = [f"# Symbols matching `{r.query}`", ""]
    for m in r.matches:
        container = f" in `{m.container}`" if m.container else ""
        lines.append(f"- `{m.name}` ({m.kind}){container} — `{m.file}:{m.line}`")
    if r.truncated:
        lines.append(f"\n_More matches exist; showing the best {len(r.matches)}._")
    return "\n".join(lines) + "\n"
