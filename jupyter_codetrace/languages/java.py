"""Java: packages are folders under a source root (the rest is in java.scm).

``import com.acme.model.User;`` names the ``com/acme/model`` folder under the importer's source
root, found from the importer's own ``package`` line (``src/main/java/com/acme/app/Main.java``
with ``package com.acme.app;`` has the root ``src/main/java``), then under the usual Maven/Gradle
roots. The files of a package share their top-level classes (``LanguageSpec.package_files``).
JDK and dependency imports give ``[]``.
"""

from __future__ import annotations

import posixpath
import re

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "resolve_import", "source_roots"]

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_COMMON_ROOTS = ("src/main/java", "src/test/java", "src", "")

BUILTINS = frozenset("""
String Object Integer Long Double Float Boolean Character Byte Short Math System Thread Runnable
Exception RuntimeException IllegalArgumentException IllegalStateException NullPointerException
Override Deprecated FunctionalInterface SuppressWarnings Iterable Comparable CharSequence StringBuilder
Class Void Number Enum Record var
""".split())


def source_roots(importer: str, ctx: ModuleContext) -> list[str]:
    roots: list[str] = []
    text = ctx.read_text(importer) or ""
    match = _PACKAGE.search(text)
    folder = posixpath.dirname(importer)
    if match:
        suffix = match.group(1).replace(".", "/")
        if folder == suffix:
            roots.append("")
        elif folder.endswith("/" + suffix):
            roots.append(folder[: -len(suffix) - 1])
    elif folder not in roots:
        roots.append(folder)
    for root in _COMMON_ROOTS:
        if root not in roots and (root == "" or ctx.is_dir(root)):
            roots.append(root)
    return roots


def _java_files(folder: str, ctx: ModuleContext) -> list[str]:
    return sorted(p for p in ctx.files_in(folder) if p.endswith(".java"))


def resolve_import(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    """The files of the package (or the file of the class) ``spec`` names."""
    path = spec.strip().replace(".", "/")
    for root in source_roots(importer, ctx):
        base = f"{root}/{path}" if root else path
        if ctx.is_file(base + ".java"):  # `import static a.b.Util.max`: the class's file
            return [base + ".java"]
        files = _java_files(base, ctx)
        if files:
            return files
    return []


def package_files(path: str, ctx: ModuleContext) -> list[str]:
    return [p for p in _java_files(posixpath.dirname(path), ctx) if p != path]


_VISIBLE = frozenset({"public", "protected"})
_TYPE_KINDS = frozenset({"class", "interface", "enum"})


def _exported(d, container, default: bool) -> bool:
    """Java's access rule: a top-level type is exported when `public`; a member when its type is
    and it is `public` or `protected` (package-private and `private` are not). Interface members
    and enum constants are public unless `private`."""
    if d.kind == "parameter":
        return default
    if container is None:
        return default and "public" in d.modifiers
    if container.kind not in _TYPE_KINDS:
        return default  # a local
    if not container.exported:
        return False
    if container.kind == "interface" or d.kind == "enum_member":
        return "private" not in d.modifiers
    return not _VISIBLE.isdisjoint(d.modifiers)


SPEC = LanguageSpec(
    name="java",
    grammar="java",
    extensions=(".java",),
    comment="//",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    super_names=frozenset({"super"}),
    top_level_is_exported=True,
    exported=_exported,
    implicit_members=True,
    super_call_is_constructor=True,
    overloads_by_arity=True,
    doc_comment_prefixes=("/**",),
    resolve_module=resolve_import,
    package_files=package_files,
)
