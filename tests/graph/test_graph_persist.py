"""The graph's per-file parts are kept for the next process (graph/persist.py): a restart answers
graph questions without resolving again, and always the same graph as a build from scratch —
after edits made between processes, and whatever happened to the store."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_codetrace import Project

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"


def _graph(project: Project):
    g = project.call_graph()
    edges = sorted((e.source, e.target, e.kind, e.line, e.resolution) for e in g.edges)
    nodes = sorted((n.id, n.qualified_name, n.kind, n.line, tuple(n.external_calls)) for n in g.nodes)
    return edges, nodes


def _from_snapshot(project: Project) -> bool:
    """The graph came whole from the snapshot: its arrays are the snapshot's, and no file's part
    was decoded (a part from the snapshot carries what an update needs, not its edges)."""
    graph = project._context._code_graph
    return graph.graph._base is not None and graph.graph.number_of_edges() > 0 \
        and all(fg.edges == [] for fg in graph.files.values())


def _redone(project: Project) -> int:
    return project._context._code_graph.last_rebuilt


@pytest.fixture
def root(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "graph_py")
    return tmp_path / "graph_py"


def _scratch(root: Path, tmp_path: Path, name: str):
    with Project(root, cache_dir=tmp_path / name) as fresh:
        return _graph(fresh)


def test_a_new_process_loads_the_parts_and_redoes_nothing(root, tmp_path):
    with Project(root, cache_dir=tmp_path / "cache") as first:
        built = _graph(first)
        assert _redone(first) == len(first._context.index.files())
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert _graph(second) == built
        assert _redone(second) == 0
        assert second.dependents_of("shop/pricing.py", "round_price").found


def test_edits_between_processes_redo_what_they_touch(root, tmp_path):
    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    pricing = root / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text(encoding="utf-8") + "\n\ndef audit(order):\n    return round_price(order)\n",
                       encoding="utf-8")
    (root / "shop" / "chain.py").unlink()
    with Project(root, cache_dir=tmp_path / "cache") as second:
        after = _graph(second)
        assert 0 < _redone(second) < len(second._context.index.files())
    assert after == _scratch(root, tmp_path, "scratch")
    assert any(e[0] == "shop/pricing.py#audit" and e[1] == "shop/pricing.py#round_price" for e in after[0])
    assert not any("shop/chain.py" in n[0] for n in after[1])


def test_a_function_appended_between_processes_redoes_that_file_alone(root, tmp_path):
    """What a changed file named when its part was made is kept with the part: a new process
    redoes what one process would (here the file alone: no other file names the new function),
    not every file that read a name it names."""
    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    pricing = root / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text(encoding="utf-8") + "\n\ndef discount(value):\n    return value * 0.9\n",
                       encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache") as second:
        after = _graph(second)
        assert _redone(second) == 1
    assert after == _scratch(root, tmp_path, "scratch")
    assert any(n[0] == "shop/pricing.py#discount" for n in after[1])


def test_a_caller_passing_another_function_between_processes_moves_the_callee_edges(tmp_path):
    """Value flow across a restart: `apply_all(items, transform)` calls what its callers pass;
    a caller edited while no process ran (a body edit: same names defined, other names used)
    redoes the callee's file in the next process, as within one."""
    root = tmp_path / "py_flow"
    shutil.copytree(FIXTURE.parent / "py_flow", root)
    with Project(root, cache_dir=tmp_path / "cache") as first:
        before = first.dependencies_of("shop/handlers.py", "apply_all").to_dict()["edges"]
        assert any(e["target"] == "shop/handlers.py#on_create" for e in before)
    main = root / "main.py"
    main.write_text(main.read_text(encoding="utf-8").replace('apply_all(["a"], on_create)', 'apply_all(["a"], make_pricer)'),
                    encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache") as second:
        edges = {(e["source"], e["target"]) for e in second.dependencies_of("shop/handlers.py", "apply_all").to_dict()["edges"]}
        whole = _graph(second)
        assert _redone(second) < len(second._context.index.files())
    assert ("shop/handlers.py#apply_all", "shop/handlers.py#make_pricer") in edges
    assert ("shop/handlers.py#apply_all", "shop/handlers.py#on_create") not in edges
    assert whole == _scratch(root, tmp_path, "scratch")


def test_names_kept_damaged_or_missing_only_cost_time(root, tmp_path):
    """A changed file whose kept names fail their checksum, are of another shape or are gone is
    taken to have named all it names now: more files are redone, the graph is the same."""
    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    pricing = root / "shop" / "pricing.py"
    original = pricing.read_text(encoding="utf-8")
    for n, damage in enumerate((("UPDATE used_names SET sum = ? WHERE path = 'shop/pricing.py'", (b"0" * 12,)),
                                "DELETE FROM used_names WHERE path = 'shop/pricing.py'")):
        _sql(_store(tmp_path), damage)
        pricing.write_text(original + f"\n\ndef discount_{n}(value):\n    return value * 0.9\n", encoding="utf-8")
        with Project(root, cache_dir=tmp_path / "cache") as second:
            after = _graph(second)
            assert _redone(second) > 1
        assert after == _scratch(root, tmp_path, f"scratch-{n}")


def test_kept_names_of_another_shape_or_digest_are_not_read(tmp_path):
    from jupyter_codetrace.graph.persist import GraphStore, _checksum

    store, digest = GraphStore(tmp_path / "graph.sqlite", "v1"), "d" * 32

    def keep(blob: bytes, at: str = digest) -> None:
        row = ("a.py", at, blob, _checksum("a.py", at, blob))
        assert store.write(lambda db: db.execute("INSERT OR REPLACE INTO used_names VALUES (?, ?, ?, ?)", row))

    keep(b"\x92\xa1x\xa1y")   # ("x", "y")
    assert store.used_names({"a.py": digest}) == {"a.py": frozenset({"x", "y"})}
    assert store.used_names({"a.py": "e" * 32}) == {}   # kept for another version of the file
    for blob in (b"\xc0", b"\x92\x01\x02", b"\xa1x", b"not msgpack at all"):   # nil, numbers, a string, bytes
        keep(blob)
        assert store.used_names({"a.py": digest}) == {}


def _store(tmp_path: Path) -> Path:
    stores = list((tmp_path / "cache").glob("*/graph-*.sqlite"))
    assert len(stores) == 1, stores
    return stores[0]


def _sql(store: Path, *statements) -> None:
    db = sqlite3.connect(store)
    for statement in statements:
        db.execute(*statement) if isinstance(statement, tuple) else db.execute(statement)
    db.commit()
    db.close()


def test_a_restart_reads_the_snapshot_and_an_edit_then_redoes_what_it_touches(root, tmp_path):
    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    with Project(root, cache_dir=tmp_path / "cache") as second:
        # a class's dependents start from its members: their ids come from the snapshot
        before = second.dependents_of("shop/models.py", "Entity")
        assert before.found and _redone(second) == 0
        assert _from_snapshot(second)
        pricing = root / "shop" / "pricing.py"
        pricing.write_text(pricing.read_text(encoding="utf-8") + "\n\ndef audit(order):\n    return round_price(order)\n",
                           encoding="utf-8")
        second.index()
        after = _graph(second)
        assert 0 < _redone(second) < len(second._context.index.files())
    assert after == _scratch(root, tmp_path, "scratch")
    assert any(e[0] == "shop/pricing.py#audit" for e in after[0])
    with Project(root, cache_dir=tmp_path / "cache") as third:   # the closed project kept its snapshot
        assert _graph(third) == after
        assert _redone(third) == 0 and _from_snapshot(third)


def _counted_again(graph) -> dict[str, int]:
    """The node names of every file's part, counted from scratch (as a first update counts them)."""
    counts: dict[str, int] = {}
    for _path, names in graph.files.names():
        for name in names:
            if name.endswith("()"):
                counts[name[:-2]] = counts.get(name[:-2], 0) + 1
    return counts


def test_a_restart_counts_node_names_from_the_snapshot_and_keeps_them_counted(root, tmp_path):
    """The names of the project's nodes (a read of another name is never resolved) with how many
    files define each: kept in the snapshot, changed per file by the saves that add, remove or
    rename functions and by files that go, and written again with the next snapshot."""
    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    pricing, chain = root / "shop" / "pricing.py", root / "shop" / "chain.py"
    original = pricing.read_text(encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert second.dependents_of("shop/pricing.py", "round_price").found and _redone(second) == 0
        graph = second._context._code_graph
        assert not graph._node_names_made and graph._stored_node_names is not None
        pricing.write_text(original.replace("def round_price(", "def rounded_price(") + "\n\ndef audit(order):\n"
                           "    return rounded_price(order)\n", encoding="utf-8")
        chain.unlink()
        second.index()
        edited = _graph(second)
        assert 0 < _redone(second) < len(second._context.index.files())
        assert graph._node_names_made and graph._node_names == _counted_again(graph)
        assert "audit" in graph._node_names and "rounded_price" in graph._node_names
        assert "round_price" not in graph._node_names
    assert edited == _scratch(root, tmp_path, "scratch")
    with Project(root, cache_dir=tmp_path / "cache") as third:   # the counts the second one wrote
        assert _graph(third) == edited and _redone(third) == 0
        graph = third._context._code_graph
        pricing.write_text(original, encoding="utf-8")
        third.index()
        assert _graph(third) == _scratch(root, tmp_path, "scratch-again")
        assert graph._node_names == _counted_again(graph) and "round_price" in graph._node_names


def test_a_restart_makes_no_file_part_until_a_change_asks_for_it(root, tmp_path):
    def made(project) -> set[str]:
        files = project._context._code_graph.files
        return {path for path in files if type(dict.__getitem__(files, path)) is not tuple}

    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert second.dependents_of("shop/models.py", "Entity").found   # its members: models.py's part
        assert made(second) == {"shop/models.py"}
        pricing = root / "shop" / "pricing.py"
        pricing.write_text(pricing.read_text(encoding="utf-8") + "\n# a comment: the interface is kept\n",
                           encoding="utf-8")
        second.index()
        assert second.dependents_of("shop/pricing.py", "round_price").found
        assert made(second) == {"shop/models.py", "shop/pricing.py"} and _redone(second) == 1
        # a function added: the files that read pricing.py's names are looked for by what each
        # part read, without making the others' parts
        pricing.write_text(pricing.read_text(encoding="utf-8") + "\n\ndef audit(order):\n    return 1\n",
                           encoding="utf-8")
        second.index()
        assert second.dependents_of("shop/pricing.py", "audit").found
        graph = second._context._code_graph
        assert made(second) == {"shop/models.py", "shop/pricing.py"} and _redone(second) == 1
        assert all(type(dict.__getitem__(graph.files, p)[3]) is frozenset
                   for p in graph.files if p not in made(second))   # (each read decoded once)
        after = _graph(second)
    assert after == _scratch(root, tmp_path, "scratch")


def test_a_damaged_or_foreign_store_only_costs_time(root, tmp_path):
    with Project(root, cache_dir=tmp_path / "cache") as first:
        built = _graph(first)
    store = _store(tmp_path)
    snapshot = _snapshot(tmp_path)
    snapshot.write_bytes(snapshot.read_bytes()[:-12] + bytes(12))   # its seal
    with Project(root, cache_dir=tmp_path / "cache") as second:   # the parts stand in for it
        assert _graph(second) == built
        assert _redone(second) == 0
    db = sqlite3.connect(store)
    paths = [row[0] for row in db.execute("SELECT path FROM parts ORDER BY path")]
    db.close()
    snapshot.unlink()
    _sql(store, ("UPDATE parts SET blob = ? WHERE path = ?", (b"\x78\x9cnot a part", paths[0])),
         ("UPDATE parts SET sum = ? WHERE path = ?", (b"0" * 12, paths[1])))
    with Project(root, cache_dir=tmp_path / "cache") as third:
        assert _graph(third) == built
        assert _redone(third) >= 2
    _sql(store, "DELETE FROM parts WHERE path = '%s'" % paths[2])
    with Project(root, cache_dir=tmp_path / "cache") as fourth:   # a snapshot without the part of a changed file
        (root / paths[2]).write_text((root / paths[2]).read_text(encoding="utf-8") + "\n", encoding="utf-8")
        fourth.index()
        assert _graph(fourth) == built
    _sql(store, "UPDATE meta SET value = 'an older engine' WHERE key = 'version'")
    head, rest = snapshot.read_bytes().split(b"\n", 1)   # the snapshot it wrote says so too
    snapshot.write_bytes(b"codetrace graph snapshot an older engine\n" + rest)
    with Project(root, cache_dir=tmp_path / "cache") as fifth:
        assert _graph(fifth) == built
        assert _redone(fifth) == len(fifth._context.index.files())
    store.unlink()
    store.mkdir()   # not a database at all
    with Project(root, cache_dir=tmp_path / "cache") as sixth:
        assert _graph(sixth) == built


_CHILD = """
import json, sys
from jupyter_codetrace import Project
with Project(sys.argv[1], cache_dir=sys.argv[2]) as project:
    project.dependents_of("shop/pricing.py", "round_price")
    print(json.dumps(project._context._code_graph.last_rebuilt))
"""


def test_processes_of_different_interpreters_keep_their_own_store(root, tmp_path):
    """A kernel, the server and the CLI import from different paths (their libraries differ):
    taking turns on one project, none of them empties the store of another."""
    elsewhere = tmp_path / "site"
    elsewhere.mkdir()

    def run(extra_path: str) -> int:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (extra_path, os.environ.get("PYTHONPATH", "")) if p)}
        done = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(tmp_path / "cache")], env=env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    files = len(list(root.rglob("*.py")))
    assert run("") == files
    assert run(str(elsewhere)) == files      # another interpreter path: its own store
    assert run("") == 0
    assert run(str(elsewhere)) == 0
    assert len(list((tmp_path / "cache").glob("*/graph-*.sqlite"))) == 2


