"""What a new process loads before its first answer: tree-sitter and a language's compiled query
only when facts are extracted, never for answers from stored facts; versions without
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
                  "queries": parsing.query_for.cache_info().currsize,
                  "loaded": sorted(m for m in ("tree_sitter", "tree_sitter_language_pack") if m in sys.modules)}))
"""


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
    assert warm == {"status": "found", "file": "shop/orders.py", "queries": 0, "loaded": []}


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
from jupyter_codetrace.index.parsing import query_for
project = Project({str(tmp_path / 'repo')!r}, cache_dir={str(cache)!r})
project.index()
if sys.argv[1] == "restart":
    before = query_for.cache_info().currsize
    project.compile_queries()
    print(before, query_for.cache_info().currsize)
"""
    subprocess.run([sys.executable, "-c", script, "first"], check=True)
    done = subprocess.run([sys.executable, "-c", script, "restart"], check=True, capture_output=True, text=True)
    before, after = map(int, done.stdout.split())
    assert (before, after) == (0, 2)   # Python and TypeScript; nothing before
