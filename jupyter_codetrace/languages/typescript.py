"""TypeScript (and TSX): module-path rules and built-in names (everything else is in typescript.scm).

``resolve_module`` follows what ``tsc`` does with ``moduleResolution: "bundler"``/``"node16"``
for files inside the repository: relative specifiers, the ``.js`` → ``.ts`` ESM convention,
``index`` files, ``tsconfig.json``/``jsconfig.json`` ``baseUrl`` and ``paths`` (nearest config
above the importer, following relative ``extends``), and the root ``package.json`` self-reference.
Bare specifiers of installed packages give ``[]``: the engine reports them ``unresolved``.
"""

from __future__ import annotations

import json
import posixpath
from functools import lru_cache

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "TSX_SPEC", "resolve_module", "BUILTINS", "parse_jsonc"]

# Implementation files in the order tsc prefers them, then declaration files.
_IMPLEMENTATION_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_DECLARATION_EXTENSIONS = (".d.ts", ".d.mts", ".d.cts")
# An ESM specifier names the emitted file: `./x.js` is written for the source `./x.ts`.
_EMITTED_TO_SOURCE = {
    ".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",),
}
_CONFIG_FILES = ("tsconfig.json", "jsconfig.json")
_EXTENDS_DEPTH = 5  # tsconfig `extends` chains longer than this are cut (real ones are 1-3 deep)


def resolve_module(spec: str, importer: str, ctx: ModuleContext) -> list[str]:
    """Files that ``import … from 'spec'`` in ``importer`` names, root-relative, best first.

    The implementation file comes first, its ``.d.ts`` (when one exists beside it) after; a
    specifier naming an existing file (``./data.json``, ``./x.ts``) gives that file.
    """
    spec = spec.strip()
    if not spec or spec.startswith(("http:", "https:", "node:", "data:")):
        return []
    importer_dir = posixpath.dirname(importer)
    if spec.startswith("/"):
        return []  # absolute file-system paths never name a file inside the root portably
    if spec in (".", "..") or spec.startswith(("./", "../")):
        base = _join(importer_dir, spec)
        return _file_candidates(base, ctx) if base is not None else []
    config = _nearest_config(importer_dir, ctx)
    if config is not None:
        found = _resolve_with_config(spec, config, ctx)
        if found:
            return found
    return _self_reference(spec, ctx)


def _join(folder: str, spec: str) -> str | None:
    """``folder/spec`` normalised; None when it leaves the root."""
    path = posixpath.normpath(posixpath.join(folder, spec)) if folder else posixpath.normpath(spec)
    if path == ".." or path.startswith("../") or path.startswith("/"):
        return None
    return "" if path == "." else path


def _file_candidates(base: str, ctx: ModuleContext) -> list[str]:
    """The files a path without (or with an emitted) extension stands for, best first."""
    stem, ext = posixpath.splitext(base)
    if ext in _EMITTED_TO_SOURCE:
        for source_ext in _EMITTED_TO_SOURCE[ext]:
            if ctx.is_file(stem + source_ext):
                return _with_declaration(stem + source_ext, stem, ctx)
    if base and ctx.is_file(base):
        return [base]
    found = _by_extension(base, ctx)
    if found:
        return found
    if ctx.is_dir(base) or base == "":
        folder = base
        manifest = ctx.read_json(_child(folder, "package.json"))
        if isinstance(manifest, dict):
            for field in ("types", "typings", "module", "main"):
                entry = manifest.get(field)
                if isinstance(entry, str) and entry:
                    target = _join(folder, entry)
                    if target is not None and target != base:
                        found = _file_candidates(target, ctx)
                        if found:
                            return found
        return _by_extension(_child(folder, "index"), ctx)
    return []


