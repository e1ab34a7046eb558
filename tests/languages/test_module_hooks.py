"""The module-resolution hooks of C/C++, Go, Rust and Java, on small in-memory file trees.

Each hook only asks its ``ModuleContext`` which files exist and what config files say, so a
dict-backed context exercises the real hook code without a project on disk.
"""

from __future__ import annotations

import posixpath

from jupyter_codetrace.languages import c_family, go, java, rust


class Tree:
    """A ModuleContext over {path: text}."""

    def __init__(self, files: dict[str, str]):
        self.files = files

    def is_file(self, rel: str) -> bool:
        return rel in self.files

    def is_dir(self, rel: str) -> bool:
        return any(p.startswith(rel.rstrip("/") + "/") for p in self.files)

    def read_text(self, rel: str) -> str | None:
        return self.files.get(rel)

    def read_json(self, rel: str):
        return None

    def package_roots(self) -> list[str]:
        return [""]

    def files_named(self, basename: str) -> list[str]:
        return [p for p in self.files if posixpath.basename(p) == basename]

    def files_in(self, folder: str) -> list[str]:
        return [p for p in self.files if posixpath.dirname(p) == folder]


def test_c_include_relative_first_then_compile_commands_then_include_dirs():
    tree = Tree({
        "src/util.h": "", "src/main.c": "", "lib/include/util.h": "", "third/include/net/http.h": "",
        "app/x.c": "",
        "compile_commands.json": '[{"directory": "/b", "file": "app/x.c", "arguments": ["cc", "-I/b/lib/include", "-c", "app/x.c"]}]',
    })
    assert c_family.resolve_include("util.h", "src/main.c", tree) == ["src/util.h"]
    assert c_family.resolve_include("util.h", "app/x.c", tree) == ["lib/include/util.h"]
    assert c_family.resolve_include("net/http.h", "app/x.c", tree) == ["third/include/net/http.h"]
    assert c_family.resolve_include("<stdio.h>", "app/x.c", tree) == []
    assert c_family.resolve_include("missing.h", "app/x.c", tree) == []


def test_c_counterparts_pair_header_and_source_across_folders():
    tree = Tree({"include/geo/shape.hpp": "", "src/shape.cpp": "", "src/other.cpp": ""})
    assert c_family.counterparts("include/geo/shape.hpp", tree) == ["src/shape.cpp"]
    assert c_family.counterparts("src/shape.cpp", tree) == ["include/geo/shape.hpp"]


def test_go_imports_follow_the_nearest_go_mod():
    tree = Tree({
        "svc/go.mod": "module example.com/svc\n\ngo 1.22\n",
        "svc/store/store.go": "", "svc/store/store_test.go": "", "svc/store/helpers.go": "",
        "svc/cmd/main.go": "",
    })
    assert go.resolve_import("example.com/svc/store", "svc/cmd/main.go", tree) == [
        "svc/store/helpers.go", "svc/store/store.go", "svc/store/store_test.go"]
    assert go.resolve_import("fmt", "svc/cmd/main.go", tree) == []
    assert go.package_files("svc/store/store.go", tree) == ["svc/store/helpers.go", "svc/store/store_test.go"]
    assert go.SPEC.default_import_name("example.com/svc/store") == "store"
    assert go.SPEC.default_import_name("example.com/lib/v2") == "lib"


def test_rust_mod_files_crate_self_and_super_paths():
    tree = Tree({
        "Cargo.toml": '[package]\nname = "my-app"\n',
        "src/lib.rs": "", "src/main.rs": "", "src/shapes/mod.rs": "", "src/shapes/circle.rs": "",
        "src/units.rs": "", "src/units/si.rs": "",
    })
    assert rust.resolve_path("shapes", "src/lib.rs", tree) == ["src/shapes/mod.rs"]
    assert rust.resolve_path("circle", "src/shapes/mod.rs", tree) == ["src/shapes/circle.rs"]
    assert rust.resolve_path("si", "src/units.rs", tree) == ["src/units/si.rs"]
    assert rust.resolve_path("crate::units", "src/shapes/circle.rs", tree) == ["src/units.rs"]
    assert rust.resolve_path("super", "src/shapes/circle.rs", tree) == ["src/shapes/mod.rs"]
    assert rust.resolve_path("self::circle", "src/shapes/mod.rs", tree) == ["src/shapes/circle.rs"]
    # A binary names its library crate by the package name; item paths stop at their module.
    assert rust.resolve_path("my_app::shapes::Kind", "src/main.rs", tree) == ["src/shapes/mod.rs"]
    assert rust.resolve_path("std::collections", "src/lib.rs", tree) == []


def test_java_source_root_comes_from_the_package_line():
    tree = Tree({
        "svc/src/main/java/com/acme/app/Main.java": "package com.acme.app;\n",
        "svc/src/main/java/com/acme/model/User.java": "package com.acme.model;\n",
        "svc/src/main/java/com/acme/model/Role.java": "package com.acme.model;\n",
    })
    main = "svc/src/main/java/com/acme/app/Main.java"
    assert java.resolve_import("com.acme.model", main, tree) == [
        "svc/src/main/java/com/acme/model/Role.java", "svc/src/main/java/com/acme/model/User.java"]
    assert java.resolve_import("com.acme.model.User", main, tree) == ["svc/src/main/java/com/acme/model/User.java"]
    assert java.resolve_import("java.util", main, tree) == []
