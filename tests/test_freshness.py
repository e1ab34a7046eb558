"""Always fresh (CONTRACT.md, "Freshness" and "Cache").

A query answers from what is on disk now: edits, new files and deletions between queries show
up in the next answer without calling ``index()``. The persisted index is reused by a second
``Project`` on the same root (nothing re-parsed), is checked against disk, and is discarded
when corrupt.
"""

from __future__ import annotations

import gc
import json
import os
import time
from pathlib import Path

import pytest

from jupyter_codetrace import Project


# --------------------------------------------------------------------------- helpers

def _show(d: dict) -> str:
    return json.dumps(d, ensure_ascii=False, indent=2, default=str)


def _line_of(root: Path, rel: str, needle: str) -> int:
    for number, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not found in {rel}")


def _column_of(root: Path, rel: str, line: int, word: str) -> int:
    return (root / rel).read_text(encoding="utf-8").splitlines()[line - 1].index(word) + 1


def _locate(project: Project, root: Path, symbol: str, file: str, needle: str) -> dict:
    """find_definition of ``symbol`` on the first line of ``file`` containing ``needle``."""
    line = _line_of(root, file, needle)
    return project.find_definition(symbol, file, line, _column_of(root, file, line, symbol)).to_dict()


def _assert_at(d: dict, file: str, line: int) -> None:
    assert (d.get("status"), d.get("file"), d.get("line")) == ("found", file, line), (
        f"expected found at {file}:{line}\n{_show(d)}")


def _write(path: Path, text: str) -> None:
    """Write and move the mtime forward, so a coarse mtime clock cannot hide the change."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    later = time.time() + 5
    os.utime(path, (later, later))


def _insert_after_first_line(path: Path, lines: str) -> None:
    head, _, tail = path.read_text(encoding="utf-8").partition("\n")
    _write(path, head + "\n" + lines + tail)


def _references(project: Project, symbol: str, file: str, line: int, column: int) -> list[dict]:
    d = project.find_references(symbol, file, line, column).to_dict()
    return d.get("references") or []


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own, so its files can be inspected and corrupted."""
    folder = tmp_path / "codetrace-cache"
    folder.mkdir()
    monkeypatch.setenv("CODETRACE_CACHE_DIR", str(folder))
    return folder


# --------------------------------------------------------------------------- python_app

FORMAT_CALL = 'print(format_money(to_number("3.5"))'


def test_python_edit_moves_the_definition(copy_fixture) -> None:
    root = copy_fixture("python_app")
    project = Project(root)
    _assert_at(_locate(project, root, "format_money", "app/main.py", FORMAT_CALL), "app/fmt.py", 4)

    _insert_after_first_line(root / "app" / "fmt.py", "\nCURRENCIES = ('EUR', 'USD')\n\n")
    _assert_at(_locate(project, root, "format_money", "app/main.py", FORMAT_CALL), "app/fmt.py", 7)


def test_python_new_file_and_new_import_are_seen(copy_fixture) -> None:
    root = copy_fixture("python_app")
    project = Project(root)
    _assert_at(_locate(project, root, "Client", "app/main.py", "client = Client(base_url)"),
               "app/client.py", 23)

    _write(root / "app" / "extra.py", '"""Added while the project is open."""\n\n\ndef brand_new():\n    return 42\n')
    main = root / "app" / "main.py"
    _write(main, main.read_text(encoding="utf-8")
           + "\n\nfrom app.extra import brand_new\n\nNEW_VALUE = brand_new()\n")
    _assert_at(_locate(project, root, "brand_new", "app/main.py", "NEW_VALUE = brand_new()"), "app/extra.py", 4)
    _assert_at(_locate(project, root, "Client", "app/main.py", "client = Client(base_url)"),
               "app/client.py", 23)


def test_python_deleted_files_drop_out(copy_fixture) -> None:
    root = copy_fixture("python_app")
    project = Project(root)
    build_url = (8, 5)  # app/core.py: `def build_url(base, path):`
    before = _references(project, "build_url", "app/core.py", *build_url)
    assert {r.get("file") for r in before} == {"app/services/billing.py"}, before
    _assert_at(_locate(project, root, "to_number", "app/main.py", FORMAT_CALL), "app/convert.py", 10)

    (root / "app" / "services" / "billing.py").unlink()
    (root / "app" / "convert.py").unlink()

    after = _references(project, "build_url", "app/core.py", *build_url)
    assert after == [], f"references from a deleted file survive: {after}"
    d = _locate(project, root, "to_number", "app/main.py", FORMAT_CALL)
    assert d.get("status") != "found" and d.get("file") != "app/convert.py", _show(d)
    d = project.find_definition("to_number", "app/convert.py", 10).to_dict()
    assert d["status"] == "file_not_indexed", _show(d)


