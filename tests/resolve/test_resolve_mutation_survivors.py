"""Resolver behaviours that mutation testing found unchecked by the fixture tests (issue 22,
bench/mutation.py), each pinned with small real files parsed and resolved by a ``Project``
(Python, TypeScript, Go, C++, Elixir, a notebook):

- value flow (flow.py): literal tables at a known key, nested items, dict writes and ``update``,
  ``make()()``, generator and returned items, a parameter passed along recursively, a
  self-iterating object, a class call passing arguments to the constructor;
- types (types.py): unpacking a literal and past its end, a quoted annotation naming nothing,
  type arguments bound through subclasses and a missing one, a union alias with members,
  parameter types from callers, a variable holding a function, a cycle of assignments;
- names, members and guesses (scopes.py, members.py, candidates.py, resolver.py): ``__all__``
  under a star import, class-body scoping, a bare class annotation, a receiver chain of 100
  links, name-only guesses (only members, never a parameter, rivals up to eight), unresolved
  calls as external calls, a rebound function's references, an out-of-line C++ method;
- imports and modules (imports.py, modules.py): namespace packages, Python import roots' order,
  TS default exports and re-export chains, a missing package named, a link into an unindexed
  folder, an Elixir module named in full;
- the incremental graph: a file added to a Go package or a module added after its importer
  redoes the files whose answers it changes (the Go case was a bug, fixed in scopes.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jupyter_codetrace import Project

TABLES_PY = '''def f():
    pass


def g():
    pass


def h():
    pass


def k():
    pass


def by_key():
    handlers = {"a": f, "b": g}
    handlers["a"]()


def nested():
    table = [[f, g], [h, k]]
    table[0][1]()


def written():
    table = {"a": f, "b": g}
    table["a"] = h
    table["c"] = k
    table["a"]()


def untouched():
    table = {"a": f, "b": g}
    table["a"] = h
    table["b"]()


def updated():
    table = {"a": f}
    table.update({"b": g})
    table["a"]()


def make():
    return f


def made():
    make()()


def yielding():
    yield f
    yield g


def returning():
    return [h, k]


def loops():
    for one in yielding():
        one()
    for other in returning():
        other()


def run(callbacks, n):
    for callback in callbacks:
        callback()
    if n:
        run(callbacks, n - 1)


def start():
    run([f, g], 3)


class Registry:
    def __iter__(self):
        return self

    def __next__(self):
        return k


def registry() -> Registry:
    ...


def iterated():
    for item in registry():
        item()
'''

SHAPES_PY = '''class Circle:
    def area(self):
        return 1


class Square:
    def area(self):
        return 2


def unpacked():
    first, second = Circle(), Square()
    second.area()


def past_the_end():
    one, two, three = Circle(), Square()
    three.area()


def quoted(shape: "Nowhere"):
    shape.area()
'''

STARRED_PY = '''__all__ = ["shown"]


def shown():
    pass


def hidden():
    pass
'''

MAIN_PY = '''from starred import *
from pkg import spaced

shown()
hidden()
spaced.missing()
'''

MODEL_TS = '''export class Item {
  name = "";
}

export class Other {
  name = "";
}

export class Base<T, E = Other> {
  value!: T;
  extra!: E;
}

export class Middle<U> extends Base<U> {}

export class Leaf extends Middle<Item> {}

export class Direct extends Base<Item> {}

export function read(leaf: Leaf, direct: Direct) {
  return [leaf.value.name, direct.value.name, direct.extra.name];
}
'''

UNION_TS = '''export class Circle {
  area() { return 1; }
}

export class Square {
  area() { return 2; }
}

export class Extra {
  area() { return 3; }
}

export type Shape = Circle | Square;

export function measure(shape: Shape | Extra) {
  return shape.area();
}
'''

CALLS_PY = '''from pkg import spaced


class Circle:
    def area(self):
        return 1

    def paint(self):
        return 1


class Square:
    def area(self):
        return 2


def paint():
    pass


def use(shape):
    shape.area()


def caller(unknown):
    use(Circle())
    unknown.area()
    unknown.paint()
    unknown.nothing()
    Circle().nothing()
    spaced.missing()
    common()
    target()


class Box:
    def __init__(self, callback):
        callback()


def boxed():
    Box(paint)
'''

FILES = {
    **{f"common{i:02}.py": "def common():\n    pass\n" for i in range(1, 19)},
    "guess.py": "def run(target):\n    return target\n\n\ndef target():\n    pass\n",
    "calls.py": CALLS_PY,
    "tables.py": TABLES_PY,
    "shapes.py": SHAPES_PY,
    "starred.py": STARRED_PY,
    "other.py": "def hidden():\n    pass\n",
    "main.py": MAIN_PY,
    "pkg/__init__.py": "",
    "pkg/spaced/mod.py": "x = 1\n",
    "model.ts": MODEL_TS,
    "union.ts": UNION_TS,
    "lib/cart.ex": "defmodule Shop.Cart do\n  def total(items), do: length(items)\nend\n",
    "lib/main.ex": "defmodule Shop.Main do\n  def run(items) do\n    Shop.Cart.total(items)\n  end\nend\n",
}


@pytest.fixture
def project(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("survivors")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    with Project(root, cache_dir=root / ".cache") as opened:
        yield opened


@pytest.fixture
def calls(project) -> dict[str, list[tuple[str, int, str]]]:
    """tables.py's CALLS edges by caller: (callee, line, resolution), sorted."""
    found: dict[str, list[tuple[str, int, str]]] = {}
    for edge in project.call_graph().edges:
        if edge.kind == "CALLS" and edge.source.startswith("tables.py#"):
            found.setdefault(edge.source.split("#", 1)[1], []).append(
                (edge.target.split("#", 1)[1], edge.line, edge.to_dict()["resolution"]))
    return {caller: sorted(edges) for caller, edges in found.items()}


