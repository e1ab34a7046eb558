"""Shared helpers for the benchmark scripts in this folder.

Corpora (third-party code) live in a cache directory outside the repository,
``$CODETRACE_BENCH_CACHE`` or ``~/.cache/jupyter_codetrace-bench``; nothing here
writes into the repository except ``bench/results/`` (git-ignored).

Reference positions are enumerated with tree-sitter directly, so the benchmark
does not depend on the engine's own idea of what a reference is.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = [
    "BENCH_DIR",
    "IGNORED_DIRS",
    "Ref",
    "cache_dir",
    "code_points",
    "utf16_to_code_points",
    "count_lines",
    "describe_exception",
    "engine_fingerprint",
    "engine_import_error",
    "ensure_python_corpus",
    "ensure_stdlib_corpus",
    "ensure_ts_corpus",
    "ensure_typescript_module",
    "enumerate_references",
    "files_with_parse_errors",
    "list_source_files",
    "percentile",
    "results_dir",
    "sample_references",
    "save_result",
]

BENCH_DIR = Path(__file__).resolve().parent
# Benchmark the checkout this folder belongs to (an installed copy would also do, but
# the working tree is what is being measured).
if str(BENCH_DIR.parent) not in sys.path:
    sys.path.insert(1, str(BENCH_DIR.parent))

# Folders the contract says the engine never indexes; the corpora skip them too so
# the tree-sitter floor and the oracles see exactly the files the engine sees.
IGNORED_DIRS = frozenset(
    {"node_modules", ".git", "__pycache__", ".venv", "venv", "dist", "build", "target",
     "site-packages", "dist-packages"}
)

LANG_EXTENSIONS = {"python": (".py",), "typescript": (".ts", ".tsx"), "javascript": (".js", ".cjs", ".mjs")}


def cache_dir() -> Path:
    """The benchmark cache (corpora, oracle answers, engine stores); created on demand."""
    path = Path(os.environ.get("CODETRACE_BENCH_CACHE",
                               Path.home() / ".cache" / "jupyter_codetrace-bench"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def results_dir() -> Path:
    path = BENCH_DIR / "results"
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_result(name: str, result: dict) -> None:
    """Write ``result`` to ``bench/results/<name>.json`` and print it as the script's last line."""
    (results_dir() / f"{name}.json").write_text(json.dumps(result, indent=1))
    print(json.dumps(result))


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def percentile(values, q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of a non-empty sequence; None if empty."""
    vals = sorted(values)
    if not vals:
        return None
    k = max(0, min(len(vals) - 1, int(round(q / 100.0 * (len(vals) - 1)))))
    return vals[k]


def count_lines(data: bytes) -> int:
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def list_source_files(root: Path, language: str) -> list[str]:
    """Root-relative POSIX paths of the files of ``language`` under root, sorted."""
    exts = LANG_EXTENSIONS[language]
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in IGNORED_DIRS and not d.startswith("."))
        for name in filenames:
            if name.endswith(exts):
                out.append(Path(dirpath, name).relative_to(root).as_posix())
    return sorted(out)


def corpus_meta(root: Path, language: str, **extra) -> dict:
    files = list_source_files(root, language)
    lines = sum(count_lines((root / f).read_bytes()) for f in files)
    return {"root": str(root), "language": language, "files": len(files), "lines": lines, **extra}


def describe_exception(exc: BaseException) -> str:
    """``Type: message (at file:line in function)`` for the innermost frame."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        f = frames[-1]
        where = f" (at {Path(f.filename).name}:{f.lineno} in {f.name})"
    return f"{type(exc).__name__}: {exc}{where}"


def engine_fingerprint() -> str | None:
    """A hash of the engine's source files (paths, sizes, mtimes), without importing it.

    Compared before and after a run: an engine edited mid-run invalidates its own stores
    (they are versioned by the .scm files), which shows up as a surprise full re-index.
    """
    import hashlib
    import importlib.util

    try:
        spec = importlib.util.find_spec("jupyter_codetrace")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    digest = hashlib.sha1()
    for base in spec.submodule_search_locations:
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                st = os.stat(os.path.join(dirpath, name))
                digest.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]


