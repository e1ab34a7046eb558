"""`codetrace lsp` in a real stdio session: each answer is the Project's, translated to LSP."""

from __future__ import annotations

import os
import re
import shutil
import sysconfig
import time
from pathlib import Path

from lsprotocol import types as lsp

from jupyter_codetrace import Project
from jupyter_codetrace.lsp import to_code_points, to_units

from .conftest import FIXTURES, Session


def where(location) -> tuple[str, int, int, int, int]:
    r = location.range if hasattr(location, "range") else location
    return (getattr(location, "uri", ""), r.start.line, r.start.character, r.end.line, r.end.character)


def test_initialize_announces_every_feature(graph_session):
    caps = graph_session.capabilities
    assert caps.definition_provider and caps.declaration_provider and caps.type_definition_provider
    assert caps.references_provider and caps.hover_provider and caps.document_symbol_provider
    assert caps.workspace_symbol_provider and caps.call_hierarchy_provider and caps.type_hierarchy_provider
    sync = caps.text_document_sync
    assert sync.open_close and sync.change == lsp.TextDocumentSyncKind.Incremental and sync.save
    assert caps.position_encoding == lsp.PositionEncodingKind.Utf16


def test_definition_is_the_projects_answer(graph_session):
    s = graph_session
    found = s.run(s.client.text_document_definition_async(lsp.DefinitionParams(**vars_of(s.at("main.py", 11, "place_order")))))
    expected = Project(FIXTURES / "graph_py").find_definition("place_order", "main.py", 11)
    assert [where(x) for x in found] == [(s.uri("shop/orders.py"), expected.line - 1, expected.column - 1,
                                          expected.line - 1, expected.column - 1 + len("place_order"))]
    assert expected.file == "shop/orders.py" and expected.line == 28


def test_declaration_and_type_definition(graph_session):
    s = graph_session
    declared = s.run(s.client.text_document_declaration_async(
        lsp.DeclarationParams(**vars_of(s.at("main.py", 11, "place_order")))))
    assert [where(x)[:3] for x in declared] == [(s.uri("shop/orders.py"), 27, 4)]   # falls back to the definition
    typed = s.run(s.client.text_document_type_definition_async(
        lsp.TypeDefinitionParams(**vars_of(s.at("shop/orders.py", 13, "product")))))
    assert [where(x) for x in typed] == [(s.uri("shop/models.py"), 11, 6, 11, 13)]   # class Product


def test_references_with_and_without_the_declaration(graph_session):
    s = graph_session
    position = s.at("shop/orders.py", 28, "place_order")
    without = s.run(s.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=False), **vars_of(position))))
    expected = Project(FIXTURES / "graph_py").find_references("place_order", "shop/orders.py", 28, 5)
    assert sorted(where(x) for x in without) == sorted(
        (s.uri(r.file), r.line - 1, r.column - 1, r.line - 1, r.column - 1 + len("place_order"))
        for r in expected.references)
    assert (s.uri("main.py"), 10, 12, 10, 23) in {where(x) for x in without}
    with_declaration = s.run(s.client.text_document_references_async(lsp.ReferenceParams(
        context=lsp.ReferenceContext(include_declaration=True), **vars_of(position))))
    assert {where(x) for x in with_declaration} - {where(x) for x in without} == {
        (s.uri("shop/orders.py"), 27, 4, 27, 15)}


def test_hover_shows_signature_and_place(graph_session):
    s = graph_session
    hover = s.run(s.client.text_document_hover_async(lsp.HoverParams(**vars_of(s.at("main.py", 11, "place_order")))))
    assert hover.contents.kind == lsp.MarkupKind.Markdown
    assert "function place_order(products)" in hover.contents.value
    assert "shop/orders.py:28" in hover.contents.value
    assert where(hover.range)[1:] == (10, 12, 10, 23)


def test_document_symbols_are_the_outline(graph_session):
    s = graph_session
    symbols = s.run(s.client.text_document_document_symbol_async(lsp.DocumentSymbolParams(s.doc("shop/models.py"))))
    outline = [(x.name, x.kind, [(c.name, c.kind) for c in x.children]) for x in symbols]
    assert outline == [
        ("Entity", lsp.SymbolKind.Class, [("__init__", lsp.SymbolKind.Constructor), ("ident", lsp.SymbolKind.Field),
                                          ("describe", lsp.SymbolKind.Method)]),
        ("Product", lsp.SymbolKind.Class, [("__init__", lsp.SymbolKind.Constructor),
                                           ("price", lsp.SymbolKind.Field), ("describe", lsp.SymbolKind.Method)]),
    ]
    product = symbols[1]
    assert where(product.selection_range)[1:] == (11, 6, 11, 13)
    assert where(product.range)[1:] == (11, 0, 21, 41)


