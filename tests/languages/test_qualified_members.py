"""Out-of-line members belong to their type (issue 22, "C++ out-of-line members belong to their class").

``double Circle::area() const {…}`` in a ``.cpp`` is the ``area`` declared in ``class Circle``:
its qualified name is ``geo.Circle.area``, it is found as ``Circle.area``, and the ``Circle``
written before ``::`` names its owner, not something it uses (no REFERENCES edge). A Go method
``func (s *Store) Add(…)`` is ``Store.Add`` the same way, as a Rust ``impl Counter { fn bump }``
is ``Counter.bump``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import Project

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _nodes(project: Project, file: str) -> dict[str, dict]:
    return {n["qualified_name"]: n for n in project.call_graph().to_dict()["nodes"] if n["file"] == file}


def _edges_from(project: Project, source: str) -> list[tuple[str, str]]:
    return [(e["kind"], e["target"]) for e in project.call_graph().to_dict()["edges"] if e["source"] == source]


@pytest.fixture(scope="module")
def cpp() -> Project:
    return Project(FIXTURES / "cpp_app")


@pytest.fixture(scope="module")
def go() -> Project:
    return Project(FIXTURES / "go_app")


def test_cpp_out_of_line_member_is_named_by_its_class(cpp):
    nodes = _nodes(cpp, "src/shape.cpp")
    assert "src/shape.geo.Circle.area" in nodes
    assert "src/shape.geo.Shape.describe" in nodes
    assert "src/shape.geo.area" not in nodes and "src/shape.geo.describe" not in nodes
    # free functions of the namespace stay where they are
    assert "src/shape.geo.total_area" in nodes and "src/shape.geo.perimeter" in nodes


def test_cpp_out_of_line_constructor(cpp):
    nodes = _nodes(cpp, "src/shape.cpp")
    assert nodes["src/shape.geo.Circle.Circle"]["kind"] == "constructor"
    assert nodes["src/shape.geo.Circle.Circle"]["line"] == 7


def test_cpp_qualifier_is_not_a_reference_edge(cpp):
    edges = [(e["source"], e["target"]) for e in cpp.call_graph().to_dict()["edges"]
             if e["kind"] == "REFERENCES" and e["file"] == "src/shape.cpp"]
    classes = {"include/geo/shape.hpp#geo.Circle", "include/geo/shape.hpp#geo.Shape"}
    assert not [e for e in edges if e[1] in classes], edges
    # what the member bodies do use is still there
    assert ("CALLS", "include/geo/shape.hpp#geo.Shape.area") in _edges_from(cpp, "src/shape.cpp#geo.Shape.describe")


def test_cpp_member_found_as_class_dot_member(cpp):
    found = cpp.dependents_of("src/shape.cpp", "Circle.area").to_dict()
    assert found["status"] == "found"
    assert "src/main.cpp#unit_area" in {e["source"] for e in found["edges"]}
    definition = cpp.trace("Circle.area", file="src/shape.cpp").to_dict()["definition"]
    assert (definition["file"], definition["line"], definition["path"]) == ("src/shape.cpp", 10, ["geo", "Circle", "area"])


def test_cpp_member_defined_outside_its_namespace(tmp_path):
    (tmp_path / "shape.hpp").write_text(
        "namespace geo {\nclass Circle {\npublic:\n    Circle(double r);\n    double area() const;\n"
        "    double r;\n};\n}\n")
    (tmp_path / "shape.cpp").write_text(
        '#include "shape.hpp"\n\ndouble geo::Circle::area() const { return r * r; }\n\n'
        "geo::Circle::Circle(double r) : r(r) {}\n\ndouble twice(const geo::Circle& c) { return 2 * c.area(); }\n")
    project = Project(tmp_path)
    nodes = _nodes(project, "shape.cpp")
    assert nodes["shape.geo.Circle.area"]["line"] == 3
    assert nodes["shape.geo.Circle.Circle"]["kind"] == "constructor"
    assert "shape.area" not in nodes and "shape.Circle" not in nodes
    assert project.dependents_of("shape.cpp", "geo.Circle.area").to_dict()["status"] == "found"
    calls = _edges_from(project, "shape.cpp#twice")
    assert ("CALLS", "shape.cpp#geo.Circle.area") in calls, calls


def test_go_method_is_named_by_its_receiver_type(go):
    nodes = _nodes(go, "store/store.go")
    assert nodes["store/store.Store.Add"]["kind"] == "method"
    assert "store/store.Add" not in nodes
    # a method in another file of the package than its type
    assert "models/names.User.DisplayName" in _nodes(go, "models/names.go")


def test_go_method_found_as_type_dot_method(go):
    found = go.dependents_of("store/store.go", "Store.Add").to_dict()
    assert found["status"] == "found", found
    assert "cmd/app/main.go#main" in {e["source"] for e in found["edges"]}
    assert go.dependencies_of("store/store.go", "Store.Find").to_dict()["status"] == "found"


def test_rust_impl_members_unchanged(tmp_path):
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(
        "pub struct Counter { n: u32 }\n\nimpl Counter {\n    pub fn bump(&mut self) { self.n += 1; }\n}\n\n"
        "pub fn run(c: &mut Counter) { c.bump(); }\n")
    project = Project(tmp_path)
    names = set(_nodes(project, "src/lib.rs"))
    assert "src/lib.Counter.bump" in names and "src/lib.Counter.Counter.bump" not in names
    assert project.dependents_of("src/lib.rs", "Counter.bump").to_dict()["status"] == "found"
