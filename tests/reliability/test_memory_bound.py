"""What one file can cost in memory (issue 16, item 10).

Extraction holds every query match of a file at once, about 1 KB per syntax node: generated
files (70,000 one-line statements, a minified bundle, a 100,000-line function, a table of
60,000 rows) took 200–725 MB each. Past ``NODE_BUDGET`` syntax nodes only the first part of a
file is analysed — whole statements while they fit, then down into the one that does not, so a
huge function or table keeps its name and first lines — and the index warns, naming the file and
the last line indexed. The rest of the repository answers as before. Memory itself is measured
in ``bench/hostile_memory.py``, never here.

The files are generated here; most tests lower the budget so they stay small and fast, one uses
the real budget.
"""

from __future__ import annotations

import re

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index import extract, indexer
from jupyter_codetrace.index.extract import NODE_BUDGET, TOO_MANY_NODES

HELPER = "def helper():\n    return 1\n\n\ndef main():\n    return helper()\n"


def _bounded(stats) -> dict[str, str]:
    return {w["path"]: w["message"] for w in stats.warnings if w["message"].startswith(TOO_MANY_NODES)}


def _last_line(message: str) -> int:
    return int(re.search(r"only lines 1-(\d+) are indexed", message).group(1))


def _write(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_seventy_thousand_statements_are_cut_at_the_real_budget_and_named(tmp_path):
    root = tmp_path / "repo"
    lines = 70_000   # 4 nodes each: 280,000 nodes, past the budget
    assert lines * 4 > NODE_BUDGET
    _write(root, {
        "generated.py": "".join(f"value_{i} = source\n" for i in range(lines)),
        "use.py": "from generated import value_1\n\nprint(value_1)\n",
        "good.py": HELPER,
    })
    with Project(root, cache_dir=tmp_path / "cache") as project:
        stats = project.index()
        message = _bounded(stats)["generated.py"]
        assert f"{lines * 4 + 1:,} syntax nodes" in message
        last = _last_line(message)
        assert 50_000 < last < lines
        assert f"generated.py: {message}" in stats.to_text()
        assert "generated.py" not in stats.syntax_errors   # the kept part parses as written
        assert [s for s in stats.skipped if s["path"] == "generated.py"] == []
        # before the cut: found, from another file too; after it: not indexed (the warning says so)
        found = project.find_definition("value_1", "use.py", 3)
        assert (found.status, found.file, found.line) == ("found", "generated.py", 2)
        assert project.symbols(f"value_{last - 1}", limit=1).to_dict()["symbols"][0]["line"] == last
        after = project.symbols(f"value_{lines - 1}", limit=5).to_dict()["symbols"]
        assert not [s for s in after if s["name"] == f"value_{lines - 1}"]
        # the rest of the repository answers
        assert project.find_definition("helper", "good.py", 6).line == 1
        assert project.find_references("helper", "good.py", 1).count == 1
        assert project.dependencies_of("good.py", "main").status == "found"


HOSTILE = {
    # a function of 3,000 statements: it keeps its name and its first statements
    "long_function.py": "def long_function(v, w):\n" + "".join(f"    v = v + w{i % 7}\n" for i in range(3000))
                        + "    return v\n",
    "long_function.c": "int long_function(int v, int *w) {\n"
                       + "".join(f"    v = v + w[{i % 7}];\n" for i in range(3000)) + "    return v;\n}\n",
    # a table of 2,000 rows: its name stays a definition
    "table.c": "static const int table[] = {\n"
               + ",\n".join(", ".join(str(i + j) for j in range(10)) for i in range(2000)) + "\n};\n",
    "table.py": "TABLE = [\n" + ",\n".join(f"    {{'k': {i}, 'n': row{i % 9}}}" for i in range(2000)) + "\n]\n",
    "table.ts": "export const table = {\n" + ",\n".join(f"  key{i}: {{ id: {i}, ref: other }}" for i in range(2000))
                + "\n};\n",
    # minified: one line of 2,000 functions
    "bundle.min.js": ";".join(f"function f{i}(a,b){{return g(a+b,f{max(i - 1, 0)})}}" for i in range(2000)) + ";\n",
    # a generated declaration file: an interface of 2,000 members
    "generated.d.ts": "export declare interface Generated {\n"
                      + "".join(f"    member{i}(arg: Input, other?: Array<Item>): Promise<Result>;\n" for i in range(2000))
                      + "}\n",
    # lines 20,000 characters long
    "long_lines.py": "".join("x = " + " + ".join(f"a{j}" for j in range(2000)) + "\n" for _ in range(20)),
}
FIRST = {   # a definition before the cut in each: (symbol, line)
    "long_function.py": ("long_function", 1), "long_function.c": ("long_function", 1),
    "table.c": ("table", 1), "table.py": ("TABLE", 1), "table.ts": ("table", 1),
    "bundle.min.js": ("f1", 1), "generated.d.ts": ("member1", 3), "long_lines.py": ("x", 1),
}


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(extract, "NODE_BUDGET", 5_000)


def test_every_kind_of_hostile_file_is_cut_named_and_keeps_its_first_definitions(tmp_path, small_budget):
    root = tmp_path / "repo"
    _write(root, {**HOSTILE, "good.py": HELPER, "small.ts": "export function helper(): number { return 1; }\n"})
    with Project(root, cache_dir=tmp_path / "cache") as project:
        stats = project.index()
        bounded = _bounded(stats)
        assert set(bounded) == set(HOSTILE)
        assert stats.files == len(HOSTILE) + 2 and not stats.skipped
        for name, message in bounded.items():
            assert "more than the 5,000 analysed per file" in message
            total = HOSTILE[name].count("\n")
            assert 1 <= _last_line(message) <= total, name
            symbol, line = FIRST[name]
            answer = project.symbols(symbol, limit=20).to_dict()
            assert any(s["file"] == name and s["line"] == line for s in answer["symbols"]), (name, answer)
        # what is kept still parses as written: the cut never leaves a syntax error behind
        assert not set(stats.syntax_errors) & set(HOSTILE)
        assert project.find_definition("helper", "good.py", 6).line == 1
        assert project.find_references("helper", "small.ts", 1, 17).found


def test_a_file_that_grows_past_the_budget_is_cut_and_back_under_it_is_whole(tmp_path, small_budget):
    root = tmp_path / "repo"
    _write(root, {"grow.py": HELPER, "good.py": "from grow import helper\n\nhelper()\n"})
    with Project(root, cache_dir=tmp_path / "cache") as project:
        assert not _bounded(project.index())
        _write(root, {"grow.py": HELPER + "".join(f"v{i} = helper()\n" for i in range(3000))})
        assert set(_bounded(project.index())) == {"grow.py"}
        assert project.find_definition("helper", "good.py", 3).file == "grow.py"
        _write(root, {"grow.py": HELPER})
        assert not _bounded(project.index())
        assert project.find_references("helper", "grow.py", 1).count == 3   # main, the import, the call


def test_written_code_never_hits_the_budget(tmp_path):
    from pathlib import Path

    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    for name in ("demo", "ts_esm", "graph_py"):
        with Project(fixtures / name, cache_dir=tmp_path / name) as project:
            assert not _bounded(project.index())


def test_facts_kept_in_memory_are_bounded_by_their_size_too(tmp_path, monkeypatch):
    """The in-memory facts cache holds at most 512 files and at most ``_FACTS_CACHE_WEIGHT``
    definitions and references: files of generated code are loaded again from the store."""
    monkeypatch.setattr(indexer, "_FACTS_CACHE_WEIGHT", 1_000)
    root = tmp_path / "repo"
    _write(root, {f"gen{i}.py": "".join(f"name{i}_{j} = {j}\n" for j in range(600)) for i in range(4)})
    _write(root, {"use.py": "from gen3 import name3_5\nfrom gen0 import name0_7\n\nprint(name3_5, name0_7)\n"})
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.index()
        index = project._index
        assert index._facts_weight <= 1_000 + 600 and len(index._facts) <= 2
        assert project.find_definition("name3_5", "use.py", 4).line == 6
        assert project.find_definition("name0_7", "use.py", 4).line == 8
        assert index._facts_weight == sum(len(f.definitions) + len(f.references) for f in index._facts.values())
        assert index._facts_weight <= 1_000 + 600
