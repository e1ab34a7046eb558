"""find_definition: where is the name at FILE:LINE[:COL] defined (or declared, or typed)?

Example on the bundled fixture::

    >>> project = Project("fixtures/python_app")
    >>> project.find_definition("Client", "app/main.py", 3).file      # doctest: +SKIP
    'app/client.py'
"""

from __future__ import annotations

import dataclasses
import re

from ..errors import InvalidRequest
from ..index.extract import _SIGNATURE_LIMIT
from ..resolve.resolver import CLASS_KINDS, Resolution, Symbol
from ..languages.spec import LanguageSpec
from ..results import DefinitionResult
from .context import MODES, QueryContext, validate_position, validate_symbol

__all__ = ["find_definition", "locate", "describe", "Located"]

_CODE_LINES = 80
_TOKEN_ENDS = (", ", "; ", " | ", " & ", " ", "(", "[", "<", "{")


def whole_tokens(signature: str | None) -> str | None:
    """A signature that extraction cut at its length limit, cut back to the last token boundary
    and marked as cut (instead of ending inside a name or a type)."""
    if not signature or len(signature) < _SIGNATURE_LIMIT:
        return signature
    head = signature[:_SIGNATURE_LIMIT]
    at = max(head.rfind(end) + len(end) for end in _TOKEN_ENDS)
    if at > _SIGNATURE_LIMIT // 2:
        head = head[:at]
    return head.rstrip() + f" … (signature cut at {_SIGNATURE_LIMIT} characters)"



class Located:
    """What sits at a position: a reference's resolution, or a definition itself."""

    __slots__ = ("resolution", "usage", "line", "column", "note")

    def __init__(self, resolution: Resolution, usage: str, line: int, column: int, note: str | None = None):
        self.resolution, self.usage, self.line, self.column = resolution, usage, line, column
        self.note = note  # which of several same-named occurrences on the line was taken, and why


def find_definition(ctx: QueryContext, symbol, file=None, line=None, column=None, mode="definition",
                    cell=None) -> DefinitionResult:
    if mode not in MODES:
        raise InvalidRequest(f"mode must be one of {', '.join(MODES)}; got {mode!r}", field="mode")
    if file is None and line is None and column is None and cell is None:
        return _by_name(ctx, symbol, mode)
    if line is None:
        raise InvalidRequest("line is required with file (to look a name up anywhere in the project, "
                             "give neither file nor line)", field="line")
    line, column = validate_position(line, column)
    path = ctx.file_argument(file)
    if symbol is None and column is not None:
        with ctx.lock:  # a cursor position without a name: the identifier there
            ctx.fresh()
            if not ctx.index.has_file(path):
                message, suggestions = ctx.not_indexed_message(path, None)
                return DefinitionResult("file_not_indexed", "", mode, message, suggestions)
            symbol = ctx.identifier_at(path, ctx.virtual_line(path, cell, line), column)
    symbol = validate_symbol(symbol)
    with ctx.lock:
        resolver = ctx.fresh()
        if not ctx.index.has_file(path):
            message, suggestions = ctx.not_indexed_message(path, symbol)
            return DefinitionResult("file_not_indexed", symbol, mode, message, suggestions)
        line = ctx.virtual_line(path, cell, line)
        located = locate(ctx, path, symbol, line, column)
        if located is None:
            names = ctx.names_on_line(path, line)
            message = f"No reference named '{symbol}' at {path}:{line}" + (f":{column}" if column else "") + "."
            message += f" Names on that line: {', '.join(names)}." if names else " That line names nothing."
            return DefinitionResult("reference_not_found", symbol, mode, message,
                                    tuple({"name": n} for n in names))
        alias = _namespace_alias(ctx, path, symbol, located) if mode == "definition" else None
        if alias is not None:
            return alias
        answer = _answer(ctx, symbol, mode, located.resolution, path)
        if located.note:
            answer = dataclasses.replace(answer, message=" ".join(filter(None, (located.note, answer.message))))
        return answer


