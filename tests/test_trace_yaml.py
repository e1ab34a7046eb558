"""The trace text is YAML, and ``yaml.safe_load`` of it is the structure ``to_dict()`` has.

``expected_view`` below is written from the dict alone (independently of the renderer): the
sections, keys and nesting of ``to_dict()``, in the text's compact forms (seed 002). Every
fixture is traced for several symbols with references, calls and types; then generated results
with hostile names (``: ``, `` #``, quotes, newlines, unicode, leading indicators) are rendered
and read back, property-based; and a real project under ``odd: dir #1/`` is traced end to end.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jupyter_codetrace import Project
from jupyter_codetrace.render.trace import BUDGET
from jupyter_codetrace.results import DefinitionResult, TraceResult

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
_DECLARATION_FILES = (".d.ts", ".d.mts", ".d.cts", ".pyi")


# --- the oracle: what the text must read back as, from the dict ----------------------------

def _label(e: dict) -> str:
    if e.get("external"):
        return f"{e['symbol']} (external)"
    text = f"{e['symbol']} (module)" if e.get("kind") == "module" else f"{e['symbol']} ({e['file']})"
    return text + (" (cycle)" if e.get("cycle") else " (see above)" if e.get("seen") else "")


def _tree_view(entries: list[dict]) -> list:
    return [{_label(e): _tree_view(e["children"])} if e.get("children") else _label(e) for e in entries]


def expected_view(d: dict) -> dict:
    if d["status"] != "found":
        return {d["status"]: d["message"]}
    de = d["definition"]
    view = {"symbol": de["symbol"], "kind": de["kind"], "file": de["file"]}
    if de.get("cell") is not None:
        view["cell"] = de["cell"]
    view["exported"] = bool(de["exported"])
    if de["modifiers"]:
        view["modifiers"] = de["modifiers"]
    for key in ("signature", "generics", "doc"):
        if de[key]:
            view[key] = de[key]
    if de["parameters"]:
        view["parameters"] = []
        for p in de["parameters"]:
            default = "" if p.get("default") is None else f" = {p['default']}"
            view["parameters"].append({p["name"]: p["type"] + default} if p.get("type") else p["name"] + default)
    if de["returns"]:
        view["returns"] = de["returns"]
    if de["overloads"]:
        view["overloads"] = [o["signature"] for o in de["overloads"]]
    if de["resolved_from"]:
        view["resolvedFrom"] = [f"{s['file']} → {' '.join(s['via'].split())}" for s in de["resolved_from"]] \
            + [f"{de['file']} → defined here"]
    if de["members"]:
        view["members"] = []
        for m in de["members"]:
            sig = m.get("signature") or ""
            shown = sig if sig.startswith("(") else f": {sig}" if sig else ""
            view["members"].append(f"{m['name']}{shown} ({m['kind']})")
    out = {"definition": view}
    if d.get("note"):
        out["note"] = d["note"]
    if "references" in d:
        r = d["references"]
        out["references"] = {
            "total": r["total"], "files": r["files"],
            "byFile": [{"file": f["file"], **({"test": True} if f["test"] else {}), "usages": f["usages"]}
                       for f in r["byFile"]]}
        if r["reExports"]:
            out["references"]["reExports"] = [{k: e[k] for k in ("file", "exportedAs", "from")} for e in r["reExports"]]
    if "calls" in d:
        c = d["calls"]
        out["calls"] = {"incoming": _tree_view(c["incoming"]), "outgoing": _tree_view(c["outgoing"])}
        if c.get("truncated"):
            out["calls"]["truncated"] = True
    if "types" in d:
        t = d["types"]
        h = t["hierarchy"]
        hierarchy = {k: [f"{e['symbol']} ({e['file']}, {e['kind']})" for e in h[k]]
                     for k in ("extends", "implements", "subtypes") if h[k] or k == "subtypes"}

        def flow(item, name=None):
            return (f"{name} → " if name else "") + item["type"] + (f" ({item['file']})" if item.get("file") else "")

        f = t["flows"]
        flows = {"parameters": [flow(p, p["name"]) for p in f["parameters"]]}
        if f["returns"]:
            flows["returns"] = flow(f["returns"])
        if f["properties"]:
            flows["properties"] = [flow(p, p["name"]) for p in f["properties"]]
        out["types"] = {"hierarchy": hierarchy, "flows": flows}
        if t.get("typeGuard"):
            out["types"]["typeGuard"] = flow(t["typeGuard"], t["typeGuard"]["parameter"])
        if t.get("mergedDeclarations"):
            out["types"]["mergedDeclarations"] = [f"{m['symbol']} ({m['file']})" for m in t["mergedDeclarations"]]
    return out


def assert_round_trip(result: TraceResult) -> str:
    text = result.to_text()
    assert len(text) <= BUDGET and "budget" not in text.splitlines()[-1]
    assert yaml.safe_load(text) == expected_view(result.to_dict()), text
    return text


# --- every fixture -------------------------------------------------------------------------

def _symbols_to_trace(project: Project, count: int = 4) -> list[tuple[str, str]]:
    """The best-connected functions and the classes of a fixture: (qualified symbol, file)."""
    graph = project.call_graph().to_dict()
    degree: dict[str, int] = {}
    for edge in graph["edges"]:
        for end in (edge["source"], edge["target"]):
            degree[end] = degree.get(end, 0) + 1
    nodes = [n for n in graph["nodes"] if n["kind"] != "module" and "." not in n["name"]]
    nodes.sort(key=lambda n: (-degree.get(n["id"], 0), n["id"]))
    chosen = [n for n in nodes if n["kind"] in ("function", "method", "constructor")][:count]
    chosen += [n for n in nodes if n["kind"] in ("class", "interface", "struct", "trait", "type")][:2]
    return [(n["name"], n["file"]) for n in chosen]


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_every_fixture_traces_to_yaml_that_reads_back_as_its_dict(fixture):
    with Project(FIXTURES / fixture) as project:
        symbols = _symbols_to_trace(project)
        assert symbols, f"nothing to trace in {fixture}"
        for name, file in symbols:
            result = project.trace(name, file, references=True, calls=True, types=True)
            assert result.status == "found", (name, file, result.message)
            assert_round_trip(result)
            assert_round_trip(project.trace(name, file))
        assert_round_trip(project.trace("no_such_symbol_anywhere"))


# --- generated hostile names ---------------------------------------------------------------

_HOSTILE = ["a: b", "a #b", "#x", "'q'", '"dq"', "x\ny", "\ttab", "é ü 名前", "- x", "-x", "? q", "?q",
            "* star", "*star", "&anchor", "!tag", "|", ">", "%pct", "@at", "`tick`", "[l]", "{m}", "a, b",
            "yes", "no", "null", "~", "1", "0x1F", "1e3", ".inf", "=", "<<", " lead", "trail ", "", ":",
            "a:", "\u2028", "\x85", "\ufeff", "\x7f", "\ud800", "...", "---", "a\\b", "x" * 1100]

names = st.one_of(st.sampled_from(_HOSTILE), st.text(min_size=0, max_size=40),
                  st.lists(st.sampled_from(_HOSTILE), min_size=1, max_size=3).map("".join))
words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)


def _call_entry(depth: int):
    leaf = st.fixed_dictionaries({"symbol": names, "file": names},
                                 optional={"external": st.just(True), "seen": st.just(True),
                                           "cycle": st.just(True), "kind": st.sampled_from(["module", "function"])})
    if depth == 0:
        return leaf
    return st.one_of(leaf, st.fixed_dictionaries(
        {"symbol": names, "file": names, "children": st.lists(_call_entry(depth - 1), min_size=1, max_size=3)}))


def _type_entry():
    return st.fixed_dictionaries({"symbol": names, "file": names, "kind": words, "line": st.just(1)})


def _flow(name_key=None):
    keys = {"type": names}
    if name_key:
        keys[name_key] = names
    return st.fixed_dictionaries(keys, optional={"file": names})


results = st.builds(
    lambda definition, refs, calls, types, note: TraceResult(
        status="found", symbol=definition.symbol, definition=definition, references=refs, calls=calls,
        types=types, note=note),
    definition=st.builds(
        DefinitionResult, status=st.just("found"), symbol=names, name=names, kind=words, file=names,
        line=st.just(1), column=st.just(1), cell=st.none() | st.integers(0, 9), exported=st.booleans(),
        modifiers=st.lists(names, max_size=3).map(tuple), signature=st.none() | names,
        generics=st.none() | names, doc=st.none() | names, returns=st.none() | names,
        parameters=st.lists(st.fixed_dictionaries({"name": names, "type": st.none() | names,
                                                   "default": st.none() | names}), max_size=3).map(tuple),
        overloads=st.lists(st.fixed_dictionaries({"signature": names}), max_size=2).map(tuple),
        resolved_from=st.lists(st.fixed_dictionaries({"file": names, "via": names}), max_size=2).map(tuple),
        members=st.lists(st.fixed_dictionaries({"name": names, "kind": words, "signature": st.none() | names}),
                         max_size=3).map(tuple)),
    refs=st.none() | st.fixed_dictionaries({
        "total": st.integers(0, 99), "files": st.integers(0, 99),
        "byFile": st.lists(st.fixed_dictionaries({"file": names, "test": st.booleans(),
                                                  "usages": st.lists(names, max_size=3)}), max_size=3),
        "reExports": st.lists(st.fixed_dictionaries({"file": names, "exportedAs": names, "from": names}),
                              max_size=2)}),
    calls=st.none() | st.fixed_dictionaries({"incoming": st.lists(_call_entry(3), max_size=3),
                                             "outgoing": st.lists(_call_entry(3), max_size=3),
                                             "truncated": st.booleans()}),
    types=st.none() | st.fixed_dictionaries({
        "hierarchy": st.fixed_dictionaries({"extends": st.lists(_type_entry(), max_size=2),
                                            "implements": st.lists(_type_entry(), max_size=2),
                                            "subtypes": st.lists(_type_entry(), max_size=2)}),
        "flows": st.fixed_dictionaries({"parameters": st.lists(_flow("name"), max_size=2),
                                        "returns": st.none() | _flow(),
                                        "properties": st.lists(_flow("name"), max_size=2)}),
        "typeGuard": st.none() | _flow("parameter"),
        "mergedDeclarations": st.lists(st.fixed_dictionaries({"symbol": names, "file": names}), max_size=2)}),
    note=st.none() | names,
)


def _fits(result: TraceResult) -> bool:
    """Texts over the budget leave detail out on purpose (tested below)."""
    return len(result.to_text()) <= BUDGET


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(results)
def test_hostile_names_round_trip(result):
    if not _fits(result):
        return
    assert_round_trip(result)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["symbol_not_found", "file_not_indexed"]), names)
def test_not_found_text_is_a_one_line_mapping(status, message):
    result = TraceResult(status=status, symbol="x", message=message)
    assert yaml.safe_load(result.to_text()) == {status: message}


def test_a_trace_under_a_hostile_directory_reads_back(tmp_path):
    odd = tmp_path / "odd: dir #1" / "- it's \"quoted\"" / "ünï ? * &"
    odd.mkdir(parents=True)
    (odd / "user.py").write_text("def user():\n    return 1\n\n\ndef caller_of_user():\n    return user()\n\n\n"
                                 "def top():\n    return caller_of_user()\n", encoding="utf-8")
    (tmp_path / "main.py").write_text("from importlib import import_module\n\n\ndef main():\n    return 1\n",
                                      encoding="utf-8")
    with Project(tmp_path) as project:
        result = project.trace("user", references=True, calls=True, types=True)
        assert result.status == "found"
        text = assert_round_trip(result)
    data = yaml.safe_load(text)
    where = "odd: dir #1/- it's \"quoted\"/ünï ? * &/user.py"
    assert data["definition"]["file"] == where
    assert data["calls"]["incoming"] == [{f"caller_of_user ({where})": [f"top ({where})"]}]


def test_the_seed_look_is_kept():
    with Project(FIXTURES / "graph_py") as project:
        text = project.trace("place_order", "main.py", calls=True).to_text()
    assert "  incoming:\n    - main (main.py):\n      - main.py (module)\n" in text
    assert "    - Order.__init__ (shop/orders.py)\n" in text
    assert '  signature: "(products)"\n' in text


def test_budget_notes_are_comments_and_the_rest_still_reads_back(tmp_path):
    lines = ["def hub():"] + [f"    f_{i}()" for i in range(60)] + [""]
    for i in range(60):
        lines += [f"def f_{i}():"] + [f"    g_{i}_{j}()" for j in range(40)] + [""]
        lines += [f"def g_{i}_{j}():\n    return 1\n" for j in range(40)]
    (tmp_path / "big: #1.py").write_text("\n".join(lines), encoding="utf-8")
    with Project(tmp_path) as project:
        result = project.trace("hub", calls=True)
        text = result.to_text()
    assert text.splitlines()[-1].startswith("# over the 12,000-character budget:")
    data = yaml.safe_load(text)
    outgoing = result.to_dict()["calls"]["outgoing"]
    assert data["calls"]["outgoing"] == [_label(e) for e in outgoing]  # collapsed to counts
    assert '- "f_0 (big: #1.py)"  # +' in text
    assert data["calls"]["truncated"] is result.to_dict()["calls"]["truncated"] is True
    assert data["calls"]["outgoing"][0] == "f_0 (big: #1.py)"




def test_counts_are_singular_or_plural(tmp_path):
    from jupyter_codetrace.render.markdown import render as markdown
    from jupyter_codetrace.render.text import render as text
    from jupyter_codetrace.render.trace import _more

    assert [str(c) for c in _more(1, "file") + _more(2, "file") + _more(1)] == \
        ["… 1 more file", "… 2 more files", "… 1 more"]
    (tmp_path / "a.py").write_text("def once():\n    return 1\n\n\ndef twice():\n    return once()\n\n\n"
                                   "def thrice():\n    return 3\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("from a import twice, thrice\ntwice()\n", encoding="utf-8")
    (tmp_path / "c.py").write_text("from a import thrice\n", encoding="utf-8")
    with Project(tmp_path) as project:
        one, two, three = (project.find_references(name, "a.py", line) for name, line in
                           (("once", 1), ("twice", 5), ("thrice", 9)))
    assert (one.count, one.files, two.count, two.files, three.count, three.files) == (1, 1, 2, 1, 2, 2)
    assert "\n1 reference in 1 file —" in markdown(one) and ": 1 in 1 file (" in text(one)
    assert "\n2 references in 1 file —" in markdown(two) and ": 2 in 1 file (" in text(two)
    assert "\n2 references in 2 files —" in markdown(three) and ": 2 in 2 files (" in text(three)
