"""LanguageSpec: what the engine needs to know about a language beyond its ``.scm`` query.

Each ``languages/<lang>.py`` builds one ``LanguageSpec``; the hooks here have defaults, so a
language overrides only what a query cannot express (module naming, import-path rules).
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path
from typing import Callable, Protocol

from ..dataclass_code import dataclass

__all__ = ["LanguageSpec", "ModuleContext", "QUERY_DIR"]

QUERY_DIR = Path(__file__).parent


class ModuleContext(Protocol):
    """What a module-resolution hook may ask about the project (paths are root-relative POSIX)."""

    def is_file(self, rel: str) -> bool: ...
    def is_dir(self, rel: str) -> bool: ...
    def read_json(self, rel: str) -> dict | None: ...
    def read_text(self, rel: str) -> str | None: ...
    def package_roots(self) -> list[str]: ...
    def files_named(self, basename: str) -> list[str]: ...
    def files_in(self, folder: str) -> list[str]: ...
    def folders_in(self, folder: str) -> list[str]: ...


def _no_modules(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    return []


def _no_counterparts(path: str, ctx: ModuleContext) -> list[str]:
    return []


def _no_default_import_name(module: str) -> str | None:
    return None


def _no_language_override(path: str, ctx: ModuleContext) -> str | None:
    return None


def _public_by_default(name: str) -> bool:
    return True


def _exported_by_default(definition, container, default: bool) -> bool:
    return default


def _path_without_extension(path: str, ctx: ModuleContext) -> str:
    """``src/utils.ts`` -> ``src/utils``: how TS/JS (and the default) name a module."""
    stem, dot, _ = path.rpartition(".")
    return stem if dot and "/" not in path[len(stem):] else path


@dataclass(frozen=True)
class LanguageSpec:
    """What the engine knows about one language besides its query (hooks default to the generic rule)."""

    name: str                                   # "python"
    grammar: str                                # language-pack grammar name ("tsx" for .tsx)
    extensions: tuple[str, ...]                 # (".py", ".pyi")
    comment: str                                # line-comment prefix ("#", "//")
    query_file: str = ""                        # defaults to "<name>.scm"
    builtins: frozenset[str] = frozenset()      # names that resolve to the language itself
    self_names: frozenset[str] = frozenset()    # receivers meaning "this instance" when bound by the method
    this_keywords: frozenset[str] = frozenset() # keywords meaning "this instance" anywhere in a class ("this")
    super_names: frozenset[str] = frozenset()   # `super` / `super()`
    # A declared return type meaning "the object the method was called on" (TS `this`, Python
    # `Self`, Rust `Self`): fluent builders (`z.string().min(1).email()`) keep the receiver's type.
    self_types: frozenset[str] = frozenset()
    # Methods of the language's own containers that give back one of their items or the same
    # items (`users.find(…)`, `.filter(…)`, `.at(-1)`, a Map's `.get(k)`): called on a value typed
    # by its items (`User[]`, `Map<string, User>`) whose type has no such member, they give that type.
    item_methods: frozenset[str] = frozenset()
    constructor_names: frozenset[str] = frozenset()  # "__init__", "constructor"
    class_scope_encloses: bool = True           # Python: False (methods do not see class-body names)
    class_body_binds_names: bool = True         # TS/JS: False (members are reached through `this`, never bare)
    # A member of a receiver of unknown type that one type alone defines is answered by name
    # (labelled name-only). TypeScript: False — there an unknown receiver is mostly a library
    # type (measured on ky: 0 of 9 such guesses right; on rich, Python: 2 of 2).
    guess_unique_members: bool = True
    # Built-ins that call a function they are given, by position or keyword (Python `map(f, xs)`,
    # `sorted(xs, key=f)`): the call graph has the call (inferred).
    calling_builtins: dict = field(default_factory=dict, compare=False, hash=False)
    # An unannotated parameter has the type its callers pass, when they agree (Python, as Jedi).
    infer_parameters_from_calls: bool = False
    # Methods a loop calls on what it iterates, in order (Python: `for x in c` calls
    # `c.__iter__()`, then `__next__` of what that gives); their edges are inferred.
    iteration_methods: tuple[str, ...] = ()
    # Python: `x: int` in a class body only annotates; `self.x = …` in a method defines x.
    assignment_defines_annotated_member: bool = False
    top_level_is_exported: bool = False         # Python: every top-level binding is importable
    # A name a module imports is importable from it too (Python); an ES module re-exports only
    # what an `export` names (`export *` of a file that does `import * as parse` gives no `parse`).
    imports_are_exported: bool = True
    is_public: Callable[[str], bool] = _public_by_default  # exported status when not explicit
    # The language's own visibility rule, last word on `exported`: given a definition (its kind,
    # name, modifiers, qualifier), the definition enclosing it (or None) — already decided — and
    # the answer of the rules above, the answer. C/C++: a `static` function or variable has
    # internal linkage; TS: a `private` member; Go: capitalised names, methods too; Java:
    # `public`/`protected` only.
    exported: Callable[..., bool] = _exported_by_default
    doc_comment_prefixes: tuple[str, ...] = ()  # comments that document the next definition
    declaration_suffixes: tuple[str, ...] = ()  # files holding declarations only (".pyi", ".d.ts")
    resolve_module: Callable[[str, str, ModuleContext], list[str]] = _no_modules
    module_name: Callable[[str, ModuleContext], str] = _path_without_extension  # file -> qualified module name
    precise: bool = True                        # False for tags-only fallback languages
    implicit_interfaces: bool = False           # Go: a type implements every interface whose methods it has
    # Files holding the other half of this file's declarations (C/C++: `x.h` <-> `x.c`), best
    # first: `mode="definition"` of a prototype looks there for the body, and back.
    counterparts: Callable[[str, ModuleContext], list[str]] = _no_counterparts
    # The language a file's code is shown as when it is not this one (a C project's `.h`, parsed
    # as C++, is C: its answers say `language: c` and fence its code as c); None: this one.
    shown_language: Callable[[str, ModuleContext], str | None] = _no_language_override
    # Names declared inside a namespace also bind in its enclosing scope (C++ namespaces are
    # reopened across files and their members are used unqualified from inside them).
    namespace_members_visible: bool = False
    # Files sharing this file's top-level names (Go: the package is the folder), best first.
    package_files: Callable[[str, ModuleContext], list[str]] = _no_counterparts
    # The local name an import without a name or alias binds (Go `import "a/b"` binds `b`).
    default_import_name: Callable[[str], str | None] = _no_default_import_name
    # Module names are global (Elixir `Shop.Cart`): an unbound name that exactly one module
    # definition carries resolves to it.
    global_module_names: bool = False
    # Inside an out-of-line member (`void Foo::bar() { x; }`) bare names also find Foo's members.
    implicit_members: bool = False
    # TypeScript/JavaScript: go-to-definition of a name bound by `import * as ns` answers that
    # binding (as TypeScript's language service does); the module is named in the answer.
    namespace_import_is_definition: bool = False
    # TypeScript: go-to-definition of a call of an overloaded function answers its first overload
    # signature, as TypeScript's language service (and so VS Code) does; the body and the other
    # signatures are listed in the answer's `overloads`.
    overload_signature_is_definition: bool = False
    # Java: `super(args)` calls the parent class's constructor (resolved to it; Python's
    # `super()` is a proxy, not a constructor call).
    super_call_is_constructor: bool = False
    # Java: methods of one class share a name and differ in their parameters; a call is resolved
    # to the one whose parameter count fits its argument count (resolve/overloads.py). Every call
    # with arguments is recorded in ``FileFacts.call_arguments`` (literals as unknown tokens).
    overloads_by_arity: bool = False
    # TypeScript: (required, most) parameters of a signature's text — `b?: T` and `b = 1` are
    # optional, a rest `...xs` takes any number more (most: None); None when the text is not a
    # parameter list. Without it, overloads take exactly their parameters (Java's rule above).
    arity_of: Callable[[str], tuple[int, int | None] | None] | None = field(default=None, compare=False, hash=False)
    # C++: a function declared in a class body under the class's own name is its constructor.
    constructor_named_as_class: bool = False
    # Members may be written outside their type's body (C++ `Foo::bar() {}`, Go methods with a
    # `Foo` receiver, Rust `impl Foo {}`): only such files are read for a type's extra members.
    members_outside_types: bool = False
    # TS/JS: an object gets members by assignment (`app.use = function …` on `var app = {}`,
    # `View.prototype.render = …`) and from the literal a variable holds (`const api = {get() {}}`):
    # members of the variable or function (index/extract.py ``_attach_to_object``), and a variable
    # holding such members is typed as that object (resolve/types.py).
    members_assigned_to_objects: bool = False
    # TS/JS: CommonJS's module object (`exports.f = …`, `module.exports.f = …`): what is assigned
    # to its members is exported and binds no name in the file (`var etag = require('etag');
    # exports.etag = …` leaves `etag` the import's).
    module_object_names: frozenset[str] = frozenset()
    # JavaScript: the types its doc comments give (JSDoc `@param {T} name`, `@returns {T}`,
    # `@type {T}`), as TypeScript reads them there: given a doc comment's text, (tag, parameter
    # name or None, start, end of the type in the text). The type's name is then resolved where
    # the definition is (resolve/types.py).
    doc_types: Callable[[str], list] | None = field(default=None, compare=False, hash=False)
    # JavaScript: the names its doc comments import for type annotations (JSDoc `@typedef
    # {import("./command.js").Command} Command`): given a comment's text, (module, imported name,
    # local name, where the local name starts in the text); each is one more import of the file.
    doc_imports: Callable[[str], list] | None = field(default=None, compare=False, hash=False)
    # … and the one class such a type names (`Option[]` → `Option`), or None.
    doc_type_name: Callable[[str], str | None] | None = field(default=None, compare=False, hash=False)
    # … and the members of a parameter it documents (`@param {Boolean} [options.mask]`): (parameter,
    # member, where the member's name starts, where its type starts and ends); each is a property of
    # that parameter, defined where the comment names it.
    doc_members: Callable[[str], list] | None = field(default=None, compare=False, hash=False)
    # TypeScript: the type parameter a declared type gives back, alone or in a built-in wrapper
    # (`T`, `Promise<T>`, `T[]`, `T | undefined` → "T"), else None: a generic function declared to
    # return it gives what its call's type argument, or the argument its parameter typed by it, is.
    type_parameter_of: Callable[[str], str | None] | None = field(default=None, compare=False, hash=False)
    # The class every class derives from, written or not (Python `object`): as a base, it makes
    # no two classes related (their same-named members are not one family of overrides).
    root_class: str | None = None
    # Words few files hold that some patterns' `#eq?` predicates ask for (TS/JS:
    # CommonJS's `require`, `exports`). Such a pattern matches only in a file holding its word: a
    # file holding none is matched with the query without those patterns (``lean_query_text``),
    # and a file holding one with those patterns too, as a second, small query
    # (``rare_query_text``, compiled when such a file is first met: index/parsing.py).
    rare_words: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def query_path(self) -> Path:
        return QUERY_DIR / (self.query_file or f"{self.name}.scm")

    @property
    def query_text(self) -> str:
        """The language's query: its ``.scm`` after the queries it inherits (a first-lines
        comment ``; inherits: typescript`` or ``; inherits: a,b``, as nvim-treesitter writes it)."""
        return _query_text(self.query_path)

    @property
    def lean_query_text(self) -> str:
        """The query without the patterns whose predicates ask for one of ``rare_words``, the
        others in their order: the query itself when there are none."""
        if not self.rare_words:
            return self.query_text
        return "\n".join(self._patterns_asking_for_rare_words(False))

    @property
    def rare_query_text(self) -> str:
        """The patterns ``lean_query_text`` leaves out, in their order (empty without rare words):
        matched after it in a file holding one of the words."""
        return "\n".join(self._patterns_asking_for_rare_words(True)) if self.rare_words else ""

    def _patterns_asking_for_rare_words(self, asking: bool) -> list[str]:
        text = self.query_text
        # `(#eq? @x "require")`: the pattern matches only where a node's text is the word
        asks = re.compile(r'\(#eq\?\s+@[\w.-]+\s+"(?:%s)"\s*\)' % "|".join(map(re.escape, self.rare_words)))
        return [text[start:end] for start, end in query_patterns(text)
                if bool(asks.search(text, start, end)) == asking]


def query_patterns(text: str) -> list[tuple[int, int]]:
    """Where each top-level pattern of a query's text starts and ends (offsets in ``text``), read
    as tree-sitter reads it: comments (`;` to the line's end) and strings skipped; a pattern's
    captures and quantifier after its closing bracket are part of it."""
    spans, depth, start, i, n = [], 0, 0, 0, len(text)
    while i < n:
        char = text[i]
        if char == ";":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif char == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif char in "([":
            if depth == 0:
                start = i
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                end = _TRAILING.match(text, i + 1).end()
                spans.append((start, end))
                i = end
                continue
        i += 1
    return spans


# what may follow a top-level pattern's closing bracket: its captures and a quantifier
_TRAILING = re.compile(r"(?:\s*(?:@[\w.-]+|[?*+]))*")


def _query_text(path: Path, seen: frozenset = frozenset()) -> str:
    text = path.read_text(encoding="utf-8")
    parts = []
    for line in text.splitlines()[:5]:
        if line.startswith("; inherits:"):
            for name in line.split(":", 1)[1].split(","):
                parent = QUERY_DIR / f"{name.strip()}.scm"
                if parent not in seen:
                    parts.append(_query_text(parent, seen | {path}))
    return "\n".join(parts + [text])
