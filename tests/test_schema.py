"""Every to_dict() payload validates against schema/results.schema.json (which also feeds the
panel's TypeScript types): definitions, references and symbols over every fixture position."""

import json
import pathlib

import jsonschema
import pytest

from jupyter_codetrace import Project

SCHEMA = json.loads((pathlib.Path(__file__).resolve().parents[1] / "jupyter_codetrace/schema/results.schema.json").read_text())
FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures"


def _validator(name):
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


@pytest.mark.parametrize("fixture", ["python_app", "ts_app", "js_app"])
def test_payloads_match_schema(fixture):
    project = Project(FIXTURES / fixture)
    stats = project.index()
    _validator("IndexStats").validate(stats.to_dict())
    checked = 0
    for path in sorted(p for p in (FIXTURES / fixture).rglob("*") if p.is_file()):
        rel = path.relative_to(FIXTURES / fixture).as_posix()
        if rel.endswith((".json", ".md")):
            continue
        lines = path.read_text(errors="replace").splitlines()
        for number, text in enumerate(lines[:40], start=1):
            words = [w for w in text.replace("(", " ").replace(".", " ").split() if w.isidentifier()]
            for word in words[:2]:
                _validator("Definition").validate(project.find_definition(word, rel, number).to_dict())
                _validator("References").validate(project.find_references(word, rel, number).to_dict())
                checked += 1
    _validator("Symbols").validate(project.symbols("a").to_dict())
    _validator("Symbols").validate(project.symbols("zzzzqqq").to_dict())
    assert checked > 50
