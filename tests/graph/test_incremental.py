"""The graph follows the files: an edit redoes the edited file and the files whose answers
read it, nothing else; new, deleted and renamed definitions show up in the next answer."""

from __future__ import annotations

import os
import time

from jupyter_codetrace import Project


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    stamp = time.time() + 2  # a new mtime even on coarse-clock filesystems
    os.utime(path, (stamp, stamp))


def _edges(project, file, symbol, query="dependents_of"):
    result = getattr(project, query)(file, symbol).to_dict()
    return sorted((e["source"], e["target"], e["kind"]) for e in result["edges"])


def _rebuilt(project) -> int:
    return project._context._code_graph.last_rebuilt


def test_an_edit_redoes_only_the_file_and_its_readers(copy_fixture):
    root = copy_fixture("graph_py")
    with Project(root) as project:
        project.call_graph()
        total_files = len(project._context._code_graph.files)
        assert ("shop/pricing.py#apply_tax", "shop/pricing.py#round_price", "CALLS") in \
            _edges(project, "shop/pricing.py", "round_price")
        pricing = root / "shop/pricing.py"
        _write(pricing, pricing.read_text().replace("return round_price(amount * 1.2)", "return amount * 1.2"))
        edges = _edges(project, "shop/pricing.py", "round_price")
        assert ("shop/pricing.py#apply_tax", "shop/pricing.py#round_price", "CALLS") not in edges
        assert ("shop/pricing.py#price_of", "shop/pricing.py#round_price", "CALLS") in edges
        redone = _rebuilt(project)
        assert 1 <= redone < total_files, (redone, total_files)
        # An unrelated file's edit does not redo pricing's readers.
        _write(root / "shop/recursion.py", (root / "shop/recursion.py").read_text() + "\n\ndef extra():\n    return factorial(3)\n")
        assert ("shop/recursion.py#extra", "shop/recursion.py#factorial", "CALLS") in \
            _edges(project, "shop/recursion.py", "factorial")
        assert _rebuilt(project) == 1


def test_a_change_in_an_imported_file_reaches_its_callers(copy_fixture):
    root = copy_fixture("graph_py")
    with Project(root) as project:
        assert ("main.py#main", "shop/chain.py#step1", "CALLS") in _edges(project, "main.py", "main", "dependencies_of")
        chain = root / "shop/chain.py"
        _write(chain, chain.read_text().replace("def step1():", "def first_step():").replace(
            "step2() + 1\n", "step2() + 1\n\n\ndef step1():\n    return first_step()\n", 1))
        edges = _edges(project, "main.py", "main", "dependencies_of")
        assert ("main.py#main", "shop/chain.py#step1", "CALLS") in edges
        assert ("shop/chain.py#step1", "shop/chain.py#first_step", "CALLS") in edges


def test_deleted_and_new_files(copy_fixture):
    root = copy_fixture("graph_py")
    with Project(root) as project:
        assert project.dependencies_of("main.py", "main").found
        (root / "helpers/b.py").unlink()
        edges = _edges(project, "main.py", "main", "dependencies_of")
        assert not any(target.startswith("helpers/b.py") for _, target, _ in edges)
        _write(root / "helpers/b.py", "def format(value):\n    return helper(value)\n\n\ndef helper(value):\n    return value\n")
        edges = _edges(project, "main.py", "main", "dependencies_of")
        assert ("main.py#main", "helpers/b.py#format", "CALLS") in edges
        assert ("helpers/b.py#format", "helpers/b.py#helper", "CALLS") in edges


