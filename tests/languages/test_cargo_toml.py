"""Rust: the crate name a binary uses for its library comes from Cargo.toml read as TOML —
``[lib] name``, else ``[package] name`` — not from the first ``name =`` anywhere in the file."""

from __future__ import annotations

from jupyter_codetrace import Project
from jupyter_codetrace.languages import rust

DEPENDENCIES_FIRST = '''\
# a manifest whose first `name =` is not the package's
[dependencies]
serde = { version = "1", features = ["derive"], package = "serde", name = "not_the_package" }
rand = "0.8"

[dependencies.helper]
name = "also_not_it"
path = "../helper"

[package]
version = "0.1.0"
name = "shop-app"
edition = "2021"
'''


class Tree:
    def __init__(self, files: dict[str, str]):
        self.files = files

    def is_file(self, rel: str) -> bool:
        return rel in self.files

    def is_dir(self, rel: str) -> bool:
        return any(p.startswith(rel.rstrip("/") + "/") for p in self.files)

    def read_text(self, rel: str) -> str | None:
        return self.files.get(rel)


def test_the_package_name_not_the_first_name_in_the_file():
    assert rust.crate_name(DEPENDENCIES_FIRST) == "shop_app"
    tree = Tree({"Cargo.toml": DEPENDENCIES_FIRST, "src/lib.rs": "", "src/main.rs": "", "src/cart.rs": ""})
    assert rust.resolve_path("shop_app::cart::Cart", "src/main.rs", tree) == ["src/cart.rs"]
    assert rust.resolve_path("not_the_package::cart", "src/main.rs", tree) == []
    assert rust.resolve_path("also_not_it::cart", "src/main.rs", tree) == []


def test_a_lib_name_wins_and_odd_manifests_give_none():
    assert rust.crate_name('[package]\nname = "shop-app"\n\n[lib]\nname = "shop_core"\n') == "shop_core"
    assert rust.crate_name("[package]\nname = 'single-quoted'\n") == "single_quoted"
    assert rust.crate_name('package.name = "dotted-key"\n') == "dotted_key"
    assert rust.crate_name('[workspace]\nmembers = ["a", "b"]\n') is None
    assert rust.crate_name('[dependencies]\nname = "x"\n') is None
    assert rust.crate_name("[package\nname = ") is None  # not TOML: no name, no crash
    assert rust.crate_name("") is None and rust.crate_name(None) is None


def test_a_project_resolves_the_binary_use_of_its_library(tmp_path):
    (tmp_path / "Cargo.toml").write_text(DEPENDENCIES_FIRST, encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text("pub mod cart;\n", encoding="utf-8")
    (tmp_path / "src" / "cart.rs").write_text("pub fn checkout() -> u32 {\n    1\n}\n", encoding="utf-8")
    (tmp_path / "src" / "main.rs").write_text("use shop_app::cart::checkout;\n\nfn main() {\n    checkout();\n}\n",
                                              encoding="utf-8")
    with Project(tmp_path) as project:
        result = project.find_definition("checkout", "src/main.rs", 4)
    assert result.status == "found", result.message
    assert (result.file, result.line) == ("src/cart.rs", 1)
