"""A new resolver generation keeps the previous one's answers that no change can reach
(resolve/resolver.py ``Resolver._carry``). Whatever it keeps, every answer must equal what a
resolver starting from nothing gives on the same files: after edits that shift a file's lines,
rename a definition, add a definition, remove one, and add or delete a file."""

from __future__ import annotations

import os
import time

import pytest
from pathlib import Path

from jupyter_codetrace import Project
from jupyter_codetrace.resolve.base import Symbol

_COMMENT = {".py": "#", ".ex": "#", ".exs": "#"}


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    stamp = time.time() + 2  # a new mtime even on coarse-clock filesystems
    os.utime(path, (stamp, stamp))


def _answers(project) -> dict:
    """Every reference of every file, resolved: (file, reference) -> the resolution's fields."""
    resolver = project._context.fresh()
    found = {}
    for path in sorted(resolver.index.files()):
        view = resolver.view(path)
        if view is None:
            continue
        for i in range(len(view.facts.references)):
            r = resolver.resolve_reference(path, i)
            found[(path, i)] = (r.status, r.target, r.kind, tuple(r.candidates), tuple(r.resolved_from),
                                r.via, r.missing, r.why)
    return found


def _compare(project, root, tmp_path, step: str) -> None:
    kept = _answers(project)
    graph = project.call_graph().to_dict()
    with Project(root, cache_dir=tmp_path / f"fresh-{step}") as fresh:
        expected = _answers(fresh)
        expected_graph = fresh.call_graph().to_dict()
    wrong = [(key, kept.get(key), value) for key, value in expected.items() if kept.get(key) != value]
    assert not wrong and kept.keys() == expected.keys(), (step, len(wrong), wrong[:5])
    assert sorted(map(str, graph["edges"])) == sorted(map(str, expected_graph["edges"])), step
    assert sorted(map(str, graph["nodes"])) == sorted(map(str, expected_graph["nodes"])), step


def _comment(path) -> str:
    return _COMMENT.get(path.suffix, "//")


@pytest.mark.parametrize("name", ["python_app", "graph_py", "py_flow", "ts_app", "ts_esm", "js_app", "go_app",
                                  "rust_app", "cpp_app", "java_app", "elixir_app"])
