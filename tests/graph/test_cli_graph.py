"""The graph commands of the `codetrace` CLI: same answers as the Python API, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.cli import main

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"


def _run(capsys, *argv):
    code = main(["--root", str(ROOT), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_deps_text_and_json_equal_the_api(capsys):
    project = Project(ROOT)
    code, out, _ = _run(capsys, "deps", "main.py", "main")
    assert code == 0 and out == project.dependencies_of("main.py", "main").to_text()
    code, out, _ = _run(capsys, "--json", "dependents", "shop/pricing.py", "round_price")
    assert code == 0 and json.loads(out) == project.dependents_of("shop/pricing.py", "round_price").to_dict()


def test_trace_all_flags(capsys):
    code, out, _ = _run(capsys, "trace", "total", "--all")
    assert code == 0
    assert out == Project(ROOT).trace("total", references=True, calls=True, types=True).to_text()


def test_paths_formats(capsys):
    code, out, _ = _run(capsys, "paths", "shop/pricing.py:total", "shop/pricing.py:round_price", "--format", "dot")
    assert code == 0 and out.startswith("digraph codetrace {")
    code, out, _ = _run(capsys, "paths", "shop/chain.py:step1", "shop/recursion.py:factorial")
    assert code == 1 and out == "No path found.\n"


@pytest.mark.parametrize("fmt, start", [("json", "{"), ("dot", "digraph"), ("graphml", "<?xml")])
def test_graph_export(capsys, fmt, start):
    code, out, _ = _run(capsys, "graph", "--format", fmt)
    assert code == 0 and out.lstrip().startswith(start)
    if fmt == "json":
        data = json.loads(out)
        assert any(e["kind"] == "EXTENDS" for e in data["edges"]) and data["status"] == "found"


def test_not_found_and_invalid_input(capsys):
    code, out, _ = _run(capsys, "deps", "shop/chain.py", "round_price")
    assert code == 1 and "shop/pricing.py" in out
    code, _, err = _run(capsys, "paths", "main.py", "shop/chain.py:step1")
    assert code == 2 and "FILE:SYMBOL" in err
    code, _, err = _run(capsys, "deps", "../outside.py", "x")
    assert code == 2 and "outside" in err
