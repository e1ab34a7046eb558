"""How the panel reads a doc comment (labextension/src/doc.ts, `parseDoc`): compiled with the
extension's TypeScript and run under Node, on the styles real code uses. The browser scenario
(panel_scenario.py) checks the drawing; this checks the reading, style by style."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

LABEXTENSION = Path(__file__).resolve().parents[2] / "labextension"
TSC = LABEXTENSION / "node_modules" / ".bin" / "tsc"

pytestmark = pytest.mark.skipif(not TSC.exists() or not shutil.which("node"),
                                reason="labextension/node_modules missing: scripts/bootstrap.sh builds the panel")


@pytest.fixture(scope="module")
def parse(tmp_path_factory):
    out = tmp_path_factory.mktemp("doc-build")
    done = subprocess.run([str(TSC), str(LABEXTENSION / "src" / "doc.ts"), "--module", "commonjs", "--target", "ES2018",
                           "--lib", "ES2018,DOM", "--outDir", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    runner = out / "run.cjs"
    runner.write_text("const { parseDoc } = require('./doc.js');\n"
                      "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
                      "process.stdout.write(JSON.stringify(cases.map(([doc, language]) => parseDoc(doc, language))));\n")

    def run(*cases: tuple[str, str]) -> list[list[dict]]:
        done = subprocess.run(["node", str(runner)], input=json.dumps(cases), capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return lambda doc, language="python": run((doc, language))[0]


def kinds(blocks):
    return [b["kind"] for b in blocks]


def test_a_docstring_keeps_paragraphs_and_line_breaks(parse):
    blocks = parse("Summary line.\n\nFirst line of the body,\nsecond line.\n\nAnother paragraph.")
    assert blocks == [{"kind": "paragraph", "text": "Summary line."},
                      {"kind": "paragraph", "text": "First line of the body,\nsecond line."},
                      {"kind": "paragraph", "text": "Another paragraph."}]


def test_markdown_joins_the_lines_of_a_paragraph_but_keeps_hard_breaks(parse):
    blocks = parse("One sentence\nwrapped here.\n\nBroken  \nline.", "typescript")
    assert [b["text"] for b in blocks] == ["One sentence wrapped here.", "Broken\nline."]


def test_rest_literal_blocks_doctests_and_code_directives_are_code(parse):
    blocks = parse("Use it like this::\n\n    x = f(1)\n\n    y = f(2)\n\nAfter.\n\n"
                   ">>> f(3)\n4\n\n.. code-block:: python\n   :linenos:\n\n   z = f(5)\n\n::\n\n    bare()")
    assert blocks == [{"kind": "paragraph", "text": "Use it like this:"},
                      {"kind": "code", "text": "x = f(1)\n\ny = f(2)"},
                      {"kind": "paragraph", "text": "After."},
                      {"kind": "code", "text": ">>> f(3)\n4"},
                      {"kind": "code", "text": "z = f(5)"},
                      {"kind": "code", "text": "bare()"}]


def test_rest_fields_are_grouped_with_their_types(parse):
    blocks = parse(":param int x: the x\n:param y: the y,\n    continued\n:type y: str\n"
                   ":raises ValueError: when bad\n:rtype: bool\n:returns: whether")
    assert blocks == [
        {"kind": "fields", "label": "Parameters", "items": [{"name": "x", "type": "int", "text": "the x"},
                                                            {"name": "y", "type": "str", "text": "the y, continued"}]},
        {"kind": "fields", "label": "Raises", "items": [{"name": "ValueError", "type": "", "text": "when bad"}]},
        {"kind": "fields", "label": "Returns", "items": [{"name": "", "type": "bool", "text": "whether"}]}]


def test_google_and_numpy_sections(parse):
    google = parse("Fetch.\n\nArgs:\n    table (str): the table,\n        continued.\n    keys: which\n\n"
                   "Returns:\n    dict: the rows")
    assert google[1] == {"kind": "fields", "label": "Parameters", "items": [
        {"name": "table", "type": "str", "text": "the table, continued."}, {"name": "keys", "type": "", "text": "which"}]}
    assert google[2] == {"kind": "fields", "label": "Returns", "items": [{"name": "", "type": "dict", "text": "the rows"}]}
    numpy = parse("Parameters\n----------\nx : int\n    the value")
    assert numpy == [{"kind": "heading", "text": "Parameters"}, {"kind": "paragraph", "text": "x : int\n    the value"}]


def test_jsdoc_tags_fenced_code_and_examples(parse):
    blocks = parse("Formats.\n\n```ts\nf(1);\n```\n\n@param {number} cents - the amount\n@param [sign='$'] the sign\n"
                   "@returns the text\n@example\nf(2)\n@deprecated use g", "typescript")
    assert kinds(blocks) == ["paragraph", "code", "heading", "code", "fields", "fields", "fields"]
    assert blocks[1]["text"] == "f(1);"
    assert blocks[3]["text"] == "f(2)"
    assert blocks[4]["items"] == [{"name": "cents", "type": "number", "text": "the amount"},
                                  {"name": "sign", "type": "", "text": "the sign"}]
    assert blocks[5] == {"kind": "fields", "label": "Returns", "items": [{"name": "", "type": "", "text": "the text"}]}
    assert blocks[6]["label"] == "Deprecated"


def test_lists_and_markdown_headings(parse):
    blocks = parse("# Examples\n\n- one\n  continued\n- two\n\n1. first\n2. second", "rust")
    assert blocks == [{"kind": "heading", "text": "Examples"},
                      {"kind": "list", "ordered": False, "items": ["one continued", "two"]},
                      {"kind": "list", "ordered": True, "items": ["first", "second"]}]


def test_html_in_a_comment_is_text_to_the_parser(parse):
    blocks = parse("<img src=x onerror=alert(1)>\n\n<script>alert(2)</script>", "typescript")
    assert [b["text"] for b in blocks] == ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>"]
