"""The magics in a real IPython shell: every magic and option, usage errors, the live fallback,
results equal to the Python API's, and the rendered Markdown/HTML against golden files
(regenerate: CODETRACE_REGEN_GOLDEN=1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import inspect
import textwrap

import pytest
from IPython.core.error import UsageError
from IPython.core.formatters import DisplayFormatter
from IPython import get_ipython as current_shell
from IPython.testing.globalipapp import get_ipython

from jupyter_codetrace import Project
from jupyter_codetrace.magics import CodetraceMagics, find_root

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "graph_py"
GOLDEN = Path(__file__).resolve().parent / "golden" / "magics"
REGENERATE = os.environ.get("CODETRACE_REGEN_GOLDEN") == "1"


@pytest.fixture(scope="module")
def ip():
    # the test shell is started once per process; a second start answers None, then it is IPython's current one
    shell = get_ipython() or current_shell()
    shell.run_line_magic("load_ext", "jupyter_codetrace")
    stats = shell.run_line_magic("codetrace", str(FIXTURE))
    assert stats.files >= 10
    return shell


@pytest.fixture(scope="module")
def api():
    return Project(FIXTURE)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{name}: no golden file yet; run with CODETRACE_REGEN_GOLDEN=1 and review it"
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
    refs = ip.run_line_magic("refs", "plac_order")
    assert type(refs).__name__ == "ReferencesResult" and refs.status == "symbol_not_found"
    assert refs.to_markdown().startswith("# References") and "place_order" in refs.to_markdown()


def test_live_objects_outside_the_project(ip):
    ip.run_cell("import textwrap")
    outside = ip.run_line_magic("def", "textwrap.dedent")
    assert outside.found and outside.file == "textwrap.py" and outside.library["kind"] == "stdlib"
    assert "Outside the project: stdlib" in outside.message
    assert outside.line == inspect.getsourcelines(textwrap.dedent)[1]
    assert ip.run_line_magic("def", "len").status == "builtin"
    refs = ip.run_line_magic("refs", "textwrap.dedent")   # the demo never calls it
    assert refs.status == "found" and refs.references == () and refs.definition.file == "textwrap.py"
    # compiled code has no source, in the engine or in the kernel
    ip.run_cell("import math")
    assert ip.run_line_magic("def", "math.sqrt").status == "builtin"


def test_library_names_in_a_notebook_session(ip):
    ip.run_cell("import json\nimport networkx as nx")
    dumps = ip.run_line_magic("def", "json.dumps")
    assert (dumps.file, dumps.library["package"]) == ("json/__init__.py", "python")
    add_edge = ip.run_line_magic("def", "nx.DiGraph.add_edge")
    assert add_edge.found and add_edge.file == "networkx/classes/digraph.py" and add_edge.kind == "method"
    assert add_edge.library["package"] == "networkx"
    assert "networkx/classes/digraph.py" in add_edge._repr_markdown_()


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


def test_default_root_follows_the_running_notebook(ip, tmp_path, monkeypatch):
    (tmp_path / "repo" / "analysis").mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "repo" / "analysis" / "report.ipynb"))
    monkeypatch.delitem(ip.user_ns, "__session__", raising=False)
    magics = CodetraceMagics(ip)
    assert Path(magics.project.root) == (tmp_path / "repo").resolve()
    magics.close()
    monkeypatch.delenv("JPY_SESSION_NAME")
    monkeypatch.chdir(tmp_path / "repo" / "analysis")
    magics = CodetraceMagics(ip)
    assert Path(magics.project.root) == (tmp_path / "repo").resolve()  # the working directory's repository
    magics.close()


def test_names_defined_in_earlier_cells_of_this_session(ip):
    # store_history=True is what a kernel does for every cell: `In` then holds them.
    ip.run_cell("def session_helper(x):\n    return x + 1\n", store_history=True)
    first = ip.execution_count - 1
    ip.run_cell("%time session_total = session_helper(1)\n!true\nsession_rate = 3\n", store_history=True)
    ip.run_cell("def session_helper(x):\n    return x + 2\n", store_history=True)
    last = ip.execution_count - 1
    ip.run_cell("session_total = session_helper(session_rate)\n", store_history=True)
    result = ip.run_line_magic("def", "session_helper")
    # the binding in force now: the later definition
    assert (result.status, result.file, result.line, result.kind) == ("found", f"In[{last}]", 1, "function")
    assert "return x + 2" in result.code and "session" in result.message
    assert f"In[{last}]:1:5" in result.to_text() or f"In[{last}]" in result.to_markdown()
    variable = ip.run_line_magic("def", "session_rate")
    assert (variable.status, variable.file, variable.line, variable.kind) == ("found", f"In[{first + 1}]", 3, "variable")
    refs = ip.run_line_magic("refs", "session_helper")
    assert [(r.file, r.line, r.usage) for r in refs.references] == [(f"In[{last + 1}]", 1, "call")]
    assert refs.definition.file == f"In[{last}]"
    assert "In[" in refs._repr_html_()


def test_cells_run_without_history_are_found_through_the_compiler_cache(ip, monkeypatch):
    # nbval and some front ends run cells with store_history=False: `In` stays empty
    monkeypatch.setitem(ip.user_ns, "In", [""])
    ip.run_cell("quiet_rate = 4\ndef quiet_helper(x):\n    return x * quiet_rate\n")
    ip.run_cell("quiet_helper(2)\n")
    result = ip.run_line_magic("def", "quiet_helper")
    assert result.found and result.file.startswith("session cell ") and (result.line, result.kind) == (2, "function")
    refs = ip.run_line_magic("refs", "quiet_rate")
    assert [(r.line, r.usage) for r in refs.references] == [(3, "read")]
    assert refs.references[0].file == result.file and refs.definition.file == result.file


def test_a_cell_that_history_no_longer_holds_is_still_this_session(ip):
    ip.run_cell("def unsaved_helper():\n    return 7\n")  # store_history=False: not in `In`
    result = ip.run_line_magic("def", "unsaved_helper")
    assert result.found and result.file.startswith("In[") and "session" in result.message
    assert "return 7" in result.code


def test_live_instances_show_their_class_and_nothing_is_evaluated(ip):
    ip.run_cell("import fractions\nhalf = fractions.Fraction(1, 2)\nnumber = 5")
    instance = ip.run_line_magic("def", "half")
    assert instance.found and instance.name == "Fraction" and "instance" in instance.message
    assert ip.run_line_magic("def", "number").status == "builtin"
    unknown = ip.run_line_magic("def", "open('x').read")  # not a name: never evaluated
    assert unknown.status == "symbol_not_found"


@pytest.fixture
def notebook_project(ip, copy_fixture):
    """A repository whose notebook has markdown cells, an empty cell, line magics, shell escapes
    and a cell magic; the kernel's root is switched to it for the test and back afterwards."""
    root = copy_fixture("python_app")
    cells = [("markdown", "# Explore"), ("code", "from app.models import User\n%matplotlib inline\n!ls"),
             ("code", ""), ("markdown", "Make one:"), ("code", "files = !ls\ndef make(name):\n    return User(name)"),
             ("code", "%%bash\necho make"), ("code", "u = make('ada')\n%time u.save()")]
    (root / "explore.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": kind, "metadata": {}, "source": source,
         **({"outputs": [], "execution_count": None} if kind == "code" else {})} for kind, source in cells]}))
    ip.run_line_magic("codetrace", str(root))
    with Project(root) as api:
        yield api
    ip.run_line_magic("codetrace", str(FIXTURE))


