"""The resolver and find_references never make every definition of a file to find a few.

A stored file's definitions are columns; a ``Definition`` is made when one is asked for
(``facts.StoredDefinitions``). A loop over ``facts.definitions`` (or over a slice or a range of
its indexes) makes them all: done for every resolved call or inferred parameter, it was the
largest cost of find_references on TypeScript (a call's overloads searched among 5,000
definitions of zod's schemas.ts, each time). Such lookups go through ``FileView.named``, the
parameter and member tables, ``parameters_within`` or ``definition_column``. The few loops left
run once per question or per edited file, and are listed here with why.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "jupyter_codetrace"
CHECKED = sorted((PACKAGE / "resolve").glob("*.py")) + [PACKAGE / "queries" / "references.py",
                                                        PACKAGE / "queries" / "definition.py"]
# (file, function): why a whole-file loop is fine there
ALLOWED = {
    ("resolver.py", "_outline"): "once per edited file and generation: what a change can change",
}


def _whole_file_loops(tree: ast.AST) -> list[tuple[str, int]]:
    """(function, line) of each loop or comprehension over ``….definitions``, a slice of it, or
    ``enumerate``/``range(…len(…))`` of it."""
    found = []

    def iterates_definitions(node: ast.AST) -> bool:
        if isinstance(node, ast.Attribute) and node.attr == "definitions":
            return True
        if isinstance(node, ast.Subscript):
            return iterates_definitions(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("enumerate", "range",
                                                                                               "len", "zip"):
            return any(iterates_definitions(arg) for arg in node.args)
        return False

    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            iters = [node.iter] if isinstance(node, ast.For) else \
                [g.iter for g in node.generators] if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp,
                                                                        ast.GeneratorExp)) else []
            if any(iterates_definitions(it) for it in iters):
                found.append((function.name, node.lineno))
    return found


def test_no_loop_makes_every_definition_of_a_file():
    offenders = []
    for path in CHECKED:
        for function, line in _whole_file_loops(ast.parse(path.read_text(encoding="utf-8"))):
            if (path.name, function) not in ALLOWED:
                offenders.append(f"{path.relative_to(PACKAGE)}:{line} in {function}")
    assert offenders == [], "loops over a file's definitions: " + ", ".join(sorted(set(offenders)))


def test_the_check_finds_such_a_loop():
    sample = ast.parse("def f(view, name):\n    return [i for i, d in enumerate(view.facts.definitions)"
                       " if d.name == name]\n\ndef g(defs, d):\n    for x in defs[d + 1:]:\n        pass\n"
                       "\ndef h(facts):\n    return [i for i in range(3, len(facts.definitions))]\n")
    assert [name for name, _ in _whole_file_loops(sample)] == ["f", "h"]
