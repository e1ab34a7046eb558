"""Workspace: root confinement, relative paths, ignore rules, the test-file rule."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from jupyter_codetrace.errors import InvalidRequest
from jupyter_codetrace.workspace import VENDORED_DIRS, IgnoreRules, Workspace, is_test_file


def write(path: Path, text: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    write(root / "src" / "a.py")
    write(root / "src" / "pkg" / "b.py")
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "secret-place"
    write(secret / "passwords.py", "PASSWORD = 'hunter2'\n")
    return secret


# -- the root --------------------------------------------------------------------------------

def test_root_is_resolved_and_absolute(repo: Path, monkeypatch):
    monkeypatch.chdir(repo.parent)
    ws = Workspace("repo")
    assert ws.root == repo.resolve()
    assert ws.root.is_absolute()
    assert ws.max_file_size == 2_000_000


def test_root_must_exist(tmp_path: Path):
    with pytest.raises(InvalidRequest) as info:
        Workspace(tmp_path / "missing")
    assert info.value.field == "root"
    assert "does not exist" in str(info.value)


def test_root_must_be_a_directory(repo: Path):
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo / "src" / "a.py")
    assert info.value.field == "root"
    assert "not a directory" in str(info.value)


def test_invalid_exclude_pattern_is_refused(repo: Path):
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo, exclude=["*.tmp", "!"])
    assert info.value.field == "exclude"


# -- relative() ------------------------------------------------------------------------------

@pytest.mark.parametrize("given", ["src/a.py", "./src/a.py", "src//a.py", "src/pkg/../a.py",
                                   "src/./a.py"])
def test_relative_normalises_inside_paths(repo: Path, given: str):
    assert Workspace(repo).relative(given) == "src/a.py"


def test_relative_accepts_absolute_paths_inside(repo: Path):
    ws = Workspace(repo)
    assert ws.relative(str(repo / "src" / "pkg" / "b.py")) == "src/pkg/b.py"
    assert ws.relative(repo / "src" / "a.py") == "src/a.py"  # os.PathLike too


def test_relative_of_the_root_is_dot(repo: Path):
    ws = Workspace(repo)
    assert ws.relative(str(repo)) == "."
    assert ws.relative("src/..") == "."


def test_relative_does_not_require_the_file_to_exist(repo: Path):
    ws = Workspace(repo)
    assert ws.relative("src/new/module.py") == "src/new/module.py"
    assert ws.relative("nb.ipynb") == "nb.ipynb"
    assert ws.relative("missing/../src/a.py") == "src/a.py"


@pytest.mark.parametrize("given", ["..", "../", "../repo-other/x.py", "src/../../x.py",
                                   "src/pkg/../../../etc/passwd"])
def test_relative_refuses_dotdot_escapes(repo: Path, given: str):
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo).relative(given, field="from_file")
    assert info.value.outside_root is True
    assert info.value.field == "from_file"


def test_relative_refuses_absolute_paths_elsewhere(repo: Path, outside: Path):
    target = outside / "passwords.py"
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo).relative(str(target))
    assert info.value.outside_root is True
    assert str(outside) not in str(info.value)


def test_relative_refuses_a_sibling_sharing_the_root_prefix(repo: Path):
    sibling = repo.parent / (repo.name + "-other")
    write(sibling / "x.py")
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo).relative(str(sibling / "x.py"))
    assert info.value.outside_root


def test_relative_refuses_a_symlink_pointing_out_without_naming_the_target(repo: Path,
                                                                          outside: Path):
    (repo / "src" / "leak.py").symlink_to(outside / "passwords.py")
    (repo / "linked").symlink_to(outside, target_is_directory=True)
    ws = Workspace(repo)
    for given in ("src/leak.py", "linked/passwords.py", "linked", str(repo / "src" / "leak.py")):
        with pytest.raises(InvalidRequest) as info:
            ws.relative(given)
        assert info.value.outside_root is True
        assert str(outside) not in str(info.value)
        assert "secret-place" not in str(info.value)


def test_relative_names_the_target_of_a_symlink_inside(repo: Path):
    (repo / "alias.py").symlink_to(repo / "src" / "a.py")
    assert Workspace(repo).relative("alias.py") == "src/a.py"


def test_relative_through_a_symlinked_root(repo: Path, tmp_path: Path):
    alias = tmp_path / "alias-root"
    alias.symlink_to(repo, target_is_directory=True)
    ws = Workspace(alias)
    assert ws.root == repo.resolve()
    assert ws.relative(str(alias / "src" / "a.py")) == "src/a.py"
    assert ws.relative(str(repo / "src" / "a.py")) == "src/a.py"


@pytest.mark.parametrize("given", ["", "   ", None])
def test_relative_requires_a_path(repo: Path, given):
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo).relative(given, field="file")
    assert info.value.field == "file"
    assert info.value.outside_root is False


# -- absolute() ------------------------------------------------------------------------------

def test_absolute_joins_under_the_root(repo: Path):
    ws = Workspace(repo)
    assert ws.absolute("src/a.py") == repo.resolve() / "src" / "a.py"
    assert ws.absolute(".") == repo.resolve()
    assert ws.absolute(ws.relative("src/pkg/b.py")).read_text() == "x = 1\n"


@pytest.mark.parametrize("given", ["../x.py", "src/../../x.py", "/etc/passwd"])
def test_absolute_refuses_paths_leaving_the_root(repo: Path, given: str):
    with pytest.raises(InvalidRequest) as info:
        Workspace(repo).absolute(given)
    assert info.value.outside_root


# -- ignore rules ----------------------------------------------------------------------------

@pytest.fixture
def ignoring(repo: Path) -> Workspace:
    write(repo / ".gitignore", "\n".join([
        "# comment",
        "*.log",
        "!keep.log",
        "out/",            # directory only
        "/anchored.py",    # only at the root
        "docs/**/gen_*.py",
        "generated/",
        "!generated/keep.py",  # cannot re-include: its folder is excluded (git semantics)
        "cache/*",
        "!cache/keep.py",  # can re-include: only the folder's content is excluded
        "",
    ]))
    write(repo / ".devtoolsignore", "secrets/\n!important.log\n")
    return Workspace(repo, exclude=["*.min.js", "big_data/"])


@pytest.mark.parametrize("rel,is_dir,expected", [
    ("src/a.py", False, False),
    ("debug.log", False, True),
    ("deep/er/debug.log", False, True),
    ("keep.log", False, False),                # negation in .gitignore
    ("logs/important.log", False, False),      # negation in .devtoolsignore overrides .gitignore
    ("out", True, True),
    ("out", False, False),                     # a *file* named out: "out/" is for folders
    ("src/out/x.py", False, True),
    ("anchored.py", False, True),
    ("src/anchored.py", False, False),
    ("docs/gen_api.py", False, True),
    ("docs/a/b/gen_api.py", False, True),
    ("docs/a/api.py", False, False),
    ("generated/x.py", False, True),
    ("generated/keep.py", False, True),
    ("cache/x.py", False, True),
    ("cache/keep.py", False, False),
    ("secrets/token.py", False, True),
    ("app.min.js", False, True),               # exclude=...
    ("big_data", True, True),
    ("big_data/x.py", False, True),
])
def test_ignore_patterns(ignoring: Workspace, rel: str, is_dir: bool, expected: bool):
    assert ignoring.is_ignored(rel, is_dir=is_dir) is expected


def test_a_trailing_slash_means_a_folder(ignoring: Workspace):
    assert ignoring.is_ignored("out/")
    assert ignoring.is_ignored("src/out/")
    assert not ignoring.is_ignored("src/")


@pytest.mark.parametrize("folder", sorted(VENDORED_DIRS))
def test_vendored_folders_are_ignored_anywhere(repo: Path, folder: str):
    ws = Workspace(repo)
    assert ws.is_ignored(f"{folder}/x.py")
    assert ws.is_ignored(f"src/{folder}/lib/x.py")
    assert ws.is_ignored(f"src/{folder}", is_dir=True)
    # A *file* with such a name is not a folder and stays.
    assert not ws.is_ignored(f"src/{folder}")


def test_no_ignore_files_means_nothing_but_vendored_is_ignored(repo: Path):
    ws = Workspace(repo)
    assert ws.ignore_rules is None
    assert not ws.is_ignored("src/a.py")
    assert not ws.is_ignored(".")


def test_invalid_lines_in_ignore_files_are_skipped_with_a_warning(repo: Path):
    write(repo / ".gitignore", "*.log\n!\nfoo\\\n")
    ws = Workspace(repo)
    assert ws.is_ignored("x.log")
    assert not ws.is_ignored("foo")
    assert ws.ignore_warnings == [".gitignore:2: invalid pattern '!' skipped",
                                  ".gitignore:3: invalid pattern 'foo\\\\' skipped"]


def test_refresh_ignores_picks_up_edits(repo: Path):
    ws = Workspace(repo)
    assert not ws.is_ignored("src/a.py")
    assert ws.refresh_ignores() is False
    write(repo / ".devtoolsignore", "src/a.py\n")
    assert ws.refresh_ignores() is True
    assert ws.is_ignored("src/a.py")
    (repo / ".devtoolsignore").unlink()
    assert ws.refresh_ignores() is True
    assert not ws.is_ignored("src/a.py")


# The fast prefilter in IgnoreRules must never change pathspec's answer. Reference: git's walk
# (a folder found ignored is not entered) with pathspec deciding every single entry.
PATTERNS = [
    "*.log", "!keep.log", "build/", "/dist", "docs/**/gen_*.py", "**/tmp", "*.py[cod]",
    "__pycache__/", "a/**/b", "!a/x/b", "cache/*", "!cache/keep.py", ".env", "*.egg-info/",
    "foo ", "[Tt]humbs.db", "a?c.py", "lib/", "!lib/", "*~", "node", "x/y/", "*.min.js",
]
SEGMENTS = ["a", "b", "x", "y", "build", "dist", "docs", "tmp", "cache", "lib", "node", "foo",
            "keep.log", "app.log", "m.pyc", "m.py", "gen_x.py", "abc.py", "Thumbs.db", ".env",
            "pkg.egg-info", "f~", "app.min.js", "keep.py"]


def reference_is_ignored(spec, rel: str, is_dir: bool) -> bool:
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        if spec.match_file("/".join(parts[:depth]) + "/"):
            return True
    return bool(spec.match_file(rel + "/" if is_dir else rel))


def walk_is_ignored(rules: IgnoreRules, rel: str, is_dir: bool) -> bool:
    """The way index/discover.py asks: each folder on the way down, then the entry."""
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        if rules.matches_entry("/".join(parts[:depth]), parts[depth - 1], True):
            return True
    return rules.matches_entry(rel, parts[-1], is_dir)


def test_ignore_prefilter_agrees_with_pathspec(tmp_path: Path):
    rules = IgnoreRules(PATTERNS)
    ws = Workspace(tmp_path, exclude=PATTERNS)
    checked = 0
    for depth in (1, 2, 3):
        for combo in itertools.product(SEGMENTS, repeat=depth):
            if depth == 3 and combo[0] not in ("a", "docs", "x"):
                continue  # keep the test quick; the deep cases that matter start here
            rel = "/".join(combo)
            vendored = any(part in VENDORED_DIRS for part in combo)
            for is_dir in (False, True):
                expected = reference_is_ignored(rules.spec, rel, is_dir)
                assert walk_is_ignored(rules, rel, is_dir) is expected, (rel, is_dir)
                if not vendored:
                    assert ws.is_ignored(rel, is_dir) is expected, (rel, is_dir)
                checked += 1
    assert checked > 4000
    assert not rules._always_exact  # the fast path was really exercised


def test_ignore_prefilter_is_what_makes_big_gitignores_cheap():
    rules = IgnoreRules(PATTERNS)
    # Bare folder names become a set lookup, "*.ext" a suffix test.
    assert "build" in rules._dir_names and "build" not in rules._file_names
    assert ".log" in rules._file_suffixes


# -- test files ------------------------------------------------------------------------------

@pytest.mark.parametrize("rel,expected", [
    ("src/date.test.ts", True),
    ("src/date.spec.js", True),
    ("test_models.py", True),
    ("pkg/models_test.py", True),
    ("server/handler_test.go", True),
    ("src/__tests__/date.ts", True),
    ("tests/conftest.py", True),
    ("pkg/tests/fixtures/data.py", True),
    ("src/models.py", False),
    ("src/testing.py", False),
    ("src/contest.py", False),
    ("test/helpers.js", True),          # the TS/JS convention (issue 13)
    ("packages/core/test/unit/a.ts", True),
    ("src/latest_test.rs", False),      # *_test is only for .py and .go
    ("src/tests.py", False),            # a file named tests is not a tests/ folder
    ("test_data.json", False),
])
def test_is_test_file(rel: str, expected: bool):
    assert is_test_file(rel) is expected


def test_public_names():
    import jupyter_codetrace.workspace as module

    assert set(module.__all__) == {"Workspace", "IgnoreRules", "is_test_file", "VENDORED_DIRS",
                                   "IGNORE_FILES"}
    assert all(hasattr(module, name) for name in module.__all__)