def test_kept_answers_equal_a_fresh_start(copy_fixture, tmp_path, name):
    root = copy_fixture(name)
    with Project(root, cache_dir=tmp_path / "kept") as project:
        _answers(project)
        project.call_graph()
        files = sorted(root / p for p in project._context.index.files())
        resolver = project._context.resolver
        defs = {p: [d.name for d in resolver.view(p).facts.definitions if d.kind != "parameter" and len(d.name) > 3]
                for p in project._context.index.files() if resolver.view(p) is not None}
        edited = files[:: max(1, len(files) // 3)][:3]
        for n, path in enumerate(edited):
            rel = path.relative_to(root).as_posix()
            # a line on top: every position of the file moves, no name changes
            _write(path, f"{_comment(path)} edited {n}\n" + path.read_text(encoding="utf-8"))
            _compare(project, root, tmp_path, f"{rel}: lines moved")
            names = defs.get(rel) or []
            if names:
                # a definition renamed where it is defined (its uses elsewhere lose it)
                text = path.read_text(encoding="utf-8")
                _write(path, text.replace(names[0], names[0] + "Renamed", 1))
                _compare(project, root, tmp_path, f"{rel}: {names[0]} renamed")
                _write(path, text)   # and back: the old answers must come back too
                _compare(project, root, tmp_path, f"{rel}: {names[0]} restored")
        # a file deleted, then written again
        gone = files[-1]
        text = gone.read_text(encoding="utf-8")
        gone.unlink()
        _compare(project, root, tmp_path, "file deleted")
        _write(gone, text)
        _compare(project, root, tmp_path, "file added back")


def test_an_edit_keeps_the_answers_it_cannot_reach(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        _answers(project)
        before = project._context.resolver
        answers = dict(before._resolved)
        reads = dict(before._reads)
        edited = "shop/recursion.py"
        # a comment changes no answer: every one is kept, those that read the file too
        _write(root / edited, "# a note\n" + (root / edited).read_text(encoding="utf-8"))
        after = project._context.fresh()
        assert after is not before
        assert all(after._resolved.get(key) is answer for key, answer in answers.items())
        # a change of code drops the answers that read the file, and only those
        _write(root / edited, (root / edited).read_text(encoding="utf-8") + "\nprint('loaded')\n")
        before, after = after, project._context.fresh()
        assert after is not before
        untouched = [key for key in answers if edited not in reads[key] and key[0] != edited]
        reached = [key for key in answers if edited in reads[key]]
        assert untouched and reached
        assert all(after._resolved.get(key) is answers[key] for key in untouched)
        assert not any(key in after._resolved for key in reached)

        # and a new definition anywhere drops the answers that looked its name up project-wide
        guessed = [key for key in after._resolved if any(r.startswith("*name:") for r in after._reads[key])]
        name = next(r for key in guessed for r in after._reads[key] if r.startswith("*name:"))[len("*name:"):]
        named = [key for key in guessed if f"*name:{name}" in after._reads[key] and edited not in after._reads[key]]
        _write(root / edited, (root / edited).read_text(encoding="utf-8") + f"\n\ndef {name}():\n    return 1\n")
        newest = project._context.fresh()
        assert named and not any(key in newest._resolved for key in named)


def test_an_unsaved_buffer_is_a_change_like_a_save(copy_fixture, tmp_path):
    """An editor's unsaved text (``set_overlay``) changes the answers it reaches, then clearing it
    brings the saved file's answers back."""
    root = copy_fixture("graph_py")
    edited = "shop/pricing.py"
    text = (root / edited).read_text(encoding="utf-8").replace("def round_price(", "def rounded_price(")
    with Project(root, cache_dir=tmp_path / "kept") as project:
        saved = _answers(project)
        project.set_overlay(edited, text)
        unsaved = _answers(project)
        with Project(root, cache_dir=tmp_path / "fresh") as fresh:
            fresh.set_overlay(edited, text)
            assert unsaved == _answers(fresh)
        assert unsaved != saved
        project.clear_overlay(edited)
        assert _answers(project) == saved


def _looked_up_elsewhere(resolver) -> tuple[dict, dict, str, list]:
    """The resolver's answers and reads, and the first file defining a name that other files'
    answers looked up project-wide (its definitions: a guess), with those answers' keys."""
    answers, reads = dict(resolver._resolved), dict(resolver._reads)
    for path in sorted(resolver.index.files()):
        defined = {d.name for d in resolver.view(path).facts.definitions}
        keys = [key for key in answers if path not in reads[key] and any(
            r.startswith("*name:") and r[len("*name:"):] in defined for r in reads[key])]
        if keys:
            return answers, reads, path, keys
    raise AssertionError("no answer looked a name up project-wide")


def test_an_edit_inside_bodies_keeps_the_project_wide_lookups_of_the_names_it_defines(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        _answers(project)
        answers, reads, edited, keys = _looked_up_elsewhere(project._context.resolver)
        text = (root / edited).read_text(encoding="utf-8")
        _write(root / edited, text + f"\n{_comment(root / edited)} a note\n")
        after = project._context.fresh()
        assert all(after._resolved.get(key) is answers[key] for key in keys)
        # a new definition first in the file moves every other one: those answers are made again
        _write(root / edited, f"def _moved_{len(keys)}():\n    return 0\n\n\n" + text)
        newest = project._context.fresh()
        assert not any(key in newest._resolved for key in keys)


def test_a_definition_appended_keeps_the_project_wide_lookups_of_the_names_before_it(copy_fixture, tmp_path):
    """A function added after every other definition of a file (a test at the end of a module)
    moves none of them: the answers that looked up the file's other names stay; those that looked
    up the new name are made again, and so are they when it is taken away."""
    root = copy_fixture("graph_py")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        _answers(project)
        answers, reads, edited, keys = _looked_up_elsewhere(project._context.resolver)
        name = next(r for r in reads[keys[0]] if r.startswith("*name:"))[len("*name:"):]
        text = (root / edited).read_text(encoding="utf-8")
        _write(root / edited, text + "\n\ndef appended_here():\n    return 0\n")
        after = project._context.fresh()
        assert all(after._resolved.get(key) is answers[key] for key in keys)
        _compare(project, root, tmp_path, "appended")
        # the same name once more at the end: what looked it up is made again
        current = project._context.resolver
        named = [key for key in current._resolved if f"*name:{name}" in current._reads[key]
                 and edited not in current._reads[key]]
        _write(root / edited, text + f"\n\ndef appended_here():\n    return 0\n\n\ndef {name}():\n    return 1\n")
        newest = project._context.fresh()
        assert named and not any(key in newest._resolved for key in named)
        _compare(project, root, tmp_path, "appended a known name")
        _write(root / edited, text)   # both taken away again
        _compare(project, root, tmp_path, "removed at the end")


_APPENDED = {".py": "\n\ndef {name}():\n    return 1\n", ".ts": "\nexport function {name}() {{ return 1; }}\n",
             ".js": "\nexport function {name}() {{ return 1; }}\n"}


@pytest.mark.parametrize("name", ["python_app", "graph_py", "py_flow", "ts_app", "ts_esm", "js_app"])
def test_definitions_appended_and_removed_at_the_end_give_the_answers_of_a_fresh_start(copy_fixture, tmp_path, name):
    root = copy_fixture(name)
    with Project(root, cache_dir=tmp_path / "kept") as project:
        _answers(project)
        project.call_graph()
        index = project._context.index
        files = sorted(p for p in index.files() if Path(p).suffix in _APPENDED)
        resolver = project._context.resolver
        defined = sorted({d.name for p in files for d in resolver.view(p).facts.definitions
                          if d.kind in ("function", "class") and d.container < 0})
        for n, rel in enumerate(files[:: max(1, len(files) // 3)][:3]):
            path = root / rel
            text = path.read_text(encoding="utf-8")
            # a name other files define (their lookups by name meet a second one) and a new one
            for added in (defined[n % len(defined)], f"added_{n}"):
                _write(path, text + _APPENDED[path.suffix].format(name=added))
                _compare(project, root, tmp_path, f"{rel}: {added} appended")
            _write(path, text)
            _compare(project, root, tmp_path, f"{rel}: restored")


def test_what_the_reads_index_holds_does_not_grow_with_saves(copy_fixture, tmp_path):
    """Each save drops the answers it reaches; the index from reads to answers must not keep
    growing with what was dropped (a long session saves thousands of times)."""
    root = copy_fixture("python_app")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        _answers(project)
        files = sorted(root / p for p in project._context.index.files())
        for n in range(100):
            path = files[n % len(files)]
            _write(path, path.read_text(encoding="utf-8") + f"\n{_comment(path)} save {n}\n")
            _answers(project)
            resolver = project._context.resolver
            listed = sum(map(len, resolver._sets_by_read.values()))
            live = sum(map(len, resolver._read_sets))
            assert (resolver._listed, resolver._live) == (listed, live)
            assert listed <= 2 * live + 1024, (n, listed, live)


def test_a_file_naming_a_python_class_keeps_the_answers_through_its_members(tmp_path):
    """A Python class's members are all in its body (no other file can add one, as a C++ file can
    define `Foo::bar`): a file that starts naming the class changes no answer reached through
    its members, which are kept; in C++ the same change may add a member, and they are not."""
    (tmp_path / "shop.py").write_text("class Cart:\n    def total(self):\n        return 0\n", encoding="utf-8")
    (tmp_path / "use.py").write_text("from shop import Cart\n\nCart().total()\nCart().discount()\n", encoding="utf-8")
    (tmp_path / "other.py").write_text("x = 1\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        before = project._context.fresh()
        refs = before.view("use.py").facts.references
        total = ("use.py", next(i for i, r in enumerate(refs) if r.name == "total"))
        found = before.resolve_reference(*total)
        assert found.status == "found" and found.target.path == "shop.py"
        # a member the class does not have: looked for beyond its body, in vain
        missing = ("use.py", next(i for i, r in enumerate(refs) if r.name == "discount"))
        unknown = before.resolve_reference(*missing)
        assert unknown.status != "found" and "*name:Cart" not in before._reads[missing]
        _write(tmp_path / "other.py", "from shop import Cart\n\nCart\n")
        after = project._context.fresh()
        assert after is not before
        assert after._resolved.get(total) is found and after._resolved.get(missing) is unknown
    cpp = tmp_path / "cpp"
    cpp.mkdir()
    (cpp / "cart.hpp").write_text("class Cart {\npublic:\n    int total();\n};\n", encoding="utf-8")
    (cpp / "use.cpp").write_text('#include "cart.hpp"\n\nint f(Cart c) { return c.total(); }\n', encoding="utf-8")
    with Project(cpp, cache_dir=tmp_path / ".cache-cpp") as project:
        resolver = project._context.fresh()
        cart = Symbol("cart.hpp", next(i for i, d in enumerate(resolver.view("cart.hpp").facts.definitions)
                                       if d.name == "Cart"))
        with resolver.recording() as read:
            resolver.extension_members(cart)
        assert "*name:Cart" in read   # a file naming Cart may define `int Cart::more() {…}`


_FLOW_TASKS = '''class Foo:
    def run(self):
        return 1


class Bar:
    def run(self):
        return 2
'''
_FLOW_MAIN = '''from helpers import helper
from tasks import Bar, Foo, make


def start():
    return helper(Bar())


def later():
    return Bar().stop()


def each():
    for item in Bar():
        print(item)


def made():
    return make().run()
'''

_STOP = "\n    def stop(self):\n        return 3\n"
_GO = "\n\ndef go():\n    return helper(Foo())\n"
_ITER = "\n    def __iter__(self):\n        return iter(())\n"


def test_what_a_save_passes_to_functions_elsewhere_reaches_the_graph_as_a_fresh_start(tmp_path):
    """Value flow across files: an unannotated parameter holds what its callers pass. A file that
    starts calling the function, a call appended, an argument changed inside a body: each changes
    the graph of the callee's file (`helper`'s `x.run()`), which the first did not read. So does a
    method added to a class, one called without being named (`__iter__`), and a function that
    a reader imports before it exists."""
    root = tmp_path / "flow"
    root.mkdir()
    (root / "tasks.py").write_text(_FLOW_TASKS, encoding="utf-8")
    (root / "helpers.py").write_text("def helper(x):\n    return x.run()\n", encoding="utf-8")
    (root / "main.py").write_text(_FLOW_MAIN, encoding="utf-8")
    (root / "extra.py").write_text("def extra():\n    return 0\n", encoding="utf-8")
    steps = [
        ("extra.py", "from helpers import helper\nfrom tasks import Foo\n\n\ndef extra():\n    return helper(Foo())\n",
         "a new caller"),
        ("extra.py", "def extra():\n    return 0\n", "no caller again"),
        ("main.py", _FLOW_MAIN + _GO, "a call appended"),
        ("main.py", (_FLOW_MAIN + _GO).replace("helper(Bar())", "helper(Foo())"), "an argument changed in a body"),
        ("main.py", _FLOW_MAIN.replace("helper(Bar())", "helper(Foo())"), "the call appended removed"),
        ("main.py", _FLOW_MAIN.replace("helper(Bar())", "helper"), "the call taken away"),
        ("tasks.py", _FLOW_TASKS + _STOP, "a method appended"),
        ("tasks.py", _FLOW_TASKS + _STOP + _ITER, "__iter__ appended"),
        ("tasks.py", _FLOW_TASKS + _STOP + _ITER + "\n\ndef make():\n    return Bar()\n", "a function appended"),
        ("tasks.py", _FLOW_TASKS + _STOP + _ITER, "the function removed from the end"),
        ("tasks.py", _FLOW_TASKS + _STOP, "__iter__ removed from the end"),
        ("main.py", _FLOW_MAIN, "restored"),
        ("tasks.py", _FLOW_TASKS, "restored"),
    ]
    with Project(root, cache_dir=tmp_path / "kept") as project:
        _answers(project)
        calls = {(e["source"], e["target"]) for e in project.call_graph().to_dict()["edges"]}
        assert ("helpers.py#helper", "tasks.py#Bar.run") in calls
        for name, text, step in steps:
            _write(root / name, text)
            _compare(project, root, tmp_path, f"{name}: {step}")


def test_a_function_appended_redoes_only_the_readers_that_name_it(copy_fixture, tmp_path):
    """Appending a function keeps the graph's part of every file that reads the file saved but
    names nothing added; a reader that calls the new name is redone. So does removing them again
    (an undo)."""
    root = copy_fixture("graph_py")
    with Project(root, cache_dir=tmp_path / "first") as project:
        project.call_graph()
        graph = project._context._code_graph
        readers = {p: sorted(r for r, fg in graph.files.items() if p in fg.read) for p in graph.files}
    saved = max(readers, key=lambda p: len(readers[p]))
    assert len(readers[saved]) >= 2
    module = saved[:-3].replace("/", ".")
    caller = root / readers[saved][0]   # calls a function its module will define
    _write(caller, caller.read_text(encoding="utf-8") + f"\n\ndef uses_it():\n    return {module}.second_here()\n")
    with Project(root, cache_dir=tmp_path / "kept") as project:
        project.call_graph()
        graph = project._context._code_graph
        path = root / saved
        original = path.read_text(encoding="utf-8")
        text = original + "\n\ndef appended_here(value):\n    return value\n"
        _write(path, text)
        project.call_graph()
        assert graph.last_rebuilt == 1   # the file itself
        _compare(project, root, tmp_path, "appended")
        _write(path, text + "\n\ndef second_here():\n    return 2\n")
        project.call_graph()
        assert graph.last_rebuilt == 2   # and the reader that calls it
        _compare(project, root, tmp_path, "the called one appended")
        _write(path, text)
        project.call_graph()
        assert graph.last_rebuilt == 2
        _compare(project, root, tmp_path, "the called one removed")
        _write(path, original)
        project.call_graph()
        assert graph.last_rebuilt == 1
        _compare(project, root, tmp_path, "both removed")


def test_a_call_appended_redoes_the_callee_it_passes_to_and_not_the_others(tmp_path):
    """Two functions elsewhere whose parameters hold what this file passes: a call appended to
    one of them redoes its file; the other's, which read this file for its callers too, is kept."""
    root = tmp_path / "flow"
    root.mkdir()
    (root / "tasks.py").write_text(_FLOW_TASKS, encoding="utf-8")
    (root / "helpers.py").write_text("def helper(x):\n    return x.run()\n", encoding="utf-8")
    (root / "others.py").write_text("def other(y):\n    return y.run()\n", encoding="utf-8")
    main = ("from helpers import helper\nfrom others import other\nfrom tasks import Bar, Foo\n\n\n"
            "def start():\n    return helper(Bar()), other(Bar())\n")
    (root / "main.py").write_text(main, encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "kept") as project:
        project.call_graph()
        graph = project._context._code_graph
        assert "main.py" in graph.files["others.py"].read
        _write(root / "main.py", main + _GO)
        project.call_graph()
        assert graph.last_rebuilt == 2   # main.py and helpers.py
        _compare(project, root, tmp_path, "a call appended")
        _write(root / "main.py", main)
        project.call_graph()
        assert graph.last_rebuilt == 2
        _compare(project, root, tmp_path, "the call removed")
