"""A C `typedef struct {…} name;` is shown whole (issue 22, "Content"): the definition of `name`
spans the typedef, not only its last line `} name;`, and `struct name` inside the body still
names the struct."""

from __future__ import annotations

from jupyter_codetrace import Project

HEADER = """#ifndef LIST_H
#define LIST_H

typedef struct node {
    int value;
    struct node *next;
} node_t;

typedef struct {
    node_t *head;
    int size;
} list_t;

typedef struct node *node_ref;

#endif
"""

SOURCE = """#include "list.h"

int list_len(const list_t *l) {
    node_ref first = l->head;
    return first ? 1 : 0;
}
"""


def _project(tmp_path, source_name: str) -> Project:
    (tmp_path / "include").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "include" / "list.h").write_text(HEADER)
    (tmp_path / "src" / source_name).write_text(SOURCE)
    return Project(tmp_path)


def test_anonymous_typedef_struct_shows_whole(tmp_path):
    project = _project(tmp_path, "list.c")
    found = project.find_definition("list_t", "src/list.c", 3).to_dict()
    assert (found["status"], found["file"], found["line"], found["kind"]) == ("found", "include/list.h", 12, "type")
    assert found["code"] == "typedef struct {\n    node_t *head;\n    int size;\n} list_t;"
    assert "typedef struct {" in project.find_definition("list_t", "src/list.c", 3).to_markdown()


def test_named_typedef_and_pointer_typedef(tmp_path):
    project = _project(tmp_path, "list.cpp")  # the C++ query reads headers the same way
    node_t = project.find_definition("node_t", "include/list.h", 10).to_dict()
    assert (node_t["line"], node_t["code"].splitlines()[0]) == (7, "typedef struct node {")
    ref = project.find_definition("node_ref", "src/list.cpp", 4).to_dict()
    assert (ref["line"], ref["code"]) == (14, "typedef struct node *node_ref;")
    # `struct node` in the body is the struct, not the typedef written after it
    inner = project.find_definition("node", "include/list.h", 6, 12).to_dict()
    assert (inner["line"], inner["kind"]) == (4, "struct")
