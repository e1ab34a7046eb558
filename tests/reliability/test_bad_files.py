"""One pathological file is reported and skipped; the rest of the repository stays answerable.

Every file here is generated (nothing large is committed). The deep notebook is the case from
issue 16: its JSON decoder recursion used to escape the index worker and fail every query.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import Project

GOOD = "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n"


def _deep_notebook(depth: int) -> str:
    nested = "[" * depth + "]" * depth
    return ('{"cells": [{"cell_type": "code", "metadata": {"x": ' + nested + '}, "source": "y = 1"}],'
            ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')


def _skipped(stats) -> dict[str, str]:
    return {entry["path"]: entry["reason"] for entry in stats.to_dict()["skipped"]}


def _assert_answerable(project: Project) -> None:
    found = project.find_definition("helper", "good.py", 6)
    assert found.status == "found", found.to_dict()
    assert (found.file, found.line) == ("good.py", 1)
    assert project.dependents_of("good.py", "helper").status == "found"


@pytest.mark.parametrize("filler", [0, 80], ids=["in-process", "process-pool"])
def test_deeply_nested_notebook_is_skipped_with_its_reason(tmp_path: Path, filler: int):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "good.py").write_text(GOOD)
    (root / "deep.ipynb").write_text(_deep_notebook(20_000))
    for i in range(filler):  # enough files to go through the process pool (its threshold is 64)
        (root / f"filler_{i}.py").write_text(f"def filler_{i}():\n    return {i}\n")
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        stats = project.index()
        assert _skipped(stats).get("deep.ipynb", "").endswith("JSON nested too deeply"), stats.to_text()
        assert stats.files == 1 + filler
        _assert_answerable(project)
        # the bad file says why it is missing instead of failing the query
        missing = project.find_definition("y", "deep.ipynb", 1)
        assert missing.status == "file_not_indexed"


def test_a_bad_notebook_does_not_hide_a_good_one(tmp_path: Path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "good.py").write_text(GOOD)
    (root / "deep.ipynb").write_text(_deep_notebook(5_000))
    (root / "fine.ipynb").write_text(
        '{"cells": [{"cell_type": "code", "metadata": {}, "source": "def in_notebook():\\n    return 2\\n"}],'
        ' "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    with Project(root, cache_dir=tmp_path / "cache") as project:
        stats = project.index()
        assert set(_skipped(stats)) == {"deep.ipynb"}
        _assert_answerable(project)
        assert project.symbols("in_notebook").to_dict()["status"] == "found"
        # fixed by hand: the notebook is indexed on the next query, the skip reason is gone
        (root / "deep.ipynb").write_text(_deep_notebook(3))
        stats = project.index()
        assert "deep.ipynb" not in _skipped(stats)
        assert stats.files == 3


def test_a_failing_file_is_not_extracted_again_until_it_changes(tmp_path: Path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "good.py").write_text(GOOD)
    (root / "deep.ipynb").write_text(_deep_notebook(5_000))
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project._index._watcher.close()  # walk on every query, as where inotify is missing
        assert project.index().parsed == 1
        again = project.index()
        assert again.parsed == 0 and "deep.ipynb" in _skipped(again)
        _assert_answerable(project)
