"""Golden files for the text of every graph query and of ``trace`` with each flag.

Regenerate after an intended change with ``CODETRACE_REGEN_GOLDEN=1 pytest tests/graph`` and
review the diff of ``tests/golden/graph/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jupyter_codetrace import Project

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "graph"
REGENERATE = os.environ.get("CODETRACE_REGEN_GOLDEN") == "1"

_PROJECTS: dict[str, Project] = {}


def _project(name: str) -> Project:
    if name not in _PROJECTS:
        _PROJECTS[name] = Project(FIXTURES / name)
    return _PROJECTS[name]


CASES = {
    "deps_main": ("graph_py", lambda p: p.dependencies_of("main.py", "main")),
    "deps_leaf": ("graph_py", lambda p: p.dependencies_of("shop/pricing.py", "round_price")),
    "dependents_round_price": ("graph_py", lambda p: p.dependents_of("shop/pricing.py", "round_price")),
    "dependents_class": ("graph_py", lambda p: p.dependents_of("shop/models.py", "Entity")),
    "dependents_via_import": ("graph_py", lambda p: p.dependents_of("main.py", "place_order")),
    "paths_diamond": ("graph_py", lambda p: p.paths_between(("shop/pricing.py", "total"), ("shop/pricing.py", "round_price"))),
    "paths_reverse": ("graph_py", lambda p: p.paths_between(("shop/pricing.py", "round_price"), ("main.py", "main"))),
    "paths_chain": ("graph_py", lambda p: p.paths_between(("shop/chain.py", "step1"), ("shop/chain.py", "step6"))),
    "paths_mutual_recursion": ("graph_py", lambda p: p.paths_between(("shop/recursion.py", "is_even"), ("shop/recursion.py", "is_odd"))),
    "paths_none": ("graph_py", lambda p: p.paths_between(("shop/chain.py", "step1"), ("shop/recursion.py", "factorial"))),
    "paths_same": ("graph_py", lambda p: p.paths_between(("shop/chain.py", "step1"), ("shop/chain.py", "step1"))),
    "notfound_symbol_in_file": ("graph_py", lambda p: p.dependents_of("shop/pricing.py", "totl")),
    "notfound_wrong_file": ("graph_py", lambda p: p.dependents_of("shop/chain.py", "round_price")),
    "notfound_file": ("graph_py", lambda p: p.dependencies_of("shop/nothing.py", "round_price")),
    "trace_plain": ("graph_py", lambda p: p.trace("Order.checkout")),
    "trace_references": ("graph_py", lambda p: p.trace("total", "shop/orders.py", references=True)),
    "trace_calls": ("graph_py", lambda p: p.trace("total", calls=True)),
    "trace_types": ("graph_py", lambda p: p.trace("Product", types=True)),
    "trace_all": ("graph_py", lambda p: p.trace("place_order", "main.py", references=True, calls=True, types=True)),
    "trace_recursion": ("graph_py", lambda p: p.trace("is_even", calls=True)),
    "trace_not_found": ("graph_py", lambda p: p.trace("plac_order")),
    "ts_deps_report": ("graph_ts", lambda p: p.dependencies_of("src/report.ts", "report")),
    "ts_dependents_shape": ("graph_ts", lambda p: p.dependents_of("src/shapes/shape.ts", "BaseShape")),
    "ts_trace_all": ("graph_ts", lambda p: p.trace("Circle", "src/report.ts", references=True, calls=True, types=True)),
    "ts_trace_interface": ("graph_ts", lambda p: p.trace("Shape", types=True, references=True)),
    "ts_trace_type_guard": ("graph_ts", lambda p: p.trace("isCircle", types=True)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_text_matches_golden(name):
    fixture, query = CASES[name]
    text = query(_project(fixture)).to_text()
    golden = GOLDEN / f"{name}.txt"
    if REGENERATE:
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"{golden.name}: no golden file yet; run with CODETRACE_REGEN_GOLDEN=1 and review it"
    assert text == golden.read_text(encoding="utf-8")


def test_dot_of_a_path_has_clusters_labels_and_styles():
    result = _project("graph_py").paths_between(("main.py", "main"), ("shop/pricing.py", "round_price"))
    dot = result.to_dot()
    assert dot.startswith("digraph codetrace {") and dot.rstrip().endswith("}")
    assert 'label="shop/pricing.py"' in dot and "subgraph cluster_" in dot
    assert '"main.py#main" -> "shop/orders.py#place_order" [label="CALLS"' in dot
    name_only = _project("ts_app").call_graph(include_name_matches=True).to_dot()
    assert "style=dashed" in name_only  # name-matched edges are drawn dashed


def test_svg_is_drawn_by_graphviz():
    from jupyter_codetrace.render import dot

    if not dot.available():
        pytest.skip("graphviz `dot` is not installed (scripts/bootstrap.sh installs it)")
    result = _project("graph_py").paths_between(("shop/pricing.py", "total"), ("shop/pricing.py", "round_price"))
    svg = result._repr_svg_()
    assert svg.lstrip().startswith(("<?xml", "<svg", "<!DOCTYPE")) and "</svg>" in svg
    assert "apply_tax" in svg and "round_price" in svg


def test_without_dot_the_error_says_how_to_install(monkeypatch):
    from jupyter_codetrace import CodetraceError
    from jupyter_codetrace.render import dot

    monkeypatch.setattr(dot.shutil, "which", lambda name: None)
    result = _project("graph_py").paths_between(("shop/pricing.py", "total"), ("shop/pricing.py", "round_price"))
    assert result._repr_svg_() is None
    with pytest.raises(CodetraceError, match="apt-get install graphviz"):
        result.to_svg()
    assert "digraph" in result.to_dot()
