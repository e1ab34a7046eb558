"""Unsaved buffers: Project.set_overlay / clear_overlay answer from the editor's text, on real
files with real parsing, and never write the file or the persisted index."""

from __future__ import annotations

import sqlite3

import pytest

from jupyter_codetrace import Project

ADDED = '''

def added_helper(x):
    """Only in the editor."""
    return x * 2
'''


def defines(project: Project, name: str) -> list[str]:
    """The files where the symbol search finds a definition named exactly ``name``."""
    return [m.file for m in project.symbols(name).matches if m.name == name]


@pytest.fixture
def repo(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    project = Project(root, cache_dir=tmp_path / "cache")
    project.index()
    yield root, project
    project.close()


def test_overlay_answers_from_the_buffer_not_the_disk(repo):
    root, project = repo
    main = root / "main.py"
    on_disk = main.read_text()
    mtime = main.stat().st_mtime_ns
    buffer = on_disk.replace("    return label\n", "    return added_helper(label)\n") + ADDED
    assert project.set_overlay("main.py", buffer) is True

    line = buffer.splitlines().index("    return added_helper(label)") + 1
    found = project.find_definition("added_helper", "main.py", line)
    assert found.status == "found"
    assert (found.file, found.line, found.kind, found.doc) == (
        "main.py", buffer.splitlines().index("def added_helper(x):") + 1, "function", "Only in the editor.")
    refs = project.find_references("added_helper", "main.py", line)
    assert [(r.file, r.line, r.usage) for r in refs.references] == [("main.py", line, "call")]
    outline = [s.name for s in project.document_symbols("main.py").symbols]
    assert outline == ["main", "added_helper"]
    assert defines(project, "added_helper") == ["main.py"]
    # the file on disk is untouched
    assert main.read_text() == on_disk and main.stat().st_mtime_ns == mtime


def test_overlay_is_never_persisted(repo, tmp_path):
    root, project = repo
    project.set_overlay("main.py", (root / "main.py").read_text() + ADDED)
    project.index()
    assert defines(project, "added_helper")
    # a new process over the same cache sees only the disk
    with Project(root, cache_dir=tmp_path / "cache") as fresh:
        assert not defines(fresh, "added_helper")
        assert fresh.index().parsed == 0   # the cached rows are the disk's, still valid
    blobs = []
    for store in (tmp_path / "cache").rglob("*.sqlite"):
        with sqlite3.connect(store) as db:
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
                blobs += [str(row) for row in db.execute(f"SELECT * FROM {table}")]
    assert not any("added_helper" in b for b in blobs)


def test_clearing_goes_back_to_the_disk(repo):
    root, project = repo
    project.set_overlay("main.py", (root / "main.py").read_text() + ADDED)
    assert defines(project, "added_helper")
    project.clear_overlay("main.py")
    assert not defines(project, "added_helper")
    assert [s.name for s in project.document_symbols("main.py").symbols] == ["main"]
    assert project.find_definition("place_order", "main.py", 11).file == "shop/orders.py"


def test_a_new_unsaved_file_is_indexed_until_cleared(repo):
    root, project = repo
    text = "from shop.orders import place_order\n\n\ndef checkout(items):\n    return place_order(items)\n"
    assert project.set_overlay("shop/unsaved_checkout.py", text)
    assert not (root / "shop" / "unsaved_checkout.py").exists()
    found = project.find_definition("place_order", "shop/unsaved_checkout.py", 5)
    assert (found.status, found.file) == ("found", "shop/orders.py")
    refs = project.find_references("place_order", "shop/orders.py", found.line)
    assert ("shop/unsaved_checkout.py", 5) in {(r.file, r.line) for r in refs.references}
    assert project.index().files == len([p for p in project._index.files()])
    assert "shop/unsaved_checkout.py" in project._index.files()
    project.clear_overlay("shop/unsaved_checkout.py")
    assert "shop/unsaved_checkout.py" not in project._index.files()
    refs = project.find_references("place_order", "shop/orders.py", found.line)
    assert "shop/unsaved_checkout.py" not in {r.file for r in refs.references}


def test_each_edit_is_a_new_generation_and_disk_changes_under_an_overlay_are_ignored(repo):
    root, project = repo
    main = root / "main.py"
    project.set_overlay("main.py", main.read_text() + "\n\ndef first(): pass\n")
    assert defines(project, "first")
    project.set_overlay("main.py", main.read_text() + "\n\ndef second(): pass\n")
    assert defines(project, "second")
    assert not defines(project, "first")
    # a save from elsewhere while the buffer is open: the buffer still wins
    main.write_text(main.read_text() + "\n\ndef on_disk_only(): pass\n")
    assert not defines(project, "on_disk_only")
    project.clear_overlay("main.py")
    assert defines(project, "on_disk_only")
    assert not defines(project, "second")


def test_overlays_that_would_not_be_indexed_are_refused(repo):
    root, project = repo
    assert project.set_overlay("notes.txt", "def nothing(): pass\n") is False
    assert project.set_overlay(".venv/lib/mod.py", "def nothing(): pass\n") is False
    assert not defines(project, "nothing")
    # a buffer whose extension names no language, with the editor's language id
    assert project.set_overlay("scratch.ipynb.py", "def scratch(): pass\n") is True
    assert project.set_overlay("scratch_cell", "def from_cell(): pass\n", language="python") is True
    assert defines(project, "from_cell") == ["scratch_cell"]
    assert project.set_overlay("data.json", "{}", language="json") is False
    # a notebook's virtual document (jupyter-lsp): its cells' code under the notebook's name
    assert project.set_overlay(".virtual_documents/nb.ipynb", "def in_cell(): pass\n", language="python")
    assert defines(project, "in_cell") == [".virtual_documents/nb.ipynb"]


def test_an_unsaved_new_file_named_like_a_library_file_is_the_projects(tmp_path):
    """`types.py` exists in the standard library; a new unsaved `types.py` of the project is asked
    about by that name: the editor's buffer answers, not the library's file."""
    from jupyter_codetrace import Project

    (tmp_path / "main.py").write_text("x = 1\n", encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        project.set_overlay("types.py", "def mine():\n    return 1\n\nmine()\n")
        found = project.find_definition("mine", "types.py", 4)
        assert (found.status, found.file, found.line, found.library) == ("found", "types.py", 1, None)