def _by_name(ctx: QueryContext, symbol, mode: str) -> DefinitionResult:
    """The seed's ``{symbol}`` form: the best definition named ``symbol`` (``name`` or dotted
    ``Class.member``) in the project, then the mode applied to it as to a resolved reference."""
    from .trace import _search  # trace builds on this module

    symbol = validate_symbol(symbol)
    with ctx.lock:
        ctx.fresh()
        found = _search(ctx, symbol)
        if not isinstance(found, tuple):
            return DefinitionResult(found.status, symbol, mode, found.message, found.suggestions)
        target = found[0]
        result = _answer(ctx, symbol, mode, Resolution("found", target, "name-only"))
        if result.status != "found":
            return result
        rivals = tuple(_rivals(ctx, symbol, result))
        message = None
        if rivals:
            message = f"{len(rivals) + 1} definitions are named '{symbol}'; this is the best one " \
                      "(found by name: give a file and line for the one a reference means)."
        return dataclasses.replace(result, resolution="name-only", message=message, candidates=rivals)


_RIVALS = 10


def _rivals(ctx: QueryContext, symbol: str, answer: DefinitionResult) -> list[dict]:
    """The other definitions a by-name answer could have been (a name looked up without a place
    is matched by name only: its rivals are listed, as for every name-only answer); the other
    half of the answer's own declaration/definition pair is not a rival."""
    parts = tuple(symbol.split("."))
    rivals = []
    for path in sorted(ctx.index.defined_in.get(parts[-1], ())):
        view = ctx.resolver.view(path)
        if view is None:
            continue
        for i in view.named(parts[-1]):
            other = Symbol(path, i)
            d = view.facts.definitions[i]
            nesting = ctx.qualified_path(other)
            if d.kind == "parameter" or nesting[-len(parts):] != parts or (path, d.line) == (answer.file, answer.line):
                continue
            # one half of a declaration/definition pair stands for both (the body, when listed)
            half = _implementation(ctx, other) if d.declaration else _declaration(ctx, other)
            if half is not None and half != other:
                hd = ctx.resolver.definition(half)
                if hd is not None and ((half.path, hd.line) == (answer.file, answer.line) or d.declaration):
                    continue
            rivals.append(_candidate(ctx, other))
            if len(rivals) == _RIVALS:
                return rivals   # the first ten in path order are listed: a wide name's others are not looked at
    return rivals


def _namespace_alias(ctx: QueryContext, path: str, symbol: str, located: Located) -> DefinitionResult | None:
    """`import * as ns from './m.js'`, then `ns.x`: where `ns` is defined is that import binding
    (``LanguageSpec.namespace_import_is_definition``); the module is named in the message and
    offered as a candidate to go on to."""
    resolution = located.resolution
    view = ctx.resolver.view(path)
    if not view.spec.namespace_import_is_definition or located.usage == "import" \
            or resolution.status != "found" or resolution.target is None or not resolution.target.is_module:
        return None
    name = symbol.split(".")[-1]
    bound = [imp for imp in view.facts.imports if imp.local == name and imp.kind == "namespace"
             and (imp.line, imp.column) <= (located.line, located.column)]
    if not bound:
        return None
    imp = bound[-1]
    lines = ctx.source_lines(path)
    module = resolution.target.path
    cell, shown_line = ctx.cell_position(path, imp.line)
    return DefinitionResult(
        "found", symbol, "definition", name=name, kind="module", language=view.facts.language, file=path,
        line=shown_line, column=imp.column, end_line=shown_line, end_column=imp.column + len(name),
        path=(name,), qualified_name=module, code=lines[imp.line - 1] if 0 < imp.line <= len(lines) else None,
        exported=False, resolved_from=({"file": path, "via": imp.statement},), resolution="import",
        mode_resolution="exact", cell=cell, message=f"`{name}` is the namespace import of `{module}`.",
        candidates=({"file": module, "line": 1, "column": 1, "kind": "module", "name": module},),
    )


