"""The index's name -> files tables (``Index.defined_in`` / ``used_in``): a name is looked up by a
scan of the summaries until enough were asked that inverting them all pays. Whichever way a name
was found, and across files added, changed and removed, every answer equals the files whose facts
define or use the name."""

from __future__ import annotations

import os
import time

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index.indexer import _FilesByName


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    stamp = time.time() + 2
    os.utime(path, (stamp, stamp))


def _truth(index, field: str) -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for path in index.files():
        defined, used = index.facts(path).names()
        for name in defined if field == "defined" else used:
            table.setdefault(name, set()).add(path)
    return table


NAMES = ["Shape", "area", "circle", "math", "radius", "total", "gone", "missing_everywhere", "print"]


@pytest.mark.parametrize("scans, decoded", [(1000, 2.0), (3, 2.0), (0, 2.0), (1000, 0.25)],
                         ids=["scanned", "inverted-after-3", "inverted-at-once", "inverted-once-sets-are-decoded"])
def test_answers_equal_the_facts_across_edits(tmp_path, monkeypatch, scans, decoded):
    monkeypatch.setattr(_FilesByName, "SCANS", scans)
    monkeypatch.setattr(_FilesByName, "DECODED", decoded)
    (tmp_path / "shapes.py").write_text("import math\n\n\nclass Shape:\n    def area(self):\n        return 0\n")
    (tmp_path / "circle.py").write_text("import math\nfrom shapes import Shape\n\n\nclass Circle(Shape):\n"
                                        "    def area(self):\n        return math.pi * self.radius ** 2\n")
    (tmp_path / "gone.py").write_text("def gone():\n    return 1\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    index = project._context.index
    index.refresh()

    def check(step):
        for field in ("defined", "used"):
            table, truth = getattr(index, f"{field}_in"), _truth(index, field)
            for name in NAMES:
                assert table.get(name, set()) == truth.get(name, set()), (step, field, name)

    check("first")
    _write(tmp_path / "shapes.py", "class Shape:\n    def total(self):\n        return 0\n")   # area gone, total new
    (tmp_path / "gone.py").unlink()
    (tmp_path / "use.py").write_text("from circle import Circle\nprint(Circle().area(), total)\n")
    index.refresh()
    check("after edits")
    assert sorted(index.defined_in) == sorted(_truth(index, "defined"))   # listing inverts every summary
    _write(tmp_path / "use.py", "radius = 2\n")
    index.refresh()
    check("after listing")


def test_a_name_written_inside_another_name_is_not_found_there(tmp_path):
    """The search looks for the name's own encoding in each summary's bytes: `ab` is written 0xA2
    'a' 'b', which also sits inside `âab` (0xC3 0xA2 'a' 'b'). The decoded set decides."""
    (tmp_path / "inside.py").write_text("âab = 1\nprint(âab)\n", encoding="utf-8")
    (tmp_path / "own.py").write_text("ab = 2\nprint(ab)\n", encoding="utf-8")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    index = project._context.index
    index.refresh()
    encoded = index._summaries["inside.py"]._defined
    assert bytes([0xA2]) + b"ab" in encoded   # the search does meet it there
    assert index.defined_in.get("ab") == {"own.py"} and index.used_in.get("ab") == {"own.py"}
    assert index.defined_in.get("âab") == {"inside.py"}


def test_once_a_quarter_of_the_sets_are_decoded_a_name_is_not_searched_for(tmp_path):
    """A decoded set is searched in Python, one summary at a time: past a quarter of them the
    table is inverted instead (an edited project's sets are mostly decoded by then)."""
    for i in range(8):
        (tmp_path / f"m{i}.py").write_text(f"import math\n\ndef f{i}():\n    return math.pi\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    index = project._context.index
    index.refresh()
    table = index.used_in
    assert table.get("math") == {f"m{i}.py" for i in range(8)} and not table._whole   # searched
    # that search decoded the sets it found the name in (all of them); a save makes the summaries
    # searched again, those decoded among the ones searched in Python
    _write(tmp_path / "m0.py", "import math\n\ndef f0():\n    return math.tau\n")
    index.refresh()
    assert table.get("pi") == {f"m{i}.py" for i in range(1, 8)} and table._whole
    assert table.get("tau") == {"m0.py"}


def test_a_name_of_one_file_is_held_as_its_path_and_answered_as_a_set(tmp_path):
    (tmp_path / "a.py").write_text("import json\n\ndef only_here():\n    return json\n")
    (tmp_path / "b.py").write_text("import json\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    index = project._context.index
    index.refresh()
    table = index.defined_in
    assert sorted(table) == ["only_here"]   # listing inverts the table
    assert table._table["only_here"] == "a.py" and table.get("only_here") == {"a.py"}
    assert index.used_in.get("json") == {"a.py", "b.py"} and type(index.used_in.get("json")) is set
    _write(tmp_path / "b.py", "import json\n\ndef only_here():\n    pass\n")   # a second file: a set
    index.refresh()
    assert table.get("only_here") == {"a.py", "b.py"}
    (tmp_path / "a.py").unlink()   # one file again: its path
    index.refresh()
    assert table._table["only_here"] == "b.py" and table.get("only_here") == {"b.py"}


def test_inverting_the_names_keeps_no_decoded_set_on_the_summaries(tmp_path, monkeypatch):
    """A search decodes the sets it finds a name in to confirm it; once every summary is
    inverted those sets are let go: the tables hold the names, the summaries stay encoded."""
    monkeypatch.setattr(_FilesByName, "SCANS", 2)
    for i in range(6):
        (tmp_path / f"m{i}.py").write_text(f"import math\n\n\ndef f{i}():\n    return math.pi * {i}\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    index = project._context.index
    index.refresh()
    assert index.used_in.get("math") == {f"m{i}.py" for i in range(6)}   # searched: its sets decoded
    assert index.used_in._decoded
    assert index.used_in.get("pi") and index.used_in.get("f3") is None and index.used_in.get("nothing") is None
    assert index.used_in._whole and not index.used_in._decoded   # inverted at the third name
    assert all(type(summary.encoded("used")) is bytes for summary in index._summaries.values())
    assert index.used_in.get("math") == {f"m{i}.py" for i in range(6)} and index.used_in.get("f3") is None
