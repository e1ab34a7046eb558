"""C and C++: ``#include`` resolution and header/source pairing (everything else is in c.scm/cpp.scm).

``#include "x.h"`` is read as a star import of the header: the names it declares become visible
in the including file. It is resolved as a compiler would with the repository's include path:
first relative to the including file, then under the ``-I`` folders of ``compile_commands.json``
(when the repository has one), then under any ``include/`` folder, then anywhere by file name.
``#include <x>`` names a system or third-party header and is not followed.
"""

from __future__ import annotations

import posixpath
import shlex

from .spec import LanguageSpec, ModuleContext

__all__ = ["C_SPEC", "CPP_SPEC", "resolve_include", "counterparts", "HEADER_EXTENSIONS", "SOURCE_EXTENSIONS"]

HEADER_EXTENSIONS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl")
SOURCE_EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".c++")

# Identifiers that name the language's library rather than anything in the project.
_C_BUILTINS = frozenset("""
NULL size_t ssize_t ptrdiff_t intptr_t uintptr_t int8_t int16_t int32_t int64_t uint8_t uint16_t
uint32_t uint64_t bool true false FILE stdin stdout stderr errno EOF printf fprintf sprintf
snprintf puts putchar scanf sscanf malloc calloc realloc free memcpy memmove memset memcmp strlen
strcmp strncmp strcpy strncpy strcat strchr strrchr strstr strdup atoi atol strtol strtoul strtod
abs exit abort assert fopen fclose fread fwrite fgets fputs fflush qsort bsearch va_list va_start
va_end va_arg offsetof sizeof
""".split())
_CPP_BUILTINS = _C_BUILTINS | frozenset("std nullptr this".split())


def _join(folder: str, spec: str) -> str | None:
    path = posixpath.normpath(posixpath.join(folder, spec)) if folder else posixpath.normpath(spec)
    if path == "." or path == ".." or path.startswith(("../", "/")):
        return None
    return path


def _include_dirs(ctx: ModuleContext) -> list[str]:
    """``-I`` folders from a root ``compile_commands.json`` (root-relative; outside ones dropped)."""
    data = ctx.read_text("compile_commands.json")
    if not data:
        return []
    import json

    try:
        entries = json.loads(data)
    except ValueError:
        return []
    found: list[str] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        args = entry.get("arguments")
        if not isinstance(args, list):
            try:
                args = shlex.split(str(entry.get("command", "")))
            except ValueError:
                continue
        directory = str(entry.get("directory", ""))
        for i, arg in enumerate(args):
            value = arg[2:] if arg.startswith("-I") and len(arg) > 2 else (
                args[i + 1] if arg in ("-I", "-isystem", "-iquote") and i + 1 < len(args) else None)
            if value is None:
                continue
            if posixpath.isabs(value) and directory and value.startswith(directory.rstrip("/") + "/"):
                value = value[len(directory.rstrip("/")) + 1:]
            if not posixpath.isabs(value):
                rel = _join("", value)
                if rel is not None and rel not in found:
                    found.append(rel)
    return found


def resolve_include(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    """The header ``#include "spec"`` in ``importer`` names, root-relative, or ``[]``."""
    spec = spec.strip()
    if not spec or spec.startswith("<"):
        return []
    here = _join(posixpath.dirname(importer), spec)
    if here is not None and ctx.is_file(here):
        return [here]
    for folder in _include_dirs(ctx):
        candidate = _join(folder, spec)
        if candidate is not None and ctx.is_file(candidate):
            return [candidate]
    # No build description: any file whose path ends with the spec, `include/` folders first,
    # then the one sharing the longest folder prefix with the includer.
    tail = "/" + spec.lstrip("./")
    matches = [p for p in ctx.files_named(posixpath.basename(spec)) if ("/" + p).endswith(tail)]
    matches.sort(key=lambda p: ("/include/" not in "/" + p, -_shared_prefix(p, importer), p))
    return matches[:1]


def _shared_prefix(a: str, b: str) -> int:
    count = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        count += 1
    return count


def counterparts(path: str, ctx: ModuleContext) -> list[str]:
    """``src/x.cpp`` -> ``include/x.hpp`` and back: same stem, the other role, nearest first."""
    stem, ext = posixpath.splitext(path)
    base = posixpath.basename(stem)
    others = SOURCE_EXTENSIONS if ext.lower() in HEADER_EXTENSIONS else HEADER_EXTENSIONS
    found = [p for e in others for p in ctx.files_named(base + e)]
    found.sort(key=lambda p: (-_shared_prefix(p, path), p))
    return found


_CPP_SOURCES = tuple(e for e in SOURCE_EXTENSIONS if e != ".c")


def _header_language(path: str, ctx: ModuleContext) -> str | None:
    """A `.h` is parsed as C++ (the C++ grammar reads C headers too) but shown as what its
    project is: C when its own source (`x.h` -> `x.c`) is C, else when the nearest folder with
    sources (its own, a sibling such as `src/` beside `include/`, the root) has C and no C++."""
    if posixpath.splitext(path)[1] != ".h":
        return None
    own = counterparts(path, ctx)
    if own:
        return "c" if own[0].endswith(".c") else None
    folder = posixpath.dirname(path)
    parent = posixpath.dirname(folder)
    siblings = [f for f in ctx.folders_in(parent) if f != folder] if folder else []
    for place in [folder, *siblings, ""]:
        files = ctx.files_in(place)
        if any(f.endswith(_CPP_SOURCES) for f in files):
            return None
        if any(f.endswith(".c") for f in files):
            return "c"
    return None


_CLASS_KINDS = frozenset({"class", "struct"})


def _exported(d, container, default: bool) -> bool:
    """Linkage: a `static` function or variable outside a class is internal to its file (a
    `static` class member is the class's, and keeps the class's rule)."""
    if "static" in d.modifiers and (container is None or container.kind not in _CLASS_KINDS):
        return False
    return default


C_SPEC = LanguageSpec(
    name="c",
    grammar="c",
    extensions=(".c",),
    comment="//",
    builtins=_C_BUILTINS,
    top_level_is_exported=True,
    exported=_exported,
    doc_comment_prefixes=("///", "/**", "//!", "/*!"),
    resolve_module=resolve_include,
    counterparts=counterparts,
)

CPP_SPEC = LanguageSpec(
    name="cpp",
    grammar="cpp",
    # `.h` is read as C++: the C++ grammar parses C headers, the C grammar not C++ ones.
    extensions=(".h", ".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".inl"),
    comment="//",
    builtins=_CPP_BUILTINS,
    this_keywords=frozenset({"this"}),
    top_level_is_exported=True,
    exported=_exported,
    doc_comment_prefixes=("///", "/**", "//!", "/*!"),
    resolve_module=resolve_include,
    counterparts=counterparts,
    shown_language=_header_language,
    namespace_members_visible=True,
    implicit_members=True,
    constructor_named_as_class=True,
    members_outside_types=True,
)
