"""The project root: confinement, POSIX relative paths, ignore rules and the test-file rule.

Every path that enters jupyter_codetrace passes through :meth:`Workspace.relative`, so this is
the one place that decides whether a path is inside the root. Paths handed around afterwards
are POSIX strings relative to the root (``"src/a.ts"``), the form every result uses.

>>> ws = Workspace("fixtures/demo")                        # doctest: +SKIP
>>> ws.relative("src/../src/app.ts")                       # doctest: +SKIP
'src/app.ts'
>>> ws.is_ignored("node_modules/x/index.js")               # doctest: +SKIP
True
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Sequence

from pathspec import GitIgnoreSpec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from .errors import InvalidRequest

__all__ = ["Workspace", "is_test_file", "VENDORED_DIRS", "IGNORE_FILES"]

#: Folder names never indexed, wherever they appear. They hold dependencies, VCS data or
#: build output: indexing them would drown the project's own symbols in copies and vendored code.
VENDORED_DIRS: frozenset[str] = frozenset({
    "node_modules", ".git", "__pycache__", ".venv", "venv", "dist", "build", "target",
    ".mypy_cache", ".pytest_cache", ".tox",
})

#: Ignore files read at the root, in this order; a later pattern (``!keep.py`` in
#: ``.devtoolsignore``) overrides an earlier one, as within one gitignore file.
IGNORE_FILES: tuple[str, ...] = (".gitignore", ".devtoolsignore")


class Workspace:
    """One project root and the rules for which of its files are indexed.

    ``root`` is resolved (symlinks followed) once, so that containment checks compare real
    paths. ``exclude`` takes extra gitignore-syntax patterns, applied after the ignore files.

    The ignore files are read when the workspace is created; :meth:`refresh_ignores` re-reads
    them when they changed on disk (``index.discover`` calls it before every walk, so a query
    always sees the current rules without ``is_ignored`` paying for two ``stat`` calls per path).
    """

    def __init__(self, root: str | os.PathLike, max_file_size: int = 2_000_000,
                 exclude: Sequence[str] = ()):
        if root is None or os.fspath(root) == "":
            raise InvalidRequest("root is required", field="root")
        resolved = Path(root).expanduser().resolve()
        if not resolved.exists():
            raise InvalidRequest(f"root {os.fspath(root)!r} does not exist", field="root")
        if not resolved.is_dir():
            raise InvalidRequest(f"root {os.fspath(root)!r} is not a directory", field="root")
        if isinstance(exclude, str):
            # A lone string would otherwise be iterated character by character.
            exclude = (exclude,)
        self.root: Path = resolved
        self.max_file_size: int = max_file_size
        self.exclude: tuple[str, ...] = tuple(exclude)
        # String form with a trailing separator: containment is then a prefix test that cannot
        # confuse "/repo" with "/repo-other".
        self._root_str = str(resolved)
        self._root_prefix = self._root_str.rstrip(os.sep) + os.sep
        # Fail now, with the pattern named, rather than on the first query.
        bad = [pattern for pattern in self.exclude if not _valid_pattern(pattern)]
        if bad:
            raise InvalidRequest(f"invalid exclude pattern {bad[0]!r}", field="exclude")
        self._ignore_signature: tuple | None = None
        self.ignore_spec: GitIgnoreSpec | None = None
        #: Messages about ignore-file lines that were dropped because they are not valid
        #: gitignore patterns (git silently skips those too); the indexer can surface them.
        self.ignore_warnings: list[str] = []
        self.refresh_ignores()

    def __repr__(self) -> str:
        return f"Workspace({self._root_str!r})"

    # -- paths ---------------------------------------------------------------------------

    def relative(self, path: str | os.PathLike, field: str = "file") -> str:
        """The POSIX path of ``path`` relative to the root, e.g. ``"src/a.ts"``.

        ``path`` is relative to the root or absolute inside it. Symlinks are resolved, so a
        link inside the root names its target (which is where ``discover`` lists the file).
        The file need not exist. The root itself is ``"."``.

        Raises :class:`InvalidRequest` (``field=field``) for an empty path, and with
        ``outside_root=True`` for anything resolving outside the root. The message never names
        the resolved outside location: it may be a secret the caller must not learn about.
        """
        if path is None:
            raise InvalidRequest(f"{field} is required", field=field)
        try:
            text = os.fspath(path)
        except TypeError:
            raise InvalidRequest(f"{field} must be a path string", field=field) from None
        if not isinstance(text, str):
            text = os.fsdecode(text)
        if text.strip() == "":
            raise InvalidRequest(f"{field} is required", field=field)
        if "\x00" in text:
            raise InvalidRequest(f"{field} contains a NUL character", field=field)

        candidate = text if os.path.isabs(text) else os.path.join(self._root_str, text)
        # realpath resolves the existing prefix through symlinks and folds ".." lexically for
        # the part that does not exist, which is exactly "where would this path land".
        real = os.path.realpath(candidate)
        if real == self._root_str:
            return "."
        if not real.startswith(self._root_prefix):
            raise InvalidRequest(
                f"{field} resolves outside the project root", field=field, outside_root=True)
        rel = real[len(self._root_prefix):]
        return rel.replace(os.sep, "/") if os.sep != "/" else rel

    def absolute(self, rel: str) -> Path:
        """The absolute path of a root-relative POSIX path (as returned by :meth:`relative`).

        Purely lexical (no file-system access, so it is cheap in the indexer's loops); an
        absolute path or one that climbs out with ``..`` raises :class:`InvalidRequest`.
        """
        if not rel or rel == ".":
            return self.root
        norm = posixpath.normpath(rel.replace("\\", "/"))
        if posixpath.isabs(norm) or norm == ".." or norm.startswith("../") or (
                os.name == "nt" and os.path.splitdrive(rel)[0]):
            raise InvalidRequest("file resolves outside the project root", field="file",
                                 outside_root=True)
        return self.root.joinpath(*norm.split("/"))

    # -- ignore rules ----------------------------------------------------------------------

    def refresh_ignores(self) -> bool:
        """Re-read the root's ignore files if they changed; True when the rules changed."""
        texts = []
        signature = []
        for name in IGNORE_FILES:
            path = os.path.join(self._root_str, name)
            try:
                st = os.stat(path)
            except OSError:
                signature.append(None)
                texts.append("")
                continue
            signature.append((st.st_mtime_ns, st.st_size))
            texts.append(None)  # read below only if the signature differs
        sig = tuple(signature)
        if sig == self._ignore_signature:
            return False
        lines: list[str] = []
        warnings: list[str] = []
        for name, text in zip(IGNORE_FILES, texts):
            if text is None:
                try:
                    with open(os.path.join(self._root_str, name), encoding="utf-8",
                              errors="replace") as fh:
                        text = fh.read()
                except OSError:
                    # Unreadable ignore file: behave as if absent rather than fail every query.
                    warnings.append(f"{name}: unreadable, ignored")
                    text = ""
            for number, line in enumerate(text.splitlines(), 1):
                if _valid_pattern(line):
                    lines.append(line)
                else:
                    warnings.append(f"{name}:{number}: invalid pattern {line!r} skipped")
        lines.extend(self.exclude)
        # Only comments/blank lines -> no spec, so the hot path can skip matching altogether.
        meaningful = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
        self.ignore_spec = GitIgnoreSpec.from_lines(lines) if meaningful else None
        self.ignore_warnings = warnings
        self._ignore_signature = sig
        return True

    def is_ignored(self, rel: str, is_dir: bool = False) -> bool:
        """Whether a root-relative POSIX path is left out of the index.

        True inside any :data:`VENDORED_DIRS` folder, or when matched by ``.gitignore``,
        ``.devtoolsignore`` or the ``exclude`` patterns (gitignore syntax, including negation
        and directory-only ``dir/`` patterns). Pass ``is_dir=True`` for a directory so that
        directory-only patterns apply to it.
        """
        if not rel or rel == ".":
            return False
        parts = rel.split("/")
        folders = parts if is_dir else parts[:-1]
        for part in folders:
            if part in VENDORED_DIRS:
                return True
        spec = self.ignore_spec
        if spec is None:
            return False
        return spec.match_file(rel + "/" if is_dir else rel)


def _valid_pattern(line: str) -> bool:
    """Whether pathspec accepts ``line`` as a gitignore pattern (``!`` or a trailing ``\\``
    alone are not); git skips such lines, so we drop them instead of failing."""
    try:
        GitIgnoreSpecPattern(line)
    except ValueError:
        return False
    return True


def is_test_file(rel: str) -> bool:
    """Whether a root-relative POSIX path is a test file, per the contract's rule.

    ``*.test.*``, ``*.spec.*``, ``test_*.py``, ``*_test.py``, ``*_test.go``, or any folder
    named ``__tests__`` or ``tests`` on the way. A bare ``test/`` folder is deliberately not
    in the rule: the contract does not list it.
    """
    parts = rel.replace("\\", "/").split("/")
    base = parts[-1]
    # "*.test.*" is "contains '.test.'" because each "*" may be empty.
    if ".test." in base or ".spec." in base:
        return True
    if base.startswith("test_") and base.endswith(".py"):
        return True
    if base.endswith(("_test.py", "_test.go")):
        return True
    return any(part in ("__tests__", "tests") for part in parts[:-1])
