"""TypeScript/JavaScript imports of installed packages (``node_modules``) and of a monorepo's own
workspace packages, on real fixture files (issue 21, items 1 and 2).

``fixtures/ts_libs`` is a project whose ``.gitignore`` ignores ``node_modules/`` (as every
JavaScript project's does) and whose committed ``node_modules/`` holds a plain package
(``slugs``: ``main`` with a ``.d.ts`` beside it), a scoped package with a conditional
``exports`` map (``@units/measure``: ``types``/``import``/``require``, a subpath, a subpath
pattern), JavaScript-only packages typed by ``@types/`` packages (``pad-left``,
``@tiny/clamp`` → ``@types/tiny__clamp``), and a nested ``tools/node_modules/slugs`` (version 2).
``fixtures/ts_workspace`` is an npm-workspaces monorepo with no ``node_modules`` at all (before
any install); its pnpm and symlinked variants are made here in temporary copies.

For a package, ``mode="declaration"`` answers the ``.d.ts`` and ``mode="definition"`` a
function's or method's body in the package's JavaScript (classes, interfaces and constants
stay in the ``.d.ts``): see ``jupyter_codetrace/languages/typescript.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.languages.typescript import pnpm_workspace_packages

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LIBS = FIXTURES / "ts_libs"
WORKSPACE = FIXTURES / "ts_workspace"


@pytest.fixture(scope="module")
def libs():
    with Project(LIBS) as project:
        yield project


def _at(project, symbol, file, line, mode="definition"):
    d = project.find_definition(symbol, file, line, mode=mode).to_dict()
    return d["status"], d.get("file"), d.get("line"), d.get("kind")


def _line_of(root: Path, file: str, text: str) -> int:
    lines = (root / file).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


# ------------------------------------------------------------------ installed packages

def test_a_plain_package_main_with_its_declaration_beside_it(libs):
    line = _line_of(LIBS, "src/measure.ts", "return slugify(title)")
    assert _at(libs, "slugify", "src/measure.ts", line, "declaration") == \
        ("found", "node_modules/slugs/lib/index.d.ts", 7, "function")
    assert _at(libs, "slugify", "src/measure.ts", line) == ("found", "node_modules/slugs/lib/index.js", 1, "function")
    d = libs.find_definition("slugify", "src/measure.ts", line, mode="declaration").to_dict()
    assert d["library"] == {"kind": "package", "package": "slugs", "version": "1.4.0"}
    assert d["signature"] and "text: string" in d["signature"]
    assert d["doc"] == "Turns a title into a URL slug."
    assert [step["file"] for step in d["resolved_from"]][:1] == ["src/measure.ts"]


def test_a_class_of_a_package_is_its_declaration_in_both_modes(libs):
    for mode in ("definition", "declaration"):
        assert _at(libs, "Slugger", "src/measure.ts", 1, mode) == ("found", "node_modules/slugs/lib/index.d.ts", 9, "class")
        assert _at(libs, "Length", "src/measure.ts", 2, mode) == \
            ("found", "node_modules/@units/measure/dist/types/length.d.ts", 3, "class")


def test_scoped_package_conditional_exports_types_first(libs):
    d = libs.find_definition("Length", "src/measure.ts", 2).to_dict()
    assert d["library"] == {"kind": "package", "package": "@units/measure", "version": "2.1.0"}
    # `export { Length } from "./length.js"` in dist/types/index.d.ts: `.js` names the `.d.ts`
    assert [s["file"] for s in d["resolved_from"]] == ["src/measure.ts", "node_modules/@units/measure/dist/types/index.d.ts"]
    # the subpath `./format`: {import: {types, default}, require}
    assert _at(libs, "formatLength", "src/measure.ts", 3, "declaration") == \
        ("found", "node_modules/@units/measure/dist/types/format.d.ts", 3, "function")
    assert _at(libs, "formatLength", "src/measure.ts", 3) == \
        ("found", "node_modules/@units/measure/dist/esm/format.js", 1, "function")
    # the subpath pattern `./units/*`
    assert _at(libs, "feet", "src/measure.ts", 4, "declaration") == \
        ("found", "node_modules/@units/measure/dist/types/units/imperial.d.ts", 4, "function")
    assert _at(libs, "FOOT", "src/measure.ts", 4) == \
        ("found", "node_modules/@units/measure/dist/types/units/imperial.d.ts", 3, "constant")


def test_exports_and_main_through_the_module_context(libs):
    """What the hook returns: the declaration, then the implementation the `import` condition
    names (not `require`'s `.cjs`, not the `main` field that `exports` overrides)."""
    modules = libs._context.fresh().modules
    resolve = lambda spec, importer="src/measure.ts": modules.resolve(spec, importer, "typescript")  # noqa: E731
    measure = "node_modules/@units/measure/dist/"
    assert resolve("@units/measure") == [measure + "types/index.d.ts", measure + "esm/index.js"]
    assert resolve("@units/measure/units/imperial") == \
        [measure + "types/units/imperial.d.ts", measure + "esm/units/imperial.js"]
    assert resolve("slugs") == ["node_modules/slugs/lib/index.d.ts", "node_modules/slugs/lib/index.js"]
    assert resolve("slugs", "tools/cli.ts") == ["tools/node_modules/slugs/slugs.d.ts", "tools/node_modules/slugs/slugs.js"]
    assert resolve("pad-left") == ["node_modules/@types/pad-left/index.d.ts", "node_modules/pad-left/index.js"]
    assert resolve("@tiny/clamp") == ["node_modules/@types/tiny__clamp/index.d.ts", "node_modules/@tiny/clamp/clamp.mjs"]
    assert resolve("not-installed") == []
    assert resolve("@units/measure/no/such/file") == []


def test_a_package_without_types_is_typed_by_its_types_package(libs):
    line = _line_of(LIBS, "src/measure.ts", "leftPad(formatLength")
    d = libs.find_definition("leftPad", "src/measure.ts", line, mode="declaration").to_dict()
    assert (d["file"], d["line"], d["library"]["package"]) == ("node_modules/@types/pad-left/index.d.ts", 2, "pad-left")
    assert d["parameters"][0] == {"name": "text", "type": "string | number", "default": None}
    assert _at(libs, "leftPad", "src/measure.ts", line) == ("found", "node_modules/pad-left/index.js", 1, "function")
    line = _line_of(LIBS, "src/measure.ts", "return clamp(")
    assert _at(libs, "clamp", "src/measure.ts", line, "declaration") == \
        ("found", "node_modules/@types/tiny__clamp/index.d.ts", 2, "function")
    assert _at(libs, "clamp", "src/measure.ts", line) == ("found", "node_modules/@tiny/clamp/clamp.mjs", 1, "function")


def test_nested_node_modules_win_over_the_roots(libs):
    d = libs.find_definition("slugify", "tools/cli.ts", 4, mode="declaration").to_dict()
    assert (d["file"], d["line"], d["library"]["version"]) == ("tools/node_modules/slugs/slugs.d.ts", 2, "2.0.0")
    assert d["parameters"][1]["name"] == "language"


def test_members_of_package_classes_and_of_values_typed_by_declarations(libs):
    line = _line_of(LIBS, "src/measure.ts", "new Length(m).toCentimeters()")
    assert _at(libs, "toCentimeters", "src/measure.ts", line) == \
        ("found", "node_modules/@units/measure/dist/esm/length.js", 6, "method")
    assert _at(libs, "toCentimeters", "src/measure.ts", line, "declaration") == \
        ("found", "node_modules/@units/measure/dist/types/length.d.ts", 7, "method")
    # `const first = meters(a); first.plus(...)`: typed by `meters(n: number): Length` in the .d.ts
    line = _line_of(LIBS, "src/measure.ts", "first.plus(feet(b))")
    assert _at(libs, "plus", "src/measure.ts", line, "declaration") == \
        ("found", "node_modules/@units/measure/dist/types/length.d.ts", 8, "method")
    line = _line_of(LIBS, "src/measure.ts", "slugger.slug(t)")
    assert _at(libs, "slug", "src/measure.ts", line) == ("found", "node_modules/slugs/lib/index.js", 13, "method")


def test_references_of_a_package_function_are_the_projects_uses_only(libs):
    line = _line_of(LIBS, "src/measure.ts", "return slugify(title)")
    d = libs.find_references("slugify", "src/measure.ts", line).to_dict()
    assert d["status"] == "found"
    assert d["definition"]["library"]["package"] == "slugs"
    assert [(r["file"], r["line"], r["usage"]) for r in d["references"]] == [
        ("src/measure.ts", 1, "import"), ("src/measure.ts", line, "call"),
        ("src/report.ts", 1, "import"), ("src/report.ts", 5, "call"),
    ]  # not tools/cli.ts: its `slugs` is another package (tools/node_modules/slugs)


def test_call_graph_names_package_functions_as_external_calls(libs):
    graph = libs.call_graph().to_dict()
    nodes = {n["id"]: n for n in graph["nodes"]}
    assert not [n for n in nodes if "node_modules" in n or n.startswith(("slugs/", "@units/"))]
    assert {"slugs.slugify", "@units/measure.formatLength", "@units/measure.Length"} <= \
        set(nodes["src/measure.ts#label"]["external_calls"])
    assert "@units/measure.Length.toCentimeters" in nodes["src/measure.ts#centimeters"]["external_calls"]
    assert {"@units/measure.meters", "@units/measure.Length.plus", "@units/measure.feet"} <= \
        set(nodes["src/measure.ts#total"]["external_calls"])
    assert "slugs.slugify" in nodes["tools/cli.ts#main"]["external_calls"]
    assert {(e["source"], e["target"]) for e in graph["edges"] if e["kind"] == "CALLS"} == {
        ("src/report.ts#report", "src/measure.ts#label"),
        ("src/report.ts#report", "src/measure.ts#centimeters"),
    }


def test_the_fixtures_node_modules_is_committed_although_ignored():
    """The fixture's own .gitignore ignores node_modules/ (as a JS project's does); its packages
    are committed all the same (`git add -f`), and the repository's .gitignore hides none."""
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=LIBS, capture_output=True, text=True)
    if top.returncode != 0:
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "node_modules", "tools/node_modules"], cwd=LIBS,
                            capture_output=True, text=True, check=True).stdout.split()
    on_disk = sorted(p.relative_to(LIBS).as_posix() for p in LIBS.rglob("*")
                     if p.is_file() and "node_modules" in p.parts)
    assert sorted(listed) == on_disk and len(on_disk) > 10
    assert (LIBS / ".gitignore").read_text().split() == ["node_modules/"]


