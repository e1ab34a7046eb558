"""Library code: the standard library, installed packages and ``node_modules``, read lazily.

The project index holds the repository's own files. Library files are reached only by
resolution — an import the project cannot satisfy itself — and are parsed the first time an
answer needs them, then kept in a bounded cache keyed by path, size and mtime. They never
appear in ``Index.files()``, so symbol search, references, the call graph and the index
statistics stay the project's.

Library files have paths of their own inside the engine:
- Python import roots outside the root (``sys.path`` of the interpreter that runs the code)
  become ``::py0/json/__init__.py``: the root's key, then the path under it;
- ``node_modules`` folders lie inside the root (ignored), so their files keep their
  root-relative path (``node_modules/ky/distribution/index.d.ts``).
``WithLibraries`` puts both behind the index interface the resolver already uses.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import posixpath
import sys
import sysconfig
import threading
from collections import OrderedDict
from pathlib import Path

from ..dataclass_code import dataclass
from ..errors import InvalidRequest
from ..facts import FileFacts
from ..places import places_named
from ..results import library_label
from ..languages import for_path
from .discover import decode_source
from .extract import extract_file
from .library_store import LibraryStore
from .side_store import renew_after_fork

__all__ = ["LIBRARY_PREFIX", "ImportRoot", "LibraryPlace", "Libraries", "WithLibraries", "is_library_path"]

LIBRARY_PREFIX = "::"
_NODE_MODULES = "node_modules"
_MAX_CACHED_FILES = 400          # parsed library files kept (LRU); memory stays bounded
_MAX_LIBRARY_FILE = 4_000_000    # bytes: larger generated modules are not parsed
_ASK_TIMEOUT = 20                # seconds to wait for another interpreter's sys.path


def is_library_path(path: str) -> bool:
    """True for a library file's engine path (see the module docstring)."""
    return path.startswith(LIBRARY_PREFIX) or path == _NODE_MODULES or path.startswith(_NODE_MODULES + "/") \
        or f"/{_NODE_MODULES}/" in path or path.endswith("/" + _NODE_MODULES)


@dataclass(frozen=True)
class ImportRoot:
    """A folder of the interpreter's import path, keyed for answers."""

    key: str     # "::py0"
    path: str    # absolute folder
    kind: str    # "stdlib" | "site-packages" | "path"


@dataclass(frozen=True)
class LibraryPlace:
    """Where a library file is, in words a person (or an LLM) can use: never a machine path."""

    file: str                 # under its import root: json/__init__.py, networkx/classes/digraph.py
    kind: str                 # "stdlib" | "package"
    package: str              # "python" for the standard library, else the distribution's name
    version: str | None

    def to_dict(self) -> dict:
        return {"kind": self.kind, "package": self.package, "version": self.version}


@dataclass
class _Interpreter:
    """What an interpreter's import path holds, as asked of it once."""

    path: list[str]
    stdlib: list[str]
    version: str
    builtin: frozenset[str]          # modules compiled into the interpreter (sys, math on some builds)
    extension_suffixes: tuple[str, ...]


def _this_interpreter() -> _Interpreter:
    paths = sysconfig.get_paths()
    stdlib = [paths["stdlib"], paths.get("platstdlib", paths["stdlib"])]
    # A console script (`jupyter-lab`, `codetrace`) runs with its environment's `bin/` first on
    # sys.path. Nothing is imported from there, and counting it would give the server and a kernel
    # of one environment different import roots: different graph stores, each built cold.
    scripts = os.path.realpath(paths["scripts"])
    path = [entry for entry in sys.path if not entry or os.path.realpath(entry) != scripts]
    return _Interpreter(path, stdlib, ".".join(map(str, sys.version_info[:2])),
                        frozenset(sys.builtin_module_names), tuple(importlib.machinery.EXTENSION_SUFFIXES))


