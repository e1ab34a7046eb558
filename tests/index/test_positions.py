"""Columns are counted in characters (code points), tree-sitter's in bytes: on a row with
non-ASCII text before a name the two differ, on every other row of the same file they agree
(positions.py `LineMap.plain_rows`)."""

from __future__ import annotations

import pytest

from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.languages import by_name
from jupyter_codetrace.positions import LineMap

SOURCE = '''\
"""Prix en €: la somme des lignes."""
from decimal import Decimal


def total(lignes):
    somme = Decimal(0)  # ajoute chaque ligne
    for ligne in lignes:
        somme = somme + ligne.prix
    étiquette = "Σ"; résumé = format(somme)
    return résumé or étiquette


x = "😀"; y = total([]); z = x + str(y)
'''


@pytest.mark.parametrize("text", [SOURCE, SOURCE.replace("\n", "\r\n"), SOURCE.encode("ascii", "replace").decode()])
def test_every_reference_and_definition_is_at_its_character_column(text: str):
    facts = extract_file("prix.py", text.encode(), by_name("python"))
    lines = text.encode().split(b"\n")
    assert facts.references and facts.definitions
    for where in list(facts.references) + list(facts.definitions):
        line = lines[where.line - 1].decode()
        assert line[where.column - 1:].startswith(where.name), (where.name, where.line, where.column, line)


def test_a_row_after_the_last_line_break_and_past_the_rows():
    lines = LineMap("é\nab\ncd".encode())
    assert lines.plain_rows == [False, True, True]
    assert (lines.column(0, 2), lines.column(1, 1), lines.column(2, 1)) == (2, 2, 2)
    assert lines.column(7, 3) == 4   # no such row: as tree-sitter's byte column
