"""Names from the standard library and installed packages resolve into their source (issue 21).

The oracle is the interpreter itself: ``inspect`` says where ``json.dumps`` and
``networkx.DiGraph.add_edge`` are written, and the answers must land there.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import venv
from collections import OrderedDict
from pathlib import Path

import networkx
import pytest

from jupyter_codetrace import InvalidRequest, Project

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "py_libs"


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "py_libs"
    shutil.copytree(FIXTURE, root)
    with Project(root, cache_dir=tmp_path / "cache") as p:
        yield p


def _where(obj) -> tuple[str, int]:
    """(file under its import root, first line) of a function or class, by the interpreter."""
    file = Path(inspect.getsourcefile(obj)).resolve()
    line = inspect.getsourcelines(obj)[1]
    for entry in sorted((Path(p).resolve() for p in sys.path if p and Path(p).is_dir()), key=lambda p: -len(str(p))):
        if file.is_relative_to(entry):
            return file.relative_to(entry).as_posix(), line
    raise AssertionError(f"{file} is on no sys.path entry")


def _definition_line(obj) -> int:
    """The line of the ``def``/``class`` keyword (inspect counts decorators as the start)."""
    lines, start = inspect.getsourcelines(obj)
    for offset, text in enumerate(lines):
        if text.lstrip().startswith(("def ", "class ", "async def ")):
            return start + offset
    return start


@pytest.mark.parametrize("name, line, obj, kind", [
    ("dumps", 29, json.dumps, "stdlib"),
    ("loads", 13, json.loads, "stdlib"),
    ("read_text", 13, Path.read_text, "stdlib"),
    ("OrderedDict", 25, OrderedDict, "stdlib"),
    ("DiGraph", 18, networkx.DiGraph, "package"),
    ("add_edge", 20, networkx.DiGraph.add_edge, "package"),
])
def test_library_names_land_where_the_interpreter_says(project, name, line, obj, kind):
    result = project.find_definition(name, "analysis.py", line)
    assert result.status == "found", result.message
    file, _ = _where(obj)
    assert (result.file, result.line) == (file, _definition_line(obj))
    assert result.library["kind"] == kind
    if kind == "package":
        assert result.library == {"kind": "package", "package": "networkx", "version": networkx.__version__}
    else:
        assert result.library["package"] == "python"
        assert result.library["version"] == "%d.%d" % sys.version_info[:2]
    data = result.to_dict()
    assert data["library"] == result.library and not os.path.isabs(data["file"])
    assert str(Path(sys.prefix)) not in json.dumps(data)        # never a machine path
    assert result.code and result.name == name


def test_docs_and_signature_come_from_the_library_source(project):
    result = project.find_definition("dumps", "analysis.py", 29)
    assert result.signature.startswith("(obj, *, skipkeys=False")
    assert result.doc.startswith("Serialize ``obj`` to a JSON formatted ``str``")


def test_text_for_people_and_llms_names_the_library_not_the_machine(project):
    result = project.find_definition("add_edge", "analysis.py", 20)
    text, markdown = result.to_text(), result.to_markdown()
    label = f"networkx {networkx.__version__}"
    assert f"networkx/classes/digraph.py:{result.line}:{result.column} — {label}" in text
    assert label in markdown and "DiGraph.add_edge" in markdown
    for shown in (text, markdown):
        assert sys.prefix not in shown and "::py" not in shown


def test_references_of_a_library_function_are_the_projects_uses_only(project):
    result = project.find_references("dumps", "analysis.py", 29)
    assert result.status == "found"
    assert sorted((r.file, r.line) for r in result.references) == [("analysis.py", 29), ("notebook_helpers.py", 8)]
    assert result.definition.library["package"] == "python"
    assert result.definition.file == "json/__init__.py"
    assert "json/__init__.py" in result.to_text() and "stdlib" in result.to_text()


def test_call_graph_names_library_calls_and_holds_no_library_node(project):
    graph = project.call_graph().to_dict()
    files = {n["file"] for n in graph["nodes"]}
    assert files == {"analysis.py", "notebook_helpers.py"}
    calls = {n["qualified_name"]: n.get("external_calls") or [] for n in graph["nodes"]}
    assert "networkx.DiGraph.add_edge" in calls["analysis.supplier_graph"]
    assert "networkx.DiGraph" in calls["analysis.supplier_graph"]
    assert "json.dumps" in calls["analysis.report"] and "collections.OrderedDict" in calls["analysis.report"]
    assert "pathlib.Path.read_text" in calls["analysis.load_orders"]


def test_library_code_stays_out_of_search_and_statistics(project):
    project.find_definition("add_edge", "analysis.py", 20)   # parses networkx files
    assert {m.file for m in project.symbols("add_edge").matches} <= {"analysis.py", "notebook_helpers.py"}
    assert project.index().files == 2


def test_compiled_and_missing_modules_say_what_they_are(project):
    compiled = project.find_definition("sqrt", "analysis.py", 28)
    assert compiled.status == "unresolved"
    assert "`math`" in compiled.message and "no Python source" in compiled.message or "compiled into" in compiled.message
    missing = project.find_definition("upload", "notebook_helpers.py", 9)
    assert missing.status == "unresolved"
    assert "import yet_another_uninstalled_package as missing" in missing.message
    assert "`yet_another_uninstalled_package` is not installed for Python" in missing.message
    assert "CODETRACE_PYTHON" in missing.message


@pytest.fixture(scope="module")
def other_python(tmp_path_factory):
    """A second interpreter (a venv without pip) whose site-packages hold a package of its own
    and a stubs-only package: what ``Project(python=...)`` must search instead of ours."""
    base = tmp_path_factory.mktemp("env")
    venv.EnvBuilder(with_pip=False).create(base / "venv")
    python = base / "venv" / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "unitsy").mkdir()
    (site / "unitsy" / "__init__.py").write_text(
        "from .length import Length\n", encoding="utf-8")
    (site / "unitsy" / "length.py").write_text(
        "class Length:\n"
        "    \"\"\"A distance in metres.\"\"\"\n\n"
        "    def __init__(self, metres: float):\n        self.metres = metres\n\n"
        "    def to_centimetres(self) -> float:\n        return self.metres * 100\n", encoding="utf-8")
    dist = site / "unitsy-2.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: unitsy\nVersion: 2.1.0\n", encoding="utf-8")
    (dist / "top_level.txt").write_text("unitsy\n", encoding="utf-8")
    (site / "unitsy" / "length.pyi").write_text(
        "class Length:\n    metres: float\n    def __init__(self, metres: float) -> None: ...\n"
        "    def to_centimetres(self) -> float: ...\n", encoding="utf-8")
    (site / "convertly").mkdir()
    (site / "convertly" / "__init__.py").write_text("def inches(cm):\n    \"\"\"Centimetres to inches.\"\"\"\n"
                                                     "    return cm / 2.54\n", encoding="utf-8")
    (site / "convertly-stubs").mkdir()
    (site / "convertly-stubs" / "__init__.pyi").write_text("def inches(cm: float) -> float: ...\n",
                                                           encoding="utf-8")
    (site / "fastmath-stubs").mkdir()
    (site / "fastmath-stubs" / "__init__.pyi").write_text("def hypot(x: float, y: float) -> float: ...\n",
                                                         encoding="utf-8")
    return python


def test_another_interpreter_is_searched_when_named(tmp_path, other_python):
    root = tmp_path / "app"
    root.mkdir()
    (root / "main.py").write_text(
        "import fastmath\nfrom unitsy import Length\n\n\n"
        "def run(m):\n    height = Length(m)\n    return height.to_centimetres(), fastmath.hypot(m, m)\n",
        encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache", python=str(other_python)) as project:
        member = project.find_definition("to_centimetres", "main.py", 7)
        assert member.status == "found", member.message
        assert (member.file, member.line, member.kind) == ("unitsy/length.py", 7, "method")
        assert member.library == {"kind": "package", "package": "unitsy", "version": "2.1.0"}
        stub = project.find_definition("hypot", "main.py", 7)
        assert stub.status == "found", stub.message
        assert stub.file == "fastmath-stubs/__init__.pyi" and stub.signature == "(x: float, y: float) -> float"
    length = next(other_python.parents[1].glob("lib/python*/site-packages/unitsy/length.py"))
    length.write_text("\n\n" + length.read_text(encoding="utf-8"), encoding="utf-8")   # an upgrade moved it
    with Project(root, cache_dir=tmp_path / "cache", python=str(other_python)) as project:
        assert project.find_definition("to_centimetres", "main.py", 7).line == 9
    with Project(root, cache_dir=tmp_path / "cache2") as ours:   # our interpreter has no unitsy
        missing = ours.find_definition("Length", "main.py", 6)
        assert missing.status == "unresolved" and "`unitsy` is not installed" in missing.message


def test_an_interpreter_that_is_not_there_is_a_clear_error(tmp_path):
    with pytest.raises(InvalidRequest, match="python: .*no-such-python.* is not an executable"):
        Project(tmp_path, cache_dir=tmp_path / ".cache", python=str(tmp_path / "no-such-python"))


def test_an_interpreter_that_cannot_answer_is_a_clear_error(tmp_path):
    (tmp_path / "main.py").write_text("import json\njson.dumps(1)\n", encoding="utf-8")
    fake = tmp_path / "fake-python"
    fake.write_text("#!/bin/sh\nexit 3\n", encoding="utf-8")
    fake.chmod(0o755)
    with Project(tmp_path, cache_dir=tmp_path / ".cache", python=str(fake)) as project:
        with pytest.raises(ValueError, match="cannot ask the interpreter"):
            project.find_definition("dumps", "main.py", 2)


def test_library_payloads_match_the_schema(project):
    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "jupyter_codetrace/schema/results.schema.json")
                        .read_text(encoding="utf-8"))
    definition = project.find_definition("add_edge", "analysis.py", 20).to_dict()
    references = project.find_references("dumps", "analysis.py", 29).to_dict()
    for name, payload in (("Definition", definition), ("References", references)):
        jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}"}).validate(payload)
    assert definition["library"]["package"] == "networkx" and references["definition"]["library"]["kind"] == "stdlib"


def test_library_facts_are_kept_for_the_next_process(tmp_path, monkeypatch):
    """Parsed once per machine: a second Project (a new process, a restart) loads json's facts
    from the cache; a library file that changed is parsed again; an unusable cache only costs time."""
    from jupyter_codetrace.index import libraries as libraries_module

    parsed: list[str] = []
    real = libraries_module.extract_file

    def counting(path, source, spec):
        parsed.append(path)
        return real(path, source, spec)

    monkeypatch.setattr(libraries_module, "extract_file", counting)
    root = tmp_path / "py_libs"
    shutil.copytree(FIXTURE, root)
    with Project(root, cache_dir=tmp_path / "cache") as first:
        assert first.find_definition("dumps", "analysis.py", 29).file == "json/__init__.py"
    assert any(p.endswith("json/__init__.py") for p in parsed)
    assert (tmp_path / "cache" / "libraries" / "facts.sqlite").is_file()
    parsed.clear()
    with Project(root, cache_dir=tmp_path / "cache") as second:
        again = second.find_definition("dumps", "analysis.py", 29)
        assert (again.file, again.line) == ("json/__init__.py", _definition_line(json.dumps))
        assert again.code.startswith("def dumps(")      # the text is read from the file itself
    assert not any(p.endswith("json/__init__.py") for p in parsed), parsed
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    with Project(root, cache_dir=blocked) as third:
        assert third.find_definition("dumps", "analysis.py", 29).library["kind"] == "stdlib"


def test_a_project_file_named_like_a_library_file_is_the_projects(tmp_path):
    """`json/__init__.py` of the project, asked about first thing in a new process (the index
    not loaded yet): the project's file, never the standard library's copy of that path."""
    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "__init__.py").write_text("def foo():\n    pass\n\nfoo()\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        found = project.find_definition("foo", "json/__init__.py", 4)
        assert (found.status, found.file, found.line, found.library) == ("found", "json/__init__.py", 1, None)


def test_stubs_type_what_the_source_leaves_untyped(tmp_path, other_python):
    """A `.pyi` beside the module and a `-stubs` package give the signature; the source gives the
    code and the docs (issue 21: stubs preferred for types and signatures)."""
    (tmp_path / "main.py").write_text("import convertly\nfrom unitsy import Length\n\n"
                                      "Length(2).to_centimetres()\nconvertly.inches(5)\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache", python=str(other_python)) as project:
        method = project.find_definition("to_centimetres", "main.py", 4)
        assert (method.file, method.signature, method.returns) == ("unitsy/length.py", "(self) -> float", "float")
        assert "return self.metres * 100" in method.code
        function = project.find_definition("inches", "main.py", 5)
        assert (function.file, function.signature) == ("convertly/__init__.py", "(cm: float) -> float")
        assert function.parameters[0]["type"] == "float" and function.doc == "Centimetres to inches."


def test_a_console_scripts_folder_is_no_import_root(tmp_path, monkeypatch):
    """`jupyter-lab` (the panel's server) runs with the environment's `bin/` first on sys.path, a
    kernel (`python -m ipykernel_launcher`) with its working folder: both must see the same import
    roots, or each keeps its own graph store and builds the graph cold."""
    import sysconfig

    from jupyter_codetrace.graph.persist import store_for
    from jupyter_codetrace.index.libraries import Libraries
    from jupyter_codetrace.workspace import Workspace

    (tmp_path / "mod.py").write_text("import json\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    project.index()
    stores = []
    for first in (sysconfig.get_paths()["scripts"], str(tmp_path)):   # the server's, a kernel's in the project
        monkeypatch.setattr(sys, "path", [first] + [p for p in sys.path if p != first])
        libraries = Libraries(Workspace(tmp_path))
        assert sysconfig.get_paths()["scripts"] not in {r.path for r in libraries.python_roots()}
        stores.append(store_for(project._context.index, libraries).file)
    assert stores[0] == stores[1]
