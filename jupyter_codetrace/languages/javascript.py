"""JavaScript (with JSX): the module-path rules are TypeScript's (everything else is in javascript.scm)."""

from __future__ import annotations

import re

from .spec import LanguageSpec
from .typescript import BUILTINS, COMMONJS_WORDS, ITEM_METHODS, resolve_module

__all__ = ["SPEC"]


def _is_public(name: str) -> bool:
    return not name.startswith("#")


# JSDoc tags that give a type: `@param {Help} helper`, `@param {Option} [option]`,
# `@returns {Command}`, `@type {Map<string, Option>}` (nested braces are not followed).
_DOC_PARAM = re.compile(r"@(?:param|arg|argument)\s*\{([^{}]+)\}\s*\[?\s*([A-Za-z_$][\w$]*)")
_DOC_RETURNS = re.compile(r"@returns?\s*\{([^{}]+)\}")
_DOC_TYPE = re.compile(r"@type\s*\{([^{}]+)\}")


_DOC_IMPORT = re.compile(r"@typedef\s*\{\s*import\(\s*[\"']([^\"']+)[\"']\s*\)\.([A-Za-z_$][\w$]*)\s*\}\s*([A-Za-z_$][\w$]*)")


def doc_imports(comment: str) -> list[tuple[str, str, str, int]]:
    """The types a JSDoc comment imports for the file: `@typedef {import("./command.js").Command}
    Command` as (module, imported name, local name, where the local name starts in ``comment``)."""
    return [(m.group(1), m.group(2), m.group(3), m.start(3)) for m in _DOC_IMPORT.finditer(comment)]


_NOT_A_TYPE = frozenset({"null", "undefined", "void"})
_CONTAINERS = re.compile(r"^(?:Array|ReadonlyArray|Set|Promise|Iterable)<(.*)>$")


def doc_type_name(written: str) -> str | None:
    """The one class a JSDoc type names, as the engine types a value (a container by its items,
    as annotations elsewhere): `Option`, `Option[]`, `Array<Option>`, `(Option | null)`,
    `?Option`, `Option=`; None for anything else (`Map<K, V>`, `string | number`)."""
    text = written.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    parts = [p.strip().lstrip("?!").rstrip("=").strip() for p in text.split("|")]
    parts = [p for p in parts if p and p not in _NOT_A_TYPE]
    if len(parts) != 1:
        return None
    name = parts[0]
    while True:
        inner = _CONTAINERS.match(name)
        if inner is None:
            break
        name = inner.group(1).strip()
    while name.endswith("[]"):
        name = name[:-2].strip()
    return name if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else None


_DOC_MEMBER = re.compile(
    r"@(?:param|arg|argument)\s*\{([^{}]+)\}\s*\[?\s*([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)")


def doc_members(comment: str) -> list[tuple[str, str, int, int, int]]:
    """Members of a parameter a JSDoc comment documents (`@param {Boolean} [options.mask=false]`):
    (parameter, member, where the member's name starts in ``comment``, start and end of its type)."""
    return [(m.group(2), m.group(3), m.start(3), m.start(1), m.end(1)) for m in _DOC_MEMBER.finditer(comment)]


def doc_types(comment: str) -> list[tuple[str, str | None, int, int]]:
    """The types a JSDoc comment gives, as TypeScript reads them in a JavaScript file: (tag,
    parameter name or None, start, end of the type's text in ``comment``); tag is ``param``,
    ``returns`` or ``type``."""
    found = [("param", m.group(2), m.start(1), m.end(1)) for m in _DOC_PARAM.finditer(comment)]
    found += [("returns", None, m.start(1), m.end(1)) for m in _DOC_RETURNS.finditer(comment)]
    found += [("type", None, m.start(1), m.end(1)) for m in _DOC_TYPE.finditer(comment)]
    return found


SPEC = LanguageSpec(
    name="javascript",
    grammar="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    comment="//",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    self_types=frozenset({"this"}),
    item_methods=ITEM_METHODS,
    super_names=frozenset({"super"}),
    super_call_is_constructor=True,
    constructor_names=frozenset({"constructor"}),
    # Class members are reached through `this`, never by bare name from a method body.
    class_scope_encloses=False,
    class_body_binds_names=False,
    top_level_is_exported=False,
    imports_are_exported=False,
    is_public=_is_public,
    doc_comment_prefixes=("/**",),
    resolve_module=resolve_module,
    namespace_import_is_definition=True,
    rare_words=COMMONJS_WORDS,
    members_assigned_to_objects=True,
    doc_types=doc_types,
    doc_type_name=doc_type_name,
    doc_members=doc_members,
    doc_imports=doc_imports,
    module_object_names=frozenset({"exports", "module.exports"}),
)
