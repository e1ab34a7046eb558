"""Overrides of one outside base's member are found together (TypeScript `class X extends
Error`: each project class's `name`), but Python's `object`, the base of every class, makes no
two classes related: `class Reader(object)` and `class Writer(object)` share nothing."""

from __future__ import annotations

from jupyter_codetrace import Project

_SOURCE = '''class Reader(object):
    def close(self):
        return 1


class Writer(object):
    def close(self):
        return 2


def finish():
    Writer().close()
    return Reader().close()
'''


def test_classes_deriving_object_are_not_one_family(tmp_path):
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "streams.py").write_text(_SOURCE, encoding="utf-8")
    with Project(tmp_path / "repo", cache_dir=tmp_path / "cache") as project:
        found = project.find_references("close", "streams.py", 2, include_declaration=True).to_dict()
        assert [(r["file"], r["line"]) for r in found["references"]] == [("streams.py", 2), ("streams.py", 13)]
        found = project.find_references("close", "streams.py", 7, include_declaration=True).to_dict()
        assert [(r["file"], r["line"]) for r in found["references"]] == [("streams.py", 7), ("streams.py", 12)]
