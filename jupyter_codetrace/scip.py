"""SCIP export: the project's index as one SCIP ``Index`` for code-intelligence platforms.

SCIP (the Source Code Intelligence Protocol, https://github.com/sourcegraph/scip) is the
protobuf format Sourcegraph and similar platforms serve precise navigation from. The export is
a surface over the engine: every occurrence comes from the facts and from the same resolver the
queries ask, and it adds no language knowledge.

What the index holds:

- ``metadata``: tool ``jupyter_codetrace`` and its version, the root as a ``file://`` URI,
  ``text_document_encoding`` UTF8 (files are read as UTF-8).
- one ``Document`` per indexed file of the project (root-relative POSIX path, language).
  Ranges are 0-based lines and **UTF-16 code units** from the line start, declared per
  document (``position_encoding = UTF16CodeUnitOffsetFromLineStart``), as LSP clients and the
  SCIP indexers written in TypeScript count. A **notebook** is one document, ``x.ipynb``, whose
  text is its code cells concatenated in order, as the engine indexes them
  (``FileFacts.notebook_cells``): its ranges are lines of that text, not of the JSON file, so the
  document carries the text itself (``Document.text``). One document rather than one per cell,
  because SCIP documents are files on disk and a cell has no path of its own.
- ``Occurrence``\\ s: every definition (role ``Definition``; later assignments of the same
  variable are ``WriteAccess`` occurrences of its first binding's symbol), every reference the
  resolver finds (``ReadAccess`` for a read, ``WriteAccess`` for a write; calls and type
  references carry no access role) and every import (``Import``). A reference the resolver
  only matched by name (resolution ``name-only``) is left out: SCIP occurrences are precise.
  References to built-ins have no source and are left out too. Definitions carry
  ``enclosing_range`` (the whole definition).
- ``SymbolInformation`` for each definition: docstring (``documentation``), the signature
  (``signature_documentation``), ``kind``, ``display_name``, and ``relationships``:
  ``is_implementation`` to the classes and interfaces a type extends or implements (IMPLEMENTS
  and EXTENDS edges), ``is_implementation`` + ``is_reference`` from a method to the method it
  overrides, ``is_type_definition`` from a variable, field or parameter to the class of its
  inferred or declared type.
- ``external_symbols``: the library definitions occurrences point at (``json.dumps``), under
  their package (``python 3.11`` for the standard library, the distribution or npm package
  and its version otherwise), with their documentation and signature.

Symbols follow SCIP's grammar, ``codetrace <manager> <name> <version> <descriptors>``: the
package is read from the nearest ``pyproject.toml`` / ``package.json`` / ``Cargo.toml`` /
``go.mod`` above the file (``.`` for each part when there is none); the descriptors are the
module (one namespace, ``` `app.models`/ ```, as the engine names it) and the enclosing
definitions, suffixed by kind: namespace ``/``, type ``#``, term ``.``, method ``().``,
parameter ``(name)``, type parameter ``[name]``, macro ``!``. Definitions inside a function body
(and parameters of nested functions) are ``local N`` symbols of their document.

Incremental: each document's encoded bytes are kept, with the content digests of every file
its resolutions read, in memory and in ``scip-documents.msgpack`` beside the persisted index;
an export reuses a document whose own file and every file it read are unchanged, and encodes
the others again.

The message classes are built at run time from a ``FileDescriptorProto`` written here from
SCIP's published specification (only the messages and fields the export uses); the bytes are
wire-compatible with ``scip.proto``. Needs the ``protobuf`` package (``jupyter_codetrace[scip]``).

>>> from jupyter_codetrace import Project                                 # doctest: +SKIP
>>> Project("fixtures/graph_py").export_scip("index.scip").documents     # doctest: +SKIP
14
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from bisect import bisect_right
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from .dataclass_code import dataclass
from . import __version__
from .errors import CodetraceError
from .nesting import qualifier_names
from .resolve.resolver import CLASS_KINDS, Symbol
from .workspace import is_test_file

__all__ = ["ScipExporter", "ScipExportStats", "scip_messages", "TOOL_NAME", "SCHEME"]

log = logging.getLogger("jupyter_codetrace")

TOOL_NAME = "jupyter_codetrace"
SCHEME = "codetrace"
# Bumped when what a document holds changes: cached documents of another version are dropped.
_FORMAT = "1"
_CACHE_FILE = "scip-documents.msgpack"

# SymbolRole bits (scip.proto)
DEFINITION, IMPORT, WRITE_ACCESS, READ_ACCESS, GENERATED, TEST = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20
UTF8_TEXT = 1
UTF16_POSITIONS = 2   # PositionEncoding.UTF16CodeUnitOffsetFromLineStart

_CALLABLE = frozenset({"function", "method", "constructor"})
_VALUES = frozenset({"variable", "constant", "property", "field", "enum_member", "parameter"})
_NAMESPACES = frozenset({"module", "namespace"})
_TYPES = CLASS_KINDS | {"impl"}
_NAMED_SCOPES = _TYPES | _NAMESPACES   # a block these open holds members, not locals
# SymbolInformation.Kind numbers (scip.proto) for the engine's definition kinds.
_KINDS = {"class": 7, "constant": 8, "constructor": 9, "enum": 11, "enum_member": 12, "field": 15,
          "function": 17, "interface": 21, "macro": 25, "method": 26, "module": 29, "namespace": 30,
          "parameter": 37, "property": 41, "struct": 49, "trait": 53, "type": 55, "variable": 61}
_TYPE_PARAMETER_KIND = 58
_SIMPLE = re.compile(r"[A-Za-z0-9_+\-$]+")
_SIGNATURE_CHARS = 400
# How far after a re-exported name its `from '…'` clause is looked for (a long `export { … }`
# list spans a few hundred bytes).
_STATEMENT_WINDOW = 2000


# --------------------------------------------------------------------------- the schema
@lru_cache(maxsize=1)
def scip_messages() -> SimpleNamespace:
    """The SCIP message classes (``Index``, ``Metadata``, ``ToolInfo``, ``Document``,
    ``Occurrence``, ``SymbolInformation``, ``Relationship``), built from a descriptor written
    here after SCIP's specification, in a descriptor pool of their own. Also decodes the
    output of other SCIP indexers: fields not declared here are kept as unknown fields."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError:
        raise CodetraceError("SCIP export needs the protobuf package: pip install 'jupyter_codetrace[scip]'") from None
    proto = descriptor_pb2.FileDescriptorProto(name="codetrace_scip.proto", package="scip", syntax="proto3")
    field = descriptor_pb2.FieldDescriptorProto
    scalar = {"string": field.TYPE_STRING, "int32": field.TYPE_INT32, "bool": field.TYPE_BOOL}

    def message(name: str, *fields: tuple) -> descriptor_pb2.DescriptorProto:
        built = proto.message_type.add(name=name)
        for number, field_name, kind, *repeated in fields:
            entry = built.field.add(name=field_name, number=number,
                                    label=field.LABEL_REPEATED if repeated else field.LABEL_OPTIONAL)
            if kind in scalar:
                entry.type = scalar[kind]
            elif kind.startswith("enum:"):
                entry.type, entry.type_name = field.TYPE_ENUM, f".scip.{kind[5:]}"
            else:
                entry.type, entry.type_name = field.TYPE_MESSAGE, f".scip.{kind}"
        return built

    def enum(owner, name: str, values: dict[str, int]) -> None:
        built = owner.enum_type.add(name=name)
        for value_name, number in values.items():
            built.value.add(name=value_name, number=number)

    enum(proto, "ProtocolVersion", {"UnspecifiedProtocolVersion": 0})
    enum(proto, "TextEncoding", {"UnspecifiedTextEncoding": 0, "UTF8": 1, "UTF16": 2})
    enum(proto, "PositionEncoding", {"UnspecifiedPositionEncoding": 0, "UTF8CodeUnitOffsetFromLineStart": 1,
                                     "UTF16CodeUnitOffsetFromLineStart": 2, "UTF32CodeUnitOffsetFromLineStart": 3})
    enum(proto, "SymbolRole", {"UnspecifiedSymbolRole": 0, "Definition": DEFINITION, "Import": IMPORT,
                               "WriteAccess": WRITE_ACCESS, "ReadAccess": READ_ACCESS, "Generated": GENERATED,
                               "Test": TEST})
    message("Index", (1, "metadata", "Metadata"), (2, "documents", "Document", True),
            (3, "external_symbols", "SymbolInformation", True))
    message("Metadata", (1, "version", "enum:ProtocolVersion"), (2, "tool_info", "ToolInfo"),
            (3, "project_root", "string"), (4, "text_document_encoding", "enum:TextEncoding"))
    message("ToolInfo", (1, "name", "string"), (2, "version", "string"), (3, "arguments", "string", True))
    message("Document", (4, "language", "string"), (1, "relative_path", "string"),
            (2, "occurrences", "Occurrence", True), (3, "symbols", "SymbolInformation", True),
            (5, "text", "string"), (6, "position_encoding", "enum:PositionEncoding"))
    message("Occurrence", (1, "range", "int32", True), (2, "symbol", "string"), (3, "symbol_roles", "int32"),
            (4, "override_documentation", "string", True), (5, "syntax_kind", "int32"),
            (7, "enclosing_range", "int32", True))
    info = message("SymbolInformation", (1, "symbol", "string"), (3, "documentation", "string", True),
                   (4, "relationships", "Relationship", True), (5, "kind", "enum:SymbolInformation.Kind"),
                   (6, "display_name", "string"), (7, "signature_documentation", "Document"),
                   (8, "enclosing_symbol", "string"))
    kinds = {"UnspecifiedKind": 0, "TypeParameter": _TYPE_PARAMETER_KIND}
    kinds.update({name.title().replace("_", ""): number for name, number in _KINDS.items()})
    kinds["TypeAlias"] = kinds.pop("Type")
    enum(info, "Kind", dict(sorted(kinds.items(), key=lambda item: item[1])))
    message("Relationship", (1, "symbol", "string"), (2, "is_reference", "bool"),
            (3, "is_implementation", "bool"), (4, "is_type_definition", "bool"), (5, "is_definition", "bool"))
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(proto.SerializeToString())
    classes = {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"scip.{name}"))
               for name in ("Index", "Metadata", "ToolInfo", "Document", "Occurrence", "SymbolInformation",
                            "Relationship")}
    return SimpleNamespace(**classes)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _length_delimited(number: int, payload: bytes) -> bytes:
    """One field of a message, as protobuf writes a message field: repeated fields of an
    ``Index`` are concatenated, so documents encoded apart (and cached) are written as they are."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


# --------------------------------------------------------------------------- symbols
def _escape(name: str) -> str:
    """A descriptor name: as it is when made of identifier characters, else in backticks."""
    if _SIMPLE.fullmatch(name):
        return name
    return "`" + name.replace("`", "``") + "`"


def _package_part(text: str | None) -> str:
    """A package field of a symbol: spaces doubled, ``.`` for nothing."""
    text = (text or "").strip()
    return text.replace(" ", "  ") if text else "."


@dataclass(frozen=True)
class _Package:
    """The package a SCIP symbol belongs to (manager, name, version)."""

    manager: str
    name: str
    version: str

    def prefix(self) -> str:
        return " ".join((SCHEME, _package_part(self.manager), _package_part(self.name), _package_part(self.version)))


_NO_PACKAGE = _Package(".", ".", ".")
# Manifest -> (package manager, the languages whose files it describes first). A folder with
# several manifests gives each file the one of its own language, else the first found.
_MANIFESTS = (("pyproject.toml", "python", {"python", "notebook"}),
              ("package.json", "npm", {"typescript", "javascript", "tsx"}),
              ("Cargo.toml", "cargo", {"rust"}),
              ("go.mod", "gomod", {"go"}))


def _read_manifest(path: Path, manager: str) -> _Package | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    name = version = None
    try:
        if path.name == "package.json":
            data = json.loads(text)
            if isinstance(data, dict):
                name, version = data.get("name"), data.get("version")
        elif path.name == "go.mod":
            found = re.search(r"^\s*module\s+(\S+)", text, re.MULTILINE)
            name = found.group(1).strip('"') if found else None
        else:
            try:
                import tomllib
            except ImportError:  # Python 3.10
                import tomli as tomllib
            data = tomllib.loads(text)
            table = data.get("project") or data.get("package") or data.get("tool", {}).get("poetry") or {}
            name, version = table.get("name"), table.get("version")
    except ValueError:  # not JSON / TOML: the manifest names no package
        return None
    if not isinstance(name, str) or not name.strip():
        return None
    return _Package(manager, name, version if isinstance(version, str) else ".")


# --------------------------------------------------------------------------- text positions
class _Lines:
    """A document's text by lines (split at ``\\n``, as the engine counts them) and UTF-16 columns."""

    __slots__ = ("data", "starts", "_decoded")

    def __init__(self, data: bytes):
        self.data = data
        starts, find, i = [0], data.find, data.find(b"\n")
        while i >= 0:
            starts.append(i + 1)
            i = find(b"\n", i + 1)
        self.starts = starts
        self._decoded: dict[int, str] = {}

    def text(self, line: int) -> str:
        """Line ``line`` (1-based), without its line break; "" past the end."""
        found = self._decoded.get(line)
        if found is None:
            if not 0 < line <= len(self.starts):
                return ""
            start = self.starts[line - 1]
            end = self.starts[line] - 1 if line < len(self.starts) else len(self.data)
            found = self._decoded[line] = self.data[start:end].decode("utf-8", "replace").rstrip("\r")
        return found

    def units(self, line: int, column: int) -> int:
        """The 0-based UTF-16 column of 1-based code-point ``column`` on ``line``."""
        text = self.text(line)
        prefix = text[: column - 1]
        if prefix.isascii():
            return column - 1
        return len(prefix.encode("utf-16-le", "surrogatepass")) // 2 + max(0, column - 1 - len(text))

    def name_range(self, line: int, column: int, name: str) -> list[int] | None:
        """``[line, start, end]`` (0-based, UTF-16) of ``name`` written at ``line:column``; None
        when the text there is not the name (a fact whose position names something else)."""
        text = self.text(line)
        if not name or text[column - 1: column - 1 + len(name)] != name:
            return None
        start = self.units(line, column)
        return [line - 1, start, start + len(name.encode("utf-16-le", "surrogatepass")) // 2]

    def units_at_byte(self, line: int, byte: int) -> int:
        if not 0 < line <= len(self.starts):
            return 0
        prefix = self.data[self.starts[line - 1]: max(self.starts[line - 1], byte)]
        if prefix.isascii():
            return len(prefix)
        return len(prefix.decode("utf-8", "replace").encode("utf-16-le", "surrogatepass")) // 2


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class ScipExportStats:
    """What an export wrote: the file, counts, and how many documents came from the cache."""

    path: str
    documents: int
    occurrences: int
    symbols: int
    external_symbols: int
    reused: int
    position_encoding: str = "UTF16CodeUnitOffsetFromLineStart"
    status: str = "found"

    def to_dict(self) -> dict:
        return asdict(self)

    def to_text(self) -> str:
        return (f"Wrote {self.path}: {self.documents} documents, {self.occurrences} occurrences, "
                f"{self.symbols} symbols, {self.external_symbols} external symbols "
                f"({self.reused} documents reused unchanged; ranges in UTF-16 code units).\n")

    to_markdown = to_text


@dataclass
class _Built:
    """One document, encoded, with what it depends on (for reuse) and what it contributes."""

    digest: str
    reads: dict            # path or "*name:N" / "*used:N" / "*files" -> the digest it had
    payload: bytes         # the encoded Document
    externals: dict        # external symbol -> encoded SymbolInformation
    occurrences: int
    symbols: int


# --------------------------------------------------------------------------- the exporter
class ScipExporter:
    """Exports one project's index as SCIP; keeps the encoded documents for the next export.

    Made by ``Project.export_scip`` and kept on the project; ``ctx`` is the project's query
    context (workspace, fresh index, resolver).
    """

    def __init__(self, ctx):
        self.ctx = ctx
        self._built: dict[str, _Built] = {}
        self._loaded = False
        self._packages: dict[str, _Package] = {}
        self._symbols: dict[Symbol, tuple[str | None, frozenset]] = {}

    # ---------------------------------------------------------------- entry point
    def export(self, destination: str | os.PathLike) -> ScipExportStats:
        messages = scip_messages()
        ctx = self.ctx
        with ctx.lock:
            resolver = ctx.fresh()
            # symbol strings name other files' definitions and the packages of manifests, which
            # are not indexed files: both are looked at again by every export
            self._symbols.clear()
            self._packages.clear()
            self._load_cache()
            files = ctx.index.files()
            state = _State(self)
            documents, reused, changed = [], 0, False
            externals: dict[str, bytes] = {}
            for path in files:
                built = self._built.get(path)
                if built is not None and built.digest == ctx.index.digest(path) and state.unchanged(built.reads):
                    reused += 1
                else:
                    built = self._build(messages, resolver, path, state)
                    self._built[path] = built
                    changed = True
                documents.append(built)
                for symbol, payload in built.externals.items():
                    externals.setdefault(symbol, payload)
            for gone in set(self._built) - set(files):
                del self._built[gone]
                changed = True
            metadata = messages.Metadata(
                project_root=Path(ctx.workspace.root).resolve().as_uri() + "/",
                text_document_encoding=UTF8_TEXT,
                tool_info=messages.ToolInfo(name=TOOL_NAME, version=__version__))
            destination = Path(destination)
            destination.parent.mkdir(parents=True, exist_ok=True)
            handle = tempfile.NamedTemporaryFile("wb", dir=destination.parent, prefix=f".{destination.name}.",
                                                 delete=False)
            try:
                with handle:
                    handle.write(_length_delimited(1, metadata.SerializeToString()))
                    for built in documents:
                        handle.write(_length_delimited(2, built.payload))
                    for symbol in sorted(externals):
                        handle.write(_length_delimited(3, externals[symbol]))
                os.replace(handle.name, destination)
            except BaseException:
                Path(handle.name).unlink(missing_ok=True)
                raise
            if changed:
                self._save_cache()
            return ScipExportStats(str(destination), len(documents), sum(b.occurrences for b in documents),
                                   sum(b.symbols for b in documents), len(externals), reused)

    # ---------------------------------------------------------------- one document
    def _build(self, messages, resolver, path: str, state: "_State") -> _Built:
        ctx = self.ctx
        with resolver.recording() as read:
            document, externals, counts = _DocumentWriter(self, messages, resolver, path).write()
        read.discard(path)
        return _Built(ctx.index.digest(path) or "", {key: state.digest(key) for key in sorted(read)},
                      document.SerializeToString(), externals, *counts)

    # ---------------------------------------------------------------- symbols
    def package_of(self, path: str) -> _Package:
        """The package a file belongs to: a library's own, else the nearest manifest's."""
        ctx = self.ctx
        place = ctx.library_place(path)
        if place is not None:
            manager = "python" if path.startswith("::") else "npm"
            return _Package(manager, place.package, place.version or ".")
        language = ctx.index.language_of(path) or ""
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        while True:
            found = self._packages.get(folder)
            if found is None:
                found = self._packages[folder] = self._manifest_in(folder, language)
            if found is not _NO_PACKAGE or not folder:
                return found
            folder = folder.rsplit("/", 1)[0] if "/" in folder else ""

    def _manifest_in(self, folder: str, language: str) -> _Package:
        base = self.ctx.workspace.absolute(folder) if folder else Path(self.ctx.workspace.root)
        found = []
        for file_name, manager, languages in _MANIFESTS:
            package = _read_manifest(Path(base) / file_name, manager)
            if package is not None:
                found.append((language not in languages, package))
        # cached per folder, so the first language asking decides for a folder with several
        found.sort(key=lambda item: item[0])
        return found[0][1] if found else _NO_PACKAGE

    def global_symbol(self, resolver, symbol: Symbol) -> str | None:
        """The symbol string of a definition or module; None for a definition local to its file.

        What making it read (the file, a library's top module, the package's manifest as
        ``*package:PATH``) is read again, into the resolver's recording, each time it is asked
        for: a document's cached bytes depend on it."""
        with resolver.recording() as read:
            cached = self._symbols.get(symbol)
            if cached is not None:
                read.update(cached[1])
                return cached[0]
            read.add(f"*package:{symbol.path}")
            text = None
            view = resolver.view(symbol.path)
            if view is not None:
                facts = view.facts
                prefix = self.package_of(symbol.path).prefix()
                if symbol.is_module:
                    text = f"{prefix} {_escape(self.module_name(resolver, symbol))}/"
                elif 0 <= symbol.index < len(facts.definitions) and not _is_local(facts, symbol.index):
                    descriptors = _descriptors(facts, symbol.index)
                    if descriptors is not None:
                        text = f"{prefix} {_escape(self.module_name(resolver, symbol))}/{descriptors}"
            self._symbols[symbol] = (text, frozenset(read))
        return text

    def module_name(self, resolver, symbol: Symbol) -> str:
        """The module part of a symbol: the engine's module name (a library's as its users import it)."""
        view = resolver.view(symbol.path)
        if resolver.is_library(symbol.path):
            dotted = resolver.library_name(symbol)
            if symbol.is_module:
                return dotted
            names = _nesting_length(view.facts, symbol.index)
            parts = dotted.rsplit(".", names)
            return parts[0] if len(parts) > names else dotted
        return view.spec.module_name(symbol.path, resolver.modules)

    # ---------------------------------------------------------------- cache
    def _cache_path(self) -> Path | None:
        store = self.ctx.index._index.store
        if getattr(store, "in_memory", True):
            return None
        return Path(store.path).parent / _CACHE_FILE

    def _header(self) -> list:
        """What cached documents were made with: this exporter's code, the index's version (the
        facts they were read from), the root and the import roots library paths stand for."""
        roots = [[r.key, r.path] for r in self.ctx.libraries.python_roots()]
        return [_FORMAT, __version__, _code_digest(), getattr(self.ctx.index._index.store, "version", ""),
                str(self.ctx.workspace.root), roots]

    def _load_cache(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        path = self._cache_path()
        if path is None or not path.is_file():
            return
        try:
            import msgpack

            data = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=False)
            if not isinstance(data, list) or len(data) != 2 or data[0] != self._header():
                return
            for entry in data[1]:
                path_, digest, reads, payload, externals, occurrences, symbols = entry
                self._built[path_] = _Built(digest, dict(reads), payload, dict(externals), occurrences, symbols)
        except Exception as error:  # noqa: BLE001 - OSError, a foreign shape, msgpack's own errors
            # a damaged cache is only a slower export: every document is encoded again
            log.info("SCIP document cache %s not used: %s", path, error)
            self._built.clear()

    def _save_cache(self) -> None:
        path = self._cache_path()
        if path is None:
            return
        import msgpack

        rows = [[p, b.digest, list(b.reads.items()), b.payload, list(b.externals.items()), b.occurrences, b.symbols]
                for p, b in sorted(self._built.items())]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".scip-", delete=False) as handle:
                handle.write(msgpack.packb([self._header(), rows], use_bin_type=True))
            os.replace(handle.name, path)
        except OSError as error:
            log.info("SCIP document cache not saved at %s: %s", path, error)


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """This module's own source: a changed exporter does not reuse documents an older one made."""
    return hashlib.blake2b(Path(__file__).read_bytes(), digest_size=8).hexdigest()


