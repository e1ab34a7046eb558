"""JavaScript (with JSX): the module-path rules are TypeScript's (everything else is in javascript.scm)."""

from __future__ import annotations

from .spec import LanguageSpec
from .typescript import BUILTINS, COMMONJS_WORDS, resolve_module

__all__ = ["SPEC"]


def _is_public(name: str) -> bool:
    return not name.startswith("#")


SPEC = LanguageSpec(
    name="javascript",
    grammar="javascript",
    extensions=(".js", ".jsx", ".mjs", ".cjs"),
    comment="//",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    super_names=frozenset({"super"}),
    super_call_is_constructor=True,
    constructor_names=frozenset({"constructor"}),
    # Class members are reached through `this`, never by bare name from a method body.
    class_scope_encloses=False,
    class_body_binds_names=False,
    top_level_is_exported=False,
    is_public=_is_public,
    doc_comment_prefixes=("/**",),
    resolve_module=resolve_module,
    namespace_import_is_definition=True,
    rare_words=COMMONJS_WORDS,
    members_assigned_to_objects=True,
    module_object_names=frozenset({"exports", "module.exports"}),
)
