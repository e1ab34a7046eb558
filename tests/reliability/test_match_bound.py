"""What one file can cost (issue 16, item 10): a generated expression chain thousands of levels
deep (`s()+s()+…`, 120 KB) is analysed in bounded time — tree-sitter's in-progress matches are
capped — and the index says which file hit the bound; written code never does."""

from __future__ import annotations

from pathlib import Path

from jupyter_codetrace import Project
from jupyter_codetrace.index.parsing import NESTED_TOO_DEEP

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_a_chain_thousands_deep_is_indexed_whole_and_named(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "chain.ts").write_text("export function s(): number { return 1; }\nexport const total = "
                                   + "+".join(["s()"] * 30000) + ";\n", encoding="utf-8")
    (root / "main.ts").write_text('import { s } from "./chain";\nexport const one = s();\n', encoding="utf-8")
    with Project(root, cache_dir=tmp_path / "cache") as project:
        stats = project.index()
        assert {(w["path"], w["message"]) for w in stats.warnings} == {("chain.ts", NESTED_TOO_DEEP)}
        assert "chain.ts: " + NESTED_TOO_DEEP in stats.to_text()
        refs = project.find_references("s", "chain.ts", 1, 17)
        assert refs.found and len(refs.references) == 30002   # every call in the chain, main.ts import and call
        assert project.find_definition("s", "main.ts", 2, 20).file == "chain.ts"


def test_written_code_never_hits_the_bound(tmp_path):
    with Project(FIXTURES / "ts_esm", cache_dir=tmp_path / "a") as ts, \
            Project(FIXTURES / "demo", cache_dir=tmp_path / "b") as demo:
        for project in (ts, demo):
            assert not [w for w in project.index().warnings if w["message"] == NESTED_TOO_DEEP]
