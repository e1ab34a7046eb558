"""Walk the project root and list the source files to index; read one file's source.

:func:`discover` is the first stage of the data flow (root -> discover -> parsing -> ...). It
runs before every query (the contract's freshness rule), so it has to be cheap: one
``os.scandir`` per folder, ignored folders pruned before descending, one ``stat`` per
candidate file and none for the rest (plus one per ``.gitignore`` met). A folder's own
``.gitignore`` and a virtual environment's ``pyvenv.cfg`` are noticed in the same listing, so
honouring them costs no extra ``scandir``. The file's content is not touched here; binary and
encoding checks happen in :func:`read_source`, which the indexer calls only for files whose
``(size, mtime_ns)`` changed.

Symlinks are never followed. A link whose target is inside the root is not listed (the walk
reaches the target under its real path, and ``Workspace.relative`` maps the link's path to
that same real path); a link leading outside the root is reported as skipped.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from operator import attrgetter
from typing import Callable

from ..dataclass_code import dataclass
from ..workspace import GITIGNORE, IGNORE_FILES, VENDORED_DIRS, VENV_MARKER, IgnoreChain, Workspace

__all__ = ["SourceFile", "SkippedFile", "BinaryFile", "discover", "restat", "read_source", "decode_source",
           "BINARY_SNIFF_BYTES", "INVALID_UTF8_WARNING"]

#: How much of a file is searched for a NUL byte. Git's own heuristic (``buffer_is_binary``)
#: looks at the first 8000 bytes; text source files never contain NUL.
BINARY_SNIFF_BYTES = 8192

#: The warning :func:`read_source` returns for a file that is not valid UTF-8.
INVALID_UTF8_WARNING = "invalid UTF-8 decoded with replacement characters"

# Listing a folder through a descriptor makes each entry's stat() an fstatat() relative to it,
# instead of the kernel walking the full path again: -9% on the CPython stdlib walk (350 ->
# 318 ms, 50,000 files, reference VM). POSIX only; elsewhere scandir takes the path.
# O_NOFOLLOW: a folder swapped for a symlink after readdir is not entered.
_SCANDIR_TAKES_FD = os.scandir in os.supports_fd and hasattr(os, "O_DIRECTORY")
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)

# Open without following a final symlink: discover never lists a link, so a link appearing in
# its place later (a race, or a caller passing a link's path) must not read a file elsewhere.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)

# How often one walk lists a folder again because a file it listed was gone when stat'ed (the
# gap is the time to stat the folder's other entries). tests/reliability/test_concurrent_edits
# with 200 edits a thread: 25 of 1,680 walks listed a folder again (one of them twice). Beyond
# this, something keeps renaming there: the file is left out, and found by the next query's walk.
_RELISTS = 4

# Entry names that change how a folder's other entries are treated (looked for first).
_MARKERS = frozenset({GITIGNORE, VENV_MARKER})
#: Names whose change only a walk can take in: the ignore files and a virtual environment's marker.
WALK_ONLY_NAMES = frozenset(IGNORE_FILES) | _MARKERS


@dataclass(frozen=True)
class SourceFile:
    """A file to index: root-relative POSIX ``path``, its ``language`` name, and the
    ``size``/``mtime_ns`` pair the indexer compares to decide whether to re-read it."""

    path: str
    language: str
    size: int
    mtime_ns: int


@dataclass(frozen=True)
class SkippedFile:
    """A file (or linked folder) that would have been indexed but was not, and why.

    ``reason`` is ``"too_large"`` (over ``Workspace.max_file_size``), ``"unreadable"``
    (permission error, dangling link), ``"outside_root"`` (a symlink whose target is outside the
    root), or ``"binary"``, which :func:`discover` never gives (it does not read contents): the
    indexer records it when :func:`read_source` raises :class:`BinaryFile`.
    """

    path: str
    reason: str


_new_object = object.__new__


def _source_file(path: str, language: str, size: int, mtime_ns: int) -> SourceFile:
    """``SourceFile(path, language, size, mtime_ns)``, built twice as fast.

    A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` once per field; filling
    the instance ``__dict__`` directly gives an equal object (freezing only guards
    ``__setattr__``). Measured on 7,000 files: 70 ms -> 63 ms per ``discover`` on the 2-core
    reference VM, where object creation was the largest cost after ``stat``. A test checks the
    result equals the regular constructor's.
    """
    obj = _new_object(SourceFile)
    fields = obj.__dict__
    fields["path"] = path
    fields["language"] = language
    fields["size"] = size
    fields["mtime_ns"] = mtime_ns
    return obj


class BinaryFile(Exception):
    """Raised by :func:`read_source` for a file with a NUL byte in its first 8 KiB; the indexer
    records it as ``SkippedFile(path, "binary")``."""

    def __init__(self, path: str):
        super().__init__(f"{path}: binary file (NUL byte in the first {BINARY_SNIFF_BYTES} bytes)")
        self.path = path


def discover(workspace: Workspace,
             language_for_path: Callable[[str], str | None],
             ) -> tuple[list[SourceFile], list[SkippedFile]]:
    """List the root's indexable files, sorted by path, and the ones skipped.

    ``language_for_path`` maps a root-relative POSIX path to a language name, or None for a
    file no language claims: such files are neither listed nor reported as skipped. Ignored
    paths (``Workspace.is_ignored``) are left out silently too: :data:`VENDORED_DIRS` folders
    (``.ipynb_checkpoints``, ``__pycache__``, ``node_modules`` ...) and virtual environments
    (a folder holding ``pyvenv.cfg``) whatever the ignore files say, and what the ignore files
    match. The root's ignore files, and those above it, are re-read first if they changed; a
    folder's own ``.gitignore`` is picked up when the folder is listed. A folder is listed again
    when a file it listed is gone by its ``stat`` (renamed in between, it is in no listing yet).
    """
    workspace.refresh_ignores()
    vendored = VENDORED_DIRS
    folder_chain = workspace.folder_ignore_chain
    known = workspace.walked_folders()
    markers = _MARKERS
    entry_name = attrgetter("name")
    max_size = workspace.max_file_size
    root = str(workspace.root)
    root_prefix = root.rstrip(os.sep) + os.sep

    files: list[SourceFile] = []
    skipped: list[SkippedFile] = []
    # (folder, its root-relative prefix, the ignore rules of its parent folder)
    stack: list[tuple[str, str, IgnoreChain | None]] = [
        (root, "", workspace.root_ignore_chain())]
    join = os.path.join
    relisted: dict[str, int] = {}   # folder -> times listed again (see _RELISTS)
    while stack:
        dir_path, prefix, chain = stack.pop()
        # what this folder's pass adds from here on: dropped if the folder is listed again
        marks = (len(files), len(skipped), len(stack), chain)
        fd = None
        try:
            if _SCANDIR_TAKES_FD:
                fd = os.open(dir_path, _DIR_FLAGS)
                entries = os.scandir(fd)
            else:
                entries = os.scandir(dir_path)
        except OSError:
            if fd is not None:
                os.close(fd)
            if not prefix:
                raise  # the root itself is unreadable: nothing sensible to answer
            skipped.append(SkippedFile(prefix[:-1], "unreadable"))
            continue
        # The descriptor stays open while the entries are used: their stat() goes through it.
        try:
            with entries:
                listing = list(entries)
            if prefix:
                # The folder's own .gitignore applies to everything in it, and a virtual
                # environment is left out whole: both are known only once the folder is listed.
                # The test for either runs in C; most folders have neither.
                if markers.isdisjoint(map(entry_name, listing)):
                    known[prefix] = chain
                else:
                    gitignore = None
                    virtualenv = False
                    for entry in listing:
                        name = entry.name
                        if name in markers:
                            try:
                                if not entry.is_file(follow_symlinks=False):
                                    continue  # git does not follow a symlinked .gitignore
                                if name == VENV_MARKER:
                                    virtualenv = True
                                else:
                                    gitignore = entry.stat(follow_symlinks=False)
                            except OSError:
                                continue
                    if virtualenv:
                        workspace.mark_virtualenv(prefix)
                        continue
                    chain = folder_chain(chain, prefix, gitignore)
            # Bound method in a local: this loop runs once per directory entry.
            ignored = chain.matches if chain is not None else None
            for entry in listing:
                name = entry.name
                rel = prefix + name
                try:
                    # d_type from readdir answers these without a syscall on most systems.
                    # Regular files first: they are the bulk of the entries.
                    if not entry.is_file(follow_symlinks=False):
                        if entry.is_dir(follow_symlinks=False):
                            if name not in vendored and (
                                    ignored is None or not ignored(rel, name, True)):
                                stack.append((join(dir_path, name), rel + "/", chain))
                        elif entry.is_symlink():
                            link = _skipped_symlink(join(dir_path, name), rel, name, root,
                                                    root_prefix, ignored, language_for_path)
                            if link is not None:
                                skipped.append(link)
                        # Anything else (socket, FIFO, device) is never source.
                        continue
                except OSError:
                    skipped.append(SkippedFile(rel, "unreadable"))
                    continue

                language = language_for_path(rel)
                if language is None:
                    continue
                if ignored is not None and ignored(rel, name, False):
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    # Gone since the folder was listed. If it was renamed (an editor's save as,
                    # a `git mv`), its new name is not in that listing either: the file would be
                    # missing under both names. A new listing has it (a rename is atomic).
                    times = relisted.get(dir_path, 0)
                    if times < _RELISTS:
                        relisted[dir_path] = times + 1
                        del files[marks[0]:], skipped[marks[1]:], stack[marks[2]:]
                        stack.append((dir_path, prefix, marks[3]))
                        break
                    continue  # still changing: its inotify events make the next query walk again
                except OSError:
                    skipped.append(SkippedFile(rel, "unreadable"))
                    continue
                if st.st_size > max_size:
                    skipped.append(SkippedFile(rel, "too_large"))
                    continue
                files.append(_source_file(rel, language, st.st_size, st.st_mtime_ns))
        finally:
            if fd is not None:
                os.close(fd)

    by_path = attrgetter("path")
    files.sort(key=by_path)
    skipped.sort(key=by_path)
    return files, skipped


def restat(workspace: Workspace, paths, language_for_path: Callable[[str], str | None],
           ) -> tuple[list[SourceFile], list[SkippedFile]] | None:
    """What a walk would list of these root-relative files alone (inotify named them: a save
    needs no walk of the tree): the sources among them and the skipped ones; any other (gone,
    ignored, of no language) is in neither. None when only a walk can tell: an ignore file or a
    virtual environment's marker among them, or a symlink. Their folders are ones the walk
    entered (the watched ones), so ``Workspace.is_ignored`` answers as the walk does."""
    root = str(workspace.root)
    files: list[SourceFile] = []
    skipped: list[SkippedFile] = []
    for rel in sorted(paths):
        name = rel.rsplit("/", 1)[-1]
        if name in WALK_ONLY_NAMES:
            return None
        language = language_for_path(rel)
        if language is None or workspace.is_ignored(rel):
            continue
        try:
            st = os.lstat(os.path.join(root, rel))
        except FileNotFoundError:
            continue
        except OSError:
            skipped.append(SkippedFile(rel, "unreadable"))
            continue
        if stat.S_ISLNK(st.st_mode):
            return None
        if not stat.S_ISREG(st.st_mode):
            continue
        if st.st_size > workspace.max_file_size:
            skipped.append(SkippedFile(rel, "too_large"))
            continue
        files.append(_source_file(rel, language, st.st_size, st.st_mtime_ns))
    return files, skipped


def _skipped_symlink(path: str, rel: str, name: str, root: str, root_prefix: str, ignored,
                     language_for_path: Callable[[str], str | None]) -> SkippedFile | None:
    """What to report for a symlink found in the walk (links are rare; this is off the hot path).

    None when the link is ignored, leads to an existing entry inside the root (the walk reaches
    it under its real path), or is a file link no language claims.
    """
    target = os.path.realpath(path)
    is_dir = os.path.isdir(target)
    if is_dir:
        if name in VENDORED_DIRS or (ignored is not None and ignored(rel, name, True)):
            return None
    else:
        if language_for_path(rel) is None or (ignored is not None and ignored(rel, name, False)):
            return None
    if not os.path.exists(target):
        # A dangling link: where it would lead does not matter, it cannot be read.
        return SkippedFile(rel, "unreadable")
    if target == root or target.startswith(root_prefix):
        return None
    return SkippedFile(rel, "outside_root")


def read_source(workspace: Workspace, rel: str) -> tuple[bytes, list[str]]:
    """The file's content as valid UTF-8 bytes, and warnings about it.

    Raises :class:`BinaryFile` when a NUL byte occurs in the first 8 KiB, and ``OSError`` when
    the file cannot be read (including when ``rel`` is a symlink, which is never followed).

    Invalid UTF-8 is decoded with replacement characters and re-encoded, with the warning
    :data:`INVALID_UTF8_WARNING`; positions are then computed on the returned bytes, so they
    stay consistent with each other.

    A file that starts with a UTF-16 or UTF-32 byte order mark is decoded from that encoding
    (and re-encoded as UTF-8): columns count code points either way. Lone CR line breaks (old
    Mac files) become LF, so lines are counted as editors count them (``\\r\\n``, ``\\n``,
    ``\\r``); byte offsets do not move.

    A leading UTF-8 byte order mark is stripped. This keeps positions consistent with what an
    editor shows: the BOM is invisible there, so keeping it would shift every column of line 1
    by one code point (and every byte offset by 3). Line numbers are unaffected.
    """
    path = workspace.absolute(rel)
    fd = os.open(path, _OPEN_FLAGS)
    with open(fd, "rb") as fh:
        data = fh.read()
    return decode_source(data, rel)


def decode_source(data: bytes, rel: str) -> tuple[bytes, list[str]]:
    """``read_source``'s decoding of bytes already read (a library file, found outside the root)."""
    warnings: list[str] = []
    encoding = _wide_encoding(data)
    if encoding is not None:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            text = data.decode(encoding, errors="replace")
            warnings.append(f"invalid {encoding.upper()} decoded with replacement characters")
        data = text.encode("utf-8", errors="replace")
    if b"\x00" in data[:BINARY_SNIFF_BYTES]:
        raise BinaryFile(rel)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        data = data.decode("utf-8", errors="replace").encode("utf-8")
        warnings.append(INVALID_UTF8_WARNING)
    if b"\r" in data:
        # A lone CR ends a line, as in every editor; tree-sitter counts only LF. CR -> LF keeps
        # every byte offset (and CRLF stays as it is, already one line break to both).
        data = _LONE_CR.sub(b"\n", data)
    return data, warnings


_LONE_CR = re.compile(rb"\r(?!\n)")

# Byte order marks of the UTF-16/32 encodings: UTF-32's first, since UTF-32-LE's starts with
# UTF-16-LE's. The BOM itself is dropped by the codec ("utf-16" and "utf-32" read it).
_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
              (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _wide_encoding(data: bytes) -> str | None:
    """``utf-16`` or ``utf-32`` for a file that starts with that encoding's byte order mark
    (what Windows tools write); its NUL bytes are not binary."""
    if data[:1] not in (b"\xff", b"\xfe", b"\x00"):
        return None
    for bom, encoding in _WIDE_BOMS:
        if data.startswith(bom):
            return encoding
    return None
