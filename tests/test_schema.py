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


@pytest.mark.parametrize("fixture, queries", [
    ("graph_py", [("main.py", "main"), ("shop/pricing.py", "round_price"), ("shop/models.py", "Entity"),
                  ("shop/orders.py", "Order.checkout"), ("main.py", "nope"), ("missing.py", "main")]),
    ("graph_ts", [("src/report.ts", "report"), ("src/shapes/shape.ts", "BaseShape"), ("src/shapes/shape.ts", "Shape")]),
])
def test_graph_and_trace_payloads_match_schema(fixture, queries):
    project = Project(FIXTURES / fixture)
    graph, trace = _validator("Graph"), _validator("Trace")
    for file, symbol in queries:
        graph.validate(project.dependencies_of(file, symbol).to_dict())
        graph.validate(project.dependents_of(file, symbol).to_dict())
        trace.validate(project.trace(symbol, file, references=True, calls=True, types=True).to_dict())
        trace.validate(project.trace(symbol).to_dict())
    first, last = queries[0], queries[1]
    graph.validate(project.paths_between(first, last).to_dict())
    graph.validate(project.paths_between(first, first).to_dict())
    graph.validate(project.call_graph().to_dict())
