"""index/discover.py: the walk of the root and reading one file's source."""

from __future__ import annotations

import codecs
import os
import posixpath
from pathlib import Path

import pytest

from jupyter_codetrace.errors import InvalidRequest
from jupyter_codetrace.index import discover as discover_module
from jupyter_codetrace.index.discover import (INVALID_UTF8_WARNING, BinaryFile, SkippedFile,
                                              SourceFile, discover, read_source)
from jupyter_codetrace.workspace import Workspace

LANGUAGES = {".py": "python", ".ts": "typescript", ".ipynb": "notebook"}


def language_for_path(rel: str) -> str | None:
    return LANGUAGES.get(posixpath.splitext(rel)[1])


def write(path: Path, content: str | bytes = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def paths(files) -> list[str]:
    return [f.path for f in files]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write(root / "main.py")
    write(root / "src" / "app.ts", "export const a = 1;\n")
    write(root / "src" / "pkg" / "models.py")
    write(root / "README.md", "# not source\n")
    write(root / "nb.ipynb", '{"cells": []}')
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "elsewhere"
    write(secret / "leak.py", "TOKEN = 1\n")
    return secret


def test_lists_source_files_sorted_with_language_size_and_mtime(repo: Path):
    files, skipped = discover(Workspace(repo), language_for_path)
    assert paths(files) == ["main.py", "nb.ipynb", "src/app.ts", "src/pkg/models.py"]
    assert skipped == []
    models = files[-1]
    st = os.stat(repo / "src" / "pkg" / "models.py")
    assert models == SourceFile("src/pkg/models.py", "python", st.st_size, st.st_mtime_ns)
    assert files[1].language == "notebook"


def test_fast_construction_gives_a_regular_frozen_source_file(repo: Path):
    files, _ = discover(Workspace(repo), language_for_path)
    made = files[0]
    regular = SourceFile(made.path, made.language, made.size, made.mtime_ns)
    assert made == regular and hash(made) == hash(regular) and repr(made) == repr(regular)
    with pytest.raises(AttributeError):
        made.path = "other.py"  # still frozen


def test_files_without_a_language_are_neither_listed_nor_skipped(repo: Path):
    write(repo / "data.bin", b"\x00\x01" * 10)
    files, skipped = discover(Workspace(repo), language_for_path)
    assert "README.md" not in paths(files) and "data.bin" not in paths(files)
    assert skipped == []


def test_ignored_and_vendored_folders_are_pruned(repo: Path):
    write(repo / ".gitignore", "generated/\n*.tmp.py\n!keep.tmp.py\nsrc/pkg/models.py\n")
    write(repo / ".devtoolsignore", "scratch/\n")
    for folder in ("node_modules/lib", "src/__pycache__", ".venv/lib", "build", "dist",
                   ".git/hooks", "target", "venv", ".tox/py", "generated", "scratch"):
        write(repo / folder / "x.py")
    write(repo / "a.tmp.py")
    write(repo / "keep.tmp.py")
    files, skipped = discover(Workspace(repo, exclude=["*.ts"]), language_for_path)
    assert paths(files) == ["keep.tmp.py", "main.py", "nb.ipynb"]
    assert skipped == []


@pytest.fixture
def folder_opening(monkeypatch):
    """Spy on (and optionally fail) the walk's folder listing, whichever call it goes through:
    ``os.open`` + ``os.scandir(fd)`` on POSIX, ``os.scandir(path)`` elsewhere."""
    opened: list[str] = []
    refuse: set[str] = set()
    real_open, real_scandir = os.open, os.scandir

    def check(path) -> None:
        opened.append(path)
        if os.path.basename(path) in refuse:
            raise PermissionError(13, "Permission denied", path)

    def spy_open(path, flags, *args, **kwargs):
        if isinstance(path, str) and flags & getattr(os, "O_DIRECTORY", 0):
            check(path)
        return real_open(path, flags, *args, **kwargs)

    def spy_scandir(path="."):
        if isinstance(path, str):
            check(path)
        return real_scandir(path)

    monkeypatch.setattr(discover_module.os, "open", spy_open)
    monkeypatch.setattr(discover_module.os, "scandir", spy_scandir)
    return opened, refuse


def test_ignored_folders_are_not_even_entered(repo: Path, folder_opening):
    write(repo / "node_modules" / "x" / "y.py")
    write(repo / "generated" / "z.py")
    write(repo / ".gitignore", "generated/\n")
    opened, _ = folder_opening
    discover(Workspace(repo), language_for_path)
    entered = sorted(os.path.relpath(path, repo.resolve()) for path in opened)
    assert entered == [".", "src", os.path.join("src", "pkg")]


def test_ignore_file_edits_are_seen_by_the_next_walk(repo: Path):
    ws = Workspace(repo)
    assert "main.py" in paths(discover(ws, language_for_path)[0])
    write(repo / ".devtoolsignore", "main.py\n")
    assert "main.py" not in paths(discover(ws, language_for_path)[0])


def test_files_over_the_size_limit_are_skipped_as_too_large(repo: Path):
    write(repo / "huge.py", b"x = 1\n" * (10 * 1024 * 1024 // 6))  # ~10 MB, over the 2 MB default
    files, skipped = discover(Workspace(repo), language_for_path)
    assert "huge.py" not in paths(files)
    assert skipped == [SkippedFile("huge.py", "too_large")]
    files, skipped = discover(Workspace(repo, max_file_size=20_000_000), language_for_path)
    assert "huge.py" in paths(files) and skipped == []


def test_symlinks_leading_out_of_the_root_are_skipped_not_followed(repo: Path, outside: Path):
    (repo / "src" / "leak.py").symlink_to(outside / "leak.py")
    (repo / "vendor").symlink_to(outside, target_is_directory=True)
    (repo / "notes.txt").symlink_to(outside / "leak.py")  # no language: silent
    files, skipped = discover(Workspace(repo), language_for_path)
    assert all("leak" not in f.path and not f.path.startswith("vendor") for f in files)
    assert skipped == [SkippedFile("src/leak.py", "outside_root"),
                       SkippedFile("vendor", "outside_root")]


def test_symlinks_inside_the_root_are_listed_once_under_the_real_path(repo: Path):
    (repo / "alias.py").symlink_to(repo / "main.py")
    (repo / "src_alias").symlink_to(repo / "src", target_is_directory=True)
    (repo / "src" / "loop").symlink_to(repo, target_is_directory=True)  # a cycle, never followed
    files, skipped = discover(Workspace(repo), language_for_path)
    assert paths(files) == ["main.py", "nb.ipynb", "src/app.ts", "src/pkg/models.py"]
    assert skipped == []


def test_dangling_symlinks_are_unreadable(repo: Path):
    (repo / "gone.py").symlink_to(repo / "never-existed.py")
    files, skipped = discover(Workspace(repo), language_for_path)
    assert skipped == [SkippedFile("gone.py", "unreadable")]


def test_ignored_symlinks_are_not_reported(repo: Path, outside: Path):
    write(repo / ".gitignore", "vendor/\nleak.py\n")
    (repo / "vendor").symlink_to(outside, target_is_directory=True)
    (repo / "leak.py").symlink_to(outside / "leak.py")
    assert discover(Workspace(repo), language_for_path)[1] == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root reads every folder regardless of permissions")
def test_unreadable_folders_are_skipped(repo: Path):
    locked = repo / "locked"
    write(locked / "x.py")
    locked.chmod(0)
    try:
        files, skipped = discover(Workspace(repo), language_for_path)
    finally:
        locked.chmod(0o755)
    assert skipped == [SkippedFile("locked", "unreadable")]


def test_a_folder_that_cannot_be_listed_is_skipped(repo: Path, folder_opening):
    # Runs as any user (root reads everything): the permission error is simulated.
    write(repo / "locked" / "x.py")
    _, refuse = folder_opening
    refuse.add("locked")
    files, skipped = discover(Workspace(repo), language_for_path)
    assert skipped == [SkippedFile("locked", "unreadable")]
    assert "main.py" in paths(files)


def test_an_unreadable_root_raises(repo: Path, folder_opening):
    _, refuse = folder_opening
    refuse.add("repo")
    with pytest.raises(PermissionError):
        discover(Workspace(repo), language_for_path)


# -- a folder changed while it is walked -----------------------------------------------------

class _Listed(list):
    """A folder's entries, already read, in the form ``discover`` uses ``os.scandir``'s."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.fixture
def rename_after_listing(monkeypatch):
    """``renames.append((old, new))``: right after the next listing that names ``old`` (the
    folder as it was then), ``old`` is renamed to ``new``, as an editor's "save as" or a `git mv`
    running beside the walk would. Listings put folders first: they are queued before any file
    is stat'ed."""
    renames: list[tuple[Path, Path]] = []
    real_scandir = os.scandir

    def scandir_then_rename(path="."):
        with real_scandir(path) as entries:
            listed = _Listed(sorted(entries, key=lambda entry: not entry.is_dir()))
        if renames and renames[0][0].name in {entry.name for entry in listed}:
            os.rename(*renames.pop(0))
        return listed

    monkeypatch.setattr(discover_module.os, "scandir", scandir_then_rename)
    return renames


def test_a_file_renamed_after_its_folder_was_listed_is_found_under_its_new_name(repo: Path,
                                                                                rename_after_listing):
    # The listing has only the old name, gone when stat'ed: the file was missing under both
    # names (a stale "not found" while an editor saved; tests/reliability/test_concurrent_edits).
    rename_after_listing.append((repo / "main.py", repo / "entry.py"))
    files, skipped = discover(Workspace(repo), language_for_path)
    assert not rename_after_listing
    assert paths(files) == ["entry.py", "nb.ipynb", "src/app.ts", "src/pkg/models.py"]   # each once
    assert skipped == []


def test_a_file_renamed_at_every_listing_is_left_out_and_the_walk_ends(repo: Path, rename_after_listing):
    names = ["main.py"] + [f"main{i}.py" for i in range(1, 20)]
    rename_after_listing.extend((repo / old, repo / new) for old, new in zip(names, names[1:]))
    files, skipped = discover(Workspace(repo), language_for_path)
    assert rename_after_listing   # not listed forever: the next walk finds the file
    assert paths(files) == ["nb.ipynb", "src/app.ts", "src/pkg/models.py"]
    assert skipped == []


# -- read_source -----------------------------------------------------------------------------

def test_read_source_returns_utf8_bytes(repo: Path):
    write(repo / "u.py", "name = 'héllo ✓'\n")
    data, warnings = read_source(Workspace(repo), "u.py")
    assert data == "name = 'héllo ✓'\n".encode("utf-8")
    assert warnings == []


def test_a_nul_byte_in_the_first_8_kib_means_binary(repo: Path):
    write(repo / "blob.py", b"x = 1\n\x00\x01\x02" + b"y" * 100)
    with pytest.raises(BinaryFile) as info:
        read_source(Workspace(repo), "blob.py")
    assert info.value.path == "blob.py"


def test_a_nul_byte_after_8_kib_is_not_sniffed(repo: Path):
    write(repo / "late.py", b"#" * 9000 + b"\x00\n")
    data, _ = read_source(Workspace(repo), "late.py")
    assert data.endswith(b"\x00\n")


def test_invalid_utf8_is_replaced_with_a_warning(repo: Path):
    write(repo / "latin1.py", "name = 'caf\xe9'\n".encode("latin-1"))
    data, warnings = read_source(Workspace(repo), "latin1.py")
    assert data == "name = 'caf\ufffd'\n".encode("utf-8")
    data.decode("utf-8")  # valid now
    assert warnings == [INVALID_UTF8_WARNING]
    assert INVALID_UTF8_WARNING == "invalid UTF-8 decoded with replacement characters"


def test_a_utf8_bom_is_stripped(repo: Path):
    write(repo / "bom.py", codecs.BOM_UTF8 + b"def f():\n    pass\n")
    data, warnings = read_source(Workspace(repo), "bom.py")
    assert data == b"def f():\n    pass\n"
    assert warnings == []


def test_read_source_never_follows_a_symlink(repo: Path, outside: Path):
    (repo / "leak.py").symlink_to(outside / "leak.py")
    with pytest.raises(OSError):
        read_source(Workspace(repo), "leak.py")


def test_read_source_refuses_paths_out_of_the_root(repo: Path):
    with pytest.raises(InvalidRequest) as info:
        read_source(Workspace(repo), "../elsewhere/leak.py")
    assert info.value.outside_root


def test_public_names():
    assert set(discover_module.__all__) == {"SourceFile", "SkippedFile", "BinaryFile", "discover", "restat",
                                            "read_source", "decode_source", "BINARY_SNIFF_BYTES",
                                            "INVALID_UTF8_WARNING"}