def test_a_build_that_writes_the_snapshot_then_answers_from_its_arrays(root, tmp_path, monkeypatch):
    from jupyter_codetrace.graph import build

    monkeypatch.setattr(build, "_SNAPSHOT_NOW", 0)   # as a build of many files: the snapshot is written at once
    with Project(root, cache_dir=tmp_path / "cache") as first:
        built = _graph(first)
        assert first._context._code_graph.graph._base is not None   # the build's objects were let go
        assert built == _scratch(root, tmp_path, "scratch")
        pricing = root / "shop" / "pricing.py"
        pricing.write_text(pricing.read_text(encoding="utf-8") + "\n\ndef audit(order):\n    return round_price(order)\n",
                           encoding="utf-8")
        first.index()
        after = _graph(first)
        assert any(e[0] == "shop/pricing.py#audit" for e in after[0])
        assert after == _scratch(root, tmp_path, "scratch-edit")
        (root / "shop" / "chain.py").unlink()
        first.index()
        gone = _graph(first)
        assert gone != after and gone == _scratch(root, tmp_path, "scratch-gone")


def _snapshot(tmp_path: Path) -> Path:
    snapshot = _store(tmp_path).with_suffix(".snapshot")
    assert snapshot.is_file()
    return snapshot


def test_a_snapshot_torn_damaged_or_of_another_engine_is_not_read(root, tmp_path):
    from jupyter_codetrace.graph.persist import store_for

    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
        store = store_for(first._context.index, first._context.libraries)
    whole = store.load_snapshot()
    assert whole is not None
    written = _snapshot(tmp_path).read_bytes()
    head = written[:written.index(b"\n") + 1]
    flipped = bytearray(written)
    flipped[len(head) + 100] ^= 1
    for damaged in (written[:-1], written + b"\x00", bytes(flipped), written[:len(head) + 50],   # torn, longer, a bit
                    head, b"", written.replace(b"graph snapshot ", b"graph snapshot x", 1),      # no body, no head, other engine
                    b"codetrace graph snapshot " + head[25:-1] + b"x\n" + written[len(head):]):
        _snapshot(tmp_path).write_bytes(damaged)
        assert store.load_snapshot() is None
    assert store.save_snapshot(whole) and store.load_snapshot() == whole   # written again whole
    assert _snapshot(tmp_path).read_bytes() == written
    assert not list(_snapshot(tmp_path).parent.glob("*.tmp"))   # written beside, then renamed
    _snapshot(tmp_path).unlink()
    assert store.load_snapshot() is None and not store.has_snapshot()


