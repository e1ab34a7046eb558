"""TypeScript (and TSX): module-path rules and built-in names (everything else is in typescript.scm).

``resolve_module`` follows what ``tsc`` does with ``moduleResolution: "bundler"``/``"node16"``:

- **Project files**: relative specifiers, the ``.js`` → ``.ts`` ESM convention, ``index``
  files, ``tsconfig.json``/``jsconfig.json`` ``baseUrl`` and ``paths`` (nearest config above the
  importer, following relative ``extends``), and the root ``package.json`` self-reference. The
  implementation file comes first, a ``.d.ts`` beside it after.
- **Workspace packages** (``import { greet } from "@acme/core"`` in a monorepo): the nearest
  workspace root above the importer — ``package.json`` ``workspaces`` (npm, yarn: an array or
  ``{packages: [...]}``), ``pnpm-workspace.yaml`` ``packages:``, ``lerna.json`` ``packages`` —
  has its globs (``packages/*``, ``apps/**``, ``!apps/old``) expanded over the project's
  folders, and each package's ``package.json`` ``name`` maps to its folder. The package's
  ``exports``/``types``/``main`` name built files (``dist/index.js``); they resolve to the
  sources they are built from (its tsconfig ``outDir``/``declarationDir`` → ``rootDir``, else
  ``dist``/``build``/``lib``/``out`` → ``src``), so this works before any build or
  ``npm install``. A ``node_modules`` entry that is a symlink back into the root (``npm``/
  ``pnpm`` workspace links, ``npm link``, ``file:`` dependencies) is project code the same way.
- **Installed packages**: ``<folder>/node_modules/<name>`` (``@scope/name`` too) of the nearest
  folder at or above the importer, so a nested ``node_modules`` wins over the root's; inside
  it ``exports`` (a string, a subpath map with ``"./sub"`` keys and ``"./*"`` patterns, nested
  condition objects, arrays of fallbacks, ``null`` for a hidden subpath), else
  ``types``/``typings``, ``main`` (a ``.d.ts`` beside it), ``index``; ``pkg/sub/path`` subpaths;
  and ``node_modules/@types/<name>`` (``@types/scope__name``) when the package has no types.
  Library files keep their root-relative path (``node_modules/ky/distribution/index.d.ts``).

Which file is which, for an installed package: the list is **declaration first** — the
``.d.ts`` TypeScript itself reads (an ``exports`` ``types`` condition, else one of the runtime
conditions ``import``/``require``/``node``/``default`` with its ``.d.ts`` beside it, ``types``,
``@types``) — then the **JavaScript implementation** (the runtime conditions, ``main``,
``module``, ``index.js``). So imports, members and types resolve through the declaration, as in
TypeScript: ``meters(1).plus(x)`` is typed by the ``.d.ts`` return annotation. Go-to-definition
then reads the two files as a C header and its source (``counterparts``, below):

- ``mode="declaration"``: the ``.d.ts`` declaration;
- ``mode="definition"`` (the default): for a function or method, its body in the package's
  JavaScript (``implementation_files``: the ``.js`` beside the ``.d.ts``, the same place in the
  implementation folder when types and code are built to separate folders such as
  ``dist/types`` and ``dist/esm``, or the typed package's files for ``@types/x``); for a class,
  interface, type or constant, and when the JavaScript has no such function, the ``.d.ts``.

A package that is not installed (no folder, no ``@types``) gives ``[]``: the engine reports it
``unresolved``. Not read: ``typesVersions``, ``imports`` (``#internal`` specifiers), yarn PnP.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
import weakref
from functools import lru_cache

from .spec import LanguageSpec, ModuleContext

__all__ = ["SPEC", "TSX_SPEC", "resolve_module", "BUILTINS", "COMMONJS_WORDS", "parse_jsonc", "pnpm_workspace_packages",
           "implementation_files"]

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

    Project files: the implementation file comes first, its ``.d.ts`` (when one exists beside
    it) after; a specifier naming an existing file (``./data.json``, ``./x.ts``) gives that file.
    Bare specifiers: ``paths``/``baseUrl``, the root package's own name, the repository's
    workspace packages (their sources), then ``node_modules`` (declaration first, see the module
    docstring).
    """
    spec = spec.strip()
    if not spec or spec.startswith(("http:", "https:", "node:", "data:")):
        return []
    importer_dir = posixpath.dirname(importer)
    if spec.startswith("/"):
        return []  # absolute file-system paths never name a file inside the root portably
    if spec in (".", "..") or spec.startswith(("./", "../")):
        base = _join(importer_dir, spec)
        if base is None:
            return []
        return _library_candidates(base, ctx) if _in_node_modules(base) else _file_candidates(base, ctx)
    config = _nearest_config(importer_dir, ctx)
    if config is not None:
        found = _resolve_with_config(spec, config, ctx)
        if found:
            return found
    found = _self_reference(spec, ctx)
    if found:
        return found
    parts = _package_name(spec)
    if parts is None:
        return []
    name, sub = parts
    folder = _workspace_packages(importer_dir, ctx).get(name)
    if folder is not None:
        found = _project_package(folder, sub, ctx)
        if found:
            return found
    return _installed_package(name, sub, importer_dir, ctx)


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
        for key in ("outDir", "rootDir", "declarationDir"):   # where a package's sources are built to
            if isinstance(options.get(key), str):
                merged[key] = _join(folder, options[key])
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
            found = _file_candidates(_source_of(path, "", ctx), ctx)
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


