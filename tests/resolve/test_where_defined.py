"""Where a name is defined (the places an unresolved answer lists, the ranking of did-you-mean
names, a symbol search) comes from each file's stored places (places.py): a file nothing else
reads is not loaded for it, and the places are those its whole facts give — from the store, from
an unsaved buffer, after the store's row was damaged, and in every language."""

from __future__ import annotations

import sqlite3

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.places import places_named

_FILES = {
    "shapes.py": "class Square:\n    def render(self):\n        return 1\n\n\nclass Circle:\n"
                 "    def render(self, render=None):\n        return 2\n",
    "views.py": "def render(template):\n    render = template.strip()\n    return render\n",
    "helpers.py": "def helper(render):\n    return render\n",
    "use.py": "def show(thing):\n    return thing.render()\n",
}


def _project(tmp_path) -> Project:
    root = tmp_path / "repo"
    root.mkdir()
    for name, text in _FILES.items():
        (root / name).write_text(text)
    Project(root, cache_dir=tmp_path / "cache").index()   # the store a new process reads
    project = Project(root, cache_dir=tmp_path / "cache")
    project.index()
    return project


def _from_whole_facts(project, name: str) -> list[dict]:
    index = project._context.index
    return [{"file": path, "line": d.line, "column": d.column, "kind": d.kind, "name": name}
            for path in sorted(index.defined_in.get(name, ()))
            for d in index.facts(path).definitions if d.name == name and d.kind != "parameter"]


def test_the_places_of_a_name_come_without_loading_the_files_that_define_it(tmp_path):
    project = _project(tmp_path)
    result = project.find_definition("render", "use.py", 2, 18)
    loaded = set(project._context.index._facts)
    assert "views.py" in result.to_text() and "shapes.py" in result.to_text(), result.to_text()
    assert not loaded & {"shapes.py", "views.py", "helpers.py"}, loaded
    listed = project._context.where_defined("render")
    assert not set(project._context.index._facts) & {"shapes.py", "views.py", "helpers.py"}
    expected = _from_whole_facts(project, "render")   # loads them
    assert listed == expected
    # methods, the function and its local variable; never a parameter
    assert [(p["file"], p["line"], p["kind"]) for p in listed] == [
        ("shapes.py", 2, "method"), ("shapes.py", 7, "method"), ("views.py", 1, "function"),
        ("views.py", 2, "variable")]
    assert project._context.where_defined("render") == expected   # now from the facts in memory


def test_the_places_are_recorded_as_reads_of_the_files(tmp_path):
    project = _project(tmp_path)
    resolver = project._context.fresh()
    with resolver.recording() as read:
        project._context.where_defined("render")
    assert {"shapes.py", "views.py"} <= read


def test_an_unsaved_buffer_and_a_damaged_store_row_give_the_places_their_text_holds(tmp_path):
    project = _project(tmp_path)
    project.set_overlay("helpers.py", "def helper(x):\n    return x\n\n\ndef render():\n    return 0\n")
    with sqlite3.connect(project._context.index.store.path) as db:
        db.execute("UPDATE files SET places = ? WHERE path = ?", (b"not places at all", "views.py"))
    listed = project._context.where_defined("render")
    assert [(p["file"], p["line"], p["kind"]) for p in listed] == [
        ("helpers.py", 5, "function"), ("shapes.py", 2, "method"), ("shapes.py", 7, "method"),
        ("views.py", 1, "function"), ("views.py", 2, "variable")]


def test_a_symbol_search_loads_no_file(tmp_path):
    project = _project(tmp_path)
    found = [(m.name, m.container, m.file, m.line, m.kind) for m in project.symbols("render").matches]
    assert found == [("render", None, "views.py", 1, "function"), ("render", "Square", "shapes.py", 2, "method"),
                     ("render", "Circle", "shapes.py", 7, "method")]
    assert not set(project._context.index._facts), "a file was loaded"


@pytest.mark.parametrize("fixture", ["python_app", "ts_app", "cpp_app", "go_app", "rust_app", "java_app", "demo"])
def test_the_stored_places_are_those_the_facts_give(copy_fixture, tmp_path, fixture):
    # out-of-line C++ members and Go methods carry their type in their container (nesting.py)
    root = copy_fixture(fixture)
    Project(root, cache_dir=tmp_path / "cache").index()
    stored = Project(root, cache_dir=tmp_path / "cache")
    stored.index()
    index = stored._context.index
    compared = 0
    fresh = Project(root, cache_dir=tmp_path / "cache-2")   # its facts, extracted in this process
    fresh.index()
    for path in index.files():
        names = {d.name for d in fresh._context.index.facts(path).definitions}
        for name in sorted(names):
            from_store = index.places(path, name)
            assert from_store == places_named(fresh._context.index.facts(path), name), (path, name)
            compared += 1
    assert compared > 20
    assert not set(index._facts), "the stored places were read without the facts"


def test_a_name_found_by_name_lists_ten_rivals_from_the_first_files(tmp_path):
    # `run` is a function in 30 files: the best is the first, the next ten in path order are its
    # rivals, and the files after them are not read for it
    root = tmp_path / "wide"
    root.mkdir()
    for n in range(30):
        (root / f"m{n:02}.py").write_text(f"def run():\n    return {n}\n")
    Project(root, cache_dir=tmp_path / "cache").index()
    project = Project(root, cache_dir=tmp_path / "cache")
    project.index()
    result = project.find_definition("run")
    assert (result.status, result.file) == ("found", "m00.py")
    assert [c["file"] for c in result.candidates] == [f"m{n:02}.py" for n in range(1, 11)]
    assert "11 definitions are named 'run'" in result.message
    assert set(project._context.index._facts) <= {f"m{n:02}.py" for n in range(12)}