def _child(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _by_extension(stem: str, ctx: ModuleContext) -> list[str]:
    if not stem:
        return []
    for ext in _IMPLEMENTATION_EXTENSIONS:
        if ctx.is_file(stem + ext):
            return _with_declaration(stem + ext, stem, ctx)
    return [stem + ext for ext in _DECLARATION_EXTENSIONS if ctx.is_file(stem + ext)][:1]


def _with_declaration(path: str, stem: str, ctx: ModuleContext) -> list[str]:
    declaration = next((stem + ext for ext in _DECLARATION_EXTENSIONS if ctx.is_file(stem + ext)), None)
    return [path, declaration] if declaration and declaration != path else [path]


# ------------------------------------------------------------------ tsconfig / jsconfig

def _nearest_config(folder: str, ctx: ModuleContext) -> tuple[str, dict] | None:
    """(config folder, merged compilerOptions) of the nearest tsconfig/jsconfig at or above ``folder``.

    Config files are read, never tested with ``is_file``: that answers for indexed sources only.
    """
    while True:
        for name in _CONFIG_FILES:
            options = _compiler_options(_child(folder, name), ctx, _EXTENDS_DEPTH)
            if options is not None:
                return folder, options
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _compiler_options(path: str, ctx: ModuleContext, depth: int) -> dict | None:
    """compilerOptions of one config merged over those it extends; ``baseUrl`` and ``paths``
    are made root-relative here because each is relative to the config that sets it."""
    text = ctx.read_text(path)
    data = parse_jsonc(text) if text is not None else None
    if not isinstance(data, dict):
        return None
    folder = posixpath.dirname(path)
    merged: dict = {}
    parents = data.get("extends")
    for parent in ([parents] if isinstance(parents, str) else parents if isinstance(parents, list) else []):
        if depth > 0 and isinstance(parent, str) and parent.startswith("."):
            target = _join(folder, parent if parent.endswith(".json") else parent + ".json")
            if target is not None:
                merged.update(_compiler_options(target, ctx, depth - 1) or {})
    options = data.get("compilerOptions")
    if isinstance(options, dict):
        if isinstance(options.get("baseUrl"), str):
            merged["baseUrl"] = _join(folder, options["baseUrl"])
        if isinstance(options.get("paths"), dict):
            merged["paths"] = options["paths"]
            merged["pathsBase"] = folder  # `paths` without `baseUrl` are relative to their config
    if "paths" in merged and merged.get("baseUrl") is not None:
        merged["pathsBase"] = merged["baseUrl"]
    return merged


def _resolve_with_config(spec: str, config: tuple[str, dict], ctx: ModuleContext) -> list[str]:
    _folder, options = config
    paths = options.get("paths")
    if isinstance(paths, dict):
        best: tuple[int, str, str] | None = None   # (prefix length, pattern, star text)
        for pattern in paths:
            if not isinstance(pattern, str):
                continue
            if "*" in pattern:
                prefix, _, suffix = pattern.partition("*")
                if spec.startswith(prefix) and spec.endswith(suffix) and len(spec) >= len(prefix) + len(suffix):
                    star = spec[len(prefix): len(spec) - len(suffix)]
                    if best is None or len(prefix) > best[0]:
                        best = (len(prefix), pattern, star)
            elif pattern == spec:
                best = (len(pattern) + 1, pattern, "")
                break
        if best is not None:
            targets = paths[best[1]]
            for target in targets if isinstance(targets, list) else []:
                if not isinstance(target, str):
                    continue
                path = _join(options.get("pathsBase") or "", target.replace("*", best[2], 1))
                if path is not None:
                    found = _file_candidates(path, ctx)
                    if found:
                        return found
    base_url = options.get("baseUrl")
    if base_url is not None:
        path = _join(base_url, spec)
        if path is not None:
            return _file_candidates(path, ctx)
    return []


# ------------------------------------------------------------------ package.json self-reference

def _self_reference(spec: str, ctx: ModuleContext) -> list[str]:
    manifest = ctx.read_json("package.json")
    if not isinstance(manifest, dict) or not isinstance(manifest.get("name"), str):
        return []
    name = manifest["name"]
    if spec != name and not spec.startswith(name + "/"):
        return []
    sub = spec[len(name):].lstrip("/")
    exports = manifest.get("exports")
    key = "./" + sub if sub else "."
    entry = _export_target(exports.get(key) if isinstance(exports, dict) and key in exports
                           else exports if key == "." and isinstance(exports, (str, dict)) and not _is_subpath_map(exports)
                           else None)
    if entry is not None:
        path = _join("", entry)
        if path is not None:
            found = _file_candidates(_source_of(path, ctx), ctx)
            if found:
                return found
    if not sub:
        return _file_candidates("", ctx)
    for root in ("", "src"):
        found = _file_candidates(_child(root, sub), ctx)
        if found:
            return found
    return []


def _is_subpath_map(exports) -> bool:
    return isinstance(exports, dict) and any(isinstance(k, str) and k.startswith(".") for k in exports)


def _export_target(entry) -> str | None:
    """The first usable path of a package.json `exports` entry (conditions: types, import, default…)."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        for condition in ("types", "import", "module", "require", "node", "default"):
            if condition in entry:
                found = _export_target(entry[condition])
                if found:
                    return found
    if isinstance(entry, list):
        for item in entry:
            found = _export_target(item)
            if found:
                return found
    return None


def _source_of(path: str, ctx: ModuleContext) -> str:
    """`dist/x.js` named by a manifest → the `src/x.ts` it is built from, when that exists."""
    if ctx.is_file(path):
        return path
    stem = posixpath.splitext(path)[0]
    for build in ("dist/", "build/", "lib/", "out/"):
        if stem.startswith(build):
            source = "src/" + stem[len(build):]
            if _by_extension(source, ctx):
                return source
    return path


# ------------------------------------------------------------------ tolerant JSON

def parse_jsonc(text: str):
    """JSON with comments and trailing commas (tsconfig's dialect); None when unreadable."""
    return _parse_jsonc(text)


@lru_cache(maxsize=64)
def _parse_jsonc(text: str):
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i: j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "}]":
            k = len(out) - 1
            while k >= 0 and out[k].isspace():
                k -= 1
            if k >= 0 and out[k] == ",":
                del out[k]
            out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    try:
        return json.loads("".join(out))
    except ValueError:
        return None


# ------------------------------------------------------------------ built-in names

_JS_GLOBALS = """
globalThis window self document navigator location history localStorage sessionStorage console
undefined NaN Infinity eval isFinite isNaN parseFloat parseInt decodeURI decodeURIComponent
encodeURI encodeURIComponent escape unescape
Object Function Boolean Symbol Error AggregateError EvalError RangeError ReferenceError
SyntaxError TypeError URIError Number BigInt Math Date String RegExp Array Int8Array Uint8Array
Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array Float64Array
BigInt64Array BigUint64Array Map Set WeakMap WeakSet WeakRef FinalizationRegistry ArrayBuffer
SharedArrayBuffer Atomics DataView JSON Promise Proxy Reflect Intl Iterator arguments
setTimeout clearTimeout setInterval clearInterval setImmediate clearImmediate queueMicrotask
requestAnimationFrame cancelAnimationFrame structuredClone atob btoa fetch Request Response
Headers FormData URL URLSearchParams AbortController AbortSignal Blob File FileReader
TextEncoder TextDecoder Event EventTarget CustomEvent WebSocket Worker crypto performance
alert confirm prompt HTMLElement Element Node NodeList HTMLInputElement MutationObserver
ResizeObserver IntersectionObserver XMLHttpRequest
require module exports process Buffer __dirname __filename global
"""

_TS_TYPES = """
string number boolean any unknown never void object bigint symbol null undefined this
Record Partial Required Readonly Pick Omit Exclude Extract NonNullable Parameters
ConstructorParameters ReturnType InstanceType ThisParameterType OmitThisParameter ThisType
Awaited Uppercase Lowercase Capitalize Uncapitalize NoInfer PromiseLike ArrayLike
ReadonlyArray ReadonlyMap ReadonlySet Iterable IterableIterator AsyncIterable
AsyncIterableIterator Iterator AsyncIterator Generator AsyncGenerator PropertyKey
JSX TemplateStringsArray PropertyDescriptor TypedPropertyDescriptor ClassDecorator
MethodDecorator PropertyDecorator ParameterDecorator RegExpMatchArray
"""

BUILTINS = frozenset(_JS_GLOBALS.split()) | frozenset(_TS_TYPES.split())


def _is_public(name: str) -> bool:
    return not name.startswith("#")


def _exported(d, container, default: bool) -> bool:
    """A `private` member is not visible outside its class, whatever the class's export."""
    return default and "private" not in d.modifiers


SPEC = LanguageSpec(
    name="typescript",
    grammar="typescript",
    extensions=(".ts", ".mts", ".cts"),
    comment="//",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    super_names=frozenset({"super"}),
    constructor_names=frozenset({"constructor"}),
    # Class members are reached through `this`, never by bare name from a method body.
    class_scope_encloses=False,
    class_body_binds_names=False,
    top_level_is_exported=False,
    is_public=_is_public,
    exported=_exported,
    doc_comment_prefixes=("/**",),
    declaration_suffixes=(".d.ts", ".d.mts", ".d.cts"),
    resolve_module=resolve_module,
    namespace_import_is_definition=True,
    overload_signature_is_definition=True,
    guess_unique_members=False,
)

TSX_SPEC = LanguageSpec(
    name="tsx",
    grammar="tsx",
    extensions=(".tsx",),
    comment="//",
    query_file="tsx.scm",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    super_names=frozenset({"super"}),
    constructor_names=frozenset({"constructor"}),
    class_scope_encloses=False,
    class_body_binds_names=False,
    top_level_is_exported=False,
    is_public=_is_public,
    exported=_exported,
    doc_comment_prefixes=("/**",),
    resolve_module=resolve_module,
    namespace_import_is_definition=True,
    overload_signature_is_definition=True,
    guess_unique_members=False,
)
