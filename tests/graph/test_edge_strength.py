"""One line can reach the same target twice: first by a guess (a receiver of unknown type whose
member only one class has), then properly. The edge the graph keeps is the proper one — a
name-only edge is left out of answers by default, so keeping the guess hid a real call."""

from __future__ import annotations

from jupyter_codetrace import Project

CODE = '''class Worker:
    def process(self):
        return 1


def run(anything):
    return anything.process() + Worker().process()
'''


def test_a_guess_on_a_line_does_not_hide_the_proper_edge_to_the_same_target(tmp_path):
    (tmp_path / "jobs.py").write_text(CODE, encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        edges = [(e.source, e.target, e.resolution) for e in project.call_graph().edges
                 if e.kind == "CALLS" and e.line == 7 and e.target == "jobs.py#Worker.process"]
        assert len(edges) == 1 and edges[0][2] != "name-only", edges
        callers = project.dependents_of("jobs.py", "Worker.process")
        assert "jobs.py#run" in {n.id for n in callers.nodes}
