"""Budgets on a large symbol, through a real MCP stdio session: the text and the structured content
of every answer stay within 12,000 characters and say what they left out — members beyond what is
shown are counted ("… N more members"), and a signature longer than the extraction limit ends at a
token boundary with a note instead of inside a name."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import mcp
import pytest
from mcp import StdioServerParameters

from jupyter_codetrace.mcp_budget import TEXT_BUDGET, fit_structured, fit_text, size_of

REPO = Path(__file__).resolve().parents[2]
METHODS = 120
USERS = 80


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def big_repo(tmp_path_factory) -> Path:
    """A class with 120 methods (the first with a 600-character signature) used 6 times in each of 80 files."""
    root = tmp_path_factory.mktemp("bigrepo")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    long_params = ", ".join(f"parameter_number_{i}: dict[str, list[int]] = None" for i in range(14))
    methods = [f"    def method_0(self, {long_params}):\n        '''The first method.'''\n        return self.method_1()\n"]
    methods += [f"    def method_{i}(self, value: int = {i}) -> int:\n        '''Method number {i}: adds {i}.'''\n"
                f"        return value + {i}\n" for i in range(1, METHODS)]
    (root / "pkg" / "big.py").write_text("class Big:\n    '''A class with many members.'''\n\n" + "\n".join(methods))
    for n in range(USERS):
        body = "\n".join(f"def use_{n}_{k}():\n    big = Big()\n    return big.method_{k}(1) + Big().method_{k + 1}(2)\n"
                         for k in range(3))
        (root / "pkg" / f"user_{n:02d}.py").write_text(f"from pkg.big import Big\n\n\n{body}")
    return root


def _params(root: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "jupyter_codetrace.cli", "mcp", "--root", str(root)],
                                 env={**os.environ, "PYTHONPATH": str(REPO)})


def _check_budget(result) -> tuple[str, dict]:
    assert not result.is_error, result.content
    text, data = result.content[0].text, result.structured_content
    assert len(text) <= TEXT_BUDGET, len(text)
    assert size_of(data) <= TEXT_BUDGET, size_of(data)
    return text, data


@pytest.mark.anyio
async def test_a_large_symbol_stays_within_both_budgets_and_says_what_was_cut(big_repo):
    async with mcp.Client(_params(big_repo), read_timeout_seconds=120) as client:
        # the whole story of the class: 120 members, 240+ references, call trees
        text, data = _check_budget(await client.call_tool(
            "codebase_trace", {"symbol": "Big", "references": True, "calls": True, "types": True}))
        cuts = data["truncated"]["cuts"]
        assert data["truncated"]["characters"] > TEXT_BUDGET and cuts, data["truncated"]
        assert all(c["kept"] < c["total"] for c in cuts if "kept" in c), cuts
        assert any(c["path"] == "definition.members" for c in cuts), cuts
        assert "more" in text  # the YAML says what it collapsed

        # the card: members beyond 30 are counted, not dropped silently
        text, data = _check_budget(await client.call_tool("go_to_definition", {"locate": {"symbol": "Big"}}))
        assert f"… {METHODS - 30} more members" in text, text[-800:]
        members = data["definition"]["members"] if "definition" in data else data["members"]
        cut = {c["path"]: c for c in data.get("truncated", {}).get("cuts", [])}
        assert len(members) == METHODS or cut["members"]["total"] == METHODS

        # every use of the class
        text, data = _check_budget(await client.call_tool(
            "find_references", {"path": "pkg/big.py", "line": 1, "character": 7}))
        assert data["count"] == USERS * 7, data["count"]  # 6 uses + the import in each file
        assert any(c["path"] == "references" for c in data["truncated"]["cuts"])

        # a signature longer than the extraction limit: cut between tokens, and says so
        text, data = _check_budget(await client.call_tool("go_to_definition",
                                                          {"locate": {"symbol": "Big.method_0"}}))
        signature = data["signature"]
        assert signature.endswith("(signature cut at 400 characters)"), signature
        head = signature.rsplit(" … ", 1)[0]
        assert head.endswith((",", "=", ":", "None")) or head.endswith("]"), head
        assert f"Signature: `{signature}`" in text


def test_fit_structured_keeps_small_answers_as_they_are():
    data = {"status": "found", "references": [{"file": "a.py", "line": 1}]}
    assert fit_structured(data) is data


def test_fit_structured_halves_the_largest_part_first_and_reports_every_cut():
    data = {"status": "found", "code": "word " * 3000, "references": [{"file": f"f{i}.py", "line": i} for i in range(900)],
            "small": [1, 2, 3]}
    fitted = fit_structured(data, budget=4000)
    assert size_of(fitted) <= 4000
    cuts = {c["path"]: c for c in fitted["truncated"]["cuts"]}
    assert cuts["references"]["total"] == 900 and cuts["references"]["kept"] == len(fitted["references"])
    assert fitted["references"] == data["references"][: len(fitted["references"])]  # the first ones kept
    assert cuts["code"]["total_characters"] == len(data["code"]) and fitted["code"].endswith(" …")
    assert "small" not in cuts and fitted["small"] == [1, 2, 3]
    assert len(data["references"]) == 900  # the input is not changed


def test_fit_text_cuts_at_a_line_and_counts_the_lines():
    text = "".join(f"line {i}\n" for i in range(5000))
    fitted = fit_text(text, 1000)
    assert len(fitted) <= 1000 and fitted.endswith("more lines cut to stay within the answer budget)\n")
    assert all(line.startswith(("line ", "…")) for line in fitted.splitlines())
