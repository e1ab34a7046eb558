"""The graph's per-file parts are kept for the next process (graph/persist.py): a restart answers
graph questions without resolving again, and always the same graph as a build from scratch —
after edits made between processes, and whatever happened to the store."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from jupyter_codetrace import Project

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"


def _graph(project: Project):
    g = project.call_graph()
    edges = sorted((e.source, e.target, e.kind, e.line, e.resolution) for e in g.edges)
    nodes = sorted((n.id, n.qualified_name, n.kind, n.line, tuple(n.external_calls)) for n in g.nodes)
    return edges, nodes


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


def test_a_damaged_or_foreign_store_only_costs_time(root, tmp_path):
    with Project(root, cache_dir=tmp_path / "cache") as first:
        built = _graph(first)
    store = next((tmp_path / "cache").glob("*/graph.sqlite"))
    db = sqlite3.connect(store)
    paths = [row[0] for row in db.execute("SELECT path FROM parts ORDER BY path")]
    db.execute("UPDATE parts SET blob = ? WHERE path = ?", (b"\x78\x9cnot a part", paths[0]))
    db.execute("UPDATE parts SET sum = ? WHERE path = ?", (b"0" * 12, paths[1]))
    db.commit()
    db.close()
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert _graph(second) == built
        assert _redone(second) >= 2
    db = sqlite3.connect(store)
    db.execute("UPDATE meta SET value = 'an older engine' WHERE key = 'version'")
    db.commit()
    db.close()
    with Project(root, cache_dir=tmp_path / "cache") as third:
        assert _graph(third) == built
        assert _redone(third) == len(third._context.index.files())
    store.unlink()
    store.mkdir()   # not a database at all
    with Project(root, cache_dir=tmp_path / "cache") as fourth:
        assert _graph(fourth) == built

