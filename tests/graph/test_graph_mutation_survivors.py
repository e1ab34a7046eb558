"""The graph walks' bounds, pinned where mutation testing found them unchecked (issue 22,
bench/mutation.py): a closure past 400 nodes, more than 10 paths, a call tree of exactly 2,000
entries, a source that reaches more than 5,000 nodes (the path search then measures distances
from the targets' side), and the slack of 3 edges over the shortest path.

Generated but real Python files, parsed and resolved by a real ``Project``; every edge is a
plain call resolved in scope, so the expected answers can be counted by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import Project


def _functions(names: list[str], calls: dict[str, list[str]]) -> str:
    out = []
    for name in names:
        body = [f"    {callee}()" for callee in calls.get(name, [])] or ["    pass"]
        out += [f"def {name}():", *body, "", ""]
    return "\n".join(out)


def _fan_py() -> str:
    """``hub`` calls 5,001 leaves directly, and ``leaf7`` also through 3 and 4 intermediates."""
    leaves = [f"leaf{i}" for i in range(5001)]
    calls = {"hub": leaves + ["v1", "w1"], "v1": ["v2"], "v2": ["v3"], "v3": ["leaf7"],
             "w1": ["w2"], "w2": ["w3"], "w3": ["w4"], "w4": ["leaf7"]}
    return _functions(["hub", "v1", "v2", "v3", "w1", "w2", "w3", "w4", *leaves], calls)


def _trees_py() -> str:
    """``calls2000`` calls exactly 2,000 functions, ``calls2001`` one more; ``calls401`` 401."""
    callees = [f"t{i}" for i in range(2001)]
    calls = {"calls2000": callees[:2000], "calls2001": callees, "calls401": callees[:401]}
    return _functions(["calls2000", "calls2001", "calls401", *callees], calls)


def _paths_py() -> str:
    """12 two-edge paths from ``source`` to ``sink``; ``start`` reaches ``goal`` in 1, 4 and 5 edges."""
    middles = [f"m{i}" for i in range(12)]
    calls = {"source": middles, **{m: ["sink"] for m in middles},
             "start": ["goal", "a1", "b1"], "a1": ["a2"], "a2": ["a3"], "a3": ["goal"],
             "b1": ["b2"], "b2": ["b3"], "b3": ["b4"], "b4": ["goal"]}
    return _functions(["source", *middles, "sink", "start", "a1", "a2", "a3", "b1", "b2", "b3", "b4", "goal"],
                      calls)


@pytest.fixture
def project(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("walks")
    (root / "fan.py").write_text(_fan_py(), encoding="utf-8")
    (root / "trees.py").write_text(_trees_py(), encoding="utf-8")
    (root / "paths.py").write_text(_paths_py(), encoding="utf-8")
    with Project(root, cache_dir=root / ".cache") as opened:
        yield opened


def _ids(nodes) -> list[str]:
    return [node[len(node.split("#")[0]) + 1:] for node in nodes]


def test_a_closure_past_400_nodes_is_cut_and_says_so(project):
    cut = project.dependencies_of("trees.py", "calls401")
    assert cut.status == "found" and cut.truncated is True
    assert len(cut.nodes) == 1 + 400   # the start and the first 400 it reaches
    whole = project.dependencies_of("trees.py", "t5")
    assert whole.status == "found" and whole.truncated is False and len(whole.nodes) == 1
    callers = project.dependents_of("trees.py", "t400")
    assert callers.truncated is False
    assert sorted(n.id for n in callers.nodes) == ["trees.py#calls2000", "trees.py#calls2001",
                                                   "trees.py#calls401", "trees.py#t400"]


def test_a_call_tree_of_2000_entries_is_whole_and_one_more_is_cut(project):
    calls = project.trace("calls2000", "trees.py", calls=True).to_dict()["calls"]
    assert len(calls["outgoing"]) == 2000 and calls["incoming"] == []
    assert calls["truncated"] is False
    calls = project.trace("calls2001", "trees.py", calls=True).to_dict()["calls"]
    assert len(calls["outgoing"]) == 2000
    assert calls["truncated"] is True
    assert [c["symbol"] for c in calls["outgoing"][:3]] == ["t0", "t1", "t10"]   # sorted by name


def test_more_than_ten_paths_show_ten_and_say_so(project):
    result = project.paths_between(("paths.py", "source"), ("paths.py", "sink"))
    assert result.status == "found"
    assert len(result.paths) == 10 and result.truncated is True
    assert all(len(path) == 3 and path[0] == "paths.py#source" and path[-1] == "paths.py#sink"
               for path in result.paths)


def test_paths_up_to_three_edges_longer_than_the_shortest_are_alternatives(project):
    result = project.paths_between(("paths.py", "start"), ("paths.py", "goal"))
    assert result.status == "found" and result.truncated is False
    assert [_ids(path) for path in result.paths] == [["start", "goal"], ["start", "a1", "a2", "a3", "goal"]]


def test_a_source_that_reaches_over_5000_nodes_is_measured_from_the_target(project):
    """``hub`` reaches 5,003 nodes in one edge: the distances come from ``leaf7``'s side, and
    the same slack holds (the 5-edge way through w1..w4 is left out)."""
    result = project.paths_between(("fan.py", "hub"), ("fan.py", "leaf7"))
    assert result.status == "found" and result.truncated is False
    assert [_ids(path) for path in result.paths] == [["hub", "leaf7"], ["hub", "v1", "v2", "v3", "leaf7"]]
    assert project.paths_between(("fan.py", "leaf7"), ("fan.py", "leaf8")).status == "no_path"
