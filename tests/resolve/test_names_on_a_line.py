"""Several occurrences of a name on one line (issue 22; seed 000: "Multiple References: Pick
closest match by column"). A column between occurrences (on a space, a bracket, a number) takes
the closest one and says so; a column on another name is still ``reference_not_found``;
without a column the first occurrence is taken and the answer says which."""

from __future__ import annotations

import pytest

from jupyter_codetrace import Project

SOURCE = '''def f(x):
    return x


def g(y):
    return y


a = f(1) + g(2) + f(3)
h = f
'''
LINE = 9  # `a = f(1) + g(2) + f(3)`: f at columns 5 and 19, g at 12


@pytest.fixture
def project(tmp_path) -> Project:
    (tmp_path / "m.py").write_text(SOURCE)
    return Project(tmp_path)


@pytest.mark.parametrize("column, used", [(6, 5), (8, 5), (10, 5), (17, 19), (18, 19), (21, 19)])
def test_a_column_between_occurrences_takes_the_closest(project, column, used):
    d = project.find_definition("f", "m.py", LINE, column).to_dict()
    assert (d["status"], d["line"]) == ("found", 1)
    assert d["message"] == f"No 'f' at column {column} of line {LINE}; the closest one, at column {used}, is used."


def test_a_column_on_the_name_says_nothing_more(project):
    d = project.find_definition("f", "m.py", LINE, 19).to_dict()
    assert (d["status"], d["line"], d.get("message")) == ("found", 1, None)


def test_a_column_on_another_name_is_not_found(project):
    d = project.find_definition("f", "m.py", LINE, 12).to_dict()
    assert d["status"] == "reference_not_found"


def test_without_a_column_the_answer_says_which_occurrence(project):
    d = project.find_definition("f", "m.py", LINE).to_dict()
    assert (d["status"], d["line"]) == ("found", 1)
    assert "occurs 2 times on line 9; this is the first, at column 5" in d["message"]
    single = project.find_definition("f", "m.py", 10).to_dict()
    assert (single["status"], single.get("message")) == ("found", None)


def test_references_from_between_occurrences(project):
    d = project.find_references("f", "m.py", LINE, 10).to_dict()
    assert [(r["line"], r["column"]) for r in d["references"]] == [(9, 5), (9, 19), (10, 5)]