def _answer(ctx: QueryContext, symbol: str, mode: str, resolution: Resolution,
            path: str | None = None) -> DefinitionResult:
    resolver = ctx.resolver
    chain = tuple({**ctx.file_fields(f), "via": via} for f, via in resolution.resolved_from)
    if resolution.status == "builtin":
        return DefinitionResult("builtin", symbol, mode, "Built-in symbol (no source available)")
    if resolution.status != "found":
        where = ctx.where_defined(symbol.split(".")[-1], limit=5)
        if resolution.via:
            message = f"'{symbol}' comes from outside the project, through `{resolution.via}`."
            importer = resolution.resolved_from[-1][0] if resolution.resolved_from else path
            if resolution.missing and importer:
                language = ctx.index.language_of(importer) or ""
                note = ctx.libraries.missing_note(resolution.missing, language)
                message += f" {note}" if note else ""
        elif resolution.why:
            message = f"'{symbol}' could not be resolved: {resolution.why}."
        else:
            message = f"'{symbol}' could not be resolved: no binding in scope and no definition in the project."
        if where:
            message += " Same-named definitions: " + ", ".join(f"{w['file']}:{w['line']}" for w in where) + "."
        return DefinitionResult("unresolved", symbol, mode, message, tuple(where), resolved_from=chain)
    target = resolution.target
    mode_resolution = "exact"
    if mode == "definition" and not _chosen_overload(ctx, target):
        target = _implementation(ctx, target)
        target = _overload_signature(ctx, target) or target
    elif mode == "declaration":
        declared = _declaration(ctx, target)
        if declared is None:
            mode_resolution = "fell_back_to_definition"
        else:
            target = declared
    elif mode == "type_definition":
        typed = _type_definition(ctx, target)
        if typed is None:
            mode_resolution = "fell_back_to_definition"
        else:
            target = typed
    candidates = tuple(_candidate(ctx, c) for c in resolution.candidates if c != target) \
        if resolution.kind == "name-only" else ()
    return describe(ctx, target, symbol, mode, resolution.kind, mode_resolution, chain, candidates)


def locate(ctx: QueryContext, path: str, symbol: str, line: int, column: int | None) -> Located | None:
    """Resolve the name ``symbol`` written at ``path:line[:column]``."""
    resolver = ctx.resolver
    name = symbol.split(".")[-1]
    view = resolver.view(path)
    on_line = [(i, r) for i, r in ctx.refs_on_line(path, line) if r.name == name]
    hits = on_line
    if column is not None:
        hits = [(i, r) for i, r in hits if r.column <= column < r.column + len(name)]
    if hits:
        note = None
        if column is None and len({r.column for _, r in hits}) > 1:
            note = f"'{name}' occurs {len({r.column for _, r in hits})} times on line {line}; " \
                   f"this is the first, at column {hits[0][1].column} (give a column to choose another)."
        return _located_reference(ctx, path, *hits[0], note)
    for j, imp in enumerate(view.facts.imports):
        spots = []
        if imp.name == name and imp.name_line == line:
            spots.append((imp.name_line, imp.name_column))
        if imp.local == name and imp.line == line:
            spots.append((imp.line, imp.column))
        for spot_line, spot_column in spots:
            if column is None or spot_column <= column < spot_column + len(name):
                return Located(resolver.follow_import(path, j), "import", spot_line, spot_column)
    found = _export_at(ctx, path, name, line, column)
    if found is not None:
        return found
    for i in view.named(name):
        d = view.facts.definitions[i]
        if d.line == line and (column is None or d.column <= column < d.column + len(name)):
            return Located(Resolution("found", Symbol(path, i), "scope"), "declaration", d.line, d.column)
    if column is not None:
        found = _module_segment(ctx, path, name, line, column) or _keyword_argument(ctx, path, name, line, column)
        if found is None and on_line and not _on_a_word(ctx, path, line, column):
            # the column falls between occurrences (on a space, a dot, a bracket, not on another
            # name): the closest one (seed 000: "pick closest match by column"), saying so
            i, ref = min(on_line, key=lambda h: (_distance(h[1].column, len(name), column), h[1].column))
            note = f"No '{name}' at column {column} of line {line}; the closest one, at column {ref.column}, is used."
            found = _located_reference(ctx, path, i, ref, note)
        return found
    return None