def test_a_snapshot_that_cannot_be_written_only_costs_time(root, tmp_path, monkeypatch):
    from jupyter_codetrace.graph import persist

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    with Project(root, cache_dir=tmp_path / "cache") as first:
        built = _graph(first)
    _snapshot(tmp_path).unlink()
    monkeypatch.setattr(persist.os, "replace", full_disk)
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert _graph(second) == built and _redone(second) == 0   # from the parts
    assert not _store(tmp_path).with_suffix(".snapshot").exists()
    assert not list(_store(tmp_path).parent.glob("*.tmp"))
    monkeypatch.undo()
    with Project(root, cache_dir=tmp_path / "cache") as third:
        assert _graph(third) == built and _redone(third) == 0
    assert _snapshot(tmp_path)


def test_the_snapshot_rows_of_earlier_versions_are_dropped(root, tmp_path):
    with Project(root, cache_dir=tmp_path / "cache") as first:
        _graph(first)
    _sql(_store(tmp_path), "CREATE TABLE snapshot (id INTEGER PRIMARY KEY, blob BLOB NOT NULL, sum BLOB NOT NULL)",
         "INSERT INTO snapshot VALUES (1, zeroblob(1000), x'00')",
         "CREATE TABLE snapshot_pieces (id INTEGER PRIMARY KEY, blob BLOB NOT NULL)",
         "INSERT INTO snapshot_pieces VALUES (1, zeroblob(1000))")
    pricing = root / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text(encoding="utf-8") + "\n# saved\n", encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache") as second:   # its part is written: the database opened
        _graph(second)
    db = sqlite3.connect(_store(tmp_path))
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    assert "snapshot" not in tables and "snapshot_pieces" not in tables and "used_names" in tables


