"""What a new process loads before its first answer: tree-sitter and a language's compiled query
only when facts are extracted, never for answers from stored facts; the graph's, the searches'
and the other queries' modules only when such a question is asked; versions without
importlib.metadata (bench/startup.py measures the time; nothing here is timed)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_codetrace.index.parsing import grammar_version
from jupyter_codetrace.installed import installed_version

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module, distribution", [
    ("tree_sitter", "tree-sitter"), ("tree_sitter_language_pack", "tree-sitter-language-pack"),
    ("mcp", "mcp"), ("mcp_types", "mcp-types"), ("networkx", "networkx")])
def test_installed_version_is_the_metadata_version(module, distribution):
    pytest.importorskip(module)
    assert installed_version(module, distribution) == importlib.metadata.version(distribution)


def test_installed_version_of_a_missing_package_is_none():
    assert installed_version("no_such_module_for_codetrace", "no-such-distribution") is None


def test_grammar_version_names_both_versions():
    assert grammar_version() == (f"ts{importlib.metadata.version('tree-sitter')}"
                                 f"-pack{importlib.metadata.version('tree-sitter-language-pack')}")


_PROBE = """
import json, sys
from jupyter_codetrace import Project
from jupyter_codetrace.index import parsing
project = Project(sys.argv[1])
result = project.find_definition(sys.argv[2], sys.argv[3], int(sys.argv[4]))
print(json.dumps({"status": result.status, "file": getattr(result, "file", None),
                  "queries": parsing._lean_query.cache_info().currsize + parsing._whole_query.cache_info().currsize,
                  "loaded": sorted(m for m in ("tree_sitter", "tree_sitter_language_pack") if m in sys.modules),
                  "modules": sorted(m for m in sys.modules if m.startswith("jupyter_codetrace."))}))
"""

# What answering a definition has no use for: the graph, the other queries, rendering.
_NOT_FOR_A_DEFINITION = ("jupyter_codetrace.graph.build", "jupyter_codetrace.graph.compact",
                         "jupyter_codetrace.graph.traverse", "jupyter_codetrace.queries.ahead",
                         "jupyter_codetrace.queries.graph", "jupyter_codetrace.queries.references",
                         "jupyter_codetrace.queries.symbols", "jupyter_codetrace.queries.trace",
                         "jupyter_codetrace.queries.outline", "jupyter_codetrace.render.text")


def _probe(root: Path, cache: Path, *query) -> dict:
    env = {**os.environ, "CODETRACE_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(root), *map(str, query)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_warm_cache_answers_without_tree_sitter(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    cold = _probe(root, tmp_path / "cache", "place_order", "main.py", 11)
    assert cold["status"] == "found" and cold["file"] == "shop/orders.py"
    assert cold["queries"] == 1   # Python's, the only language of the fixture
    warm = _probe(root, tmp_path / "cache", "place_order", "main.py", 11)
    modules = warm.pop("modules")
    assert warm == {"status": "found", "file": "shop/orders.py", "queries": 0, "loaded": []}
    assert "jupyter_codetrace.queries.definition" in modules
    assert not set(modules) & set(_NOT_FOR_A_DEFINITION)


def test_compile_queries_compiles_the_languages_indexed_before_any_file_is_parsed(tmp_path):
    """A process whose index came from the store has compiled no query; compile_queries() does
    it for the languages indexed (the server calls it once its index is ready), so the first
    save it sees needs none."""
    import subprocess
    import sys

    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "repo" / "b.ts").write_text("export function g(): number { return 1; }\n")
    cache = tmp_path / "cache"
    script = f"""
import sys
from jupyter_codetrace import Project
from jupyter_codetrace.index.parsing import _lean_query, _whole_query
compiled = lambda: _lean_query.cache_info().currsize + _whole_query.cache_info().currsize
project = Project({str(tmp_path / 'repo')!r}, cache_dir={str(cache)!r})
project.index()
if sys.argv[1] == "restart":
    before = compiled()
    project.compile_queries()
    print(before, compiled())
"""
    subprocess.run([sys.executable, "-c", script, "first"], check=True)
    done = subprocess.run([sys.executable, "-c", script, "restart"], check=True, capture_output=True, text=True)
    before, after = map(int, done.stdout.split())
    assert (before, after) == (0, 2)   # Python's and TypeScript's (its whole query waits for a file that needs it)


_SIDE_BY_SIDE = """
import hashlib, json, sys
from jupyter_codetrace import Project
from jupyter_codetrace.index import parsing
from jupyter_codetrace.index.store import encode
from jupyter_codetrace.languages import by_name

def compiled():
    return sorted(name for name in ("python", "typescript", "cpp") if parsing.is_compiled(by_name(name)))

def facts_of(project):
    index = project._index
    return {path: hashlib.sha1(encode(index.facts(path).to_rows())).hexdigest() for path in index.files()}

first = Project(sys.argv[1], cache_dir=sys.argv[3], workers=int(sys.argv[5]))
first.index()
after_first = compiled()
answers = [first.find_definition(*question).to_dict() for question in json.loads(sys.argv[6])]
second = Project(sys.argv[2], cache_dir=sys.argv[4], workers=int(sys.argv[5]))
second.index()
print(json.dumps({"after_first": after_first, "after_second": compiled(), "answers": answers,
                  "facts": facts_of(first), "second": facts_of(second)}))
"""


def test_a_first_index_of_several_languages_compiles_their_queries_side_by_side(copy_fixture, tmp_path):
    """A new process indexing Python, TypeScript and C++ for the first time compiles each
    language's query in a process of its own (0.15-0.8 s each: nearly all of a small project's
    first index) and extracts that language's files there: TypeScript and C++ in workers, Python
    (the language of most files) in the process itself. Its facts and answers are those of one
    process doing everything; the next project it indexes compiles the queries in the process
    itself, once (a worker's query is gone with the worker)."""
    demo = copy_fixture("demo")
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.py").write_text("def f():\n    return 1\n")
    (other / "b.ts").write_text("export function g(): number { return 1; }\n")
    questions = [["compute_total"], ["formatCents"], ["apply_discount"], ["BulkPolicy"], ["orderFor"]]
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def run(workers: int, name: str) -> dict:
        done = subprocess.run([sys.executable, "-c", _SIDE_BY_SIDE, str(demo), str(other),
                               str(tmp_path / name / "a"), str(tmp_path / name / "b"), str(workers),
                               json.dumps(questions)], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])

    side_by_side, alone = run(2, "two"), run(1, "one")
    assert side_by_side["after_first"] == ["python"]   # the language of most files; the others in workers
    assert side_by_side["after_second"] == ["python", "typescript"]
    assert alone["after_first"] == ["cpp", "python", "typescript"]
    assert [a["status"] for a in side_by_side["answers"]] == ["found"] * len(questions)
    assert side_by_side["answers"] == alone["answers"]
    assert len(side_by_side["facts"]) >= 15 and side_by_side["facts"] == alone["facts"]
    assert side_by_side["second"] == alone["second"]