class _State:
    """Digests of what documents read, computed once per export."""

    def __init__(self, exporter: ScipExporter):
        self.exporter = exporter
        self.ctx = exporter.ctx
        self._digests: dict[str, str | None] = {}

    def digest(self, key: str) -> str | None:
        found = self._digests.get(key, "?")
        if found != "?":
            return found
        index = self.ctx.index
        if key == "*files":
            value = hashlib.blake2b("\0".join(index.files()).encode(), digest_size=12).hexdigest()
        elif key.startswith("*package:"):
            value = self.exporter.package_of(key[9:]).prefix()
        elif key.startswith(("*name:", "*used:")):   # the files defining N / naming N
            paths = sorted((index.defined_in if key[1] == "n" else index.used_in).get(key[6:], ()))
            value = hashlib.blake2b("\0".join(f"{p}\1{index.digest(p)}" for p in paths).encode(),
                                    digest_size=12).hexdigest()
        else:
            value = index.digest(key)
        self._digests[key] = value
        return value

    def unchanged(self, reads: dict) -> bool:
        return all(self.digest(key) == digest for key, digest in reads.items())


# --------------------------------------------------------------------------- descriptors
def _suffix(facts, index: int) -> str:
    d = facts.definitions[index]
    name = _escape(d.name)
    if d.kind == "parameter":
        return f"({name})"
    container = facts.definitions[d.container] if d.container >= 0 else None
    if container is not None and index in container.type_parameters:
        return f"[{name}]"
    if d.kind in _CALLABLE:
        return f"{name}()."
    if d.kind in _TYPES:
        return f"{name}#"
    if d.kind in _NAMESPACES:
        return f"{name}/"
    if d.kind == "macro":
        return f"{name}!"
    return f"{name}."


