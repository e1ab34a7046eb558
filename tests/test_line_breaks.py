"""Lines are counted at ``\\n`` only, as tree-sitter and editors count them: a form feed (a page
break, ``^L``), ``\\x1c`` or U+2028 inside a file is no line break, so the code a card shows,
a reference's line of context and the identifier under a cursor stay on the line asked about."""

from jupyter_codetrace import Project

# A page break on a line of its own, one inside a docstring, a U+2028 inside a string.
SOURCE = (
    "def first():\n"
    "    return 1\n"
    "\x0c\n"
    "def second():\n"
    '    """Page\x0cbreak and file\x1cseparator inside."""\n'
    '    label = "a\u2028b"\n'
    "    return first()\n"
    "\n"
    "\n"
    "total = second() + first()\n"
)


def _project(tmp_path, text: str, newline: str = "\n") -> Project:
    (tmp_path / "pages.py").write_bytes(text.replace("\n", newline).encode())
    return Project(tmp_path, cache_dir=tmp_path / ".cache")


def test_code_after_a_form_feed_is_the_code_of_its_line(tmp_path):
    project = _project(tmp_path, SOURCE)
    found = project.find_definition("second", "pages.py", 10, 9)
    assert (found.line, found.end_line) == (4, 7)
    assert found.code.split("\n") == SOURCE.split("\n")[3:7]
    refs = project.find_references("first", "pages.py", 1, 5)
    assert [(r.line, r.context) for r in refs.references] == [
        (7, "return first()"), (10, "total = second() + first()")]


def test_the_word_under_a_cursor_below_a_form_feed(tmp_path):
    project = _project(tmp_path, SOURCE)
    by_position = project.find_definition(None, "pages.py", 7, 13)   # `first` in `return first()`
    assert (by_position.symbol, by_position.line) == ("first", 1)


def test_windows_line_ends_are_not_part_of_the_code(tmp_path):
    project = _project(tmp_path, SOURCE, newline="\r\n")
    found = project.find_definition("second", "pages.py", 10, 9)
    assert found.code.split("\n") == SOURCE.split("\n")[3:7]
    refs = project.find_references("first", "pages.py", 1, 5)
    assert [r.context for r in refs.references] == ["return first()", "total = second() + first()"]