def test_notebook_cells_in_magics(ip, notebook_project):
    api = notebook_project
    by_name = ip.run_line_magic("def", "make")
    assert (by_name.file, by_name.cell, by_name.line) == ("explore.ipynb", 4, 2)
    assert "explore.ipynb cell 4, line 2" in by_name._repr_markdown_()
    at_cell = ip.run_line_magic("def", "make explore.ipynb:1:5 --cell 6")
    assert at_cell.to_dict() == api.find_definition("make", "explore.ipynb", 1, 5, cell=6).to_dict()
    assert (at_cell.cell, at_cell.line) == (4, 2)
    into_module = ip.run_line_magic("def", "User explore.ipynb:1:24 --cell 1")
    assert (into_module.file, into_module.cell) == ("app/models.py", None)
    refs = ip.run_line_magic("refs", "make")
    assert refs.to_dict() == api.find_references("make", "explore.ipynb", 2, 5, cell=4).to_dict()
    assert [(r.cell, r.line, r.usage) for r in refs.references] == [(6, 1, "call")]
    assert "cell 6, 1:" in refs._repr_html_()
    _golden("refs_make_in_notebook.md", refs._repr_markdown_())
    at_refs = ip.run_line_magic("refs", "make explore.ipynb:1:5 --cell 6 --include-declaration")
    assert at_refs.to_dict() == api.find_references("make", "explore.ipynb", 1, 5, True, cell=6).to_dict()
    with pytest.raises(UsageError, match="not a code cell"):
        ip.run_line_magic("def", "make explore.ipynb:1 --cell 0")
    with pytest.raises(UsageError, match="--cell"):
        ip.run_line_magic("def", "make --cell 4")


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