def _export_at(ctx: QueryContext, path: str, name: str, line: int, column: int | None) -> Located | None:
    """A name in an export list (`export { f }`, `export { f as g } from './m'`, CommonJS
    `module.exports = { f, g: h }`): the definition it exports (the extractor keeps export names
    out of the references, so they are looked up here). The exported name (`g`) is found on the
    export's line by its text."""
    resolver = ctx.resolver
    lines = ctx.source_lines(path)
    for export in resolver.view(path).facts.exports:
        if export.kind != "named" or export.line != line:
            continue
        spots = []
        if export.name == name:
            spots.append(export.column)
        if export.exported_as == name and 0 < line <= len(lines):   # (`exports.f = f`: its property too)
            text = lines[line - 1]
            spots += [m.start() + 1 for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text)
                      if m.start() + 1 != export.column]
        for spot in spots:
            if column is None or spot <= column < spot + len(name):
                return Located(resolver.module_member(path, export.exported_as), "import", line, spot)
    return None


def _on_a_word(ctx: QueryContext, path: str, line: int, column: int) -> bool:
    lines = ctx.source_lines(path)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if not (0 < column <= len(text) and _is_word(text[column - 1])):
        return False
    start = column - 1
    while start > 0 and _is_word(text[start - 1]):
        start -= 1
    return not text[start].isdigit()  # a number names nothing


def _distance(start: int, length: int, column: int) -> int:
    """How far ``column`` is from a name written at ``start`` (0 inside it)."""
    return start - column if column < start else max(0, column - (start + length - 1))


def _located_reference(ctx: QueryContext, path: str, i: int, ref, note: str | None = None) -> Located:
    resolver = ctx.resolver
    found = resolver.resolve_reference(path, i)
    bound = binding_at(resolver.view(path), ref.name, ref.line, ref.column)
    if found.status != "found" and bound is not None:
        # `const {a} = v` where v's type is unknown: the local name a binds
        return Located(Resolution("found", Symbol(path, bound), "scope"), "declaration", ref.line, ref.column, note)
    return Located(found, ref.usage, ref.line, ref.column, note)


def binding_at(view, name: str, line: int, column: int) -> int | None:
    """The definition whose name is written exactly here (a destructured key `{a}` is both a
    member's use and the local a's definition), or None."""
    definitions = view.facts.definitions
    for i in view.named(name):
        if definitions[i].line == line and definitions[i].column == column:
            return i
    return None


def _word_at(text: str, name: str, column: int) -> int | None:
    """The 0-based start of the word ``name`` covering 1-based ``column`` in ``text``."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if at <= column - 1 < end and (at == 0 or not _is_word(text[at - 1])) \
                and (end == len(text) or not _is_word(text[end])):
            return at
        at = text.find(name, at + 1)
    return None


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or ch == "$"


def _module_segment(ctx: QueryContext, path: str, name: str, line: int, column: int) -> Located | None:
    """A segment of a dotted module name in an import (`import a.b.c`, `from a.b import c`):
    the module (or package) that the name up to that segment names."""
    resolver = ctx.resolver
    view = resolver.view(path)
    lines = ctx.source_lines(path)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    start = _word_at(text, name, column)
    if start is None:
        return None
    for imp in view.facts.imports:
        module = imp.module
        if imp.line != line and imp.name_line != line or "." not in module.strip("."):
            continue
        at = text.find(module)
        if at < 0 or not at <= start < at + len(module):
            continue
        prefix = module[: start - at + len(name)]
        if not prefix.endswith(name):
            continue
        targets = resolver._modules(prefix, path, view.facts.language)
        if targets:
            return Located(Resolution("found", Symbol(targets[0].rstrip("/")), "import"), "import", line, start + 1)
    return None


def _keyword_argument(ctx: QueryContext, path: str, name: str, line: int, column: int) -> Located | None:
    """`create(quantity=2)`: the keyword names the called function's parameter."""
    lines = ctx.source_lines(path)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    start = _word_at(text, name, column)
    if start is None:
        return None
    after = text[start + len(name):].lstrip()
    if not after.startswith("=") or after.startswith("=="):
        return None
    # Back to the unmatched "(" that opens the argument list (a few lines at most).
    depth, row, col = 0, line - 1, start - 1
    while row >= max(0, line - 30):
        source = lines[row]
        while col >= 0:
            ch = source[col]
            if ch in ")]}":
                depth += 1
            elif ch in "([{":
                if depth == 0:
                    return _parameter_of_call(ctx, path, row + 1, source[:col].rstrip(), name, line, start + 1) \
                        if ch == "(" else None
                depth -= 1
            col -= 1
        row -= 1
        col = len(lines[row]) - 1 if row >= 0 else -1
    return None


