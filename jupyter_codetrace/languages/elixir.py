"""Elixir: module names are global, ``alias`` binds the last segment (the rest is in elixir.scm).

``alias Shop.Pricing`` binds ``Pricing``; ``alias Shop.Pricing, as: P`` binds ``P``; both name
the file defining ``defmodule Shop.Pricing``, found by Mix's convention (``lib/shop/pricing.ex``)
and else by any file whose path ends with the underscored module path. A full module name used
anywhere resolves to the one module defined with it (``LanguageSpec.global_module_names``).
``def`` is public, ``defp`` private; ``@doc``/``@moduledoc`` are docs.
"""

from __future__ import annotations

import re

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "resolve_module", "underscore"]

BUILTINS = frozenset("""
Kernel Enum Map List String Integer Float IO Agent GenServer Supervisor Task Process Keyword Access
Stream Regex Path File System Logger Application Code Module Atom Tuple MapSet Date DateTime
is_nil is_atom is_binary is_list is_map is_integer raise inspect to_string length elem put_elem hd tl
self send spawn apply div rem abs max min round trunc not true false nil
""".split())


def underscore(module: str) -> str:
    """``Shop.OrderLine`` -> ``shop/order_line`` (Macro.underscore)."""
    parts = []
    for part in module.split("."):
        part = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", part)
        parts.append(re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", part).lower())
    return "/".join(parts)


def resolve_module(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    path = underscore(spec.strip())
    base = path.rsplit("/", 1)[-1]
    for ext in (".ex", ".exs"):
        for prefix in ("lib/", ""):
            if ctx.is_file(prefix + path + ext):
                return [prefix + path + ext]
        matches = sorted(p for p in ctx.files_named(base + ext) if ("/" + p).endswith("/" + path + ext))
        if matches:
            return matches[:1]
    return []


def _last_segment(module: str) -> str | None:
    last = module.strip().rsplit(".", 1)[-1]
    return last if last[:1].isupper() else None


SPEC = LanguageSpec(
    name="elixir",
    grammar="elixir",
    extensions=(".ex", ".exs"),
    comment="#",
    builtins=BUILTINS,
    resolve_module=resolve_module,
    default_import_name=_last_segment,
    namespace_members_visible=True,
    global_module_names=True,
)