_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
# How far a call's argument list is scanned for its keywords (bytes).
_ARGUMENTS_WINDOW = 20_000


def _keywords_written(data: bytes, at: int, keywords: set[str], comment: bytes = b"") -> dict[str, int]:
    """Byte offsets of ``keyword=`` in the argument list opening at the first "(" after ``at``
    (only whitespace between): at its own bracket depth, outside string literals and line
    comments (``comment``: the language's line-comment prefix)."""
    end = min(len(data), at + _ARGUMENTS_WINDOW)
    while at < end and data[at] in b" \t":
        at += 1
    if at >= end or data[at] != ord("("):
        return {}
    found: dict[str, int] = {}
    depth, quote, i, previous = 0, 0, at, ord("(")
    while i < end:
        ch = data[i]
        if quote:
            if ch == ord("\\"):
                i += 2
                continue
            if ch == quote:
                quote = 0
        elif ch in b"'\"`":
            quote = ch
        elif comment and data.startswith(comment, i):
            newline = data.find(b"\n", i, end)
            i = newline if newline >= 0 else end
            continue
        elif ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1 and ch in _WORD and previous in b"(,":
            start = i
            while i < end and data[i] in _WORD:
                i += 1
            word = data[start:i].decode("ascii", "replace")
            j = i
            while j < end and data[j] in b" \t\r\n":
                j += 1
            if word in keywords and j + 1 < end and data[j] == ord("=") and data[j + 1] != ord("="):
                found.setdefault(word, start)
            previous = ord("a")
            continue
        if ch not in b" \t\r\n":
            previous = ch
        i += 1
    return found


