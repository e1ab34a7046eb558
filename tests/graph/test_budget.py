"""The trace stays within its ~12,000-character budget on a large generated call graph, and
says what it shrank, in the documented order."""

from __future__ import annotations

import os
from pathlib import Path

from jupyter_codetrace import Project
from jupyter_codetrace.render.trace import BUDGET


def _large_project(root, fan_out=30, depth=3):
    """hub() calls 30 functions, each calling 30 more, ... and 40 callers call hub()."""
    lines = ["def hub():"] + [f"    f_{i}()" for i in range(fan_out)] + ["    return len([])", ""]
    for i in range(fan_out):
        lines += [f"def f_{i}():"] + [f"    g_{i}_{j}()" for j in range(fan_out)] + ["    print('x')", ""]
        for j in range(fan_out):
            lines += [f"def g_{i}_{j}():", "    return sorted([])", ""]
    for k in range(40):
        lines += [f"def caller_{k}():", "    return hub()", ""]
        lines += [f"def top_{k}():", f"    return caller_{k}()", ""]
    (root / "big.py").write_text("\n".join(lines), encoding="utf-8")


def test_a_huge_trace_is_shrunk_in_order_and_says_so(tmp_path):
    _large_project(tmp_path)
    with Project(tmp_path) as project:
        result = project.trace("hub", references=True, calls=True, types=True)
        full = result.to_dict()
        assert len(full["calls"]["outgoing"]) == 31  # 30 callees and the external len()
        text = result.to_text()
    assert len(text) <= BUDGET + 300
    note = text.strip().splitlines()[-1]
    assert note.startswith("# over the 12,000-character budget:")
    assert note.index("dropped declaration-file and external entries") < note.index("collapsed outgoing calls to counts")
    assert "(external)" not in text
    assert "f_0 (big.py)  # +30 callees" in text
    golden = Path(__file__).resolve().parents[1] / "golden" / "graph" / "trace_budget.txt"
    if os.environ.get("CODETRACE_REGEN_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"{golden.name}: no golden file yet; run with CODETRACE_REGEN_GOLDEN=1 and review it"
    assert text == golden.read_text(encoding="utf-8")


def test_a_small_trace_is_untouched(tmp_path):
    (tmp_path / "m.py").write_text("def a():\n    return b()\n\n\ndef b():\n    return len([])\n", encoding="utf-8")
    with Project(tmp_path) as project:
        text = project.trace("a", calls=True).to_text()
    assert "budget" not in text and "- b (m.py)" in text and "len (external)" in text