def test_the_whole_graph_equals_a_fresh_build_after_edits(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    with Project(root) as project:
        project.call_graph()
        orders = root / "shop/orders.py"
        _write(orders, orders.read_text().replace("self.validate()", "self.validate() and self.validate()"))
        _write(root / "shop/models.py", (root / "shop/models.py").read_text().replace("class Product(Entity):", "class Product:"))
        incremental = project.call_graph().to_dict()
    with Project(root, cache_dir=tmp_path / "other-cache") as fresh:
        rebuilt = fresh.call_graph().to_dict()
    key = lambda e: (e["source"], e["target"], e["kind"], e["file"], e["line"])  # noqa: E731
    assert sorted(map(key, incremental["edges"])) == sorted(map(key, rebuilt["edges"]))
    assert sorted(n["id"] for n in incremental["nodes"]) == sorted(n["id"] for n in rebuilt["nodes"])


def test_an_edit_inside_a_body_redoes_only_that_file(copy_fixture):
    root = copy_fixture("graph_py")
    with Project(root) as project:
        project.call_graph()
        pricing = root / "shop/pricing.py"
        _write(pricing, pricing.read_text().replace("return round(value, 2)", "return round(value, 3)"))
        assert project.dependents_of("shop/pricing.py", "round_price").found
        assert _rebuilt(project) == 1


def test_go_interfaces_are_implemented_implicitly_and_follow_edits(copy_fixture):
    root = copy_fixture("go_app")
    with Project(root) as project:
        implements = lambda: sorted((e["source"], e["target"], e["resolution"])  # noqa: E731
                                    for e in project.call_graph().to_dict()["edges"] if e["kind"] == "IMPLEMENTS")
        assert implements() == [("models/user.go#User", "models/user.go#Named", "inferred")]
        names = root / "models/names.go"
        _write(names, names.read_text().replace("DisplayName()", "Label()"))
        assert implements() == []


def test_a_function_passed_as_an_argument_follows_an_edit_of_the_caller(copy_fixture):
    """Value flow: `apply_all(items, transform)` calls what its callers pass; when a caller in
    another file passes something else, the callee's edges change with it."""
    root = copy_fixture("py_flow")
    with Project(root) as project:
        calls = _edges(project, "shop/handlers.py", "apply_all", "dependencies_of")
        assert ("shop/handlers.py#apply_all", "shop/handlers.py#on_create", "CALLS") in calls
        main = root / "main.py"
        # a body-only edit: the file's names, imports and definitions stay the same
        _write(main, main.read_text().replace('apply_all(["a"], on_create)', 'apply_all(["a"], make_pricer)'))
        calls = _edges(project, "shop/handlers.py", "apply_all", "dependencies_of")
        assert ("shop/handlers.py#apply_all", "shop/handlers.py#make_pricer", "CALLS") in calls
        assert ("shop/handlers.py#apply_all", "shop/handlers.py#on_create", "CALLS") not in calls


def _moved(text: str) -> str:
    """The same code with comment and blank lines added above and inside it, and a docstring
    made longer: a save that changes no code."""
    text = "# Orders: kept as they were.\n\n" + text.replace("    def checkout(self):\n",
                                                           "    # checking out validates first\n\n"
                                                           "    def checkout(self):\n        \"\"\"Validate, then price.\n\n"
                                                           "        Returns the total.\n        \"\"\"\n")
    return text


def _whole(project):
    graph = project.call_graph().to_dict()
    return (sorted((e["source"], e["target"], e["kind"], e["file"], e["line"]) for e in graph["edges"]),
            sorted((n["id"], n["line"], n["end_line"], tuple(n.get("external_calls") or ())) for n in graph["nodes"]))


def _as_built_afresh(root, tmp_path, whole) -> None:
    with Project(root, cache_dir=tmp_path / "fresh") as fresh:
        assert _whole(fresh) == whole


def test_a_save_that_only_moves_lines_keeps_the_answers_and_moves_the_edges(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    orders = root / "shop/orders.py"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        before = _whole(project)
        resolver = project._context.resolver
        answers = {key: answer for key, answer in resolver._resolved.items() if key[0] == "shop/orders.py"}
        assert answers
        _write(orders, _moved(orders.read_text()))
        after = _whole(project)
        assert _rebuilt(project) == 1
        # the file's answers were kept, not worked out again (each is the same object)
        kept = project._context.resolver._resolved
        assert all(kept.get(key) is answer for key, answer in answers.items())
        checkout = [e for e in after[0] if e[0] == "shop/orders.py#Order.checkout"]
        assert checkout and all(e[4] > 20 for e in checkout)   # below the lines added
        assert after != before
    _as_built_afresh(root, tmp_path, after)
    # a new process reads the moved part from the store: the same graph
    with Project(root, cache_dir=tmp_path / "cache") as restarted:
        assert _whole(restarted) == after


def test_a_restarted_process_moves_the_lines_without_resolving_the_file(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    orders = root / "shop/orders.py"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.call_graph()
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.dependents_of("shop/pricing.py", "total")   # the graph, read from the store
        _write(orders, _moved(orders.read_text()))
        edges = _edges(project, "shop/pricing.py", "total")
        assert ("shop/orders.py#Order.checkout", "shop/pricing.py#total", "CALLS") in edges
        assert not any(key[0] == "shop/orders.py" for key in project._context.resolver._resolved)
        moved = _whole(project)
    _as_built_afresh(root, tmp_path, moved)


def test_a_change_of_code_after_a_moving_save_is_redone(copy_fixture, tmp_path):
    root = copy_fixture("graph_py")
    orders = root / "shop/orders.py"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.call_graph()
        _write(orders, _moved(orders.read_text()))
        project.call_graph()
        # two saves between two questions: a moving one, then one that stops calling `total`
        _write(orders, "# first\n" + orders.read_text())
        _write(orders, orders.read_text().replace("return total(self.items)", "return len(self.items)"))
        edges = _edges(project, "shop/pricing.py", "total")
        assert ("shop/orders.py#Order.checkout", "shop/pricing.py#total", "CALLS") not in edges
        after = _whole(project)
    _as_built_afresh(root, tmp_path, after)


def test_a_moving_save_beside_a_change_of_what_the_file_reads(copy_fixture, tmp_path):
    """One update: orders.py only moves, pricing.py (which orders.py reads) loses `total`'s old
    name: orders.py is redone, not moved."""
    root = copy_fixture("graph_py")
    orders, pricing = root / "shop/orders.py", root / "shop/pricing.py"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.call_graph()
        _write(orders, _moved(orders.read_text()))
        _write(pricing, pricing.read_text().replace("def total(", "def total_of(") + "\n\ndef total(items):\n    return 0\n")
        after = _whole(project)
        assert ("shop/orders.py#Order.checkout", "shop/pricing.py#total", "CALLS") in \
            _edges(project, "shop/pricing.py", "total")
    _as_built_afresh(root, tmp_path, after)


def test_an_editor_buffer_that_only_moves_lines_is_moved_and_cleared_back(copy_fixture, tmp_path):
    """The language server's unsaved buffer (set_overlay) takes the same path as a save: a
    comment typed above the code keeps the file's answers and moves its edges; clearing the
    buffer gives the disk's graph again."""
    root = copy_fixture("graph_py")
    orders = root / "shop/orders.py"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        on_disk = _whole(project)
        answers = {key: answer for key, answer in project._context.resolver._resolved.items()
                   if key[0] == "shop/orders.py"}
        project.set_overlay("shop/orders.py", _moved(orders.read_text()))
        typed = _whole(project)
        kept = project._context.resolver._resolved
        assert all(kept.get(key) is answer for key, answer in answers.items())
        project.clear_overlay("shop/orders.py")
        assert _whole(project) == on_disk
    _write(orders, _moved(orders.read_text()))
    _as_built_afresh(root, tmp_path, typed)


def test_a_reflow_keeps_the_answers_and_redoes_the_part_from_them(copy_fixture, tmp_path):
    """A formatter splits a call over lines: the answers stay (nothing is resolved again), the
    file's part is made anew from them (an edge's line cannot be moved: a line became two)."""
    root = copy_fixture("graph_py")
    orders = root / "shop/orders.py"
    with Project(root, cache_dir=tmp_path / "cache") as project:
        _whole(project)
        answers = {key: answer for key, answer in project._context.resolver._resolved.items()
                   if key[0] == "shop/orders.py"}
        text = orders.read_text()
        assert "events.emit(\"added\", product)" in text
        _write(orders, text.replace("events.emit(\"added\", product)", "events.emit(\n            \"added\",\n            product,\n        )"))
        after = _whole(project)
        assert _rebuilt(project) == 1
        kept = project._context.resolver._resolved
        assert all(kept.get(key) is answer for key, answer in answers.items())
    _as_built_afresh(root, tmp_path, after)


def test_saves_that_rename_and_remove_functions_leave_no_stale_node(copy_fixture, tmp_path):
    """Each save is its own update, as in an editor: a function renamed, renamed again, then
    removed with its callers' calls. After each, the graph's nodes and edges are those of a
    fresh build: a node no file defines any more is gone from the graph itself (the prune after the first looks only
    at the nodes those saves could have left behind)."""
    root = copy_fixture("graph_py")
    pricing = root / "shop/pricing.py"
    key = lambda e: (e["source"], e["target"], e["kind"], e["file"], e["line"])  # noqa: E731
    saves = [
        lambda text: text.replace("round_price", "round_amount"),
        lambda text: text.replace("round_amount", "to_cents"),
        lambda text: text.replace("return to_cents(item.price)", "return item.price")
                         .replace("return to_cents(amount * 1.2)", "return amount * 1.2")
                         .replace("def to_cents(value):\n    return round(value, 2)\n", ""),
    ]
    with Project(root) as project:
        project.call_graph()
        for i, save in enumerate(saves):
            _write(pricing, save(pricing.read_text()))
            incremental = project.call_graph().to_dict()
            with Project(root, cache_dir=tmp_path / f"fresh-{i}") as fresh:
                rebuilt = fresh.call_graph().to_dict()
            assert sorted(n["id"] for n in incremental["nodes"]) == sorted(n["id"] for n in rebuilt["nodes"]), i
            assert sorted(map(key, incremental["edges"])) == sorted(map(key, rebuilt["edges"])), i
            # answers leave out a node marked stale; the graph must not keep one either
            kept = set(project._context._code_graph.graph.nodes)
            assert kept == {n["id"] for n in rebuilt["nodes"]}, (i, kept ^ {n["id"] for n in rebuilt["nodes"]})
        ids = {n["id"] for n in incremental["nodes"]}
        assert not any(name in node for node in ids for name in ("round_price", "round_amount", "to_cents"))
