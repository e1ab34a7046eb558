"""find_references: every place in the project that uses the symbol named at FILE:LINE[:COL].

Each candidate use (a reference or import with the same name, found through the name index)
is resolved, and kept only when it resolves to the same definition: precision over recall.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict

from ..errors import InvalidRequest
from ..facts import indices_of
from ..resolve.resolver import CLASS_KINDS, Resolution, Symbol
from ..results import Location, Reference, ReferencesResult
from .context import QueryContext, validate_flag, validate_position, validate_symbol
from .definition import _CALLABLE, _declaration, _implementation, binding_at, locate
from .kept_answers import dependencies_of, still_holds

__all__ = ["find_references", "references_to"]

_CONTEXT_CHARS = 160
_VALUE_KINDS = frozenset({"variable", "constant", "field", "property", "enum_member"})
_KEPT_REFERENCES = 100_000   # references in the answers kept for a repeated question (~18 MB)
# An answer that took longer than this to work out, or read more files than this (quick here only
# because earlier answers of this process had read them: seconds in a new one), is stored for
# later generations and processes (kept_answers.py); another is cheaper to work out again than
# to check and read back.
KEEP_AFTER_SECONDS = 0.02
KEEP_FROM_FILES = 16


def find_references(ctx: QueryContext, symbol, file, line, column=None, include_declaration=False,
                    cell=None) -> ReferencesResult:
    line, column = validate_position(line, column)
    include_declaration = validate_flag(include_declaration, "include_declaration")
    path = ctx.file_argument(file)
    if symbol is None and column is not None:
        with ctx.lock:  # a cursor position without a name: the identifier there
            ctx.fresh()
            if not ctx.index.has_file(path):
                message, suggestions = ctx.not_indexed_message(path, None)
                return ReferencesResult("file_not_indexed", "", message, suggestions)
            symbol = ctx.identifier_at(path, ctx.virtual_line(path, cell, line), column)
            if symbol is None:
                raise InvalidRequest(*_nothing_at(ctx, path, cell, line, column))
    symbol = validate_symbol(symbol)
    with ctx.lock:
        ctx.fresh()
        if not ctx.index.has_file(path):
            message, suggestions = ctx.not_indexed_message(path, symbol)
            return ReferencesResult("file_not_indexed", symbol, message, suggestions)
        line = ctx.virtual_line(path, cell, line)
        located = locate(ctx, path, symbol, line, column)
        if located is None:
            names = ctx.names_on_line(path, line)
            message = f"No reference named '{symbol}' at {path}:{line}."
            message += f" Names on that line: {', '.join(names)}." if names else " That line names nothing."
            return ReferencesResult("reference_not_found", symbol, message, tuple({"name": n} for n in names))
        resolution = located.resolution
        if resolution.status != "found":
            status = "builtin" if resolution.status == "builtin" else "unresolved"
            message = "Built-in symbol (no source available)" if status == "builtin" else \
                f"'{symbol}' does not resolve to a definition in the project" + \
                (f" (it comes through `{resolution.via}`)." if resolution.via else ".")
            return ReferencesResult(status, symbol, message)
        target = _implementation(ctx, resolution.target)
        # `const {a} = v`: the key names v's member a and binds a local a; both are meant
        bound = binding_at(ctx.resolver.view(path), symbol.split(".")[-1], located.line, located.column)
        also = {Symbol(path, bound)} if bound is not None and Symbol(path, bound) != target else set()
        return references_to(ctx, target, symbol, include_declaration, also)


def _nothing_at(ctx: QueryContext, path: str, cell, line: int, column: int) -> tuple[str, str]:
    """Why a bare position names no symbol (past the end of the file, or not on a name), and
    which argument is wrong."""
    where = f"{path}:{line}:{column}" if cell is None else f"{path} cell {cell}:{line}:{column}"
    virtual = ctx.virtual_line(path, cell, line)
    total = len(ctx.source_lines(path))
    if not 0 < virtual <= total:
        return f"no symbol at {where}: line {line} is past the end of the file ({total} lines)", "line"
    names = ctx.names_on_line(path, virtual)
    return (f"no symbol at {where}: column {column} is not on a name; "
            + (f"names on that line: {', '.join(names)}" if names else "that line names nothing")), "column"


def references_to(ctx: QueryContext, target: Symbol, symbol: str, include_declaration: bool = False,
                  also: set[Symbol] = frozenset()) -> ReferencesResult:
    # An answer holds until a file changes (the resolver and its memo are new then), and the same
    # symbol is often asked for again: listing a popular one (assertEqual: 34,000 uses in 700
    # files) takes a quarter of a second even with every reference already resolved.
    answers = ctx.resolver.memo.setdefault(("references.answers",), OrderedDict())
    key = (target, include_declaration, frozenset(also))
    answer = answers.get(key)
    if answer is None:
        answer = answers[key] = _kept_or_worked_out(ctx, target, include_declaration, also)
        kept = sum(len(a[1]) for a in answers.values())
        while kept > _KEPT_REFERENCES and len(answers) > 1:  # the least recently asked go first
            kept -= len(answers.popitem(last=False)[1][1])
    else:
        answers.move_to_end(key)
    definition, ordered, re_exports = answer
    return ReferencesResult("found", symbol, None, (), definition, ordered, tuple(dict(e) for e in re_exports))


def _kept_or_worked_out(ctx: QueryContext, target: Symbol, include_declaration: bool, also: set[Symbol]) -> tuple:
    """The answer an earlier generation or process stored, if what it was worked out from is
    unchanged; else the answer worked out now (and stored, when that took a while)."""
    store = ctx.answer_store
    key = ("references", target.path, target.index, include_declaration,
           tuple(sorted((s.path, s.index) for s in also)))
    kept = store.load(key) if store is not None else None
    if kept is not None and still_holds(ctx, kept[0]):
        try:
            return _answer_from_rows(kept[1])
        except (TypeError, ValueError):
            pass   # a row of another shape: worked out again, and replaced
    started = time.perf_counter()
    with ctx.resolver.recording() as read:
        answer = _references_to(ctx, target, include_declaration, also)
    if store is not None and (time.perf_counter() - started >= KEEP_AFTER_SECONDS
                              or sum(not what.startswith("*") for what in read) >= KEEP_FROM_FILES):
        store.save(key, dependencies_of(ctx, read), _answer_to_rows(answer))
    return answer


def _answer_to_rows(answer: tuple) -> tuple:
    definition, ordered, re_exports = answer
    library = json.dumps(definition.library, sort_keys=True) if definition.library is not None else None
    return ((definition.file, definition.line, definition.column, definition.kind, definition.name,
             definition.cell, library),
            tuple((r.file, r.line, r.column, r.usage, r.test, r.context, r.resolution, r.cell) for r in ordered),
            tuple((e["file"], e["exported_as"], e["from"], e["line"]) for e in re_exports))


def _answer_from_rows(rows) -> tuple:
    (file, line, column, kind, name, cell, library), ordered, re_exports = rows
    if any(len(row) != 8 for row in ordered) or any(len(row) != 4 for row in re_exports):
        raise ValueError("answer rows of another shape")
    definition = Location(file, line, column, kind, name, cell, json.loads(library) if library is not None else None)
    return definition, tuple(Reference(*row) for row in ordered), tuple(
        {"file": f, "exported_as": a, "from": m, "line": n} for f, a, m, n in re_exports)


def _references_to(ctx: QueryContext, target: Symbol, include_declaration: bool, also: set[Symbol]) -> tuple:
    """(definition, references, re-exports) of ``target``."""
    resolver = ctx.resolver
    group = resolver.variable_group(target)
    target = group[0]
    family = _hierarchy_family(resolver, target)
    members = set(group) | _twins(resolver, target) | family | set(also)
    d = resolver.definition(target)
    name = d.name if d is not None else _module_name(target.path)
    found: dict[tuple[str, int, int], Reference] = {}
    re_exports: list[dict] = []
    # The symbol travels under other names: `import {a as b}`, `export {a as b} from`, a default
    # export imported as anything. Each name found bound to it is searched for in turn.
    names = [name]
    queued = {name}
    # the symbol's own file too, unless it is library code: only the project's uses count
    own = set() if resolver.is_library(target.path) else {target.path}
    local = _function_local(resolver, members, target.path)
    while names:
        current = names.pop()
        if local:  # no other file can name it: its own file holds every use
            candidates = own
        else:
            # "*": the files with an `export *` (a barrel may re-export the name without naming it)
            resolver.note_users(current)   # a file that starts naming it may use it
            barrels = set()
            if current != "default":
                resolver.note_users("*")
                barrels = ctx.index.used_in.get("*", set())
            candidates = set(ctx.index.used_in.get(current, ())) | barrels | own
        for path in sorted(candidates):
            for alias in _uses_in_file(ctx, path, current, members, target, found, re_exports):
                if alias not in queued:
                    queued.add(alias)
                    names.append(alias)
    re_exports = list({(e["file"], e["exported_as"], e["line"]): e for e in re_exports}.values())
    for other in group[1:]:
        od = resolver.definition(other)
        merged = od.kind not in _VALUE_KINDS  # a merged declaration, not a later assignment
        if merged and not include_declaration:
            continue
        lines = ctx.source_lines(other.path)
        cell, shown_line = ctx.cell_position(other.path, od.line)
        text = lines[od.line - 1].strip() if 0 < od.line <= len(lines) else ""
        found[(other.path, od.line, od.column)] = Reference(other.path, shown_line, od.column,
                                                            "declaration" if merged else "write",
                                                            ctx.is_test(other.path), text[:_CONTEXT_CHARS], "scope", cell)
    for other in sorted(family, key=lambda m: (m.path, m.index)):
        # an override (or what it overrides) is declared under the same name: a use of it
        od = resolver.definition(other)
        lines = ctx.source_lines(other.path)
        cell, shown_line = ctx.cell_position(other.path, od.line)
        text = lines[od.line - 1].strip() if 0 < od.line <= len(lines) else ""
        found.setdefault((other.path, od.line, od.column), Reference(
            other.path, shown_line, od.column, "declaration", ctx.is_test(other.path), text[:_CONTEXT_CHARS],
            "member", cell))
    if include_declaration and d is not None:
        # the definition, and the other half of its pair: a C/C++ header's prototype of a body
        # in a `.c`/`.cpp`, a TypeScript overload signature, a `.pyi` stub
        declared = _declaration(ctx, target) if d.kind in _CALLABLE and not d.declaration else None
        for place in (target, declared):
            pd = resolver.definition(place) if place is not None else None
            if pd is None or resolver.is_library(place.path):
                continue
            lines = ctx.source_lines(place.path)
            cell, shown_line = ctx.cell_position(place.path, pd.line)
            text = lines[pd.line - 1].strip() if 0 < pd.line <= len(lines) else ""
            found[(place.path, pd.line, pd.column)] = Reference(
                place.path, shown_line, pd.column, "declaration", ctx.is_test(place.path), text[:_CONTEXT_CHARS],
                "scope", cell)
    library = {path for path in {k[0] for k in found} if resolver.is_library(path)}
    ordered = tuple(found[k] for k in sorted(found) if k[0] not in library)
    definition = None
    fields = ctx.file_fields(target.path)
    if d is not None:
        cell, shown_line = ctx.cell_position(target.path, d.line)
        definition = Location(fields["file"], shown_line, d.column, d.kind, d.name, cell, fields.get("library"))
    else:
        definition = Location(fields["file"], 1, 1, "module", name, library=fields.get("library"))
    return definition, ordered, tuple(re_exports)


# What a function body may bind whose name no other file can write (members are not bound in
# the body's scope: `self.x`, a local class's methods).
_LOCAL_KINDS = ("variable", "constant", "parameter", "function", "class")


def _function_local(resolver, symbols: set[Symbol], path: str) -> bool:
    """Whether every symbol is bound inside a function body of ``path`` (a local variable, a
    parameter, a nested function or class). Other files reach a file's names only through its
    top-level bindings, its exports and the members of its classes and namespaces, so such a
    symbol's uses are all in its own file: the other files that read a same-named local (`data`,
    `s`, a test's `class A`: hundreds) need not be resolved."""
    for symbol in symbols:
        d = resolver.definition(symbol)
        if symbol.path != path or d is None or d.kind not in _LOCAL_KINDS or d.scope < 0 or d.container < 0:
            return False
        facts = resolver.view(path).facts
        function = facts.definitions[d.container]
        if function.kind not in _CALLABLE or function.own_scope < 0:
            return False
        # bound in the function's scope or a block inside it (not `global x` at the top)
        scope, steps = d.scope, 0
        while scope >= 0 and scope != function.own_scope and steps < 256:
            scope, steps = facts.scopes[scope].parent, steps + 1
        if scope != function.own_scope:
            return False
    return bool(symbols)


