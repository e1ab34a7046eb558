"""A position without a name (an editor cursor, an agent's line/character) means the
identifier under it."""

from pathlib import Path

import pytest

from jupyter_codetrace import InvalidRequest, Project

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "graph_py"


@pytest.fixture(scope="module")
def project():
    return Project(ROOT)


@pytest.mark.parametrize("column", [13, 17, 23])  # first, middle and last character of place_order
def test_the_identifier_under_the_cursor(project, column):
    by_position = project.find_definition(None, "main.py", 11, column)
    assert (by_position.symbol, by_position.file, by_position.name) == ("place_order", "shop/orders.py", "place_order")
    refs = project.find_references(None, "main.py", 11, column)
    assert refs.to_dict() == project.find_references("place_order", "main.py", 11, 13).to_dict()


def test_a_cursor_on_nothing_is_an_invalid_request(project):
    with pytest.raises(InvalidRequest) as error:
        project.find_definition(None, "main.py", 11, 11)  # the `=` of `order = ...`
    assert error.value.field == "symbol"


def test_a_cursor_in_a_notebook_cell():
    demo = Project(Path(__file__).resolve().parents[1] / "fixtures" / "demo")
    found = demo.find_definition(None, "notebooks/explore.ipynb", 1, 13, cell=3)
    assert (found.symbol, found.file, found.cell, found.line) == ("stocked_service", "notebooks/explore.ipynb", 2, 1)
    refs = demo.find_references(None, "notebooks/explore.ipynb", 1, 13, cell=3)
    assert [(r.cell, r.line, r.usage) for r in refs.references] == [(3, 1, "call")]
