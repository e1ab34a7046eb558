"""tests/seeds/README.md, the item-by-item table of the seed documents, stays true: every test it
names exists in tests/seeds, every seed test is named in it, and every strict xfail (a known
deviation) is a row whose status says deviation."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
_CELL = re.compile(r"(?<!\\)\|")


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in (HERE / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith("| item") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in _CELL.split(line)[1:-1]]
        assert len(cells) == 3, f"a row of three cells (item, status, test): {line}"
        rows.append(tuple(cells))
    return rows


def _tests() -> dict[str, bool]:
    """Every test function of the seed files -> whether it is marked xfail."""
    found = {}
    for file in sorted(HERE.glob("test_seed_0*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found[node.name] = any("xfail" in ast.unparse(d) for d in node.decorator_list)
    return found


def _named(cell: str) -> set[str]:
    return set(re.findall(r"`(test_\w+)", cell))   # `test_x` or `test_x[case]`


def test_every_named_test_exists_and_every_seed_test_is_named():
    tests = _tests()
    named = set().union(*(_named(test) for _, _, test in _rows()))
    assert len(tests) >= 150
    assert named - set(tests) == set(), "rows naming tests that do not exist"
    assert set(tests) - named == set(), "seed tests no row names"


def test_every_xfail_is_a_deviation_row():
    tests = _tests()
    deviation_tests = set().union(*(_named(test) for _, status, test in _rows() if "deviation" in status))
    xfails = {name for name, xfail in tests.items() if xfail}
    assert xfails, "the seed tests carry their known deviations as strict xfails"
    assert xfails - deviation_tests == set()