def _module_name(path: str) -> str:
    """The name a module is imported by: its file's stem, a package's folder (``json/__init__.py``)."""
    parts = path.split("/")
    stem = parts[-1].split(".")[0]
    return parts[-2] if stem == "__init__" and len(parts) > 1 else stem


def _uses_in_file(ctx: QueryContext, path: str, name: str, members: set[Symbol], target: Symbol,
                  found: dict, re_exports: list[dict]) -> list[str]:
    """Add the uses of ``name`` in ``path`` that resolve to the symbol; return the other names
    the file binds it to (import and export aliases; "default" for a default export)."""
    resolver = ctx.resolver
    view = resolver.view(path)
    if view is None:
        return []
    facts = view.facts
    test = ctx.is_test(path)
    notebook = path.endswith(".ipynb")
    lines = data = None
    aliases: list[str] = []

    def add(line, column, usage, resolution, at=None, before=None):
        nonlocal lines, data
        if at is None and before is not None:   # (an import: its statement starts on or above its line)
            if data is None:
                data = ctx.source_bytes(path)
            at = _line_start(data, line, before)
        if at is not None:
            # the line around a place's offset, cut from the file's bytes: splitting every file
            # of a popular name into lines was a quarter of its answer (`support`: 330 files)
            if data is None:
                data = ctx.source_bytes(path)
            end = data.find(b"\n", at)
            text = data[data.rfind(b"\n", 0, at) + 1:end if end >= 0 else len(data)].decode("utf-8", "replace").strip()
        else:
            if lines is None:
                lines = ctx.source_lines(path)
            text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        cell, shown_line = ctx.cell_position(path, line) if notebook else (None, line)
        found[(path, line, column)] = Reference(path, shown_line, column, usage, test,
                                                text[:_CONTEXT_CHARS], resolution, cell)

    refs = facts.references
    named = _references_named(resolver, path, facts, name)
    # a name bound once at the top: its bare reads all resolve alike, found once (not once a use)
    alike = resolver.bare_reads(path, name) if len(named) > 1 else None
    # `self.name`, `parser.name`: one answer for the reads through one receiver name in one scope
    # where that name has one binding and one type (Resolver.read_alike_in)
    through: dict[tuple[str, int], Resolution | None] = {}
    last, kept = None, False
    for i in named:
        ref = refs[i]
        receiver = ref.receiver
        if alike is not None and receiver is False and ref.usage != "type-ref":
            resolution = alike
        elif type(receiver) is tuple and len(receiver) == 2 and receiver[0] == "r" and len(named) > 1:
            held = refs[receiver[1]]
            key = (held.name, held.scope)
            resolution = through.get(key) if held.receiver is False else None
            if resolution is None:
                resolution = resolver.resolve_reference(path, i, ref)
                if held.receiver is False and key not in through:
                    through[key] = resolution if _alike_through(resolver, path, held, resolution) else None
        else:
            resolution = resolver.resolve_reference(path, i, ref)
        if resolution is not last:   # (equal answers are one object: most uses repeat the last one's)
            last = resolution
            kept = resolution.status == "found" and resolution.kind != "name-only" and \
                _same(ctx, resolution.target, members)
        if kept:
            add(ref.line, ref.column, ref.usage, resolution.kind, ref.start_byte)
    for i, token in facts.shorthand_keys:  # `{percent}`: also the member percent of the literal's type
        if facts.reference_name(i) == name:
            ref = refs[i]
            resolution = resolver.member_of_token(path, token, name)
            if resolution.status == "found" and _same(ctx, resolution.target, members):
                add(ref.line, ref.column, "read", resolution.kind, ref.start_byte)
    for j, imp in enumerate(facts.imports):
        imported = "default" if imp.kind == "default" else imp.name
        if imported != name and imp.local != name:
            continue
        resolution = resolver.follow_import(path, j)
        if resolution.status == "found" and _same(ctx, resolution.target, members):
            if imp.name == name:
                add(imp.name_line, imp.name_column, "import", "import", before=imp.start_byte)
            else:
                add(imp.line, imp.column, "import", "import", before=imp.start_byte)
            if imp.local and imp.local != name:
                aliases.append(imp.local)
    for export in facts.exports:
        plain_default = export.kind == "default" and export.value is not None and export.value[0] == "r" \
            and facts.references[export.value[1]].name == name
        if export.exported_as != name and export.name != name and not plain_default:
            continue
        if export.kind == "star":
            continue
        exported_as = export.exported_as or name
        resolution = resolver.module_member(path, exported_as)
        if resolution.status == "found" and _same(ctx, resolution.target, members):
            if path != target.path or export.module is not None:
                re_exports.append({"file": path, "exported_as": exported_as, "from": export.module or path,
                                   "line": export.line})
            if export.kind == "named" and export.name == name:
                add(export.line, export.column, "import", "import")  # `export {name}` names it too
            if exported_as != name:
                aliases.append(exported_as)
    if name != "default" and any(e.kind == "star" and e.module for e in facts.exports) \
            and not any(e.exported_as == name for e in facts.exports):
        # `export * from './x.js'` re-exports the symbol when its name resolves through it
        resolution = resolver.module_member(path, name)
        if resolution.status == "found" and _same(ctx, resolution.target, members) and path != target.path:
            via = next((e for e in facts.exports if e.kind == "star" and e.module
                        and _star_leads(ctx, path, e, name, members)), None)
            if via is not None:
                re_exports.append({"file": path, "exported_as": name, "from": via.module, "line": via.line})
    return aliases


