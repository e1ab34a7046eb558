"""LanguageSpec: what the engine needs to know about a language beyond its ``.scm`` query.

Each ``languages/<lang>.py`` builds one ``LanguageSpec``; the hooks here have defaults, so a
language overrides only what a query cannot express (module naming, import-path rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

__all__ = ["LanguageSpec", "ModuleContext", "QUERY_DIR"]

QUERY_DIR = Path(__file__).parent


class ModuleContext(Protocol):
    """What a module-resolution hook may ask about the project (paths are root-relative POSIX)."""

    def is_file(self, rel: str) -> bool: ...
    def is_dir(self, rel: str) -> bool: ...
    def read_json(self, rel: str) -> dict | None: ...
    def read_text(self, rel: str) -> str | None: ...
    def package_roots(self) -> list[str]: ...


def _no_modules(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    return []


def _public_by_default(name: str) -> bool:
    return True


def _path_without_extension(path: str, ctx: ModuleContext) -> str:
    """``src/utils.ts`` -> ``src/utils``: how TS/JS (and the default) name a module."""
    stem, dot, _ = path.rpartition(".")
    return stem if dot and "/" not in path[len(stem):] else path


@dataclass(frozen=True)
class LanguageSpec:
    name: str                                   # "python"
    grammar: str                                # language-pack grammar name ("tsx" for .tsx)
    extensions: tuple[str, ...]                 # (".py", ".pyi")
    comment: str                                # line-comment prefix ("#", "//")
    query_file: str = ""                        # defaults to "<name>.scm"
    builtins: frozenset[str] = frozenset()      # names that resolve to the language itself
    self_names: frozenset[str] = frozenset()    # receivers meaning "this instance" when bound by the method
    this_keywords: frozenset[str] = frozenset() # keywords meaning "this instance" anywhere in a class ("this")
    super_names: frozenset[str] = frozenset()   # `super` / `super()`
    constructor_names: frozenset[str] = frozenset()  # "__init__", "constructor"
    class_scope_encloses: bool = True           # Python: False (methods do not see class-body names)
    top_level_is_exported: bool = False         # Python: every top-level binding is importable
    is_public: Callable[[str], bool] = _public_by_default  # exported status when not explicit
    doc_comment_prefixes: tuple[str, ...] = ()  # comments that document the next definition
    declaration_suffixes: tuple[str, ...] = ()  # files holding declarations only (".pyi", ".d.ts")
    resolve_module: Callable[[str, str, ModuleContext], list[str]] = _no_modules
    module_name: Callable[[str, ModuleContext], str] = _path_without_extension  # file -> qualified module name
    precise: bool = True                        # False for tags-only fallback languages
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def query_path(self) -> Path:
        return QUERY_DIR / (self.query_file or f"{self.name}.scm")
