"""A save is looked at alone: the files inotify names are stat'ed (``discover.restat``) instead of
walking the tree, unless only a walk can tell what changed. After every kind of change, the index
holds exactly what a walk of the tree gives."""

from __future__ import annotations

import os
import random

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index import indexer


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data)
    else:
        path.write_bytes(data)


def _state(project):
    index = project._index
    return ({path: index.digest(path) for path in index.files()},
            {path: index.skipped_reason(path) for path in sorted(index._skipped)})


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "repo"
    _write(root / ".gitignore", "ignored_*.py\nbuild/\n")
    for i in range(6):
        _write(root / "pkg" / f"m{i}.py", f"def f{i}():\n    return {i}\n")
    _write(root / "main.py", "from pkg.m0 import f0\n\nf0()\n")
    return root


def _changes(root, rng):
    """(what, change) pairs of every kind a person, an editor or a tool makes."""
    def modify():
        name = rng.choice(sorted(p.name for p in (root / "pkg").glob("*.py")))
        _write(root / "pkg" / name, f"def g{rng.randrange(99)}():\n    return 1\n")

    def rename():
        files = sorted((root / "pkg").glob("m*.py"))
        if files:
            os.rename(files[0], root / "pkg" / f"renamed_{rng.randrange(99)}.py")

    def delete():
        files = sorted((root / "pkg").glob("*.py"))
        if len(files) > 1:
            files[-1].unlink()

    return [
        ("modify", modify),
        ("new file", lambda: _write(root / "pkg" / f"new_{rng.randrange(99)}.py", "def new():\n    return 0\n")),
        ("rename", rename),
        ("delete", delete),
        ("too large", lambda: _write(root / "pkg" / "big.py", "x = 1\n" * 500)),
        ("large again small", lambda: _write(root / "pkg" / "big.py", "x = 2\n")),
        ("binary", lambda: _write(root / "pkg" / "blob.py", b"\0\1\2" * 10)),
        ("not source", lambda: _write(root / "pkg" / "notes.txt", "text")),
        ("ignored", lambda: _write(root / "pkg" / "ignored_gen.py", "def hidden():\n    return 0\n")),
        ("new folder", lambda: _write(root / "sub" / f"d{rng.randrange(99)}" / "x.py", "def x():\n    return 0\n")),
        ("ignore file", lambda: _write(root / ".gitignore", rng.choice(["ignored_*.py\nbuild/\n", "build/\npkg/m1.py\n"]))),
        ("symlink", lambda: os.path.lexists(root / "pkg" / "link.py") or os.symlink(root / "main.py", root / "pkg" / "link.py")),
        ("in ignored folder", lambda: _write(root / "build" / "out.py", "def built():\n    return 0\n")),
    ]


def test_after_any_change_the_index_is_what_a_walk_gives(tree, tmp_path, monkeypatch):
    project = Project(tree, cache_dir=tmp_path / "cache", max_file_size=1000)
    project.index()
    if not project._index.watching:
        pytest.skip("no inotify here: every refresh walks")
    project.index()   # the one walk after the watches began
    walks = []
    walk = indexer.discover
    monkeypatch.setattr(indexer, "discover",
                        lambda workspace, *args: (walks.append(workspace is project.workspace), walk(workspace, *args))[1])
    rng = random.Random(7)
    changes = _changes(tree, rng)
    done = []
    for step in range(60):
        what, change = changes[step % len(changes)] if step < len(changes) else rng.choice(changes)
        change()
        done.append(what)
        project.index()
        fresh = Project(tree, cache_dir=tmp_path / "fresh", max_file_size=1000)
        fresh._index._watcher.close()   # a walk, every time
        fresh.index()
        assert _state(project) == _state(fresh), f"after {done}"
        fresh.close()
    ours = sum(walks)   # the fresh projects walk every time
    assert 0 < ours < len(done) // 2, f"{ours} walks for {len(done)} changes"
    project.close()


def test_a_save_is_answered_without_a_walk(tree, tmp_path, monkeypatch):
    project = Project(tree, cache_dir=tmp_path / "cache")
    project.index()
    if not project._index.watching:
        pytest.skip("no inotify here: every refresh walks")
    project.index()
    walks = []
    walk = indexer.discover
    monkeypatch.setattr(indexer, "discover", lambda *args: (walks.append(1), walk(*args))[1])
    _write(tree / "pkg" / "m3.py", "def f3():\n    return 3\n\n\ndef h3():\n    return f3()\n")
    assert project.find_definition("h3").file == "pkg/m3.py"
    _write(tree / "pkg" / "fresh.py", "from pkg.m3 import h3\n\nh3()\n")
    assert project.find_definition("h3", "pkg/fresh.py", 3).file == "pkg/m3.py"
    (tree / "pkg" / "fresh.py").unlink()
    assert project.symbols("fresh").status != "found" or all(m.file != "pkg/fresh.py" for m in project.symbols("fresh").matches)
    assert "pkg/fresh.py" not in project._index.files()
    assert walks == []
    project.close()