def _line_start(data: bytes, line: int, before: int) -> int | None:
    """Where 1-based ``line`` starts in ``data``, found from ``before``, an offset on that line or
    on one above it (None when it is not): counted, not split into lines."""
    first = data.count(b"\n", 0, before) + 1   # the line ``before`` is on
    if not 0 <= before <= len(data) or line < first:
        return None
    at = data.rfind(b"\n", 0, before) + 1
    for _ in range(line - first):
        at = data.find(b"\n", at) + 1
        if at == 0:
            return None
    return at


def _alike_through(resolver, path: str, held, resolution: Resolution) -> bool:
    """Whether the other reads of the same member through receiver ``held``'s name, in its scope,
    have ``resolution`` too: the receiver resolves alike there, and no overload is chosen per call."""
    return resolver.read_alike_in(path, held.scope, held.name) and not resolver.chooses_overload(resolution)


def _references_named(resolver, path: str, facts, name: str) -> list[int]:
    """Indices of the file's references called ``name``. The names are listed once while the file
    is unchanged (8 bytes a reference), and searched by ``list.index`` at C speed: a popular
    name's files are searched again by each query of it, and most of a file's references are to
    other names (test_socket.py: 40,000 of them)."""
    key = ("references.names", path)
    names = resolver.kept.get(key)
    if names is None:
        names = resolver.kept[key] = facts.reference_column("name")
    return indices_of(names, name)


