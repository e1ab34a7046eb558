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
import re
from pathlib import Path
from typing import Sequence

from pathspec import GitIgnoreSpec
from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from .errors import InvalidRequest

__all__ = ["Workspace", "IgnoreRules", "is_test_file", "VENDORED_DIRS", "IGNORE_FILES"]

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

    Ignoring follows git: a folder that is ignored is not entered, so a file under it cannot be
    re-included by a later ``!pattern`` (``build/`` then ``!build/keep.py`` keeps ``keep.py``
    ignored, as ``git status`` does).

    The ignore files are read on first use; :meth:`refresh_ignores` re-reads them when they
    changed on disk (``index.discover`` calls it before every walk, so a query
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
        # Ignore files are read on first use, not here: indexer worker processes build a
        # Workspace per file only to read it, and must not pay for compiling patterns.
        self._ignore_signature: tuple | None = None
        self._ignore_rules: IgnoreRules | None = None
        self._ignore_warnings: list[str] = []

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
        if os.sep != "/":
            rel = rel.replace(os.sep, "/")
        norm = posixpath.normpath(rel)
        if posixpath.isabs(norm) or norm == ".." or norm.startswith("../") or (
                os.name == "nt" and os.path.splitdrive(rel)[0]):
            raise InvalidRequest("file resolves outside the project root", field="file",
                                 outside_root=True)
        return self.root.joinpath(*norm.split("/"))

    # -- ignore rules ----------------------------------------------------------------------

    @property
    def ignore_rules(self) -> IgnoreRules | None:
        """The compiled ignore patterns, or None when there are none (the common fast case)."""
        if self._ignore_signature is None:
            self.refresh_ignores()
        return self._ignore_rules

    @property
    def ignore_warnings(self) -> list[str]:
        """Ignore-file lines dropped as invalid patterns (git skips them too), for IndexStats."""
        if self._ignore_signature is None:
            self.refresh_ignores()
        return list(self._ignore_warnings)

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
        for name, text in zip(IGNORE_FILES, texts, strict=True):
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
        self._ignore_rules = IgnoreRules(lines) if meaningful else None
        self._ignore_warnings = warnings
        self._ignore_signature = sig
        return True

    def is_ignored(self, rel: str, is_dir: bool = False) -> bool:
        """Whether a root-relative POSIX path is left out of the index.

        True inside any :data:`VENDORED_DIRS` folder, or when matched by ``.gitignore``,
        ``.devtoolsignore`` or the ``exclude`` patterns (gitignore syntax, including negation
        and directory-only ``dir/`` patterns). Pass ``is_dir=True`` for a directory so that
        directory-only patterns apply to it.
        """
        if rel.endswith("/"):
            rel, is_dir = rel.rstrip("/"), True
        if not rel or rel == ".":
            return False
        parts = rel.split("/")
        folders = parts if is_dir else parts[:-1]
        for part in folders:
            if part in VENDORED_DIRS:
                return True
        rules = self.ignore_rules
        if rules is None:
            return False
        # Each folder on the way down, then the entry: the same order and checks as the walk in
        # index/discover.py, so both always agree.
        prefix = ""
        for part in parts[:-1]:
            prefix += part
            if rules.matches_entry(prefix, part, True):
                return True
            prefix += "/"
        return rules.matches_entry(rel, parts[-1], is_dir)


class IgnoreRules:
    """Compiled gitignore-syntax patterns, answering "is this one walk entry ignored?" fast.

    The answer itself comes from pathspec's :class:`~pathspec.GitIgnoreSpec` (negation,
    ``dir/`` patterns, ``**``, escapes). But pathspec tries every pattern's regex in turn: with
    GitHub's 70-pattern Python ``.gitignore`` that cost 60 us per path: a 7,000-file walk took
    406 ms instead of 67 ms on the reference VM. Most entries match no pattern at all, so a
    cheap test first asks whether any *ignoring* (non-``!``) pattern could match; only then is
    pathspec asked. Bare names (``__pycache__/``) become a set lookup, ``*.ext`` a suffix test,
    the other single-segment patterns one combined regex on the entry's name, and the rest one
    combined regex on the whole path: the same walk now takes 84 ms (2.4 us per file for the
    rules). A test checks the answers against pathspec's on thousands of paths.

    The name-only tests assume the folders above the entry were already found not ignored,
    which is how both the walk and :meth:`Workspace.is_ignored` proceed.
    """

    def __init__(self, lines: Sequence[str]):
        self.spec: GitIgnoreSpec = GitIgnoreSpec.from_lines(lines)
        file_names: set[str] = set()
        dir_names: set[str] = set()
        file_suffixes: list[str] = []
        dir_suffixes: list[str] = []
        file_name_rx: list[str] = []
        dir_name_rx: list[str] = []
        path_rx: list[str] = []
        for pattern in self.spec.patterns:
            if pattern.include is not True:
                continue  # negations and no-ops can never make an entry ignored
            regex = pattern.regex.pattern if pattern.regex is not None else None
            text = getattr(pattern, "pattern", None)
            if not isinstance(regex, str) or not regex.startswith("^"):
                # Not a shape this prefilter understands: ask pathspec for every entry.
                self._always_exact = True
                break
            body = _drop_group_names(regex[1:])
            segment = _single_segment(text, regex)
            if segment is None:
                path_rx.append(body)
                continue
            name, dir_only = segment
            if _LITERAL.fullmatch(name) and name not in (".", ".."):
                dir_names.add(name)
                if not dir_only:
                    file_names.add(name)
            elif name.startswith("*") and _LITERAL.fullmatch(name[1:]):
                dir_suffixes.append(name[1:])
                if not dir_only:
                    file_suffixes.append(name[1:])
            else:
                in_segment = _drop_group_names(regex[len(_ANY_FOLDER):])
                dir_name_rx.append(in_segment)
                if not dir_only:
                    file_name_rx.append(in_segment)
        else:
            self._always_exact = False
        self._file_names = frozenset(file_names)
        self._dir_names = frozenset(dir_names)
        self._file_suffixes = tuple(file_suffixes)
        self._dir_suffixes = tuple(dir_suffixes)
        self._file_name_rx = _alternation(file_name_rx)
        self._dir_name_rx = _alternation(dir_name_rx)
        self._path_rx = _alternation(path_rx)

    def matches_entry(self, rel: str, name: str, is_dir: bool) -> bool:
        """Whether the entry ``rel`` (last segment ``name``) is ignored, its folders not being."""
        if is_dir:
            rel += "/"
            if not self._always_exact and not (
                    name in self._dir_names
                    or name.endswith(self._dir_suffixes)
                    or (self._dir_name_rx is not None and self._dir_name_rx(name + "/"))
                    or (self._path_rx is not None and self._path_rx(rel))):
                return False
        elif not self._always_exact and not (
                name in self._file_names
                or name.endswith(self._file_suffixes)
                or (self._file_name_rx is not None and self._file_name_rx(name))
                or (self._path_rx is not None and self._path_rx(rel))):
            return False
        return bool(self.spec.match_file(rel))


# pathspec writes an unanchored pattern ("foo", "*.so", "build/") as this prefix + the segment.
_ANY_FOLDER = "^(?:.+/)?"
# Characters that stand for themselves in a gitignore pattern and in a file name.
_LITERAL = re.compile(r"[\w.\-+@=,~%$]+")


def _single_segment(text: object, regex: str) -> tuple[str, bool] | None:
    """(name pattern, directory-only) for a pattern matching one path segment at any depth, or
    None for anything else (anchored, several segments, unusual text)."""
    if not isinstance(text, str) or not regex.startswith(_ANY_FOLDER):
        return None
    body = text[:-1] if text.endswith("/") else text
    if not body or "/" in body or body.startswith("!"):
        return None
    return body, text.endswith("/")


def _drop_group_names(regex: str) -> str:
    # Alternatives may not repeat a group name; the groups only matter to pathspec's own pass.
    return re.sub(r"\(\?P<\w+>", "(?:", regex)


def _alternation(bodies: list[str]):
    """One compiled ``match`` over all bodies (each anchored at the start), or None."""
    if not bodies:
        return None
    return re.compile("|".join(f"(?:{body})" for body in bodies)).match


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
