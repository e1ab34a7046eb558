"""SCIP export (issue 17): our output decoded with the protobuf classes, checked against the
fixtures' own facts — documents, occurrences and their roles, symbols and the symbol grammar,
relationships, library symbols, notebooks, UTF-16 ranges, the CLI and the incremental path."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("google.protobuf")

from jupyter_codetrace import Project  # noqa: E402
from jupyter_codetrace.cli import main  # noqa: E402
from jupyter_codetrace.scip import DEFINITION, IMPORT, READ_ACCESS, WRITE_ACCESS, scip_messages  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def decode(path: Path):
    index = scip_messages().Index()
    index.ParseFromString(path.read_bytes())
    return index


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """fixture name -> (decoded index, stats); each fixture exported once for the module."""
    folder = tmp_path_factory.mktemp("scip")
    done = {}

    def export(name: str):
        if name not in done:
            out = folder / f"{name}.scip"
            with Project(FIXTURES / name) as project:
                stats = project.export_scip(out)
            done[name] = (decode(out), stats)
        return done[name]

    return export


def document(index, path: str):
    return next(d for d in index.documents if d.relative_path == path)


def at(doc, rng: list[int]) -> list:
    return [o for o in doc.occurrences if list(o.range) == rng]


def info(index, symbol: str):
    for doc in index.documents:
        for entry in doc.symbols:
            if entry.symbol == symbol:
                return entry
    return next(e for e in index.external_symbols if e.symbol == symbol)


def definition_of(index, symbol: str) -> tuple[str, list[int]]:
    found = [(d.relative_path, list(o.range)) for d in index.documents for o in d.occurrences
             if o.symbol == symbol and o.symbol_roles & DEFINITION]
    assert found, f"no definition of {symbol}"
    return found[0]


# ---------------------------------------------------------------------------- index and documents
def test_metadata_and_one_document_per_indexed_file(exported):
    index, stats = exported("graph_py")
    assert index.metadata.tool_info.name == "jupyter_codetrace"
    assert index.metadata.tool_info.version
    assert index.metadata.project_root == (FIXTURES / "graph_py").resolve().as_uri() + "/"
    assert index.metadata.text_document_encoding == 1   # UTF8
    root = FIXTURES / "graph_py"
    files = [p.relative_to(root).as_posix() for p in root.rglob("*.py") if "__pycache__" not in p.parts]
    assert sorted(d.relative_path for d in index.documents) == sorted(files)
    assert {d.language for d in index.documents} == {"python"}
    assert {d.position_encoding for d in index.documents} == {2}   # UTF16CodeUnitOffsetFromLineStart
    assert stats.documents == len(files) and stats.reused == 0
    assert stats.occurrences == sum(len(d.occurrences) for d in index.documents)


def test_a_definition_with_its_symbol_information(exported):
    index, _ = exported("graph_py")
    doc = document(index, "shop/digital.py")
    # class DigitalProduct(Product):   (line 6, the name at column 7)
    [occurrence] = at(doc, [5, 6, 20])
    assert occurrence.symbol == "codetrace . . . `shop.digital`/DigitalProduct#"
    assert occurrence.symbol_roles & DEFINITION
    assert list(occurrence.enclosing_range)[:2] == [5, 0]
    entry = info(index, occurrence.symbol)
    assert entry.display_name == "DigitalProduct" and entry.kind == 7   # Class
    assert entry.signature_documentation.text == "class DigitalProduct(Product):"
    assert entry.signature_documentation.language == "python"
    method = info(index, "codetrace . . . `shop.digital`/DigitalProduct#describe().")
    assert method.kind == 26   # Method
    assert info(index, "codetrace . . . `shop.digital`/DigitalProduct#describe().(self)").kind == 37


def test_a_cross_file_reference_and_an_import_name_the_definition(exported):
    index, _ = exported("graph_py")
    doc = document(index, "shop/digital.py")
    [base] = at(doc, [5, 21, 28])          # DigitalProduct(Product)
    assert not base.symbol_roles & DEFINITION and base.symbol_roles & READ_ACCESS
    assert definition_of(index, base.symbol) == ("shop/models.py", [11, 6, 13])
    [imported] = at(doc, [2, 20, 27])      # from .models import Product
    assert imported.symbol == base.symbol and imported.symbol_roles & IMPORT
    [module] = at(doc, [2, 5, 12])         # the module `.models` as written
    assert module.symbol == "codetrace . . . `shop.models`/" and module.symbol_roles & IMPORT
    assert definition_of(index, module.symbol) == ("shop/models.py", [0, 0, 0])


def test_write_and_read_access_follow_the_usage(exported):
    index, _ = exported("ts_app")
    doc = document(index, "src/models.ts")
    # this.name = name;   (line 37 of src/models.ts)
    [written] = at(doc, [36, 9, 13])
    assert written.symbol == "codetrace npm ts-app 1.0.0 `src/models`/UserModel#name."
    assert written.symbol_roles & WRITE_ACCESS and not written.symbol_roles & READ_ACCESS
    [read] = at(doc, [36, 16, 20])
    assert read.symbol == "codetrace npm ts-app 1.0.0 `src/models`/UserModel#constructor().(name)"
    assert read.symbol_roles & READ_ACCESS


def test_locals_and_parameters(exported):
    index, _ = exported("python_app")
    doc = document(index, "app/main.py")
    [client] = at(doc, [24, 4, 10])        # client = Client(base_url), inside run()
    assert re.fullmatch(r"local \w+", client.symbol) and client.symbol_roles & DEFINITION
    uses = [o for o in doc.occurrences if o.symbol == client.symbol and not o.symbol_roles & DEFINITION]
    assert uses, "the local's uses carry its local symbol"
    [parameter] = at(doc, [22, 8, 16])     # def run(base_url: str)
    assert parameter.symbol == "codetrace . . . `app.main`/run().(base_url)"


def test_implements_extends_overrides_and_type_definitions(exported):
    index, _ = exported("ts_app")
    prefix = "codetrace npm ts-app 1.0.0 "
    user_model = info(index, prefix + "`src/models`/UserModel#")
    related = {r.symbol: (r.is_implementation, r.is_reference, r.is_type_definition) for r in user_model.relationships}
    assert related[prefix + "`src/types`/Serializable#"] == (True, False, False)     # IMPLEMENTS
    assert related[prefix + "`src/models`/Entity#"] == (True, False, False)          # EXTENDS
    serialize = info(index, prefix + "`src/models`/UserModel#serialize().")
    [override] = serialize.relationships
    assert (override.symbol, override.is_implementation, override.is_reference) == \
        (prefix + "`src/types`/Serializable#serialize().", True, True)
    role = info(index, prefix + "`src/models`/UserModel#role.")
    assert [(r.symbol, r.is_type_definition) for r in role.relationships] == [(prefix + "`src/types`/Role#", True)]
    assert info(index, prefix + "`src/models`/Entity#").documentation[0].startswith("Base of every persisted model")


def test_name_only_matches_are_not_exported(exported):
    index, _ = exported("ts_app")
    doc = document(index, "src/app.ts")
    # console.log(legacyHash(String(n)), BUILD_ID, ...): both resolve by name only (ambient globals)
    assert at(doc, [59, 14, 24]) == [] and at(doc, [59, 37, 45]) == []
    [n] = at(doc, [59, 32, 33])            # the local n on the same line is precise
    assert n.symbol.startswith("local ")


def test_a_library_target_is_an_external_symbol_with_its_package(exported):
    index, stats = exported("py_libs")
    doc = document(index, "analysis.py")
    # return json.dumps({...}, indent=2)   (line 29)
    [dumps] = at(doc, [28, 16, 21])
    assert re.fullmatch(r"codetrace python python \d+\.\d+\S* json/dumps\(\)\.", dumps.symbol), dumps.symbol
    external = info(index, dumps.symbol)
    assert external in list(index.external_symbols)
    assert external.kind == 17 and external.documentation[0].startswith("Serialize ``obj``")
    assert external.signature_documentation.text.startswith("dumps(obj")
    [indent] = at(doc, [28, 60, 66])       # the keyword names the library function's parameter
    assert indent.symbol == dumps.symbol + "(indent)"
    assert not any(d.relative_path.startswith("::") or "site-packages" in d.relative_path for d in index.documents)
    assert stats.external_symbols == len(index.external_symbols)


def test_symbols_follow_the_grammar(exported):
    descriptor = r"(?:(?:[\w+\-$]+|`(?:[^`]|``)+`)(?:/|#|\.|\(\)\.|!)|\((?:[\w+\-$]+|`(?:[^`]|``)+`)\)|\[[\w+\-$]+\])"
    package = r"(?:[^ ]|  )+"
    grammar = re.compile(rf"codetrace {package} {package} {package} {descriptor}+|local [\w+\-$]+")
    for name in ("graph_py", "ts_app", "py_libs", "python_app"):
        index, _ = exported(name)
        symbols = {o.symbol for d in index.documents for o in d.occurrences}
        symbols |= {s.symbol for d in index.documents for s in d.symbols} | {s.symbol for s in index.external_symbols}
        bad = sorted(s for s in symbols if not grammar.fullmatch(s))
        assert not bad, bad[:5]


# ---------------------------------------------------------------------------- notebooks and ranges
def _notebook(cells: list[tuple[str, str]]) -> str:
    return json.dumps({"cells": [{"cell_type": kind, "metadata": {}, "source": source,
                                  **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                                 for kind, source in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_notebook_is_one_document_of_its_code_cells(tmp_path):
    root = tmp_path / "nb"
    root.mkdir()
    (root / "explore.ipynb").write_text(_notebook([
        ("markdown", "# Notes\nnot code"),
        ("code", "def greet(name):\n    return name.upper()"),
        ("code", "greet('x')"),
    ]))
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.export_scip(tmp_path / "nb.scip")
    [doc] = decode(tmp_path / "nb.scip").documents
    assert doc.relative_path == "explore.ipynb" and doc.language == "python"
    lines = doc.text.split("\n")
    assert "not code" not in doc.text
    definition = next(o for o in doc.occurrences if o.symbol.endswith("greet().") and o.symbol_roles & DEFINITION)
    call = next(o for o in doc.occurrences if o.symbol == definition.symbol and not o.symbol_roles & DEFINITION)
    assert lines[definition.range[0]].startswith("def greet(")
    assert lines[call.range[0]][call.range[1]:call.range[2]] == "greet" and lines[call.range[0]].startswith("greet('x')")
    assert call.range[0] > definition.range[0]


def test_ranges_count_utf16_code_units(tmp_path):
    root = tmp_path / "u"
    root.mkdir()
    line = 'rocket = "🚀é"; other = rocket'
    (root / "u.py").write_text(line + "\n", encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.export_scip(tmp_path / "u.scip")
    [doc] = decode(tmp_path / "u.scip").documents
    use = next(o for o in doc.occurrences if o.symbol.endswith("rocket.") and not o.symbol_roles & DEFINITION)
    start = len(line[: line.rindex("rocket")].encode("utf-16-le")) // 2
    assert list(use.range) == [0, start, start + 6]
    assert start == line.rindex("rocket") + 1   # the rocket is two UTF-16 units, é one


# ---------------------------------------------------------------------------- the CLI
def test_cli_export(tmp_path, capsys):
    out = tmp_path / "index.scip"
    status = main(["--root", str(FIXTURES / "graph_py"), "export", "--format", "scip", "-o", str(out)])
    text = capsys.readouterr().out
    assert status == 0 and text.startswith(f"Wrote {out}:") and "UTF-16" in text
    assert len(decode(out).documents) == 13
    status = main(["--root", str(FIXTURES / "graph_py"), "--json", "export", "-o", str(out)])
    payload = json.loads(capsys.readouterr().out)
    assert status == 0 and payload["documents"] == 13 and payload["path"] == str(out)
    assert payload["reused"] == 13   # the second export in a row reuses every document


def test_cli_export_refuses_another_format(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--root", str(FIXTURES / "graph_py"), "export", "--format", "lsif"])
    assert exit_.value.code == 2


# ---------------------------------------------------------------------------- incremental
def test_incremental_export_reuses_unchanged_documents_and_equals_a_cold_one(tmp_path):
    root = tmp_path / "graph_py"
    shutil.copytree(FIXTURES / "graph_py", root, ignore=shutil.ignore_patterns("__pycache__"))
    warm, cold = tmp_path / "warm.scip", tmp_path / "cold.scip"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        first = project.export_scip(warm)
        again = project.export_scip(warm)
        assert (first.reused, again.reused) == (0, first.documents)
        before = warm.read_bytes()
        # a new line above Product: its definition moves, so every file that reads models.py is redone
        models = root / "shop" / "models.py"
        models.write_text("# moved down one line\n" + models.read_text())
        changed = project.export_scip(warm)
    assert 0 < changed.reused < first.documents
    assert warm.read_bytes() != before
    with Project(root, cache_dir=tmp_path / "other-cache") as fresh:
        assert fresh.export_scip(cold).reused == 0
    assert warm.read_bytes() == cold.read_bytes()
    moved = decode(warm)
    product = next(o for o in document(moved, "shop/models.py").occurrences
                   if o.symbol.endswith("`shop.models`/Product#") and o.symbol_roles & DEFINITION)
    assert product.range[0] == 12   # line 13, was 12
    # a new process on the same cache: every document comes from the file beside the index
    with Project(root, cache_dir=tmp_path / "cache") as restarted:
        assert restarted.export_scip(tmp_path / "again.scip").reused == first.documents
    assert (tmp_path / "again.scip").read_bytes() == cold.read_bytes()


def test_the_package_comes_from_the_manifest_and_a_new_version_re_encodes(tmp_path):
    root = tmp_path / "pkg"
    (root / "demo").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "demo lib"\nversion = "1.0"\n')
    (root / "demo" / "__init__.py").write_text("def f():\n    return 1\n")
    out = tmp_path / "pkg.scip"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.export_scip(out)
        [doc] = decode(out).documents
        assert {o.symbol for o in doc.occurrences} >= {"codetrace python demo  lib 1.0 demo/f()."}  # space doubled
        (root / "pyproject.toml").write_text('[project]\nname = "demo lib"\nversion = "2.0"\n')
        stats = project.export_scip(out)
    assert stats.reused == 0
    [doc] = decode(out).documents
    assert "codetrace python demo  lib 2.0 demo/f()." in {o.symbol for o in doc.occurrences}


def test_a_name_imported_from_a_missing_module_is_a_local_of_its_document(exported):
    index, _ = exported("python_app")
    doc = document(index, "app/analysis.py")
    # import numpy as np   (numpy is not installed beside the fixture)
    [binding] = at(doc, [2, 16, 18])
    assert binding.symbol.startswith("local ") and binding.symbol_roles & DEFINITION and binding.symbol_roles & IMPORT
    [use] = at(doc, [9, 17, 19])           # float(np.mean(lengths))
    assert use.symbol == binding.symbol and not use.symbol_roles & DEFINITION
    assert info(index, binding.symbol).signature_documentation.text == "import numpy as np"