@pytest.mark.parametrize("caller, expected", [
    # `handlers["a"]()`: the item at "a", not every item of the table
    ("by_key", [("f", 19, "inferred")]),
    # `table[0][1]()`: the inner list's second item
    ("nested", [("g", 24, "inferred")]),
    # a write at "a" replaces the literal's item there; the write at "c" is another key
    ("written", [("h", 31, "inferred")]),
    # writes at other keys leave "b" alone
    ("untouched", [("g", 37, "inferred")]),
    # `update` with other keys leaves "a" as written
    ("updated", [("f", 43, "inferred")]),
    # `make()()`: what make returns
    ("made", [("f", 51, "inferred"), ("make", 51, "scope")]),
    # what a generator yields, what a function returns as a list
    ("loops", [("f", 65, "inferred"), ("g", 65, "inferred"), ("h", 67, "inferred"), ("k", 67, "inferred"),
               ("returning", 66, "scope"), ("yielding", 64, "scope")]),
    # a parameter's items, from the caller, through a recursive call passing it along
    ("run", [("f", 72, "inferred"), ("g", 72, "inferred"), ("run", 74, "scope")]),
    # an object that iterates itself, returned by a function only annotated to return it
    ("iterated", [("Registry.__iter__", 94, "inferred"), ("Registry.__next__", 94, "inferred"),
                  ("k", 95, "inferred"), ("registry", 94, "scope")]),
])
def test_values_flow_into_calls(calls, caller, expected):
    assert calls[caller] == expected


def _definition(project, symbol, file, line, column):
    d = project.find_definition(symbol, file, line, column).to_dict()
    return d["status"], d.get("file"), d.get("line"), d.get("resolution")


def test_unpacking_a_literal_types_each_name(project):
    assert _definition(project, "area", "shapes.py", 13, 12) == ("found", "shapes.py", 7, "member")


def test_unpacking_past_the_end_of_a_literal_knows_no_type(project):
    status, file, line, _ = _definition(project, "area", "shapes.py", 18, 11)
    assert status == "unresolved" and file is None


def test_a_quoted_annotation_naming_nothing_knows_no_type(project):
    status, file, line, _ = _definition(project, "area", "shapes.py", 22, 11)
    assert status == "unresolved" and file is None


