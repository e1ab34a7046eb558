"""``find_definition(symbol, mode=...)`` without a place (issue 22, "Modes by name"; seed 001's
``{symbol}`` form): the name is looked up across the project, the mode is honoured there — the
header declaration for C/C++, the type of a typed variable — or the answer says
``fell_back_to_definition``. Found by name, it says so (``resolution: name-only``) and lists
the other same-named definitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import InvalidRequest, Project

FILES = {
    "geo.h": "#pragma once\nclass Circle {\npublic:\n  /** The area. */\n  double area() const;\n};\n",
    "geo.cpp": '#include "geo.h"\ndouble Circle::area() const { return 1.0; }\n',
    "models.py": "class Result:\n    pass\n\n\nclass Other:\n    def area(self):\n        return 0\n",
    "main.py": "from models import Result\n\nresult: Result = Result()\ncount = 3\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return Project(tmp_path)


def test_declaration_by_name_is_the_header_prototype(project):
    d = project.find_definition("Circle.area", mode="declaration").to_dict()
    assert (d["file"], d["line"], d["mode_resolution"], d["resolution"]) == ("geo.h", 5, "exact", "name-only")


def test_definition_by_name_is_the_body(project):
    d = project.find_definition("Circle.area").to_dict()
    assert (d["file"], d["line"], d["path"]) == ("geo.cpp", 2, ["Circle", "area"])
    assert d["doc"] == "The area."


def test_type_definition_by_name_is_the_declared_type(project):
    d = project.find_definition("result", mode="type_definition").to_dict()
    assert (d["file"], d["line"], d["name"], d["mode_resolution"]) == ("models.py", 1, "Result", "exact")


def test_a_mode_that_has_no_answer_falls_back_and_says_so(project):
    d = project.find_definition("count", mode="type_definition").to_dict()
    assert (d["file"], d["line"], d["mode_resolution"]) == ("main.py", 4, "fell_back_to_definition")
    d = project.find_definition("Result", mode="declaration").to_dict()
    assert (d["file"], d["mode_resolution"]) == ("models.py", "fell_back_to_definition")


def test_same_named_rivals_are_candidates_but_not_the_other_half_of_the_pair(project):
    d = project.find_definition("area", mode="declaration").to_dict()
    rivals = {"geo.h": [("models.py", "Other.area")], "models.py": [("geo.cpp", "Circle.area")]}
    assert [(c["file"], c["name"]) for c in d["candidates"]] == rivals[d["file"]]
    assert d["resolution"] == "name-only" and "2 definitions are named 'area'" in d["message"]


def test_an_unknown_name_is_symbol_not_found(project):
    d = project.find_definition("Circel", mode="declaration").to_dict()
    assert d["status"] == "symbol_not_found" and "Circle" in d["message"]


def test_the_position_form_is_unchanged(project):
    d = project.find_definition("Result", "main.py", 3, 9).to_dict()
    assert (d["file"], d["line"], d["resolution"]) == ("models.py", 1, "import")


@pytest.mark.parametrize("kwargs, field", [({"file": "main.py"}, "line"), ({"line": 3}, "file"),
                                           ({"mode": "sideways"}, "mode")])
def test_a_partial_place_is_refused(project, kwargs, field):
    with pytest.raises(InvalidRequest) as caught:
        project.find_definition("Result", **kwargs)
    assert field in str(caught.value)