def _star_leads(ctx: QueryContext, path: str, export, name: str, members: set[Symbol]) -> bool:
    resolver = ctx.resolver
    language = resolver.view(path).facts.language
    for module in resolver.modules.resolve(export.module, path, language):
        found = resolver.module_member(module, name, star=True)
        if found.status == "found" and _same(ctx, found.target, members):
            return True
    return False


def _hierarchy_family(resolver, target: Symbol, limit: int = 200) -> set[Symbol]:
    """A member and its namesakes up and down its type's hierarchy: what it overrides and what
    overrides it (a call through the base may run either), as TypeScript's find-all-references
    and VS Code list them."""
    d = resolver.definition(target)
    if d is None or d.container < 0 or d.kind == "parameter":
        return set()
    owner = Symbol(target.path, d.container)
    owner_d = resolver.definition(owner)
    if owner_d is None or owner_d.kind not in CLASS_KINDS:
        return set()

    def direct(klass: Symbol) -> Symbol | None:
        view = resolver.view(klass.path)
        indices = view.members.get(klass.index, {}).get(d.name) if view else None
        return Symbol(klass.path, indices[0]) if indices else None

    chain = resolver.mro(owner)
    family = {m for m in map(direct, chain[1:]) if m is not None}
    # Overriders are found from the topmost class that declares the member, so siblings that
    # override the same base member are in the family; a chain that ends in a type from
    # outside (`extends Error`) joins every project class extending that same outside type.
    roots = [next(c for c in reversed(chain) if direct(c) is not None)]
    roots += _outside_base_siblings(resolver, chain[-1], limit)
    family.update(m for m in map(direct, roots) if m is not None)
    # The same overriders two ways: down from the roots through every subclass (each base's
    # subclasses are found in the files naming it: `TestCase`, 700 files), or up from each class
    # that declares a member of that name (`assertRaises`: 2 files). The cheaper is taken.
    if _upward_is_cheaper(resolver, roots, d.name):
        family |= _overriders_above(resolver, roots, d.name, direct)
    else:
        family |= _overriders_below(resolver, roots, direct, limit)
    family.discard(target)
    return family


