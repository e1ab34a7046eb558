"""A graph built from nothing is built in a forked child that stores it and exits (graph/build.py
``_built_in_child``): the process that goes on answering reads it as a restarted process would.
The answers are those of a build in the process itself; a child that fails, crashes or is
interrupted costs time, never an answer; stores and locks inherited across the fork are not used
by the child."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.graph import build, persist

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child is forked on Linux only")


@pytest.fixture
def root(copy_fixture):
    return copy_fixture("graph_py")


def _graph(project: Project):
    g = project.call_graph()
    edges = sorted((e.source, e.target, e.kind, e.line, e.resolution) for e in g.edges)
    nodes = sorted((n.id, n.qualified_name, n.kind, n.line, tuple(n.external_calls)) for n in g.nodes)
    return edges, nodes


def _in_process(root: Path, tmp_path: Path, name: str):
    """The graph built in this process (no child), from a cache of its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "CHILD_BUILD_FILES", 10**9)
        with Project(root, cache_dir=tmp_path / name) as project:
            graph = _graph(project)
            assert project._context._code_graph.last_rebuilt == len(project._context.index.files())
            return graph


def _interrupted_while_building(project: Project) -> None:
    """The graph's first question interrupted after a second (Ctrl-C, a kernel's interrupt):
    the interrupt is raised, within 30 s."""
    timer = threading.Timer(1.0, lambda: signal.pthread_kill(threading.main_thread().ident, signal.SIGINT))
    project.index()
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        project.call_graph()
    assert time.monotonic() - started < 30


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True   # reaped: no zombie left behind
    return False


def test_the_child_builds_and_this_process_reads_what_it_stored(root, tmp_path, graph_forks, monkeypatch):
    with Project(root, cache_dir=tmp_path / "cache") as project:
        built = _graph(project)
        graph = project._context._code_graph
        assert len(graph_forks) == 1 and _gone(graph_forks[0])
        # nothing was resolved here: the whole graph is the snapshot's arrays, no part decoded
        assert graph.last_in_child and graph.last_rebuilt == len(project._context.index.files())
        assert graph.graph._base is not None and all(fg.edges == [] for fg in graph.files.values())
        assert built == _in_process(root, tmp_path, "in-process")
        assert project.dependents_of("shop/pricing.py", "round_price").found
        # an edit that redoes many files (here: more than none) is redone in a child too
        pricing = root / "shop" / "pricing.py"
        pricing.write_text(pricing.read_text(encoding="utf-8") + "\n\ndef audit(order):\n    return round_price(order)\n",
                           encoding="utf-8")
        project.index()
        after = _graph(project)
        assert len(graph_forks) == 2 and _gone(graph_forks[1]) and graph.last_in_child
        assert 0 < graph.last_rebuilt < len(project._context.index.files())
        assert any(e[0] == "shop/pricing.py#audit" and e[1] == "shop/pricing.py#round_price" for e in after[0])
        assert after == _in_process(root, tmp_path, "in-process-after")
        # one that redoes a few is redone here
        monkeypatch.setattr(build, "CHILD_BUILD_FILES", 100)
        (root / "shop" / "chain.py").unlink()
        project.index()
        gone = _graph(project)
        assert len(graph_forks) == 2 and not graph.last_in_child and graph.last_rebuilt > 0
    assert gone != after and gone == _in_process(root, tmp_path, "in-process-gone")


