"""The cache is never trusted over the source (issue 16, items 4, 5, 7, 8, 9).

A fault matrix over the persisted index (``index.sqlite`` under ``CODETRACE_CACHE_DIR``):
garbage pages, swapped rows, empty and wrong-shape blobs, dropped tables, damage while in use,
an unusable cache directory, a read-only cache, and concurrent indexers. Every case ends in the
same answers as a clean index, says once what was discarded, and its counts add up.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index import store as store_module
from jupyter_codetrace.index.store import checksum, decode, encode

N_FILES = 40


def _repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "base.py").write_text("def helper():\n    return 1\n")
    for i in range(N_FILES):
        (root / f"mod_{i:02d}.py").write_text(
            f"from base import helper\n\n\ndef fn_{i}(x):\n    '''{'padding ' * 40}'''\n    return helper() + x\n")
    return root


def _answers(project: Project) -> list:
    found = []
    for i in (0, 7, N_FILES - 1):
        d = project.find_definition("helper", f"mod_{i:02d}.py", 6)
        found.append((d.status, d.file, d.line))
        found.append((project.find_definition(f"fn_{i}", f"mod_{i:02d}.py", 4).status,))
    refs = project.find_references("helper", "base.py", 1).to_dict()
    found.append((refs["count"], refs["files"]))
    callers = project.dependents_of("base.py", "helper").to_dict()
    found.append(sorted(n["name"] for n in callers["nodes"]))
    return found


def _counts_add_up(stats) -> None:
    data = stats.to_dict()
    assert data["parsed"] >= 0 and data["from_cache"] >= 0, data
    assert data["parsed"] + data["from_cache"] == data["files"], data
    assert f"({data['parsed']} parsed, {data['from_cache']} from cache)" in stats.to_text()


@pytest.fixture
def setup(tmp_path: Path):
    root = _repo(tmp_path / "repo")
    cache = tmp_path / "cache"
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        _counts_add_up(stats)
        expected = _answers(project)
        db_path = Path(stats.cache)
    assert db_path.is_file() and not Path(f"{db_path}-wal").exists() or Path(f"{db_path}-wal").stat().st_size == 0
    return root, cache, db_path, expected


def _reopen(root: Path, cache: Path, expected: list, note: str | None, parsed: int):
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        _counts_add_up(stats)
        assert stats.parsed == parsed, stats.to_text()
        if note is None:
            assert stats.cache_note is None
        else:
            assert note in (stats.cache_note or ""), stats.to_text()
        assert _answers(project) == expected
        again = project.index()
        assert again.cache_note is None   # said once
        _counts_add_up(again)
    # and the store left behind is healthy: a restart parses nothing
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        assert (stats.parsed, stats.cache_note) == (0, None), stats.to_text()
        assert _answers(project) == expected


def _edit(db_path: Path, statement: str, *params) -> None:
    db = sqlite3.connect(db_path)
    with db:
        db.execute(statement, params)
    db.close()


def test_a_clean_restart_parses_nothing(setup):
    root, cache, _, expected = setup
    _reopen(root, cache, expected, None, 0)


def test_garbage_in_the_middle_pages_discards_and_rebuilds(setup):
    root, cache, db_path, expected = setup
    data = bytearray(db_path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    pages = len(data) // page
    assert pages >= 6, pages
    for number in range(2, pages - 1):   # the header page stays intact
        data[number * page: (number + 1) * page] = bytes((number * 37 + i) % 251 for i in range(page))
    db_path.write_bytes(bytes(data))
    _reopen(root, cache, expected, "discarded", N_FILES + 1)


def test_damage_while_in_use_is_rebuilt_on_the_next_query(tmp_path: Path):
    root = _repo(tmp_path / "repo")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        stats = project.index()
        expected = _answers(project)
        db_path = Path(stats.cache)
        project._index._facts.clear()
        data = bytearray(db_path.read_bytes())
        data[4096:] = b"\xa5" * (len(data) - 4096)
        db_path.write_bytes(bytes(data))
        for suffix in ("-wal", "-shm"):
            if Path(f"{db_path}{suffix}").exists():
                Path(f"{db_path}{suffix}").write_bytes(b"\xa5" * 4096)
        (root / "mod_03.py").write_text("from base import helper\n\n\ndef fn_3(x):\n    return helper() - x\n")
        stats = project.index()
        _counts_add_up(stats)
        assert _answers(project) == expected
        assert project.find_definition("helper", "mod_03.py", 5).line == 1


@pytest.mark.parametrize("fault", ["swapped facts", "swapped names", "swapped heads", "empty facts", "empty names",
                                   "empty head", "moved row"])
def test_a_row_that_fails_its_checksum_is_dropped_and_indexed_again(setup, fault: str):
    root, cache, db_path, expected = setup
    if fault.startswith("swapped"):
        column = {"swapped facts": "facts", "swapped names": "names", "swapped heads": "head"}[fault]
        other = "base.py" if column == "head" else "mod_07.py"   # the modules' heads are alike
        db = sqlite3.connect(db_path)
        blob_a, blob_b = (db.execute(f"SELECT {column} FROM files WHERE path = ?", (p,)).fetchone()[0]
                          for p in ("mod_00.py", other))
        db.close()
        assert blob_a != blob_b
        _edit(db_path, f"UPDATE files SET {column} = ? WHERE path = 'mod_00.py'", blob_b)
        _edit(db_path, f"UPDATE files SET {column} = ? WHERE path = ?", blob_a, other)
        # a head is read at the start: its files are indexed again; facts and names are found
        # bad when first read, and taken from the file's facts (names) or its source (facts)
        parsed = 2 if column == "head" else 0
    elif fault == "empty facts":
        _edit(db_path, "UPDATE files SET facts = ? WHERE path = 'mod_00.py'", encode(()))
        parsed = 0
    elif fault == "empty names":
        _edit(db_path, "UPDATE files SET names = ? WHERE path = 'mod_00.py'", b"")
        parsed = 0
    elif fault == "empty head":
        _edit(db_path, "UPDATE files SET head = ? WHERE path = 'mod_00.py'", b"")
        parsed = 1
    else:  # one file's whole row under another file's name
        _edit(db_path, "DELETE FROM files WHERE path = 'mod_07.py'")
        _edit(db_path, "UPDATE files SET path = 'mod_07.py' WHERE path = 'mod_00.py'")
        parsed = 2   # mod_07's row fails; mod_00 has none
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        _counts_add_up(stats)
        assert stats.parsed == parsed, stats.to_text()
        assert _answers(project) == expected
        for i in (0, 7):   # by name alone: what reads the names
            assert project.find_definition(f"fn_{i}").file == f"mod_{i:02d}.py"
        later = project.index()   # rows found bad when first read are reported by the next refresh
        notes = [n for n in (stats.cache_note, later.cache_note) if n]
        assert len(notes) == 1 and "failed their checksum" in notes[0], notes
        assert project.index().cache_note is None
    db = sqlite3.connect(db_path)
    for path, language, digest, names, names_sum in db.execute(
            "SELECT path, language, digest, names, names_sum FROM files").fetchall():
        assert checksum(path, language, digest, names) == names_sum, path   # mended names were stored
    db.close()
    with Project(root, cache_dir=cache) as project:
        assert _answers(project) == expected
        assert project.index().parsed == 0
        assert project.index().cache_note is None


def test_a_wrong_shape_row_with_a_valid_checksum_is_indexed_again(setup):
    root, cache, db_path, expected = setup
    for blob_name in ("head", "names", "facts"):
        db = sqlite3.connect(db_path)
        language, digest = db.execute("SELECT language, digest FROM files WHERE path = 'mod_00.py'").fetchone()
        db.close()
        blob = encode(("not", "the", "right", "shape"))
        _edit(db_path, f"UPDATE files SET {blob_name} = ?, {blob_name}_sum = ? WHERE path = 'mod_00.py'",
              blob, checksum("mod_00.py", language, digest, blob))
        with Project(root, cache_dir=cache) as project:
            _counts_add_up(project.index())
            assert _answers(project) == expected


@pytest.mark.parametrize("inner", ["defined", "roles", "used"])
def test_name_sets_of_another_shape_inside_a_valid_row_lose_nothing_else(setup, inner: str):
    """A summary's name sets are decoded when first read, not at load (index/indexer.py
    `_Summary`): one that is not a list of names, in a row whose checksum holds, makes that file
    one no name finds — never an exception, and every other answer stays."""
    root, cache, db_path, expected = setup
    db = sqlite3.connect(db_path)
    language, digest, names = db.execute("SELECT language, digest, names FROM files WHERE path = 'base.py'").fetchone()
    db.close()
    fields = list(decode(names, compressed=False))
    at = ("defined", "roles", "used").index(inner)
    fields[at] = encode((1, 2, 3), compress=inner != "defined")
    blob = encode(tuple(fields), compress=False)
    _edit(db_path, "UPDATE files SET names = ?, names_sum = ? WHERE path = 'base.py'",
          blob, checksum("base.py", language, digest, blob))
    with Project(root, cache_dir=cache) as project:
        assert project.index().parsed == 0
        assert project.find_definition("helper", "mod_03.py", 6).file == "base.py"   # by its import
        assert project.find_definition("fn_3", "mod_03.py", 4).status == "found"
        found = project.find_definition("helper")
        assert found.status in ("found", "symbol_not_found")   # by name: base.py may be lost
        assert project.dependents_of("base.py", "helper").status == "found"


@pytest.mark.parametrize("table", ["files", "meta"])
def test_a_dropped_table_discards_and_rebuilds(setup, table: str):
    root, cache, db_path, expected = setup
    _edit(db_path, f"DROP TABLE {table}")
    _reopen(root, cache, expected, "discarded", N_FILES + 1)


@pytest.mark.parametrize("misplaced", ["cache dir is a file", "index.sqlite is a directory", "cache dir under a file"])
def test_an_unusable_cache_dir_falls_back_to_memory_with_one_warning(tmp_path: Path, misplaced: str, caplog):
    root = _repo(tmp_path / "repo")
    with Project(root, cache_dir=tmp_path / "clean") as project:
        expected = _answers(project)
    cache = tmp_path / "cache"
    if misplaced == "cache dir is a file":
        cache.write_text("not a folder")
    elif misplaced == "cache dir under a file":
        (tmp_path / "file").write_text("x")
        cache = tmp_path / "file" / "cache"
    else:
        with Project(root, cache_dir=cache) as project:
            db_path = Path(project.index().cache)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
        db_path.mkdir()
    caplog.set_level(logging.WARNING, logger="jupyter_codetrace")
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        _counts_add_up(stats)
        assert stats.cache == ":memory:" and "in-memory index" in stats.cache_note, stats.to_text()
        assert _answers(project) == expected
        (root / "mod_01.py").write_text("from base import helper\n\n\ndef fn_1(x):\n    return helper()\n")
        assert project.index().cache_note is None
        assert project.find_definition("helper", "mod_01.py", 5).line == 1
    warnings = [r for r in caplog.records if r.name == "jupyter_codetrace" and r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]


def test_a_read_only_valid_cache_still_serves_answers(setup, monkeypatch, caplog):
    root, cache, db_path, expected = setup
    real_connect = store_module.Store._connect

    def refuse_files(self, target: str, **options):   # what a read-only folder does to SQLite
        if target != ":memory:":
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real_connect(self, target, **options)

    monkeypatch.setattr(store_module.Store, "_connect", refuse_files)
    caplog.set_level(logging.WARNING, logger="jupyter_codetrace")
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        _counts_add_up(stats)
        assert stats.parsed == 0, stats.to_text()   # served from the copy of the cache
        assert "copied from the read-only cache" in stats.cache_note
        assert _answers(project) == expected
    assert len([r for r in caplog.records if r.name == "jupyter_codetrace"]) == 1


_INDEXER = """
import sys
from jupyter_codetrace import Project
with Project(sys.argv[1], cache_dir=sys.argv[2], workers=1) as project:
    stats = project.index()
    assert stats.parsed + stats.from_cache == stats.files == {files}, stats.to_text()
    found = project.find_definition("helper", "mod_05.py", 6)
    assert (found.status, found.file, found.line) == ("found", "base.py", 1), found.to_dict()
print("ok")
"""


def test_concurrent_indexers_of_one_root(tmp_path: Path):
    root = _repo(tmp_path / "repo")
    for i in range(300):   # enough work for the indexers to overlap
        (root / f"extra_{i:03d}.py").write_text(f"def extra_{i}():\n    return {i}\n" * 20)
    script = _INDEXER.format(files=N_FILES + 1 + 300)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    for round_ in range(3):
        cache = tmp_path / f"cache{round_}"
        if round_ == 2:   # a store of another version is being replaced while the others start
            with Project(root, cache_dir=cache) as project:
                db_path = Path(project.index().cache)
            _edit(db_path, "UPDATE meta SET value = 'older' WHERE key = 'version'")
        runs = [subprocess.Popen([sys.executable, "-c", script, str(root), str(cache)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
        for run in runs:
            out, err = run.communicate(timeout=300)
            assert run.returncode == 0 and out.strip() == "ok", err[-2000:]
