"""index/notebooks.py: a notebook's code cells as one virtual Python source, and back."""

from __future__ import annotations

import json

import pytest

from jupyter_codetrace.index import notebooks as notebooks_module
from jupyter_codetrace.index.notebooks import (CellSpan, from_cell_position, notebook_source,
                                               to_cell_position)
from jupyter_codetrace.index.parsing import parse
from jupyter_codetrace.languages import by_name


def notebook(*cells, nbformat: int = 4) -> bytes:
    """A notebook from ("code"|"markdown"|"raw", source) pairs."""
    body = [{"cell_type": kind, "metadata": {}, "source": source,
             **({"outputs": [], "execution_count": None} if kind == "code" else {})}
            for kind, source in cells]
    return json.dumps({"cells": body, "metadata": {}, "nbformat": nbformat,
                       "nbformat_minor": 5}).encode("utf-8")


def virtual(*cells) -> tuple[list[str], list[CellSpan]]:
    source, spans = notebook_source(notebook(*cells))
    text = source.decode("utf-8")
    assert text.endswith("\n") or not spans
    return text.split("\n")[:-1], spans


def parses_cleanly(source: bytes) -> bool:
    return not parse(by_name("python"), source).root_node.has_error


# -- cells and spans -------------------------------------------------------------------------

def test_code_cells_are_concatenated_and_markdown_is_skipped():
    lines, spans = virtual(("markdown", "# Title\nSome *text*."),
                           ("code", "import os\nx = 1"),
                           ("raw", "raw text"),
                           ("code", "def f():\n    return x"))
    assert lines == ["import os", "x = 1", "def f():", "    return x"]
    # Cell indices count every cell, markdown and raw included.
    assert spans == [CellSpan(1, 1, 2), CellSpan(3, 3, 2)]


def test_list_and_str_sources_give_the_same_result():
    as_list = notebook(("code", ["import os\n", "x = 1\n", "y = 2"]))
    as_str = notebook(("code", "import os\nx = 1\ny = 2"))
    assert notebook_source(as_list) == notebook_source(as_str)
    assert notebook_source(as_str)[0] == b"import os\nx = 1\ny = 2\n"


def test_empty_cells_take_one_line():
    lines, spans = virtual(("code", ""), ("code", []), ("code", "x = 1"))
    assert lines == ["", "", "x = 1"]
    assert spans == [CellSpan(0, 1, 1), CellSpan(1, 2, 1), CellSpan(2, 3, 1)]


def test_a_trailing_newline_is_a_last_empty_line_as_jupyter_shows_it():
    lines, spans = virtual(("code", "x = 1\n"), ("code", "y = 2"))
    assert lines == ["x = 1", "", "y = 2"]
    assert spans == [CellSpan(0, 1, 2), CellSpan(1, 3, 1)]


def test_a_notebook_without_code_cells_is_empty():
    assert notebook_source(notebook(("markdown", "only prose"))) == (b"", [])
    assert notebook_source(notebook()) == (b"", [])


def test_crlf_and_cr_line_endings_become_newlines():
    lines, spans = virtual(("code", "a = 1\r\nb = 2\rc = 3"))
    assert lines == ["a = 1", "b = 2", "c = 3"]
    assert spans == [CellSpan(0, 1, 3)]


def test_nbformat_3_worksheets_are_read():
    raw = json.dumps({"nbformat": 3, "worksheets": [
        {"cells": [{"cell_type": "markdown", "source": "# t"},
                   {"cell_type": "code", "input": ["x = 1\n", "y = 2"], "language": "python"}]},
        {"cells": [{"cell_type": "code", "input": "z = 3"}]},
    ]}).encode()
    source, spans = notebook_source(raw)
    assert source == b"x = 1\ny = 2\nz = 3\n"
    assert spans == [CellSpan(1, 1, 2), CellSpan(2, 3, 1)]


def test_a_lone_surrogate_keeps_its_column():
    raw = b'{"cells": [{"cell_type": "code", "source": "s = \\"\\ud800\\" + t"}]}'
    source, _ = notebook_source(raw)
    assert source == b's = "?" + t\n'


# -- IPython syntax --------------------------------------------------------------------------

def test_line_magics_and_shell_escapes_become_pass_at_their_indentation():
    lines, _ = virtual(("code", "%matplotlib inline\n!pip install x\nfor i in range(3):\n"
                                "    !echo {i}\n    %time f(i)\n  %load_ext autoreload"))
    assert lines == ["pass", "pass", "for i in range(3):", "    pass", "    pass", "  pass"]


def test_assignments_from_shell_and_magics_keep_their_target():
    lines, _ = virtual(("code", "files = !ls -la\nout =%sx date\na, b = !echo 1 2\n"
                                "self.out = !ls\nok = 1 != 2\nm = 7 % 3"))
    assert lines == ["files = None", "out =None", "a, b = None", "self.out = None",
                     "ok = 1 != 2", "m = 7 % 3"]


def test_help_syntax_becomes_pass():
    lines, _ = virtual(("code", "os.path?\n??os\nlen??\nx = 1  # really?\ns = 'what?'"))
    assert lines == ["pass", "pass", "pass", "x = 1  # really?", "s = 'what?'"]


