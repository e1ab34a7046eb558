"""A restarted process reads each file's names (what it defines and uses) from the store only
when a question needs them: an answer at a position reads none, the first lookup by name reads
them all in one query, and a file changed before that keeps its previous names for what a new
resolver generation compares (index/indexer.py `_Summary`, `_StoredNames`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index.store import Store


@pytest.fixture
def counted(monkeypatch):
    """How many times, and for which paths, the store's names were read."""
    calls: list[str | None] = []
    real = Store.names

    def names(self, path=None):
        calls.append(path)
        return real(self, path)

    monkeypatch.setattr(Store, "names", names)
    return calls


def _project(tmp_path: Path) -> tuple[Path, Path]:
    root, cache = tmp_path / "repo", tmp_path / "cache"
    root.mkdir()
    (root / "base.py").write_text("def helper():\n    return 1\n\n\ndef spare():\n    return 2\n")
    (root / "user.py").write_text("from base import helper\n\n\ndef use():\n    return helper()\n")
    (root / "other.py").write_text("def helper_too():\n    return 3\n")
    with Project(root, cache_dir=cache) as project:
        project.index()
    return root, cache


def test_an_answer_at_a_position_reads_no_names_and_a_lookup_by_name_reads_them_once(tmp_path, counted):
    root, cache = _project(tmp_path)
    counted.clear()
    with Project(root, cache_dir=cache) as project:
        assert project.index().parsed == 0
        found = project.find_definition("helper", "user.py", 5)
        assert (found.status, found.file, found.line) == ("found", "base.py", 1)
        assert counted == []
        assert project.find_definition("spare").file == "base.py"   # by name alone
        assert project.find_definition("helper_too").file == "other.py"
        assert project.find_references("helper", "base.py", 1).to_dict()["count"] >= 1
        assert counted == [None]   # all of them, once


def test_a_file_changed_before_any_name_was_read_keeps_its_previous_names(tmp_path, counted):
    root, cache = _project(tmp_path)
    with Project(root, cache_dir=cache) as project:
        project.index()
        before = project._index.summaries()["base.py"]
        (root / "base.py").write_text("def assist():\n    return 1\n\n\ndef spare():\n    return 2\n")
        assert project.index().parsed == 1
        assert counted == ["base.py"]   # its own row, read before the new one replaced it
        after = project._index.summaries()["base.py"]
        assert "helper" in before.defined and "assist" not in before.defined
        assert "assist" in after.defined and "helper" not in after.defined
        assert "helper" in project._index.summaries()["user.py"].used
        assert project.find_definition("helper", "user.py", 5).status != "found"
        assert project.find_definition("assist").file == "base.py"


def test_names_of_another_version_of_the_file_are_not_taken(tmp_path):
    """Another process indexed a newer version of a file after this one loaded its summary: the
    row's names are of that version, so this summary takes its names from the file's facts."""
    root, cache = _project(tmp_path)
    with Project(root, cache_dir=cache) as mine:
        mine.index()
        (root / "other.py").write_text("def renamed():\n    return 3\n")
        with Project(root, cache_dir=cache) as theirs:
            assert theirs.index().parsed == 1   # the store's row of other.py is the new version now
        summary = mine._index.summaries()["other.py"]
        assert summary.record.digest != theirs._index.summaries()["other.py"].record.digest
        assert summary.defined == frozenset()   # neither the newer row's names nor the facts'
        assert mine.find_definition("renamed").file == "other.py"   # the next refresh saw the change
        assert mine.find_definition("helper_too").status == "symbol_not_found"


def test_a_start_reads_the_heads_from_their_index_alone(tmp_path):
    """What ``Store.records`` selects is all in the index ``heads``: SQLite reads its pages, not
    the rows' (whose blobs make each row kilobytes long)."""
    import sqlite3

    root, cache = _project(tmp_path)
    with Project(root, cache_dir=cache) as project:
        db_path = project.index().cache
    db = sqlite3.connect(db_path)
    plan = db.execute("EXPLAIN QUERY PLAN SELECT path, language, size, mtime_ns, digest, head, head_sum FROM files"
                      ).fetchall()
    db.close()
    assert "COVERING INDEX heads" in " ".join(str(step[-1]) for step in plan), plan


def test_a_summary_replaced_before_its_names_were_read_still_reads_its_own(tmp_path):
    """A store discarded while in use drops every summary at once (no file is forgotten one by
    one): what a resolver still holds of the old ones reads its names from its file's row."""
    root, cache = _project(tmp_path)
    with Project(root, cache_dir=cache) as project:
        project.index()
        before = project._index.summaries()["base.py"]
        project._index._discard_store("discarded by the test")
        assert project.index().parsed == 3
        assert project._index.summaries()["base.py"] is not before
        assert {"helper", "spare"} <= before.defined and before.members == {}
