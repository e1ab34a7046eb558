"""Bad input and awkward files (CONTRACT.md: not-found statuses, InvalidRequest, root confinement).

Not-found is a result with a status whose message says what *was* there; bad input raises
``InvalidRequest`` (a ``ValueError``) whose message says what is wrong and never names a path
outside the root. Awkward files (binary, huge, invalid UTF-8) never break the other files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from jupyter_codetrace import InvalidRequest, Project

SECRET = "outside_secret_function"


# --------------------------------------------------------------------------- helpers

def _dict(result) -> dict:
    return result.to_dict()


def _text(d: dict) -> str:
    return json.dumps(d, ensure_ascii=False, default=str)


def _show(d: dict) -> str:
    return json.dumps(d, ensure_ascii=False, indent=2, default=str)


def _line_of(root: Path, rel: str, needle: str) -> int:
    """1-based line of the first line of ``rel`` containing ``needle`` (fixture edits move lines)."""
    for number, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not found in {rel}")


def _column_of(root: Path, rel: str, line: int, word: str) -> int:
    text = (root / rel).read_text(encoding="utf-8").splitlines()[line - 1]
    return text.index(word) + 1


def _skipped(stats: dict) -> dict[str, str]:
    """``IndexStats.to_dict()["skipped"]`` as {path: reason}; every entry names both."""
    assert "skipped" in stats and "files" in stats, f"IndexStats lacks files/skipped:\n{_show(stats)}"
    entries = stats["skipped"]
    assert isinstance(entries, list), f"skipped is not a list:\n{_show(stats)}"
    for entry in entries:
        assert "path" in entry and "reason" in entry, f"skipped entry without path/reason: {entry}"
    return {entry["path"]: entry["reason"] for entry in entries}


def _symbol_entries(d: dict) -> list[dict]:
    for key in ("symbols", "results", "matches", "items"):
        if isinstance(d.get(key), list):
            return d[key]
    raise AssertionError(f"no list of symbols in symbols() payload:\n{_show(d)}")


def _assert_found_at(d: dict, file: str, line: int) -> None:
    assert (d.get("status"), d.get("file"), d.get("line")) == ("found", file, line), (
        f"expected found at {file}:{line}\n{_show(d)}")


@pytest.fixture
def root(copy_fixture) -> Path:
    return copy_fixture("python_app")


@pytest.fixture
def project(root: Path) -> Project:
    return Project(root)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder next to the copied root, holding a definition nobody may see."""
    folder = tmp_path / "outside_the_root"
    folder.mkdir()
    (folder / "secret.py").write_text(f"def {SECRET}():\n    return 'leak'\n", encoding="utf-8")
    return folder


def _client_call(root: Path) -> tuple[int, int]:
    """(line, column of ``Client``) of ``client = Client(base_url)`` in app/main.py."""
    line = _line_of(root, "app/main.py", "client = Client(base_url)")
    return line, _column_of(root, "app/main.py", line, "Client(")


# --------------------------------------------------------------------------- sanity

def test_the_copied_fixture_answers(root: Path, project: Project) -> None:
    line, column = _client_call(root)
    _assert_found_at(_dict(project.find_definition("Client", "app/main.py", line, column)),
                     "app/client.py", _line_of(root, "app/client.py", "class Client("))


def test_invalid_request_is_a_value_error() -> None:
    assert issubclass(InvalidRequest, ValueError)


def test_an_absolute_path_inside_the_root_is_accepted_and_answered_relative(root: Path, project: Project) -> None:
    line, column = _client_call(root)
    d = _dict(project.find_definition("Client", str(root / "app" / "main.py"), line, column))
    _assert_found_at(d, "app/client.py", _line_of(root, "app/client.py", "class Client("))


# --------------------------------------------------------------------------- not-found statuses

def test_missing_file_is_file_not_indexed_and_says_where_the_symbol_is(project: Project) -> None:
    d = _dict(project.find_definition("User", "app/no_such_module.py", 3))
    assert d["status"] == "file_not_indexed", _show(d)
    assert d.get("message"), f"a not-found result carries a message:\n{_show(d)}"
    assert "app/models.py" in _text(d), f"the message should say where User is defined:\n{_show(d)}"


def test_missing_file_for_references_is_file_not_indexed(project: Project) -> None:
    d = _dict(project.find_references("User", "app/no_such_module.py", 3))
    assert d["status"] == "file_not_indexed", _show(d)
    assert "app/models.py" in _text(d), _show(d)


def test_unsupported_file_is_file_not_indexed(root: Path) -> None:
    (root / "NOTES.md").write_text("User is defined in app/models.py\n", encoding="utf-8")
    d = _dict(Project(root).find_definition("User", "NOTES.md", 1))
    assert d["status"] == "file_not_indexed", _show(d)


