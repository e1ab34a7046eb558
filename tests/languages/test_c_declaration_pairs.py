"""A C/C++ header declaration and its `.c`/`.cpp` definition are two halves of one symbol
(issue 22): a doc comment on either shows on both cards, ``include_declaration=True`` lists the
header prototype beside the definition, and a C project's `.h` (parsed with the C++ grammar) is
shown as C — ``language: c``, its code fenced as c — while a C++ project's stays cpp."""

from __future__ import annotations

from pathlib import Path

from jupyter_codetrace import Project

GEO_H = """#pragma once
namespace geo {
/** A circle. */
class Circle {
public:
  Circle(double r);
  /** The area of the circle. */
  double area() const;
private:
  double r_;
};
void process_data(int n);
}
"""
GEO_CPP = """#include "geo.h"
namespace geo {
Circle::Circle(double r) : r_(r) {}
double Circle::area() const { return 3.14 * r_ * r_; }
/** Processes the data. */
void process_data(int n) { (void)n; }
}
"""
MAIN_CPP = """#include "geo.h"
int main() {
  geo::Circle c(2.0);
  double a = c.area();
  geo::process_data(3);
  return (int)a;
}
"""
UTIL_H = """#ifndef UTIL_H
#define UTIL_H
/** Adds two ints. */
int add(int a, int b);
#endif
"""
UTIL_C = """#include "util.h"
int add(int a, int b) { return a + b; }
"""
MAIN_C = """#include "util.h"
int main(void) { return add(1, 2); }
"""


def _write(root: Path, files: dict[str, str]) -> Project:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return Project(root)


def test_a_header_doc_shows_on_the_out_of_line_definition(tmp_path):
    project = _write(tmp_path, {"geo.h": GEO_H, "geo.cpp": GEO_CPP, "main.cpp": MAIN_CPP})
    d = project.find_definition("area", "main.cpp", 4, 16).to_dict()
    assert (d["file"], d["line"], d["doc"]) == ("geo.cpp", 4, "The area of the circle.")


def test_a_definition_doc_shows_on_the_header_declaration(tmp_path):
    project = _write(tmp_path, {"geo.h": GEO_H, "geo.cpp": GEO_CPP, "main.cpp": MAIN_CPP})
    d = project.find_definition("process_data", "main.cpp", 5, 8, mode="declaration").to_dict()
    assert (d["file"], d["line"], d["doc"]) == ("geo.h", 12, "Processes the data.")


def test_a_symbol_without_a_pair_gets_no_borrowed_doc(tmp_path):
    project = _write(tmp_path, {"geo.h": GEO_H, "geo.cpp": GEO_CPP, "main.cpp": MAIN_CPP})
    d = project.find_definition("c", "main.cpp", 4, 14).to_dict()
    assert d["kind"] == "variable" and d["doc"] is None


def test_include_declaration_lists_the_header_prototype(tmp_path):
    project = _write(tmp_path, {"geo.h": GEO_H, "geo.cpp": GEO_CPP, "main.cpp": MAIN_CPP})
    refs = project.find_references("area", "main.cpp", 4, 16, include_declaration=True).to_dict()
    assert [(r["file"], r["line"], r["usage"]) for r in refs["references"]] == [
        ("geo.cpp", 4, "declaration"), ("geo.h", 8, "declaration"), ("main.cpp", 4, "call")]
    without = project.find_references("area", "main.cpp", 4, 16).to_dict()
    assert [(r["file"], r["line"], r["usage"]) for r in without["references"]] == [("main.cpp", 4, "call")]


def test_include_declaration_in_c(tmp_path):
    project = _write(tmp_path, {"util.h": UTIL_H, "util.c": UTIL_C, "main.c": MAIN_C})
    refs = project.find_references("add", "main.c", 2, 25, include_declaration=True).to_dict()
    assert [(r["file"], r["line"], r["usage"]) for r in refs["references"]] == [
        ("main.c", 2, "call"), ("util.c", 2, "declaration"), ("util.h", 4, "declaration")]


def test_a_c_projects_header_is_shown_as_c(tmp_path):
    project = _write(tmp_path, {"include/util.h": UTIL_H, "src/util.c": UTIL_C, "src/main.c": MAIN_C})
    result = project.find_definition("add", "src/main.c", 2, 25, mode="declaration")
    assert (result.file, result.language) == ("include/util.h", "c")
    assert "```c\nint add(int a, int b);\n```" in result.to_markdown()


def test_a_header_with_no_source_of_its_stem_takes_its_folders_language(tmp_path):
    project = _write(tmp_path, {"api.h": UTIL_H, "impl.c": UTIL_C.replace("util.h", "api.h"), "main.c":
                                MAIN_C.replace("util.h", "api.h")})
    assert project.find_definition("add", "main.c", 2, 25, mode="declaration").language == "c"


def test_a_cpp_projects_header_stays_cpp(tmp_path):
    project = _write(tmp_path, {"geo.h": GEO_H, "geo.cpp": GEO_CPP, "main.cpp": MAIN_CPP})
    result = project.find_definition("area", "main.cpp", 4, 16, mode="declaration")
    assert (result.file, result.language) == ("geo.h", "cpp")
    assert "```cpp\n" in result.to_markdown()