def engine_import_error() -> str | None:
    """None when ``from jupyter_codetrace import Project`` works, else the error text."""
    try:
        from jupyter_codetrace import Project  # noqa: F401
    except Exception as exc:  # the engine may be half-written: any error means "not yet"
        return f"{type(exc).__name__}: {exc}"
    return None


# ---------------------------------------------------------------- corpora

def ensure_python_corpus(spec: str) -> tuple[Path, dict]:
    """pip-install ``spec`` (e.g. ``rich==15.0.0``) with --target into the cache; return root.

    The root holds the top-level package folder (``rich/``), as a repository would.
    Nothing is installed into the running environment.
    """
    name, _, version = spec.partition("==")
    if not version:
        raise SystemExit(f"--py-package needs an exact pin NAME==VERSION, got {spec!r}")
    root = cache_dir() / "corpora" / "python" / f"{name}-{version}"
    marker = root / ".bench-complete"
    if not marker.exists():
        if root.exists():
            shutil.rmtree(root)
        log(f"[corpus] pip install --target {root} {spec}")
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-compile",
             "--disable-pip-version-check", "--target", str(root), spec],
            check=True,
        )
        # Only the package's source: the dist-info and any bin/ are not the project.
        for extra in list(root.iterdir()):
            if extra.name.endswith((".dist-info", ".egg-info")) or extra.name == "bin":
                shutil.rmtree(extra) if extra.is_dir() else extra.unlink()
        marker.write_text(spec)
    return root, corpus_meta(root, "python", name=name, version=version)


# Written when the package ships no tsconfig. Checked on mobx 7.1.3: one diagnostic left
# (a DOM typing nit), so the language service sees a sound program.
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2021",
        "module": "ESNext",
        "moduleResolution": "Bundler",
        "lib": ["ESNext", "DOM"],
        "strict": True,
        "noImplicitAny": False,
        "noImplicitThis": False,
        "noEmit": True,
        "skipLibCheck": True,
        "downlevelIteration": True,
    },
    "include": ["src/**/*"],
}


def ensure_ts_corpus(spec: str, language: str = "typescript") -> tuple[Path, dict]:
    """``npm pack`` ``spec`` (e.g. ``mobx@7.1.3``) into the cache; keep its TS sources.

    The package's ``src/`` is kept with its package.json; built output (``dist/``) is
    removed, and a tsconfig.json is written when the package ships none. With
    ``language="javascript"`` (a CommonJS package such as ``express@5.1.0``) the package is
    kept as published, without a tsconfig: its ``.js`` files are the sources.
    """
    name, _, version = spec.rpartition("@")
    if not name or not version:
        raise SystemExit(f"an npm package needs an exact pin NAME@VERSION, got {spec!r}")
    safe = name.replace("/", "+").lstrip("@")
    root = cache_dir() / "corpora" / language / f"{safe}-{version}"
    marker = root / ".bench-complete"
    if not marker.exists():
        if root.exists():
            shutil.rmtree(root)
        work = root.parent / f".{safe}-{version}.tmp"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        log(f"[corpus] npm pack {spec}")
        out = subprocess.run(["npm", "pack", "--silent", spec], cwd=work, check=True,
                             capture_output=True, text=True).stdout.strip().splitlines()[-1]
        with tarfile.open(work / out) as tar:
            tar.extractall(work, filter="data")
        shutil.move(str(work / "package"), str(root))
        shutil.rmtree(work)
        # (JavaScript: kept whole, no tsconfig written; accuracy.py hands the oracle its options)
        if language == "typescript" and (root / "src").is_dir():  # keep the sources: built output (dist/, v4/*.d.cts …) would be read too
            for entry in root.iterdir():
                if entry.name not in ("src", "package.json") and not entry.name.startswith("tsconfig"):
                    shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        if language == "typescript" and not (root / "tsconfig.json").exists():
            config = json.loads(json.dumps(TSCONFIG))
            if (root / "src").is_dir():
                # the package importing itself by name (`from "zod/v4"` in its tests) reaches its
                # sources, as in its own repository (package.json "exports" name the built files)
                config["compilerOptions"]["paths"] = {name: ["./src/index.ts"],
                                                      f"{name}/*": ["./src/*", "./src/*/index.ts"]}
            (root / "tsconfig.json").write_text(json.dumps(config, indent=2) + "\n")
        marker.write_text(spec)
    return root, corpus_meta(root, language, name=name, version=version)