def _source_of(path: str, folder: str, ctx: ModuleContext) -> str:
    """``dist/x.js`` named by the manifest of the package in ``folder`` → the stem of the source it
    is built from (``src/x``), when the built file is not an indexed file and that source is.

    tsc writes ``rootDir``'s tree under ``outDir`` (and declarations under ``declarationDir``):
    those of the package's ``tsconfig.json`` are tried first, then the usual build folders
    (``dist``, ``build``, ``lib``, ``out``, each maybe split into ``esm``/``cjs``/``types``…)
    over ``src/`` (or the package folder itself when it has no ``src/``).
    """
    if ctx.is_file(path):
        return path
    stem = _strip_extension(path)
    options = _package_compiler_options(folder, ctx)
    source_root = options.get("rootDir")
    if source_root is None:
        source_root = _child(folder, "src") if ctx.is_dir(_child(folder, "src")) else folder
    built = [options[key] for key in ("declarationDir", "outDir") if options.get(key) is not None]
    for build in _BUILD_FOLDERS:
        built.append(_child(folder, build))
        built.extend(_child(folder, f"{build}/{flavour}") for flavour in _BUILD_FLAVOURS)
    for prefix in sorted(set(built), key=len, reverse=True):
        if prefix and stem.startswith(prefix + "/"):
            source = _child(source_root, stem[len(prefix) + 1:])
            if _by_extension(source, ctx):
                return source
    return path


def _package_compiler_options(folder: str, ctx: ModuleContext) -> dict:
    for name in ("tsconfig.build.json", "tsconfig.json"):
        options = _compiler_options(_child(folder, name), ctx, _EXTENDS_DEPTH)
        if options is not None:
            return options
    return {}


def _strip_extension(path: str) -> str:
    for ext in _DECLARATION_EXTENSIONS:
        if path.endswith(ext):
            return path[: -len(ext)]
    stem, ext = posixpath.splitext(path)
    return stem if ext in _IMPLEMENTATION_EXTENSIONS else path


# ------------------------------------------------------------------ packages in node_modules

_WRAPPED_NAME = re.compile(
    r"\s*(?:(?:Promise|PromiseLike|Array|ReadonlyArray|Readonly|Partial|Required|NonNullable|Awaited)\s*<\s*)?"
    r"([A-Za-z_$][\w$]*)\s*(?:\[\s*\])?(?:\s*\|\s*(?:undefined|null))*\s*>?(?:\s*\|\s*(?:undefined|null))*\s*")


def type_parameter_of(written: str) -> str | None:
    """The one name a declared type gives back, alone or in a built-in wrapper: `T`, `Promise<T>`,
    `T[]`, `Array<T>`, `T | undefined` → "T" (LanguageSpec.type_parameter_of); else None."""
    found = _WRAPPED_NAME.fullmatch(written) if written and len(written) < 200 else None
    return found.group(1) if found else None


_OPENING, _CLOSING = "([{<", ")]}>"