# ------------------------------------------------------------------ workspace packages

def _workspace_answers(project):
    main = "apps/web/src/main.ts"
    return {
        "greet": _at(project, "greet", main, 1)[:3],
        "Greeter": _at(project, "Greeter", main, 1)[:3],
        "greetAll": _at(project, "greetAll", main, _line_of(WORKSPACE, main, "greeter.greetAll()"))[:3],
        "greetLoudly": _at(project, "greetLoudly", main, 4)[:3],
        "shout": _at(project, "shout", main, 5)[:3],
        "library": project.find_definition("greet", main, 1).to_dict().get("library"),
    }


_EXPECTED = {
    "greet": ("found", "packages/core/src/greet.ts", 2),          # main: dist/index.js -> src/index.ts
    "Greeter": ("found", "packages/core/src/greeter.ts", 3),
    "greetAll": ("found", "packages/core/src/greeter.ts", 6),
    "greetLoudly": ("found", "packages/utils/src/strings.ts", 7),  # exports "./strings" -> dist/esm -> src
    "shout": ("found", "packages/utils/src/strings.ts", 3),
    "library": None,
}


def _workspace_edges(project):
    graph = project.call_graph().to_dict()
    return {(e["source"], e["target"], e["kind"]) for e in graph["edges"]}


def test_workspace_packages_resolve_to_their_sources_before_any_install():
    assert not (WORKSPACE / "node_modules").exists()
    with Project(WORKSPACE) as project:
        assert _workspace_answers(project) == _EXPECTED
        edges = _workspace_edges(project)
        assert {
            ("apps/web/src/main.ts#main", "packages/core/src/greet.ts#greet", "CALLS"),
            ("apps/web/src/main.ts#main", "packages/core/src/greeter.ts#Greeter.greetAll", "CALLS"),
            ("apps/web/src/main.ts#main", "packages/utils/src/strings.ts#greetLoudly", "CALLS"),
            ("packages/utils/src/strings.ts#greetLoudly", "packages/core/src/greet.ts#greet", "CALLS"),
            ("apps/tools/cli/src/cli.ts#run", "apps/web/src/main.ts#main", "CALLS"),
        } <= edges
        # `!apps/legacy` leaves that folder out of the workspace
        assert project.find_definition("oldGreeting", "apps/tools/cli/src/cli.ts", 3).status == "unresolved"
        refs = project.find_references("greet", "packages/core/src/greet.ts", 2).to_dict()
        assert {(r["file"], r["usage"]) for r in refs["references"]} >= {
            ("apps/web/src/main.ts", "call"), ("packages/utils/src/strings.ts", "call"),
            ("packages/core/src/greeter.ts", "call")}


