"""Files as editors see them: line breaks, wide encodings, and syntax errors (issue 16, item 3).

- Lines are counted as editors count them: ``\\r\\n``, ``\\n`` and a lone ``\\r`` each end one.
- A file that starts with a UTF-16 or UTF-32 byte order mark is decoded, not skipped as binary.
- A syntax error that swallows the rest of a TypeScript file (an unbalanced bracket) does not
  take the definitions after it: tree-sitter's recovery is helped by parsing again without the
  broken statement, at unchanged positions, and the file is still reported as partial.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from jupyter_codetrace import Project

PY = "def hélper():\n    return 1\n\n\ndef main():\n    return hélper()\n"
TS = ("export function formatDate(d: number): string {\n  return String(d);\n}\n\n"
      "export function main(): string {\n  return formatDate(1);\n}\n")

BROKEN_TS = """\
export function before(): number {
  return 1;
}

export function broken( {
  return before(;
}

export function tsSurvivor(): number {
  return before();
}

export class Later {
  run(): number { return tsSurvivor(); }
}
"""
USE_TS = "import { tsSurvivor, Later } from './broken';\n\nexport const x = tsSurvivor();\nexport const y = new Later();\n"

BROKEN_JS = """\
function first() {
  return 1;
}

function broken(a, {
  if (a) { return first(;
}

function jsSurvivor() {
  return first();
}

module.exports = { jsSurvivor };
"""

LOCAL_ERROR_TS = """\
export function one(): number {
  const x = ;
  return 1;
}

export function two(): number {
  return one();
}
"""


def _index(tmp_path: Path, files: dict[str, bytes]) -> Project:
    root = tmp_path / "repo"
    root.mkdir()
    for name, data in files.items():
        (root / name).write_bytes(data)
    project = Project(root, cache_dir=tmp_path / "cache", workers=1)
    return project


def _lines(project: Project, path: str) -> list[tuple[str, int, int]]:
    return sorted((d.name, d.line, d.column) for d in project._index.facts(path).definitions)


@pytest.mark.parametrize("ending", ["\r", "\r\n", "\n"], ids=["cr", "crlf", "lf"])
@pytest.mark.parametrize("name, text, use_line, symbol", [("code.py", PY, 6, "hélper"), ("code.ts", TS, 6, "formatDate")],
                         ids=["py", "ts"])
def test_line_breaks_count_as_editors_count_them(tmp_path: Path, ending: str, name: str, text: str,
                                                use_line: int, symbol: str):
    with _index(tmp_path, {name: text.replace("\n", ending).encode()}) as project:
        stats = project.index()
        assert stats.lines == 7 - name.endswith(".py") and not stats.syntax_errors, stats.to_text()
        found = project.find_definition(symbol, name, use_line)
        assert (found.status, found.line, found.column) == ("found", 1, 17 if name.endswith(".ts") else 5), found.to_dict()
        refs = project.find_references(symbol, name, 1).to_dict()
        assert [(r["line"], r["column"]) for r in refs["references"]] == [(use_line, 12 if name.endswith(".py") else 10)]
        assert project.find_definition("main", name, 5).to_dict()["end_line"] == 6 + name.endswith(".ts")


def test_mixed_line_breaks(tmp_path: Path):
    text = "a = 1\rb = 2\r\nc = 3\nd = a\r\r\ne = b\n"   # lines 1-7 in an editor: a b c d (blank) e
    with _index(tmp_path, {"mixed.py": text.encode()}) as project:
        assert project.index().lines == 6
        assert _lines(project, "mixed.py") == [("a", 1, 1), ("b", 2, 1), ("c", 3, 1), ("d", 4, 1), ("e", 6, 1)]
        assert project.find_definition("b", "mixed.py", 6).line == 2


@pytest.mark.parametrize("encoding, bom", [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
                                           ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-32-be", codecs.BOM_UTF32_BE)],
                         ids=["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_a_wide_encoding_with_a_byte_order_mark_is_decoded(tmp_path: Path, encoding: str, bom: bytes):
    files = {"wide.py": bom + ("# ünïcode\r\n" + PY.replace("\n", "\r\n")).encode(encoding),
             "caller.py": b"from wide import h\xc3\xa9lper\n\nx = h\xc3\xa9lper()\n",
             "binary.py": b"\x00\x01\x02 not text\n"}
    with _index(tmp_path, files) as project:
        stats = project.index()
        assert {s["path"]: s["reason"] for s in stats.to_dict()["skipped"]} == {"binary.py": "binary"}
        assert not stats.warnings, stats.to_text()
        found = project.find_definition("hélper", "caller.py", 3)
        assert (found.status, found.file, found.line, found.column) == ("found", "wide.py", 2, 5)
        assert found.to_dict()["code"].startswith("def hélper():")
        assert [(r["line"], r["column"]) for r in project.find_references("hélper", "wide.py", 2).to_dict()["references"]
                if r["file"] == "wide.py"] == [(7, 12)]


def test_definitions_after_a_typescript_syntax_error_are_kept(tmp_path: Path):
    with _index(tmp_path, {"broken.ts": BROKEN_TS.encode(), "use.ts": USE_TS.encode()}) as project:
        stats = project.index()
        assert stats.syntax_errors == ["broken.ts"]   # still reported: its facts are partial
        names = {name: (line, column) for name, line, column in _lines(project, "broken.ts")}
        assert names["before"] == (1, 17) and names["tsSurvivor"] == (9, 17) and names["Later"] == (13, 14)
        assert names["run"] == (14, 3)
        found = project.find_definition("tsSurvivor", "use.ts", 3)
        assert (found.status, found.file, found.line, found.column) == ("found", "broken.ts", 9, 17)
        assert found.to_dict()["code"].startswith("export function tsSurvivor(): number {") or \
            found.to_dict()["code"].startswith("function tsSurvivor(): number {")
        assert project.find_definition("Later", "use.ts", 4).line == 13
        callers = {n["name"] for n in project.dependents_of("broken.ts", "before").to_dict()["nodes"]}
        assert "tsSurvivor" in callers
        assert project.find_definition("tsSurvivor", "broken.ts", 14).line == 9


def test_definitions_after_a_javascript_syntax_error_are_kept(tmp_path: Path):
    with _index(tmp_path, {"broken.js": BROKEN_JS.encode()}) as project:
        assert project.index().syntax_errors == ["broken.js"]
        names = {name for name, _, _ in _lines(project, "broken.js")}
        assert {"first", "jsSurvivor"} <= names
        assert project.find_definition("first", "broken.js", 10).line == 1


def test_an_error_tree_sitter_keeps_local_loses_nothing(tmp_path: Path):
    with _index(tmp_path, {"local.ts": LOCAL_ERROR_TS.encode()}) as project:
        assert project.index().syntax_errors == ["local.ts"]
        assert {n for n, _, _ in _lines(project, "local.ts")} >= {"one", "two"}
        assert project.find_definition("one", "local.ts", 7).line == 1


def test_a_broken_wide_file_is_decoded_with_a_warning(tmp_path: Path):
    data = codecs.BOM_UTF16_LE + "def odd():\n    return 1\n".encode("utf-16-le") + b"\x00\xd8" + b"x"
    with _index(tmp_path, {"odd.py": data}) as project:
        stats = project.index()
        assert stats.to_dict()["warnings"] == [{"path": "odd.py",
                                                "message": "invalid UTF-16 decoded with replacement characters"}]
        assert project.symbols("odd").to_dict()["status"] == "found"
