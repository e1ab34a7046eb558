"""Fallback languages: tags-style queries (definitions, name references, calls) and no import rules.

Every grammar here is indexed and searchable, and ``find_definition``/``find_references`` answer
by name: a name bound in the same file resolves lexically, any other one is a ``name-only``
answer with ranked candidates. ``precise=False`` tells ``codetrace index`` to list them as
fallback languages. Precise support for one of them = its own module with import rules.
"""

from __future__ import annotations

from .spec import LanguageSpec

__all__ = ["SPECS"]


def _fallback(name: str, grammar: str, extensions: tuple[str, ...], comment: str) -> LanguageSpec:
    return LanguageSpec(name=name, grammar=grammar, extensions=extensions, comment=comment,
                        top_level_is_exported=True, precise=False)


SPECS: tuple[LanguageSpec, ...] = (
    _fallback("ruby", "ruby", (".rb", ".rake"), "#"),
    _fallback("php", "php", (".php",), "//"),
    _fallback("csharp", "csharp", (".cs",), "//"),
    _fallback("kotlin", "kotlin", (".kt", ".kts"), "//"),
    _fallback("lua", "lua", (".lua",), "--"),
    _fallback("bash", "bash", (".sh", ".bash"), "#"),
    _fallback("scala", "scala", (".scala", ".sc"), "//"),
    _fallback("swift", "swift", (".swift",), "//"),
)
