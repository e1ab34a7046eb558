"""What is never indexed (issue 13): tools' output, and every ignore file git itself reads.

JupyterLab writes ``.ipynb_checkpoints/<name>-checkpoint.py`` as soon as a file is opened or
saved; those copies must not be indexed, before or after the first index. Ignore files are
read as git reads them: every ``.gitignore`` from the repository's top level (possibly above
the served root) down to each folder, ``.git/info/exclude`` and the global excludes file.

Real files in ``tmp_path`` and a real :class:`Project`; no mocks.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import subprocess
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index.discover import discover
from jupyter_codetrace.workspace import VENDORED_DIRS, Workspace

MODULE = "def handle_request(data):\n    return data\n"
STALE = "def handle_request(data, old=True):\n    return None\n"


def language_for_path(rel: str) -> str | None:
    return {".py": "python", ".ipynb": "notebook"}.get(posixpath.splitext(rel)[1])


def write(path: Path, text: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def listed(root: Path) -> list[str]:
    files, _ = discover(Workspace(root), language_for_path)
    return [f.path for f in files]


def symbol_files(project: Project, name: str) -> list[str]:
    result = project.symbols(name).to_dict()
    return sorted(s["file"] for s in result.get("symbols", []) if s["name"] == name)


@pytest.fixture(autouse=True)
def own_git_config(tmp_path: Path, monkeypatch):
    """The user's global git configuration and excludes must not leak into these tests."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_GLOBAL", "GIT_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    return home


