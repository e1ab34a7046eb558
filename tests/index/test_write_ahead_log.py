"""A large write leaves no large write-ahead log behind (side_store.empty_large_log).

A process that opens a store no other process has open reads its whole log first; a process that
exits without closing its connection (a script, a kernel) leaves the log as large as its largest
write: a first index, a graph snapshot. Here the size that counts as large is lowered so that the
fixtures' writes are large."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index import side_store

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _log(database: Path) -> int:
    wal = Path(f"{database}-wal")
    return wal.stat().st_size if wal.exists() else 0


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setattr(side_store, "_LARGE_LOG", 1)
    root = tmp_path / "graph_py"
    shutil.copytree(FIXTURES / "graph_py", root)
    made = Project(root, cache_dir=tmp_path / "cache")
    yield made
    made.close()


def test_the_first_index_empties_its_log_while_its_connection_is_open(project):
    project.index()
    database = Path(project.index().cache)
    assert database.is_file() and _log(database) == 0
    with sqlite3.connect(database) as other:   # what a later process reads: every row, from the file
        assert other.execute("SELECT count(*) FROM files").fetchone()[0] == project.index().files > 3


def test_the_graph_snapshot_empties_its_log(project):
    project.index()
    project.call_graph()
    graphs = list(Path(project.index().cache).parent.glob("graph-*.sqlite"))
    assert graphs and all(_log(g) == 0 for g in graphs)


def test_a_reader_in_another_process_is_not_waited_for(project, tmp_path):
    project.index()
    database = Path(project.index().cache)
    reader = sqlite3.connect(database, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM files").fetchone()   # a read transaction, held open
    try:
        edited = Path(project.root) / "main.py"
        edited.write_text(edited.read_text() + "\n\ndef added_later():\n    return 1\n")
        assert project.index().parsed == 1   # the save is written ...
        assert _log(database) > 0            # ... and the log kept for the reader's snapshot
        store = project._context.index.store
        assert store._db.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000   # waits as before
    finally:
        reader.execute("COMMIT")
        reader.close()
    edited.write_text(edited.read_text() + "\n\ndef added_after_the_reader():\n    return 2\n")
    assert project.index().parsed == 1
    assert _log(database) == 0