def _without_npm_workspaces(root: Path) -> None:
    manifest = json.loads((root / "package.json").read_text())
    del manifest["workspaces"]
    (root / "package.json").write_text(json.dumps(manifest, indent=2))


def test_a_pnpm_workspace_resolves_the_same(copy_fixture):
    root = copy_fixture("ts_workspace")
    _without_npm_workspaces(root)
    (root / "pnpm-workspace.yaml").write_text(
        "# pnpm reads its packages from here\n"
        "packages:\n"
        "  - 'packages/*'   # libraries\n"
        '  - "apps/**"\n'
        "  - '!apps/legacy'\n"
        "catalog:\n"
        "  typescript: ^5.6.0\n")
    with Project(root) as project:
        assert _workspace_answers(project) == _EXPECTED
        assert ("apps/web/src/main.ts#main", "packages/core/src/greet.ts#greet", "CALLS") in _workspace_edges(project)
        assert project.find_definition("oldGreeting", "apps/tools/cli/src/cli.ts", 3).status == "unresolved"


def _link(root: Path, name: str, target: str) -> None:
    link = root / "node_modules" / name
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(os.path.relpath(root / target, link.parent), link, target_is_directory=True)


@pytest.mark.parametrize("declared", [True, False], ids=["workspaces-and-links", "links-only"])
def test_node_modules_links_into_the_root_are_project_code(copy_fixture, declared):
    """After `npm install` the workspace packages are links in node_modules; with or without the
    workspace declaration the answer is the project's source, never a library path."""
    root = copy_fixture("ts_workspace")
    if not declared:
        _without_npm_workspaces(root)
    _link(root, "@acme/core", "packages/core")
    _link(root, "@acme/utils", "packages/utils")
    # a built copy inside the linked package: ignored (dist/), so the source still answers
    (root / "packages/core/dist").mkdir()
    (root / "packages/core/dist/index.d.ts").write_text("export declare function greet(name: string): string;\n")
    with Project(root) as project:
        assert _workspace_answers(project) == _EXPECTED
        edges = _workspace_edges(project)
        assert ("apps/web/src/main.ts#main", "packages/core/src/greet.ts#greet", "CALLS") in edges
        assert not [e for e in edges if "node_modules" in e[0] + e[1]]
        stats = project.index()
        assert stats.files == len([p for p in root.rglob("*.ts") if "node_modules" not in p.parts
                                   and "dist" not in p.parts])