def test_cell_magics_blank_the_whole_cell():
    lines, spans = virtual(("code", "%%bash\necho hi\nls -la"),
                           ("code", "\n%%writefile x.py\ndef f():\n    pass"),
                           ("code", "%%html\n<b>x</b>"),
                           ("code", "y = 1"))
    assert lines == ["", "", "", "", "", "", "", "", "", "y = 1"]
    assert [span.line_count for span in spans] == [3, 4, 2, 1]


@pytest.mark.parametrize("magic", ["%%time", "%%timeit -n 3", "%%capture out", "%%prun", "%%debug"])
def test_python_body_cell_magics_keep_their_body(magic: str):
    lines, _ = virtual(("code", f"{magic}\nz = compute()\n!ls\ndef g():\n    return z"))
    assert lines == ["", "z = compute()", "pass", "def g():", "    return z"]


def test_percent_and_bang_inside_python_are_left_alone():
    cell = ("value = (total\n"
            "         % modulus)\n"
            "other = total \\\n"
            "    % modulus\n"
            "doc = \"\"\"\n"
            "%not a magic\n"
            "!not a shell escape\n"
            "\"\"\"\n"
            "call(a,\n"
            "     !b)\n")
    lines, _ = virtual(("code", cell))
    assert lines == cell.split("\n")


def test_a_backslash_continued_magic_is_blanked_to_its_end():
    lines, _ = virtual(("code", "!echo one \\\n  two \\\n  three\nx = 1"))
    assert lines == ["pass", "", "", "x = 1"]


def test_brackets_and_strings_do_not_leak_between_cells():
    # IPython runs each cell alone: an unclosed bracket in one cell does not hide a magic in
    # the next one.
    lines, _ = virtual(("code", "broken = (1,"), ("code", "%time x = 1"))
    assert lines == ["broken = (1,", "pass"]


def test_the_virtual_source_of_an_ipython_heavy_notebook_parses_cleanly():
    raw = notebook(
        ("markdown", "# Analysis"),
        ("code", ["%load_ext autoreload\n", "%autoreload 2\n", "import os\n",
                  "!pip install -q x\n"]),
        ("code", "files = !ls *.csv\nfor name in files:\n    !wc -l {name}\n"),
        ("code", "%%bash\nfor f in *; do echo $f; done"),
        ("code", "%%time\ndef load(path):\n    return open(path).read()\nload?"),
        ("code", ""),
        ("code", "data = [load(f) for f in files]"),
    )
    source, spans = notebook_source(raw)
    assert parses_cleanly(source)
    assert source.count(b"\n") == sum(span.line_count for span in spans)


# -- positions -------------------------------------------------------------------------------

@pytest.fixture
def spans() -> list[CellSpan]:
    return notebook_source(notebook(("markdown", "m"),
                                    ("code", "a = 1\nb = 2"),
                                    ("markdown", "m"),
                                    ("code", ""),
                                    ("code", "def f():\n    return a\n")))[1]


def test_spans_of_the_fixture(spans):
    assert spans == [CellSpan(1, 1, 2), CellSpan(3, 3, 1), CellSpan(4, 4, 3)]


@pytest.mark.parametrize("line,expected", [(1, (1, 1)), (2, (1, 2)), (3, (3, 1)), (4, (4, 1)),
                                           (5, (4, 2)), (6, (4, 3))])
def test_to_cell_position(spans, line, expected):
    assert to_cell_position(spans, line) == expected
    assert from_cell_position(spans, *expected) == line


@pytest.mark.parametrize("line", [0, -1, 7, 100])
def test_to_cell_position_outside_the_cells(spans, line):
    with pytest.raises(ValueError, match="outside"):
        to_cell_position(spans, line)


def test_to_cell_position_without_code_cells():
    with pytest.raises(ValueError):
        to_cell_position([], 1)


@pytest.mark.parametrize("cell,line,message", [
    (0, 1, "not a code cell"),   # markdown
    (2, 1, "not a code cell"),   # markdown
    (9, 1, "not a code cell"),   # no such cell
    (1, 0, "outside cell 1"),
    (1, 3, "outside cell 1"),
    (3, 2, "outside cell 3"),
])
def test_from_cell_position_refuses_what_is_not_in_a_code_cell(spans, cell, line, message):
    with pytest.raises(ValueError, match=message):
        from_cell_position(spans, cell, line)


# -- invalid notebooks ---------------------------------------------------------------------

@pytest.mark.parametrize("raw,message", [
    (b'{"cells": [', "invalid JSON at line 1"),
    (b"", "invalid JSON"),
    (b"\xff\xfe\x00garbage", "not a valid notebook"),
    (b"[]", "top level is not a JSON object"),
    (b'{"metadata": {}}', 'no "cells" list'),
    (b'{"cells": ["x"]}', "cell 0 is not an object"),
    (b'{"cells": [{"cell_type": "code", "source": 3}]}', "cell 0 source is not text"),
    (b'{"cells": [{"cell_type": "code", "source": ["a", 1]}]}', "cell 0 source is not text"),
])
def test_invalid_notebooks_raise_value_error(raw: bytes, message: str):
    with pytest.raises(ValueError, match="not a valid notebook") as info:
        notebook_source(raw)
    assert message in str(info.value)


def test_a_bom_before_the_json_is_accepted():
    assert notebook_source(b"\xef\xbb\xbf" + notebook(("code", "x = 1")))[0] == b"x = 1\n"


def test_public_names():
    assert set(notebooks_module.__all__) == {"CellSpan", "notebook_source", "to_cell_position",
                                             "from_cell_position", "PYTHON_BODY_CELL_MAGICS"}
