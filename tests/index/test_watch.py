"""Freshness through the inotify watcher: changes are seen on the very next query, and an
unchanged tree is not walked again."""

import os

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.index.watch import DirectoryWatcher


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_changes_in_new_and_empty_folders_are_seen(tmp_path):
    _write(tmp_path / "a.py", "def alpha():\n    return 1\n")
    (tmp_path / "assets").mkdir()                       # a folder with no source in it yet
    project = Project(tmp_path)
    assert project.index().files == 1
    _write(tmp_path / "assets" / "b.py", "def beta():\n    return 2\n")
    _write(tmp_path / "new" / "deeper" / "c.py", "def gamma():\n    return 3\n")
    assert project.symbols("beta").matches[0].file == "assets/b.py"
    assert project.symbols("gamma").matches[0].file == "new/deeper/c.py"
    os.remove(tmp_path / "assets" / "b.py")
    assert project.symbols("beta").status == "symbol_not_found"


def test_unchanged_tree_is_not_walked_again(tmp_path):
    _write(tmp_path / "a.py", "def alpha():\n    return 1\n")
    project = Project(tmp_path)
    project.index()
    if not project._index._watcher.active:
        pytest.skip("no inotify here: every query walks instead")
    project.find_definition("alpha", "a.py", 1)   # the one walk after the watches began
    walks = []
    original = project._index._fill_stats
    project._index._fill_stats = lambda stats: (walks.append(1), original(stats))
    project.find_definition("alpha", "a.py", 1)
    project.find_definition("alpha", "a.py", 1)
    assert walks == []
    (tmp_path / "a.py").write_text("\n\ndef alpha():\n    return 1\n")
    assert project.find_definition("alpha", "a.py", 3).line == 3
    assert walks == [1]
    project.close()   # the patched method is a cycle through the index: not freed when dropped


def test_watcher_reports_nothing_without_changes(tmp_path):
    watcher = DirectoryWatcher()
    if not watcher.active:
        pytest.skip("no inotify here")
    assert watcher.watch([str(tmp_path)])
    assert watcher.drain() == (False, False, frozenset())
    (tmp_path / "x.txt").write_text("x")
    assert watcher.drain() == (True, False, frozenset({str(tmp_path / "x.txt")}))
    (tmp_path / "sub").mkdir()
    assert watcher.drain() == (True, True, None)   # a folder: only a walk knows what is in it
    watcher.close()


def test_a_waiter_is_woken_by_what_matters_and_drain_still_sees_everything(tmp_path):
    watcher = DirectoryWatcher()
    if not watcher.active:
        pytest.skip("no inotify here")
    assert watcher.watch([str(tmp_path)])
    sources = lambda name: name.endswith(".py")   # noqa: E731
    assert watcher.wait(0.05, sources) is False
    (tmp_path / "run.log").write_text("a line")
    assert watcher.wait(1.0, sources) is False           # read, and it does not matter
    assert watcher.drain() == (True, False, frozenset({str(tmp_path / "run.log")}))   # yet a refresh is told
    assert watcher.drain() == (False, False, frozenset())
    (tmp_path / "run.log").write_text("another line")
    (tmp_path / "b.py").write_text("def beta():\n    return 2\n")
    assert watcher.wait(1.0, sources) is True
    assert watcher.wait(0.0, sources) is True             # held until drained
    assert watcher.drain() == (True, False, frozenset({str(tmp_path / "run.log"), str(tmp_path / "b.py")}))
    (tmp_path / "sub").mkdir()
    assert watcher.wait(1.0, sources) is True             # a folder always matters
    assert watcher.drain() == (True, True, None)
    watcher.close()
    assert watcher.wait(0.05, sources) is False and watcher.drain() == (True, True, None)


def test_a_file_written_between_the_walk_and_its_folders_watch_is_found(tmp_path):
    """The first index walks the tree, then starts watching its folders: a file written in
    between sends no event (a project still being written, a checkout), and was missed until some
    other change. The next query walks once more."""
    _write(tmp_path / "a.py", "def alpha():\n    return 1\n")
    project = Project(tmp_path)
    watcher = project._index._watcher
    if not watcher.active:
        pytest.skip("no inotify here")
    original = watcher.watch

    def watch_late(folders):
        _write(tmp_path / "late.py", "def omega():\n    return 2\n")   # after the walk
        return original(folders)

    watcher.watch = watch_late
    project.index()
    watcher.watch = original
    assert project.symbols("omega").matches[0].file == "late.py"
    project.close()   # the watcher holds its own bound method: a cycle, not freed when dropped


def test_a_waiter_is_woken_in_a_process_holding_more_than_1024_descriptors(tmp_path):
    """A long-lived server (kernels' sockets, open files) holds many descriptors: the watcher's
    own may be past select()'s limit, and must still wake its waiter."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1100:
        pytest.skip(f"at most {soft} descriptors per process here")
    held = []
    try:
        while not held or held[-1] < 1030:
            held.append(os.open(os.devnull, os.O_RDONLY))
        watcher = DirectoryWatcher()
        if not watcher.active:
            pytest.skip("no inotify here")
        assert watcher._fd > 1024
        assert watcher.watch([str(tmp_path)])
        (tmp_path / "b.py").write_text("def beta():\n    return 2\n")
        assert watcher.wait(1.0, lambda name: name.endswith(".py")) is True
        watcher.close()
    finally:
        for fd in held:
            os.close(fd)


def _event(wd: int, mask: int, cookie: int, name: str) -> bytes:
    """One inotify event as the kernel writes it (struct inotify_event, the name NUL-padded)."""
    import struct

    raw = name.encode() + b"\0" * (16 - len(name) % 16)
    return struct.pack("iIII", wd, mask, cookie, len(raw)) + raw


def test_a_rename_read_between_its_two_events_asks_for_a_walk(tmp_path):
    """The kernel queues a rename's MOVED_FROM and MOVED_TO one after the other: a refresh that
    reads between them knows the old name gone and not the new one, and only a walk lists it (a
    function renamed with its file was briefly in no indexed file: a stale "not found")."""
    watcher = DirectoryWatcher()
    if not watcher.active:
        pytest.skip("no inotify here")
    moved_from, moved_to, modified = 0x040, 0x080, 0x002
    queue, feed = os.pipe()
    os.set_blocking(queue, False)
    real = watcher._fd
    watcher._fd = queue   # the events below stand for the kernel's queue
    watcher._folder_of[7] = str(tmp_path)
    try:
        os.write(feed, _event(7, moved_from, 41, "m_r1.py"))
        changed, _folders, paths = watcher.drain()
        assert changed and paths is None                      # the new name unknown: walk
        os.write(feed, _event(7, moved_to, 41, "m_r2.py"))   # the second half, read next time
        assert watcher.drain()[2] == {str(tmp_path / "m_r2.py")}
        os.write(feed, _event(7, moved_from, 42, "a.py") + _event(7, moved_to, 42, "b.py")
                 + _event(7, modified, 0, "c.py"))
        assert watcher.drain()[2] == {str(tmp_path / n) for n in ("a.py", "b.py", "c.py")}   # both halves
    finally:
        watcher._fd = real
        os.close(queue)
        os.close(feed)
        watcher.close()
