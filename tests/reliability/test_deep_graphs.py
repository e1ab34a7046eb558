"""Generated code nests and chains thousands deep: every graph walk stays within its bounds.

A chain of 3,000 functions each calling the next made every call-tree query (``trace`` with
``calls=True``) raise ``RecursionError``; deeply nested code must not either. The rest of the
repository answers as before, and a tree cut at its depth bound says it was truncated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.graph import traverse

MAX_TREE_DEPTH = getattr(traverse, "MAX_TREE_DEPTH", 64)

CHAIN = 3_000
GOOD = "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n"


def _chain_source(n: int) -> str:
    body = "".join(f"def f{i}():\n    return f{i + 1}()\n\n\n" for i in range(n))
    return body + f"def f{n}():\n    return 0\n"


def _depth(entries: list[dict]) -> int:
    depth, level = 0, entries
    while level:  # follows the first child with children: the chain is a single line
        depth += 1
        level = next((e["children"] for e in level if e.get("children")), [])
    return depth


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("deep") / "repo"
    root.mkdir()
    (root / "good.py").write_text(GOOD)
    (root / "chain.py").write_text(_chain_source(CHAIN))
    (root / "parens.py").write_text("from good import helper\n\n\ndef parens():\n    return " + "(" * 5_000 + "helper()" + ")" * 5_000 + "\n")
    (root / "nested.js").write_text("".join(f"function g{i}() {{\n" for i in range(3_000)) + "}\n" * 3_000)
    with Project(root, cache_dir=tmp_path_factory.mktemp("cache")) as project:
        stats = project.index()
        assert stats.files == 4, stats.to_text()
        yield project


@pytest.mark.parametrize("symbol", ["f0", f"f{CHAIN}", f"f{CHAIN // 2}"])
def test_call_trees_of_a_long_chain_are_bounded(project: Project, symbol: str):
    result = project.trace(symbol, "chain.py", calls=True)
    data = result.to_dict()
    calls = data["calls"]
    assert _depth(calls["outgoing"]) <= MAX_TREE_DEPTH and _depth(calls["incoming"]) <= MAX_TREE_DEPTH
    if symbol != f"f{CHAIN}":
        assert _depth(calls["outgoing"]) == MAX_TREE_DEPTH
        assert calls["truncated"] is True
    json.dumps(data)
    assert result.to_text() and result.to_markdown()


def test_graph_queries_over_the_chain(project: Project):
    dependencies = project.dependencies_of("chain.py", "f0")
    assert dependencies.status == "found"
    dependents = project.dependents_of("chain.py", f"f{CHAIN}")
    assert dependents.status == "found"
    json.dumps(dependents.to_dict())
    assert dependents.to_text()
    path = project.paths_between(("chain.py", "f0"), ("chain.py", "f5"))
    assert path.status == "found"
    assert len(path.to_dict()["edges"]) == 5
    far = project.paths_between(("chain.py", "f0"), ("chain.py", "f40"))
    assert far.status == "no_path"  # beyond the contract's depth bound of 12 edges
    graph = project.call_graph().to_dict()
    assert len(graph["nodes"]) > CHAIN


def test_the_rest_of_the_repository_answers(project: Project):
    found = project.find_definition("helper", "good.py", 6)
    assert (found.status, found.file, found.line) == ("found", "good.py", 1)
    assert project.trace("helper", "good.py", calls=True, references=True).to_text()
    callers = {n["name"] for n in project.dependents_of("good.py", "helper").to_dict()["nodes"]}
    assert {"main", "parens"} <= callers
    assert project.trace("g2999", "nested.js", calls=True).to_dict()["definition"]["status"] == "found"