def _descriptors(facts, index: int) -> str | None:
    """The descriptors of a definition inside its module: its enclosing definitions', then its
    own; an out-of-line member's type (``Circle::area``, a Go receiver) as a type before it."""
    parts: list[str] = []
    seen = 0
    while index >= 0:
        seen += 1
        if seen > 256:
            return None
        parts.append(_suffix(facts, index))
        parts.extend(f"{_escape(name)}#" for name in reversed(qualifier_names(facts, index)))
        index = facts.definitions[index].container
    return "".join(reversed(parts))


def _nesting_length(facts, index: int) -> int:
    count, seen = 0, 0
    while index >= 0 and seen < 256:
        count += 1 + len(qualifier_names(facts, index))
        index, seen = facts.definitions[index].container, seen + 1
    return count


def _is_local(facts, index: int, _depth: int = 0) -> bool:
    """Visible only inside its file's function or block: a definition in a function body or a
    block, a parameter of such a function; a member (``self.x``) is as local as its owner."""
    defs = facts.definitions
    d = defs[index]
    if _depth > 64:
        return True
    if d.container >= 0:
        owner = defs[d.container]
        if d.kind == "parameter" or index in owner.type_parameters:
            # `f().(x)`, `Box#[T]` when its owner is global; a lambda's parameter is local
            if owner.kind not in _CALLABLE and owner.kind not in _TYPES:
                return True
            return _is_local(facts, d.container, _depth + 1)
        if d.scope < 0:
            return _is_local(facts, d.container, _depth + 1)
    elif d.scope < 0:
        return False
    scopes = facts.scopes
    scope, steps = d.scope, 0
    while 0 <= scope < len(scopes) and steps < 256:
        s = scopes[scope]
        opened_by = defs[s.owner].kind if 0 <= s.owner < len(defs) else None
        if s.kind in ("function", "block") and opened_by not in _NAMED_SCOPES:
            return True
        scope, steps = s.parent, steps + 1
    return False


