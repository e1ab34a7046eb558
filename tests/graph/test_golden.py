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


@pytest.fixture(scope="module", autouse=True)
def _close_projects():
    """The projects are shared by this module's tests, and closed after them (each holds an
    inotify instance: a user has 128)."""
    yield
    while _PROJECTS:
        _PROJECTS.popitem()[1].close()


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
    # The other precise languages: one of each graph query and trace(calls=True) per fixture.
    "rust_deps_print_total": ("rust_app", lambda p: p.dependencies_of("src/report.rs", "print_total")),
    "rust_dependents_value": ("rust_app", lambda p: p.dependents_of("src/units.rs", "Meters.value")),
    "rust_paths_main_value": ("rust_app", lambda p: p.paths_between(("src/main.rs", "main"), ("src/units.rs", "Meters.value"))),
    "rust_trace_calls": ("rust_app", lambda p: p.trace("Circle.new", calls=True)),
    "c_deps_main": ("c_app", lambda p: p.dependencies_of("src/main.c", "main")),
    "c_dependents_is_full": ("c_app", lambda p: p.dependents_of("src/stack.c", "is_full")),
    "c_paths_main_is_full": ("c_app", lambda p: p.paths_between(("src/main.c", "main"), ("src/stack.c", "is_full"))),
    "c_trace_calls": ("c_app", lambda p: p.trace("stack_push", calls=True)),
    "cpp_deps_main": ("cpp_app", lambda p: p.dependencies_of("src/main.cpp", "main")),
    "cpp_dependents_area": ("cpp_app", lambda p: p.dependents_of("include/geo/shape.hpp", "Shape.area")),
    "cpp_paths_main_area": ("cpp_app", lambda p: p.paths_between(("src/main.cpp", "main"), ("include/geo/shape.hpp", "Shape.area"))),
    "cpp_trace_calls": ("cpp_app", lambda p: p.trace("total_area", calls=True)),
    "go_deps_main": ("go_app", lambda p: p.dependencies_of("cmd/app/main.go", "main")),
    "go_dependents_normalise": ("go_app", lambda p: p.dependents_of("models/user.go", "normalise")),
    "go_paths_main_normalise": ("go_app", lambda p: p.paths_between(("cmd/app/main.go", "main"), ("models/user.go", "normalise"))),
    "go_trace_calls": ("go_app", lambda p: p.trace("Greeting", calls=True)),
    "java_deps_greeting": ("java_app", lambda p: p.dependencies_of("src/main/java/com/acme/app/Main.java", "Main.greeting")),
    "java_dependents_get_name": ("java_app", lambda p: p.dependents_of("src/main/java/com/acme/model/User.java", "User.getName")),
    "java_paths_greeting_constructor": ("java_app", lambda p: p.paths_between(("src/main/java/com/acme/app/Main.java", "Main.greeting"), ("src/main/java/com/acme/model/User.java", "User.User"))),
    "java_trace_calls": ("java_app", lambda p: p.trace("Main.greeting", calls=True)),
    "elixir_deps_total": ("elixir_app", lambda p: p.dependencies_of("lib/shop/cart.ex", "total")),
    "elixir_dependents_price": ("elixir_app", lambda p: p.dependents_of("lib/shop/pricing.ex", "price")),
    "elixir_paths_total_discount": ("elixir_app", lambda p: p.paths_between(("lib/shop/cart.ex", "total"), ("lib/shop/pricing.ex", "apply_discount"))),
    "elixir_trace_calls": ("elixir_app", lambda p: p.trace("total", "lib/shop/cart.ex", calls=True)),
    "js_deps_main": ("js_app", lambda p: p.dependencies_of("src/main.js", "main")),
    "js_dependents_a": ("js_app", lambda p: p.dependents_of("src/lib.js", "a")),
    "js_paths_main_report": ("js_app", lambda p: p.paths_between(("src/main.js", "main"), ("src/counter.js", "Counter.report"))),
    "js_trace_calls": ("js_app", lambda p: p.trace("increment", "src/counter.js", calls=True)),
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