def test_a_star_import_binds_only_the_names_in_all(project):
    assert _definition(project, "shown", "main.py", 4, 1) == ("found", "starred.py", 4, "import")
    # `hidden` is not in starred's __all__: only a same-named guess is left
    assert _definition(project, "hidden", "main.py", 5, 1) == ("found", "other.py", 1, "name-only")


def test_a_namespace_package_folder_is_imported_and_has_only_submodules(project):
    assert _definition(project, "spaced", "main.py", 2, 17) == ("found", "pkg/spaced", 1, "import")
    status, file, _, _ = _definition(project, "missing", "main.py", 6, 8)
    assert status == "unresolved" and file is None


def test_a_type_argument_is_bound_through_two_subclasses(project):
    # Leaf extends Middle<Item> extends Base<U>: Base's `value: T` is an Item
    assert _definition(project, "name", "model.ts", 21, 22) == ("found", "model.ts", 2, "member")
    assert _definition(project, "name", "model.ts", 21, 41) == ("found", "model.ts", 2, "member")


def test_a_type_parameter_without_an_argument_is_not_taken_from_another(project):
    # Direct extends Base<Item> gives no argument for E: never Item's `name`
    status, file, line, _ = _definition(project, "name", "model.ts", 21, 60)
    assert (status, file, line) in {("unresolved", None, None), ("found", "model.ts", 6)}


def test_a_union_alias_with_members_comes_before_a_later_type(project):
    # `shape: Shape | Extra`: Shape (Circle | Square) is the first type with members
    assert _definition(project, "area", "union.ts", 16, 16) == ("found", "union.ts", 2, "member")


def test_a_parameter_is_typed_by_what_its_callers_pass(project):
    # `use(Circle())` is use's only call: `shape` is a Circle
    assert _definition(project, "area", "calls.py", 22, 11) == ("found", "calls.py", 5, "member")


def test_a_member_of_an_unknown_receiver_is_guessed_only_among_members(project):
    # one method `paint` (Circle's); the top-level function `paint` is no member
    assert _definition(project, "paint", "calls.py", 28, 13) == ("found", "calls.py", 8, "name-only")


def test_a_name_only_guess_lists_its_rivals_up_to_eight(project):
    d = project.find_definition("common", "calls.py", 32, 5).to_dict()
    # 18 files define it: the first in path order answers, the next seven are its rivals
    assert (d["status"], d["file"], d["resolution"]) == ("found", "common01.py", "name-only")
    assert [c["file"] for c in d["candidates"]] == [f"common{i:02}.py" for i in range(2, 9)]


def test_a_name_only_guess_is_never_a_parameter(project):
    # guess.py's `target` parameter comes first in the file; its function `target` is the guess
    assert _definition(project, "target", "calls.py", 33, 5) == ("found", "guess.py", 5, "name-only")


def test_calls_left_unresolved_are_the_outgoing_external_calls(project):
    """Members no type tells (`unknown.area()`, several classes define it; `unknown.nothing()`,
    none does), a member a class lacks, a submodule a namespace package lacks: each is an
    external call of the caller, in the order written."""
    outgoing = project.trace("caller", "calls.py", calls=True).to_dict()["calls"]["outgoing"]
    assert [c["symbol"] for c in outgoing if c.get("external")] == ["area", "nothing", "missing"]
    assert sorted(c["symbol"] for c in outgoing if not c.get("external")) == ["Circle", "use"]   # no guesses


def test_a_class_called_passes_its_arguments_to_the_constructor(project):
    edges = {(e.source, e.target, e.to_dict()["resolution"]) for e in project.call_graph().edges}
    assert ("calls.py#Box.__init__", "calls.py#paint", "inferred") in edges
    assert ("calls.py#boxed", "calls.py#Box.__init__", "scope") in edges


def test_an_elixir_module_named_in_full_is_found_in_another_file(project):
    assert _definition(project, "total", "lib/main.ex", 3, 15) == ("found", "lib/cart.ex", 2, "member")