class _DocumentWriter:
    """Builds one ``Document`` (and the external symbols it points at)."""

    def __init__(self, exporter: ScipExporter, messages, resolver, path: str):
        self.exporter, self.messages, self.resolver, self.path = exporter, messages, resolver, path
        self.view = resolver.view(path)
        self.facts = self.view.facts
        self.lines = _Lines(exporter.ctx.index.source(path))
        self.language = "python" if self.facts.language == "notebook" else self.facts.language
        self.locals: dict[Symbol, str] = {}
        self.occurrences: dict[tuple, list] = {}   # (range, symbol) -> [roles, enclosing range]
        self.externals: dict[str, bytes] = {}
        self.test = TEST if is_test_file(path) else 0
        self.unresolved_imports: dict[tuple[str, str], str] = {}   # (local name, statement) -> local symbol
        self.infos: dict[str, object] = {}   # symbol -> its SymbolInformation in this document

    # ---------------------------------------------------------------- symbols
    def canonical(self, symbol: Symbol) -> Symbol:
        """A variable's first binding stands for all its assignments."""
        if symbol.is_module:
            return symbol
        group = self.resolver.variable_group(symbol)
        return group[0] if group else symbol

    def symbol(self, target: Symbol) -> str | None:
        text = self.exporter.global_symbol(self.resolver, target)
        if text is not None or target.is_module:
            return text
        if target.path != self.path:
            return None   # local to another file: not visible from here
        local = self.locals.get(target)
        if local is None:
            local = self.locals[target] = f"local {len(self.locals)}"
        return local

    def add(self, rng: list[int] | None, symbol: str | None, roles: int, enclosing: list[int] | None = None) -> None:
        if rng is None or symbol is None:
            return
        key = (tuple(rng), symbol)
        entry = self.occurrences.get(key)
        if entry is None:
            self.occurrences[key] = [roles | self.test, enclosing]
        else:
            entry[0] |= roles
            entry[1] = entry[1] or enclosing

    # ---------------------------------------------------------------- the document
    def write(self):
        messages, facts, resolver = self.messages, self.facts, self.resolver
        document = messages.Document(relative_path=self.path, language=self.language,
                                     position_encoding=UTF16_POSITIONS)
        if facts.notebook_cells is not None:
            document.text = self.lines.data.decode("utf-8", "replace")
        infos = self.infos
        module = Symbol(self.path, -1)
        module_symbol = self.symbol(module)
        if module_symbol is not None:
            self.add([0, 0, 0], module_symbol, DEFINITION)
            infos[module_symbol] = messages.SymbolInformation(
                symbol=module_symbol, kind=_KINDS["module"],
                display_name=self.exporter.module_name(resolver, module))
        for i, d in enumerate(facts.definitions):
            self._definition(i, d, infos)
        spec = self.view.spec
        for j, imp in enumerate(facts.imports):
            self._import(j, imp)
        for export in facts.exports:
            self._export(export)
        for i, ref in enumerate(facts.references):
            if ref.name in spec.this_keywords:
                continue   # `this`: a keyword, not a name of the class
            roles = WRITE_ACCESS if ref.usage == "write" else READ_ACCESS if ref.usage == "read" else 0
            rng = self.lines.name_range(ref.line, ref.column, ref.name)
            resolution = resolver.resolve_reference(self.path, i)
            target = self._resolved(resolution)
            if target is None:
                if resolution.status == "unresolved" and resolution.via and ref.receiver is False:
                    # bound by an import whose module is not here (not installed): that binding
                    self.add(rng, self.unresolved_imports.get((ref.name, resolution.via)), roles)
                continue
            if ref.new:
                target = self._constructor(target)
            self.add(rng, self._target_symbol(target), roles)
        self._keyword_arguments()
        for i, token in facts.shorthand_keys:   # `{percent}`: also the member percent of the literal's type
            ref = facts.references[i]
            target = self._resolved(resolver.member_of_token(self.path, token, ref.name))
            if target is not None:
                self.add(self.lines.name_range(ref.line, ref.column, ref.name), self._target_symbol(target), 0)
        occurrences = sorted(self.occurrences.items(), key=lambda item: (item[0][0], item[0][1]))
        for (rng, symbol), (roles, enclosing) in occurrences:
            occurrence = document.occurrences.add(range=list(rng), symbol=symbol, symbol_roles=roles)
            if enclosing:
                occurrence.enclosing_range.extend(enclosing)
        for symbol in sorted(infos, key=lambda s: (s.startswith("local "), s)):
            document.symbols.append(infos[symbol])
        return document, self.externals, (len(occurrences), len(infos))

    def _export(self, export) -> None:
        """`export { a as b } from './m'`, `export { a }`: the module and the names written."""
        if export.module:
            self._module_written(export.start_byte, export.statement, export.module)
        if export.kind != "named" or not export.name:
            return
        target = self._resolved(self.resolver.module_member(self.path, export.exported_as or export.name))
        if target is None:
            return
        symbol = self._target_symbol(target)
        rng = self.lines.name_range(export.line, export.column, export.name)
        self.add(rng, symbol, 0)
        if rng is not None and export.exported_as and export.exported_as != export.name:
            # the alias is not a fact of its own: the word after the name, on its line
            alias = re.compile(rf"\b{re.escape(export.exported_as)}\b")
            found = alias.search(self.lines.text(export.line), export.column - 1 + len(export.name))
            if found is not None:
                self.add(self.lines.name_range(export.line, found.start() + 1, export.exported_as), symbol, 0)

    def _resolved(self, resolution) -> Symbol | None:
        if resolution.status != "found" or resolution.target is None or resolution.kind == "name-only":
            return None
        return resolution.target

    def _target_symbol(self, target: Symbol) -> str | None:
        target = self.canonical(target)
        symbol = self.symbol(target)
        if symbol is not None and self.resolver.is_library(target.path) and symbol not in self.externals:
            info = self._information(target, symbol)
            if info is not None:
                self.externals[symbol] = info.SerializeToString()
        return symbol

    def _definition(self, i: int, d, infos: dict) -> None:
        here = Symbol(self.path, i)
        if d.kind == "impl":
            # `impl Counter { … }` names the type its members belong to: a reference to it
            self.add(self.lines.name_range(d.line, d.column, d.name), self.symbol(here), 0)
            return
        first = self.canonical(here)
        symbol = self.symbol(first)
        if symbol is None:
            return
        is_later_write = first != here and d.kind in _VALUES
        rng = self.lines.name_range(d.line, d.column, d.name)
        enclosing = None
        if rng is not None and d.end_line >= d.start_line > 0:
            start = self.lines.units_at_byte(d.start_line, d.start_byte)
            end = self.lines.units(d.end_line, d.end_column)
            enclosing = [d.start_line - 1, start, d.end_line - 1, end]
            if (enclosing[0], enclosing[1]) > (rng[0], rng[1]) or (enclosing[2], enclosing[3]) < (rng[0], rng[2]):
                enclosing = None   # an enclosing range must enclose the name
        self.add(rng, symbol, WRITE_ACCESS if is_later_write else DEFINITION, None if is_later_write else enclosing)
        if not is_later_write and symbol not in infos:
            info = self._information(first, symbol)
            if info is not None:
                infos[symbol] = info

    def _keyword_arguments(self) -> None:
        """`create(quantity=2)`: the keyword is a use of the called function's parameter. The
        facts give a call's keywords, not where they are written: each is found in the call's
        argument list, outside nested brackets and strings (as ``find_definition`` finds the
        call of a keyword it is asked about)."""
        facts, resolver = self.facts, self.resolver
        for callee, arguments in facts.call_arguments:
            keywords = {keyword for keyword, _token, _splat in arguments if keyword}
            if not keywords or not 0 <= callee < len(facts.references):
                continue
            ref = facts.references[callee]
            written = _keywords_written(self.lines.data, ref.start_byte + len(ref.name.encode("utf-8")), keywords,
                                        self.view.spec.comment.encode("utf-8"))
            if not written:
                continue
            function = self._resolved(resolver.resolve_reference(self.path, callee))
            d = resolver.definition(function)
            if d is not None and d.kind in CLASS_KINDS:
                function = self._constructor(function)
                d = resolver.definition(function)
            if d is None or d.kind not in _CALLABLE:
                continue
            view = resolver.view(function.path)
            parameters = {p.name: i for i, p in enumerate(view.facts.definitions)
                          if p.kind == "parameter" and p.container == function.index}
            for keyword, at in written.items():
                if keyword in parameters:
                    line = bisect_right(self.lines.starts, at)
                    start = self.lines.units_at_byte(line, at)
                    rng = [line - 1, start, start + len(keyword.encode("utf-16-le")) // 2]
                    self.add(rng, self._target_symbol(Symbol(function.path, parameters[keyword])), 0)

    def _constructor(self, cls: Symbol) -> Symbol:
        """What `new Cls()` names: the class's own constructor when it declares one."""
        d = self.resolver.definition(cls)
        view = self.resolver.view(cls.path)
        if d is None or d.kind not in CLASS_KINDS or view is None:
            return cls
        for name in sorted(view.spec.constructor_names):
            for index in view.members.get(cls.index, {}).get(name, ()):
                if view.facts.definitions[index].kind in _CALLABLE:
                    return Symbol(cls.path, index)
        return cls

    def _module_written(self, start_byte: int, statement: str, module: str) -> None:
        """The module name as an import or re-export statement writes it (with its quotes, when
        quoted): a reference to the module's file."""
        if not module or not statement:
            return
        data = self.lines.data
        end = start_byte + len(statement.encode("utf-8"))
        at = data.find(module.encode("utf-8"), start_byte, end)
        if at < 0:   # a re-export's fact starts at its name: the module follows in its `from` clause
            at = data.find(module.encode("utf-8"), start_byte, start_byte + _STATEMENT_WINDOW)
        if at < 0:
            return
        stop = at + len(module.encode("utf-8"))
        if at > start_byte and stop < len(data) and data[at - 1:at] in (b"'", b'"', b"`") \
                and data[stop:stop + 1] == data[at - 1:at]:
            at, stop = at - 1, stop + 1
        language = self.facts.language
        try:
            targets = self.resolver._modules(module, self.path, "python" if language == "notebook" else language)
        except (AttributeError, TypeError, ValueError):
            return
        target = next((t for t in targets or () if not t.endswith("/")), None)
        if target is None:
            return
        line = bisect_right(self.lines.starts, at)
        rng = [line - 1, self.lines.units_at_byte(line, at), self.lines.units_at_byte(line, stop)]
        if bisect_right(self.lines.starts, stop) == line:
            self.add(rng, self._target_symbol(Symbol(target, -1)), IMPORT)

    def _import(self, j: int, imp) -> None:
        self._module_written(imp.start_byte, imp.statement, imp.module)
        if imp.kind in ("star", "side-effect"):
            return
        resolution = self.resolver.follow_import(self.path, j)
        target = self._resolved(resolution)
        if target is None:
            if imp.local and resolution.status != "found":
                # a binding of a module that is not here: a local of this document, so that its
                # uses still lead to the import
                local = self.unresolved_imports.setdefault((imp.local, imp.statement), f"local u{j}")
                self.add(self.lines.name_range(imp.line, imp.column, imp.local), local, DEFINITION | IMPORT)
                if local not in self.infos:
                    kind = _KINDS["module" if imp.kind in ("module", "dotted", "namespace") else "variable"]
                    info = self.infos[local] = self.messages.SymbolInformation(symbol=local, display_name=imp.local,
                                                                               kind=kind)
                    info.signature_documentation.language = self.language
                    info.signature_documentation.text = imp.statement[:_SIGNATURE_CHARS]
            return
        symbol = self._target_symbol(target)
        if imp.name:
            self.add(self.lines.name_range(imp.name_line, imp.name_column, imp.name), symbol, IMPORT)
        if imp.local and (imp.local != imp.name or (imp.line, imp.column) != (imp.name_line, imp.name_column)):
            self.add(self.lines.name_range(imp.line, imp.column, imp.local), symbol, IMPORT)

    # ---------------------------------------------------------------- symbol information
    def _information(self, target: Symbol, symbol: str):
        resolver, messages = self.resolver, self.messages
        view = resolver.view(target.path)
        if view is None or target.is_module:
            return None
        facts = view.facts
        d = facts.definitions[target.index]
        kind = _KINDS.get(d.kind, 0)
        if d.container >= 0 and target.index in facts.definitions[d.container].type_parameters:
            kind = _TYPE_PARAMETER_KIND
        info = messages.SymbolInformation(symbol=symbol, kind=kind, display_name=d.name)
        if d.doc:
            info.documentation.append(d.doc)
        signature = self._signature(target, d)
        if signature:
            language = "python" if facts.language == "notebook" else facts.language
            info.signature_documentation.CopyFrom(messages.Document(language=language, text=signature))
        for related, flags in self._relationships(target, d):
            other = self.exporter.global_symbol(resolver, related)
            if other is not None and other != symbol:
                info.relationships.add(symbol=other, **flags)
        return info

    def _signature(self, target: Symbol, d) -> str:
        if d.kind in _CALLABLE and d.signature:
            text = f"{d.name}{d.signature}"
        elif d.kind in _VALUES and d.type:
            text = f"{d.name}: {d.type}"
        elif d.kind == "parameter":
            text = d.name
        else:
            lines = self.lines if target.path == self.path else _Lines(self.exporter.ctx.index.source(target.path))
            text = lines.text(d.line).strip()
        return text[:_SIGNATURE_CHARS]

    def _relationships(self, target: Symbol, d):
        """(symbol, Relationship flags) pairs: supertypes, overridden methods, value types."""
        resolver = self.resolver
        facts = resolver.view(target.path).facts
        found: list[tuple[Symbol, dict]] = []
        if d.kind in CLASS_KINDS:
            for token in d.extends + d.implements:
                if isinstance(token, tuple) and len(token) == 2 and token[0] == "r":
                    base = self._resolved(resolver.resolve_reference(target.path, token[1]))
                    based = resolver.definition(base) if base is not None else None
                    if based is not None and based.kind in CLASS_KINDS:
                        found.append((base, {"is_implementation": True}))
        elif d.kind in _CALLABLE and d.container >= 0 and facts.definitions[d.container].kind in CLASS_KINDS:
            owner = Symbol(target.path, d.container)
            for base in resolver.mro(owner)[1:]:
                members = resolver.view(base.path).members.get(base.index, {}) if resolver.view(base.path) else {}
                for index in members.get(d.name, ()):
                    if resolver.view(base.path).facts.definitions[index].kind in _CALLABLE:
                        found.append((Symbol(base.path, index), {"is_implementation": True, "is_reference": True}))
                        break
        elif d.kind in _VALUES:
            inferred = resolver.type_of_definition(target)
            if inferred is not None and inferred.kind == "instance" and inferred.symbol is not None:
                typed = resolver.definition(inferred.symbol)
                if typed is not None and typed.kind in CLASS_KINDS:
                    found.append((inferred.symbol, {"is_type_definition": True}))
        return found
