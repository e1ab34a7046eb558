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


def test_star_export_cycles_through_a_barrel_still_resolve(tmp_path):
    """mobx's `internal.ts` re-exports every module, and those modules import from it."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "internal.ts").write_text('export * from "./state"\nexport * from "./reaction"\n')
    (src / "state.ts").write_text('import { Reaction } from "./internal"\nexport const globalState = { r: Reaction }\n')
    (src / "reaction.ts").write_text('import { globalState } from "./internal"\nexport class Reaction {\n  s = globalState\n}\n')
    (src / "use.ts").write_text('import { Reaction, globalState } from "./internal"\nexport const r = new Reaction(globalState)\n')
    with Project(tmp_path) as project:
        reaction = project.find_definition("Reaction", "src/use.ts", 2)
        state = project.find_definition("globalState", "src/use.ts", 2)
        assert (reaction.status, reaction.file, reaction.line) == ("found", "src/reaction.ts", 2)
        assert (state.status, state.file, state.line) == ("found", "src/state.ts", 2)
