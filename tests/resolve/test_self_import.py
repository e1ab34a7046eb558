"""A module that imports a name from itself (rich's `live.py` ends with `from .live import Live
as Live`) still exports its own definition, and no query crashes on the cycle."""

from jupyter_codetrace import Project


def test_a_self_import_does_not_hide_the_definition(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "live.py").write_text("class Live:\n    pass\n\n\nif __name__ == '__main__':\n    from .live import Live as Live\n")
    (pkg / "status.py").write_text("from .live import Live\n\n\ndef make():\n    return Live()\n")
    with Project(tmp_path) as project:
        for line in (1, 5):
            result = project.find_definition("Live", "pkg/status.py", line)
            assert (result.status, result.file, result.line) == ("found", "pkg/live.py", 1)
        edges = project.dependencies_of("pkg/status.py", "make").to_dict()["edges"]
        assert [(e["target"], e["kind"]) for e in edges] == [("pkg/live.py#Live", "CALLS")]
