"""index/indexer.py: a refresh while files are renamed under it."""

import os

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index import indexer


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize("found_by", ["walk", "save"])
def test_a_file_renamed_between_the_walk_and_its_read_is_found_under_its_new_name(tmp_path, monkeypatch, found_by):
    """The walk finds b.py changed, then b.py is renamed before it is read (an editor's "save
    as", a `git mv`): it was skipped as unreadable, and c.py was in no listing, so `beta` was not
    found until the next change. The refresh walks again. "save": the change is found from the
    names inotify gave (``discover.restat``, no walk), and the rename comes after that look."""
    _write(tmp_path / "a.py", "def alpha():\n    return 1\n")
    _write(tmp_path / "b.py", "def beta_draft():\n    return 1\n")
    project = Project(tmp_path)
    project.index()
    if found_by == "walk":
        project._index._watcher.close()   # every refresh walks
    elif not project._index.watching:
        pytest.skip("no inotify here: every refresh walks")
    else:
        project.index()   # the one walk after the watches began; from now on a save is looked at alone
    _write(tmp_path / "b.py", "def beta():\n    return 2\n")   # changed: read after the walk
    look = getattr(indexer, "discover" if found_by == "walk" else "restat")

    def look_then_rename(*args):
        found = look(*args)
        if (tmp_path / "b.py").exists():
            os.rename(tmp_path / "b.py", tmp_path / "c.py")
        return found

    monkeypatch.setattr(indexer, "discover" if found_by == "walk" else "restat", look_then_rename)
    answer = project.find_definition("beta")
    assert (answer.status, answer.file, answer.line) == ("found", "c.py", 1)
    assert project._index.files() == ["a.py", "c.py"]
    assert project.find_definition("beta_draft").status == "symbol_not_found"
    assert project._index.skipped_reason("b.py") is None   # gone, not unreadable