def arity_of(signature: str) -> tuple[int, int | None] | None:
    """(required, most) parameters of a signature written `<T>(a: T, b?: U, c = 1, ...rest: V[]): R`
    (LanguageSpec.arity_of); a `this:` parameter is not passed. None: no parameter list."""
    depth, start, parts = 0, None, []
    for i, char in enumerate(signature):
        if char == "(" and depth == 0 and start is None:
            start = i + 1
        elif char in _OPENING:
            depth += 1
        elif char in _CLOSING and not (char == ">" and signature[i - 1:i] == "="):   # `=>` closes nothing
            depth -= 1
            if depth == -1 and start is not None:   # the list's own `)`
                parts.append(signature[start:i])
                break
        elif char == "," and depth == 0 and start is not None:
            parts.append(signature[start:i])
            start = i + 1
    else:
        return None
    required, most = 0, 0
    for part in (p.strip() for p in parts):
        name = part.split(":", 1)[0].strip()
        if not part or name == "this" or name.startswith("@"):
            continue
        if name.startswith("..."):
            return required, None
        most += 1
        if not name.endswith("?") and not _has_default(part):
            required = most
    return required, most


def _has_default(parameter: str) -> bool:
    """Whether a parameter's text gives it a default (`c = 1`, not the `=>` of a function type)."""
    depth = 0
    for i, char in enumerate(parameter):
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING and not (char == ">" and parameter[i - 1:i] == "="):
            depth -= 1
        elif char == "=" and depth == 0 and parameter[i + 1:i + 2] != ">":
            return True
    return False


# The Array and Map methods that give an item or the same items (LanguageSpec.item_methods)
ITEM_METHODS = frozenset({"find", "findLast", "at", "pop", "shift", "filter", "slice", "sort", "reverse", "concat",
                          "toSorted", "toReversed", "get"})

_NODE_MODULES = "node_modules"
# `exports` conditions TypeScript matches for an `import` (besides `types`, tried first for the
# declaration); `module` is the bundlers' ESM entry, used for the implementation only.
_RUNTIME_CONDITIONS = ("import", "require", "node", "module", "default")
# An emitted JavaScript file's declaration beside it (`index.js` -> `index.d.ts`).
_JS_TO_DECLARATION = {".js": ".d.ts", ".jsx": ".d.ts", ".mjs": ".d.mts", ".cjs": ".d.cts"}
_DECLARATION_TO_JS = {".d.ts": (".js", ".jsx"), ".d.mts": (".mjs",), ".d.cts": (".cjs",)}
_BUILD_FOLDERS = ("dist", "build", "lib", "out")
_BUILD_FLAVOURS = ("esm", "cjs", "es", "mjs", "umd", "module", "commonjs", "types", "typings")
_EXPORTS_DEPTH = 8  # nested condition objects deeper than this are not followed (real ones: 1-3)


def _in_node_modules(path: str) -> bool:
    return _NODE_MODULES in path.split("/")


def _is_declaration(path: str) -> bool:
    return path.endswith(_DECLARATION_EXTENSIONS)


def _package_name(spec: str) -> tuple[str, str] | None:
    """``@scope/name/sub/path`` -> (``@scope/name``, ``sub/path``); None for a malformed one."""
    parts = spec.split("/")
    count = 2 if spec.startswith("@") else 1
    if len(parts) < count or not all(parts[:count]) or any(p in (".", "..") for p in parts):
        return None
    return "/".join(parts[:count]), "/".join(p for p in parts[count:] if p)


def _types_package(name: str) -> str:
    """DefinitelyTyped's name for a package: ``@types/lodash``, ``@types/babel__core``."""
    return "@types/" + (name[1:].replace("/", "__") if name.startswith("@") else name)


