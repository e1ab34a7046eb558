"""``codetrace lsp``: the Language Server Protocol over stdio, a thin surface over ``Project``.

Every answer is one ``Project`` call; this module only translates: document URIs to paths
relative to the root, LSP positions (0-based lines, UTF-16 code units unless the client
negotiated another encoding) to ours (1-based lines, 1-based code-point columns) and back,
and result objects to LSP types. Open documents are the editor's text: each request first hands
the buffers that changed to ``Project.set_overlay`` (``clear_overlay`` on close), so answers
follow unsaved edits. The first index runs on a thread after ``initialized``, reported with
``$/progress``; requests wait for it and then answer.

Only ``lsp.py`` imports pygls and lsprotocol (the ``lsp`` extra).
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls import uris
from pygls.lsp.server import LanguageServer

from . import __version__
from .errors import CodetraceError, InvalidRequest
from .project import Project

__all__ = ["CodetraceLanguageServer", "serve", "to_code_points", "to_units"]

log = logging.getLogger(__name__)

_IDENTIFIER = re.compile(r"[^\W\d][\w$]*|\$[\w$]*")
_CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "type"})
_PROGRESS_EVERY = 0.2   # seconds between $/progress reports (a report per file floods the client)

_SYMBOL_KINDS = {
    "function": lsp.SymbolKind.Function, "method": lsp.SymbolKind.Method,
    "constructor": lsp.SymbolKind.Constructor, "class": lsp.SymbolKind.Class,
    "interface": lsp.SymbolKind.Interface, "type": lsp.SymbolKind.TypeParameter,
    "enum": lsp.SymbolKind.Enum, "enum_member": lsp.SymbolKind.EnumMember,
    "struct": lsp.SymbolKind.Struct, "trait": lsp.SymbolKind.Interface, "impl": lsp.SymbolKind.Class,
    "module": lsp.SymbolKind.Module, "namespace": lsp.SymbolKind.Namespace,
    "variable": lsp.SymbolKind.Variable, "constant": lsp.SymbolKind.Constant,
    "property": lsp.SymbolKind.Property, "field": lsp.SymbolKind.Field,
    "parameter": lsp.SymbolKind.Variable, "macro": lsp.SymbolKind.Function,
}


# ---------------------------------------------------------------------- positions
def to_code_points(text: str, units: int, encoding: str = lsp.PositionEncodingKind.Utf16) -> int:
    """The 0-based code-point column of LSP character ``units`` in the line ``text``."""
    if encoding == lsp.PositionEncodingKind.Utf32 or text.isascii():
        return min(units, len(text)) if encoding != lsp.PositionEncodingKind.Utf32 else units
    width = 2 if encoding == lsp.PositionEncodingKind.Utf16 else 1
    seen = 0
    for index, char in enumerate(text):
        if seen >= units:
            return index
        seen += len(char.encode("utf-16-le" if width == 2 else "utf-8")) // width
    return len(text)


def to_units(text: str, column: int, encoding: str = lsp.PositionEncodingKind.Utf16) -> int:
    """The LSP character of 0-based code-point ``column`` in the line ``text``."""
    if encoding == lsp.PositionEncodingKind.Utf32 or text.isascii():
        return column
    prefix = text[:column]
    if encoding == lsp.PositionEncodingKind.Utf16:
        return len(prefix.encode("utf-16-le", "surrogatepass")) // 2 + max(0, column - len(text))
    return len(prefix.encode("utf-8", "surrogatepass")) + max(0, column - len(text))


def _identifier_at(text: str, column: int) -> tuple[str, int] | None:
    """The identifier covering 0-based code point ``column`` (or ending right before it):
    (name, start column)."""
    for match in _IDENTIFIER.finditer(text):
        if match.start() <= column <= match.end():
            return match.group(), match.start()
    return None


class CodetraceLanguageServer(LanguageServer):
    """The server: a ``Project`` for the workspace root, and the open documents' overlays."""

    def __init__(self, root: str | None = None, python: str | None = None):
        super().__init__("codetrace", __version__)
        self._root_option = root
        self._python = python
        self.project: Project | None = None
        self.indexed = threading.Event()   # cleared while the first index runs
        self.indexed.set()
        self._dirty: set[str] = set()        # URIs opened, changed or closed since the last sync
        self._overlaid: dict[str, str] = {}  # URI -> path given to set_overlay
        self._sync_lock = threading.Lock()

    # ------------------------------------------------------------------ set-up
    def start_project(self, params: lsp.InitializeParams) -> None:
        root = self._root_option
        if root is None:
            folders = params.workspace_folders or []
            client_root = folders[0].uri if folders else params.root_uri
            root = uris.to_fs_path(client_root) if client_root else None
            root = root or params.root_path or os.getcwd()
        self.project = Project(root, python=self._python)

    def index_with_progress(self) -> None:
        """The first index, with ``$/progress`` when the client accepts server-made tokens."""
        token = None
        try:
            # (pygls knows the client's capabilities from its `initialize` only: none, no progress)
            capabilities = getattr(self.protocol, "client_capabilities", None)
            window = capabilities.window if capabilities is not None else None
            if window is not None and window.work_done_progress:
                token = "codetrace-index"
                try:
                    self.work_done_progress.create(token).result(timeout=10)
                except Exception:  # noqa: BLE001 - no progress bar is no reason not to index
                    token = None
            if token:
                self.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(
                    title="codetrace: indexing", message=self.project.root, percentage=0, cancellable=False))
            last = [0.0]

            def progress(done: int, total: int, path: str) -> None:
                now = time.monotonic()
                if token and (now - last[0] >= _PROGRESS_EVERY or done == total):
                    last[0] = now
                    self.work_done_progress.report(token, lsp.WorkDoneProgressReport(
                        message=f"{done}/{total} {path}", percentage=int(100 * done / max(total, 1))))

            stats = self.project.index(progress=progress)
            if token:
                self.work_done_progress.end(token, lsp.WorkDoneProgressEnd(
                    message=f"{stats.files} files indexed ({stats.parsed} parsed) in {stats.seconds:.1f} s"))
        except Exception as error:  # noqa: BLE001 - reported; requests index again on their own
            log.exception("first index failed")
            if token:
                self.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=f"indexing failed: {error}"))
        finally:
            self.indexed.set()
        try:
            # files changed on disk (a branch switched, a formatter run, another editor) are taken
            # in as they are saved; open buffers still reach the project at each request (sync)
            self.project.watch()
        except Exception:  # noqa: BLE001 - then each request takes in the changes itself
            log.exception("watching the root for changes failed")

    # ------------------------------------------------------------------ documents
    def mark(self, uri: str) -> None:
        with self._sync_lock:
            self._dirty.add(uri)

    def sync(self) -> None:
        """Hand the open buffers that changed to the project (called at the start of each request)."""
        with self._sync_lock:
            dirty, self._dirty = self._dirty, set()
            for uri in sorted(dirty):
                document = self.workspace.text_documents.get(uri)
                if document is None:
                    path = self._overlaid.pop(uri, None)
                    if path is not None:
                        self.project.clear_overlay(path)
                    continue
                path = self.path_of(uri)
                if path is None:
                    continue
                language = document.language_id or None
                try:
                    # the extension names the language; a notebook's text here is its cells' code
                    # (jupyter-lsp's virtual documents), so the editor's language id says what it is
                    taken = not path.endswith(".ipynb") and self.project.set_overlay(path, document.source)
                    if not taken and language:
                        taken = self.project.set_overlay(path, document.source, language)
                except (InvalidRequest, ValueError):
                    taken = False
                if taken:
                    self._overlaid[uri] = path

    def path_of(self, uri: str) -> str | None:
        """The root-relative path of a document URI; None outside the root (or not a file)."""
        if not uri.startswith("file:"):
            return None
        path = uris.to_fs_path(uri)
        if not path:
            return None
        try:
            return self.project.workspace.relative(path)
        except InvalidRequest:
            return None

    def uri_of(self, file: str, library: dict | None = None) -> str | None:
        """The URI of a result's file: under the root, or a library file where it really lies."""
        if library is not None:
            absolute = self.project.library_path(file)
            if absolute is not None:
                return uris.from_fs_path(absolute)
        if file.startswith("/") or file.startswith("../"):
            return None
        return uris.from_fs_path(str(self.project.workspace.absolute(file)))

    # ------------------------------------------------------------------ text
    def line_text(self, uri: str, line: int, cache: dict) -> str:
        """Line ``line`` (1-based) of the document (the open buffer first, else the disk)."""
        lines = cache.get(uri)
        if lines is None:
            document = self.workspace.text_documents.get(uri)
            # Split at "\n" only, as the engine's lines are counted (and the protocol's: a form
            # feed or U+2028 is no line break to either, where str.splitlines breaks at them)
            if document is not None:
                lines = document.source.split("\n")
            else:
                try:
                    lines = Path(uris.to_fs_path(uri)).read_text(encoding="utf-8", errors="replace").split("\n")
                except (OSError, TypeError, ValueError):
                    lines = []
            cache[uri] = lines
        return lines[line - 1].rstrip("\r\n") if 0 < line <= len(lines) else ""

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or lsp.PositionEncodingKind.Utf16

    def position(self, uri: str, line: int, column: int, cache: dict) -> lsp.Position:
        """LSP position of our 1-based ``line`` and 1-based code-point ``column``."""
        text = self.line_text(uri, line, cache)
        return lsp.Position(line=max(line - 1, 0), character=to_units(text, max(column - 1, 0), self.encoding))

    def name_range(self, uri: str, line: int, column: int, name: str | None, cache: dict) -> lsp.Range:
        """The range of the identifier at ``line:column`` (``name``'s length when none is there)."""
        text = self.line_text(uri, line, cache)
        found = _identifier_at(text, column - 1)
        length = len(found[0]) - (column - 1 - found[1]) if found and found[1] <= column - 1 else len(name or "")
        start = self.position(uri, line, column, cache)
        return lsp.Range(start, self.position(uri, line, column + max(length, 0), cache))

    def find_name(self, uri: str, line: int, name: str, cache: dict, lines: int = 1) -> lsp.Range:
        """The range of ``name`` written on ``line`` (or on one of the ``lines`` lines from it:
        decorators come first); the line's text when the name is not written there."""
        for number in range(line, line + lines):
            text = self.line_text(uri, number, cache)
            match = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) if name else None
            if match:
                return lsp.Range(self.position(uri, number, match.start() + 1, cache),
                                 self.position(uri, number, match.end() + 1, cache))
        text = self.line_text(uri, line, cache)
        indent = len(text) - len(text.lstrip())
        return lsp.Range(self.position(uri, line, indent + 1, cache), self.position(uri, line, len(text) + 1, cache))

    def cursor(self, uri: str, position: lsp.Position, cache: dict):
        """(path, name, 1-based line, 1-based start column) of the identifier under the cursor."""
        path = self.path_of(uri)
        if path is None:
            return None
        line = position.line + 1
        text = self.line_text(uri, line, cache)
        found = _identifier_at(text, to_code_points(text, position.character, self.encoding))
        if found is None:
            return None
        name, start = found
        return path, name, line, start + 1