def _upward_is_cheaper(resolver, roots: list[Symbol], name: str) -> bool:
    """Fewer files declare ``name`` than name the roots (what a walk down reads first)."""
    naming = sum(len(resolver.index.used_in.get(n, ())) for n in {resolver.definition(r).name for r in roots})
    return len(resolver.index.defined_in.get(name, ())) < naming


def _overriders_below(resolver, roots: list[Symbol], direct, limit: int) -> set[Symbol]:
    """The members ``direct`` finds in the classes below ``roots`` (their subclasses, theirs …,
    up to ``limit`` classes)."""
    found: set[Symbol] = set()
    seen, queue = set(roots), list(roots)
    while queue and len(seen) < limit:
        for sub in _subclasses(resolver, queue.pop()):
            if sub not in seen:
                seen.add(sub)
                queue.append(sub)
                member = direct(sub)
                if member is not None:
                    found.add(member)
    return found


def _overriders_above(resolver, roots: list[Symbol], name: str, direct) -> set[Symbol]:
    """The members ``direct`` finds in the classes that declare a member ``name`` and have one of
    ``roots`` among their bases (their MRO)."""
    resolver.note_name(name)   # a file that starts declaring it may override
    roots = set(roots)
    found: set[Symbol] = set()
    for path in sorted(resolver.index.defined_in.get(name, ())):
        view = resolver.view(path)
        if view is None:
            continue
        defs = view.facts.definitions
        owners = {defs[i].container for i in view.named(name) if defs[i].kind != "parameter"
                  and 0 <= defs[i].container < len(defs) and defs[defs[i].container].kind in CLASS_KINDS}
        for owner in sorted(owners):
            klass = Symbol(path, owner)
            if klass not in roots and not roots.intersection(resolver.mro(klass)):
                continue
            member = direct(klass)
            if member is not None:
                found.add(member)
    return found


