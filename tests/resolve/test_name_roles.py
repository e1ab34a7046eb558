"""A lookup by name alone (the fallback for a member of a receiver of unknown type, or a name
bound nowhere) reads only the files where the name is defined in the role it looks for — a
member of a type, or a definition at the top of a file — known from each file's summary
(``FileFacts.name_roles``), not the files where the name is only a local variable."""

from __future__ import annotations

from jupyter_codetrace import Project


def _project(tmp_path):
    (tmp_path / "locals_only.py").write_text("def total(xs):\n    value = sum(xs)\n    return value\n")
    (tmp_path / "box.py").write_text("class Box:\n    value = 0\n\n    def size(self):\n        return 1\n")
    (tmp_path / "top.py").write_text("value = 3\n\n\ndef size():\n    return 2\n")
    (tmp_path / "use.py").write_text("def show(thing):\n    return thing.value, thing.size()\n")
    Project(tmp_path, cache_dir=tmp_path / ".cache").index()   # the store a second process reads
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    project.index()
    return project


def _loaded(project) -> set[str]:
    return set(project._context.index._facts)


def test_a_member_of_an_unknown_receiver_reads_only_files_defining_it_as_a_member(tmp_path):
    project = _project(tmp_path)
    before = _loaded(project)
    result = project.find_definition("value", "use.py", 2, 18)
    places = {(c.file, c.line) for c in result.candidates} | ({(result.file, result.line)} if result.file else set())
    assert ("box.py", 2) in places, result
    assert not {f for f, _ in places} & {"locals_only.py", "top.py"}, result
    assert "locals_only.py" not in _loaded(project) - before
    assert "top.py" not in _loaded(project) - before


def test_a_name_bound_nowhere_finds_top_level_definitions_not_members_or_locals(tmp_path):
    project = _project(tmp_path)
    (tmp_path / "loose.py").write_text("print(value)\n")
    project.index()
    result = project.find_definition("value", "loose.py", 1, 7)
    places = {(c.file, c.line) for c in result.candidates} | ({(result.file, result.line)} if result.file else set())
    assert ("top.py", 1) in places, result
    assert not {f for f, _ in places} & {"locals_only.py", "box.py"}, result


def test_the_candidate_list_of_a_file_holding_several_namesakes_is_whole(tmp_path):
    # `run` is a method of three classes in a00.py and of one class in each of a01 … a11: a file
    # lists its own, then the others in path order, eight in all
    (tmp_path / "a00.py").write_text(
        "".join(f"class Own{k}:\n    def run(self):\n        return {k}\n\n\n" for k in range(3))
        + "def go(thing):\n    return thing.run()\n")
    for n in range(1, 12):
        (tmp_path / f"a{n:02}.py").write_text(f"class Other{n}:\n    def run(self):\n        return {n}\n")
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    project.index()
    resolver = project._context.fresh()
    every = [("a00.py", 2), ("a00.py", 7), ("a00.py", 12)] + [(f"a{n:02}.py", 2) for n in range(1, 12)]
    for asking in ("a11.py", "a00.py"):   # the lookup is kept between the two questions
        result = resolver.name_only("run", asking, members=True)
        listed = [(c.path, resolver.definition(c).line) for c in result.candidates]
        own = [p for p in every if p[0] == asking]
        assert listed == (own + [p for p in every if p not in own])[:8], (asking, result)


def test_a_lookup_by_name_loads_none_of_the_files_it_lists(tmp_path):
    # the summaries hold each name's definitions (their indexes): the eight candidates of `run`
    # come without loading a file but the asking one; the same as the files' facts give
    for n in range(12):
        (tmp_path / f"a{n:02}.py").write_text(f"def helper():\n    return {n}\n\n\nclass Other{n}:\n"
                                              f"    def run(self):\n        return {n}\n")
    (tmp_path / "ask.py").write_text("def go(thing):\n    return thing.run()\n")
    Project(tmp_path, cache_dir=tmp_path / ".cache").index()   # the store a new process reads
    project = Project(tmp_path, cache_dir=tmp_path / ".cache")
    project.index()
    resolver = project._context.fresh()
    before = _loaded(project)
    result = resolver.name_only("run", "ask.py", members=True)
    assert _loaded(project) - before <= {"ask.py"}
    assert [c.path for c in result.candidates] == [f"a{n:02}.py" for n in range(8)]
    for n, c in enumerate(result.candidates):   # what each file's facts say (now loaded)
        d = resolver.definition(c)
        owner = resolver.definition(type(c)(c.path, d.container))
        assert (d.name, d.kind, d.line, owner.name) == ("run", "method", 6, f"Other{n}")