def _find_in_node_modules(name: str, folder: str, ctx: ModuleContext) -> str | None:
    """``<folder>/node_modules/<name>`` of the nearest folder at or above ``folder`` holding one."""
    while True:
        if posixpath.basename(folder) != _NODE_MODULES:
            candidate = _child(_child(folder, _NODE_MODULES), name)
            if ctx.is_dir(candidate):
                return candidate
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _installed_package(name: str, sub: str, importer_dir: str, ctx: ModuleContext) -> list[str]:
    """The declaration file, then the JavaScript implementation, of an installed package; a
    package folder that is a link back into the project resolves as project code."""
    folder = _find_in_node_modules(name, importer_dir, ctx)
    declarations: list[str] = []
    implementations: list[str] = []
    if folder is not None:
        linked = getattr(ctx, "project_path", None)
        inside = linked(folder) if linked is not None else None
        if inside is not None:
            return _project_package(inside, sub, ctx)
        declarations, implementations = _package_files(folder, sub, ctx)
    if not declarations and not name.startswith("@types/"):
        types_folder = _find_in_node_modules(_types_package(name), importer_dir, ctx)
        if types_folder is not None:
            declarations = _package_files(types_folder, sub, ctx)[0]
    return _unique(declarations[:1] + implementations[:1])


def _unique(paths: list[str]) -> list[str]:
    return list(dict.fromkeys(paths))


def _package_files(folder: str, sub: str, ctx: ModuleContext) -> tuple[list[str], list[str]]:
    """(declaration files, implementation files) ``<package>/<sub>`` names, best first, the way
    TypeScript reads a package: ``exports``, else ``types``/``typings``, ``main``, ``index``."""
    manifest = ctx.read_json(_child(folder, "package.json")) or {}
    exports = manifest.get("exports")
    if exports is not None:
        entry = _exports_entry(exports, sub)
        if entry is not None:
            target, star = entry

            def declarations_at(path: str) -> list[str]:
                return [f for f in _library_candidates(path, ctx) if _is_declaration(f)]

            def implementations_at(path: str) -> list[str]:
                return [f for f in _library_candidates(path, ctx) if not _is_declaration(f)]

            found = (_exports_targets(target, star, folder, declarations_at, True),
                     _exports_targets(target, star, folder, implementations_at, False))
            if found[0] or found[1]:
                return found
        # Not exported, or exported to files that are not there: what the path itself names.
    if sub:
        return _by_role(_library_candidates(_child(folder, sub), ctx))
    declarations: list[str] = []
    implementations: list[str] = []
    for field in ("types", "typings", "main", "module"):
        entry = manifest.get(field)
        path = _inside(folder, entry) if isinstance(entry, str) and entry else None
        if path is not None:
            found = _by_role(_library_candidates(path, ctx))
            if field in ("types", "typings"):
                found = (found[0], [])
            declarations += found[0]
            implementations += found[1]
    found = _by_role(_library_candidates(_child(folder, "index"), ctx))
    return _unique(declarations + found[0]), _unique(implementations + found[1])


def _by_role(files: list[str]) -> tuple[list[str], list[str]]:
    return [f for f in files if _is_declaration(f)], [f for f in files if not _is_declaration(f)]


def _inside(folder: str, target: str) -> str | None:
    """``folder/target``, or None when ``target`` leaves the package folder."""
    path = _join(folder, target)
    if path is None or (folder and path != folder and not path.startswith(folder + "/")):
        return None
    return path


def _library_candidates(base: str, ctx: ModuleContext, depth: int = 2) -> list[str]:
    """The files a path inside an installed package stands for: declaration first (TypeScript's
    own answer), then the JavaScript implementation beside it."""
    if _is_declaration(base):
        stem = _strip_extension(base)
        ext = base[len(stem):]
        implementation = next((stem + e for e in _DECLARATION_TO_JS[ext] if ctx.is_file(stem + e)), None)
        return [p for p in (base if ctx.is_file(base) else None, implementation) if p]
    stem, ext = posixpath.splitext(base)
    if ext in _JS_TO_DECLARATION:
        declaration = stem + _JS_TO_DECLARATION[ext]
        found = [p for p in (declaration, base) if ctx.is_file(p)]
        if found:
            return found
    elif base and ctx.is_file(base):
        return [base]
    declaration = next((base + e for e in _DECLARATION_EXTENSIONS if ctx.is_file(base + e)), None)
    implementation = next((base + e for e in _IMPLEMENTATION_EXTENSIONS if ctx.is_file(base + e)), None)
    if declaration or implementation:
        return [p for p in (declaration, implementation) if p]
    if depth > 0 and ctx.is_dir(base):
        manifest = ctx.read_json(_child(base, "package.json")) or {}
        found: list[str] = []
        for field in ("types", "typings", "main"):
            entry = manifest.get(field)
            path = _inside(base, entry) if isinstance(entry, str) and entry else None
            if path is not None and path != base:
                found += _library_candidates(path, ctx, depth - 1)
        found += _library_candidates(_child(base, "index"), ctx, 0)
        return _unique(found)
    return []