def test_workspace_symbols(graph_session):
    s = graph_session
    found = s.run(s.client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="place_order")))
    assert (found[0].name, found[0].kind, where(found[0].location)) == (
        "place_order", lsp.SymbolKind.Function, (s.uri("shop/orders.py"), 27, 4, 27, 15))
    assert s.run(s.client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query=""))) == []


def test_call_hierarchy(graph_session):
    s = graph_session
    items = s.run(s.client.text_document_prepare_call_hierarchy_async(
        lsp.CallHierarchyPrepareParams(**vars_of(s.at("main.py", 11, "place_order")))))
    assert [(i.name, i.uri, where(i.selection_range)[1:]) for i in items] == [
        ("place_order", s.uri("shop/orders.py"), (27, 4, 27, 15))]
    incoming = s.run(s.client.call_hierarchy_incoming_calls_async(lsp.CallHierarchyIncomingCallsParams(items[0])))
    assert sorted((c.from_.name, c.from_.uri, [where(r)[1:] for r in c.from_ranges]) for c in incoming) == [
        ("main", s.uri("main.py"), [(10, 12, 10, 23)]),
        ("quick_order", s.uri("shop/orders.py"), [(40, 11, 40, 22)]),
    ]
    outgoing = s.run(s.client.call_hierarchy_outgoing_calls_async(lsp.CallHierarchyOutgoingCallsParams(items[0])))
    assert sorted((c.to.name, where(c.to.selection_range)[1:], [where(r)[1:] for r in c.from_ranges])
                  for c in outgoing) == [
        ("__init__", (8, 8, 8, 16), [(28, 12, 28, 17)]),    # Order() calls Order.__init__
        ("add", (11, 8, 11, 11), [(31, 14, 31, 17)]),
        ("checkout", (17, 8, 17, 16), [(33, 17, 33, 25)]),
    ]
    # one level more: who calls quick_order
    quick = next(c.from_ for c in incoming if c.from_.name == "quick_order")
    deeper = s.run(s.client.call_hierarchy_incoming_calls_async(lsp.CallHierarchyIncomingCallsParams(quick)))
    assert [(c.from_.name, c.from_.uri) for c in deeper] == [("test_quick_order", s.uri("tests/test_orders.py"))]


def test_type_hierarchy(graph_session):
    s = graph_session
    items = s.run(s.client.text_document_prepare_type_hierarchy_async(
        lsp.TypeHierarchyPrepareParams(**vars_of(s.at("shop/models.py", 12, "Product")))))
    assert [(i.name, i.kind) for i in items] == [("Product", lsp.SymbolKind.Class)]
    supertypes = s.run(s.client.type_hierarchy_supertypes_async(lsp.TypeHierarchySupertypesParams(items[0])))
    assert [(t.name, t.uri, where(t.selection_range)[1:]) for t in supertypes] == [
        ("Entity", s.uri("shop/models.py"), (3, 6, 3, 12))]
    subtypes = s.run(s.client.type_hierarchy_subtypes_async(lsp.TypeHierarchySubtypesParams(items[0])))
    assert [(t.name, t.uri, where(t.selection_range)[1:]) for t in subtypes] == [
        ("DigitalProduct", s.uri("shop/digital.py"), (5, 6, 5, 20))]
    # a function has no type hierarchy
    assert s.run(s.client.text_document_prepare_type_hierarchy_async(
        lsp.TypeHierarchyPrepareParams(**vars_of(s.at("main.py", 11, "place_order"))))) is None


def test_library_definition_is_a_real_file_uri(libs_session):
    s = libs_session
    found = s.run(s.client.text_document_definition_async(
        lsp.DefinitionParams(**vars_of(s.at("analysis.py", 29, "dumps")))))
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve() / "json" / "__init__.py"
    text = stdlib.read_text().splitlines()
    line = next(i for i, t in enumerate(text) if t.startswith("def dumps("))
    assert [where(x) for x in found] == [(stdlib.as_uri(), line, 4, line, 9)]
    hover = s.run(s.client.text_document_hover_async(lsp.HoverParams(**vars_of(s.at("analysis.py", 29, "dumps")))))
    assert "json/__init__.py" in hover.contents.value and "stdlib" in hover.contents.value