def ensure_repo_corpus(spec: str, language: str, mirrors: Path) -> tuple[Path, dict]:
    """An application's sources from a local git mirror (``OWNER/NAME[@COMMIT]``, the mirror at
    ``MIRRORS/OWNER+NAME/repo``, a bare git directory; default commit: its HEAD) into the cache:
    the language's source files and the tsconfig/jsconfig/package.json files that say how they
    import each other — no dependencies installed (their types are outside, as for a user who
    has not run ``npm install``)."""
    repo, _, commit = spec.partition("@")
    owner, _, name = repo.partition("/")
    if not owner or not name:
        raise SystemExit(f"a repository is OWNER/NAME[@COMMIT], got {spec!r}")
    git_dir = Path(mirrors) / f"{owner}+{name}" / "repo"
    if not git_dir.is_dir():
        raise SystemExit(f"no mirror of {repo} at {git_dir} (git clone --mirror it there)")
    commit = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", commit or "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    root = cache_dir() / "corpora" / language / f"{owner}+{name}-{commit[:12]}"
    marker = root / ".bench-complete"
    if not marker.exists():
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        log(f"[corpus] git archive {repo}@{commit[:12]}")
        archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "--format=tar", commit],
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(root, filter="data")
        keep = set(list_source_files(root, language))
        configs = ("tsconfig", "jsconfig", "package.json")
        for path in sorted(root.rglob("*"), reverse=True):   # files before their folders
            rel = path.relative_to(root).as_posix()
            if path.is_dir():
                if not any(path.iterdir()):
                    path.rmdir()
            elif rel not in keep and not path.name.startswith(configs):
                path.unlink()
        marker.write_text(f"{repo}@{commit}")
    return root, corpus_meta(root, language, name=repo, version=commit[:12])


def ensure_typescript_module(version: str) -> Path:
    """npm-install ``typescript@version`` into the cache; return its package folder."""
    prefix = cache_dir() / "node" / f"typescript-{version}"
    module = prefix / "node_modules" / "typescript"
    if not (module / "package.json").exists():
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "package.json").write_text('{"private": true}\n')
        log(f"[oracle] npm install typescript@{version} into {prefix}")
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund",
                        f"typescript@{version}"], cwd=prefix, check=True)
    return module


def ensure_stdlib_corpus(quick: bool) -> tuple[Path, dict]:
    """A copy of the running interpreter's stdlib ``.py`` files (no site-packages).

    Copied so the engine indexes exactly these files (no third-party packages, no
    ``build``-named folders) and so the edit benchmark never touches the real stdlib.
    ``quick`` keeps the first 200 files in sorted path order.
    """
    import sysconfig

    src = Path(sysconfig.get_paths()["stdlib"])
    version = ".".join(map(str, sys.version_info[:3]))
    name = f"stdlib-{version}" + ("-quick200" if quick else "")
    root = cache_dir() / "corpora" / name
    marker = root / ".bench-complete"
    if not marker.exists():
        if root.exists():
            shutil.rmtree(root)
        files = list_source_files(src, "python")
        if quick:
            files = files[:200]
        log(f"[corpus] copying {len(files)} stdlib files from {src} to {root}")
        for rel in files:
            dest = root / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / rel, dest)
        marker.write_text(str(src))
    return root, corpus_meta(root, "python", name="cpython-stdlib", version=version, source=str(src))


# ---------------------------------------------------------------- references