def _parameter_of_call(ctx: QueryContext, path: str, callee_line: int, before: str, name: str,
                       line: int, column: int) -> Located | None:
    resolver = ctx.resolver
    end = len(before)
    start = end
    while start > 0 and _is_word(before[start - 1]):
        start -= 1
    callee = before[start:end]
    hits = [(i, r) for i, r in ctx.refs_on_line(path, callee_line) if r.name == callee and r.column == start + 1]
    if not callee or not hits:
        return None
    found = resolver.resolve_reference(path, hits[0][0])
    if found.status != "found" or found.target is None or found.target.is_module:
        return None
    function = found.target
    d = resolver.definition(function)
    if d is not None and d.kind in CLASS_KINDS:
        spec = resolver.view(function.path).spec
        constructors = [resolver.class_member(function, c) for c in spec.constructor_names]
        function = next((c for c in constructors if c is not None), None)
    if function is None:
        return None
    view = resolver.view(function.path)
    defs = view.facts.definitions
    for i in view.named(name):
        p = defs[i]
        if p.kind == "parameter" and p.container == function.index:
            return Located(Resolution("found", Symbol(function.path, i), found.kind), "read", line, column)
    return None


def _overload_signature(ctx: QueryContext, target: Symbol) -> Symbol | None:
    """The first overload signature of a TypeScript function or method that has some
    (``LanguageSpec.overload_signature_is_definition``)."""
    view = ctx.resolver.view(target.path)
    d = ctx.resolver.definition(target)
    if d is None or view is None or not view.spec.overload_signature_is_definition or d.kind not in _CALLABLE:
        return None
    defs = view.facts.definitions
    for i in view.named(d.name):   # (a file's definitions of the name: not every one made and compared)
        other = defs[i]
        if i != target.index and other.declaration and other.scope == d.scope \
                and other.container == d.container and other.kind == d.kind and other.start_byte < d.start_byte:
            return Symbol(target.path, i)
    return None


def _chosen_overload(ctx: QueryContext, target: Symbol) -> bool:
    """Whether ``target`` is the overload signature that a call's arguments chose (TypeScript:
    ``server.post(path, user, opts)`` answers the signature taking three): kept as it is."""
    d = ctx.resolver.definition(target)
    view = ctx.resolver.view(target.path)
    if d is None or not d.declaration or view is None or not view.spec.overload_signature_is_definition \
            or not view.spec.overloads_by_arity:
        return False
    # one of the signatures of a body in the same file (a `.d.ts` signature leads to its code)
    defs = view.facts.definitions
    return any(not defs[i].declaration and defs[i].container == d.container and defs[i].kind == d.kind
               for i in view.named(d.name))


def _implementation(ctx: QueryContext, target: Symbol) -> Symbol:
    """For an overload signature or forward declaration, the body when the same file has one."""
    d = ctx.resolver.definition(target)
    if d is None or not d.declaration:
        return target
    view = ctx.resolver.view(target.path)
    defs = view.facts.definitions
    for i in view.named(d.name):   # (every use of a TypeScript overload asks: not each definition made)
        other = defs[i]
        if other.scope == d.scope and other.container == d.container and not other.declaration \
                and other.kind == d.kind:
            return Symbol(target.path, i)
    return _in_counterparts(ctx, target, want_declaration=False) or target