def test_a_build_from_nothing_stores_its_parts_as_it_goes(root, tmp_path, monkeypatch):
    from jupyter_codetrace.graph import build, persist

    monkeypatch.setattr(build, "_SAVE_EVERY", 2)
    saves = []
    save = persist.GraphStore.save
    monkeypatch.setattr(persist.GraphStore, "save", lambda self, parts, *rest: (saves.append(len(parts)),
                                                                                 save(self, parts, *rest)))
    with Project(root, cache_dir=tmp_path / "cache") as first:
        built = _graph(first)
        files = len(first._context.index.files())
    assert len(saves) > 2 and max(saves) <= 2 and sum(saves) == files
    _snapshot(tmp_path).unlink()   # the parts alone stand for the graph
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert _graph(second) == built and _redone(second) == 0


def test_old_stores_go_with_their_snapshots_and_a_write_left_half_done_goes_later(tmp_path):
    """Beyond the stores of the few interpreters last used, a store's files go, its snapshot
    with them; a snapshot written by a process stopped before its rename is removed once old."""
    import time

    from jupyter_codetrace.index import side_store

    folder = tmp_path / "root-cache"
    folder.mkdir()
    stores = []
    for n in range(side_store._KEEP_STORES + 2):   # oldest first
        store = folder / f"graph-{n:012x}.sqlite"
        store.write_bytes(b"")
        store.with_suffix(".snapshot").write_bytes(b"")
        stamp = time.time() - 1000 + n
        os.utime(store, (stamp, stamp))
        stores.append(store)
    stale, fresh = folder / "graph-000000000001.snapshot.1-ab.tmp", folder / "graph-000000000002.snapshot.2-cd.tmp"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"being written")
    os.utime(stale, (time.time() - 2 * side_store._LEFT_BEHIND_S,) * 2)
    side_store._forget_old_files(folder, "graph", stores[-1])
    kept = sorted(p.name for p in folder.iterdir())
    expected = {s.name for s in stores[-side_store._KEEP_STORES:]} | {
        s.with_suffix(".snapshot").name for s in stores[-side_store._KEEP_STORES:]} | {fresh.name}
    assert set(kept) == expected
