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
import stat
from pathlib import Path
from typing import NamedTuple, Sequence

from .errors import InvalidRequest

__all__ = ["Workspace", "IgnoreRules", "is_test_file", "VENDORED_DIRS", "IGNORE_FILES"]

#: Folder names never indexed, wherever they appear and whatever the ignore files say. They hold
#: what users' tools generate: dependencies (``node_modules``, ``site-packages``, virtual
#: environments), version-control data, caches, build output, and JupyterLab's
#: ``.ipynb_checkpoints`` (a stale copy of every notebook and file opened in the editor, which
#: would otherwise rank before the real file in searches and double reference counts).
#: Indexing any of them would drown the project's own symbols in copies and vendored code.
VENDORED_DIRS: frozenset[str] = frozenset({
    "node_modules", "site-packages", ".venv", "venv",
    ".git", ".hg", ".svn",
    "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox",
    ".ipynb_checkpoints",
    "dist", "build", "target",
})

#: A folder holding this file is a Python virtual environment (``python -m venv``, virtualenv,
#: uv): it is never indexed, whatever its name.
VENV_MARKER = "pyvenv.cfg"

#: Ignore files read at the root, in this order; a later pattern (``!keep.py`` in
#: ``.devtoolsignore``) overrides an earlier one, as within one gitignore file.
IGNORE_FILES: tuple[str, ...] = (".gitignore", ".devtoolsignore")

#: The per-folder ignore file git reads, at the root, in every folder below it, and in the
#: folders between the enclosing repository's top level and the root.
GITIGNORE = ".gitignore"