_CALLABLE = ("function", "method", "constructor")
_NO_COUNTERPARTS = LanguageSpec.__dataclass_fields__["counterparts"].default  # languages without pairs


def _in_counterparts(ctx: QueryContext, target: Symbol, want_declaration: bool) -> Symbol | None:
    """The other half of a C/C++ declaration/definition pair, in the language's counterpart files
    (``LanguageSpec.counterparts``: a header's sources, a source's headers).

    Matched by name among callables, the one whose enclosing names agree best first: an
    out-of-line ``void Foo::bar() {}`` sits in a namespace, not in ``Foo``, so an exact
    qualified path is preferred but not required.
    """
    resolver = ctx.resolver
    d = resolver.definition(target)
    view = resolver.view(target.path)
    if d is None or view is None or d.kind not in _CALLABLE:
        return None
    names = ctx.qualified_path(target)
    qualifier = _qualifier(ctx, target.path, d)
    if qualifier and names[-2:-1] != (qualifier,):
        names = names[:-1] + (qualifier, d.name)
    defs = view.facts.definitions
    method_of = names[-2] if qualifier or (d.container >= 0 and defs[d.container].kind in CLASS_KINDS) else None
    best: tuple | None = None
    for path in view.spec.counterparts(target.path, resolver.modules):
        other_view = resolver.view(path)
        if other_view is None:
            continue
        for i in other_view.named(d.name):
            other = other_view.facts.definitions[i]
            if other.kind not in _CALLABLE or other.declaration != want_declaration:
                continue
            other_names = ctx.qualified_path(Symbol(path, i))
            other_qualifier = _qualifier(ctx, path, other)
            if other_qualifier and other_names[-2:-1] != (other_qualifier,):
                other_names = other_names[:-1] + (other_qualifier, other.name)
            if method_of and (len(other_names) < 2 or other_names[-2] != method_of):
                continue  # a method pairs only with the same class's (`Circle::area`, not `Shape::area`)
            shared = sum(1 for a, b in zip(reversed(names), reversed(other_names)) if a == b)
            rank = (-shared, -int(other.kind == d.kind))
            if best is None or rank < best[0]:
                best = (rank, Symbol(path, i))
        if best is not None:
            return best[1]  # the nearest counterpart file with a match wins
    if view.spec.counterparts is not _NO_COUNTERPARTS and not resolver.is_library(target.path):
        # No same-stem partner (`unity_internals.h` declares what `unity.c` defines): the one
        # project-wide free function of that name with the wanted role, when it is unique.
        others = [Symbol(path, i) for path in sorted(ctx.index.defined_in.get(d.name, ()))
                  if path != target.path and (v := resolver.view(path)) is not None
                  and v.spec.counterparts is view.spec.counterparts
                  for i in v.named(d.name)
                  if v.facts.definitions[i].kind in _CALLABLE and v.facts.definitions[i].container < 0
                  and v.facts.definitions[i].declaration == want_declaration]
        if len(others) == 1 and not method_of:
            return others[0]
    return None


def _declaration(ctx: QueryContext, target: Symbol) -> Symbol | None:
    resolver = ctx.resolver
    d = resolver.definition(target)
    if d is None:
        return None
    if d.declaration:
        return _first_overload(ctx, target)
    view = resolver.view(target.path)
    defs = view.facts.definitions
    for i in view.named(d.name):
        other = defs[i]
        if other.declaration and other.scope == d.scope and other.container == d.container:
            return Symbol(target.path, i)
    for stub_suffix, source_suffix in ((".pyi", ".py"), (".d.ts", ".ts"), (".h", ".c"), (".hpp", ".cpp")):
        if target.path.endswith(source_suffix):
            stub = target.path[: -len(source_suffix)] + stub_suffix
            if ctx.index.has_file(stub):
                found = _same_path_in(ctx, stub, ctx.qualified_path(target))
                if found is not None:
                    return found
    return _in_counterparts(ctx, target, want_declaration=True)