_ASK = ("import importlib.machinery as m, json, sys, sysconfig; p = sysconfig.get_paths(); "
        "print(json.dumps({'path': sys.path, 'stdlib': [p['stdlib'], p.get('platstdlib', p['stdlib'])], "
        "'version': '%d.%d' % sys.version_info[:2], 'builtin': list(sys.builtin_module_names), "
        "'suffixes': list(m.EXTENSION_SUFFIXES)}))")


def _ask_interpreter(python: str) -> _Interpreter:
    """Another interpreter's import path, asked once (``--python``, the ``python`` setting)."""
    import subprocess   # here: only a project for another interpreter starts one

    try:
        done = subprocess.run([python, "-I", "-c", _ASK], capture_output=True, text=True, timeout=_ASK_TIMEOUT,
                              check=True)
        data = json.loads(done.stdout)
        return _Interpreter([p for p in data["path"] if isinstance(p, str)], list(data["stdlib"]), str(data["version"]),
                            frozenset(data["builtin"]), tuple(data["suffixes"]))
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"cannot ask the interpreter {python!r} for its import path: {error}") from None


class Libraries:
    """The library files one project's answers may lead into, parsed on demand."""

    def __init__(self, workspace, python: str | None = None, store: LibraryStore | None = None):
        if python is not None and not (os.path.isfile(python) and os.access(python, os.X_OK)):
            import shutil

            found = shutil.which(python)
            if found is None:
                raise InvalidRequest(f"python: {python!r} is not an executable interpreter", field="python")
            python = found
        self.workspace = workspace
        self.python = python
        self.store = store   # facts persisted across processes (None: parse in each process)
        self._lock = threading.RLock()
        self._roots: list[ImportRoot] | None = None
        self._by_key: dict[str, ImportRoot] = {}
        self._version = ""
        self._facts: OrderedDict[str, tuple[tuple[int, int], FileFacts, bytes]] = OrderedDict()
        self._kinds: dict[str, str | None] = {}   # absolute path -> "file" | "dir" | None
        self._distributions: dict[str, dict[str, tuple[str, str]]] = {}
        self._manifests: dict[str, dict | None] = {}
        self.reached: set[str] = set()   # library paths the engine parsed: all a source view may show
        renew_after_fork(self)

    def _after_fork(self) -> None:
        # a forked child (the graph's build, graph/build.py) runs one thread: a lock another
        # thread held at the fork would never be released there
        self._lock = threading.RLock()

    # ---- import roots --------------------------------------------------------------------
    def python_roots(self) -> list[ImportRoot]:
        """Folders Python imports from, in ``sys.path`` order, outside the project's own files."""
        with self._lock:
            if self._roots is None:
                self._roots = self._find_python_roots()
                self._by_key = {r.key: r for r in self._roots}
            return self._roots

    def _find_python_roots(self) -> list[ImportRoot]:
        interpreter = self._interpreter = _ask_interpreter(self.python) if self.python else _this_interpreter()
        self._version = interpreter.version
        stdlib = {os.path.realpath(p) for p in interpreter.stdlib}
        root = os.path.realpath(self.workspace.root)
        roots, seen = [], set()
        for entry in interpreter.path:
            if not entry or not os.path.isdir(entry):
                continue  # the script's folder ('') and zipped stdlibs
            real = os.path.realpath(entry)
            if real in seen:
                continue
            seen.add(real)
            inside = real == root or real.startswith(root + os.sep)
            if inside and not self.workspace.is_ignored(os.path.relpath(real, root).replace(os.sep, "/"), True):
                continue  # the project's own code (an editable install of it, `src/`): indexed already
            if real in stdlib or any(real.startswith(s + os.sep) for s in stdlib if "site-packages" not in real):
                kind = "stdlib"
            elif os.path.basename(real) in ("site-packages", "dist-packages"):
                kind = "site-packages"
            else:
                kind = "path"
            roots.append(ImportRoot(f"{LIBRARY_PREFIX}py{len(roots)}", real, kind))
        return roots

    def root_keys(self) -> list[str]:
        return [r.key for r in self.python_roots()]

    # ---- files ------------------------------------------------------------------------------
    def absolute(self, path: str) -> str | None:
        """The file on disk behind a library path; None when ``path`` is not one."""
        if path.startswith(LIBRARY_PREFIX):
            key, _, rest = path.partition("/")
            self.python_roots()
            found = self._by_key.get(key)
            if found is None:
                return None
            rest = posixpath.normpath(rest) if rest else ""
            if rest.startswith("../") or rest == ".." or rest.startswith("/"):
                return None
            return os.path.join(found.path, rest) if rest and rest != "." else found.path
        if is_library_path(path):
            rest = posixpath.normpath(path)
            if rest.startswith("../") or rest.startswith("/"):
                return None
            return os.path.join(str(self.workspace.root), rest)
        return None

    def find(self, file: str) -> str | None:
        """The library path of ``file`` as results show it (under its import root), in the first
        import root that holds it, as ``import`` would; None when none does."""
        if not file or file.startswith(("/", "../")) or is_library_path(file) or for_path(file) is None:
            return None
        for root in self.python_roots():
            candidate = f"{root.key}/{file}"
            if self.is_file(candidate):
                return candidate
        return None

    def reached_file(self, file: str) -> str | None:
        """The library path of ``file`` (as results show it, or a ``node_modules/…`` path) if the
        engine reached it and it lies, links resolved, inside its import root; else None. What a
        read-only source view may show: nothing else, whatever the spelling (``..``, links out)."""
        if not isinstance(file, str) or not file or "\x00" in file or "\\" in file:
            return None
        if is_library_path(file):
            candidates = [file]
        else:
            candidates = [f"{root.key}/{file}" for root in self.python_roots()]
        for path in candidates:
            if path not in self.reached:
                continue
            absolute = self.absolute(path)
            if path.startswith(LIBRARY_PREFIX):
                base = self._by_key[path.partition("/")[0]].path
            else:
                base = os.path.join(str(self.workspace.root), path[: path.rindex(_NODE_MODULES) + len(_NODE_MODULES)])
            real, base = os.path.realpath(absolute), os.path.realpath(base)
            if real.startswith(base + os.sep) and os.path.isfile(real):
                return path
        return None

    def _kind(self, path: str) -> str | None:
        absolute = self.absolute(path)
        if absolute is None:
            return None
        kind = self._kinds.get(absolute, "?")
        if kind == "?":
            kind = "file" if os.path.isfile(absolute) else "dir" if os.path.isdir(absolute) else None
            if len(self._kinds) > 50_000:
                self._kinds.clear()
            self._kinds[absolute] = kind
        return kind

    def forget_lookups(self) -> None:
        """Forget which library files exist (not their facts: those are checked by size and mtime)."""
        self._kinds.clear()

    def is_file(self, path: str) -> bool:
        return self._kind(path) == "file"

    def is_dir(self, path: str) -> bool:
        return self._kind(path) == "dir"

    def _stat(self, absolute: str) -> tuple[int, int] | None:
        try:
            st = os.stat(absolute)
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def _load(self, path: str) -> tuple[tuple[int, int], FileFacts, bytes] | None:
        absolute = self.absolute(path)
        spec = for_path(path)
        if absolute is None or spec is None or not spec.precise:
            return None
        signature = self._stat(absolute)
        if signature is None or signature[0] > _MAX_LIBRARY_FILE:
            return None
        with self._lock:
            cached = self._facts.get(absolute)
            if cached is not None and cached[0] == signature and cached[1].path == path:
                self._facts.move_to_end(absolute)
                return cached
        facts = self.store.load(absolute, path, *signature) if self.store is not None else None
        data = None   # read when the text is asked for (code, a read-only view)
        if facts is None:
            data = self._read(absolute, path)
            if data is None:
                return None
            facts = extract_file(path, data, spec)
            if self.store is not None:
                self.store.save(absolute, path, *signature, facts)
        entry = (signature, facts, data)
        with self._lock:
            self.reached.add(path)
            self._facts[absolute] = entry
            while len(self._facts) > _MAX_CACHED_FILES:
                self._facts.popitem(last=False)
        return entry

    @staticmethod
    def _read(absolute: str, path: str) -> bytes | None:
        try:
            with open(absolute, "rb") as fh:
                raw = fh.read()
            data, _ = decode_source(raw, path)
        except (OSError, ValueError):
            return None
        return None if b"\x00" in data[:8192] else data

    def facts(self, path: str) -> FileFacts | None:
        entry = self._load(path)
        return entry[1] if entry else None

    def source(self, path: str) -> bytes:
        entry = self._load(path)
        data = entry[2] if entry is not None else None
        if data is None and entry is not None:
            data = self._read(self.absolute(path), path)
            if data is not None:
                with self._lock:
                    self._facts[self.absolute(path)] = (entry[0], entry[1], data)
        if data is None:
            raise OSError(f"library file {path!r} cannot be read")
        return data

    def digest(self, path: str) -> str | None:
        absolute = self.absolute(path)
        signature = self._stat(absolute) if absolute else None
        return f"lib:{signature[0]}:{signature[1]}" if signature else None

    def missing_note(self, module: str, language: str) -> str | None:
        """Why an import names nothing with source: compiled into the interpreter, a compiled
        extension, or not installed where we looked (said without machine paths)."""
        if not module or module.startswith("."):
            return None
        if language in ("python", "notebook"):
            roots = self.python_roots()
            top = module.split(".", 1)[0]
            python = f"Python {self._version}"
            if top in self._interpreter.builtin:
                return f"`{top}` is compiled into {python}: it has no source to show."
            for root in roots:
                try:
                    names = os.listdir(os.path.join(root.path, top)) if os.path.isdir(os.path.join(root.path, top)) \
                        else [n for n in os.listdir(root.path) if n.startswith(top + ".")]
                except OSError:
                    continue
                compiled = [n for n in names if n.endswith(self._interpreter.extension_suffixes)]
                if compiled and (not os.path.isdir(os.path.join(root.path, top)) or module != top
                                 or any(n.startswith("__init__.") for n in compiled)):
                    what = "the standard library" if root.kind == "stdlib" else library_label(self.place(f"{root.key}/{top}").to_dict())
                    return f"`{module}` is a compiled extension module ({what}): it has no Python source to show."
            kinds = [k for k in ("stdlib", "site-packages", "path") if any(r.kind == k for r in roots)]
            where = ", ".join({"stdlib": "the standard library", "site-packages": "site-packages",
                               "path": "other sys.path folders"}[k] for k in kinds)
            how = "set CODETRACE_PYTHON (or Project(python=...)) to the interpreter that runs this code"
            return (f"`{top}` is not installed for {python} (searched {where}"
                    f"{'' if self.python else ', of the interpreter running codetrace'}): {how}.")
        if language in ("typescript", "tsx", "javascript"):
            parts = module.split("/")
            name = "/".join(parts[:2]) if module.startswith("@") else parts[0]
            return (f"The package `{name}` is not installed in this project (no node_modules/{name}), "
                    f"and no workspace package of the repository has that name.")
        return None

    # ---- what a library file is ----------------------------------------------------------------
    def place(self, path: str) -> LibraryPlace | None:
        if path.startswith(LIBRARY_PREFIX):
            key, _, rest = path.partition("/")
            self.python_roots()
            root = self._by_key.get(key)
            if root is None:
                return None
            if root.kind == "stdlib":
                return LibraryPlace(rest, "stdlib", "python", self._version)
            top = rest.split("/", 1)[0]
            top = top[:-3] if top.endswith(".py") else top[:-4] if top.endswith(".pyi") else top
            package, version = self._distribution(root.path, top)
            return LibraryPlace(rest, "package", package, version)
        if is_library_path(path):
            # inside the root: shown as it is (`tools/node_modules/x/…` and `node_modules/x/…` differ,
            # and JupyterLab can open it)
            head, _, rest = path.rpartition(_NODE_MODULES + "/")
            parts = rest.split("/")
            name = "/".join(parts[:2]) if parts[0].startswith("@") and len(parts) > 1 else parts[0]
            manifest = self._manifest(os.path.join(str(self.workspace.root), head + _NODE_MODULES, name, "package.json"))
            version = manifest.get("version") if manifest else None
            if name.startswith("@types/"):  # the types of `pad-left`, `@scope/name` (@types/scope__name)
                typed = name[len("@types/"):]
                name = "@" + typed.replace("__", "/", 1) if "__" in typed else typed
            return LibraryPlace(path, "package", name, version if isinstance(version, str) else None)
        return None

    def _distribution(self, root: str, top: str) -> tuple[str, str | None]:
        """(distribution name, version) that installed the top-level module ``top`` under ``root``."""
        table = self._distributions.get(root)
        if table is None:
            table = self._distributions[root] = _installed_distributions(root)
        return table.get(top, (top, None))

    def _manifest(self, absolute: str) -> dict | None:
        if absolute not in self._manifests:
            try:
                value = json.loads(Path(absolute).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                value = None
            self._manifests[absolute] = value if isinstance(value, dict) else None
        return self._manifests[absolute]


def _installed_distributions(root: str) -> dict[str, tuple[str, str]]:
    """top-level module name -> (distribution, version), from the ``*.dist-info`` folders of a
    site-packages folder (``top_level.txt``, else the first segments of ``RECORD``)."""
    table: dict[str, tuple[str, str]] = {}
    try:
        entries = os.listdir(root)
    except OSError:
        return table
    for entry in entries:
        if not entry.endswith(".dist-info"):
            continue
        name, _, version = entry[: -len(".dist-info")].partition("-")
        folder = os.path.join(root, entry)
        tops: set[str] = set()
        try:
            tops = {line.strip() for line in Path(folder, "top_level.txt").read_text().splitlines() if line.strip()}
        except OSError:
            try:
                with open(os.path.join(folder, "RECORD"), encoding="utf-8", errors="replace") as fh:
                    for line in fh:
                        first = line.split(",", 1)[0].split("/", 1)[0]
                        if first and not first.endswith((".dist-info", ".pth", ".data")) and first not in ("..", "__pycache__"):
                            tops.add(first[:-3] if first.endswith(".py") else first)
            except OSError:
                pass
        for top in tops or {name}:
            table.setdefault(top, (name, version))
    return table


class WithLibraries:
    """The project index, plus library files behind the same interface (for the resolver and
    the queries): ``files()`` and every per-project table stay the project's own."""

    def __init__(self, index, libraries: Libraries):
        self._index = index
        self.libraries = libraries

    def __getattr__(self, name):
        return getattr(self._index, name)

    def is_library(self, path: str) -> bool:
        return is_library_path(path) and not self._index.has_file(path)

    def has_file(self, path: str) -> bool:
        return self._index.has_file(path) or (is_library_path(path) and self.libraries.is_file(path))

    def has_dir(self, path: str) -> bool:
        return self._index.has_dir(path) or (is_library_path(path) and self.libraries.is_dir(path))

    def facts(self, path: str) -> FileFacts | None:
        if self._index.has_file(path) or not is_library_path(path):
            return self._index.facts(path)
        return self.libraries.facts(path)

    def places(self, path: str, name: str) -> tuple[list, bool]:
        if self._index.has_file(path) or not is_library_path(path):
            return self._index.places(path, name)
        facts = self.libraries.facts(path)
        return places_named(facts, name) if facts is not None else ([], False)

    def digest(self, path: str) -> str | None:
        if self._index.has_file(path) or not is_library_path(path):
            return self._index.digest(path)
        return self.libraries.digest(path)

    def source(self, path: str) -> bytes:
        if self._index.has_file(path) or not is_library_path(path):
            return self._index.source(path)
        return self.libraries.source(path)

    def language_of(self, path: str) -> str | None:
        if self._index.has_file(path) or not is_library_path(path):
            return self._index.language_of(path)
        facts = self.libraries.facts(path)
        return facts.language if facts else None