def test_python_answers_track_a_sequence_of_edits(copy_fixture) -> None:
    root = copy_fixture("python_app")
    project = Project(root)
    fmt = root / "app" / "fmt.py"
    for extra in range(1, 4):
        _insert_after_first_line(fmt, "\n")
        _assert_at(_locate(project, root, "format_money", "app/main.py", FORMAT_CALL), "app/fmt.py", 4 + extra)


# --------------------------------------------------------------------------- ts_app

FMT_CALL = "log.info(fmtDate(new Date()));"


def test_typescript_edit_moves_the_definition(copy_fixture) -> None:
    root = copy_fixture("ts_app")
    project = Project(root)
    _assert_at(_locate(project, root, "fmtDate", "src/app.ts", FMT_CALL), "src/utils/date.ts", 2)

    _insert_after_first_line(root / "src" / "utils" / "date.ts", "const EPOCH = 0;\nexport { EPOCH };\n")
    _assert_at(_locate(project, root, "fmtDate", "src/app.ts", FMT_CALL), "src/utils/date.ts", 4)


def test_typescript_new_file_and_deleted_file(copy_fixture) -> None:
    root = copy_fixture("ts_app")
    project = Project(root)
    _assert_at(_locate(project, root, "add", "src/app.ts", "utils.clamp(add(1, 2)"), "src/lib/math.ts", 2)

    _write(root / "src" / "extra.ts", "/** Added while the project is open. */\nexport function brandNew(): number {\n"
                                      "  return 1;\n}\n")
    app = root / "src" / "app.ts"
    _write(app, app.read_text(encoding="utf-8")
           + "\nimport { brandNew } from './extra';\n\nexport const fresh = brandNew();\n")
    _assert_at(_locate(project, root, "brandNew", "src/app.ts", "fresh = brandNew()"), "src/extra.ts", 2)

    (root / "src" / "lib" / "math.ts").unlink()
    d = _locate(project, root, "add", "src/app.ts", "utils.clamp(add(1, 2)")
    assert d.get("status") != "found" and d.get("file") != "src/lib/math.ts", _show(d)


# --------------------------------------------------------------------------- the persisted index

def _repository_files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if "__pycache__" not in p.parts}


def _answers(project: Project, root: Path) -> list[dict]:
    queries = [
        ("Client", "app/main.py", "client = Client(base_url)"),
        ("format_money", "app/main.py", FORMAT_CALL),
        ("display_name", "app/reports.py", "return user.display_name"),
        ("MAX_RETRIES", "app/services/billing.py", "range(MAX_RETRIES)"),
    ]
    return [_locate(project, root, *query) for query in queries]


def test_warm_restart_answers_the_same_without_parsing(copy_fixture, cache_dir: Path) -> None:
    root = copy_fixture("python_app")
    files_before = _repository_files(root)
    first = Project(root)
    first.index()
    expected = _answers(first, root)
    assert [(d["status"], d.get("file")) for d in expected] == [
        ("found", "app/client.py"), ("found", "app/fmt.py"), ("found", "app/models.py"), ("found", "app/core.py")
    ], _show(expected)
    assert any(p.is_file() for p in cache_dir.rglob("*")), "nothing was persisted under CODETRACE_CACHE_DIR"
    assert _repository_files(root) == files_before, "the index must never be written inside the repository"

    second = Project(root)
    stats = second.index().to_dict()
    if "parsed" in stats:
        assert stats["parsed"] == 0, f"a warm restart re-parsed files:\n{_show(stats)}"
    assert _answers(second, root) == expected


def test_a_restart_after_an_offline_edit_sees_the_edit(copy_fixture, cache_dir: Path) -> None:
    root = copy_fixture("python_app")
    first = Project(root)
    first.index()
    del first
    gc.collect()

    _insert_after_first_line(root / "app" / "fmt.py", "\n\n")
    second = Project(root)
    stats = second.index().to_dict()
    if "parsed" in stats:
        assert stats["parsed"] == 1, f"only the edited file should be re-parsed:\n{_show(stats)}"
    _assert_at(_locate(second, root, "format_money", "app/main.py", FORMAT_CALL), "app/fmt.py", 6)


def test_a_corrupt_cache_is_discarded_not_trusted(copy_fixture, cache_dir: Path) -> None:
    root = copy_fixture("python_app")
    first = Project(root)
    first.index()
    expected = _answers(first, root)
    del first
    gc.collect()

    stored = [p for p in cache_dir.rglob("*") if p.is_file()]
    assert stored, "nothing was persisted under CODETRACE_CACHE_DIR"
    for path in stored:
        path.write_bytes(b"this is not a database\x00\xff" * 64)

    second = Project(root)
    assert _answers(second, root) == expected
    third = Project(root)  # and the rebuilt cache is usable again
    assert _answers(third, root) == expected