class Workspace:
    """One project root and the rules for which of its files are indexed.

    ``root`` is resolved (symlinks followed) once, so that containment checks compare real
    paths. ``exclude`` takes extra gitignore-syntax patterns, applied after the ignore files.

    Ignoring follows git: a folder that is ignored is not entered, so a file under it cannot be
    re-included by a later ``!pattern`` (``build/`` then ``!build/keep.py`` keeps ``keep.py``
    ignored, as ``git status`` does). The patterns come from, weakest first:

    1. the global excludes file (``git config core.excludesFile``, by default
       ``$XDG_CONFIG_HOME/git/ignore`` or ``~/.config/git/ignore``) and the repository's
       ``.git/info/exclude``, when the root is inside a git repository;
    2. every ``.gitignore`` from the repository's top level (the nearest folder holding
       ``.git``, which may be above the root) down to the folder of the entry, each one's
       patterns relative to its own folder, a deeper file overriding a shallower one;
       ``.devtoolsignore`` at the root counts as part of the root's ``.gitignore``;
    3. ``.devtoolsignore`` and ``exclude`` again, so that they have the final word below the
       root too (``!keep.py`` there re-includes what a nested ``.gitignore`` ignores).

    Whatever those say, :data:`VENDORED_DIRS` folders and virtual environments (a folder
    holding :data:`VENV_MARKER`) are never indexed, and the root itself is never ignored
    (patterns that match the root or a folder above it are not applied).

    The root-level ignore files are read on first use; :meth:`refresh_ignores` re-reads them
    when they changed on disk (``index.discover`` calls it before every walk, so a query
    always sees the current rules without ``is_ignored`` paying for two ``stat`` calls per path).
    A ``.gitignore`` below the root is read when the walk lists its folder, again only if its
    size or mtime changed.
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
        # The chain of rule sets in force at the root, and the .devtoolsignore + exclude rules
        # re-applied on top of every chain that has a .gitignore below the root.
        self._root_chain: IgnoreChain | None = None
        self._override: _Source | None = None
        # Per folder below the root ("src/pkg/"): its chain, or _VENV. Filled by the walk and by
        # is_ignored, emptied by refresh_ignores (a nested .gitignore may have changed).
        self._folder_chains: dict[str, object] = {}
        # path -> ((mtime_ns, size), rules or None, warnings): every ignore file read so far.
        self._file_rules: dict[str, tuple] = {}
        self._nested_warnings: dict[str, list[str]] = {}
        self._global_excludes: str | None = None
        self._global_excludes_known = False

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
        """The root's compiled patterns (``.gitignore``, ``.devtoolsignore``, then ``exclude``),
        or None when there are none (the common fast case). Rules from folders above or below
        the root and from git's exclude files are in :meth:`root_ignore_chain` and
        :meth:`folder_ignore_chain`."""
        if self._ignore_signature is None:
            self.refresh_ignores()
        return self._ignore_rules

    @property
    def ignore_warnings(self) -> list[str]:
        """Ignore-file lines dropped as invalid patterns (git skips them too), for IndexStats."""
        if self._ignore_signature is None:
            self.refresh_ignores()
        nested = [w for _, warnings in sorted(self._nested_warnings.items()) for w in warnings]
        return list(self._ignore_warnings) + nested

    def root_ignore_chain(self) -> IgnoreChain | None:
        """The rules in force for the root's own entries, or None when nothing is ignored."""
        if self._ignore_signature is None:
            self.refresh_ignores()
        return self._root_chain

    def ignore_files_changed(self) -> bool:
        """Whether the ignore files of the root or above it changed since they were last read
        (nothing is re-read: ``refresh_ignores`` does that)."""
        return self._ignore_files_signature() != self._ignore_signature

    def _ignore_files_signature(self) -> tuple:
        """(the ignore files of the root's repository above the root, with their labels and
        prefixes; the (mtime, size) of those and of the root's own), to compare with the last."""
        top = _git_top_level(self._root_str)
        outer: list[tuple[str, str, str]] = []   # (path, label, prefix of the root from there)
        if top is not None:
            up = "" if top == self._root_str else \
                os.path.relpath(self._root_str, top).replace(os.sep, "/") + "/"
            if not self._global_excludes_known:
                self._global_excludes = _global_excludes_file(top)
                self._global_excludes_known = True
            if self._global_excludes:
                outer.append((self._global_excludes, "core.excludesFile", up))
            info = _info_exclude_file(top)
            if info is not None:
                outer.append((info, ".git/info/exclude", up))
            # The folders from the top level down to the root's parent, each with its prefix.
            folder, parts = top, up.split("/")[:-1]
            for depth in range(len(parts)):
                outer.append((os.path.join(folder, GITIGNORE),
                              "../" * (len(parts) - depth) + GITIGNORE,
                              "/".join(parts[depth:]) + "/"))
                folder = os.path.join(folder, parts[depth])
        root_files = [os.path.join(self._root_str, name) for name in IGNORE_FILES]
        signature = tuple(_signature(path) for path, _, _ in outer) + tuple(
            _signature(path) for path in root_files)
        return tuple(outer), signature

    def refresh_ignores(self) -> bool:
        """Re-read the ignore files of the root and above it if they changed; True when they did.

        Also forgets what was learnt about folders below the root, whose ``.gitignore`` files
        are checked again (by their size and mtime) the next time they are needed.
        """
        self._folder_chains = {}
        sig = self._ignore_files_signature()
        if sig == self._ignore_signature:
            return False
        outer, signature = sig
        root_files = [os.path.join(self._root_str, name) for name in IGNORE_FILES]
        warnings: list[str] = []
        texts = [_read_ignore_file(path, name, warnings)
                 for path, name in zip(root_files, IGNORE_FILES, strict=True)]
        lines = _pattern_lines(texts[0], IGNORE_FILES[0], warnings)
        override_lines = _pattern_lines(texts[1], IGNORE_FILES[1], warnings)
        lines.extend(override_lines)
        lines.extend(self.exclude)
        override_lines.extend(self.exclude)
        self._ignore_rules = _compile(lines)
        override = _compile(override_lines)
        self._override = _Source(0, "", override) if override is not None else None

        sources: list[_Source] = []
        for (path, label, prefix), file_sig in zip(outer, signature, strict=False):
            rules = self._rules_of_file(path, label, file_sig, warnings)
            if rules is not None:
                sources.append(_Source(0, prefix, rules))
        if self._ignore_rules is not None:
            sources.append(_Source(0, "", self._ignore_rules))
        self._root_chain = IgnoreChain(tuple(sources), None) if sources else None
        self._ignore_warnings = warnings
        self._nested_warnings = {}
        self._ignore_signature = sig
        return True

    def folder_ignore_chain(self, parent: IgnoreChain | None, prefix: str,
                            gitignore: os.stat_result | None) -> IgnoreChain | None:
        """The chain for the entries of the folder ``prefix`` (``"src/pkg/"``), given its
        parent's chain and the ``lstat`` of its ``.gitignore`` (None: there is none). The walk
        calls this for every folder it enters; it records the answer for :meth:`is_ignored`."""
        chain = parent
        if gitignore is not None:
            path = os.path.join(self._root_str, *prefix.split("/")[:-1], GITIGNORE)
            warnings: list[str] = []
            rules = self._rules_of_file(path, prefix + GITIGNORE,
                                        (gitignore.st_mtime_ns, gitignore.st_size), warnings)
            if warnings:
                self._nested_warnings[prefix] = warnings
            if rules is not None:
                own = _Source(len(prefix), "", rules)
                chain = IgnoreChain((parent.gitignores if parent is not None else ()) + (own,),
                                    self._override)
        self._folder_chains[prefix] = chain
        return chain

    def walked_folders(self) -> dict:
        """Where the walk records each folder it enters (``"src/pkg/"`` -> its chain) when the
        folder has no ignore file of its own; :meth:`is_ignored` reads it back. Emptied by
        :meth:`refresh_ignores`."""
        return self._folder_chains

    def mark_virtualenv(self, prefix: str) -> None:
        """Record that the folder ``prefix`` (``"env/"``) holds :data:`VENV_MARKER`."""
        self._folder_chains[prefix] = _VENV

    def _rules_of_file(self, path: str, label: str, sig, warnings: list[str]):
        """The compiled patterns of one ignore file (None: absent or no pattern), cached by
        its ``(mtime_ns, size)``."""
        if sig is None:
            return None
        cached = self._file_rules.get(path)
        if cached is not None and cached[0] == sig:
            warnings.extend(cached[2])
            return cached[1]
        own: list[str] = []
        text = _read_ignore_file(path, label, own)
        rules = _compile(_pattern_lines(text, label, own))
        self._file_rules[path] = (sig, rules, own)
        warnings.extend(own)
        return rules

    def _folder_state(self, prefix: str, parent: IgnoreChain | None):
        """The folder's chain, or _VENV, from the walk's record or else from the disk."""
        try:
            return self._folder_chains[prefix]
        except KeyError:
            pass
        folder = os.path.join(self._root_str, *prefix.split("/")[:-1])
        # lstat, as the walk does: a symlinked marker or .gitignore does not count.
        if _regular_file(os.path.join(folder, VENV_MARKER)) is not None:
            self._folder_chains[prefix] = _VENV
            return _VENV
        return self.folder_ignore_chain(parent, prefix,
                                        _regular_file(os.path.join(folder, GITIGNORE)))

    def is_ignored(self, rel: str, is_dir: bool = False) -> bool:
        """Whether a root-relative POSIX path is left out of the index.

        True inside any :data:`VENDORED_DIRS` folder or virtual environment, or when matched by
        the ignore files (see the class docstring) or the ``exclude`` patterns (gitignore
        syntax, including negation and directory-only ``dir/`` patterns). Pass ``is_dir=True``
        for a directory so that directory-only patterns apply to it.
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
        chain = self.root_ignore_chain()
        # Each folder on the way down, then the entry: the same order and checks as the walk in
        # index/discover.py, so both always agree.
        prefix = ""
        for part in folders:
            path = prefix + part
            if chain is not None and chain.matches(path, part, True):
                return True
            prefix = path + "/"
            state = self._folder_state(prefix, chain)
            if state is _VENV:
                return True
            chain = state
        if is_dir:
            return False
        return chain is not None and chain.matches(rel, parts[-1], False)


#: Marks a virtual environment in ``Workspace._folder_chains``.
_VENV = object()


class _Source(NamedTuple):
    """One ignore file's rules and where its patterns are rooted: a root-relative path ``rel``
    is matched as ``prepend + rel[strip:]`` (``strip`` drops the folder of a ``.gitignore``
    below the root, ``prepend`` adds the root's path as seen from a folder above it)."""

    strip: int
    prepend: str
    rules: "IgnoreRules"


class IgnoreChain:
    """The ignore rules in force in one folder: the sources from weakest to strongest.

    ``matches(rel, name, is_dir)`` answers for one walk entry whose folders were found not
    ignored. With the root's rules alone it is :meth:`IgnoreRules.matches_entry` itself (the
    fast path measured there). Otherwise a cheap test first asks whether any source could
    ignore the entry at all; only then are the sources asked, strongest first, and the first
    one with a pattern naming the entry decides (git's precedence between ignore files).
    """

    __slots__ = ("gitignores", "sources", "matches")

    def __init__(self, gitignores: tuple[_Source, ...], override: _Source | None):
        self.gitignores = gitignores
        nested = any(source.strip for source in gitignores)
        self.sources = gitignores + ((override,) if override is not None and nested else ())
        only = self.sources[0] if len(self.sources) == 1 else None
        if only is not None and not only.strip and not only.prepend:
            self.matches = only.rules.matches_entry
        else:
            self.matches = self._matches

    def _matches(self, rel: str, name: str, is_dir: bool) -> bool:
        for strip, prepend, rules in self.sources:
            if rules.could_ignore(prepend + rel[strip:], name, is_dir):
                break
        else:
            return False  # no ignoring pattern anywhere can match: negations cannot ignore
        for strip, prepend, rules in reversed(self.sources):
            decision = rules.decide(prepend + rel[strip:], is_dir)
            if decision is not None:
                return decision
        return False


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
        # imported here, as in _valid_pattern: a root without ignore patterns never needs
        # pathspec (~15 ms of a process's start)
        from pathspec import GitIgnoreSpec

        self.spec: GitIgnoreSpec = GitIgnoreSpec.from_lines(lines)
        self._dir_mark = _dir_mark()
        self._reversed = [pattern for pattern in reversed(self.spec.patterns)
                          if pattern.include is not None]
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

    def could_ignore(self, rel: str, name: str, is_dir: bool) -> bool:
        """The prefilter of :meth:`matches_entry` alone: False when no ignoring pattern can match
        the entry, True when one may."""
        if self._always_exact:
            return True
        if is_dir:
            return (name in self._dir_names
                    or name.endswith(self._dir_suffixes)
                    or (self._dir_name_rx is not None and self._dir_name_rx(name + "/") is not None)
                    or (self._path_rx is not None and self._path_rx(rel + "/") is not None))
        return (name in self._file_names
                or name.endswith(self._file_suffixes)
                or (self._file_name_rx is not None and self._file_name_rx(name) is not None)
                or (self._path_rx is not None and self._path_rx(rel) is not None))

    def decide(self, rel: str, is_dir: bool) -> bool | None:
        """What the last pattern naming the entry itself says: True (ignored), False (a ``!``
        pattern re-includes it) or None (no pattern names it).

        Matches that only name a folder above the entry (``build/`` for ``build/x.py``) do not
        count: the walk already decided that folder was not ignored, and git matches each path
        on its own. This is what lets several ignore files be asked in turn.
        """
        if is_dir:
            rel += "/"
        last = len(rel) - 1
        for pattern in self._reversed:
            result = pattern.match_file(rel)
            if result is None:
                continue
            match = getattr(result, "match", None)
            if match is not None:
                try:
                    mark = match.start(self._dir_mark)
                except (IndexError, re.error):
                    mark = -1
                if mark != -1 and mark != last:
                    continue  # it matched a folder above the entry
            return bool(pattern.include)
        return None


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


def _compile(lines: list[str]) -> IgnoreRules | None:
    # Only comments/blank lines -> no rules, so the hot path can skip matching altogether.
    if any(ln.strip() and not ln.lstrip().startswith("#") for ln in lines):
        return IgnoreRules(lines)
    return None


def _pattern_lines(text: str, label: str, warnings: list[str]) -> list[str]:
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if _valid_pattern(line):
            lines.append(line)
        else:
            warnings.append(f"{label}:{number}: invalid pattern {line!r} skipped")
    return lines


def _read_ignore_file(path: str, label: str, warnings: list[str]) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""
    except OSError:
        # Unreadable ignore file: behave as if absent rather than fail every query.
        warnings.append(f"{label}: unreadable, ignored")
        return ""


def _regular_file(path: str) -> os.stat_result | None:
    """The ``lstat`` of ``path`` when it is a regular file (not a link), else None."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st if stat.S_ISREG(st.st_mode) else None


def _signature(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _git_top_level(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` holding ``.git`` (a folder, or a file as in
    worktrees and submodules), or None outside any repository."""
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _git_dir(top: str) -> str | None:
    """The repository's git folder; for a worktree its common folder (where ``info/`` is)."""
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        git_dir = dot_git
    else:
        try:
            with open(dot_git, encoding="utf-8", errors="replace") as fh:
                first = fh.readline().strip()
        except OSError:
            return None
        if not first.startswith("gitdir:"):
            return None
        git_dir = os.path.join(top, first[len("gitdir:"):].strip())
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as fh:
            return os.path.normpath(os.path.join(git_dir, fh.read().strip()))
    except OSError:
        return git_dir


def _info_exclude_file(top: str) -> str | None:
    git_dir = _git_dir(top)
    return os.path.join(git_dir, "info", "exclude") if git_dir is not None else None


def _global_excludes_file(top: str) -> str | None:
    """Where git reads its global excludes: ``core.excludesFile``, else
    ``$XDG_CONFIG_HOME/git/ignore`` (``~/.config/git/ignore``).

    Asks ``git config`` when git is installed (it knows about includes and every config
    file); otherwise, or when it fails, reads the usual config files directly.
    """
    import subprocess   # here: most processes never start one (~5 ms of a CLI call's start)

    value: str | None = None
    try:
        done = subprocess.run(["git", "config", "--path", "--get", "core.excludesFile"],
                              cwd=top, capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is not None and done.returncode == 0:
        value = done.stdout.strip() or None
    elif done is None or done.returncode != 1:  # 1 is "not set"; anything else: not answered
        value = _excludes_file_from_config(top)
    if value:
        value = os.path.expanduser(value)
        return value if os.path.isabs(value) else os.path.join(top, value)
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(
        os.path.expanduser("~"), ".config")
    return os.path.join(config_home, "git", "ignore")


def _excludes_file_from_config(top: str) -> str | None:
    """``core.excludesFile`` from the global and repository config files, read without git
    (the last one setting it wins, as in git; includes are not followed)."""
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(
        os.path.expanduser("~"), ".config")
    files = [os.path.join(config_home, "git", "config"), os.path.expanduser("~/.gitconfig")]
    git_dir = _git_dir(top)
    if git_dir is not None:
        files.append(os.path.join(git_dir, "config"))
    value = None
    for path in files:
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        section = ""
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("["):
                section = line[1:line.find("]")].strip().lower() if "]" in line else ""
                continue
            if section != "core" or "=" not in line:
                continue
            key, _, found = line.partition("=")
            if key.strip().lower() == "excludesfile":
                found = found.strip()
                if len(found) >= 2 and found[0] == found[-1] == '"':
                    found = found[1:-1]
                value = found or None
    return value


def _dir_mark() -> str:
    """The regex group pathspec uses for "matched a folder above the path" (a private name)."""
    try:
        from pathspec.patterns.gitignore.spec import _DIR_MARK
    except ImportError:  # pragma: no cover - older/newer pathspec: its current value
        return "ps_d"
    return _DIR_MARK


def _valid_pattern(line: str) -> bool:
    """Whether pathspec accepts ``line`` as a gitignore pattern (``!`` or a trailing ``\\``
    alone are not); git skips such lines, so we drop them instead of failing."""
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    try:
        GitIgnoreSpecPattern(line)
    except ValueError:
        return False
    return True


def is_test_file(rel: str) -> bool:
    """Whether a root-relative POSIX path is a test file, per the contract's rule.

    ``*.test.*``, ``*.spec.*``, ``test_*.py``, ``*_test.py``, ``*_test.go``, or any folder
    named ``__tests__``, ``tests`` or ``test`` on the way (``test/`` is the TypeScript and
    JavaScript convention: the panel's *hide tests* missed it, issue 13).
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
    return any(part in ("__tests__", "tests", "test") for part in parts[:-1])