def _python_stub(ctx: QueryContext, target: Symbol, names: tuple[str, ...]) -> Symbol | None:
    """The same definition in a stub of ``target``'s module: ``mod.pyi`` beside ``mod.py``, else,
    for library code, ``pkg-stubs/mod.pyi`` in any import root (PEP 561)."""
    if not target.path.endswith(".py") or not names:
        return None
    stubs = [target.path[:-3] + ".pyi"]
    place = ctx.library_place(target.path)
    if place is not None and "/" in place.file:
        top, rest = place.file.split("/", 1)
        stubs += [f"{key}/{top}-stubs/{rest[:-3]}.pyi" for key in ctx.libraries.root_keys()]
    for stub in stubs:
        if ctx.index.has_file(stub):
            found = _same_path_in(ctx, stub, names)
            if found is not None:
                return found
    return None


def _qualifier(ctx: QueryContext, path: str, d) -> str | None:
    """``Foo`` for an out-of-line ``Foo::bar`` (the name written just before ``::bar``)."""
    before = [r for _, r in ctx.refs_on_line(path, d.line) if r.column < d.column]
    if not before:
        return None
    last = max(before, key=lambda r: r.column)
    if last.column + len(last.name) + 2 != d.column:
        return None
    return last.name


def _first_overload(ctx: QueryContext, target: Symbol) -> Symbol:
    d = ctx.resolver.definition(target)
    view = ctx.resolver.view(target.path)
    defs = view.facts.definitions
    for i in view.named(d.name):
        other = defs[i]
        if other.declaration and other.scope == d.scope and other.container == d.container:
            return Symbol(target.path, i)
    return target


def _same_path_in(ctx: QueryContext, path: str, names: tuple[str, ...]) -> Symbol | None:
    view = ctx.resolver.view(path)
    if view is None or not names:
        return None
    container = -1
    found = None
    for name in names:
        defs = view.facts.definitions
        found = next((i for i in view.named(name) if defs[i].container == container and defs[i].kind != "parameter"),
                     None)
        if found is None:
            return None
        container = found
    return Symbol(path, found)


def _paired_doc(ctx: QueryContext, target: Symbol, d) -> str | None:
    """The doc comment of the other half of a declaration/definition pair (a C/C++ header's
    prototype and its `.c`/`.cpp` body, an overload signature and its implementation): a doc
    written on either shows on both, as an editor's hover does."""
    if d.kind not in _CALLABLE and not d.declaration:
        return None
    other = _implementation(ctx, target) if d.declaration else _declaration(ctx, target)
    if other is None or other == target:
        return None
    paired = ctx.resolver.definition(other)
    return paired.doc if paired is not None else None


def _type_definition(ctx: QueryContext, target: Symbol) -> Symbol | None:
    resolver = ctx.resolver
    d = resolver.definition(target)
    if d is None:
        return None
    if d.kind in CLASS_KINDS:
        return target
    if d.kind in ("function", "method", "constructor") and d.returns_span:
        typed = resolver.type_of_annotation(target, d.returns_span, d.returns, 0)
    else:
        typed = resolver.type_of_definition(target)
    if typed is None or typed.symbol is None or typed.kind == "module":
        return None
    return typed.symbol


def _candidate(ctx: QueryContext, symbol: Symbol) -> dict:
    d = ctx.resolver.definition(symbol)
    fields = ctx.file_fields(symbol.path)
    if d is None:
        return {**fields, "line": 1, "column": 1, "kind": "module", "name": fields["file"]}
    return {**fields, "line": d.line, "column": d.column, "kind": d.kind,
            "name": ".".join(ctx.qualified_path(symbol))}


