"""How find_references chooses and reuses its work (queries/references.py): a function's local
is searched for in its own file only, and an answer is reused until a file changes. Neither may
change an answer."""

from __future__ import annotations

import os
import time

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.queries import references
from jupyter_codetrace.resolve.resolver import Symbol


def _symbols(project, local: bool) -> list[Symbol]:
    """The definitions bound inside a function body (``local``); else every other one (what other
    files can reach: top-level names, members) and every module."""
    resolver = project._context.fresh()
    found = []
    for path in sorted(resolver.index.files()):
        view = resolver.view(path)
        for i in range(len(view.facts.definitions) if view else 0):
            if references._function_local(resolver, {Symbol(path, i)}, path) == local:
                found.append(Symbol(path, i))
        if not local:
            found.append(Symbol(path, -1))
    return found


def _answer(project, target: Symbol) -> dict:
    ctx = project._context
    with ctx.lock:
        ctx.fresh()
        ctx.resolver.memo.pop(("references.answers",), None)  # computed, not reused
        ctx._answer_store = None   # nor served from what an earlier computation kept
        return references.references_to(ctx, target, "name", include_declaration=True).to_dict()


@pytest.mark.parametrize("name", ["python_app", "py_flow", "ts_app", "js_app", "go_app", "rust_app", "cpp_app",
                                  "c_app", "java_app", "elixir_app"])
def test_a_local_is_found_only_in_its_own_file_as_by_a_full_search(copy_fixture, tmp_path, name, monkeypatch):
    with Project(copy_fixture(name), cache_dir=tmp_path / "cache") as project:
        targets = _symbols(project, local=True)
        assert targets, "the fixture has function locals"
        shortcut = {t: _answer(project, t) for t in targets}
        monkeypatch.setattr(references, "_function_local", lambda *args: False)
        full = {t: _answer(project, t) for t in targets}
    assert [t for t in targets if shortcut[t] != full[t]] == []