def test_a_graph_from_nothing_is_shared_among_children_one_per_worker(root, tmp_path, graph_forks, monkeypatch):
    """Each share's child stores its files' parts, one more reads them all and writes the snapshot:
    the same graph as one process builds, and as the next process reads."""
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    parent, made_in = os.getpid(), {}
    file_graph = build.CodeGraph._file_graph

    def recorded(self, resolver, path):
        if os.getpid() != parent:   # (what a child makes reaches this process only through the store)
            (tmp_path / "made").mkdir(exist_ok=True)
            (tmp_path / "made" / f"{os.getpid()}-{path.replace('/', '_')}").touch()
        return file_graph(self, resolver, path)

    monkeypatch.setattr(build.CodeGraph, "_file_graph", recorded)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        built = _graph(project)
        files = len(project._context.index.files())
        graph = project._context._code_graph
        assert len(graph_forks) == 3 and all(_gone(pid) for pid in graph_forks)
        assert graph.last_in_child and graph.last_rebuilt == files
        assert graph.graph._base is not None
    for made in (tmp_path / "made").iterdir():
        pid = int(made.name.split("-", 1)[0])
        made_in.setdefault(pid, []).append(made)
    # each file was made once, by one of the two share children, and each made some
    assert set(made_in) == set(graph_forks[:2]) and sum(map(len, made_in.values())) == files
    assert built == _in_process(root, tmp_path, "in-process")
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as again:
        assert _graph(again) == built and again._context._code_graph.last_rebuilt == 0
    assert len(graph_forks) == 3


def test_a_graph_is_shared_among_as_many_children_as_memory_holds(root, tmp_path, graph_forks, monkeypatch):
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    # each child would need more than the memory available now: the build is one child's
    monkeypatch.setattr(build, "_CHILD_BYTES_PER_LINE", 10**12)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        built = _graph(project)
        assert len(graph_forks) == 1 and project._context._code_graph.last_in_child
    assert built == _in_process(root, tmp_path, "in-process")
    assert build._children_that_fit(10**9) == 1
    monkeypatch.setattr(build, "_CHILD_BYTES_PER_LINE", 1)
    assert build._children_that_fit(1000) >= build.MAX_SHARES


def test_a_containers_memory_bound_is_the_memory_available(tmp_path, monkeypatch):
    """In a container /proc/meminfo tells the host's memory; the cgroup's bound less its use is
    what the children may take (v2 files, else v1's; "max" or v1's huge number: no bound)."""
    host = build._available_memory()
    assert host is not None and host > 0
    bound, used = tmp_path / "memory.max", tmp_path / "memory.current"
    monkeypatch.setattr(build, "_CGROUP_FILES", ((str(bound), str(used)),))
    bound.write_text("3000000000\n")
    used.write_text("1000000000\n")
    assert build._available_memory() == min(host, 2_000_000_000)
    bound.write_text("max\n")
    assert abs(build._available_memory() - host) < 200_000_000   # (the host's figure, read again)
    bound.write_text(f"{(1 << 63) - 4096}\n")   # cgroup v1's "no bound"
    assert abs(build._available_memory() - host) < 200_000_000
    bound.write_text("1000000\n")   # a bound already used up: one child, as before
    assert build._available_memory() == 0 and build._children_that_fit(10) == 1


def _in_order(project: Project):
    """The graph's edges and a question's answer as they are listed (not sorted)."""
    edges = [(e.source, e.target, e.kind, e.line) for e in project.call_graph().edges]
    return edges, project.dependents_of("shop/pricing.py", "round_price").to_dict()


def test_a_graph_shared_among_children_lists_what_one_build_lists_in_its_order(root, tmp_path, graph_forks,
                                                                              monkeypatch):
    """Children write their parts side by side, in no set order; the graph read from them lists
    each node's neighbours as one build does (callers, call trees and paths in the same order)."""
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    store_parts = build.CodeGraph._store_parts

    def first_share_last(self, resolver, share, redo, current, *more):
        if share[0] == min(redo):
            time.sleep(1.0)   # the other share's parts are written first
        return store_parts(self, resolver, share, redo, current, *more)

    monkeypatch.setattr(build.CodeGraph, "_store_parts", first_share_last)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        shared = _in_order(project)
        assert len(graph_forks) == 3
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "CHILD_BUILD_FILES", 10**9)
        with Project(root, cache_dir=tmp_path / "in-process") as here:
            assert shared == _in_order(here)


