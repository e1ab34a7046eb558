"""Rust: module paths (``mod``, ``crate::``, ``self::``, ``super::``) to files (the rest is in rust.scm).

A crate's root is ``src/lib.rs`` or ``src/main.rs`` (or any ``src/bin/*.rs``) under the nearest
``Cargo.toml``; ``mod name;`` in a module whose folder is F names ``F/name.rs`` or
``F/name/mod.rs``. A file's module folder is its own folder for ``lib.rs``/``main.rs``/``mod.rs``
and ``foo/`` for ``foo.rs``. ``use`` paths are read as (module path, item name); a path that
names no file is cut back until it does (``use crate::shapes::Shape::Circle`` -> the shapes
module). External crates (``std::``, dependencies) give ``[]``.
"""

from __future__ import annotations

import posixpath
import sys

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "resolve_path", "module_folder", "crate_root"]

_ROOT_FILES = ("lib.rs", "main.rs", "mod.rs")

BUILTINS = frozenset("""
Option Some None Result Ok Err Vec String Box Rc Arc RefCell Cell HashMap HashSet BTreeMap BTreeSet
println print eprintln eprint format write writeln vec assert assert_eq assert_ne panic todo
unimplemented unreachable debug_assert matches dbg Default Clone Copy Debug PartialEq Eq Hash
PartialOrd Ord Iterator IntoIterator From Into AsRef ToString Display Drop Fn FnMut FnOnce Send Sync
Sized std core alloc
""".split())


def module_folder(path: str) -> str:
    """The folder ``mod child;`` in ``path`` looks in."""
    folder, base = posixpath.split(path)
    if base in _ROOT_FILES or posixpath.basename(folder) == "bin" and base.endswith(".rs"):
        return folder
    return posixpath.join(folder, base[:-3]) if base.endswith(".rs") else folder


def crate_root(path: str, ctx: ModuleContext) -> str | None:
    """The crate's ``src`` folder: nearest ``Cargo.toml`` above ``path``, else the nearest ``src``."""
    folder = posixpath.dirname(path)
    while True:
        if ctx.is_file(f"{folder}/Cargo.toml" if folder else "Cargo.toml"):
            return f"{folder}/src" if folder else "src"
        if posixpath.basename(folder) == "src":
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _module_file(folder: str, name: str, ctx: ModuleContext) -> str | None:
    for candidate in (f"{folder}/{name}.rs", f"{folder}/{name}/mod.rs"):
        candidate = candidate.lstrip("/")
        if ctx.is_file(candidate):
            return candidate
    return None


def _crate_file(src: str, ctx: ModuleContext) -> str | None:
    for name in ("lib.rs", "main.rs"):
        if ctx.is_file(f"{src}/{name}".lstrip("/")):
            return f"{src}/{name}".lstrip("/")
    return None


def resolve_path(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    """The file of the module a ``use``/``mod`` path names, seen from ``importer``."""
    parts = [p for p in spec.strip().split("::") if p]
    if not parts:
        return []
    if parts[0] == "crate" or parts[0] == _package_name(importer, ctx):
        src = crate_root(importer, ctx)  # a binary names its own library crate by the package name
        if src is None:
            return []
        current, parts = _crate_file(src, ctx), parts[1:]
    elif parts[0] in ("self", "super"):
        current = importer
        while parts and parts[0] in ("self", "super"):
            if parts.pop(0) == "super":
                current = _parent_module(current, ctx)
                if current is None:
                    return []
    else:
        current = importer  # `mod name;` / a child module named from here
        if parts and _module_file(module_folder(importer), parts[0], ctx) is None:
            return []  # `std::…`, a dependency: outside the repository
    if current is None:
        return []
    for name in parts:
        child = _module_file(module_folder(current), name, ctx)
        if child is None:
            break  # the rest names items (`Shape::Circle`): stop at the module holding them
        current = child
    return [current]


def _package_name(importer: str, ctx: ModuleContext) -> str | None:
    src = crate_root(importer, ctx)
    if src is None:
        return None
    return crate_name(ctx.read_text(posixpath.join(posixpath.dirname(src), "Cargo.toml").lstrip("/")))


def crate_name(cargo_toml: str | None) -> str | None:
    """The name a binary uses for its package's library crate: ``[lib] name``, else ``[package]
    name`` with ``-`` as ``_`` (Cargo's rule); None for a workspace-only or unreadable manifest."""
    if not cargo_toml:
        return None
    if sys.version_info >= (3, 11):   # imported here: only a Rust project reads a manifest
        import tomllib
    else:  # pragma: no cover - Python 3.10: the same parser, as a package
        import tomli as tomllib
    try:
        manifest = tomllib.loads(cargo_toml)
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    for table in ("lib", "package"):
        section = manifest.get(table)
        name = section.get("name") if isinstance(section, dict) else None
        if isinstance(name, str) and name:
            return name.replace("-", "_")
    return None


def _parent_module(path: str, ctx: ModuleContext) -> str | None:
    folder = module_folder(path)
    parent_folder = posixpath.dirname(folder)
    own = posixpath.basename(folder)
    for candidate in (f"{parent_folder}/{own}.rs", f"{parent_folder}/mod.rs", f"{parent_folder}/lib.rs",
                      f"{parent_folder}/main.rs"):
        candidate = candidate.lstrip("/")
        if candidate != path and ctx.is_file(candidate):
            return candidate
    base = posixpath.basename(path)
    if base in _ROOT_FILES:
        up = posixpath.dirname(posixpath.dirname(path))
        for name in ("mod.rs", "lib.rs", "main.rs"):
            if ctx.is_file(f"{up}/{name}".lstrip("/")):
                return f"{up}/{name}".lstrip("/")
    return None


SPEC = LanguageSpec(
    name="rust",
    grammar="rust",
    extensions=(".rs",),
    comment="//",
    builtins=BUILTINS,
    self_names=frozenset({"self"}),
    this_keywords=frozenset({"Self"}),
    self_types=frozenset({"Self"}),
    doc_comment_prefixes=("///", "//!", "/**"),
    resolve_module=resolve_path,
    members_outside_types=True,
)
