"""Overrides of one outside base's member are found together (TypeScript `class X extends
Error`: each project class's `name`), but Python's `object`, the base of every class, makes no
two classes related: `class Reader(object)` and `class Writer(object)` share nothing."""

from __future__ import annotations

import os
import time

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


def test_a_class_that_starts_extending_the_base_joins_the_family_after_the_edit(tmp_path):
    """The subclasses of a class are kept across queries and edits (queries/references.py
    _subclasses): a file that starts extending it is found at the next answer."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "base.py").write_text("class Job:\n    def run(self):\n        return 0\n", encoding="utf-8")
    (repo / "a.py").write_text("from base import Job\n\n\nclass Nightly(Job):\n    def run(self):\n        return 1\n",
                               encoding="utf-8")
    other = repo / "c.py"
    other.write_text("class Weekly:\n    def run(self):\n        return 2\n", encoding="utf-8")
    with Project(repo, cache_dir=tmp_path / "cache") as project:
        def family():
            found = project.find_references("run", "base.py", 2, include_declaration=True).to_dict()
            return sorted((r["file"], r["line"]) for r in found["references"])

        assert family() == [("a.py", 5), ("base.py", 2)]
        other.write_text("from base import Job\n\n\nclass Weekly(Job):\n    def run(self):\n        return 2\n",
                         encoding="utf-8")
        stamp = time.time() + 2
        os.utime(other, (stamp, stamp))
        assert family() == [("a.py", 5), ("base.py", 2), ("c.py", 5)]
