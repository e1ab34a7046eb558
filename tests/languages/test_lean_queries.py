"""A language's query without the patterns asking for a rare word (TS/JS: CommonJS's `require`,
`exports`) is what a file without those words is matched with: it compiles in about two thirds
of the time, and must find exactly what the whole query finds in such a file. A file holding one
is matched with it and then with those patterns alone (a small second query): together they must
find what the whole query finds, in its order."""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_codetrace.index import extract, parsing
from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.index.parsing import compile_query, needs_whole_query, query_for
from jupyter_codetrace.languages import REGISTRY, by_name, for_path
from jupyter_codetrace.languages.spec import query_patterns

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize("spec", REGISTRY, ids=lambda s: s.name)
def test_patterns_are_read_where_tree_sitter_reads_them(spec):
    text = spec.query_text
    query = query_for(spec, whole=True)
    starts = [len(text[:start].encode()) for start, _ in query_patterns(text)]
    assert starts == [query.start_byte_for_pattern(i) for i in range(query.pattern_count)]


@pytest.mark.parametrize("name", ["typescript", "tsx", "javascript"])
def test_the_lean_query_is_the_whole_one_without_the_patterns_asking_for_a_rare_word(name):
    spec = by_name(name)
    text = spec.query_text
    patterns = [text[start:end] for start, end in query_patterns(text)]
    asking = [p for p in patterns if any(f'"{word}")' in p for word in spec.rare_words)]
    assert spec.rare_words == ("require", "exports") and len(asking) >= 10
    lean = query_for(spec)
    assert lean.pattern_count == len(patterns) - len(asking)
    assert spec.lean_query_text == "\n".join(p for p in patterns if p not in asking)


def test_a_language_without_rare_words_has_one_query():
    spec = by_name("python")
    assert spec.rare_words == () and spec.lean_query_text == spec.query_text
    assert query_for(spec) is query_for(spec, whole=True)


def test_a_not_predicate_naming_the_word_keeps_its_pattern():
    """`(#not-match? @_call "^require\\s*\\(")` asks for the word's absence: that pattern matches
    in files without it, so the lean query keeps it."""
    spec = by_name("typescript")
    kept = spec.lean_query_text
    assert kept.count("#not-match? @_call \"^require") == spec.query_text.count("#not-match? @_call \"^require") > 0
    compile_query(spec.grammar, kept)   # a query tree-sitter accepts


@pytest.mark.parametrize("source, whole", [
    (b"export function f() { return 1 }\n", False),
    (b"const fs = require('fs')\n", True),
    (b"exports.f = function () {}\n", True),
    (b"module.exports = { f }\n", True),
    (b"// re-exports the helpers\nexport * from './a'\n", True),   # in a comment: the whole query, still right
])
def test_a_file_holding_a_rare_word_is_matched_with_the_whole_query(source, whole):
    assert needs_whole_query(by_name("typescript"), source) is whole


def _every_script():
    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and for_path(p.name) is not None
                  and by_name(for_path(p.name).name).rare_words)


def test_files_without_the_words_have_the_facts_the_whole_query_finds(monkeypatch):
    compared = 0
    for path in _every_script():
        spec = for_path(path.name)
        source = path.read_bytes()
        if needs_whole_query(spec, source):
            continue
        lean = extract_file(str(path), source, spec)
        with monkeypatch.context() as patch:
            patch.setattr(extract, "needs_whole_query", lambda spec, source: True)
            whole = extract_file(str(path), source, spec)
        assert lean.to_rows() == whole.to_rows(), path
        compared += 1
    assert compared >= 50


def test_commonjs_facts_come_from_the_whole_query():
    source = (b"const { join } = require('path')\n"
              b"exports.area = function area(r) { return r * r }\n"
              b"module.exports.perimeter = (r) => 2 * r\n")
    facts = extract_file("geometry.js", source, by_name("javascript"))
    assert [(i.module, i.name) for i in facts.imports] == [("path", "join")]
    assert {d.name for d in facts.definitions if d.kind == "function"} >= {"area", "perimeter"}


# Files mixing ES modules and CommonJS in every order: the rare patterns' matches come after all
# the others, yet imports and exports are listed in the order they are written.
_MIXED = [
    ("a.ts", b"const y = require('b');\nimport x from 'a';\nexport { x };\nmodule.exports = y;\n"),
    ("b.ts", b"import z = require('m');\nimport q from 'q';\nexport default z;\nexports.k = q;\n"),
    ("c.js", b"exports.a = function a() {};\nexport const b = 2;\nconst { c, d } = require('cd');\n"
             b"import e from 'e';\nmodule.exports.f = () => 1;\nexport { e as g };\n"),
    ("d.tsx", b"const h = require('h');\nexport function C() { return <div/>; }\nmodule.exports = { C, h };\n"
              b"import i from 'i';\n"),
    ("e.js", b"function f() { const a = require('a'); return a; }\nimport b from 'b';\nexports.f = f;\n"
             b"export default b;\n"),
    ("f.js", b"exports.area = function area(r) { return r * r }\nmodule.exports.perimeter = (r) => 2 * r\n"
             b"exports.x = y;\nmodule.exports = { a: 1, b() {} };\nexports = module.exports = make;\n"),
    ("g.js", b"const a = require('a');\nfunction broken( {\nimport b from 'b';\nexports.c = function c() {};\n"),  # a syntax error
]


def _with_the_whole_query(monkeypatch, path: str, source: bytes, spec):
    """The file's facts as one query of every pattern finds them (what extraction did before)."""
    whole = query_for(spec, whole=True)

    def matches(_spec, root, notes=None, _whole=False):
        return parsing._matches(whole, root, notes)

    with monkeypatch.context() as patch:
        patch.setattr(extract, "run_query", matches)
        patch.setattr(extract, "pattern_captures", lambda _spec, _whole=False: parsing._captures_of(whole))
        extract._plan.cache_clear()
        try:
            return extract_file(path, source, spec)
        finally:
            extract._plan.cache_clear()


def test_files_holding_the_words_have_the_facts_the_whole_query_finds(monkeypatch):
    files = [(str(p), p.read_bytes()) for p in _every_script()] + _MIXED
    compared = 0
    for path, source in files:
        spec = for_path(Path(path).name)
        if not needs_whole_query(spec, source):
            continue
        split = extract_file(path, source, spec)
        assert split.to_rows() == _with_the_whole_query(monkeypatch, path, source, spec).to_rows(), path
        compared += 1
    assert compared >= len(_MIXED) + 5


def test_the_rare_patterns_alone_compile_in_a_fraction_of_the_whole_query():
    spec = by_name("typescript")
    rare = compile_query(spec.grammar, spec.rare_query_text)
    assert rare.pattern_count + query_for(spec).pattern_count == query_for(spec, whole=True).pattern_count
    assert spec.rare_query_text and all(f'"{word}")' in spec.rare_query_text for word in spec.rare_words)
    assert by_name("python").rare_query_text == ""
