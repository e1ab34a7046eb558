"""`paths` with no path says when calls matched by name only would connect the two (issue 14)."""

from __future__ import annotations

from jupyter_codetrace import Project


def test_no_path_says_when_a_name_only_path_exists(tmp_path):
    """`helper()` without an import is matched by name only: `paths` says that a path exists if
    such guesses count, and with them finds it (issue 14: "No path found" hid it)."""
    (tmp_path / "a.py").write_text("def run():\n    helper()\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("def helper():\n    pass\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        strict = project.paths_between(("a.py", "run"), ("b.py", "helper"))
        assert strict.status == "no_path" and "--include-name-matches" in strict.message
        assert "a path of 1 edge connects them" in strict.message
        loose = project.paths_between(("a.py", "run"), ("b.py", "helper"), include_name_matches=True)
        assert loose.status == "found"
        (tmp_path / "c.py").write_text("def alone():\n    pass\n", encoding="utf-8")
        apart = project.paths_between(("a.py", "run"), ("c.py", "alone"))
        assert apart.status == "no_path" and apart.message == "No path found."
