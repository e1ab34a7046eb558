"""A cache file written by someone else cannot run code (issue 16, item 6).

Rows hold data only (index/encoding.py). A row holding a pickle whose ``__reduce__`` writes a
marker file — with a valid checksum, in the facts, the names or the places column, bare or
zlib-wrapped as the old store wrote them — is refused without being run, and its file indexed
again; a store
of the pickling version is discarded whole with the one-time note.
"""

from __future__ import annotations

import pickle
import sqlite3
import zlib
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index.encoding import decode
from jupyter_codetrace.index.store import INDEXER_VERSION, checksum


class _Payload:
    """Unpickling this runs ``code``: what a hostile cache row would hold."""

    def __init__(self, code: str):
        self.code = code

    def __reduce__(self):
        return exec, (self.code,)


def _hostile(marker: Path, wrapped: bool) -> bytes:
    blob = pickle.dumps(_Payload(f"open({str(marker)!r}, 'w').write('ran')"), protocol=pickle.HIGHEST_PROTOCOL)
    return zlib.compress(blob, 1) if wrapped else blob


def test_the_payload_would_run_if_unpickled(tmp_path: Path):
    """The rows below are live: unpickling one does write its marker."""
    marker = tmp_path / "proof"
    pickle.loads(zlib.decompress(_hostile(marker, True)))
    assert marker.read_text() == "ran"


def _repo(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "base.py").write_text("def helper():\n    return 1\n")
    (root / "user.py").write_text("from base import helper\n\n\ndef use():\n    return helper()\n")
    return root


def _answers(project: Project) -> list:
    places = [(m.name, m.file, m.line) for m in project.symbols("use").matches]   # first: read from the store
    d = project.find_definition("helper", "user.py", 5)
    refs = project.find_references("helper", "base.py", 1).to_dict()
    return [(d.status, d.file, d.line), (refs["count"], refs["files"]),
            project.find_definition("use", "user.py", 4).status, places]


@pytest.mark.parametrize("column", ["head", "facts", "names", "places"])
@pytest.mark.parametrize("wrapped", [True, False], ids=["zlib-wrapped", "bare"])
def test_a_pickle_row_is_never_run_and_its_file_is_indexed_again(tmp_path: Path, column: str, wrapped: bool):
    root, cache, marker = _repo(tmp_path / "repo"), tmp_path / "cache", tmp_path / "marker"
    with Project(root, cache_dir=cache) as project:
        db_path = Path(project.index().cache)
        expected = _answers(project)
    db = sqlite3.connect(db_path)
    with db:
        language, digest = db.execute("SELECT language, digest FROM files WHERE path = 'user.py'").fetchone()
        blob = _hostile(marker, wrapped)
        db.execute(f"UPDATE files SET {column} = ?, {column}_sum = ? WHERE path = 'user.py'",
                   (blob, checksum("user.py", language, digest, blob)))   # passes its checksum
    db.close()

    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        assert stats.parsed == (1 if column == "head" else 0), stats.to_text()   # names: mended from the facts
        assert stats.parsed + stats.from_cache == stats.files == 2
        assert _answers(project) == expected
        assert project.index().parsed == 0
    assert not marker.exists(), "a cached pickle was run"

    db = sqlite3.connect(db_path)   # the file was indexed again (or its names mended): its row holds data now
    facts, names, places = db.execute("SELECT facts, names, places FROM files WHERE path = 'user.py'").fetchone()
    db.close()
    assert [row[0] for row in decode(places)[0]] == ["use"]
    assert decode(facts)[0] == "user.py" and "helper" in decode(decode(names, compressed=False)[2], compressed=False)   # names used (v8: as written)
    with Project(root, cache_dir=cache) as project:
        assert project.index().parsed == 0 and _answers(project) == expected
    assert not marker.exists()


def test_a_store_of_the_pickling_version_is_discarded_unread(tmp_path: Path):
    root, cache, marker = _repo(tmp_path / "repo"), tmp_path / "cache", tmp_path / "marker"
    with Project(root, cache_dir=cache) as project:
        db_path = Path(project.index().cache)
        expected = _answers(project)
    db = sqlite3.connect(db_path)
    with db:
        version = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
        assert version.startswith(f"{INDEXER_VERSION}-") and INDEXER_VERSION != "2"
        db.execute("UPDATE meta SET value = ? WHERE key = 'version'", ("2" + version[len(INDEXER_VERSION):],))
        for path, language, digest in db.execute("SELECT path, language, digest FROM files").fetchall():
            blob = _hostile(marker, True)
            db.execute("UPDATE files SET facts = ?, names = ?, facts_sum = ?, names_sum = ? WHERE path = ?",
                       (blob, blob, checksum(path, language, digest, blob), checksum(path, language, digest, blob), path))
    db.close()
    with Project(root, cache_dir=cache) as project:
        stats = project.index()
        assert stats.parsed == stats.files == 2, stats.to_text()
        assert "index built by another version discarded" in (stats.cache_note or ""), stats.to_text()
        assert _answers(project) == expected
        assert project.index().cache_note is None   # said once
    assert not marker.exists(), "a cached pickle was run"