def test_a_file_added_to_a_go_package_can_shadow_a_builtin_in_the_graph(tmp_path):
    """`max(1, 2)` in a package's only file is the builtin; a file added beside it that defines
    `max` makes it the package's function, in the graph as in find_definition. (The graph kept
    the first answer: the lone file's lookup did not record that it depended on the folder's
    files, so adding one did not redo it. Found by a mutant of `_package_member`'s note.)"""
    (tmp_path / "go.mod").write_text("module example.com/app\n\ngo 1.21\n", encoding="utf-8")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "a.go").write_text("package shop\n\nfunc Run() int {\n\treturn max(1, 2)\n}\n",
                                            encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        assert project.find_definition("max", "shop/a.go", 4, 9).status == "builtin"
        assert [e.target for e in project.call_graph().edges] == []
        (tmp_path / "shop" / "b.go").write_text("package shop\n\nfunc max(a, b int) int {\n\treturn a\n}\n",
                                                encoding="utf-8")
        assert project.find_definition("max", "shop/a.go", 4, 9).to_dict()["file"] == "shop/b.go"
        assert [(e.source, e.target) for e in project.call_graph().edges] == [("shop/a.go#Run", "shop/b.go#max")]


def test_a_bare_class_annotation_is_defined_where_a_method_assigns_it(tmp_path):
    """`name: str` in a Python class body, assigned in `__init__`: the assignment defines it (as
    Jedi answers)."""
    (tmp_path / "conf.py").write_text(
        "class Config:\n    name: str\n\n    def __init__(self):\n        self.name = 'x'\n\n\n"
        "def read(config: Config):\n    return config.name\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        d = project.find_definition("name", "conf.py", 9, 19).to_dict()
        assert (d["status"], d["file"], d["line"], d["resolution"]) == ("found", "conf.py", 5, "member")


def test_a_package_linked_to_an_unindexed_folder_stays_an_installed_package(tmp_path):
    """`node_modules/lib` links back into the root, but to `dist/lib`, which is not indexed: the
    import is the installed package's declaration file, not a project folder with no files."""
    (tmp_path / "dist" / "lib").mkdir(parents=True)
    (tmp_path / "dist" / "lib" / "package.json").write_text('{"name": "lib", "types": "index.d.ts"}\n')
    (tmp_path / "dist" / "lib" / "index.d.ts").write_text("export declare function hello(): void;\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "lib").symlink_to(Path("..") / "dist" / "lib", target_is_directory=True)
    (tmp_path / "package.json").write_text('{"name": "app"}\n')
    (tmp_path / "main.ts").write_text('import { hello } from "lib";\nhello();\n')
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        d = project.find_definition("hello", "main.ts", 2, 1).to_dict()
        assert (d["status"], d["file"], d["line"]) == ("found", "node_modules/lib/index.d.ts", 1)
        assert d["library"]["package"] == "lib"


def test_python_imports_search_the_root_then_src_then_other_package_parents(tmp_path):
    """`import alpha` from scripts/ (not a package): alpha.py at the root before src/alpha.py;
    `import beta`: src/beta.py before lib/beta.py (lib/ holds a top-level package)."""
    for folder in ("src", "lib/pkg", "scripts"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "alpha.py").write_text("def a():\n    pass\n")
    (tmp_path / "src" / "alpha.py").write_text("def a():\n    pass\n")
    (tmp_path / "src" / "beta.py").write_text("def b():\n    pass\n")
    (tmp_path / "lib" / "beta.py").write_text("def b():\n    pass\n")
    (tmp_path / "lib" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "scripts" / "run.py").write_text("import alpha\nimport beta\n\nalpha.a()\nbeta.b()\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        assert _definition(project, "a", "scripts/run.py", 4, 7) == ("found", "alpha.py", 1, "member")
        assert _definition(project, "b", "scripts/run.py", 5, 6) == ("found", "src/beta.py", 1, "member")


def test_a_function_rebound_by_a_variable_keeps_its_own_references(tmp_path):
    """`handler = wrap(handler)`: the function's references are the uses before the rebinding
    (and the argument); the variable's are the uses after it."""
    (tmp_path / "m.py").write_text("def wrap(f):\n    return f\n\n\ndef handler():\n    pass\n\n\n"
                                   "handler()\nhandler = wrap(handler)\nhandler()\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        found = project.find_references("handler", "m.py", 5, 5).to_dict()
        assert [(r["line"], r["column"], r["usage"]) for r in found["references"]] == [(9, 1, "call"), (10, 16, "read")]
        found = project.find_references("handler", "m.py", 10, 1).to_dict()
        assert [(r["line"], r["column"], r["usage"]) for r in found["references"]] == [(11, 1, "call")]


MORE_PY = '''from pkg.spaced import mod
import other


class Circle:
    def area(self):
        return 1


class Square:
    def area(self):
        return 2


class Box:
    def open(self):
        return 1


def build() -> Box:
    ...


maker = build
maker().open()
other.area()
first = second
second = first
first.run()
mod.x
'''

MORE_FILES = {
    "more.py": MORE_PY,
    "other.py": "def hidden():\n    pass\n",
    "pkg/__init__.py": "",
    "pkg/spaced/mod.py": "x = 1\n",
    "a.ts": 'export { ghost } from "./b";\nexport { thing } from "left-pad-missing";\n',
    "b.ts": "export { ghost };\n",
    "g.ts": "function ghost() {}\n",
    "h.ts": "function helper() {}\nexport { helper };\n",
    "main.ts": 'import { ghost, thing } from "./a";\nimport { helper } from "./h";\nghost();\nthing();\nhelper();\n',
    "geo.h": "#pragma once\nclass Circle {\npublic:\n  double area() const;\n};\n",
    "geo.cpp": '#include "geo.h"\ndouble Circle::area() const { return 1.0; }\n',
}


@pytest.fixture
def more(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("more")
    for name, text in MORE_FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    with Project(root, cache_dir=root / ".cache") as opened:
        yield opened


def test_a_submodule_of_a_namespace_package_is_imported_by_name(more):
    assert _definition(more, "mod", "more.py", 1, 24) == ("found", "pkg/spaced/mod.py", 1, "import")
    assert _definition(more, "x", "more.py", 30, 5) == ("found", "pkg/spaced/mod.py", 1, "member")


def test_a_variable_holding_a_function_is_called_for_its_declared_return_type(more):
    # `maker = build; maker().open()`: build is declared to return a Box
    assert _definition(more, "open", "more.py", 25, 10) == ("found", "more.py", 16, "member")


def test_a_member_a_module_lacks_is_not_guessed_among_several_classes(more):
    # `other.area()`: other.py has no `area`; Circle and Square both have one
    status, file, _, _ = _definition(more, "area", "more.py", 26, 7)
    assert status == "unresolved" and file is None


def test_values_assigned_from_each_other_end_in_no_type(more):
    # `first = second; second = first; first.run()`: a cycle, answered (not a recursion error)
    status, file, _, _ = _definition(more, "run", "more.py", 29, 7)
    assert status == "unresolved" and file is None


def test_a_name_only_guess_through_a_re_export_chain_stays_a_guess(more):
    # b.ts exports a `ghost` it does not define; g.ts's (unexported) ghost is only a guess
    assert _definition(more, "ghost", "main.ts", 3, 1) == ("found", "g.ts", 1, "name-only")


def test_a_re_export_from_a_missing_package_names_the_package(more):
    d = more.find_definition("thing", "main.ts", 4, 1).to_dict()
    assert d["status"] == "unresolved"
    assert "The package `left-pad-missing` is not installed in this project" in d["message"]


def test_a_local_export_list_is_an_import_for_the_importer(more):
    assert _definition(more, "helper", "main.ts", 5, 1) == ("found", "h.ts", 1, "import")


def test_an_out_of_line_cpp_member_function_is_a_method(more):
    kinds = {n.id: n.kind for n in more.call_graph().nodes}
    assert kinds["geo.cpp#Circle.area"] == "method" and kinds["geo.h#Circle.area"] == "method"


NOTEBOOK = {
    "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
               "source": ["from m2 import hello\n", "hello()\n"]}],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                 "language_info": {"name": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}

IMPORT_FILES = {
    "nsfolder/inner.py": "y = 2\n",
    "pkg/__init__.py": "from missingmod import thing\n",
    "use.py": "import nsfolder\nfrom pkg import thing\n\n\ndef go():\n    thing()\n    missing_helper()\n",
    "m2.py": "def hello():\n    pass\n",
    "nb.ipynb": json.dumps(NOTEBOOK),
    "m.ts": "export function f() {}\nexport function g() {}\n",
    "api.ts": "class Api {\n  get() { return 1; }\n}\nexport default new Api();\n",
    "d.ts": 'import { helper } from "./h";\nexport default helper;\n',
    "h.ts": "export function helper() {}\n",
    "n.ts": "export default function named() {}\n",
    "main.ts": 'import * as ns from "./m";\nimport api from "./api";\nimport dflt from "./d";\nimport named from "./n";\n'
               "ns.f();\napi.get();\ndflt();\nnamed();\n",
}


@pytest.fixture
def imports(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("imports")
    for name, text in IMPORT_FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    with Project(root, cache_dir=root / ".cache") as opened:
        yield opened


def _with_chain(project, symbol, file, line, column):
    d = project.find_definition(symbol, file, line, column).to_dict()
    return d["status"], d["file"], d["line"], d["resolution"], [(c["file"], c["via"]) for c in d["resolved_from"]]


def test_a_namespace_package_imported_whole_is_its_folder(imports):
    assert _with_chain(imports, "nsfolder", "use.py", 1, 8) == (
        "found", "nsfolder", 1, "import", [("use.py", "import nsfolder")])


def test_names_a_package_imports_from_outside_are_external_calls(imports):
    outgoing = imports.trace("go", "use.py", calls=True).to_dict()["calls"]["outgoing"]
    assert [(c["symbol"], c.get("external")) for c in outgoing] == [("thing", True), ("missing_helper", True)]


def test_a_notebook_cell_imports_a_module_of_the_project(imports):
    d = imports.find_definition("hello", "nb.ipynb", 2, 1, cell=0).to_dict()
    assert (d["status"], d["file"], d["line"], d["resolution"]) == ("found", "m2.py", 1, "import")


def test_ts_default_exports_and_namespace_imports(imports):
    assert _definition(imports, "f", "main.ts", 5, 4) == ("found", "m.ts", 1, "member")
    # `export default new Api()`: the name is defined by that statement (as TypeScript answers),
    # and what it reads is an Api's
    assert _with_chain(imports, "api", "main.ts", 6, 1) == (
        "found", "api.ts", 4, "import", [("main.ts", 'import api from "./api";')])
    assert _definition(imports, "get", "main.ts", 6, 5) == ("found", "api.ts", 2, "member")
    # `export default helper;` of an imported helper: the chain goes on through d.ts's import
    assert _with_chain(imports, "dflt", "main.ts", 7, 1) == (
        "found", "h.ts", 1, "import",
        [("main.ts", 'import dflt from "./d";'), ("d.ts", 'import { helper } from "./h";')])
    assert _with_chain(imports, "named", "main.ts", 8, 1) == (
        "found", "n.ts", 1, "import", [("main.ts", 'import named from "./n";')])


def test_a_module_added_after_its_importer_is_followed_in_the_graph(tmp_path):
    """`from helpers2 import f` before helpers2.py exists: f is an external call; once the file
    is added, the graph redoes the importer (its lookup noted that it depended on the files)."""
    (tmp_path / "late.py").write_text("from helpers2 import f\n\n\ndef run():\n    f()\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        outgoing = project.trace("run", "late.py", calls=True).to_dict()["calls"]["outgoing"]
        assert [(c["symbol"], c.get("external")) for c in outgoing] == [("f", True)]
        (tmp_path / "helpers2.py").write_text("def f():\n    pass\n")
        edges = [(e.source, e.target) for e in project.call_graph().edges if e.source.startswith("late.py")]
        assert ("late.py#run", "helpers2.py#f") in edges


def test_a_class_body_sees_its_own_names_and_its_methods_do_not(tmp_path):
    (tmp_path / "cls.py").write_text("x = 0\n\n\nclass A:\n    x = 1\n    y = x + 1\n\n    def m(self):\n        return x\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        assert _definition(project, "x", "cls.py", 6, 9) == ("found", "cls.py", 5, "scope")
        assert _definition(project, "x", "cls.py", 9, 16) == ("found", "cls.py", 1, "scope")


def test_a_receiver_chain_of_a_hundred_links_resolves_its_last_link(tmp_path):
    """`n.next.next. … .next` (100 links) is resolved innermost first: the last `next` is
    Node.next, not cut off by the bound on nested resolutions."""
    chain = ".".join(["n"] + ["next"] * 100)
    (tmp_path / "chain.py").write_text("class Node:\n    def __init__(self):\n        self.next: Node = self\n\n\n"
                                       f"n = Node()\n{chain}\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        assert _definition(project, "next", "chain.py", 7, len(chain) - 3) == ("found", "chain.py", 3, "member")


def test_keywords_literals_and_fields(tmp_path):
    """`this` is its class; a method of a string literal is a builtin; a C++ struct's field is
    not a name of the code around the struct."""
    (tmp_path / "main.py").write_text('"abc".upper()\n')
    (tmp_path / "a.ts").write_text("class A {\n  m() {\n    return this;\n  }\n}\n")
    (tmp_path / "p.cpp").write_text("struct Point {\n  int x;\n};\nint f() { return x; }\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        assert _definition(project, "this", "a.ts", 3, 12) == ("found", "a.ts", 1, "member")
        assert _definition(project, "upper", "main.py", 1, 7)[0] == "builtin"
        status, file, _, _ = _definition(project, "x", "p.cpp", 4, 18)
        assert (status, file) == ("unresolved", None)


def test_a_member_of_a_package_that_is_not_installed_is_not_guessed(tmp_path):
    """`np.sqrt` of a package that is not installed comes from outside the project: it is no
    guess at the project's `Calc.sqrt` (it was, until a mutation survivor of
    `_resolve_reference` showed that no test looked)."""
    (tmp_path / "main.py").write_text("import numpy_missing as np\n\n\nclass Calc:\n    def sqrt(self, x):\n"
                                      "        return x\n\n\nnp.sqrt(2)\n")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        d = project.find_definition("sqrt", "main.py", 9, 4).to_dict()
        assert (d["status"], d.get("file")) == ("unresolved", None)
        assert "comes from outside the project, through `import numpy_missing as np`" in d["message"]


def test_a_name_bound_many_times_reads_the_binding_in_effect(tmp_path):
    """A scope's table holds a name bound more than once by where each binding starts: a read
    takes the last one before it, never the variable its own value is assigning (`x = x + 1`
    reads the x above), a read above every binding the first one; an import counts as a binding."""
    (tmp_path / "again.py").write_text(
        "print(x)\n"            # 1: above every binding: the first (line 2)
        "x = 1\n"               # 2
        "x = x + 1\n"           # 3: its value reads line 2's x
        "print(x)\n"            # 4: line 3's
        "from os import x\n"    # 5: an import binds it too
        "print(x)\n"            # 6
        "x = [x for _ in x]\n"  # 7: the value (and the comprehension's iterable) reads line 5's
        "print(x)\n")           # 8: line 7's
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        assert _definition(project, "x", "again.py", 1, 7)[1:3] == ("again.py", 2)
        assert _definition(project, "x", "again.py", 3, 5)[1:3] == ("again.py", 2)
        assert _definition(project, "x", "again.py", 4, 7)[1:3] == ("again.py", 3)
        # lines 6 and 7 read the import's x: os has none, so it comes from outside, through the import
        for line, column in ((6, 7), (7, 6), (7, 17)):
            found = project.find_definition("x", "again.py", line, column).to_dict()
            assert found["status"] == "unresolved" and "from os import x" in found["message"], (line, found)
        assert _definition(project, "x", "again.py", 8, 7)[1:3] == ("again.py", 7)