def _subclasses(resolver, base: Symbol) -> list[Symbol]:
    """The project's classes that extend or implement ``base`` directly, in file order. Kept
    across queries and edits with what it read: a common base (`TestCase`) is named in hundreds
    of files, each read to find them, and every member of every class under it asks again."""
    key = ("references.subclasses", base)
    found = resolver.recall(key)
    if found is not None:
        return found
    found = []
    with resolver.recording() as read:
        base_name = resolver.definition(base).name
        resolver.note_users(base_name)   # a file that starts naming it may extend it
        for path in sorted(resolver.index.used_in.get(base_name, ())):
            found += [Symbol(path, i) for i in _classes_by_base(resolver, path).get(base, ())]
    resolver.remember(key, found, read)
    return found


def _classes_by_base(resolver, path: str) -> dict[Symbol, list[int]]:
    """Each base a class of ``path`` extends or implements -> those classes, in file order. Kept
    per file with what it read: walking a hierarchy down asks for the subclasses of each of its
    classes, and the file declaring most of them (zod's schemas.ts: 200 classes) was read again,
    and its classes' bases typed again, for every one."""
    key = ("references.bases_in", path)
    found = resolver.recall(key)
    if found is not None:
        return found
    found = {}
    with resolver.recording() as read:
        view = resolver.view(path)
        if view is not None:
            # read as columns: a file naming the base is not made into definitions to find its classes
            column = view.facts.definition_column
            extends, implements = column("extends"), column("implements")
            for i, kind in enumerate(column("kind")):
                if kind not in CLASS_KINDS or not (extends[i] or implements[i]):
                    continue
                for token in extends[i] + implements[i]:
                    typed = resolver.infer(path, token, 1)
                    if typed is not None and typed.symbol is not None:
                        classes = found.setdefault(typed.symbol, [])
                        if not classes or classes[-1] != i:
                            classes.append(i)
    resolver.remember(key, found, read)
    return found


