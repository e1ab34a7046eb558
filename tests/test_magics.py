"""The magics in a real IPython shell: every magic and option, usage errors, the live fallback,
results equal to the Python API's, and the rendered Markdown/HTML against golden files
(regenerate: CODETRACE_REGEN_GOLDEN=1)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.testing.globalipapp import get_ipython

from jupyter_codetrace import Project
from jupyter_codetrace.magics import find_root

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "graph_py"
GOLDEN = Path(__file__).resolve().parent / "golden" / "magics"
REGENERATE = os.environ.get("CODETRACE_REGEN_GOLDEN") == "1"


@pytest.fixture(scope="module")
def ip():
    shell = get_ipython()
    shell.run_line_magic("load_ext", "jupyter_codetrace")
    stats = shell.run_line_magic("codetrace", str(FIXTURE))
    assert stats.files >= 10
    return shell


@pytest.fixture(scope="module")
def api():
    return Project(FIXTURE)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGENERATE or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), name


def test_def_by_name_and_by_location(ip, api):
    by_name = ip.run_line_magic("def", "place_order")
    assert by_name.to_dict() == api.trace("place_order").definition.to_dict()
    by_location = ip.run_line_magic("def", "place_order main.py:11")
    assert by_location.to_dict() == api.find_definition("place_order", "main.py", 11).to_dict()
    dotted = ip.run_line_magic("def", "Order.checkout --no-code --no-doc")
    assert (dotted.file, dotted.name, dotted.code, dotted.doc) == ("shop/orders.py", "checkout", None, None)
    _golden("def_place_order.md", by_location._repr_markdown_())


def test_def_modes(ip, api):
    result = ip.run_line_magic("def", "place_order main.py:11 --mode declaration")
    assert result.to_dict() == api.find_definition("place_order", "main.py", 11, mode="declaration").to_dict()
    assert result.mode_resolution == "fell_back_to_definition"


def test_refs(ip, api):
    everything = ip.run_line_magic("refs", "quick_order --include-declaration")
    assert everything.to_dict() == api.find_references("quick_order", "shop/orders.py", 38, 5,
                                                       include_declaration=True).to_dict()
    assert any(r.test for r in everything.references)
    no_tests = ip.run_line_magic("refs", "quick_order --no-tests")
    assert no_tests.references == ()  # its only callers are tests
    at = ip.run_line_magic("refs", "total shop/orders.py:21")
    assert at.to_dict() == api.find_references("total", "shop/orders.py", 21).to_dict()
    _golden("refs_quick_order.html", everything._repr_html_())


def test_trace_flags(ip, api):
    plain = ip.run_line_magic("trace", "total")
    assert plain.to_dict() == api.trace("total").to_dict() and plain._repr_html_() is None
    calls = ip.run_line_magic("trace", "total --calls")
    assert calls.to_dict() == api.trace("total", calls=True).to_dict()
    everything = ip.run_line_magic("trace", "place_order --file main.py --all")
    assert everything.to_dict() == api.trace("place_order", "main.py", True, True, True).to_dict()
    html = everything._repr_html_()
    assert "<details" in html and "Callers (incoming)" in html and "quick_order" in html
    _golden("trace_place_order.html", html)


def test_graph_magics(ip, api):
    path = ip.run_line_magic("paths", "main shop/pricing.py:round_price")
    assert path.to_dict() == api.paths_between(("main.py", "main"), ("shop/pricing.py", "round_price")).to_dict()
    deps = ip.run_line_magic("deps", "total")
    assert deps.to_dict() == api.dependencies_of("shop/pricing.py", "total").to_dict()
    dependents = ip.run_line_magic("dependents", "shop/pricing.py:round_price")
    assert dependents.to_dict() == api.dependents_of("shop/pricing.py", "round_price").to_dict()
    from jupyter_codetrace.render import dot

    if dot.available():
        assert "</svg>" in path._repr_svg_()
    assert path.to_text().startswith("## Graph")


def test_not_found_renders_did_you_mean(ip):
    result = ip.run_line_magic("def", "plac_order")
    assert result.status == "symbol_not_found" and "place_order" in result._repr_markdown_()


def test_live_objects_outside_the_project(ip):
    ip.run_cell("import textwrap")
    outside = ip.run_line_magic("def", "textwrap.dedent")
    assert outside.found and outside.file.endswith("textwrap.py") and "Outside the project" in outside.message
    assert ip.run_line_magic("def", "len").status == "builtin"


@pytest.mark.parametrize("magic, line, words", [
    ("def", "", "symbol"),
    ("def", "place_order main.py:0", "line"),
    ("def", "place_order main.py:11 --mode sideways", "invalid"),
    ("refs", "total shop/orders.py", "FILE:LINE"),
    ("paths", "main", "required"),
    ("deps", "no_such_symbol_anywhere", "not defined"),
    ("codetrace", "/no/such/folder", "not a folder"),
    ("def", "x ../../etc/passwd:1", "outside"),
])
def test_usage_errors(ip, magic, line, words):
    with pytest.raises(UsageError) as error:
        ip.run_line_magic(magic, line)
    assert words in str(error.value)


def test_default_root_is_the_nearest_repository(tmp_path):
    (tmp_path / "repo" / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "repo" / "pyproject.toml").write_text("")
    assert find_root(tmp_path / "repo" / "pkg" / "sub") == (tmp_path / "repo").resolve()
    assert find_root(tmp_path) == tmp_path.resolve()


def test_names_defined_in_earlier_cells_of_this_session(ip):
    ip.run_cell("def session_helper(x):\n    return x + 1\n")
    result = ip.run_line_magic("def", "session_helper")
    assert result.found and result.file.startswith("In[") and "session" in result.message
    assert "return x + 1" in result.code


def test_the_widget_explorer_expands_on_demand(api):
    from jupyter_codetrace.widgets import CallTreeExplorer

    explorer = CallTreeExplorer(api, "total", "shop/pricing.py")
    root = explorer.root
    assert len(root.children) == 1  # nothing fetched yet
    root.toggle(None)
    names = [child.symbol for child in root.children[1:]]
    assert names == ["apply_tax", "subtotal"]
    subtotal = root.children[2]
    subtotal.toggle(None)
    assert [child.symbol for child in subtotal.children[1:]] == ["price_of"]
    root.toggle(None)
    assert len(root.children) == 1
    callers = CallTreeExplorer(api, "round_price", "shop/pricing.py", direction="incoming")
    callers.root.toggle(None)
    assert {child.symbol for child in callers.root.children[1:]} == {"apply_tax", "price_of"}
