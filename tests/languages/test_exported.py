"""`exported` by each language's own rules (issue 22, "exported").

C/C++: a `static` function or variable outside a class has internal linkage (a `static` class
member does not). TypeScript: a `private` member is not visible outside its class. Go: a name
is exported iff it is capitalised, methods declared outside their type too. Java: `public`
(and, for members, `protected`) only; package-private and `private` are not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace import Project


def _project(root: Path, files: dict[str, str]) -> Project:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return Project(root)


def _exported(project: Project, file: str, symbol: str) -> bool:
    found = project.trace(symbol, file=file).to_dict()["definition"]
    assert found["status"] == "found", found
    assert found["file"] == file, found
    return found["exported"]


def test_c_static_function_is_not_exported(tmp_path):
    project = _project(tmp_path, {"src/util.c": (
        "static int helper(int x) { return x + 1; }\n"
        "static int counter = 0;\n"
        "int api(int x) { return helper(x) + counter; }\n")})
    assert _exported(project, "src/util.c", "helper") is False
    assert _exported(project, "src/util.c", "counter") is False
    assert _exported(project, "src/util.c", "api") is True
    assert project.trace("helper", file="src/util.c").to_dict()["definition"]["modifiers"] == ["static"]


def test_cpp_static_linkage_and_static_members(tmp_path):
    project = _project(tmp_path, {"src/shape.cpp": (
        "namespace geo {\n"
        "static double twice(double x) { return 2 * x; }\n"
        "class Box {\npublic:\n    static int count();\n    int size();\n};\n"
        "int Box::size() { return 1; }\n"
        "double area(double x) { return twice(x); }\n"
        "}\n")})
    assert _exported(project, "src/shape.cpp", "twice") is False
    assert _exported(project, "src/shape.cpp", "area") is True
    assert _exported(project, "src/shape.cpp", "Box") is True
    assert _exported(project, "src/shape.cpp", "Box.count") is True  # a class's static member


def test_typescript_private_member_is_not_exported(tmp_path):
    project = _project(tmp_path, {"src/store.ts": (
        "export class Store {\n"
        "  private items: string[] = [];\n"
        "  protected size = 0;\n"
        "  private reset(): void { this.items = []; }\n"
        "  add(item: string): void { this.items.push(item); this.reset; }\n"
        "}\n")})
    assert _exported(project, "src/store.ts", "Store") is True
    assert _exported(project, "src/store.ts", "Store.add") is True
    assert _exported(project, "src/store.ts", "Store.size") is True
    assert _exported(project, "src/store.ts", "Store.reset") is False
    assert _exported(project, "src/store.ts", "Store.items") is False


def test_go_capitalised_methods_are_exported(tmp_path):
    project = _project(tmp_path, {
        "go.mod": "module example.com/c\n\ngo 1.21\n",
        "counter/counter.go": (
            "package counter\n\n"
            "type Counter struct{ n int }\n\n"
            "func (c *Counter) Count() int { return c.n }\n\n"
            "func (c *Counter) bump() { c.n++ }\n\n"
            "func helper() {}\n"),
    })
    assert _exported(project, "counter/counter.go", "Counter") is True
    assert _exported(project, "counter/counter.go", "Counter.Count") is True
    assert _exported(project, "counter/counter.go", "Counter.bump") is False
    assert _exported(project, "counter/counter.go", "helper") is False


@pytest.mark.parametrize(("symbol", "expected"), [
    ("Account", True),
    ("Account.deposit", True),        # public
    ("Account.audit", True),          # protected: visible to subclasses elsewhere
    ("Account.settle", False),        # package-private
    ("Account.secret", False),        # private
    ("Account.balance", False),       # a package-private field
    ("Account.Kind", True),           # a public nested enum
    ("Account.Kind.SAVINGS", True),   # its constants
    ("Ledger", False),                # a package-private top-level class
    ("Ledger.record", False),         # public, but in a class invisible outside the package
    ("Named", True),
    ("Named.name", True),             # interface members are public
])
def test_java_access_modifiers(tmp_path, symbol, expected):
    project = _project(tmp_path, {
        "src/main/java/com/acme/Account.java": (
            "package com.acme;\n\n"
            "public class Account {\n"
            "    int balance;\n"
            "    public void deposit(int amount) { balance += amount; }\n"
            "    protected void audit() {}\n"
            "    void settle() {}\n"
            "    private void secret() {}\n"
            "    public enum Kind { SAVINGS, CHECKING }\n"
            "}\n\n"
            "class Ledger {\n"
            "    public void record() {}\n"
            "}\n"),
        "src/main/java/com/acme/Named.java": (
            "package com.acme;\n\npublic interface Named {\n    String name();\n}\n"),
    })
    file = "src/main/java/com/acme/" + ("Named.java" if symbol.startswith("Named") else "Account.java")
    assert _exported(project, file, symbol) is expected
