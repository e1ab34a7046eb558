"""Saves taken in before the question (``Project.watch``): a background thread refreshes the index
and redoes the changed files' part of the graph, so the question that follows finds it done — and
a question that races the thread is never answered from before the change."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from jupyter_codetrace import Project

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"
CALLER = "from inventory.pricing import round_money\n\n\ndef {name}(amount):\n    return round_money(amount)\n"


@pytest.fixture
def project(tmp_path):
    shutil.copytree(DEMO, tmp_path / "demo")
    project = Project(tmp_path / "demo", cache_dir=tmp_path / "cache")
    if not project.watch():
        pytest.skip("no inotify here: changes are found by each question's walk instead")
    yield project
    project.close()


def _dependent_files(project) -> set[str]:
    result = project.dependents_of("inventory/pricing.py", "round_money")
    assert result.status == "found", result.message
    return {node.file for node in result.nodes}


def _wait_for_updates(project, count: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while project._ahead.updates < count:
        assert time.monotonic() < deadline, f"no update taken in after {seconds} s ({project._ahead.error})"
        time.sleep(0.02)


def _work_done_by(project, question):
    """What ``question`` did itself: the walks of the root, the graph updates that redid files."""
    index, graph = project._index, project._context._code_graph
    walks, redone = [], []
    fill_stats, update = index._fill_stats, graph._update
    index._fill_stats = lambda stats: (walks.append(1), fill_stats(stats))[1]
    graph._update = lambda *args, **kwargs: (redone.append(update(*args, **kwargs)), redone[-1])[1]
    try:
        answer = question()
    finally:
        index._fill_stats, graph._update = fill_stats, update
    return answer, walks, redone


def test_the_question_after_a_save_finds_the_work_done(project):
    root = Path(project.root)
    assert "inventory/audit.py" not in _dependent_files(project)   # the graph is built
    (root / "inventory" / "audit.py").write_text(CALLER.format(name="audit_total"))
    _wait_for_updates(project, 1)
    assert project._ahead.error is None
    files, walks, redone = _work_done_by(project, lambda: _dependent_files(project))
    assert "inventory/audit.py" in files
    assert walks == [] and redone == []   # neither the index nor the graph had anything left to do
    definition = project.find_definition("round_money", "inventory/audit.py", 5)
    assert (definition.file, definition.status) == ("inventory/pricing.py", "found")


def test_a_question_racing_the_thread_is_answered_from_after_the_change(project):
    root = Path(project.root)
    _dependent_files(project)
    for i in range(6):   # each question comes right after its save: sometimes before the thread
        (root / "inventory" / f"audit_{i}.py").write_text(CALLER.format(name=f"audit_{i}"))
        assert f"inventory/audit_{i}.py" in _dependent_files(project)
    (root / "inventory" / "audit_0.py").unlink()
    assert "inventory/audit_0.py" not in _dependent_files(project)


def test_files_no_language_reads_wake_nothing(project):
    """A notebook writing a log or a data file under the root costs no update (and no walk)."""
    root = Path(project.root)
    assert project._ahead.loaded.wait(30)
    for i in range(20):
        (root / "run.log").write_text(f"step {i}\n")
        (root / "inventory" / "prices.csv").write_text(f"sku,price\nA,{i}\n")
        time.sleep(0.01)
    time.sleep(0.5)
    assert project._ahead.updates == 0
    (root / "inventory" / "audit.py").write_text(CALLER.format(name="audit_total"))
    _wait_for_updates(project, 1)
    assert project.find_definition("audit_total").file == "inventory/audit.py"


def test_an_edit_that_only_moves_lines_moves_the_answers_ahead(project):
    pricing = Path(project.root) / "inventory" / "pricing.py"
    before = project.find_definition("round_money").line
    _dependent_files(project)
    pricing.write_text("# a comment\n# and another\n" + pricing.read_text())
    _wait_for_updates(project, 1)
    definition, walks, redone = _work_done_by(project, lambda: project.find_definition("round_money"))
    assert definition.line == before + 2 and walks == [] and redone == []


def test_close_stops_the_thread_and_a_second_watch_starts_none(project):
    thread = project._ahead
    assert project.watch() and project._ahead is thread and thread.running
    project.close()
    assert not thread.running


def test_without_watches_the_thread_waits_and_questions_walk(tmp_path):
    shutil.copytree(DEMO, tmp_path / "demo")
    project = Project(tmp_path / "demo", cache_dir=tmp_path / "cache")
    project._index._watcher.close()   # as on a machine without inotify (or out of watches)
    try:
        assert project.watch() is False
        pricing = Path(project.root) / "inventory" / "pricing.py"
        pricing.write_text(pricing.read_text() + "\n\ndef round_cents(value):\n    return round(value, 2)\n")
        time.sleep(0.3)
        assert project._ahead.updates == 0 and project._ahead.running
        assert project.find_definition("round_cents").file == "inventory/pricing.py"
    finally:
        project.close()


def test_a_restarted_project_reads_its_stored_graph_before_the_question(tmp_path):
    shutil.copytree(DEMO, tmp_path / "demo")
    first = Project(tmp_path / "demo", cache_dir=tmp_path / "cache")
    expected = _dependent_files(first)
    first.close()   # leaves the graph's snapshot
    restarted = Project(tmp_path / "demo", cache_dir=tmp_path / "cache")
    try:
        restarted.watch()
        assert restarted._ahead.loaded.wait(30) and restarted._ahead.error is None
        assert restarted._context._code_graph is not None
        files, walks, redone = _work_done_by(restarted, lambda: _dependent_files(restarted))
        assert files == expected and redone == []
    finally:
        restarted.close()


def test_without_a_stored_graph_nothing_is_built_ahead(project):
    assert project._ahead.loaded.wait(30)
    assert getattr(project._context, "_code_graph", None) is None   # a build waits for a question
    pricing = Path(project.root) / "inventory" / "pricing.py"
    pricing.write_text("# a comment\n" + pricing.read_text())
    _wait_for_updates(project, 1)
    assert getattr(project._context, "_code_graph", None) is None


def test_a_stored_graph_is_not_read_ahead_after_many_files_changed(tmp_path, monkeypatch):
    """Redoing many files holds every question meanwhile: that waits for a question that needs
    the graph. (Three files stand for many here.)"""
    from jupyter_codetrace.queries import ahead

    shutil.copytree(DEMO, tmp_path / "demo")
    first = Project(tmp_path / "demo", cache_dir=tmp_path / "cache")
    expected = _dependent_files(first)
    first.close()
    for name in ("orders", "stock", "audit"):
        (tmp_path / "demo" / "inventory" / f"new_{name}.py").write_text(f"def {name}():\n    return 1\n")
    monkeypatch.setattr(ahead, "CHILD_BUILD_FILES", 2)
    restarted = Project(tmp_path / "demo", cache_dir=tmp_path / "cache")
    try:
        restarted.watch()
        assert restarted._ahead.loaded.wait(30)
        assert getattr(restarted._context, "_code_graph", None) is None
        assert _dependent_files(restarted) == expected   # read by the question itself
    finally:
        restarted.close()


def test_a_project_for_another_interpreter_is_kept_up_to_date_too(project):
    """The server answers a notebook whose kernel runs another Python from ``for_python``'s
    project: its own resolutions and graph over the same index, taken in by the same thread."""
    other = project.for_python(sys.executable)
    assert "inventory/audit.py" not in _dependent_files(other)   # its graph is built
    (Path(project.root) / "inventory" / "audit.py").write_text(CALLER.format(name="audit_total"))
    _wait_for_updates(project, 1)
    files, walks, redone = _work_done_by(other, lambda: _dependent_files(other))
    assert "inventory/audit.py" in files and walks == [] and redone == []
