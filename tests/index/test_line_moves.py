"""``facts.line_moves``: which saves only move what a file says (the graph then keeps the file's
answers and moves its edges, tests/graph/test_incremental.py), on facts extracted from real text."""

from __future__ import annotations

import pytest

from jupyter_codetrace.facts import FileFacts, line_moves
from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.languages import by_name

PYTHON = '''import os


def helper(x):
    """Join."""
    return os.path.join(x, "a")


class Shop:
    def total(self, items):
        s = 0
        for i in items:
            s += helper(i)
        return s
'''

TYPESCRIPT = '''import { join } from "./paths.js";

export interface Item { name: string }

export function total(items: Item[]): number {
  let s = 0;
  for (const i of items) {
    s += join(i.name).length;
  }
  return s;
}
'''


def _facts(language: str, text: str, encoded: bool = False) -> FileFacts:
    facts = extract_file("m.py" if language == "python" else "m.ts", text.encode(), by_name(language))
    return FileFacts.from_rows(facts.to_rows()) if encoded else facts   # references as the store keeps them


MOVES = [
    ("python", PYTHON, lambda t: "# a comment\n\n" + t, {4: 6, 14: 16}),
    ("python", PYTHON, lambda t: t.replace("        s = 0\n", "        # from zero\n        s = 0\n"), {10: 10, 11: 12, 12: 13}),
    ("python", PYTHON, lambda t: t.replace('"""Join."""', '"""Join.\n\n    Longer now.\n    """'), {4: 4, 6: 9}),
    ("python", PYTHON, lambda t: t.replace('"a"', '"b"'), {6: 6}),      # no fact holds the literal
    ("python", PYTHON, lambda t: t + "\n# the end\n", {14: 14}),
    ("typescript", TYPESCRIPT, lambda t: "// header\n" + t, {5: 6, 10: 11}),
    ("typescript", TYPESCRIPT, lambda t: t.replace("  let s = 0;\n", "  /* sum */\n  let s = 0;\n"), {5: 5, 8: 9}),
]

CHANGES = [
    ("python", PYTHON, lambda t: t.replace("helper(i)", "len(i)")),                        # another call
    ("python", PYTHON, lambda t: t.replace("        s = 0\n", "        s = 0\n        t = 1\n")),  # a new variable
    ("python", PYTHON, lambda t: t.replace("        s = 0\n        for", "        for").replace(
        "        return s", "        s = 0\n        return s")),                              # statements reordered
    ("python", PYTHON, lambda t: t.replace("def helper(x):", "def helper(x, y=None):")),   # a signature
    ("typescript", TYPESCRIPT, lambda t: t.replace("name: string", "name: string; price: number")),
    ("typescript", TYPESCRIPT, lambda t: t.replace("join(i.name)", "join(i.name, i.name)")),
]


@pytest.mark.parametrize("encoded", [False, True])
@pytest.mark.parametrize("language, text, edit, some_lines", MOVES)
def test_a_save_that_only_moves_facts_gives_their_new_lines(language, text, edit, some_lines, encoded):
    moved = line_moves(_facts(language, text, encoded), _facts(language, edit(text), encoded))
    assert moved is not None and moved.lines is not None
    assert {line: moved.lines[line] for line in some_lines} == some_lines


REFLOWS = [
    ("python", PYTHON, lambda t: t.replace('os.path.join(x, "a")', 'os.path.join(\n        x, "a")')),  # a line split
    ("python", PYTHON, lambda t: t.replace("s += helper(i)", "s += \\\n                helper(i)")),
    ("typescript", TYPESCRIPT, lambda t: t.replace("s += join(i.name).length;", "s += join(\n      i.name,\n    ).length;")),
]


@pytest.mark.parametrize("language, text, edit", REFLOWS)
def test_a_reflow_only_moves_the_facts_but_gives_no_line_map(language, text, edit):
    """A formatter's line split: every answer stays, but an edge's line alone no longer says
    where it went (the graph redoes the file from the answers kept)."""
    for encoded in (False, True):
        assert line_moves(_facts(language, text, encoded), _facts(language, edit(text), encoded)) == (None,)


@pytest.mark.parametrize("language, text, edit", CHANGES)
def test_a_change_of_code_is_not_a_move(language, text, edit):
    assert line_moves(_facts(language, text), _facts(language, edit(text))) is None
    assert line_moves(_facts(language, text, True), _facts(language, edit(text), True)) is None


def test_a_save_changing_how_many_facts_does_not_load_the_previous_ones(tmp_path, monkeypatch):
    """The index compares a save's facts with the file's previous ones (``Index.only_moved``),
    loading those from the store when this process does not hold them; a save that adds or
    removes a definition or a reference cannot be a move, and is told without that load."""
    from jupyter_codetrace import Project
    from jupyter_codetrace.index.store import Store

    (tmp_path / "repo").mkdir()
    source = tmp_path / "repo" / "m.py"
    source.write_text(PYTHON)
    with Project(tmp_path / "repo", cache_dir=tmp_path / "cache") as project:
        project.index()
    loads = []
    original = Store.load
    monkeypatch.setattr(Store, "load", lambda self, path: (loads.append(path), original(self, path))[1])

    def save(text: str) -> tuple[str, str]:
        before = project._index._summaries["m.py"].record.digest
        source.write_text(text)
        project.index()
        return before, project._index._summaries["m.py"].record.digest

    with Project(tmp_path / "repo", cache_dir=tmp_path / "cache") as project:   # holds no facts yet
        project.index()
        moved = save("# a comment\n\n" + PYTHON)
        assert loads == ["m.py"] and project._index.only_moved("m.py", *moved)
        project._index._facts.clear()
        changed = save("# a comment\n\n" + CHANGES[1][2](PYTHON))   # one variable more
        assert loads == ["m.py"] and not project._index.only_moved("m.py", *changed)