def test_the_explorer_shows_a_definition_on_click(api):
    from jupyter_codetrace.widgets import CallTreeExplorer

    explorer = CallTreeExplorer(api, "total", "shop/pricing.py")
    explorer.root.toggle(None)
    explorer.root.children[1].show_definition(None)  # apply_tax
    (shown,) = explorer.detail.outputs
    # the terminal test shell formats text/plain only; a kernel adds the Markdown card
    assert shown["data"]["text/plain"] == api.trace("apply_tax", "shop/pricing.py").definition.to_text().rstrip("\n")
    missing = CallTreeExplorer(api, "no_such_symbol_anywhere")
    assert "symbol_not_found" in missing.children[0].value


def test_trace_explore_opens_the_explorer_and_switches_direction(ip):
    explorer = ip.run_line_magic("trace", "round_price --explore")
    assert repr(explorer).startswith("CallTreeExplorer: callees (outgoing) of round_price (shop/pricing.py)")
    explorer.switch.value = "incoming"
    explorer.root.toggle(None)
    assert {child.symbol for child in explorer.root.children[1:]} == {"apply_tax", "price_of"}


def _formats(result) -> dict:
    """Every MIME type a notebook front end gets (the terminal test shell enables text/plain only)."""
    return DisplayFormatter().format(result)[0]


def test_every_output_has_plain_text_and_graphs_draw_as_svg(ip):
    for line in ("def place_order", "refs quick_order", "trace total --calls", "deps total", "codetrace"):
        magic, _, rest = line.partition(" ")
        data = _formats(ip.run_line_magic(magic, rest))
        assert data["text/plain"] and not data["text/plain"].startswith("<"), line
    graph = ip.run_line_magic("paths", "main shop/pricing.py:round_price")
    data = _formats(graph)
    # Markdown ranks above SVG in JupyterLab: it must be absent for the diagram to show
    assert sorted(data) == ["image/svg+xml", "text/plain"] and data["text/plain"] == graph.to_text().rstrip("\n")


def test_without_graphviz_graphs_say_how_to_install_it(ip, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` on this PATH
    graph = ip.run_line_magic("paths", "main shop/pricing.py:round_price")
    data = _formats(graph)
    assert sorted(data) == ["text/markdown", "text/plain"]
    assert "apt-get install graphviz" in data["text/markdown"] and graph.to_text() in data["text/markdown"]
    _golden("paths_main_round_price_no_dot.md", data["text/markdown"])


def test_help_and_unload(ip):
    help_text = ip.find_line_magic("def").__doc__
    assert "%def [--cell CELL]" in help_text and "--mode" in help_text and "--no-doc" in help_text
    ip.run_line_magic("unload_ext", "jupyter_codetrace")
    assert ip.find_line_magic("def") is None and "CodetraceMagics" not in ip.magics_manager.registry
    ip.run_line_magic("load_ext", "jupyter_codetrace")
    ip.run_line_magic("codetrace", str(FIXTURE))
    assert ip.run_line_magic("def", "place_order").found


def test_tutorial_notebooks_were_run_top_to_bottom():
    """Stored outputs come from one fresh run (`jupyter nbconvert --execute --inplace`): the code
    cells are numbered 1..n in order, none left unrun. nbval (in the normal pytest run) then
    compares every stored output with a new run."""
    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert names[:6] == ["01-getting-started.ipynb", "02-definitions.ipynb", "03-references.ipynb",
                         "04-trace-and-call-trees.ipynb", "05-paths-and-diagrams.ipynb", "06-notebooks-as-code.ipynb"]
    for name in names:
        cells = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))["cells"]
        counts = [c["execution_count"] for c in cells if c["cell_type"] == "code"]
        assert counts == list(range(1, len(counts) + 1)), f"{name}: re-run it with nbconvert --execute --inplace"


def test_a_notebook_with_stale_outputs_fails_the_normal_run(tmp_path):
    """The pytest configuration (strict --nbval with the sanitizer) rejects a notebook whose
    source changed after its outputs were stored, and accepts the same notebook run afresh."""
    def notebook(source: str, output: str) -> str:
        return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {
            "name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [{
                "id": "only", "cell_type": "code", "metadata": {}, "source": source, "execution_count": 1,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": output}]}]})

    (tmp_path / "fresh.ipynb").write_text(notebook("print(6 * 7)", "42\n"))
    (tmp_path / "stale.ipynb").write_text(notebook("print(6 * 8)", "42\n"))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT),
                          str(tmp_path / "fresh.ipynb"), str(tmp_path / "stale.ipynb")],
                         cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert "1 failed, 1 passed" in run.stdout, run.stdout[-2000:]
    assert "Cell outputs differ" in run.stdout and "print(6 * 8)" in run.stdout
