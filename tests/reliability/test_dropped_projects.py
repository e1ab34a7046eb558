"""Projects dropped without ``close()``: a notebook (or a test suite) makes them in a loop.

Each ``Index`` holds an inotify instance, and a user has 128 of them by default
(``/proc/sys/fs/inotify/max_user_instances``): once they were all held by dropped projects, no new
project was watched — every query walked its tree, and tests needing inotify skipped silently.
A dropped project gives its instance back when it is freed, and it is freed at once: a reference
cycle through it was never collected in a process where a large build had called ``gc.freeze()``
(``freeze_long_lived``), and held its instance and SQLite files until the process ended.
"""

from __future__ import annotations

import gc
import os
import weakref

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index.watch import DirectoryWatcher


def _inotify_instances() -> int:
    held = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            held += "inotify" in os.readlink(f"/proc/self/fd/{fd}")
        except OSError:   # the listing's own descriptor, closed meanwhile
            pass
    return held


def test_projects_dropped_without_close_give_their_inotify_instance_back(tmp_path):
    probe = DirectoryWatcher()   # before the loop: past it, an inactive watcher would be the bug
    if not probe.active:
        pytest.skip("no inotify here")
    probe.close()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("def alpha():\n    return 1\n")
    held = _inotify_instances()
    for _ in range(200):   # more than the default limit of 128 instances
        Project(tmp_path / "src", cache_dir=tmp_path / "cache").index()
    gc.collect()
    assert _inotify_instances() <= held   # none kept (an earlier test's may be freed meanwhile)
    with Project(tmp_path / "src", cache_dir=tmp_path / "cache") as project:
        project.index()
        assert project._index.watching


def test_a_dropped_project_that_built_its_graph_is_freed_at_once(copy_fixture):
    root = copy_fixture("python_app")
    with Project(root) as project:
        project.call_graph()   # the next project loads its summaries and graph from the store
    project = Project(root)
    project.call_graph()
    index = weakref.ref(project._index)
    del project
    assert index() is None   # by its reference count: no cycle a gc.freeze() would keep forever


def test_a_closed_project_lets_go_of_its_files(copy_fixture, tmp_path):
    root = copy_fixture("python_app")
    project = Project(root, cache_dir=tmp_path / "cache")
    project.call_graph()   # the index, library facts and graph stores are opened
    project.find_references("Client", "app/main.py", 3)
    project.close()
    opened = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            opened.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    assert [path for path in opened if path.startswith(str(tmp_path))] == []
