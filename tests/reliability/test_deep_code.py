"""Deeply nested and very long generated code: no query raises RecursionError, in any file.

Issue 16, item 2. Each file here is generated. A receiver chain thousands of links long
(``Builder().step().step()…``, ``a.b.c.…``, ``a[0].b[0]…``) used to raise RecursionError in
resolution and in the graph's interface hash — for every graph query on the repository, not
only the chain's own symbols. The chain's links are still resolved (innermost first), and the
rest of the repository answers as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jupyter_codetrace import Project

LINKS = 3_000   # a.b.c.… (cheap to parse)
CALLS = 1_000   # Builder().step().step()… (tree-sitter's queries cost grows with the nesting)
DEPTH = 2_000
GOOD = "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n"

PY_BUILDER = ("class Builder:\n    def step(self) -> \"Builder\":\n        return self\n\n\n"
              "def make():\n    return Builder()" + ".step()" * CALLS + "\n")
TS_BUILDER = ("export class Builder {\n  step(): Builder {\n    return this;\n  }\n}\n\n"
              "export function make() {\n  return new Builder()" + ".step()" * CALLS + ";\n}\n")


def _notebook(source: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
                                  "execution_count": None}],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


FILES = {
    "good.py": GOOD,
    "builder.py": PY_BUILDER,
    "builder.ts": TS_BUILDER,
    "members.py": "from good import helper\n\nvalue = helper" + "".join(f".a{i}" for i in range(LINKS)) + "\n",
    "members.js": "export const value = window" + "".join(f".a{i}" for i in range(LINKS)) + ";\n",
    "subscripts.py": "from good import helper\n\n\ndef sub():\n    return helper" + "[0].x" * LINKS + "\n",
    "parens.ts": "export function parens() {\n  return " + "(" * DEPTH + "1" + ")" * DEPTH + ";\n}\n",
    "nested.ts": "".join(f"export class K{i} {{ m{i}() {{\n" for i in range(300)) + "this.m0();\n" + "}}\n" * 300,
    "calls.py": "from good import helper\n\n\ndef calls():\n    return helper" + "()" * DEPTH + "\n",
    "lists.py": "x = " + "[" * DEPTH + "]" * DEPTH + "\n",
    "lambdas.py": "f = " + "lambda: " * DEPTH + "1\n",
    "long.py": "from good import helper\n\n\ndef long():\n" + (" pass\n" * 99 + " helper()\n") * 1_000,
    "chain.ipynb": _notebook("from good import helper\nvalue = helper" + "".join(f".b{i}" for i in range(LINKS)) + "\n"),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("deep-code") / "repo"
    root.mkdir()
    for name, text in FILES.items():
        (root / name).write_text(text)
    with Project(root, cache_dir=tmp_path_factory.mktemp("cache"), workers=1) as project:
        stats = project.index()
        assert stats.files == len(FILES) and not stats.skipped, stats.to_text()
        yield project


def _all_forms(result) -> dict:
    data = result.to_dict()
    json.dumps(data)
    assert result.to_text() and result.to_markdown()
    return data


def test_the_rest_of_the_repository_answers(project: Project):
    found = project.find_definition("helper", "good.py", 6)
    assert (found.status, found.file, found.line) == ("found", "good.py", 1)
    callers = {n["name"] for n in _all_forms(project.dependents_of("good.py", "helper"))["nodes"]}
    assert {"main", "calls", "long"} <= callers
    assert _all_forms(project.dependencies_of("good.py", "main"))["status"] == "found"
    assert _all_forms(project.paths_between(("good.py", "main"), ("good.py", "helper")))["status"] == "found"
    assert _all_forms(project.trace("helper", "good.py", references=True, calls=True, types=True))
    assert len(_all_forms(project.call_graph())["nodes"]) >= len(FILES)
    references = _all_forms(project.find_references("helper", "good.py", 1))
    assert references["count"] >= 1_000


@pytest.mark.parametrize("path, line, prefix", [("builder.py", 7, "    return Builder()"),
                                                ("builder.ts", 8, "  return new Builder()")])
def test_a_long_method_chain_is_resolved_to_its_last_link(project: Project, path: str, line: int, prefix: str):
    last = len(prefix) + len(".step()") * (CALLS - 1) + 2  # the `s` of the last `.step()`
    found = project.find_definition("step", path, line, last)
    assert (found.status, found.file, found.line, found.to_dict()["resolution"]) == ("found", path, 2, "member")
    edges = _all_forms(project.dependencies_of(path, "make"))["edges"]
    assert {(e["target"], e["kind"]) for e in edges} >= {(f"{path}#Builder.step", "CALLS")}
    assert _all_forms(project.dependents_of(path, "step"))["status"] == "found"
    assert _all_forms(project.trace("step", path, references=True, calls=True, types=True))


@pytest.mark.parametrize("path, symbol", [
    ("members.py", "value"), ("members.js", "value"), ("subscripts.py", "sub"), ("parens.ts", "parens"),
    ("nested.ts", "m299"), ("nested.ts", "K0"), ("calls.py", "calls"), ("lists.py", "x"), ("lambdas.py", "f"),
    ("long.py", "long"), ("chain.ipynb", "value"),
])
def test_every_query_on_the_deep_file_answers(project: Project, path: str, symbol: str):
    assert _all_forms(project.trace(symbol, path, references=True, calls=True, types=True))
    assert _all_forms(project.dependencies_of(path, symbol))["status"] in ("found", "symbol_not_found")
    assert _all_forms(project.dependents_of(path, symbol))["status"] in ("found", "symbol_not_found")
    assert _all_forms(project.paths_between((path, symbol), ("good.py", "helper")))["status"]
    assert _all_forms(project.symbols(symbol))["status"] == "found"


@pytest.mark.parametrize("path, line, name", [("members.py", 3, f"a{LINKS - 1}"), ("members.js", 1, f"a{LINKS - 1}"),
                                              ("subscripts.py", 5, "x"), ("chain.ipynb", 2, f"b{LINKS - 1}")])
def test_references_along_a_chain_answer(project: Project, path: str, line: int, name: str):
    for query in (project.find_definition, project.find_references):
        result = query(name, path, line)
        assert result.status in ("found", "unresolved", "symbol_not_found"), result.to_dict()
        _all_forms(result)
