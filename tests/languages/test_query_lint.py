"""Every language's .scm compiles against its pinned grammar and uses only vocabulary captures."""

import pytest

from jupyter_codetrace.index.parsing import capture_names, query_for
from jupyter_codetrace.languages import REGISTRY
from jupyter_codetrace.languages.captures import is_known_capture


@pytest.mark.parametrize("spec", REGISTRY, ids=lambda s: s.name)
def test_query_compiles_with_known_captures(spec):
    query = query_for(spec)
    unknown = [name for name in capture_names(query) if not is_known_capture(name)]
    assert unknown == [], f"{spec.query_path.name} uses captures outside languages/captures.py: {unknown}"


@pytest.mark.parametrize("spec", REGISTRY, ids=lambda s: s.name)
def test_query_defines_something(spec):
    names = set(capture_names(query_for(spec)))
    assert "name" in names and any(n.startswith("definition.") for n in names)
    if spec.precise:
        assert {"reference", "call", "call.callee"} <= names


def test_no_grammar_node_types_outside_languages():
    """Habit 1: Python outside languages/ reads capture names, never node types."""
    import pathlib

    package = pathlib.Path(__file__).resolve().parents[2] / "jupyter_codetrace"
    offenders = []
    for path in package.rglob("*.py"):
        if "languages" in path.parts:
            continue
        text = path.read_text()
        for node_type in ('"function_definition"', '"class_definition"', '"identifier"', '"call_expression"'):
            if node_type in text:
                offenders.append(f"{path.name}: {node_type}")
    assert offenders == []


def test_inherited_queries_are_composed_in_order():
    """`; inherits: NAME` puts NAME.scm (and what it inherits) before the file's own patterns."""
    from jupyter_codetrace.languages import by_name

    ecmascript = (by_name("typescript").query_path.parent / "ecmascript.scm").read_text()
    typescript, tsx = by_name("typescript").query_text, by_name("tsx").query_text
    assert typescript.startswith(ecmascript)
    assert tsx.startswith(typescript) and "jsx_opening_element" in tsx and "jsx_opening_element" not in typescript
    assert by_name("javascript").query_text.startswith(ecmascript)
    assert query_for(by_name("tsx")).pattern_count > query_for(by_name("typescript")).pattern_count
