"""The totals a refresh reports (files, languages, definitions, references, lines, warnings, syntax
errors) are kept as files change instead of summed anew each time: after every step of a run of
edits — files added, changed, broken, mended, deleted, turned into another language — they equal
those of a fresh index of the same tree."""

from __future__ import annotations

import os
import random
import time

from jupyter_codetrace import Project

FIELDS = ("files", "by_language", "definitions", "references", "lines", "warnings", "syntax_errors")
BODIES = [
    "def f{n}(x):\n    return x + {n}\n",
    "class C{n}:\n    def m(self):\n        return f{n}(1)\n",
    "def broken{n}(:\n    pass\n",                       # a syntax error
    "text = 'caf\\xe9'\n",                                # replaced below by invalid UTF-8: a warning
    "export function g{n}(a: number): number { return a * {n}; }\n",
]


def _write(path, text: str) -> None:
    data = text.encode()
    if "caf" in text:
        data = b"text = 'caf\xe9'\n"   # not UTF-8: read with replacement characters, and said so
    path.write_bytes(data)
    stamp = time.time() + 2
    os.utime(path, (stamp, stamp))


def _totals(stats) -> dict:
    data = stats.to_dict()
    return {field: data[field] for field in FIELDS} | {"warnings": sorted(map(str, data["warnings"]))}


def test_totals_kept_through_edits_equal_a_fresh_count(tmp_path):
    rng = random.Random(7)
    tree = tmp_path / "tree"
    tree.mkdir()
    project = Project(tree, cache_dir=tmp_path / "cache")
    project.index()
    for step in range(40):
        n = rng.randrange(8)
        suffix = ".ts" if rng.random() < 0.25 else ".py"
        for other in (".py", ".ts"):
            if other != suffix:
                (tree / f"m{n}{other}").unlink(missing_ok=True)   # the same module in another language
        path = tree / f"m{n}{suffix}"
        if path.exists() and rng.random() < 0.3:
            path.unlink()
        else:
            body = rng.choice(BODIES if suffix == ".py" else BODIES[-1:]).replace("{n}", str(step))
            _write(path, body)
        kept = _totals(project.index())
        fresh = _totals(Project(tree, cache_dir=tmp_path / f"fresh{step}").index())
        assert kept == fresh, step
    assert kept["warnings"] and kept["syntax_errors"] and len(kept["by_language"]) == 2, kept