def test_a_module_variable_and_a_global_statement_are_searched_everywhere(tmp_path):
    (tmp_path / "a.py").write_text("count = 0\n\n\ndef bump():\n    global total\n    total = 1\n    local = 2\n"
                                   "    def helper():\n        return local\n\n    class Box:\n        size = 1\n\n"
                                   "    return helper, Box\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("from a import count, total\n\nprint(count, total)\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        resolver = project._context.fresh()
        defs = resolver.view("a.py").facts.definitions
        kinds = {d.name: references._function_local(resolver, {Symbol("a.py", i)}, "a.py") for i, d in enumerate(defs)}
        assert kinds["local"] and kinds["helper"] and kinds["Box"]
        assert not kinds["count"] and not kinds["total"] and not kinds["bump"] and not kinds["size"]
        found = project.find_references("count", "a.py", 1, 1).to_dict()
        assert [r["file"] for r in found["references"]] == ["b.py", "b.py"]


def test_a_repeated_question_is_answered_again_after_an_edit(tmp_path):
    (tmp_path / "lib.py").write_text("def helper():\n    return 1\n", encoding="utf-8")
    use = tmp_path / "use.py"
    use.write_text("from lib import helper\n\nhelper()\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        first = project.find_references("helper", "lib.py", 1, 5).to_dict()
        assert project.find_references("helper", "lib.py", 1, 5).to_dict() == first
        use.write_text("from lib import helper\n\nhelper()\nhelper()\n", encoding="utf-8")
        stamp = time.time() + 2  # a new mtime even on coarse-clock filesystems
        os.utime(use, (stamp, stamp))
        again = project.find_references("helper", "lib.py", 1, 5).to_dict()
    assert [r["line"] for r in first["references"] if r["usage"] == "call"] == [3]
    assert [r["line"] for r in again["references"] if r["usage"] == "call"] == [3, 4]


@pytest.mark.parametrize("name", ["python_app", "graph_py", "py_flow", "ts_app", "ts_esm", "js_app", "java_app",
                                  "cpp_app", "rust_app", "go_app", "demo"])
def test_overriders_found_up_from_their_declarations_equal_those_found_down_from_the_base(
        copy_fixture, tmp_path, name, monkeypatch):
    """A member's family (what it overrides, what overrides it) is found either by walking down
    every subclass from the base, or up from each class declaring a member of that name,
    whichever reads fewer files: both give the same members, for every member of the fixture."""
    with Project(copy_fixture(name), cache_dir=tmp_path / "cache") as project:
        resolver = project._context.fresh()
        members = []
        for path in sorted(resolver.index.files()):
            view = resolver.view(path)
            defs = view.facts.definitions if view else []
            members += [Symbol(path, i) for i, d in enumerate(defs) if d.kind != "parameter"
                        and 0 <= d.container < len(defs) and defs[d.container].kind in references.CLASS_KINDS]
        families = {}
        for upward in (True, False):
            monkeypatch.setattr(references, "_upward_is_cheaper", lambda *args, up=upward: up)
            families[upward] = {m: references._hierarchy_family(resolver, m) for m in members}
    assert members
    assert {m: f for m, f in families[True].items() if f != families[False][m]} == {}
    if name in ("python_app", "ts_app", "java_app", "cpp_app"):
        assert any(families[True].values()), "the fixture has overrides"


@pytest.mark.parametrize("name", ["python_app", "py_flow", "graph_py", "demo", "ts_app", "ts_esm", "js_app",
                                  "go_app", "rust_app", "java_app"])
def test_reads_resolved_once_a_file_or_a_receiver_answer_as_each_resolved(copy_fixture, tmp_path, name, monkeypatch):
    # A name bound once at a file's top gives each bare read of it there the same answer
    # (Resolver.bare_reads), and a member read through a receiver name bound once in a scope the
    # same as its other reads there (_alike_through): find_references takes each such answer
    # once; never a different answer than resolving every use.
    with Project(copy_fixture(name), cache_dir=tmp_path / "cache") as project:
        targets = _symbols(project, local=False)
        used = {"bare": [], "through": []}
        resolver_type = type(project._context.resolver)
        bare, through = resolver_type.bare_reads, references._alike_through

        def counted_bare(self, path, name):
            found = bare(self, path, name)
            used["bare"].append(found is not None)
            return found

        def counted_through(*args):
            found = through(*args)
            used["through"].append(found)
            return found

        monkeypatch.setattr(resolver_type, "bare_reads", counted_bare)
        monkeypatch.setattr(references, "_alike_through", counted_through)
        shortcut = {t: _answer(project, t) for t in targets}
        monkeypatch.setattr(resolver_type, "bare_reads", lambda *args: None)
        monkeypatch.setattr(references, "_alike_through", lambda *args: False)
        full = {t: _answer(project, t) for t in targets}
    assert [t for t in targets if shortcut[t] != full[t]] == []
    if name in ("python_app", "demo", "js_app", "ts_esm"):
        assert any(used["bare"]), "the fixture reads some imported name more than once in a file"
    if name in ("python_app", "demo", "ts_app", "js_app"):
        assert any(used["through"]), "the fixture reads a member twice through one receiver"


def test_bare_reads_answer_only_a_name_bound_once_at_the_top(tmp_path):
    (tmp_path / "lib.py").write_text("def helper():\n    return 1\n", encoding="utf-8")
    (tmp_path / "once.py").write_text(
        "from lib import helper\n\n\ndef a():\n    return helper()\n\n\nclass B:\n    def b(self):\n"
        "        return helper() + helper()\n", encoding="utf-8")
    (tmp_path / "twice.py").write_text(
        "from lib import helper\n\n\ndef a():\n    helper = len\n    return helper()\n\n\nprint(helper())\n",
        encoding="utf-8")
    (tmp_path / "rebound.py").write_text("from lib import helper\nhelper = print\nhelper()\nhelper()\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        resolver = project._context.fresh()
        once = resolver.bare_reads("once.py", "helper")
        assert once.status == "found" and once.target == Symbol("lib.py", 0)
        assert resolver.bare_reads("twice.py", "helper") is None     # a function binds it again
        assert resolver.bare_reads("rebound.py", "helper") is None   # bound twice at the top
        found = project.find_references("helper", "lib.py", 1, 5).to_dict()
        lines = sorted((r["file"], r["line"]) for r in found["references"])
        assert ("once.py", 5) in lines and ("once.py", 10) in lines and ("twice.py", 9) in lines
        assert ("twice.py", 6) not in lines and ("rebound.py", 3) not in lines


def test_member_reads_through_a_rebound_or_narrowed_receiver_are_each_resolved(tmp_path):
    (tmp_path / "shapes.py").write_text(
        "class Circle:\n    def area(self):\n        return 3\n\n\nclass Square:\n    def area(self):\n        return 4\n",
        encoding="utf-8")
    (tmp_path / "use.py").write_text(
        "from shapes import Circle, Square\n\n\ndef rebound():\n    piece = Circle()\n    piece.area()\n"
        "    piece = Square()\n    piece.area()\n\n\ndef narrowed(shape, other):\n    other.area()\n"
        "    if isinstance(shape, Square):\n        shape.area()\n    shape.area()\n\n\n"
        "def once():\n    circle = Circle()\n    circle.area()\n    return circle.area()\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        resolver = project._context.fresh()
        refs = resolver.view("use.py").facts.references
        scope_of = {r.line: r.scope for r in refs if r.name in ("piece", "shape", "circle")}
        assert not resolver.read_alike_in("use.py", scope_of[6], "piece")    # bound twice
        assert not resolver.read_alike_in("use.py", scope_of[14], "shape")   # narrowed by isinstance
        assert resolver.read_alike_in("use.py", scope_of[20], "circle")
        circle = sorted((r["file"], r["line"]) for r in
                        project.find_references("area", "shapes.py", 2, 9).to_dict()["references"])
        square = sorted((r["file"], r["line"]) for r in
                        project.find_references("area", "shapes.py", 7, 9).to_dict()["references"])
    assert ("use.py", 6) in circle and ("use.py", 8) not in circle and ("use.py", 8) in square
    assert ("use.py", 14) in square and ("use.py", 14) not in circle
    assert ("use.py", 20) in circle and ("use.py", 21) in circle


def test_a_line_start_is_counted_from_an_offset_on_or_above_it():
    data = b"a\nbb\n\nccc\nd"
    lines = data.split(b"\n")
    for before in range(len(data) + 1):
        first = data.count(b"\n", 0, before) + 1
        for line in range(1, len(lines) + 2):
            found = references._line_start(data, line, before)
            if line < first or line > len(lines):
                assert found is None, (line, before)
            else:
                assert data[found:].split(b"\n")[0] == lines[line - 1], (line, before)


def test_an_import_written_over_several_lines_shows_the_line_that_names_it(tmp_path):
    (tmp_path / "lib.py").write_text("def helper():\n    return 1\n\n\ndef other():\n    return 2\n", encoding="utf-8")
    (tmp_path / "use.py").write_text("import os\nfrom lib import (\n    other,\n    helper as aid,\n)\n\n\n"
                                     "def f():\n    return aid()\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        found = project.find_references("helper", "lib.py", 1, 5).to_dict()["references"]
    shown = {(r["file"], r["line"], r["usage"]): r["context"] for r in found}
    assert shown[("use.py", 4, "import")] == "helper as aid,"
    assert shown[("use.py", 9, "call")] == "return aid()"