def _exports_entry(exports, sub: str):
    """(the ``exports`` value for ``./sub``, the text a ``*`` stands for), or None when not exported."""
    if not _is_subpath_map(exports):
        return (exports, "") if not sub else None   # `"exports": "./x.js"` or a conditions object
    key = "./" + sub if sub else "."
    if key in exports:
        return exports[key], ""
    best: tuple[tuple[int, int], str, str] | None = None
    for pattern in exports:
        if not isinstance(pattern, str) or pattern.count("*") != 1:
            continue
        prefix, suffix = pattern.split("*")
        if key.startswith(prefix) and key.endswith(suffix) and len(key) >= len(prefix) + len(suffix):
            rank = (len(prefix), len(pattern))   # Node: the longest prefix, then the longest key
            if best is None or rank > best[0]:
                best = (rank, pattern, key[len(prefix): len(key) - len(suffix)])
    return (exports[best[1]], best[2]) if best is not None else None


def _exports_targets(entry, star: str, folder: str, files, types_first: bool, depth: int = 0) -> list[str]:
    """The files of the first target of an ``exports`` value that ``files(path)`` finds: strings,
    arrays of fallbacks, and condition objects (``types`` first when ``types_first``, then the
    runtime conditions in the object's own order, as Node and TypeScript read it)."""
    if depth > _EXPORTS_DEPTH:
        return []
    if isinstance(entry, str):
        if not entry.startswith("./"):
            return []
        path = _inside(folder, entry.replace("*", star))
        return files(path) if path is not None else []
    if isinstance(entry, list):
        for item in entry:
            found = _exports_targets(item, star, folder, files, types_first, depth + 1)
            if found:
                return found
        return []
    if isinstance(entry, dict):
        keys = [k for k in entry if k == "types" or k.startswith("types@")] if types_first else []
        keys += [k for k in entry if k in _RUNTIME_CONDITIONS]
        for key in keys:
            found = _exports_targets(entry[key], star, folder, files, types_first, depth + 1)
            if found:
                return found
    return []


def implementation_files(path: str, ctx: ModuleContext) -> list[str]:
    """An installed package's declaration file -> the JavaScript files implementing it, best
    first: the file beside it (``index.d.ts`` -> ``index.js``), else the same place under the
    package's implementation folder (``dist/types/x.d.ts`` -> ``dist/esm/x.js``, when the
    manifest's entries are laid out so), or, for an ``@types/`` package, under the package it
    types. Project files and implementation files have none."""
    if not _is_declaration(path) or not _in_node_modules(path):
        return []
    head, _, rest = path.rpartition(_NODE_MODULES + "/")
    parts = rest.split("/")
    count = 2 if parts[0].startswith("@") else 1
    if len(parts) <= count:
        return []
    name = "/".join(parts[:count])
    folder = head + _NODE_MODULES + "/" + name
    found = [f for f in _library_candidates(path, ctx) if not _is_declaration(f)]
    declarations, implementations = _package_files(folder, "", ctx)
    if name.startswith("@types/"):
        typed = name[len("@types/"):]
        typed = "@" + typed.replace("__", "/", 1) if "__" in typed else typed
        package = _find_in_node_modules(typed, head.rstrip("/"), ctx)
        implementations = _package_files(package, "", ctx)[1] if package is not None else []
    if declarations and implementations:
        declared_in, implemented_in = posixpath.dirname(declarations[0]), posixpath.dirname(implementations[0])
        if path == declarations[0]:
            found.append(implementations[0])
        elif path.startswith(declared_in + "/"):
            stem = _child(implemented_in, _strip_extension(path)[len(declared_in) + 1:])
            found += [stem + ext for ext in (".js", ".mjs", ".cjs", ".jsx") if ctx.is_file(stem + ext)]
    return _unique(found)


# ------------------------------------------------------------------ packages of the repository

