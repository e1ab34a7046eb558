"""Go: packages are folders, imports name module paths from ``go.mod`` (the rest is in go.scm).

``import "example.com/app/store"`` resolves through the nearest ``go.mod`` above the importer:
its ``module`` path is the folder holding that ``go.mod``, so the import names the ``.go`` files
of ``store/`` under it. The package's files share their top-level names
(``LanguageSpec.package_files``); an unaliased import binds the last path element. Exported =
capitalised. Standard-library and third-party imports are outside the repository: ``[]``.
"""

from __future__ import annotations

import posixpath
import re

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "resolve_import", "package_files", "module_path"]

_MODULE_LINE = re.compile(r"^\s*module\s+\"?([^\s\"]+)\"?", re.MULTILINE)

BUILTINS = frozenset("""
append cap clear close complex copy delete imag len make max min new panic print println real recover
bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8
uint16 uint32 uint64 uintptr any comparable true false iota nil _
""".split())


def module_path(folder: str, ctx: ModuleContext) -> tuple[str, str] | None:
    """(module path, its folder) from the nearest ``go.mod`` at or above ``folder``."""
    while True:
        text = ctx.read_text(f"{folder}/go.mod" if folder else "go.mod")
        if text is not None:
            match = _MODULE_LINE.search(text)
            return (match.group(1), folder) if match else None
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _go_files(folder: str, ctx: ModuleContext) -> list[str]:
    return sorted(p for p in ctx.files_in(folder) if p.endswith(".go"))


def resolve_import(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    """The ``.go`` files of the package ``import "spec"`` names (non-test files first)."""
    found = module_path(posixpath.dirname(importer), ctx)
    if found is None:
        return []
    module, folder = found
    if spec != module and not spec.startswith(module + "/"):
        return []
    rest = spec[len(module):].strip("/")
    target = "/".join(p for p in (folder, rest) if p)
    files = _go_files(target, ctx)
    return sorted(files, key=lambda p: (p.endswith("_test.go"), p))


def package_files(path: str, ctx: ModuleContext) -> list[str]:
    """The other ``.go`` files of ``path``'s folder (one package; tests see the package too)."""
    return [p for p in _go_files(posixpath.dirname(path), ctx) if p != path]


def _default_import_name(module: str) -> str | None:
    last = module.rstrip("/").rsplit("/", 1)[-1]
    if re.fullmatch(r"v\d+", last) and "/" in module:  # `example.com/x/v2` is package x
        last = module.rstrip("/").rsplit("/", 2)[-2]
    last = last.split(".")[0].replace("-", "_")
    return last or None


def _is_public(name: str) -> bool:
    return name[:1].isupper()


def _exported(d, container, default: bool) -> bool:
    """A method (declared outside its type, ``func (s *Store) Count()``) is exported, as every Go
    name, when it is capitalised."""
    if d.qualifier is not None and container is None and d.kind == "method":
        return _is_public(d.name)
    return default


SPEC = LanguageSpec(
    name="go",
    grammar="go",
    extensions=(".go",),
    comment="//",
    builtins=BUILTINS,
    top_level_is_exported=True,
    is_public=_is_public,
    exported=_exported,
    doc_comment_prefixes=("//",),
    resolve_module=resolve_import,
    package_files=package_files,
    default_import_name=_default_import_name,
    implicit_interfaces=True,
    members_outside_types=True,
)