@dataclass(frozen=True)
class Ref:
    """One reference occurrence. ``line`` 1-based; ``column`` 1-based code points."""

    file: str
    line: int
    column: int
    name: str
    kind: str  # plain | attribute | imported
    byte_column: int
    utf16_offset: int  # offset in the whole file, UTF-16 code units (TypeScript oracle)

    @property
    def column0(self) -> int:
        return self.column - 1

    def to_dict(self) -> dict:
        return asdict(self)


def utf16_to_code_points(line: str, units: int) -> int:
    """The code-point column of UTF-16 column ``units`` in ``line`` (TypeScript counts UTF-16)."""
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def code_points(line_bytes: bytes, byte_col: int) -> int:
    """0-based code-point column of a byte offset inside one line."""
    return len(line_bytes[:byte_col].decode("utf-8", errors="replace"))


_PY_SKIP_SUBTREES = {"import_statement", "import_from_statement", "future_import_statement",
                     "global_statement", "nonlocal_statement", "comment", "string"}
_PY_TARGET_CONTAINERS = {"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern",
                         "tuple", "list", "parenthesized_expression", "list_splat",
                         "as_pattern_target"}
_PY_DEF_NAME_PARENTS = {"function_definition", "class_definition"}
_PY_PARAM_CONTAINERS = {"parameters", "lambda_parameters"}

_TS_SKIP_SUBTREES = {"import_statement", "export_clause", "comment", "string", "template_string",
                     "regex", "import_alias"}
_TS_DECL_NAME_PARENTS = {
    "class_declaration", "abstract_class_declaration", "class", "interface_declaration",
    "type_alias_declaration", "enum_declaration", "function_declaration", "function_expression",
    "generator_function_declaration", "generator_function", "function_signature",
    "internal_module", "module", "type_parameter", "method_definition", "method_signature",
    "abstract_method_signature", "public_field_definition", "property_signature",
    "enum_assignment", "ambient_declaration",
}
# (parent type, field) whose subtree binds names (a declaration pattern).
_TS_BINDING_FIELDS = {
    ("variable_declarator", "name"), ("required_parameter", "pattern"),
    ("optional_parameter", "pattern"), ("catch_clause", "parameter"),
    ("arrow_function", "parameter"),
}


def files_with_parse_errors(root: Path, language: str, files=None) -> list[str]:
    """Files whose tree-sitter tree has ERROR/MISSING nodes (their facts are partial)."""
    files = list_source_files(root, language) if files is None else files
    return [rel for rel in files
            if _parser(language, rel).parse((root / rel).read_bytes()).root_node.has_error]


def _parser(language: str, path: str):
    from tree_sitter_language_pack import get_parser

    if language == "typescript" and path.endswith(".tsx"):
        return get_parser("tsx")
    return get_parser(language)


def _python_imported_names(root_node) -> set[str]:
    names: set[str] = set()
    stack = [root_node]
    while stack:
        node = stack.pop()
        if node.type == "import_statement":
            for i, child in enumerate(node.children):
                if node.field_name_for_child(i) != "name":
                    continue
                if child.type == "aliased_import":
                    names.add(child.child_by_field_name("alias").text.decode())
                elif child.type == "dotted_name":
                    names.add(child.children[0].text.decode())
        elif node.type == "import_from_statement":
            for i, child in enumerate(node.children):
                if node.field_name_for_child(i) != "name":
                    continue
                if child.type == "aliased_import":
                    names.add(child.child_by_field_name("alias").text.decode())
                elif child.type == "dotted_name":
                    names.add(child.children[-1].text.decode())
        else:
            stack.extend(node.children)
    return names


def _ts_imported_names(root_node) -> set[str]:
    names: set[str] = set()
    stack = [root_node]
    while stack:
        node = stack.pop()
        if node.type == "import_specifier":
            target = node.child_by_field_name("alias") or node.child_by_field_name("name")
            names.add(target.text.decode())
        elif node.type == "namespace_import":
            names.update(c.text.decode() for c in node.children if c.type == "identifier")
        elif node.type == "import_clause":
            names.update(c.text.decode() for c in node.children if c.type == "identifier")
            stack.extend(node.children)
        elif node.type == "import_alias":
            names.update(c.text.decode() for c in node.children[:2] if c.type == "identifier")
        else:
            stack.extend(node.children)
    return names