def _built_in_process(root, cache):
    """``_as_walks_see_it`` of the graph built in this process, with no child."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "CHILD_BUILD_FILES", 10**9)
        with Project(root, cache_dir=cache) as project:
            project.call_graph()
            return _as_walks_see_it(project)


def _as_walks_see_it(project: Project):
    """The graph as a query reads it: its nodes in order, and each node's attributes (in order)
    and out- and in-edges (keys and data) in the order walks list them; each file's nodes and
    edge keys; and the rows of the snapshot it was read from or wrote."""
    code_graph = project._context._code_graph
    graph = code_graph.graph
    nodes = [(node, list(graph.nodes[node].items()), list(graph.out_edges(node, keys=True, data=True)),
              list(graph.in_edges(node, keys=True, data=True))) for node in graph.nodes]
    files = [(path, code_graph.file_nodes(path), tuple(code_graph._keys[path])) for path in code_graph.files]
    (digests, rows, implicit, node_names), _data = code_graph.store.load_snapshot()
    return nodes, files, (digests, rows, implicit, build._decoded_counts(node_names))


def _parts_read_in_a_child(monkeypatch, folder: Path) -> Path:
    """Each child that reads the stored parts (the snapshot made of them, not merged) leaves a file in ``folder``."""
    parent, load = os.getpid(), persist.GraphStore.load

    def recorded(self, cls):
        if os.getpid() != parent:
            folder.mkdir(exist_ok=True)
            (folder / str(os.getpid())).touch()
        return load(self, cls)

    monkeypatch.setattr(persist.GraphStore, "load", recorded)
    return folder


@pytest.mark.parametrize("fixture", ["graph_py", "graph_ts"])
def test_the_shares_snapshots_merge_into_the_graph_one_process_builds(copy_fixture, tmp_path, graph_forks,
                                                                       monkeypatch, fixture):
    """Each share's child writes the snapshot of its files' graph; the last child merges them
    (compact.py ``merge_snapshots``) instead of reading every part: what is read then is what a
    build in one process makes and keeps, node by node and edge by edge, in order."""
    root = copy_fixture(fixture)
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    read = _parts_read_in_a_child(monkeypatch, tmp_path / "read")
    merge, merged = build.merge_snapshots, tmp_path / "merged"

    def recorded(snapshots):
        found = merge(snapshots)
        # (what the merge had to join: nodes in two shares, nodes with callers in two shares)
        in_two = [node for node, shares in Counter(n for data in snapshots for n in data[1]).items() if shares > 1]
        merged.write_text(f"{len(snapshots)} {len(in_two)} {found is not None}")
        return found

    monkeypatch.setattr(build, "merge_snapshots", recorded)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        project.call_graph()
        shared = _as_walks_see_it(project)
        assert len(graph_forks) == 3 and project._context._code_graph.last_in_child
    shares, in_two, done = merged.read_text().split()
    assert shares == "2" and int(in_two) > 0 and done == "True"
    assert not read.exists()   # no child read the parts: the snapshot is the merged one
    assert not list((tmp_path / "cache").rglob("*.tmp"))   # the shares' snapshots are gone
    assert shared == _built_in_process(root, tmp_path / "in-process")
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as again:   # as a restart reads it
        again.call_graph()
        assert _as_walks_see_it(again) == shared and again._context._code_graph.last_rebuilt == 0


def test_shares_whose_snapshots_do_not_merge_leave_it_to_the_parts(root, tmp_path, graph_forks, monkeypatch):
    """A share's snapshot that could not be written (or does not merge): the last child reads
    every part, as before; the same graph."""
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    read = _parts_read_in_a_child(monkeypatch, tmp_path / "read")
    save = persist.GraphStore.save_snapshot
    monkeypatch.setattr(persist.GraphStore, "save_snapshot",
                        lambda self, data, path=None: False if path is not None and path.name.endswith("share0.tmp")
                        else save(self, data, path))
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        project.call_graph()
        shared = _as_walks_see_it(project)
        assert len(graph_forks) == 3 and project._context._code_graph.last_in_child
    assert len(list(read.iterdir())) == 1   # the last child's
    monkeypatch.setattr(persist.GraphStore, "save_snapshot", save)
    monkeypatch.setattr(build, "merge_snapshots", lambda snapshots: None)
    with Project(root, cache_dir=tmp_path / "no-merge", workers=2) as project:
        project.call_graph()
        assert _as_walks_see_it(project) == shared
    assert len(list(read.iterdir())) == 2
    assert shared == _built_in_process(root, tmp_path / "in-process")


def test_shares_of_a_language_of_implicit_interfaces_are_not_merged(copy_fixture, tmp_path, graph_forks, monkeypatch):
    """Go: a type implements the interfaces whose methods it has, found over every file at once
    (build.py ``_implicit_interfaces``): the last child reads every part and finds them."""
    root = copy_fixture("go_app")
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    read = _parts_read_in_a_child(monkeypatch, tmp_path / "read")
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        project.call_graph()
        shared = _as_walks_see_it(project)
        assert len(graph_forks) == 3 and len(list(read.iterdir())) == 1
        assert any(data["kind"] == "IMPLEMENTS" for _n, _a, out, _in in shared[0] for *_edge, data in out)
    assert shared == _built_in_process(root, tmp_path / "in-process")


def test_a_share_that_fails_leaves_the_build_to_one_child(root, tmp_path, graph_forks, monkeypatch):
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    store_parts = build.CodeGraph._store_parts

    def failing(self, resolver, share, redo, current, *more):
        if share[0] == min(redo):
            os.kill(os.getpid(), signal.SIGKILL)
        return store_parts(self, resolver, share, redo, current, *more)

    monkeypatch.setattr(build.CodeGraph, "_store_parts", failing)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        built = _graph(project)
        # two shares (one killed), then the build of every file in one child
        assert len(graph_forks) == 3 and all(_gone(pid) for pid in graph_forks)
        assert project._context._code_graph.last_in_child
    assert built == _in_process(root, tmp_path, "in-process")


def test_shares_whose_snapshot_cannot_be_written_leave_their_parts_to_this_process(root, tmp_path, graph_forks,
                                                                                   monkeypatch):
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    monkeypatch.setattr(persist.GraphStore, "save_snapshot", lambda self, *args: False)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        built = _graph(project)
        graph = project._context._code_graph
        # two shares, the snapshot's child (failed), and no build again: the parts are read here
        assert len(graph_forks) == 3 and all(_gone(pid) for pid in graph_forks)
        assert graph.last_in_child and graph._snapshot_due   # (to be written again at the end)
    assert built == _in_process(root, tmp_path, "in-process")


def test_a_share_whose_parts_cannot_be_stored_leaves_the_build_to_one_child(root, tmp_path, graph_forks, monkeypatch):
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    sharing = {"now": False}
    store_parts, save = build.CodeGraph._store_parts, persist.GraphStore.save

    def in_a_share(self, *args):
        sharing["now"] = True   # (in this child only: the parent never runs a share)
        return store_parts(self, *args)

    monkeypatch.setattr(build.CodeGraph, "_store_parts", in_a_share)
    monkeypatch.setattr(persist.GraphStore, "save", lambda self, *a, **k: False if sharing["now"] else save(self, *a, **k))
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        built = _graph(project)
        # two shares (both failed), then every file built in one child, whose snapshot is read
        assert len(graph_forks) == 3 and all(_gone(pid) for pid in graph_forks)
        assert project._context._code_graph.graph._base is not None
    assert built == _in_process(root, tmp_path, "in-process")


def test_an_interrupt_while_children_share_a_build_stops_them_all_and_is_raised(root, tmp_path, graph_forks,
                                                                                monkeypatch):
    monkeypatch.setattr(build, "SHARE_FILES", 2)
    parent = os.getpid()
    store_parts = build.CodeGraph._store_parts

    def slow(self, resolver, share, redo, current, *more):
        if os.getpid() != parent:
            time.sleep(60)
        return store_parts(self, resolver, share, redo, current, *more)

    monkeypatch.setattr(build.CodeGraph, "_store_parts", slow)
    with Project(root, cache_dir=tmp_path / "cache", workers=2) as project:
        _interrupted_while_building(project)
        assert len(graph_forks) == 2 and all(_gone(pid) for pid in graph_forks)
        monkeypatch.setattr(build.CodeGraph, "_store_parts", store_parts)
        assert _graph(project) == _in_process(root, tmp_path, "in-process")   # asked again: answered


def test_shares_are_runs_of_about_equal_work():
    class Summary:
        def __init__(self, n):
            self.definitions, self.references = n, n

    paths = [f"f{n:03d}.py" for n in range(600)]
    weights = {p: Summary(100 if n < 100 else 1) for n, p in enumerate(paths)}
    shares = build._shares(paths, weights, 2)
    assert [p for share in shares for p in share] == paths and len(shares) == 2
    assert len(shares[0]) < 100 < len(shares[1])   # the heavy first hundred are shared out
    assert build._shares(paths, weights, 1) == [paths]
    assert len(build._shares(paths, weights, 8)) == 3   # SHARE_FILES each at least
    assert len(build._shares(paths * 4, {}, 16)) == build.MAX_SHARES
    assert build._shares(paths[:300], weights, 2) == [paths[:300]]


def test_a_child_that_cannot_store_the_graph_leaves_the_build_to_this_process(root, tmp_path, graph_forks, monkeypatch):
    monkeypatch.setattr(persist.GraphStore, "save_snapshot", lambda self, *args: False)
    with Project(root, cache_dir=tmp_path / "cache") as project:
        built = _graph(project)   # from the parts the child stored (its snapshot could not be)
        assert len(graph_forks) == 1 and _gone(graph_forks[0])
    assert built == _in_process(root, tmp_path, "in-process")


def test_a_child_killed_mid_build_costs_time_not_answers(root, tmp_path, graph_forks, monkeypatch):
    parent = os.getpid()
    file_graph = build.CodeGraph._file_graph

    def dying(self, resolver, path):
        if os.getpid() != parent and path.startswith("shop/"):
            os.kill(os.getpid(), signal.SIGKILL)   # as the out-of-memory killer would
        return file_graph(self, resolver, path)

    monkeypatch.setattr(build.CodeGraph, "_file_graph", dying)
    with Project(root, cache_dir=tmp_path / "cache") as project:
        built = _graph(project)
        assert len(graph_forks) == 1 and _gone(graph_forks[0])
        assert project._context._code_graph.last_rebuilt == len(project._context.index.files())
    assert built == _in_process(root, tmp_path, "in-process")


def test_an_interrupt_while_the_child_builds_stops_it_and_is_raised(root, tmp_path, graph_forks, monkeypatch):
    parent = os.getpid()
    file_graph = build.CodeGraph._file_graph

    def slow(self, resolver, path):
        if os.getpid() != parent:
            time.sleep(60)
        return file_graph(self, resolver, path)

    monkeypatch.setattr(build.CodeGraph, "_file_graph", slow)
    with Project(root, cache_dir=tmp_path / "cache") as project:
        _interrupted_while_building(project)
        assert len(graph_forks) == 1 and _gone(graph_forks[0])
        monkeypatch.setattr(build.CodeGraph, "_file_graph", file_graph)
        assert _graph(project) == _in_process(root, tmp_path, "in-process")   # asked again: answered


def test_a_child_stuck_on_a_lock_held_at_the_fork_is_killed_and_the_build_done_here(root, tmp_path, graph_forks,
                                                                                   monkeypatch):
    """A fork copies only the forking thread: a lock another thread held at that instant (an import
    under way, a database call — a Jupyter server has many threads) is held in the child for good."""
    parent = os.getpid()
    lock = threading.Lock()
    file_graph = build.CodeGraph._file_graph

    def needing_the_lock(self, resolver, path):
        if os.getpid() != parent:
            with lock:   # in the child: never released
                pass
        return file_graph(self, resolver, path)

    monkeypatch.setattr(build.CodeGraph, "_file_graph", needing_the_lock)
    monkeypatch.setattr(build, "CHILD_STALL_SECONDS", 1.0)
    with _held_by_another_thread(lock), Project(root, cache_dir=tmp_path / "cache") as project:
        project.index()
        started = time.monotonic()
        built = _graph(project)
        assert time.monotonic() - started < 20
        assert len(graph_forks) == 1 and _gone(graph_forks[0])
        assert not project._context._code_graph.last_in_child
        assert project._context._code_graph.last_rebuilt == len(project._context.index.files())
    assert built == _in_process(root, tmp_path, "in-process")


@contextlib.contextmanager
def _held_by_another_thread(lock):
    held, release = threading.Event(), threading.Event()

    def holder():
        with lock:
            held.set()
            release.wait(30)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(10)
    try:
        yield
    finally:
        release.set()
        thread.join()


def _in_a_child(check) -> bool:
    """Whether ``check()`` is true in a forked child, within 30 s (a child that hangs is killed)."""
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            status = 0 if check() else 1
        finally:
            os._exit(status)
    deadline = time.monotonic() + 30
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False
    return os.waitstatus_to_exitcode(done[1]) == 0


def test_a_store_lock_held_by_another_thread_at_the_fork_does_not_stall_the_child(tmp_path):
    store = persist.GraphStore(tmp_path / "graph.sqlite", "v1")
    assert store.save_snapshot(("before",))
    with _held_by_another_thread(store._lock):
        # the child reads and writes the store through a connection of its own
        assert _in_a_child(lambda: store.load_snapshot() == ("before",) and store.save_snapshot(("child",)))
    assert store.load_snapshot() == ("child",)   # this process's own connection sees the child's write
    rows = sqlite3.connect(tmp_path / "graph.sqlite").execute("PRAGMA integrity_check").fetchone()
    assert rows == ("ok",)


def test_a_libraries_lock_held_by_another_thread_at_the_fork_does_not_stall_the_child(tmp_path):
    from jupyter_codetrace.index.libraries import Libraries
    from jupyter_codetrace.workspace import Workspace

    libraries = Libraries(Workspace(tmp_path))
    with _held_by_another_thread(libraries._lock):
        assert _in_a_child(lambda: libraries.python_roots())


def _chain_repository(root: Path, modules: int) -> None:
    """``modules`` files, each function calling the one of the file before, and a class
    hierarchy across them: a repository over the size whose graph is built in a child."""
    for n in range(modules):
        lines = ["from pkg.base import Shape\n"]
        if n:
            lines.append(f"from pkg.m{n - 1:03d} import step_{n - 1:03d}\n")
        call = f"step_{n - 1:03d}(x) + 1" if n else "x"
        lines += [f"\n\ndef step_{n:03d}(x):\n    return {call}\n",
                  f"\n\nclass Shape{n:03d}(Shape):\n    def area(self):\n        return step_{n:03d}({n})\n"]
        (root / "pkg" / f"m{n:03d}.py").write_text("".join(lines), encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "base.py").write_text("class Shape:\n    def area(self):\n        return 0\n", encoding="utf-8")


def test_the_command_line_on_a_repository_built_in_a_child(tmp_path):
    """The README's `codetrace dependents` on a repository larger than CHILD_BUILD_FILES: the
    command's process graph_forks the build (no setting changed), and answers as a build here does,
    and again from what it stored."""
    import json
    import subprocess

    root = tmp_path / "chain"
    (root / "pkg").mkdir(parents=True)
    _chain_repository(root, 320)
    assert len(list(root.rglob("*.py"))) > build.CHILD_BUILD_FILES
    env = {**os.environ, "CODETRACE_CACHE_DIR": str(tmp_path / "cli-cache"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2]) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    argv = [sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(root), "--json",
            "dependents", "pkg/m000.py", "step_000"]
    answers = []
    for _ in range(2):   # built (in a child), then read back by a new process
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        answers.append(json.loads(done.stdout))
    assert answers[0] == answers[1]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "CHILD_BUILD_FILES", 10**9)
        with Project(root, cache_dir=tmp_path / "in-process") as here:
            expected = here.dependents_of("pkg/m000.py", "step_000").to_dict()
            assert not here._context._code_graph.last_in_child
    assert answers[0] == json.loads(json.dumps(expected))
    callers = {node["qualified_name"] for node in answers[0]["nodes"]}
    assert {"pkg.m001.step_001", "pkg.m002.step_002", "pkg.m000.Shape000.area"} <= callers
