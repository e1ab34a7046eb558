"""Python: module naming and import-path rules (everything else is in python.scm)."""

from __future__ import annotations

import builtins

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "resolve_python_module", "python_module_name"]


def resolve_python_module(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    """Files (or package folders' ``__init__``) that ``import spec`` names, seen from ``importer``.

    Relative specs (``.m``, ``..pkg.m``, ``.``) start from the importer's package; absolute
    ones are tried under every package root (the repository root, ``src/``, and folders that
    hold a top-level package). ``.py`` is preferred over ``.pyi``: callers ask for the stub
    themselves when they want declarations.
    """
    spec = spec.strip()
    if spec.startswith("."):
        level = len(spec) - len(spec.lstrip("."))
        parts = importer.split("/")[:-1]
        if level > 1:
            parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else None
        if parts is None:
            return []
        rest = [p for p in spec[level:].split(".") if p]
        bases = ["/".join(parts + rest)]
    else:
        rest = [p for p in spec.split(".") if p]
        roots = list(ctx.package_roots())
        # A script outside any package imports its neighbours (its folder is on sys.path).
        folder = importer.rsplit("/", 1)[0] if "/" in importer else ""
        if folder not in roots and not ctx.is_file(f"{folder}/__init__.py"):
            roots.append(folder)
        bases = [(root + "/" if root else "") + "/".join(rest) for root in roots]
    found: list[str] = []
    for base in bases:
        base = base.strip("/")
        for candidate in (f"{base}.py", f"{base}/__init__.py", f"{base}.pyi", f"{base}/__init__.pyi"):
            if candidate.startswith("/") or not candidate or candidate == ".py":
                continue
            if ctx.is_file(candidate):
                found.append(candidate)
        if not found and base and ctx.is_dir(base):
            found.append(base + "/")  # namespace package: a folder without __init__
        if found:
            break
    if not found and not spec.startswith(".") and rest:
        # a stubs-only package (PEP 561): `fastmath-stubs/` types a module with no Python source
        for root in ctx.package_roots():
            stub = "/".join(([root] if root else []) + [rest[0] + "-stubs"] + rest[1:])
            for candidate in (f"{stub}.pyi", f"{stub}/__init__.pyi"):
                if "/" in candidate and ctx.is_file(candidate):
                    return [candidate]
    return found


def python_module_name(path: str, ctx: ModuleContext) -> str:
    """The dotted name an ``import`` would use: ``src/pkg/mod.py`` -> ``pkg.mod``."""
    for root in sorted(ctx.package_roots(), key=len, reverse=True):
        prefix = f"{root}/" if root else ""
        if path.startswith(prefix):
            rest = path[len(prefix):]
            break
    else:
        rest = path
    rest = rest.rsplit(".", 1)[0] if rest.endswith((".py", ".pyi", ".ipynb")) else rest
    parts = rest.split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _is_public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


SPEC = LanguageSpec(
    name="python",
    grammar="python",
    extensions=(".py", ".pyi"),
    comment="#",
    builtins=frozenset(dir(builtins)) | {"__name__", "__file__", "__doc__", "__builtins__", "__spec__"},
    self_names=frozenset({"self", "cls"}),
    super_names=frozenset({"super"}),
    self_types=frozenset({"Self", "typing.Self", "typing_extensions.Self"}),
    constructor_names=frozenset({"__init__"}),
    assignment_defines_annotated_member=True,
    iteration_methods=("__iter__", "__next__"),
    infer_parameters_from_calls=True,
    calling_builtins={"map": {0}, "filter": {0}, "sorted": {"key"}, "min": {"key"}, "max": {"key"},
                      "reduce": {0}, "apply": {0}},
    class_scope_encloses=False,
    top_level_is_exported=True,
    is_public=_is_public,
    declaration_suffixes=(".pyi",),
    resolve_module=resolve_python_module,
    module_name=python_module_name,
    root_class="object",
)
