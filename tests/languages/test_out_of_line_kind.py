"""An out-of-line C++ member (`double Circle::area() const {}` in a .cpp) is its class's method;
a function qualified by a namespace (`geo::scale`) stays a function (issue 22)."""

from __future__ import annotations

from jupyter_codetrace import Project

HEADER = "namespace geo {\nclass Circle {\n public:\n  double area() const;\n};\ndouble scale(double x);\n}\n"
SOURCE = ('#include "shapes.hpp"\n\nnamespace geo {\n\ndouble Circle::area() const { return 3.0; }\n\n'
          'double scale(double x) { return x; }\n\n}\n\ndouble geo::twice(double x) { return geo::scale(x) * 2; }\n')


def test_out_of_line_members_are_methods(tmp_path):
    (tmp_path / "shapes.hpp").write_text(HEADER, encoding="utf-8")
    (tmp_path / "shapes.cpp").write_text(SOURCE, encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        area = project.find_definition("Circle.area")
        assert (area.file, area.line, area.kind) == ("shapes.cpp", 5, "method")
        assert project.find_definition("geo.twice").kind == "function"
        kinds = {n.qualified_name: n.kind for n in project.call_graph().nodes}
        assert kinds["shapes.geo.Circle.area"] == "method" and kinds["shapes.geo.twice"] == "function"