def _kind(kind: str | None) -> lsp.SymbolKind:
    return _SYMBOL_KINDS.get(kind or "", lsp.SymbolKind.Variable)


def _quietly(handler):
    """Bad input (a position outside the root, a file that vanished) is a null answer to the
    editor, not an error popup."""

    def wrapped(ls: CodetraceLanguageServer, params):
        # A request that comes during the first index is answered right after it (not by a second
        # index of its own without progress reports).
        ls.indexed.wait()
        ls.sync()
        try:
            return handler(ls, params)
        except (InvalidRequest, CodetraceError) as error:
            log.info("%s: %s", handler.__name__, error)
            return None

    wrapped.__name__ = handler.__name__
    return wrapped


def build_server(root: str | None = None, python: str | None = None) -> CodetraceLanguageServer:
    server = CodetraceLanguageServer(root, python)

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: CodetraceLanguageServer, params: lsp.InitializeParams):
        ls.start_project(params)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: CodetraceLanguageServer, params: lsp.InitializedParams):
        ls.indexed.clear()   # before any later request is read: requests wait for the first index
        threading.Thread(target=ls.index_with_progress, name="codetrace-index", daemon=True).start()

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: CodetraceLanguageServer, params):
        if ls.project is not None:
            ls.project.close()

    for method in (lsp.TEXT_DOCUMENT_DID_OPEN, lsp.TEXT_DOCUMENT_DID_CHANGE, lsp.TEXT_DOCUMENT_DID_CLOSE):
        # pygls keeps the text (incremental changes applied); the next request hands it over
        server.feature(method)(lambda ls, params: ls.mark(params.text_document.uri))

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: CodetraceLanguageServer, params: lsp.DidSaveTextDocumentParams):
        ls.mark(params.text_document.uri)   # the buffer stays the truth while it is open

    # ---------------------------------------------------------------- navigation
    def definition_location(ls, params, mode: str):
        cache: dict = {}
        at = ls.cursor(params.text_document.uri, params.position, cache)
        if at is None:
            return None
        path, name, line, column = at
        found = ls.project.find_definition(name, path, line, column, mode=mode)
        if found.status != "found" or found.cell is not None:
            return None
        uri = ls.uri_of(found.file, found.library)
        if uri is None:
            return None
        return [lsp.Location(uri, ls.name_range(uri, found.line, found.column, found.name, cache))]

    for method, mode in ((lsp.TEXT_DOCUMENT_DEFINITION, "definition"),
                         (lsp.TEXT_DOCUMENT_DECLARATION, "declaration"),
                         (lsp.TEXT_DOCUMENT_TYPE_DEFINITION, "type_definition")):
        def handler(ls, params, mode=mode):
            return definition_location(ls, params, mode)

        handler.__name__ = mode
        server.feature(method)(server.thread()(_quietly(handler)))

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @server.thread()
    @_quietly
    def references(ls: CodetraceLanguageServer, params: lsp.ReferenceParams):
        cache: dict = {}
        at = ls.cursor(params.text_document.uri, params.position, cache)
        if at is None:
            return None
        path, name, line, column = at
        include = bool(params.context and params.context.include_declaration)
        found = ls.project.find_references(name, path, line, column, include_declaration=include)
        if found.status != "found":
            return None
        locations = []
        for ref in found.references:
            if ref.cell is not None:
                continue   # a notebook cell has no place in a file URI
            uri = ls.uri_of(ref.file)
            if uri is not None:
                locations.append(lsp.Location(uri, ls.name_range(uri, ref.line, ref.column, name, cache)))
        return locations

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @server.thread()
    @_quietly
    def hover(ls: CodetraceLanguageServer, params: lsp.HoverParams):
        cache: dict = {}
        uri = params.text_document.uri
        at = ls.cursor(uri, params.position, cache)
        if at is None:
            return None
        path, name, line, column = at
        found = ls.project.find_definition(name, path, line, column)
        if found.status != "found":
            return None
        title = ".".join(found.path) or found.name
        head = f"{found.kind} {title}{found.signature or ''}"
        if found.returns and found.signature and "->" not in found.signature and "=>" not in found.signature \
                and ":" not in found.signature.rsplit(")", 1)[-1]:
            head += f" -> {found.returns}"
        where = f"{found.file}:{found.line}"
        if found.library:
            from .results import library_label

            where += f" — {library_label(found.library)}"
        parts = [f"```{found.language or ''}\n{head}\n```", f"*{where}*"]
        if found.doc:
            parts.append(found.doc)
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, "\n\n".join(parts)),
                         ls.name_range(uri, line, column, name, cache))

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @server.thread()
    @_quietly
    def document_symbol(ls: CodetraceLanguageServer, params: lsp.DocumentSymbolParams):
        uri = params.text_document.uri
        path = ls.path_of(uri)
        if path is None:
            return None
        outline = ls.project.document_symbols(path)
        if outline.status != "found":
            return None
        cache: dict = {}

        def convert(entry) -> lsp.DocumentSymbol:
            selection = ls.name_range(uri, entry.line, entry.column, entry.name, cache)
            end = ls.position(uri, entry.end_line, entry.end_column, cache)
            if (end.line, end.character) < (selection.end.line, selection.end.character):
                end = selection.end
            whole = lsp.Range(lsp.Position(entry.start_line - 1, 0), end)
            return lsp.DocumentSymbol(entry.name, _kind(entry.kind), whole, selection, detail=entry.detail,
                                      children=[convert(c) for c in entry.children])

        return [convert(entry) for entry in outline.symbols if entry.cell is None]

    @server.feature(lsp.WORKSPACE_SYMBOL)
    @server.thread()
    @_quietly
    def workspace_symbol(ls: CodetraceLanguageServer, params: lsp.WorkspaceSymbolParams):
        if not params.query.strip():
            return []
        found = ls.project.symbols(params.query, limit=100)
        cache: dict = {}
        answer = []
        for match in found.matches:
            uri = ls.uri_of(match.file)
            if uri is None or match.file.endswith(".ipynb"):
                continue
            answer.append(lsp.SymbolInformation(
                name=match.name, kind=_kind(match.kind),
                location=lsp.Location(uri, ls.name_range(uri, match.line, match.column, match.name, cache)),
                container_name=match.container))
        return answer

    # ---------------------------------------------------------------- hierarchies
    def prepare(ls, params, kinds) -> list | None:
        cache: dict = {}
        at = ls.cursor(params.text_document.uri, params.position, cache)
        if at is None:
            return None
        path, name, line, column = at
        found = ls.project.find_definition(name, path, line, column)
        if found.status != "found" or found.library or found.cell is not None or not kinds(found.kind):
            return None   # the graph holds the project's code only
        uri = ls.uri_of(found.file)
        selection = ls.name_range(uri, found.line, found.column, found.name, cache)
        end = ls.position(uri, found.end_line or found.line, found.end_column or 1, cache)
        if (end.line, end.character) < (selection.end.line, selection.end.character):
            end = selection.end
        symbol = ".".join(found.path) or found.name
        return [dict(name=found.name, kind=_kind(found.kind), uri=uri,
                     range=lsp.Range(lsp.Position(selection.start.line, 0), end), selection_range=selection,
                     detail=found.qualified_name or found.file, data={"file": found.file, "symbol": symbol})]

    def node_item(ls, node, cache: dict) -> dict | None:
        if node.kind == "module" or node.cell is not None:
            return None   # module-level code: no symbol to ask about; a notebook cell: no file place
        uri = ls.uri_of(node.file)
        if uri is None:
            return None
        selection = ls.find_name(uri, node.line, node.name, cache, lines=8)
        last = ls.line_text(uri, node.end_line, cache)
        end = ls.position(uri, node.end_line, len(last) + 1, cache)
        if (end.line, end.character) < (selection.end.line, selection.end.character):
            end = selection.end
        return dict(name=node.name, kind=_kind(node.kind), uri=uri,
                    range=lsp.Range(lsp.Position(min(node.offset, node.line) - 1, 0), end), selection_range=selection,
                    detail=node.qualified_name,
                    data={"file": node.file, "symbol": node.id.partition("#")[2]})

    def neighbours(ls, item, edge_kinds: frozenset, forward: bool):
        """(node, [edges]) of the item's direct neighbours over ``edge_kinds``, from the graph
        query in that direction (the query is transitive: only edges touching the item count)."""
        data = item.data or {}
        file, symbol = data.get("file"), data.get("symbol")
        if not file or not symbol:
            return []
        query = ls.project.dependencies_of if forward else ls.project.dependents_of
        graph = query(file, symbol)
        if graph.status != "found" or not graph.inputs:
            return []
        seed = graph.inputs[0]
        nodes = {node.id: node for node in graph.nodes}
        found: dict[str, list] = {}
        for edge in graph.edges:
            if edge.kind in edge_kinds and (edge.source if forward else edge.target) == seed:
                other = edge.target if forward else edge.source
                if other in nodes:   # the item itself too: a recursive call
                    found.setdefault(other, []).append(edge)
        return [(nodes[other], edges) for other, edges in found.items()]

    def call_ranges(ls, edges, name: str, cache: dict) -> list:
        ranges, seen = [], set()
        for edge in edges:
            if (edge.file, edge.line) in seen:
                continue
            seen.add((edge.file, edge.line))
            uri = ls.uri_of(edge.file)
            if uri is not None:
                ranges.append(ls.find_name(uri, edge.line, name, cache))
        return ranges

    _CALLS = frozenset({"CALLS"})
    _SUPERTYPES = frozenset({"EXTENDS", "IMPLEMENTS"})

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
    @server.thread()
    @_quietly
    def prepare_call_hierarchy(ls: CodetraceLanguageServer, params: lsp.CallHierarchyPrepareParams):
        items = prepare(ls, params, lambda kind: kind in ("function", "method", "constructor", "property",
                                                          "macro") or kind in _CLASS_KINDS)
        return [lsp.CallHierarchyItem(**item) for item in items] if items else None

    @server.feature(lsp.CALL_HIERARCHY_INCOMING_CALLS)
    @server.thread()
    @_quietly
    def incoming_calls(ls: CodetraceLanguageServer, params: lsp.CallHierarchyIncomingCallsParams):
        cache: dict = {}
        calls = []
        callee = params.item.name
        for node, edges in neighbours(ls, params.item, _CALLS, forward=False):
            item = node_item(ls, node, cache)
            if item is not None:
                calls.append(lsp.CallHierarchyIncomingCall(lsp.CallHierarchyItem(**item),
                                                           call_ranges(ls, edges, callee, cache)))
        return calls

    @server.feature(lsp.CALL_HIERARCHY_OUTGOING_CALLS)
    @server.thread()
    @_quietly
    def outgoing_calls(ls: CodetraceLanguageServer, params: lsp.CallHierarchyOutgoingCallsParams):
        cache: dict = {}
        calls = []
        for node, edges in neighbours(ls, params.item, _CALLS, forward=True):
            item = node_item(ls, node, cache)
            if item is not None:
                # a constructor is called by its class's name
                called = node.id.partition("#")[2].split(".")[-2] if node.kind == "constructor" and \
                    "." in node.id.partition("#")[2] else node.name
                calls.append(lsp.CallHierarchyOutgoingCall(lsp.CallHierarchyItem(**item),
                                                           call_ranges(ls, edges, called, cache)))
        return calls

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY)
    @server.thread()
    @_quietly
    def prepare_type_hierarchy(ls: CodetraceLanguageServer, params: lsp.TypeHierarchyPrepareParams):
        items = prepare(ls, params, lambda kind: kind in _CLASS_KINDS)
        return [lsp.TypeHierarchyItem(**item) for item in items] if items else None

    def type_neighbours(ls, item, forward: bool):
        cache: dict = {}
        answer = []
        for node, _ in neighbours(ls, item, _SUPERTYPES, forward=forward):
            entry = node_item(ls, node, cache)
            if entry is not None:
                answer.append(lsp.TypeHierarchyItem(**entry))
        return answer

    @server.feature(lsp.TYPE_HIERARCHY_SUPERTYPES)
    @server.thread()
    @_quietly
    def supertypes(ls: CodetraceLanguageServer, params: lsp.TypeHierarchySupertypesParams):
        return type_neighbours(ls, params.item, forward=True)

    @server.feature(lsp.TYPE_HIERARCHY_SUBTYPES)
    @server.thread()
    @_quietly
    def subtypes(ls: CodetraceLanguageServer, params: lsp.TypeHierarchySubtypesParams):
        return type_neighbours(ls, params.item, forward=False)

    return server


def serve(root: str | None = None, python: str | None = None) -> None:
    """Speak LSP over stdin/stdout until the client says exit."""
    logging.basicConfig(level=os.environ.get("CODETRACE_LSP_LOG", "WARNING").upper(),
                        format="codetrace lsp %(levelname)s %(message)s")
    # (The first index runs in a thread beside those reading stdin and writing stdout: its
    # worker processes are then new interpreters, not forks — index/workers.py says why.)
    build_server(root, python).start_io()
