"""Counts read as English on every surface: "1 file", "2 files" (seed 001's text, issue 22)."""

from pathlib import Path

from jupyter_codetrace import Project
from jupyter_codetrace.render.html import references_html
from jupyter_codetrace.render.text import render

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "graph_py"


def test_references_in_one_file_say_file(tmp_path):
    project = Project(FIXTURE, cache_dir=tmp_path)
    try:
        result = project.find_references("round_price", "shop/pricing.py", 25, 5)
    finally:
        project.close()
    assert result.files == 1 and result.count > 1
    assert f": {result.count} in 1 file</h4>" in references_html(result)
    assert "1 files" not in references_html(result) + render(result)