def _outside_base_siblings(resolver, top: Symbol, limit: int) -> list[Symbol]:
    """Project classes that extend the same type from outside the project as ``top`` does. Kept
    with what it read: every member of ``top`` asks again, and a common outside base (Python's
    ``Exception``) is extended in hundreds of files."""
    key = ("references.outside_siblings", top, limit)
    found = resolver.recall(key)
    if found is None:
        with resolver.recording() as read:
            found = _find_outside_base_siblings(resolver, top, limit)
        resolver.remember(key, found, read)
    return list(found)


def _find_outside_base_siblings(resolver, top: Symbol, limit: int) -> list[Symbol]:
    view = resolver.view(top.path)
    d = resolver.definition(top)
    refs = view.facts.references if view else []
    names = set()
    for token in d.extends if d is not None else ():
        if isinstance(token, tuple) and len(token) == 2 and token[0] == "r" and 0 <= token[1] < len(refs) \
                and refs[token[1]].name != view.spec.root_class:   # every class's base relates none
            found = resolver.resolve_reference(top.path, token[1])
            if found.status != "found":  # a library or built-in base
                names.add(refs[token[1]].name)
    siblings: list[Symbol] = []
    for name in sorted(names):
        resolver.note_users(name)   # a file that starts naming it may extend it
        for path in sorted(resolver.index.used_in.get(name, ())):
            other = resolver.view(path)
            if other is None:
                continue
            column = other.facts.definition_column   # (classes found in the columns: none made to look)
            extends = column("extends")
            for i, kind in enumerate(column("kind")):
                if kind not in CLASS_KINDS or Symbol(path, i) == top or len(siblings) >= limit:
                    continue
                for token in extends[i]:
                    if isinstance(token, tuple) and len(token) == 2 and token[0] == "r" \
                            and other.facts.references[token[1]].name == name \
                            and resolver.resolve_reference(path, token[1]).status != "found":
                        siblings.append(Symbol(path, i))
                        break
    return siblings


def _twins(resolver, target: Symbol) -> set[Symbol]:
    """Definitions written by the same name (`constructor(private x: T)` is a parameter and a
    property): one symbol to the user, whichever of the two a position names."""
    d = resolver.definition(target)
    view = resolver.view(target.path) if d is not None else None
    if view is None:
        return set()
    defs = view.facts.definitions
    return {Symbol(target.path, i) for i in view.named(d.name) if defs[i].name_byte == d.name_byte}


def _same(ctx: QueryContext, found: Symbol, targets: set[Symbol]) -> bool:
    return found in targets or _implementation(ctx, found) in targets
