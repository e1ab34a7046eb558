"""Go-to-definition, find-references and the call graph agree on every position of every fixture.

For each reference the index holds, in every fixture repository: when ``find_definition``
answers it (better than by name), ``find_references`` of that definition contains the
position, and when the position is a call of a function or method, the call graph has a
CALLS edge on that line to the node defined there. One answer per question, whichever
surface asks it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import Project

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ROOTS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
_CALLABLE = {"function", "method"}
_KEYWORDS = {"this", "self", "Self", "super", "cls"}


def _positions(project: Project):
    """(file, line, column, name, usage) of every reference the index holds (notebooks aside:
    their lines are cell lines)."""
    ctx = project._context
    with ctx.lock:
        ctx.fresh()
        for path in sorted(ctx.index._summaries):
            if path.endswith(".ipynb"):
                continue
            facts = ctx.index.facts(path)
            for ref in facts.references if facts else ():
                yield path, ref.line, ref.column, ref.name, ref.usage


@pytest.mark.parametrize("root", ROOTS)
def test_definition_references_and_calls_agree(root, tmp_path):
    project = Project(FIXTURES / root, cache_dir=tmp_path / "cache")
    graph = project.call_graph()
    nodes = {n.id: n for n in graph.nodes}
    calls = {(e.source, e.file, e.line, e.target) for e in graph.edges if e.kind == "CALLS"}
    call_targets_by_site = {}
    for _source, file, line, target in calls:
        node = nodes.get(target)
        if node is not None:
            call_targets_by_site.setdefault((file, line), set()).add((node.file, node.line))
    external_calls_in: dict[str, set] = {}
    for node in graph.nodes:
        external_calls_in.setdefault(node.file, set()).update(node.external_calls)
    references_of: dict[tuple, set] = {}
    disagreements = []
    checked = 0
    for path, line, column, name, usage in _positions(project):
        found = project.find_definition(name, path, line, column)
        if found.status != "found" or found.resolution == "name-only" or found.file is None \
                or found.kind == "module" or name in _KEYWORDS:
            continue  # `this` names the class but is no reference to it; modules are not compared
        if (found.file, found.line, found.column) == (path, line, column):
            continue  # a destructured key of unknown type: it is the local name's own declaration
        checked += 1
        key = (found.file, found.line, found.column, found.name)
        if key not in references_of:
            refs = project.find_references(found.name, found.file, found.line, found.column)
            references_of[key] = {(r.file, r.line, r.column) for r in refs.references} if refs.found else set()
        if (path, line, column) not in references_of[key]:
            disagreements.append(f"{path}:{line}:{column} {name}: definition {found.file}:{found.line} "
                                 f"does not list it among its references")
        if usage == "call" and found.kind in _CALLABLE and found.library is not None:
            # library code is no node: the caller names it among its external calls
            if not any(c == name or c.endswith("." + name) for c in external_calls_in.get(path, ())):
                disagreements.append(f"{path}:{line}:{column} {name}: definition {found.file}:{found.line} "
                                     f"({found.library['package']}) but no external call in {path} names it")
        elif usage == "call" and found.kind in _CALLABLE and not found.declaration:
            # a set of overloads is one node of the graph (graph/build.py: the first stands for it)
            targets = call_targets_by_site.get((path, line), set())
            if (found.file, found.line) not in targets and not any(
                    (o["file"], o["line"]) in targets for o in found.overloads):
                disagreements.append(f"{path}:{line}:{column} {name}: definition {found.file}:{found.line} "
                                     f"but no CALLS edge on that line goes there")
    assert checked > 0
    assert not disagreements, f"{len(disagreements)} of {checked} positions disagree:\n" + "\n".join(disagreements[:40])