def git_repo(top: Path) -> Path:
    """A repository top level as ``git init`` leaves it (made by hand: git is optional)."""
    (top / ".git" / "info").mkdir(parents=True, exist_ok=True)
    (top / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (top / ".git" / "config").write_text("[core]\n\trepositoryformatversion = 0\n")
    return top


# -- JupyterLab checkpoints ------------------------------------------------------------------

def test_a_checkpoint_copy_is_never_indexed(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "service.py", MODULE)
    write(root / ".ipynb_checkpoints" / "service-checkpoint.py", STALE)
    write(root / "pkg" / ".ipynb_checkpoints" / "nb-checkpoint.ipynb", '{"cells": []}')
    # A .gitignore saying nothing about checkpoints changes nothing.
    write(root / ".gitignore", "*.log\n!.ipynb_checkpoints/\n")

    with Project(root) as project:
        assert symbol_files(project, "handle_request") == ["service.py"]
        copy = project.find_definition("handle_request",
                                       ".ipynb_checkpoints/service-checkpoint.py", 1)
        assert copy.status == "file_not_indexed"
        assert project.index().files == 1
    assert listed(root) == ["service.py"]


def test_a_checkpoint_written_after_the_first_index_stays_out(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "service.py", MODULE)
    write(root / "pkg" / "models.py", "class Model:\n    pass\n")
    with Project(root) as project:
        assert symbol_files(project, "handle_request") == ["service.py"]
        # What JupyterLab does on opening the file, then on opening another one.
        write(root / ".ipynb_checkpoints" / "service-checkpoint.py", STALE)
        assert symbol_files(project, "handle_request") == ["service.py"]
        write(root / "pkg" / ".ipynb_checkpoints" / "models-checkpoint.py",
              "class Model:\n    pass\n\ndef handle_request():\n    pass\n")
        assert symbol_files(project, "handle_request") == ["service.py"]
        assert symbol_files(project, "Model") == ["pkg/models.py"]
        found = project.find_definition("handle_request", "service.py", 1, 5).to_dict()
        assert (found["status"], found["file"]) == ("found", "service.py")
        assert found["candidates"] == []
        # A real edit is still seen: the walk itself is not switched off.
        write(root / "late.py", "def handle_request():\n    pass\n")
        assert symbol_files(project, "handle_request") == ["late.py", "service.py"]


@pytest.mark.parametrize("folder", [".hg", ".svn", ".nox", ".ruff_cache", "site-packages",
                                    ".ipynb_checkpoints"])
def test_tool_folders_are_pruned_whatever_the_ignore_files_say(tmp_path: Path, folder: str):
    root = tmp_path / "repo"
    write(root / "main.py")
    write(root / "lib" / folder / "copy.py")
    write(root / ".gitignore", f"!{folder}/\n!copy.py\n")
    write(root / ".devtoolsignore", f"!{folder}/\n")
    assert folder in VENDORED_DIRS
    assert listed(root) == ["main.py"]
    assert Workspace(root).is_ignored(f"lib/{folder}/copy.py")


# -- virtual environments --------------------------------------------------------------------

def test_a_virtualenv_under_any_name_is_not_indexed(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "app.py", MODULE)
    env = root / "env-3.11"
    write(env / "pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n")
    write(env / "lib" / "python3.11" / "site-packages" / "dep" / "x.py", MODULE)
    write(env / "bin" / "tool.py", MODULE)
    write(env / "top.py", MODULE)
    # A folder that merely mentions venvs is indexed.
    write(root / "docs" / "venv_notes.py", "NOTE = 1\n")

    assert listed(root) == ["app.py", "docs/venv_notes.py"]
    ws = Workspace(root)
    assert ws.is_ignored("env-3.11", is_dir=True)
    assert ws.is_ignored("env-3.11/bin/tool.py")
    assert not ws.is_ignored("docs/venv_notes.py")
    with Project(root) as project:
        assert symbol_files(project, "handle_request") == ["app.py"]


def test_a_folder_becoming_a_virtualenv_after_the_first_index_drops_out(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "app.py", MODULE)
    with Project(root) as project:
        assert symbol_files(project, "handle_request") == ["app.py"]
        env = root / "pyenv"
        write(env / "bin" / "activate_this.py", MODULE)
        write(env / "pyvenv.cfg", "home = /usr/bin\n")
        assert symbol_files(project, "handle_request") == ["app.py"]


# -- .gitignore above the root, below it, and git's own exclude files ------------------------

def test_a_gitignore_in_the_git_top_level_above_the_root_applies(tmp_path: Path):
    top = git_repo(tmp_path / "monorepo")
    write(top / ".gitignore", "generated/\n*_pb2.py\n/services/api/local_settings.py\n")
    root = top / "services" / "api"
    write(root / "app.py", MODULE)
    write(root / "generated" / "client.py", MODULE)
    write(root / "proto" / "msg_pb2.py", MODULE)
    write(root / "local_settings.py", MODULE)
    write(root / "settings.py", "DEBUG = False\n")

    assert listed(root) == ["app.py", "settings.py"]
    with Project(root) as project:
        assert symbol_files(project, "handle_request") == ["app.py"]
    ws = Workspace(root)
    assert ws.is_ignored("generated", is_dir=True)
    assert ws.is_ignored("proto/msg_pb2.py")
    assert not ws.is_ignored("settings.py")
    # Without a repository, nothing above the root is read.
    shutil.rmtree(top / ".git")
    assert listed(root) == ["app.py", "generated/client.py", "local_settings.py",
                            "proto/msg_pb2.py", "settings.py"]


def test_patterns_naming_the_root_itself_do_not_empty_it(tmp_path: Path):
    # A scratch folder the enclosing repository ignores is still a project when served; the
    # repository's other patterns still apply inside it.
    top = git_repo(tmp_path / "repo")
    write(top / ".gitignore", "scratch/\n*.bak.py\n")
    root = top / "scratch"
    write(root / "try.py")
    write(root / "deep" / "more.py")
    write(root / "deep" / "more.bak.py")
    assert listed(root) == ["deep/more.py", "try.py"]


def test_every_gitignore_between_the_top_level_and_the_root_applies(tmp_path: Path):
    top = git_repo(tmp_path / "monorepo")
    write(top / ".gitignore", "*.tmp.py\n")
    write(top / "services" / ".gitignore", "/api/scratch/\nnotes.py\n")
    root = top / "services" / "api"
    write(root / "app.py")
    write(root / "x.tmp.py")
    write(root / "scratch" / "try.py")
    write(root / "sub" / "notes.py")
    write(root / "sub" / "scratch" / "kept.py")  # "/api/scratch/" is anchored: not this one
    assert listed(root) == ["app.py", "sub/scratch/kept.py"]


def test_a_negation_in_a_deeper_gitignore_re_includes(tmp_path: Path):
    top = git_repo(tmp_path / "monorepo")
    write(top / ".gitignore", "*_generated.py\n")
    root = top / "app"
    write(root / "main.py")
    write(root / "models_generated.py")
    write(root / "schema" / ".gitignore", "!api_generated.py\n")
    write(root / "schema" / "api_generated.py")
    write(root / "schema" / "types_generated.py")
    assert listed(root) == ["main.py", "schema/api_generated.py"]
    ws = Workspace(root)
    assert not ws.is_ignored("schema/api_generated.py")
    assert ws.is_ignored("schema/types_generated.py")


def test_gitignore_patterns_are_relative_to_their_own_folder(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "main.py")
    write(root / "pkg" / ".gitignore", "/local.py\nfixtures/\ncache/*\n!cache/keep.py\n")
    write(root / "pkg" / "local.py")
    write(root / "pkg" / "sub" / "local.py")        # "/local.py" is anchored to pkg/
    write(root / "local.py")                          # and does not reach above pkg/
    write(root / "pkg" / "fixtures" / "f.py")
    write(root / "pkg" / "sub" / "fixtures" / "g.py")
    write(root / "pkg" / "cache" / "c.py")
    write(root / "pkg" / "cache" / "keep.py")
    write(root / "other" / "fixtures" / "h.py")      # pkg/.gitignore says nothing about other/
    assert listed(root) == ["local.py", "main.py", "other/fixtures/h.py", "pkg/cache/keep.py",
                            "pkg/sub/local.py"]
    ws = Workspace(root)
    for rel, expected in [("pkg/local.py", True), ("pkg/sub/local.py", False),
                          ("local.py", False), ("pkg/sub/fixtures/g.py", True),
                          ("pkg/cache/keep.py", False), ("pkg/cache/c.py", True),
                          ("other/fixtures/h.py", False)]:
        assert ws.is_ignored(rel) is expected, rel


def test_an_ignored_folder_cannot_be_re_included_from_below(tmp_path: Path):
    top = git_repo(tmp_path / "repo")
    write(top / ".gitignore", "out/\n")
    write(top / "out" / ".gitignore", "!*.py\n")
    write(top / "out" / "x.py")
    write(top / "main.py")
    root = top / "app"
    write(root / "main.py")
    write(root / "out" / ".gitignore", "!*.py\n")
    write(root / "out" / "x.py")
    assert listed(root) == ["main.py"]
    assert listed(top) == ["app/main.py", "main.py"]


def test_git_info_exclude_applies(tmp_path: Path):
    top = git_repo(tmp_path / "repo")
    (top / ".git" / "info" / "exclude").write_text("# git ls-files --exclude-per-directory\n"
                                                   "scratch_*.py\n/experiments/\n")
    write(top / "main.py")
    write(top / "scratch_try.py")
    write(top / "pkg" / "scratch_more.py")
    write(top / "experiments" / "e.py")
    assert listed(top) == ["main.py"]
    # From a root below the top level too, with the patterns still relative to the top.
    write(top / "pkg" / "experiments" / "kept.py")
    assert listed(top / "pkg") == ["experiments/kept.py"]


def test_a_gitignore_negation_overrides_info_exclude(tmp_path: Path):
    top = git_repo(tmp_path / "repo")
    (top / ".git" / "info" / "exclude").write_text("*.gen.py\n")
    write(top / ".gitignore", "!wanted.gen.py\n")
    write(top / "wanted.gen.py")
    write(top / "other.gen.py")
    assert listed(top) == ["wanted.gen.py"]


def test_info_exclude_of_a_worktree_is_the_main_repositorys(tmp_path: Path):
    main = git_repo(tmp_path / "main")
    (main / ".git" / "info" / "exclude").write_text("local_*.py\n")
    admin = main / ".git" / "worktrees" / "feature"
    admin.mkdir(parents=True)
    (admin / "commondir").write_text("../..\n")
    tree = tmp_path / "feature"
    write(tree / ".git", f"gitdir: {admin}\n")
    write(tree / "app.py")
    write(tree / "local_conf.py")
    assert listed(tree) == ["app.py"]


def test_the_default_global_excludes_file_applies(tmp_path: Path, own_git_config: Path):
    write(own_git_config / ".config" / "git" / "ignore", "*.orig.py\n")
    top = git_repo(tmp_path / "repo")
    write(top / "main.py")
    write(top / "main.orig.py")
    assert listed(top) == ["main.py"]


def test_core_excludes_file_is_honoured_with_or_without_git(tmp_path: Path,
                                                              own_git_config: Path, monkeypatch):
    write(own_git_config / ".gitconfig", "[user]\n\tname = x\n[core]\n"
                                         "\texcludesFile = ~/my-ignores\n")
    write(own_git_config / "my-ignores", "backup_*.py\n")
    write(own_git_config / ".config" / "git" / "ignore", "main.py\n")  # not read: overridden
    top = git_repo(tmp_path / "repo")
    write(top / "main.py")
    write(top / "backup_main.py")
    if shutil.which("git"):
        assert listed(top) == ["main.py"]
    # No git on PATH: the config files are read directly.
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("git") is None
    assert listed(top) == ["main.py"]


def test_devtoolsignore_has_the_final_word_below_the_root(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / ".devtoolsignore", "!keep_me.py\nlegacy/\n")
    write(root / "pkg" / ".gitignore", "keep_me.py\nlocal.py\n!legacy/\n")
    write(root / "pkg" / "keep_me.py")
    write(root / "pkg" / "local.py")
    write(root / "pkg" / "legacy" / "old.py")
    write(root / "main.py")
    assert listed(root) == ["main.py", "pkg/keep_me.py"]
    ws = Workspace(root, exclude=["main.py"])
    assert ws.is_ignored("main.py")
    assert not ws.is_ignored("pkg/keep_me.py")
    assert ws.is_ignored("pkg/legacy", is_dir=True)


def test_a_nested_gitignore_edited_after_the_first_index_is_honoured(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "app.py", MODULE)
    write(root / "pkg" / "copy.py", MODULE)
    write(root / "pkg" / "other.py", "x = 1\n")
    with Project(root) as project:
        assert symbol_files(project, "handle_request") == ["app.py", "pkg/copy.py"]
        write(root / "pkg" / ".gitignore", "copy.py\n")
        assert symbol_files(project, "handle_request") == ["app.py"]
        write(root / "pkg" / ".gitignore", "other.py\n")
        assert symbol_files(project, "handle_request") == ["app.py", "pkg/copy.py"]


def test_warnings_name_the_nested_ignore_file(tmp_path: Path):
    root = tmp_path / "repo"
    write(root / "pkg" / ".gitignore", "ok.py\n!\n")
    write(root / "pkg" / "a.py")
    ws = Workspace(root)
    discover(ws, language_for_path)
    assert ws.ignore_warnings == ["pkg/.gitignore:2: invalid pattern '!' skipped"]


# -- agreement with git itself ---------------------------------------------------------------

@pytest.mark.skipif(shutil.which("git") is None, reason="needs git as the oracle")
def test_the_walk_agrees_with_git_ls_files(tmp_path: Path, own_git_config: Path):
    write(own_git_config / ".config" / "git" / "ignore", "*.swp.py\n")
    top = tmp_path / "repo"
    top.mkdir()
    subprocess.run(["git", "init", "-q", str(top)], check=True)
    (top / ".git" / "info" / "exclude").write_text("/tmp_*/\n")
    write(top / ".gitignore", "*.gen.py\n!keep.gen.py\nbuild_out/\ndocs/**/draft_*.py\n"
                              "cache/*\n!cache/keep.py\n/anchored.py\n")
    write(top / "lib" / ".gitignore", "!*.gen.py\nlocal/\n/only_here.py\n")
    write(top / "lib" / "deep" / ".gitignore", "*.py\n!public.py\n")
    names = ["a.py", "x.gen.py", "keep.gen.py", "anchored.py", "only_here.py", "public.py",
             "draft_1.py", "f.swp.py"]
    folders = ["", "lib/", "lib/deep/", "lib/local/", "docs/", "docs/a/", "cache/",
               "build_out/", "tmp_x/", "lib/tmp_y/", "src/lib/"]
    for folder in folders:
        for name in names:
            write(top / folder / name)
    git = subprocess.run(["git", "ls-files", "--others", "--cached", "--exclude-standard"],
                         cwd=top, capture_output=True, text=True, check=True,
                         env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"})
    expected = sorted(p for p in git.stdout.splitlines() if p.endswith(".py"))
    assert len(expected) > 20
    assert listed(top) == expected
    ws = Workspace(top)
    every = sorted(f"{folder}{name}" for folder in folders for name in names)
    assert [rel for rel in every if not ws.is_ignored(rel)] == expected