def test_a_link_leading_out_of_the_root_stays_library_code(copy_fixture, tmp_path):
    root = copy_fixture("ts_libs")
    outside = tmp_path / "elsewhere" / "slugs"
    shutil.copytree(root / "node_modules" / "slugs", outside)
    shutil.rmtree(root / "node_modules" / "slugs")
    os.symlink(outside, root / "node_modules" / "slugs", target_is_directory=True)
    with Project(root) as project:
        d = project.find_definition("slugify", "src/measure.ts", 1, mode="declaration").to_dict()
        assert (d["status"], d["file"], d["library"]["package"]) == ("found", "node_modules/slugs/lib/index.d.ts", "slugs")


def test_pnpm_workspace_yaml_subset():
    text = ("packages:\n  - 'packages/*'  # comment\n  - \"apps/**\"\n  - tools/#not-a-comment\n"
            "  - '!**/test/**'\ncatalog:\n  - not-a-package\n")
    assert pnpm_workspace_packages(text) == ["packages/*", "apps/**", "tools/#not-a-comment", "!**/test/**"]
    assert pnpm_workspace_packages("packages: ['a/*', \"b\"]\n") == ["a/*", "b"]
    assert pnpm_workspace_packages("packages:\n- libs/*\n") == ["libs/*"]
    assert pnpm_workspace_packages("catalog: {}\n") == []


def test_javascript_importers_resolve_packages_the_same(copy_fixture):
    root = copy_fixture("ts_libs")
    (root / "src" / "legacy.mjs").write_text(
        'import { Length } from "@units/measure";\n'
        'import { leftPad } from "pad-left";\n\n'
        "export function show(m) {\n"
        "  return leftPad(String(new Length(m).toCentimeters()), 8);\n"
        "}\n")
    with Project(root) as project:
        assert _at(project, "leftPad", "src/legacy.mjs", 5, "declaration") == \
            ("found", "node_modules/@types/pad-left/index.d.ts", 2, "function")
        assert _at(project, "toCentimeters", "src/legacy.mjs", 5) == \
            ("found", "node_modules/@units/measure/dist/esm/length.js", 6, "method")
        node = {n["id"]: n for n in project.call_graph().to_dict()["nodes"]}["src/legacy.mjs#show"]
        assert "@units/measure.Length.toCentimeters" in node["external_calls"]


def test_a_package_function_without_javascript_body_stays_in_its_declaration(tmp_path):
    """`module.exports = require("./impl")`: no `wrap` in the entry's JavaScript, so the
    definition is the `.d.ts` declaration, never the project's own function of that name."""
    package = tmp_path / "node_modules" / "cj"
    (package / "lib").mkdir(parents=True)
    (tmp_path / ".gitignore").write_text("node_modules/\n")
    (package / "package.json").write_text('{"name": "cj", "version": "1.0.0", "main": "lib/index.js"}')
    (package / "lib" / "index.d.ts").write_text("export declare function wrap(s: string): string;\n")
    (package / "lib" / "index.js").write_text('module.exports = require("./impl");\n')
    (tmp_path / "a.ts").write_text('import { wrap } from "cj";\nexport const x = wrap("a");\n')
    (tmp_path / "mine.ts").write_text("export function wrap(s: string) { return s; }\n")
    with Project(tmp_path) as project:
        assert _at(project, "wrap", "a.ts", 2) == ("found", "node_modules/cj/lib/index.d.ts", 1, "function")