def _js_imported_names(root_node) -> set[str]:
    """ES imports, and CommonJS: names bound by ``const x = require("m")`` (also ``require("m").y``
    and ``const {a, b: c} = require("m")``)."""
    names = _ts_imported_names(root_node)
    stack = [root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type != "variable_declarator":
            continue
        value, target = node.child_by_field_name("value"), node.child_by_field_name("name")
        while value is not None and value.type == "member_expression":
            value = value.child_by_field_name("object")
        if value is None or value.type != "call_expression":
            continue
        func = value.child_by_field_name("function")
        if func is None or func.type != "identifier" or func.text != b"require":
            continue
        if target.type == "identifier":
            names.add(target.text.decode())
        elif target.type == "object_pattern":
            for c in target.children:
                if c.type == "shorthand_property_identifier_pattern":
                    names.add(c.text.decode())
                elif c.type == "pair_pattern" and c.child_by_field_name("value").type == "identifier":
                    names.add(c.child_by_field_name("value").text.decode())
    return names


def _python_refs(root_node):
    """Yield (node, kind_hint) for reference identifiers; kind_hint 'attribute' or 'name'."""
    # stack items: (node, mode) with mode in {"normal", "target", "params"}
    stack = [(root_node, "normal")]
    while stack:
        node, mode = stack.pop()
        t = node.type
        if t in _PY_SKIP_SUBTREES:
            continue
        if t == "identifier":
            if mode == "normal":
                yield node, "name"
            continue
        if mode == "target":
            if t in _PY_TARGET_CONTAINERS or t == "identifier":
                stack.extend((c, "target") for c in node.children)
                continue
            if t == "attribute":
                obj = node.child_by_field_name("object")
                if obj is not None:
                    stack.append((obj, "normal"))
                continue  # the attribute name being assigned is a definition
            mode = "normal"
        if mode == "params":
            if t == "identifier":
                continue
            if t in ("typed_parameter",):
                for i, c in enumerate(node.children):
                    stack.append((c, "normal" if node.field_name_for_child(i) == "type" else "params"))
                continue
            if t in ("default_parameter", "typed_default_parameter"):
                for i, c in enumerate(node.children):
                    stack.append((c, "params" if node.field_name_for_child(i) == "name" else "normal"))
                continue
            if t in ("list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern"):
                stack.extend((c, "params") for c in node.children)
                continue
            mode = "normal"
        # normal mode
        if t in _PY_PARAM_CONTAINERS:
            stack.extend((c, "params") for c in node.children)
            continue
        if t == "attribute":
            for i, c in enumerate(node.children):
                if node.field_name_for_child(i) == "attribute":
                    if c.type == "identifier":
                        yield c, "attribute"
                else:
                    stack.append((c, "normal"))
            continue
        for i, c in enumerate(node.children):
            field = node.field_name_for_child(i)
            if t in _PY_DEF_NAME_PARENTS and field == "name":
                continue
            if t == "keyword_argument" and field == "name":
                continue
            if t == "named_expression" and field == "name":
                continue
            if t in ("assignment", "augmented_assignment") and field == "left":
                stack.append((c, "target"))
            elif t in ("for_statement", "for_in_clause") and field == "left":
                stack.append((c, "target"))
            elif t == "as_pattern" and field == "alias":
                stack.append((c, "target"))
            else:
                stack.append((c, "normal"))


def _ts_refs(root_node, js=False):
    """TypeScript's references; ``js``: JavaScript's grammar, whose parameters are bare patterns
    (no ``required_parameter`` around them)."""
    stack = [(root_node, "normal")]
    while stack:
        node, mode = stack.pop()
        t = node.type
        if t in _TS_SKIP_SUBTREES:
            continue
        if mode == "binding":
            if t in ("identifier", "shorthand_property_identifier_pattern", "property_identifier"):
                continue
            if t in ("object_pattern", "array_pattern", "rest_pattern"):
                stack.extend((c, "binding") for c in node.children)
                continue
            if t == "pair_pattern":
                for i, c in enumerate(node.children):
                    if node.field_name_for_child(i) == "value":
                        stack.append((c, "binding"))
                continue
            if t in ("assignment_pattern", "object_assignment_pattern"):
                for i, c in enumerate(node.children):
                    stack.append((c, "binding" if node.field_name_for_child(i) == "left" else "normal"))
                continue
            mode = "normal"
        if js and t == "formal_parameters":
            stack.extend((c, "binding") for c in node.children)
            continue
        if t in ("identifier", "type_identifier"):
            yield node, "name"
            continue
        if t == "member_expression":
            for i, c in enumerate(node.children):
                if node.field_name_for_child(i) == "property":
                    if c.type in ("property_identifier", "private_property_identifier"):
                        yield c, "attribute"
                else:
                    stack.append((c, "normal"))
            continue
        if t == "nested_type_identifier":
            for i, c in enumerate(node.children):
                if node.field_name_for_child(i) == "name" and c.type == "type_identifier":
                    yield c, "attribute"
                else:
                    stack.append((c, "normal"))
            continue
        has_kind = t == "for_in_statement" and node.child_by_field_name("kind") is not None
        for i, c in enumerate(node.children):
            field = node.field_name_for_child(i)
            if t in _TS_DECL_NAME_PARENTS and field == "name":
                continue
            if (t, field) in _TS_BINDING_FIELDS or (has_kind and field == "left"):
                stack.append((c, "binding"))
            else:
                stack.append((c, "normal"))


RECEIVER_NAMES = {"python": {"self", "cls"}, "typescript": set(), "javascript": set()}


def enumerate_references(root: Path, language: str, files=None, include_receivers=False) -> list[Ref]:
    """Every reference identifier (not a definition name) in ``files`` under ``root``.

    Kinds: ``attribute`` (member after a dot), ``imported`` (a plain name bound by an
    import statement in the same file; in JavaScript also by ``require``), ``plain`` (any
    other name). Identifiers inside import/export statements themselves are not sampled.
    ``self``/``cls`` are left out unless ``include_receivers``.
    """
    files = list_source_files(root, language) if files is None else files
    walker = {"python": _python_refs, "javascript": lambda root_node: _ts_refs(root_node, js=True)}.get(
        language, _ts_refs)
    imported_of = {"python": _python_imported_names, "javascript": _js_imported_names}.get(
        language, _ts_imported_names)
    skip_names = set() if include_receivers else RECEIVER_NAMES[language]
    refs: list[Ref] = []
    for rel in files:
        data = (root / rel).read_bytes()
        tree = _parser(language, rel).parse(data)
        imported = imported_of(tree.root_node)
        lines = data.split(b"\n")
        line_starts = [0]
        for ln in lines[:-1]:
            line_starts.append(line_starts[-1] + len(ln) + 1)
        text = data.decode("utf-8", errors="replace") if language != "python" else None
        for node, hint in walker(tree.root_node):
            name = node.text.decode("utf-8", errors="replace")
            if name in skip_names or not name:
                continue
            row, bcol = node.start_point
            cp0 = code_points(lines[row], bcol)
            if hint == "attribute":
                kind = "attribute"
            elif name in imported:
                kind = "imported"
            else:
                kind = "plain"
            utf16 = -1
            if text is not None:
                prefix = data[: line_starts[row] + bcol].decode("utf-8", errors="replace")
                utf16 = len(prefix.encode("utf-16-le")) // 2
            refs.append(Ref(rel, row + 1, cp0 + 1, name, kind, bcol, utf16))
    refs.sort(key=lambda r: (r.file, r.line, r.column))
    return refs


def sample_references(refs: list[Ref], n: int | None, seed: int) -> list[Ref]:
    """A seeded shuffle of ``refs`` (all of them, in sampling order); callers take what they need."""
    order = list(refs)
    random.Random(seed).shuffle(order)
    return order if n is None else order[:n]


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - t0
