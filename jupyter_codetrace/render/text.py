"""Plain text in the seed tools' formats (`Definition for NAME:` …), for terminals and agents."""

from __future__ import annotations

from ..results import (
    DefinitionResult, GraphResult, LibrarySourceResult, ReferencesResult, SymbolsResult, TraceResult, library_label,
)

__all__ = ["render", "plural"]


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 file``, ``2 files``, ``0 files`` (``many`` for words not made plural by an ``s``)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def render(result) -> str:
    if isinstance(result, DefinitionResult):
        return _definition(result)
    if isinstance(result, ReferencesResult):
        return _references(result)
    if isinstance(result, SymbolsResult):
        return _symbols(result)
    if isinstance(result, GraphResult):
        from . import graph

        return graph.render(result)
    if isinstance(result, TraceResult):
        from . import trace

        return trace.render(result)
    if isinstance(result, LibrarySourceResult):
        if result.status != "found":
            return _not_found(result)
        return f"# {result.file} — {library_label(result.library)} (read-only)\n{result.text}"
    raise TypeError(f"no text renderer for {type(result).__name__}")


def _not_found(result) -> str:
    lines = [f"{result.status}: {result.message}"]
    return "\n".join(lines) + "\n"


def _definition(r: DefinitionResult) -> str:
    if r.status != "found":
        return _not_found(r)
    where = f"{r.file}:{r.line}:{r.column}" if r.cell is None else f"{r.file} cell {r.cell}:{r.line}:{r.column}"
    if r.library:
        where += f" — {library_label(r.library)}"
    lines = [f"Definition for {r.name}:", "", f"Defined in: {where}", ""]
    if r.code:
        lines += [r.code, ""]
    lines.append(f"Type: {r.kind}")
    if r.signature:
        lines.append(f"Signature: {_seed_signature(r)}")
    lines.append(f"Exported: {'yes' if r.exported else 'no'}")
    if r.mode_resolution == "fell_back_to_definition":
        lines.append(f"Note: no {r.mode.replace('_', ' ')} found; this is the definition.")
    if r.resolution == "name-only" and r.candidates:
        lines.append("Resolved by name only; other candidates: "
                     + ", ".join(f"{c['file']}:{c['line']}" for c in r.candidates))
    return "\n".join(lines) + "\n"


_ARROW_LANGUAGES = ("typescript", "tsx", "javascript")


def _seed_signature(r: DefinitionResult) -> str:
    """A TS/JS callable's signature in the seed's form, ``(data: InputData) => boolean`` (the index
    keeps the declaration's own ``(data: InputData): boolean``); other languages keep theirs."""
    signature, returns = r.signature, r.returns
    if r.language in _ARROW_LANGUAGES and returns and signature[:1] in ("(", "<") \
            and signature.endswith(f"): {returns}"):
        return f"{signature[: -len(returns) - 2]} => {returns}"
    return signature


def _references(r: ReferencesResult) -> str:
    if r.status != "found":
        return _not_found(r)
    lines = [f"References to {r.symbol}: {r.count} in {plural(r.files, 'file')} "
             f"(defined at {r.definition.where()})"]
    for ref in r.references:
        lines.append(f"{ref.file}:{ref.line}:{ref.column} [{ref.usage}{', test' if ref.test else ''}] {ref.context}")
    return "\n".join(lines) + "\n"


def _symbols(r: SymbolsResult) -> str:
    if r.status != "found":
        return _not_found(r)
    return "\n".join(f"{m.name} ({m.kind}) {m.file}:{m.line}" + (f" in {m.container}" if m.container else "")
                     for m in r.matches) + "\n"
