"""Module specifiers -> files, through each language's ``resolve_module`` hook.

The hooks ask questions about the project through ``ProjectModules`` (a ``ModuleContext``):
which files and folders exist (from the index, not the disk, so answers match the facts),
config files' contents, and the Python package roots.
"""

from __future__ import annotations

import json
import os
import posixpath

from ..languages import by_name
from ..workspace import Workspace

__all__ = ["ProjectModules"]


class ProjectModules:
    """Module resolution for one index generation (rebuilt when files change)."""

    def __init__(self, index, workspace: Workspace):
        self.index = index
        self.workspace = workspace
        self._roots: list[str] | None = None
        self._json: dict[str, dict | None] = {}
        self._text: dict[str, str | None] = {}
        self._cache: dict[tuple[str, str, str], list[str]] = {}
        self._by_basename: dict[str, list[str]] | None = None
        self._by_folder: dict[str, list[str]] | None = None
        self._subfolders: dict[str, list[str]] | None = None

    # ---- ModuleContext ------------------------------------------------------------------
    def is_file(self, rel: str) -> bool:
        return self.index.has_file(rel)

    def is_dir(self, rel: str) -> bool:
        return self.index.has_dir(rel)

    def read_text(self, rel: str) -> str | None:
        if rel not in self._text:
            libraries = getattr(self.index, "libraries", None)
            try:
                absolute = libraries.absolute(rel) if libraries is not None else None
                absolute = absolute if absolute is not None else self.workspace.absolute(rel)
                with open(absolute, encoding="utf-8", errors="replace") as fh:
                    self._text[rel] = fh.read()
            except (OSError, ValueError):
                self._text[rel] = None
        return self._text[rel]

    def read_json(self, rel: str) -> dict | None:
        if rel not in self._json:
            text = self.read_text(rel)
            try:
                value = json.loads(text) if text is not None else None
            except ValueError:
                value = None
            self._json[rel] = value if isinstance(value, dict) else None
        return self._json[rel]

    def package_roots(self) -> list[str]:
        """Folders Python imports start from: the root, ``src/``, and parents of top-level packages."""
        if self._roots is None:
            roots = {""}
            if self.index.has_dir("src"):
                roots.add("src")
            for path in self.index.files():
                if not path.endswith(("/__init__.py", "/__init__.pyi")):
                    continue
                package = posixpath.dirname(path)
                parent = posixpath.dirname(package)
                while parent and (self.index.has_file(parent + "/__init__.py") or self.index.has_file(parent + "/__init__.pyi")):
                    package, parent = parent, posixpath.dirname(parent)
                roots.add(parent)
            self._roots = sorted(roots, key=lambda r: (r != "", r != "src", r))
            libraries = getattr(self.index, "libraries", None)
            if libraries is not None:  # after the project's own: the interpreter's import path
                self._roots += libraries.root_keys()
        return self._roots

    def files_named(self, basename: str) -> list[str]:
        """Indexed files called ``basename`` anywhere in the project (C include search, headers)."""
        if self._by_basename is None:
            table: dict[str, list[str]] = {}
            for path in self.index.files():
                table.setdefault(posixpath.basename(path), []).append(path)
            self._by_basename = table
        return self._by_basename.get(basename, [])

    def files_in(self, folder: str) -> list[str]:
        """Indexed files directly inside ``folder`` (root-relative, ``""`` for the root)."""
        if self._by_folder is None:
            table: dict[str, list[str]] = {}
            for path in self.index.files():
                table.setdefault(posixpath.dirname(path), []).append(path)
            self._by_folder = table
        return self._by_folder.get(folder.strip("/"), [])

    def folders_in(self, folder: str) -> list[str]:
        """Indexed folders directly inside ``folder`` (TS/JS workspace globs such as
        ``packages/*`` expand over them)."""
        if self._subfolders is None:
            table: dict[str, set[str]] = {}
            for path in self.index.files():
                child = posixpath.dirname(path)
                while child:
                    parent = posixpath.dirname(child)
                    known = table.setdefault(parent, set())
                    if child in known:
                        break
                    known.add(child)
                    child = parent
            self._subfolders = {k: sorted(v) for k, v in table.items()}
        return self._subfolders.get(folder.strip("/"), [])

    def project_path(self, rel: str) -> str | None:
        """The project folder or file ``rel`` really is when a symlink leads it back into the
        root (``node_modules/@acme/core`` linked to ``packages/core``); None when ``rel`` is no
        such link, or leads outside the root or into ignored (library) code."""
        root = os.path.realpath(self.workspace.root)
        try:
            real = os.path.realpath(os.path.join(root, *rel.split("/")))
        except (OSError, ValueError):
            return None
        if not real.startswith(root + os.sep):
            return None
        inside = os.path.relpath(real, root).replace(os.sep, "/")
        if inside == rel or "node_modules" in inside.split("/"):
            return None
        return inside if self.index.has_dir(inside) or self.index.has_file(inside) else None

    # ---- resolution -------------------------------------------------------------------
    def resolve(self, spec: str, importer: str, language: str) -> list[str]:
        """Root-relative files (a trailing ``/`` marks a namespace-package folder) ``spec`` names."""
        key = (spec, importer, language)
        found = self._cache.get(key)
        if found is None:
            hook_language = "python" if language == "notebook" else language
            try:
                hook = by_name(hook_language).resolve_module
            except KeyError:
                return []
            found = self._cache[key] = hook(spec, importer, self)
        return found