def test_reference_not_found_lists_the_names_on_that_line(root: Path, project: Project) -> None:
    line, _ = _client_call(root)
    d = _dict(project.find_definition("Nonexistent", "app/main.py", line))
    assert d["status"] == "reference_not_found", _show(d)
    text = _text(d)
    for name in ("Client", "base_url"):
        assert name in text, f"{name!r} is on line {line} and should be listed:\n{_show(d)}"


def test_reference_not_found_when_the_column_points_at_another_name(root: Path, project: Project) -> None:
    line, _ = _client_call(root)
    column = _column_of(root, "app/main.py", line, "base_url")
    d = _dict(project.find_definition("Client", "app/main.py", line, column))
    assert d["status"] == "reference_not_found", _show(d)


def test_unresolved_names_the_import_it_came_through(root: Path, project: Project) -> None:
    line = _line_of(root, "app/analysis.py", "np.mean(")
    d = _dict(project.find_definition("np", "app/analysis.py", line, _column_of(root, "app/analysis.py", line, "np.")))
    assert d["status"] == "unresolved", _show(d)
    assert "import numpy as np" in _text(d), f"the message should carry the import:\n{_show(d)}"


def test_builtin_says_so(root: Path, project: Project) -> None:
    line = _line_of(root, "app/main.py", "return len(result.names)")
    d = _dict(project.find_definition("len", "app/main.py", line))
    assert d["status"] == "builtin", _show(d)
    assert "Built-in symbol (no source available)" in _text(d), _show(d)


def test_find_references_reference_not_found(root: Path, project: Project) -> None:
    line, _ = _client_call(root)
    d = _dict(project.find_references("Nonexistent", "app/main.py", line))
    assert d["status"] == "reference_not_found", _show(d)
    assert "Client" in _text(d), _show(d)


# --------------------------------------------------------------------------- InvalidRequest

@pytest.mark.parametrize(
    ("symbol", "file", "line", "column", "mode", "mentions"),
    [
        ("User", "app/main.py", 0, None, "definition", "line"),
        ("User", "app/main.py", -3, None, "definition", "line"),
        ("User", "app/main.py", 5, 0, "definition", "column"),
        ("User", "app/main.py", 5, -1, "definition", "column"),
        ("User", "app/main.py", 5, None, "implementation", "mode"),
        ("", "app/main.py", 5, None, "definition", "symbol"),
        ("User", None, 5, None, "definition", "file"),
        ("User", "app/main.py", None, None, "definition", "line"),
    ],
    ids=["line-0", "line-negative", "column-0", "column-negative", "unknown-mode", "empty-symbol",
         "file-missing", "line-missing"],
)
def test_find_definition_rejects_bad_arguments(project, symbol, file, line, column, mode, mentions) -> None:
    with pytest.raises(InvalidRequest) as caught:
        project.find_definition(symbol, file, line, column, mode=mode)
    assert mentions in str(caught.value).lower(), f"message should mention {mentions!r}: {caught.value}"


@pytest.mark.parametrize(
    ("symbol", "file", "line", "column", "mentions"),
    [
        ("User", "app/main.py", 0, None, "line"),
        ("User", "app/main.py", 5, 0, "column"),
        ("", "app/main.py", 5, None, "symbol"),
    ],
    ids=["line-0", "column-0", "empty-symbol"],
)
def test_find_references_rejects_bad_arguments(project, symbol, file, line, column, mentions) -> None:
    with pytest.raises(InvalidRequest) as caught:
        project.find_references(symbol, file, line, column)
    assert mentions in str(caught.value).lower(), f"message should mention {mentions!r}: {caught.value}"


def _assert_refused(call, *forbidden: str) -> InvalidRequest:
    with pytest.raises(InvalidRequest) as caught:
        call()
    message = str(caught.value)
    for text in forbidden:
        assert text not in message, f"the message names a path outside the root ({text!r}): {message}"
    return caught.value


@pytest.mark.parametrize("escape", ["../outside.py", "app/../../outside.py", "app/../../../etc/passwd"])
def test_relative_paths_escaping_the_root_are_refused(project: Project, escape: str) -> None:
    _assert_refused(lambda: project.find_definition("User", escape, 1))
    _assert_refused(lambda: project.find_references("User", escape, 1))


def test_an_absolute_path_outside_the_root_is_refused(project: Project, outside: Path) -> None:
    target = str(outside / "secret.py")
    _assert_refused(lambda: project.find_definition(SECRET, target, 1), str(outside))
    _assert_refused(lambda: project.find_references(SECRET, target, 1), str(outside))


