"""Did-you-mean: suggestions are what a person meant (edit distance first, then kind and scope),
never one- or two-letter names for a longer query, and nothing far off."""

from __future__ import annotations

import pytest

from jupyter_codetrace import Project

SOURCE = '''\
class Console:
    def write(self, text):
        l = len(text)
        n = l + 1
        return n


def console_log(message):
    consl = message
    return consl


def close():
    return 0


def constant_folding():
    return 1


Consol = 3
'''


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("dym")
    (root / "app.py").write_text(SOURCE, encoding="utf-8")
    (root / "other.py").write_text("def helper():\n    return 2\n", encoding="utf-8")
    with Project(root) as p:
        yield p


def _names(result) -> list[str]:
    return [s["name"] for s in result.suggestions]


def test_consle_suggests_console_and_no_short_names(project):
    result = project.trace("Consle")
    assert result.status == "symbol_not_found"
    names = _names(result)
    assert names[0] == "Console"
    assert not [n for n in names if len(n) <= 2], names
    assert "Closest names: Console (app.py)" in result.message


def test_a_tie_in_distance_is_broken_by_kind(project):
    # `Consoe` is one edit from the class `Console` and from the variable `Consol`
    names = _names(project.trace("Consoe"))
    assert names[:2] == ["Console", "Consol"], names


def test_distance_comes_before_kind(project):
    # the local variable `consl` is one edit from `conslx`; the class `Console` is two
    names = _names(project.trace("conslx"))
    assert names.index("consl") < names.index("Console"), names


def test_at_the_same_distance_a_class_beats_a_local_variable(project):
    # `Consle` is one edit from the class `Console` and from the local variable `consl`
    names = _names(project.trace("Consle"))
    assert names.index("Console") < names.index("consl"), names


def test_far_names_are_not_offered(project):
    result = project.trace("zzzzqqqq")
    assert result.status == "symbol_not_found"
    assert _names(result) == []
    assert "Closest names" not in result.message


def test_similar_names_directly(project):
    ctx = project._context
    pool = ["l", "n", "Console", "close", "Consol", "constant_folding", "console_log", "x", "ab"]
    ranked = ctx.similar_names("Consle", pool)
    assert ranked[0] == "Console"
    assert "l" not in ranked and "n" not in ranked and "ab" not in ranked and "x" not in ranked
    assert "constant_folding" not in ranked  # far off
    assert ctx.similar_names("totl", ["total", "subtotal", "t", "to"]) == ["total"]
    assert ctx.similar_names("total", ["total_", "subtotal", "to", "totals_by_region"]) == ["total_", "subtotal"]
    # dotted candidates (graph queries): the last part counts
    assert ctx.similar_names("chekout", ["Order.checkout", "Order.add", "check"])[0] == "Order.checkout"


def test_the_graph_queries_rank_the_same_way(project):
    result = project.dependents_of("app.py", "Consle")
    assert result.status == "symbol_not_found"
    assert "closest first: Console" in result.message
    assert ", l" not in result.message and ", n" not in result.message


def _offered(query: str, candidates: list[str]) -> set[str]:
    """The rule of the docstring, name by name: at most about two edits in five characters
    (Damerau-Levenshtein ignoring case, to the whole name, or to its last dotted part for an
    undotted query), or one name
    inside the other when the shorter has three letters or more and is at least half the longer;
    never a name of one or two letters for a longer query."""
    from rapidfuzz.distance import DamerauLevenshtein

    folded_query = query.casefold()
    most = max(1, len(folded_query) * 2 // 5)
    offered = set()
    for candidate in candidates:
        folded = candidate.casefold()
        last = folded.rsplit(".", 1)[-1]
        close = DamerauLevenshtein.distance(folded_query, folded) <= most or (
            "." not in folded_query and DamerauLevenshtein.distance(folded_query, last) <= most)
        shown = last if "." not in folded_query else folded
        short, long = sorted((folded_query, shown), key=len)
        inside = len(folded_query) >= 3 and len(short) >= 3 and 2 * len(short) >= len(long) and short in long
        if (close or inside) and not (len(folded_query) > 2 and len(candidate.rsplit(".", 1)[-1]) <= 2):
            offered.add(candidate)
    return offered


def test_the_names_offered_follow_the_rule_over_many_names(project):
    # random names from a small alphabet (many near and inside one another), some dotted, in
    # mixed case; the project's own defined names go through the prepared, kept pool
    import random

    rng = random.Random(7)
    alphabet = "abcdeT_"
    names = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9))) for _ in range(3000)})
    names += [f"{a}.{b}" for a, b in zip(names[::7], names[3::11])]
    ctx = project._context
    for query in [rng.choice(names).split(".")[-1] for _ in range(40)] + ["abcdeabcd", "TTab", "x", "ab.cd"]:
        assert set(ctx.similar_names(query, names, limit=10_000)) == _offered(query, names), query
    defined = sorted(ctx.index.defined_in)
    for query in ("Consle", "consol", "wriet", "help", "log_console", "const"):
        got = ctx.similar_names(query, ctx.index.defined_in, limit=10_000)
        assert set(got) == _offered(query, defined), query
        assert got == ctx.similar_names(query, list(defined), limit=10_000)   # the kept pool ranks alike
