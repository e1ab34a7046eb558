"""The language registry: one line per language. ``for_path`` picks a language by extension."""

from __future__ import annotations

import posixpath

from .spec import LanguageSpec
from . import c_family, elixir, fallback, go, java, javascript, python, rust, typescript

__all__ = ["REGISTRY", "LanguageSpec", "for_path", "by_name", "supported_extensions"]

REGISTRY: tuple[LanguageSpec, ...] = (
    python.SPEC,
    typescript.SPEC,
    typescript.TSX_SPEC,
    javascript.SPEC,
    c_family.C_SPEC,
    c_family.CPP_SPEC,
    go.SPEC,
    rust.SPEC,
    java.SPEC,
    elixir.SPEC,
    *fallback.SPECS,
)

_BY_EXTENSION = {ext: spec for spec in REGISTRY for ext in spec.extensions}
_BY_NAME = {spec.name: spec for spec in REGISTRY}


def _extension(path: str) -> str:
    base = posixpath.basename(path)
    if base.endswith(".d.ts"):
        return ".d.ts" if ".d.ts" in _BY_EXTENSION else ".ts"
    return posixpath.splitext(base)[1].lower()


def for_path(path: str) -> LanguageSpec | None:
    """The language of a file by its extension, or None when no language claims it."""
    return _BY_EXTENSION.get(_extension(path))


def by_name(name: str) -> LanguageSpec:
    return _BY_NAME[name]


def spec_of(language: str | None) -> LanguageSpec | None:
    """The spec that analyses files of an index language name (a notebook's code is Python);
    None for no language or one without a spec."""
    return _BY_NAME.get("python" if language == "notebook" else language) if language else None


def supported_extensions() -> tuple[str, ...]:
    return tuple(_BY_EXTENSION)