def test_a_symlinked_file_pointing_outside_is_refused(root: Path, outside: Path) -> None:
    os.symlink(outside / "secret.py", root / "app" / "leak.py")
    project = Project(root)
    _assert_refused(lambda: project.find_definition(SECRET, "app/leak.py", 1), str(outside))
    _assert_refused(lambda: project.find_references(SECRET, "app/leak.py", 1), str(outside))


def test_a_symlinked_folder_pointing_outside_is_refused_and_not_indexed(root: Path, outside: Path) -> None:
    os.symlink(outside, root / "vendored", target_is_directory=True)
    project = Project(root)
    _assert_refused(lambda: project.find_definition(SECRET, "vendored/secret.py", 1), str(outside))
    entries = _symbol_entries(_dict(project.symbols(SECRET)))
    assert not [e for e in entries if e.get("name") == SECRET], f"indexed through a symlink out: {entries}"
    assert str(outside) not in _text(_dict(project.index())), "index stats name a path outside the root"


@pytest.mark.skipif(not Path("/etc/hostname").exists() and not Path("/etc/passwd").exists(),
                    reason="needs a readable /etc")
def test_a_symlink_to_etc_is_refused(root: Path) -> None:
    os.symlink("/etc", root / "etc_link", target_is_directory=True)
    project = Project(root)
    name = "hostname" if Path("/etc/hostname").exists() else "passwd"
    _assert_refused(lambda: project.find_definition("root", f"etc_link/{name}", 1), f"/etc/{name}")
    line, column = _client_call(root)
    d = _dict(project.find_definition("Client", "app/main.py", line, column))
    assert d["status"] == "found", _show(d)


# --------------------------------------------------------------------------- awkward files

def test_a_binary_file_is_skipped_and_reported_while_others_work(root: Path) -> None:
    (root / "app" / "x.py").write_bytes(b"\x00\x01\x02def hidden():\x00\n    return 1\n" + bytes(range(256)) * 4)
    project = Project(root)
    skipped = _skipped(_dict(project.index()))
    assert "app/x.py" in skipped and skipped["app/x.py"], f"binary file not reported as skipped: {skipped}"
    d = _dict(project.find_definition("hidden", "app/x.py", 1))
    assert d["status"] == "file_not_indexed", _show(d)
    line, column = _client_call(root)
    d = _dict(project.find_definition("Client", "app/main.py", line, column))
    assert (d["status"], d.get("file")) == ("found", "app/client.py"), _show(d)


def test_a_10_mb_file_is_skipped_as_too_large_and_reported(root: Path) -> None:
    chunk = "def huge_function():\n    return 1\n" + "VALUE = 1  # padding padding padding padding\n" * 1000
    with open(root / "app" / "huge.py", "w", encoding="utf-8") as handle:
        while handle.tell() < 10 * 1024 * 1024:
            handle.write(chunk)
    project = Project(root)
    skipped = _skipped(_dict(project.index()))
    assert skipped.get("app/huge.py") == "too_large", f"huge file not skipped as too_large: {skipped}"
    d = _dict(project.find_definition("huge_function", "app/huge.py", 1))
    assert d["status"] == "file_not_indexed", _show(d)
    line, column = _client_call(root)
    d = _dict(project.find_definition("Client", "app/main.py", line, column))
    assert (d["status"], d.get("file")) == ("found", "app/client.py"), _show(d)


def test_invalid_utf8_is_indexed_with_replacement(root: Path) -> None:
    (root / "app" / "latin.py").write_bytes(
        b'"""Latin-1 bytes: caf\xe9, na\xefve, \xff\xfe."""\n'
        b"\n"
        b"def latin_helper():\n"
        b'    return "r\xe9sum\xe9"\n'
        b"\n"
        b"\n"
        b"value = latin_helper()\n"
    )
    project = Project(root)
    assert "app/latin.py" not in _skipped(_dict(project.index()))
    d = _dict(project.find_definition("latin_helper", "app/latin.py", 7))
    _assert_found_at(d, "app/latin.py", 3)
    assert d.get("column") == 5, _show(d)


def test_symbols_finds_user_for_a_misspelling(project: Project) -> None:
    entries = _symbol_entries(_dict(project.symbols("Usr")))
    assert entries, "fuzzy search found nothing for 'Usr'"
    first = entries[0]
    assert (first.get("name"), first.get("file")) == ("User", "app/models.py"), (
        f"'User' should rank first for 'Usr':\n{json.dumps(entries[:5], indent=2, default=str)}")


def test_symbols_respects_the_limit(project: Project) -> None:
    entries = _symbol_entries(_dict(project.symbols("e", limit=3)))
    assert len(entries) <= 3