def describe(ctx: QueryContext, target: Symbol, symbol: str, mode: str = "definition",
             resolution: str = "scope", mode_resolution: str = "exact", chain: tuple = (),
             candidates: tuple = ()) -> DefinitionResult:
    """The full definition card of ``target``."""
    resolver = ctx.resolver
    view = resolver.view(target.path)
    language = view.facts.language if view else None
    if view is not None and not resolver.is_library(target.path):
        language = view.spec.shown_language(target.path, resolver.modules) or language
    place = ctx.library_place(target.path)
    file = place.file if place is not None else target.path
    library = place.to_dict() if place is not None else None
    if target.is_module:
        name = file.rsplit("/", 1)[-1]
        lines = ctx.source_lines(target.path) if view else []
        doc = None
        return DefinitionResult(
            "found", symbol, mode, name=name, kind="module", language=language, file=file,
            line=1, column=1, end_line=max(len(lines), 1), end_column=1, path=(name,),
            qualified_name=file, code="\n".join(lines[:_CODE_LINES]) if lines else None, doc=doc,
            exported=True, resolved_from=chain, resolution=resolution, mode_resolution=mode_resolution,
            candidates=candidates, library=library,
        )
    d = resolver.definition(target)
    defs = view.facts.definitions
    lines = ctx.source_lines(target.path)
    code_lines = lines[d.start_line - 1 : min(d.end_line, d.start_line - 1 + _CODE_LINES)]
    code = "\n".join(code_lines)
    if d.end_line - d.start_line + 1 > _CODE_LINES:
        code += f"\n… ({d.end_line - d.start_line + 1 - _CODE_LINES} more lines)"
    # (read from the view's tables, made once per file: a scan of a 2,000-definition file for
    # each of them cost more than the rest of the card)
    parameters = tuple(
        {"name": p.name, "type": p.type, "default": p.default}
        for p in map(defs.__getitem__, view.parameters(d.own_scope) if d.own_scope >= 0 else ())
    )
    members = ()
    if d.kind in CLASS_KINDS or d.kind in ("namespace", "module", "impl"):
        # All of them, each name once (its first definition): renderers that must be short cut
        # the list and say how many they left out.
        members = tuple(
            {"name": m.name, "kind": m.kind, "signature": whole_tokens(m.signature or m.type or "")}
            for m in (defs[indices[0]] for indices in view.members.get(target.index, {}).values())
        )
    # Java: methods sharing a name are overloads; TypeScript (which tells them apart by arity
    # too): only its signatures are
    by_name = view.spec.overloads_by_arity and not view.spec.overload_signature_is_definition
    overloads = tuple(
        {"signature": o.signature, "line": o.line, "file": file}
        for i, o in ((i, defs[i]) for i in view.named(d.name))
        if i != target.index and o.scope == d.scope and o.container == d.container
        and o.kind == d.kind and (o.declaration or "overload" in " ".join(o.decorators) or by_name)
    )
    cell, line = ctx.cell_position(target.path, d.line)
    _, end_line = ctx.cell_position(target.path, d.end_line)
    path = ctx.qualified_path(target)
    typed = _python_stub(ctx, target, path)
    if typed is not None:
        # a stub (`mod.pyi` beside `mod.py`, a `pkg-stubs` package) types what the source leaves
        # untyped: signature and parameters from it, code and docs from the source
        stub_view = resolver.view(typed.path)
        sd = stub_view.facts.definitions[typed.index]
        d_signature, returns = sd.signature, sd.returns or d.returns
        stub_defs = stub_view.facts.definitions
        parameters = tuple(
            {"name": p.name, "type": p.type, "default": p.default}
            for p in map(stub_defs.__getitem__, stub_view.parameters(sd.own_scope) if sd.own_scope >= 0 else ())
        ) or parameters
    else:
        d_signature, returns = d.signature, d.returns
    return DefinitionResult(
        "found", symbol, mode, name=d.name, kind=resolver.kind_of(target), language=language, file=file,
        line=line, column=d.column, end_line=end_line, end_column=d.end_column, cell=cell, path=path,
        qualified_name=".".join(path), signature=whole_tokens(d_signature) or None, parameters=parameters,
        returns=returns, generics=d.generics, modifiers=d.modifiers, decorators=d.decorators,
        exported=d.exported, declaration=d.declaration, doc=d.doc or _paired_doc(ctx, target, d), code=code,
        resolved_from=chain, members=members, overloads=overloads, candidates=candidates,
        resolution=resolution, mode_resolution=mode_resolution, library=library,
    )
