"""Python forward references: the names in a string written as a type (`x: "Console"`,
`Optional["Segment"]`) are type references — go to definition, find references and the SCIP
export see them, as Jedi, pyright and scip-python do."""

from __future__ import annotations

from jupyter_codetrace import Project

SOURCE = '''from typing import Optional


def render(console: "Console", extra: Optional["Segment"] = None) -> "Segment":
    console.print("x")
    return extra


class Console:
    def print(self, text):
        return text


class Segment:
    pass
'''


def test_names_in_string_annotations_are_references(tmp_path):
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        console = project.find_definition("Console", "m.py", 4, 22)
        assert (console.status, console.line, console.kind) == ("found", 9, "class")
        segment = project.find_definition("Segment", "m.py", 4, 49)
        assert (segment.status, segment.line) == ("found", 14)
        uses = project.find_references("Segment", "m.py", 14, 7)
        assert [(r.line, r.column, r.usage) for r in uses.references] == [(4, 49, "type-ref"), (4, 71, "type-ref")]
        # a string that is not a type stays text
        assert project.find_definition("x", "m.py", 5, 20).status == "reference_not_found"