def _project_package(folder: str, sub: str, ctx: ModuleContext) -> list[str]:
    """Files ``<package>/<sub>`` names for a package whose folder is project code (a workspace
    package, or a ``node_modules`` link into the root): the sources its manifest's built entries
    come from, before any build or install."""
    manifest = ctx.read_json(_child(folder, "package.json")) or {}

    def sources_at(path: str) -> list[str]:
        return _file_candidates(_source_of(path, folder, ctx), ctx)

    exports = manifest.get("exports")
    if exports is not None:
        entry = _exports_entry(exports, sub)
        if entry is not None:
            found = _exports_targets(entry[0], entry[1], folder, sources_at, True)
            if found:
                return found
    if sub:
        for base in (_child(folder, sub), _child(_child(folder, "src"), sub)):
            found = sources_at(base)
            if found:
                return found
        return []
    for field in ("types", "typings", "main", "module"):
        entry = manifest.get(field)
        path = _inside(folder, entry) if isinstance(entry, str) and entry else None
        if path is not None:
            found = sources_at(path)
            if found:
                return found
    return _by_extension(_child(folder, "index"), ctx) or _by_extension(_child(folder, "src/index"), ctx)


# Workspace tables per ModuleContext (one index generation): {workspace folder: {name: folder}}.
_WORKSPACES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_MAX_WORKSPACE_FOLDERS = 5000  # folders a `**` pattern may visit (a monorepo has tens to hundreds)


def _workspace_packages(importer_dir: str, ctx: ModuleContext) -> dict[str, str]:
    """Package name -> folder, for the workspace enclosing ``importer_dir``: the nearest folder
    at or above it whose ``package.json`` has ``workspaces`` (npm, yarn) or which holds a
    ``pnpm-workspace.yaml`` or a ``lerna.json`` with ``packages``."""
    try:
        tables = _WORKSPACES.setdefault(ctx, {})
    except TypeError:   # a context that cannot be weakly referenced: no cache
        tables = {}
    folder = importer_dir
    while True:
        if folder in tables:
            table = tables[folder]
        else:
            patterns = _workspace_patterns(folder, ctx)
            table = tables[folder] = _workspace_table(folder, patterns, ctx) if patterns is not None else None
        if table is not None:
            return table
        if not folder:
            return {}
        folder = posixpath.dirname(folder)


def _workspace_patterns(folder: str, ctx: ModuleContext) -> list[str] | None:
    """The package globs a workspace root in ``folder`` declares; None when it is none."""
    patterns: list[str] = []
    declared = False
    manifest = ctx.read_json(_child(folder, "package.json"))
    workspaces = manifest.get("workspaces") if isinstance(manifest, dict) else None
    if isinstance(workspaces, dict):   # yarn's {packages: [...], nohoist: [...]}
        workspaces = workspaces.get("packages")
    if isinstance(workspaces, list):
        declared = True
        patterns += [p for p in workspaces if isinstance(p, str)]
    for name in ("pnpm-workspace.yaml", "pnpm-workspace.yml"):
        text = ctx.read_text(_child(folder, name))
        if text is not None:
            declared = True
            patterns += pnpm_workspace_packages(text)
            break
    lerna = ctx.read_json(_child(folder, "lerna.json"))
    if isinstance(lerna, dict) and isinstance(lerna.get("packages"), list):
        declared = True
        patterns += [p for p in lerna["packages"] if isinstance(p, str)]
    return patterns if declared else None


def pnpm_workspace_packages(text: str) -> list[str]:
    """The ``packages:`` list of a ``pnpm-workspace.yaml`` (block or flow style, quoted or not)."""
    found: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = _without_yaml_comment(raw).rstrip()
        stripped = line.strip()
        if not stripped or stripped == "---":
            continue
        if not line[0].isspace() and not stripped.startswith("-"):
            key, _, rest = stripped.partition(":")
            inside = key.strip().strip("'\"") == "packages"
            rest = rest.strip()
            if inside and rest.startswith("["):
                found += [_unquote(item) for item in rest.strip("[]").split(",")]
                inside = False
            continue
        if inside and stripped.startswith("-"):
            found.append(_unquote(stripped[1:]))
    return [p for p in found if p]