def test_unsaved_edits_are_answered_from_the_buffer(copy_fixture):
    root = copy_fixture("graph_py")
    on_disk = (root / "main.py").read_text()
    s = Session(root)
    try:
        s.initialize()
        uri = s.uri("main.py")
        s.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=on_disk)))
        lines = on_disk.splitlines()
        end = len(lines)
        # type a new function at the end, and a call to it inside main() (an emoji first: UTF-16)
        s.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(end, 0), lsp.Position(end, 0)),
                text="\n\ndef added_helper():\n    return 1\n"),
             lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(16, 0), lsp.Position(16, 0)),
                text='    mark = "\U0001F600" + str(added_helper())\n')]))
        call = lsp.Position(16, len('    mark = "\U0001F600" + str(a'.encode("utf-16-le")) // 2)
        found = s.run(s.client.text_document_definition_async(lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), call)))
        assert [where(x) for x in found] == [(uri, end + 3, 4, end + 3, 16)]
        # the server never wrote the file
        assert (root / "main.py").read_text() == on_disk
        s.client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        found = s.run(s.client.text_document_definition_async(lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), call)))
        assert [where(x) for x in found] == [(uri, end + 3, 4, end + 3, 16)]
        # closing the editor: back to the disk, where added_helper does not exist
        s.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        symbols = s.run(s.client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="added_helper")))
        assert "added_helper" not in [x.name for x in symbols]
    finally:
        s.close()


def test_lines_below_a_form_feed(tmp_path):
    """A page break (form feed) on its own line, and one inside a string, break no line: the
    ranges of an answer below them are on the lines the client counts."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pages.py").write_text('import os\n\x0c\ndef first():\n    return "a\x0cb"\n\n\n'
                                   'def second():\n    return first()\n', encoding="utf-8")
    s = Session(root, env={"CODETRACE_CACHE_DIR": str(tmp_path / "cache")})
    try:
        s.initialize()
        uri = s.uri("pages.py")
        found = s.run(s.client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(7, 12))))
        assert [where(x) for x in found] == [(uri, 2, 4, 2, 9)]
        s.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
            uri=uri, language_id="python", version=1, text=(root / "pages.py").read_text(encoding="utf-8"))))
        found = s.run(s.client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(7, 12))))
        assert [where(x) for x in found] == [(uri, 2, 4, 2, 9)]
    finally:
        s.close()


def test_a_request_during_the_first_index_waits_for_it(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "graph_py", root)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    copied = root / "stdlib_copy"
    copied.mkdir()
    for source in sorted(stdlib.glob("*.py"))[:150]:   # enough files for a first index that takes a while
        shutil.copy(source, copied / source.name)
    s = Session(root, env={"CODETRACE_CACHE_DIR": str(tmp_path / "cold-cache")})
    try:
        s.initialize()
        asked = time.monotonic()
        found = s.run(s.client.text_document_definition_async(lsp.DefinitionParams(**vars_of(s.at("main.py", 11, "place_order")))))
        answered = time.monotonic()
        assert [where(x)[:3] for x in found] == [(s.uri("shop/orders.py"), 27, 4)]
        # the client cannot know the value's type: progress values arrive as plain dicts
        events = [(t, v if isinstance(v, str) else v["kind"], v) for t, v in s.progress]
        assert [k for _, k, _ in events][:2] == ["create", "begin"]
        begin = next(t for t, k, _ in events if k == "begin")
        reports = [v for _, k, v in events if k == "report"]
        assert reports and reports[-1]["percentage"] == 100 and "/" in reports[-1]["message"]
        assert asked < answered and begin < answered
        s.run(_until(lambda: any(not isinstance(v, str) and v["kind"] == "end" for _, v in s.progress)))
        end = next(v for _, v in s.progress if not isinstance(v, str) and v["kind"] == "end")
        parsed = int(re.search(r"\((\d+) parsed\)", end["message"]).group(1))
        assert parsed > 150   # a cold index: the request came while it ran, and waited for it
        last_report = max(t for t, k, _ in events if k == "report")
        assert last_report <= answered
    finally:
        s.close()


def test_position_encoding_helpers():
    line = 'x = "\U0001F600é" + name'
    column = line.index("name")
    units = to_units(line, column)
    assert units == column + 1                       # the emoji is two UTF-16 units
    assert to_code_points(line, units) == column
    assert to_units(line, column, lsp.PositionEncodingKind.Utf8) == len(line[:column].encode())
    assert to_code_points(line, len(line[:column].encode()), lsp.PositionEncodingKind.Utf8) == column
    assert to_units(line, column, lsp.PositionEncodingKind.Utf32) == column
    assert to_code_points("abc", 10) == 3


async def _until(condition, timeout: float = 30):
    import asyncio

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def vars_of(position: lsp.TextDocumentPositionParams) -> dict:
    return {"text_document": position.text_document, "position": position.position}


def test_help_describes_the_server():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "jupyter_codetrace.cli", "lsp", "--help"], capture_output=True,
                         text=True, env={**os.environ}, check=True).stdout
    assert "Language Server Protocol" in out and "stdio" in out and "--root" in out
