"""Queries addressed by notebook cell: ``cell`` + line within the cell, in and out."""

from __future__ import annotations

import json

import pytest

from jupyter_codetrace import InvalidRequest, Project


def _notebook(*cells: tuple[str, str]) -> str:
    return json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [{"cell_type": kind, "metadata": {}, "source": source,
                   **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                  for kind, source in cells],
    })


@pytest.fixture
def project(copy_fixture):
    root = copy_fixture("python_app")
    (root / "explore.ipynb").write_text(_notebook(
        ("markdown", "# Explore"),
        ("code", "from app.models import User\n%matplotlib inline"),
        ("markdown", "Make one:"),
        ("code", "def make(name):\n    return User(name)"),
        ("code", "u = make('ada')\nu.save()"),
    ), encoding="utf-8")
    with Project(root) as project:
        yield project


def test_definition_from_a_cell_position(project):
    result = project.find_definition("make", "explore.ipynb", 1, cell=4)
    assert (result.status, result.file, result.cell, result.line) == ("found", "explore.ipynb", 3, 1)


def test_definition_in_a_module_from_a_cell(project):
    result = project.find_definition("User", "explore.ipynb", 2, 12, cell=3)
    assert (result.file, result.line, result.cell) == ("app/models.py", 8, None)


def test_method_through_an_inferred_receiver_in_a_later_cell(project):
    result = project.find_definition("save", "explore.ipynb", 2, cell=4)
    assert (result.file, result.name) == ("app/models.py", "save")


def test_references_report_cells(project):
    result = project.find_references("make", "explore.ipynb", 1, cell=3)
    assert [(r.file, r.cell, r.line, r.usage) for r in result.references] == [("explore.ipynb", 4, 1, "call")]


@pytest.mark.parametrize("cell, line, field, words", [
    (0, 1, "cell", "not a code cell"),
    (9, 1, "cell", "not a code cell"),
    (3, 5, "line", "outside cell 3"),
    ("x", 1, "cell", "whole number"),
])
def test_bad_cell_addresses_are_invalid_requests(project, cell, line, field, words):
    with pytest.raises(InvalidRequest) as error:
        project.find_definition("make", "explore.ipynb", line, cell=cell)
    assert error.value.field == field and words in str(error.value)


def test_cell_on_a_plain_file_is_refused(project):
    with pytest.raises(InvalidRequest, match="not a notebook"):
        project.find_definition("User", "app/main.py", 1, cell=1)