def _without_yaml_comment(line: str) -> str:
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _workspace_table(root: str, patterns: list[str], ctx: ModuleContext) -> dict[str, str]:
    included: list[str] = []
    excluded: set[str] = set()
    for pattern in patterns:
        negated = pattern.startswith("!")
        folders = _expand_glob(root, pattern.lstrip("!"), ctx)
        if negated:
            excluded.update(folders)
        else:
            included += folders
    table: dict[str, str] = {}
    for folder in included:
        if folder in excluded or _in_node_modules(folder):
            continue
        manifest = ctx.read_json(_child(folder, "package.json"))
        name = manifest.get("name") if isinstance(manifest, dict) else None
        if isinstance(name, str) and name and name not in table:
            table[name] = folder
    return table


def _expand_glob(root: str, pattern: str, ctx: ModuleContext) -> list[str]:
    """Project folders a workspace glob (``packages/*``, ``apps/**``, ``libs/ui``) names."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.strip("/")
    if not pattern:
        return [root]
    children = getattr(ctx, "folders_in", None)
    folders = [root]
    budget = _MAX_WORKSPACE_FOLDERS
    for segment in pattern.split("/"):
        following: list[str] = []
        for folder in folders:
            if segment == "**":
                stack = [folder]
                while stack and budget > 0:
                    current = stack.pop()
                    following.append(current)
                    budget -= 1
                    stack.extend(reversed(children(current) if children else []))
            elif any(c in segment for c in "*?["):
                following += [c for c in (children(folder) if children else [])
                              if fnmatch.fnmatchcase(posixpath.basename(c), segment)]
            else:
                candidate = _child(folder, segment)
                if segment not in (".", "..") and ctx.is_dir(candidate):
                    following.append(candidate)
        folders = _unique(following)
    return folders


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


# What CommonJS's patterns ask for (`require('m')`, `exports.f = …`, `module.exports = …`): an
# ES module holds neither, and is matched without them.
COMMONJS_WORDS = ("require", "exports")

SPEC = LanguageSpec(
    name="typescript",
    grammar="typescript",
    extensions=(".ts", ".mts", ".cts"),
    comment="//",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    self_types=frozenset({"this"}),
    item_methods=ITEM_METHODS,
    type_parameter_of=type_parameter_of,
    overloads_by_arity=True,
    arity_of=arity_of,
    super_names=frozenset({"super"}),
    super_call_is_constructor=True,
    constructor_names=frozenset({"constructor"}),
    # Class members are reached through `this`, never by bare name from a method body.
    class_scope_encloses=False,
    class_body_binds_names=False,
    top_level_is_exported=False,
    imports_are_exported=False,
    is_public=_is_public,
    exported=_exported,
    doc_comment_prefixes=("/**",),
    declaration_suffixes=(".d.ts", ".d.mts", ".d.cts"),
    resolve_module=resolve_module,
    counterparts=implementation_files,
    namespace_import_is_definition=True,
    overload_signature_is_definition=True,
    guess_unique_members=False,
    rare_words=COMMONJS_WORDS,
    members_assigned_to_objects=True,
    module_object_names=frozenset({"exports", "module.exports"}),
)

TSX_SPEC = LanguageSpec(
    name="tsx",
    grammar="tsx",
    extensions=(".tsx",),
    comment="//",
    query_file="tsx.scm",
    builtins=BUILTINS,
    this_keywords=frozenset({"this"}),
    self_types=frozenset({"this"}),
    item_methods=ITEM_METHODS,
    type_parameter_of=type_parameter_of,
    overloads_by_arity=True,
    arity_of=arity_of,
    super_names=frozenset({"super"}),
    super_call_is_constructor=True,
    constructor_names=frozenset({"constructor"}),
    class_scope_encloses=False,
    class_body_binds_names=False,
    top_level_is_exported=False,
    imports_are_exported=False,
    is_public=_is_public,
    exported=_exported,
    doc_comment_prefixes=("/**",),
    resolve_module=resolve_module,
    namespace_import_is_definition=True,
    overload_signature_is_definition=True,
    guess_unique_members=False,
    rare_words=COMMONJS_WORDS,
    members_assigned_to_objects=True,
    module_object_names=frozenset({"exports", "module.exports"}),
)
