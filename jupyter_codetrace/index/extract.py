"""Run a language's ``.scm`` over one file and turn the matches into ``FileFacts``.

Pure and per-file: it never reads another file, so it caches by content hash and runs in
worker processes. It reads capture names only (see ``languages/captures.py``), never grammar
node types.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import replace
from bisect import bisect_left, bisect_right
from heapq import merge
from functools import lru_cache

from ..facts import Definition, Export, FileFacts, Import, Scope, reference_blob_of_columns
from ..languages.captures import DEFINITION_KINDS, definition_capture
from ..languages.spec import LanguageSpec
from ..positions import LineMap
from .parsing import needs_whole_query, parse, pattern_captures, run_query

__all__ = ["extract_file"]

_DEFINITION_KEYS = {definition_capture(kind): kind for kind in DEFINITION_KINDS}
_SCOPE_KEYS = {"scope": "block", "scope.function": "function", "scope.class": "class"}
_OWNED_KEYS = ("doc", "decorator", "modifier")
_OWNERS = tuple((key, f"{key}.owner") for key in _OWNED_KEYS)
_WRAPPED = tuple((how, f"expression.{how}") for how in ("inner", "cast", "element", "items"))
_CALLABLE_KINDS = {"function", "method", "constructor"}
_SCOPE_OWNER_KINDS = _CALLABLE_KINDS | {"class", "interface", "struct", "trait", "impl", "enum",
                                        "module", "namespace", "type"}
# Captures of a definition match and the field of the raw definition each fills: the first node
# of a match that sets it (the first match wins), every node of the lists, True for the flags.
_DEFINITION_FIELDS = {
    "definition.params": "params", "definition.returns": "returns", "definition.generics": "generics",
    "definition.body": "body", "definition.type": "type", "definition.default": "default",
    "definition.value": "value", "definition.receiver": "receiver", "definition.item": "item",
    "definition.entered": "entered", "definition.pattern": "pattern", "definition.unpacked": "unpacked",
    "definition.type_arguments": "type_arguments", "definition.qualifier": "qualifier",
    "definition.extends": "extends", "definition.implements": "implements",
    "definition.alternative": "alternatives", "definition.callback": "callback", "definition.keyed": "keyed",
    "declaration": "declaration", "hoist": "hoist", "definition.promoted": "promoted",
}
_DEFINITION_LISTS = ("extends", "implements", "alternatives")
_DEFINITION_FLAGS = {"declaration", "hoist", "promoted"}
_MEMBER_OWNER_KINDS = {"class", "interface", "struct", "trait", "enum", "namespace", "module", "impl"}
_REFERENCE_MARKS = {"reference.write", "reference.type"}   # marks of a reference (the others name none)
_MARKS = _REFERENCE_MARKS | {"ignore", "object.holder"}
_OBJECT_OWNERS = {"constant", "variable", "function", "class"}   # what `x.m = …` gives members (TS/JS)
_PROTOTYPE_OWNERS = {"function", "class"}                        # … and `x.prototype.m = …`
_PROPERTY_DECORATORS = {"property", "cached_property", "functools.cached_property"}
_WHITESPACE = re.compile(r"\s+")
_SIGNATURE_LIMIT = 400
_SPLATS = (b"*", b"...")   # `*xs` / `**kw` (Python), `...xs` (JavaScript)


# What one file may cost (issue 16, item 10). Extraction holds every query match of a file at
# once, about 1 KB of memory per syntax node: 50,000 one-line statements took 210 MB, a minified
# 1.5 MB JavaScript file 725 MB. Past this many nodes only the part of the file before the bound
# is analysed, and the file's warning says where its facts stop. The largest file of the CPython
# stdlib has 91,000 nodes (test_typing.py); a 100,000-line function of `pass` and calls
# (tests/reliability/test_deep_code.py) 203,000, and its calls are all kept.
NODE_BUDGET = 250_000
TOO_MANY_NODES = "too large to analyse completely"
_BLANK = bytes(b if b in b"\r\n" else 32 for b in range(256))


def extract_file(path: str, source: bytes, spec: LanguageSpec) -> FileFacts:
    """Facts of one file. A syntax error gives partial facts and ``has_errors``, never an exception."""
    tree = parse(spec, source)
    nodes = tree.root_node.descendant_count
    if nodes <= NODE_BUDGET:
        return _Extraction(path, source, spec, tree.root_node).run()
    cut, closers = _cut_at(tree.root_node, source, NODE_BUDGET)
    del tree   # tree-sitter frees it before the shorter tree is built
    # From the cut on, every byte becomes a space (line breaks kept) except the brackets that close
    # what the cut is inside: the kept part still parses as it is written, and offsets, lines and
    # columns of what is analysed stay those of the file.
    blanked = bytearray(source[:cut] + source[cut:].translate(_BLANK))
    for start, end in closers:
        blanked[start:end] = source[start:end]
    tree = parse(spec, bytes(blanked))
    del blanked
    facts = _Extraction(path, source, spec, tree.root_node).run()
    last = source.count(b"\n", 0, cut) + (1 if cut and source[cut - 1:cut] != b"\n" else 0)
    facts.warnings += (f"{TOO_MANY_NODES} ({nodes:,} syntax nodes, more than the {NODE_BUDGET:,} analysed per file: "
                       f"generated code?): only lines 1-{max(last, 1)} are indexed",)
    return facts


def _cut_at(root, source: bytes, budget: int) -> tuple[int, list[tuple[int, int]]]:
    """Where the first ``budget`` nodes of the tree (in document order) end, and the closing
    tokens (`}`, `)`, `;`) of the nodes that the cut falls inside. Whole top-level statements are
    kept while they fit, then the walk goes down into the one that does not: a 100,000-line
    function keeps its first statements, a 60,000-row table its first rows and its name; a node
    much smaller than the budget is kept whole or left out whole."""
    node, left, closers = root, budget - 1, []
    while True:
        children = node.children
        tail = len(children)
        if tail and not children[-1].is_named and children[-1].child_count == 0 and not children[-1].is_missing:
            tail -= 1   # the closing token: kept (only it: a `;` before it would be one too many)
        closers.extend((c.start_byte, c.end_byte) for c in children[tail:])
        for child in children[:tail]:
            size = child.descendant_count
            if size <= left:
                left -= size
                continue
            if size < budget // 8 or left < 2:   # a statement, a row: not worth cutting inside
                cut = child.start_byte
                line = source.rfind(b"\n", 0, cut) + 1
                return (line if line > node.start_byte else cut), closers
            node, left = child, left - 1
            break
        else:
            return children[tail].start_byte if tail < len(children) else node.end_byte, closers

class _Extraction:
    def __init__(self, path: str, source: bytes, spec: LanguageSpec, root):
        self.path, self.source, self.spec, self.root = path, source, spec, root
        self.lines = LineMap(source)
        self.facts = FileFacts(path=path, language=spec.name)
        self.facts.line_count = source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1)
        self.facts.has_errors = root.has_error

    # ------------------------------------------------------------------ helpers
    def text(self, node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def point(self, node) -> tuple[int, int]:
        row, col = node.start_point
        return row + 1, self.lines.column(row, col)

    def end_point(self, node) -> tuple[int, int]:
        row, col = node.end_point
        return row + 1, self.lines.column(row, col)

    # ------------------------------------------------------------------ main
    def run(self) -> FileFacts:
        definitions: dict[tuple[int, int], dict] = {}
        owned: dict[str, dict[tuple[int, int], list]] = {k: {} for k in _OWNED_KEYS}
        exported_owners: set[tuple[int, int]] = set()
        scopes: dict[tuple[int, int], str] = {}
        declared: list[tuple[str, str, int]] = []
        references: dict[tuple[int, int], list] = {}
        writes: set[tuple[int, int]] = set()
        type_refs: set[tuple[int, int]] = set()
        ignored: set[tuple[int, int]] = set()
        type_regions: list[tuple[int, int]] = []
        calls: list[tuple] = []
        imports: list[dict] = []
        exports: list[dict] = []
        rare_imports: list[dict] = []   # of the patterns asking for a rare word (run_query's second query)
        rare_exports: list[dict] = []
        excluded: list[tuple[int, int]] = []      # import statements: their identifiers are not references
        excluded_spans: set[tuple[int, int]] = set()
        comments: list = []
        all_names: list[str] | None = None
        self._wrappers: dict[tuple[int, int], tuple[str, tuple, tuple]] = {}   # how, inner nodes, key nodes
        self._item_ids: dict[tuple[int, int], tuple[set, list]] = {}   # a literal's items so far (_add_items)
        item_writes: list[dict] = []
        flows: list[tuple] = []   # ("iterated" | "yielded", node)
        self._bound_names: set[str] | None = None
        self._import_caps = imports
        narrowing: list[dict] = []
        inherits: list[tuple] = []   # (constructor function, base) given after it (TS/JS)
        shorthands: list[tuple] = []   # (`{a}`'s a, the literal)
        self._argument_lists: dict | None = None
        self._arguments: dict = {}
        self._declared: dict[tuple[int, int], object] = {}
        self._type_arguments: dict[tuple[int, int], object] = {}   # a call's span -> its first type argument
        self._ref_starts: list[int] = []
        self._reference_names: list[str] = []
        literal_keys: set[tuple[int, int]] = set()
        props_of: set[tuple[int, int]] = set()   # JSX elements whose attributes are @reference
        pattern_keys: set[tuple[int, int]] = set()
        returned: list = []
        arguments: dict[tuple[int, int], object] = {}

        whole = needs_whole_query(self.spec, self.source)
        plan = _plan(self.spec, whole)
        self._object_holders: set[tuple[int, int]] = set()
        marks = {"reference.write": writes, "reference.type": type_refs, "ignore": ignored,
                 "object.holder": self._object_holders}
        notes: list[str] = []
        # (the kinds of match met most often are tested first: names, members, calls, definitions)
        for pattern, caps in run_query(self.spec, self.root, notes, whole):
            category, detail = plan[pattern]
            if category == "reference":
                name = caps["reference"][0]
                span = (name.start_byte, name.end_byte)
                if span not in references:
                    references[span] = name   # a plain name: the node alone (the others: a list)
            elif category == "member":
                name = caps["reference"][0]
                receiver = caps.get("receiver") or caps.get("receiver.builtin") or caps.get("receiver.literal") \
                    or caps.get("receiver.pattern") or caps.get("receiver.props")
                if "receiver.props" in caps:
                    props_of.add((receiver[0].start_byte, receiver[0].end_byte))
                if "receiver.literal" in caps:
                    literal_keys.add((name.start_byte, name.end_byte))
                if "receiver.pattern" in caps:  # `const {a} = v`: a names v's member and binds a local
                    pattern_keys.add((name.start_byte, name.end_byte))
                    literal_keys.add((name.start_byte, name.end_byte))
                references[(name.start_byte, name.end_byte)] = [
                    name, receiver[0] if receiver else None,
                    caps["reference.expression"][0] if "reference.expression" in caps else None,
                    "receiver.builtin" in caps,
                ]
            elif category == "call":
                calls.append((caps["call"][0], caps["call.callee"][0], "call.new" in caps))
                if "call.arguments" in caps:
                    call = caps["call"][0]
                    arguments[(call.start_byte, call.end_byte)] = caps["call.arguments"][0]
            elif category == "definition":
                self._collect_definition(definitions, detail, caps)
            elif category == "wrapper":
                node = caps["expression.wrapper"][0]
                if "expression.declared" in caps:  # `const o: T = {…}`: o's literal is a T
                    self._declared[(node.start_byte, node.end_byte)] = caps["expression.declared"][0]
                    continue
                if "expression.type_argument" in caps:   # `load<User>(url)`
                    self._type_arguments[(node.start_byte, node.end_byte)] = caps["expression.type_argument"][0]
                    continue
                for how, capture in _WRAPPED:
                    inner = caps.get(capture)
                    if inner:
                        span = (node.start_byte, node.end_byte)
                        keys = list(caps.get("expression.key", ()))
                        if how == "items" and span in self._wrappers:  # items may come one match each
                            self._add_items(span, inner, keys)
                        else:
                            self._wrappers[span] = (how, list(inner), keys)
                        break
            elif category == "mark":
                target = marks[detail]
                for node in caps[detail]:
                    span = (node.start_byte, node.end_byte)
                    target.add(span)
                    if detail in _REFERENCE_MARKS and span not in references:
                        references[span] = node
            elif category == "scope":
                for node in caps[detail]:
                    span = (node.start_byte, node.end_byte)
                    # The strongest kind wins when patterns overlap (a function is also a block).
                    if scopes.get(span) not in ("function", "class"):
                        scopes[span] = _SCOPE_KEYS[detail]
            elif category == "region":
                for node in caps["type.region"]:
                    type_regions.append((node.start_byte, node.end_byte))
            elif category == "forward":
                for node in caps["type.forward"]:
                    for name in _forward_names(node, self.source):
                        references.setdefault((name.start_byte, name.end_byte), name)
            elif category == "comment":
                comments.extend(caps["comment"])
            elif category == "item":
                item_writes.append(caps)
            elif category == "inherit":
                inherits.append((caps["inherit.child"][0], caps["inherit.base"][0]))
            elif category == "narrow":
                narrowing.append(caps)
            elif category == "shorthand":
                shorthands.append((caps["shorthand.key"][0], caps["shorthand.literal"][0]))
            elif category == "returned":
                returned.extend(caps["returned"])
            elif category == "flow":
                for key, nodes in caps.items():
                    flows.extend((key, n) for n in nodes)
            elif category == "import":
                (rare_imports if detail else imports).append(caps)
                node = caps["import"][0]
                excluded.append((node.start_byte, node.end_byte))
            elif category == "export.all":
                all_names = (all_names or []) + [self.text(n) for n in caps.get("export.name", ())]
                for n in caps.get("export.name", ()):
                    excluded_spans.add((n.start_byte, n.end_byte))
            elif category == "export":
                (rare_exports if detail else exports).append(caps)
                for key in ("export.name", "export.alias", "export.namespace"):
                    for n in caps.get(key, ()):
                        excluded_spans.add((n.start_byte, n.end_byte))
            elif category == "owned":
                for key, owner_key in _OWNERS:
                    if key in caps and owner_key in caps:
                        owner = caps[owner_key][0]
                        owned[key].setdefault((owner.start_byte, owner.end_byte), []).extend(caps[key])
                for owner in caps.get("exported.owner", ()):
                    exported_owners.add((owner.start_byte, owner.end_byte))
            elif category == "declare":
                for node in caps[detail]:
                    declared.append((detail.split(".")[1], self.text(node), node.start_byte))
                    excluded_spans.add((node.start_byte, node.end_byte))

        if rare_imports or rare_exports:
            # the rare patterns' matches come after all the others (parsing.run_query): each goes
            # where a statement written after it starts, as one query of all patterns lists them
            imports[:] = merge(imports, rare_imports, key=lambda caps: caps["import"][0].start_byte)
            exports[:] = merge(exports, rare_exports, key=lambda caps: _export_anchor(caps).start_byte)
        self._wrappers = {span: (how, tuple(inner), tuple(keys)) for span, (how, inner, keys) in self._wrappers.items()}
        self._spread_declared(list(self._declared.items()))
        self._build_scopes(scopes, declared)
        defs = self._build_definitions(definitions, owned, exported_owners, comments)
        if inherits:
            self._take_bases(defs, inherits)
        # What a function with a declared return type returns has that type (`return {…}`).
        typed_returns = []
        for node in returned:
            owner = self._container_of(self._innermost_scope(node.start_byte))
            raw = self._raw_definitions[owner] if 0 <= owner < len(self._raw_definitions) else None
            span = (node.start_byte, node.end_byte)
            if raw is not None and raw.get("returns") is not None and span not in self._declared:
                self._declared[span] = raw["returns"]
                typed_returns.append((span, raw["returns"]))
        self._spread_declared(typed_returns)
        # A name that is also the qualifier (Rust `impl Foo`) stays a reference: it names Foo.
        qualifier_spans = {(r["qualifier"].start_byte, r["qualifier"].end_byte)
                           for r in self._raw_definitions if r.get("qualifier") is not None}
        name_spans = {(d.name_byte, d.name_byte + len(d.name.encode())) for d in defs} - qualifier_spans
        excluded.sort()
        excluded_starts = [s for s, _ in excluded]
        expr_map: dict[tuple[int, int], int] = {}
        # The references as the cache holds them, one column per field (``Reference``'s order):
        # a worker's facts only travel as the cache's blob, so no Reference is made here only to
        # be taken apart into columns again (read back, they are made when asked for).
        names: list[str] = []
        lines: list[int] = []
        columns: list[int] = []
        starts: list[int] = []
        usages: list[str] = []
        scope_column: list[int] = []
        containers: list[int] = []
        pending: list[tuple[int, object, bool]] = []   # (reference, its receiver node, built-in)
        type_regions = _merge(type_regions)
        region_starts = [s for s, _ in type_regions]
        # References come in position order: their scopes are found by one sweep over the
        # (position-ordered, nested) scopes instead of a search each.
        scopes = self.facts.scopes
        open_scopes, next_scope = [0], 1
        container_of: dict[int, int] = {}
        # The hottest loop of extraction (one pass per reference): the helpers text() and point()
        # are written out.
        source, ascii_source, column_of = self.source, self.lines.ascii, self.lines.column
        plain_rows = self.lines.plain_rows
        skipped = ignored | excluded_spans
        for span in sorted(references):
            if span in skipped or (span in name_spans and span not in pattern_keys):
                continue
            at, end = span
            i = bisect_right(excluded_starts, at) - 1
            if i >= 0 and excluded[i][0] <= at < excluded[i][1]:
                continue
            if at == end:
                continue  # a name the parser made up to recover from a syntax error
            name = references[span]
            if type(name) is list:
                name, receiver, expression, builtin = name
            else:
                receiver = expression = None
            row, column = name.start_point
            column = column + 1 if ascii_source or plain_rows[row] else column_of(row, column)
            usage = "read"
            if span in writes:
                usage = "write"
            elif span in type_refs or (region_starts and _inside(type_regions, region_starts, at)):
                usage = "type-ref"
            while next_scope < len(scopes) and scopes[next_scope].start_byte <= at:
                while len(open_scopes) > 1 and scopes[open_scopes[-1]].end_byte <= scopes[next_scope].start_byte:
                    open_scopes.pop()
                open_scopes.append(next_scope)
                next_scope += 1
            while len(open_scopes) > 1 and scopes[open_scopes[-1]].end_byte <= at:
                open_scopes.pop()
            scope = open_scopes[-1]
            container = container_of.get(scope)
            if container is None:
                container = container_of[scope] = self._container_of(scope)
            if expression is None:
                expr_span = span
            else:
                expr_span = (expression.start_byte, expression.end_byte)
            if receiver is not None:
                pending.append((len(names), receiver, builtin))
            expr_map[expr_span] = len(names)
            names.append(source[at:end].decode("utf-8", "replace"))
            lines.append(row + 1)
            columns.append(column)
            starts.append(at)
            usages.append(usage)
            scope_column.append(scope)
            containers.append(container)
        receivers: list = [False] * len(names)
        new_column = [False] * len(names)
        self._reference_names = names   # (what _token and _first_type_name read of them)

        call_map: dict[tuple[int, int], tuple] = {}
        indirect: list[tuple] = []
        for call, callee, is_new in calls:
            index = expr_map.get((callee.start_byte, callee.end_byte))
            if index is None:
                indirect.append((call, callee))
                continue
            if usages[index] == "read":
                usages[index] = "call"
            new_column[index] = new_column[index] or is_new
            call_map[(call.start_byte, call.end_byte)] = ("n" if is_new else "c", index)
        self._expr_map, self._call_map = expr_map, call_map
        self._ref_starts = starts
        self._arguments = arguments  # read by _argument_position, built when first needed
        for index, receiver, builtin in pending:
            if (receiver.start_byte, receiver.end_byte) in props_of:
                # `<Card title=…>`: title is a member of the props Card takes (its parameter 0)
                call = call_map.get((receiver.start_byte, receiver.end_byte))
                receivers[index] = ("p", call, 0) if call is not None and call[0] in ("c", "n") else ("x",)
                continue
            token = ("b",) if builtin else self._token(receiver)
            if token is None and (starts[index], starts[index] + len(names[index].encode())) in literal_keys:
                token = ("x",)  # a key of an object literal of no known type: no guess
            receivers[index] = token
        self.facts.references = reference_blob_of_columns(
            (names, lines, columns, starts, usages, scope_column, containers, receivers, new_column))
        # Calls of what a call or a subscript gives (`make()()`, `handlers[key]()`): value flow
        # finds their targets. Innermost first, so `f()()()` sees `f()()` as a call already.
        for call, callee in sorted(indirect, key=lambda c: c[0].end_byte - c[0].start_byte):
            if (call.start_byte, call.end_byte) in call_map:
                continue   # another pattern found its callee (`await load<T>(…)`: the call of `load`)
            token = self._token(callee)
            if token is not None and token[0] != "b":
                line, column = self.point(callee)
                scope = self._innermost_scope(call.start_byte)
                self.facts.indirect_calls.append((token, line, column, self._container_of(scope)))
                call_map[(call.start_byte, call.end_byte)] = ("i", len(self.facts.indirect_calls) - 1)
        for call_span, argument_list in arguments.items():
            token = call_map.get(call_span)
            if token is None or token[0] not in ("c", "n") or argument_list.named_child_count == 0:
                continue
            passed = []
            for node in argument_list.named_children:
                if node.is_extra:
                    continue  # a comment
                # a keyword argument has a name and a value (`key=value`); `*xs`, `**kw`, `...xs`
                # make later positions unknown
                if node.child_count:
                    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                else:   # a leaf (a name, a number) has no fields
                    name = value = None
                splat = self.source.startswith(_SPLATS, node.start_byte)
                if name is not None and value is not None:
                    passed.append((self.text(name), self._token(value, positions=False), False))
                else:
                    passed.append((None, None if splat else self._token(node, positions=False), splat))
            if any(t is not None and t != ("b",) for _, t, _ in passed):  # something that can name a function
                self.facts.call_arguments.append((token[1], tuple(passed)))
            elif self.spec.overloads_by_arity:  # only how many (resolve/overloads.py): no value flows
                self.facts.call_arguments.append((token[1], tuple((k, None, splat) for k, _, splat in passed)))
        for caps in item_writes:  # `d[k] = v`, `xs.append(v)`, `d.update({…})`: more items of d / xs
            container = self._token(caps["item.container"][0])
            value = self._token(caps["item.value"][0]) if "item.value" in caps else None
            if container is not None and value is not None and value != ("b",):
                key = self._literal_key(caps["item.key"][0]) if "item.key" in caps else None
                self.facts.item_writes.append((container, key, value, "item.spread" in caps))
        for key, literal in shorthands:  # `{percent}`: the read of percent also names T.percent
            index = expr_map.get((key.start_byte, key.end_byte))
            token = self._token(literal) if index is not None else None
            if token is not None and token[0] not in ("e", "k", "b"):
                self.facts.shorthand_keys.append((index, token))
        for caps in narrowing:  # `x instanceof C` / `isinstance(x, C)`: x is a C in the region
            token = self._token(caps["narrow.type"][0])
            if token is not None and token[0] == "r":
                for region in caps["narrow.region"]:
                    self.facts.narrowings.append((self.text(caps["narrow.name"][0]), ("n", token[1]),
                                                  region.start_byte, region.end_byte))
        for key, node in flows:
            token = self._token(node)
            if token is None or token[0] == "b":
                continue
            scope = self._innermost_scope(node.start_byte)
            owner = self._container_of(scope)
            if key == "iterated" and self.spec.iteration_methods:
                self.facts.iterations.append((token, self.point(node)[0], owner))
            elif key == "yielded" and owner >= 0:
                defs[owner].yielded += (token,)
        for node in returned:
            scope = self._innermost_scope(node.start_byte)
            owner = self._container_of(scope)
            token = self._token(node)
            if owner >= 0 and token is not None and token[0] != "b":
                defs[owner].returned += (token,)
        defined_at = None
        for i, (d, raw) in enumerate(zip(defs, self._raw_definitions)):
            # `@outer @inner def f`: inner is called with f, outer with what inner gives
            passed = ("d", i)
            for node in reversed(raw.get("decorator_nodes", ())):
                token = self._call_map.get((node.start_byte, node.end_byte))
                if token is None:
                    break
                if token[0] == "c":
                    self.facts.call_arguments.append((token[1], ((None, passed, False),)))
                passed = token
            if raw.get("type_arguments") is not None:
                d.type_arguments = tuple(self._first_type_name(n) for n in raw["type_arguments"].named_children
                                         if not n.is_extra)
            if raw.get("generics") is not None and d.kind in _SCOPE_OWNER_KINDS:
                if defined_at is None:
                    defined_at = {o.name_byte: i for i, o in enumerate(defs) if o.kind == "type"}
                d.type_parameters = tuple(
                    defined_at[p.start_byte] for p in (
                        n.child_by_field_name("name") for n in raw["generics"].named_children if not n.is_extra)
                    if p is not None and p.start_byte in defined_at)
            if raw.get("value") is not None:
                d.value = self._token(raw["value"])
            elif d.kind == "parameter" and raw.get("default") is not None:
                # `def f(a=handler)`, `def f(out=Console())`: what the parameter holds unless given
                default = self._token(raw["default"], positions=False)
                if default is not None and default[0] in ("r", "c", "n"):
                    d.value = default
            for field, kind in (("item", "s"), ("entered", "w")):  # `for x in xs`, `with cm as x`
                if raw.get(field) is not None:
                    token = self._token(raw[field])
                    d.value = (kind, token) if token is not None else None
            if d.value is None and raw.get("callback") is not None:   # `each(rows, (row) => …)`
                d.value = self._callback_parameter(raw["node"], raw["callback"])
            if d.value is None and raw.get("keyed") is not None:   # `{onDone: (count) => …}` of a typed literal
                d.value = self._keyed_parameter(raw["node"], raw["keyed"])
            if raw.get("pattern") is not None:  # `a, (b, *c) = v`, `for k, v in pairs`
                base = self._token(raw["unpacked"]) if raw.get("unpacked") is not None else d.value
                d.value = self._unpacked(raw["pattern"], raw["name"], base) if base is not None else None
            for field in _DEFINITION_LISTS:   # extends, implements, alternatives
                nodes = raw.get(field)
                setattr(d, field, tuple(self._token(n) for n in nodes) if nodes else ())
            if raw.get("qualifier") is not None:
                d.qualifier = self._token(raw["qualifier"])
        self.facts.imports = [imp for caps in imports if (imp := self._import(caps))]
        if self.spec.doc_imports is not None and comments:
            self.facts.imports += self._doc_imports(comments)
        self.facts.exports = [exp for caps in exports if (exp := self._export(caps, defs))]
        if all_names is not None:
            self.facts.all_names = tuple(all_names)
        self._mark_exported(defs)
        self.facts.warnings = tuple(notes)
        return self.facts

    def _add_items(self, span: tuple[int, int], inner: list, keys: list) -> None:
        """One more match of a literal's items: they go last (a node seen before moves there), and
        the keys are kept only while every match had them. In place, with the items' ids in a set
        beside the list: a literal of 60,000 items costs 60,000 appends, not 60,000 copies of the
        list so far (103 s for a 1.8 MB Python table)."""
        _, seen, seen_keys = self._wrappers[span]
        ids = self._item_ids.get(span)
        if ids is None or ids[1] is not seen:
            ids = self._item_ids[span] = ({n.id for n in seen}, seen)
        new_ids = {n.id for n in inner}
        if not ids[0].isdisjoint(new_ids):
            kept = [i for i, n in enumerate(seen) if n.id not in new_ids]
            if seen_keys and keys:
                seen_keys[:] = [seen_keys[i] for i in kept]
            seen[:] = [seen[i] for i in kept]
        if not (seen_keys and keys):
            seen_keys.clear()
            keys = []
        seen.extend(inner)
        seen_keys.extend(keys)
        ids[0].update(new_ids)

    # ------------------------------------------------------------------ definitions
    def _collect_definition(self, definitions: dict, kind: str, caps: dict) -> None:
        names = caps.get("name")
        if not names:
            return
        name = names[0]
        key = (name.start_byte, name.end_byte)
        raw = definitions.get(key)
        if raw is None:
            raw = definitions[key] = {"kind": kind, "name": name, "node": caps[definition_capture(kind)][0]}
        # A match holds a few captures: look each up, rather than every field in each match.
        for cap, nodes in caps.items():
            field = _DEFINITION_FIELDS.get(cap)
            if field is None:
                continue
            if field in _DEFINITION_LISTS:
                seen = raw.setdefault(field, [])
                for node in nodes:
                    if all(n.start_byte != node.start_byte for n in seen):
                        seen.append(node)
            elif field in _DEFINITION_FLAGS:
                raw[field] = True
            elif raw.get(field) is None:
                raw[field] = nodes[0]

    def _build_definitions(self, raws: dict, owned: dict, exported_owners: set, comments: list) -> list[Definition]:
        spec = self.spec
        defs: list[Definition] = []
        kept_raw: list[dict] = []
        declaration_file = any(self.path.endswith(s) for s in spec.declaration_suffixes)
        ordered = sorted(raws.values(), key=lambda r: (r["node"].start_byte, -r["node"].end_byte, r["name"].start_byte))
        scopes = self.facts.scopes
        modifiers_of, decorators_of, docs_of = owned["modifier"], owned["decorator"], owned["doc"]
        source, ascii_source, column_of = self.source, self.lines.ascii, self.lines.column
        # TS/JS: definitions by name so far (an assignment `x.m = …` finds the x it sees), and the
        # functions given prototype members (constructors: their `this.x = …` are fields)
        self._defined_so_far: dict[str, list[int]] | None = {} if spec.members_assigned_to_objects else None
        self._constructor_functions: set[str] = set()
        self._given: set[tuple[int, str]] = set()   # (object, member name) given so far (the first defines it)
        # functions declared later than a member is given to them (hoisted: `f.x = 1; function f() {}`):
        # name -> [(where, the scope binding it)]; the members wait for them (``_hoisted_members``)
        self._hoisted: dict[str, list[tuple[int, int]]] = {}
        self._waiting: list[tuple[int, str, set]] = []
        if spec.members_assigned_to_objects:
            scopes = self.facts.scopes
            for raw in raws.values():
                receiver = raw.get("receiver")
                text = self.text(receiver) if receiver is not None else ""
                if text.endswith(".prototype"):
                    self._constructor_functions.add(text[:-len(".prototype")])
                if raw["kind"] == "function" and receiver is None and raw.get("qualifier") is None:
                    node = raw["node"]
                    scope = self._innermost_scope(node.start_byte)
                    while scope > 0 and (scopes[scope].start_byte, scopes[scope].end_byte) == (node.start_byte, node.end_byte):
                        scope = scopes[scope].parent
                    self._hoisted.setdefault(self.text(raw["name"]), []).append((node.start_byte, scope))
        for raw in ordered:   # point(), end_point() and text() written out: this runs once per definition
            node, name = raw["node"], raw["name"]
            row, column = name.start_point
            end_row, end_column = node.end_point
            if ascii_source:
                column, end_column = column + 1, end_column + 1
            else:
                column, end_column = column_of(row, column), column_of(end_row, end_column)
            name_start = name.start_byte
            text = source[name_start:name.end_byte].decode("utf-8", "replace")
            span = (node.start_byte, node.end_byte)
            d = Definition(_collapse(text) if name.child_count else text, raw["kind"], row + 1, column,
                           end_row + 1, end_column, node.start_point[0] + 1, span[0], span[1], name_start)
            d.declaration = bool(raw.get("declaration")) or declaration_file
            if raw.get("type") is not None:
                d.type = self.text(raw["type"]).lstrip(":").strip()
                d.type_span = (raw["type"].start_byte, raw["type"].end_byte)
            if raw.get("returns") is not None:
                d.returns = _collapse(self.text(raw["returns"]).lstrip(":").strip())
                d.returns_span = (raw["returns"].start_byte, raw["returns"].end_byte)
            if raw.get("generics") is not None:
                d.generics = _collapse(self.text(raw["generics"]))
            if raw.get("default") is not None:
                d.default = _collapse(self.text(raw["default"]))[:_SIGNATURE_LIMIT]
            if raw.get("params") is not None or d.type:
                d.signature = self._signature(raw, d)
            modifiers = modifiers_of.get(span)
            if modifiers:
                d.modifiers = tuple(dict.fromkeys(self.text(n) for n in modifiers))
            decorators = decorators_of.get(span, ())
            raw["decorator_nodes"] = decorators
            if decorators:  # the code shown starts at the first decorator
                d.decorators = tuple(self.text(n).lstrip("@").strip() for n in decorators)
                d.start_line = min(d.start_line, min(n.start_point[0] for n in decorators) + 1)
                if any(dec.split("(")[0].rsplit(".", 1)[-1] == "overload" for dec in d.decorators):
                    d.declaration = True  # typing.overload: a signature only
            docs = docs_of.get(span)
            if docs:
                d.doc = _clean_docstring(self.text(docs[0]))
            d.exported = span in exported_owners
            # Binding scope: the innermost scope strictly around the definition's node.
            scope = self._innermost_scope(node.start_byte)
            while scope > 0 and (scopes[scope].start_byte, scopes[scope].end_byte) == span:
                scopes[scope].owner = len(defs)
                d.own_scope = scope
                scope = scopes[scope].parent
            if raw.get("hoist"):
                while scope > 0 and scopes[scope].kind != "function":
                    scope = scopes[scope].parent
            d.scope = scope
            scope_fact = scopes[scope]
            if d.name in scope_fact.globals:
                d.scope = 0
            elif d.name in scope_fact.nonlocals:
                self._disown(d, len(defs))
                continue  # an assignment to an outer binding, not a new one
            d.container = self._container_of(d.scope)
            if raw.get("qualifier") is not None:
                d.scope = -1  # `Foo::bar() {}` names Foo's member; it binds nothing here
            bound_in = d.scope
            if raw.get("receiver") is not None:
                if not self._attach_to_instance(d, raw["receiver"], defs):
                    self._disown(d, len(defs))
                    continue
            elif scopes[d.scope].kind == "class":
                if d.kind == "function":
                    owner = defs[d.container] if 0 <= d.container < len(defs) else None
                    named_as_class = spec.constructor_named_as_class and owner is not None and owner.name == d.name
                    d.kind = "constructor" if d.name in spec.constructor_names or named_as_class else "method"
                elif d.kind == "variable":
                    d.kind = "field"
            if decorators and d.kind in _CALLABLE_KINDS \
                    and any(dec.split("(")[0] in _PROPERTY_DECORATORS for dec in d.decorators):
                d.kind = "property"
            defs.append(d)
            kept_raw.append(raw)
            if d.type_span is not None:
                self._own_inline_types(d.type_span, len(defs) - 1)
            if self._defined_so_far is not None:
                self._defined_so_far.setdefault(d.name, []).append(len(defs) - 1)
            # Link now: definitions nested in this one need their container from it (a member
            # given to an object, `x.m = function …`, by the scope it is written in).
            if d.own_scope < 0 and d.kind in _SCOPE_OWNER_KINDS and bound_in >= 0:   # the others it skips
                self._link_own_scopes(defs, only=len(defs) - 1, bound_in=bound_in)
            if raw.get("promoted") and d.container >= 0 and defs[d.container].container >= 0:
                # `constructor(private x: T)`: also a property of the class.
                defs.append(replace(d, kind="property", scope=-1, container=defs[d.container].container, default=None))
                kept_raw.append({**raw, "value": None})
        if spec.doc_comment_prefixes and comments:
            for d in self._attach_doc_comments(defs, comments):   # after all others: indexes stay
                defs.append(d)
                kept_raw.append({"kind": d.kind})
        if self._waiting:
            self._hoisted_members(defs)
        self._raw_definitions = kept_raw
        self.facts.definitions = defs
        return defs

    def _disown(self, d: Definition, index: int) -> None:
        """A definition left out after it took its node's scopes (as definition ``index``): they
        are no one's again, or the next definition, taking that index, would own them (and be
        its own container)."""
        scopes, scope = self.facts.scopes, d.own_scope
        while scope > 0 and scopes[scope].owner == index:
            scopes[scope].owner = -1
            scope = scopes[scope].parent

    def _attach_to_instance(self, d: Definition, receiver, defs: list[Definition]) -> bool:
        """`self.x = …` / `this.x = …` inside a method: a member of the method's class (in a
        constructor function, ``View.prototype.m = …`` beside it: of that function). Other
        receivers: ``_attach_to_object``."""
        text = self.text(receiver)
        if text in self.spec.module_object_names:
            d.container, d.scope = -1, -1   # `exports.f = …`: the module's, bound nowhere in it
            return True
        if text not in self.spec.self_names and text not in self.spec.this_keywords:
            return self._defined_so_far is not None and self._attach_to_object(d, receiver, text, defs)
        method = d.container
        while method >= 0 and defs[method].kind not in _CALLABLE_KINDS:
            method = defs[method].container
        if method < 0:
            return False
        owner = defs[method].container
        if defs[method].kind == "function" and defs[method].name in self._constructor_functions:
            owner = method
        elif owner >= 0 and defs[method].scope < 0 and self._defined_so_far is not None:
            pass   # in a method given to an object (`app.init = function () { this.x = … }`): its
        elif owner < 0 or defs[owner].kind not in ("class", "struct", "interface"):
            return False
        d.container, d.scope = owner, -1
        if d.kind == "variable":
            d.kind = "field"
        return True

    def _attach_to_object(self, d: Definition, receiver, text: str, defs: list[Definition]) -> bool:
        """TS/JS: `app.use = function …`, `View.prototype.render = …`, `const api = {get() {}}`: a
        member of the variable or function named, when a definition of this file seen from here
        has that name (the nearest); else nothing is defined (`req.x = …` on a parameter, an
        import: an object from elsewhere)."""
        prototype = text.endswith(".prototype")
        name = text[:-len(".prototype")] if prototype else text
        kinds = _PROTOTYPE_OWNERS if prototype else _OBJECT_OWNERS
        scopes, seen = self.facts.scopes, set()
        scope = d.scope
        while scope >= 0:
            seen.add(scope)
            scope = scopes[scope].parent
        for index in reversed(self._defined_so_far.get(name, ())):
            owner = defs[index]
            if owner.scope in seen and owner.kind in kinds:
                if owner.kind in ("constant", "variable") \
                        and (owner.name_byte, owner.name_byte + len(owner.name.encode())) not in self._object_holders:
                    return False   # `response.text = …` on a typed value: a write to its member
                if (index, d.name) in self._given:
                    return False   # given before (`opts.host = …` after `{host: undefined}`): a write
                if d.kind == "property" and receiver.start_byte != owner.name_byte and owner.scope != d.scope:
                    return False   # a value given elsewhere than where the owner is bound: a write
                self._given.add((index, d.name))
                d.container, d.scope = index, -1
                return True
        for start, scope in self._hoisted.get(name, ()):
            if start > d.name_byte and scope in seen and (d.kind != "property" or scope == d.scope):
                self._waiting.append((len(defs), name, seen))   # its owner is declared below
                d.container, d.scope = -1, -1
                return True
        return False

    def _take_bases(self, defs: list[Definition], inherits: list[tuple]) -> None:
        """`Child.prototype = Object.create(Parent.prototype)`: Parent extends the function Child
        of this file seen from there (its raw definition's `extends`, read with the others)."""
        for child, base in inherits:
            name = self.text(child)
            for index in reversed(self._defined_so_far.get(name, ()) if self._defined_so_far else ()):
                if defs[index].kind in ("function", "class") and defs[index].start_byte < child.start_byte:
                    self._raw_definitions[index].setdefault("extends", []).append(base)
                    break

    def _hoisted_members(self, defs: list[Definition]) -> None:
        """Members given to a function declared below them (``_attach_to_object``): now that it is a
        definition, theirs. (Always found: the declaration was seen among the raw definitions.)"""
        for index, name, seen in self._waiting:
            owner = next((i for i in self._defined_so_far.get(name, ())
                          if defs[i].kind == "function" and defs[i].scope in seen and i > index), None)
            if owner is not None:
                defs[index].container = owner

    def _link_own_scopes(self, defs: list[Definition], only: int | None = None, bound_in: int | None = None) -> None:
        """A definition whose value opens a scope (``const f = () => {}``) owns that scope
        (``bound_in``: the scope ``only`` is written in, when it binds nothing there)."""
        scopes = self.facts.scopes
        for index, d in (enumerate(defs) if only is None else [(only, defs[only])]):
            written_in = d.scope if bound_in is None else bound_in
            if d.own_scope >= 0 or d.kind not in _SCOPE_OWNER_KINDS or written_in < 0:
                continue
            s = bisect_right(self._scope_starts, d.name_byte)
            while s < len(scopes) and scopes[s].start_byte < d.end_byte:
                scope = scopes[s]
                if scope.end_byte <= d.end_byte and scope.owner < 0 and scope.parent == written_in:
                    scope.owner, d.own_scope = index, s
                    break
                s += 1

    def _attach_doc_comments(self, defs: list[Definition], comments: list) -> list[Definition]:
        """Doc comments to the definitions below them, and the types and members they declare;
        returns the definitions they make (the members a JSDoc documents: ``_doc_members``)."""
        made: list[Definition] = []
        by_end_row: dict[int, object] = {}
        for c in comments:
            by_end_row[c.end_point[0]] = c
        doc_types = self.spec.doc_types
        parameters: dict[int, list[int]] = {}
        if doc_types is not None:
            for i, d in enumerate(defs):
                if d.kind == "parameter":
                    parameters.setdefault(d.container, []).append(i)
        for index, d in enumerate(defs):
            if d.doc is not None or d.kind == "parameter":
                continue
            row = d.start_line - 2
            block: list[str] = []
            nodes = []
            if row not in by_end_row:   # a block doc comment may stand a blank line or two above (JSDoc)
                above = row - 1 if row - 1 in by_end_row else row - 2 if row - 2 in by_end_row else None
                if above is not None and all(self._blank_row(r) for r in range(above + 1, row + 1)) \
                        and self.text(by_end_row[above]).startswith("/**"):
                    row = above
            while row in by_end_row:
                comment = by_end_row[row]
                text = self.text(comment)
                if not text.startswith(self.spec.doc_comment_prefixes):
                    break
                block.insert(0, text)
                nodes.append((comment, text))
                if text.startswith("/*"):
                    break
                row = comment.start_point[0] - 1
            if block:
                d.doc = _clean_comment("\n".join(block))
                if doc_types is not None:
                    for comment, text in nodes:
                        self._take_doc_types(d, parameters.get(index, ()), defs, comment, text, doc_types(text))
                        if self.spec.doc_members is not None and parameters.get(index):
                            made += self._doc_members(parameters[index], defs, comment, text, made)
        return made

    def _doc_members(self, params, defs: list[Definition], comment, text: str, made: list) -> list[Definition]:
        """`@param {Boolean} [options.mask=false]`: a property `mask` of the parameter `options`,
        defined where the comment names it (TypeScript reads a JavaScript file's JSDoc so)."""
        found: list[Definition] = []
        taken = {(d.container, d.name) for d in made}
        for parameter, member, at, type_start, type_end in self.spec.doc_members(text):
            owner = next((i for i in params if defs[i].name == parameter), None)
            if owner is None or (owner, member) in taken:
                continue
            taken.add((owner, member))
            start = comment.start_byte + len(text[:at].encode())
            row = comment.start_point[0] + text.count("\n", 0, at)
            column = self.lines.column(row, start - self.lines.line_start(row))
            d = Definition(member, "property", row + 1, column, row + 1, column + len(member), row + 1,
                           start, start + len(member.encode()), start)
            d.container, d.scope = owner, -1   # the parameter's member: it binds no name
            d.type = _collapse(text[type_start:type_end])
            d.type_span = (comment.start_byte + len(text[:type_start].encode()),
                           comment.start_byte + len(text[:type_end].encode()))
            d.signature = d.type
            found.append(d)
        return found

    def _blank_row(self, row: int) -> bool:
        start = self.lines.line_start(row)
        end = self.source.find(b"\n", start)
        return not self.source[start:end if end >= 0 else len(self.source)].strip()

    def _take_doc_types(self, d: Definition, params, defs: list[Definition], comment, text: str, found) -> None:
        """JSDoc types (``LanguageSpec.doc_types``) as declared types: a parameter's, the return
        type of ``d``, the type of a variable — where the code declares none."""
        ascii_text = len(text) == comment.end_byte - comment.start_byte
        for tag, name, start, end in found:
            written = _collapse(text[start:end])
            if not ascii_text:   # (the span in bytes)
                start, end = len(text[:start].encode()), len(text[:end].encode())
            span = (comment.start_byte + start, comment.start_byte + end)
            if tag == "param":
                for i in params:
                    if defs[i].name == name and defs[i].type is None:
                        defs[i].type, defs[i].type_span = written, span
            elif tag == "returns" and d.kind in _CALLABLE_KINDS and d.returns is None:
                d.returns, d.returns_span = written, span
            elif tag == "type" and d.kind not in _CALLABLE_KINDS and d.type is None:
                d.type, d.type_span = written, span

    def _signature(self, raw: dict, d: Definition) -> str:
        params = raw.get("params")
        if params is not None:
            returns = raw.get("returns")
            # `(a, b) -> T` when the return type follows the parameters; C/Java write it first
            end = returns.end_byte if returns is not None and returns.start_byte > params.start_byte else params.end_byte
            text = self.source[params.start_byte : end].decode("utf-8", "replace")
            if d.generics:
                text = d.generics + text
            return _collapse(text)[:_SIGNATURE_LIMIT]
        if d.type:
            return _collapse(d.type)[:_SIGNATURE_LIMIT]
        return ""

    def _mark_exported(self, defs: list[Definition]) -> None:
        spec = self.spec
        all_names = self.facts.all_names
        explicit = {e.name for e in self.facts.exports if e.module is None and e.name}
        # `module.exports = View`: the default export is the reference's definition
        explicit.update(self._reference_names[e.value[1]] for e in self.facts.exports
                        if e.kind == "default" and e.value and e.value[0] == "r" and type(e.value[1]) is int)
        for d in defs:
            if d.exported:
                pass
            elif d.scope == 0:
                if spec.top_level_is_exported:
                    d.exported = (d.name in all_names) if all_names is not None else spec.is_public(d.name)
                else:
                    d.exported = d.name in explicit
            elif d.container >= 0 and d.kind != "parameter" and defs[d.container].exported \
                    and (defs[d.container].kind in _MEMBER_OWNER_KINDS
                         or d.scope < 0 and spec.members_assigned_to_objects):   # `app.use = …`
                d.exported = spec.is_public(d.name)
            if d.kind != "parameter":  # the language's own rule has the last word (`static`, `private`)
                d.exported = bool(spec.exported(d, defs[d.container] if d.container >= 0 else None, d.exported))

    # ------------------------------------------------------------------ scopes
    def _build_scopes(self, raw: dict, declared: list) -> None:
        scopes = [Scope("module", 0, len(self.source) + 1, -1)]
        stack = [0]
        for (start, end), kind in sorted(raw.items(), key=lambda item: (item[0][0], -item[0][1])):
            while stack[-1] and scopes[stack[-1]].end_byte <= start:
                stack.pop()
            scopes.append(Scope(kind, start, end, stack[-1]))
            stack.append(len(scopes) - 1)
        self.facts.scopes = scopes
        self._scope_starts = [s.start_byte for s in scopes]
        for decl, name, at in declared:
            scope = scopes[self._innermost_scope(at)]
            if decl == "global":
                scope.globals += (name,)
            else:
                scope.nonlocals += (name,)

    def _callback_parameter(self, parameter, call):
        """``("a", call token, k, j)``: ``parameter`` is parameter j of the function passed as
        argument k of ``call`` (resolution gives it what the callee's parameter k takes)."""
        function, j = self._function_in(parameter, call, 2)
        if function is None:
            return None
        token = self._call_map.get((call.start_byte, call.end_byte))
        k = _position(function.parent, function)
        return ("a", token, k, j) if token is not None and token[0] == "c" and k is not None and j is not None else None

    def _keyed_parameter(self, parameter, pair):
        """``("m", key, j)``: ``parameter`` is parameter j of the function a literal's key is given
        (`{onDone: (count, last) => …}`); where the key names a member of a declared type, the
        parameter takes what that member's function type says (resolve/types.py)."""
        holder = parameter.parent
        if holder is not None and _same(holder.parent, pair):   # `{ find(id) {…} }`: a method shorthand
            j, key = _position(holder, parameter), pair.child_by_field_name("name")
        else:
            function, j = self._function_in(parameter, pair, 1)
            key = pair.child_by_field_name("key") if function is not None else None
        index = self._expr_map.get((key.start_byte, key.end_byte)) if key is not None else None
        return ("m", index, j) if index is not None and j is not None else None

    @staticmethod
    def _function_in(parameter, context, up: int):
        """The function ``parameter`` is written in, when that function stands ``up`` levels below
        ``context``, and the parameter's position: `a => …` (the function's one parameter) or
        `(a, b) => …` (its place in the list)."""
        holder = parameter.parent
        for function in (holder, holder.parent if holder is not None else None):
            node = function
            for _ in range(up):
                node = node.parent if node is not None else None
            if node is not None and _same(node, context):
                return function, 0 if function is holder else _position(holder, parameter)
        return None, None

    def _own_inline_types(self, span: tuple[int, int], index: int) -> None:
        """An object type written in a declaration's type (`opts: {id: string}`, `rows: {pos:
        number}[]`, a scope of its own with no definition of its own) belongs to what is declared:
        the properties it declares are that parameter's, variable's or property's members. Only
        the outermost ones: a property's own inline type is that property's."""
        scopes = self.facts.scopes
        i = bisect_left(self._scope_starts, span[0])
        while i < len(scopes) and scopes[i].start_byte < span[1]:
            scope = scopes[i]
            if scope.kind == "class" and scope.owner < 0 and scope.end_byte <= span[1] \
                    and scopes[scope.parent].start_byte < span[0]:
                scope.owner = index
            i += 1

    def _innermost_scope(self, position: int) -> int:
        scopes = self.facts.scopes
        index = bisect_right(self._scope_starts, position) - 1
        while index > 0 and not (scopes[index].start_byte <= position < scopes[index].end_byte):
            index = scopes[index].parent
        return max(index, 0)

    def _container_of(self, scope: int) -> int:
        scopes = self.facts.scopes
        while scope > 0:
            if scopes[scope].owner >= 0:
                return scopes[scope].owner
            scope = scopes[scope].parent
        return -1

    # ------------------------------------------------------------------ expressions
    def _argument_position(self, node):
        """``("p", call, k)`` for an argument with no token of its own (an object literal): what
        parameter k of that call takes."""
        if self._argument_lists is None:
            self._argument_lists = {(al.start_byte, al.end_byte): span for span, al in self._arguments.items()}
        parent = node.parent
        call_span = self._argument_lists.get((parent.start_byte, parent.end_byte)) if parent is not None else None
        call_token = self._call_map.get(call_span) if call_span is not None else None
        if call_token is None:
            return None
        position = 0
        for child in parent.named_children:
            if child.is_extra:
                continue
            if child.start_byte == node.start_byte and child.end_byte == node.end_byte:
                return ("p", call_token, position)
            position += 1
        return None

    def _unpacked(self, pattern, name, token):
        """The token of a name bound inside a destructuring pattern: in `a, (b, *c) = v`, b is
        item 0 of item 1 of v, and c a list of items of v's item 1 (after a starred name,
        positions count from the end)."""
        steps = []
        node, star = name, False
        while node.id != pattern.id:
            parent = node.parent
            if parent is None:
                return None
            children = [c for c in parent.named_children if not c.is_extra]
            if parent.id != pattern.id and len(children) == 1 and self._is_splat(parent):
                node, star = parent, True   # `*c`: the splat wraps the name
                continue
            position = next((i for i, c in enumerate(children) if c.id == node.id), None)
            if position is None:
                return None
            if any(self._is_splat(c) for c in children[:position]):
                position -= len(children)
            steps.append("*" if star else position)
            node, star = parent, False
        for step in reversed(steps):
            token = ("e", ("s", token)) if step == "*" else ("u", token, step)
        return token

    def _is_splat(self, node) -> bool:
        return self.source[node.start_byte:node.end_byte].startswith(_SPLATS)

    def _literal_key(self, node):
        """A literal subscript or dict key as a comparable value: an int, or a string written
        with double quotes (`'a'` and `"a"` are one key; `1` and `"1"` are two); else None."""
        if node is None:
            return None
        text = self.text(node).strip()
        if text.lstrip("-").isdigit():
            return int(text)
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`" and text[0] not in text[1:-1]:
            return '"' + text[1:-1] + '"'
        return None

    def _binds_here(self, name: str) -> bool:
        """Whether this file defines or imports ``name`` (then it is not the built-in one)."""
        if self._bound_names is None:
            self._bound_names = {d.name for d in self.facts.definitions} | {
                self.text(node) for caps in self._import_caps
                for key in ("import.name", "import.alias", "import.default", "import.namespace")
                for node in caps.get(key, ())}
        return name in self._bound_names

    def _first_type_name(self, node):
        """``("n", i)``: an instance of the first name written in a type (`Def`, `Foo<X>`)."""
        starts = self._ref_starts
        i = bisect_left(starts, node.start_byte) if starts else 0
        return ("n", i) if i < len(starts) and starts[i] < node.end_byte else None

    def _spread_declared(self, pending: list) -> None:
        """A declared type reaches into `(…)`, `a ? b : c`, `a ?? b` of the value that has it."""
        while pending:
            span, type_node = pending.pop()
            wrapped = self._wrappers.get(span)
            if wrapped is not None and wrapped[0] == "inner":
                for inner in wrapped[1]:
                    inner_span = (inner.start_byte, inner.end_byte)
                    if inner_span not in self._declared:
                        self._declared[inner_span] = type_node
                        pending.append((inner_span, type_node))

    def _token(self, node, depth: int = 0, positions: bool = True):
        token = self._value_token(node, depth, positions)
        if not self._declared:   # most files declare no types of values: skip the lookup
            return token
        declared = self._declared.get((node.start_byte, node.end_byte)) if node is not None else None
        if declared is not None:  # a value with a declared type: that type, and its own value
            owner = self._inline_type_owner(declared)
            if owner is not None:   # `({ user }: { user: User })`: the type written there, its definition's
                return ("t", owner)
            index = self._type_name_in(declared)
            if index is not None:
                return ("o", ("n", index), token) if token is not None else ("n", index)
        return token

    def _inline_type_owner(self, type_node) -> int | None:
        """The definition an object type written inline belongs to (``_own_inline_types``), when
        ``type_node`` is one."""
        span = (type_node.start_byte, type_node.end_byte)
        i = bisect_left(self._scope_starts, span[0])
        scopes = self.facts.scopes
        while i < len(scopes) and scopes[i].start_byte == span[0]:
            if scopes[i].end_byte == span[1] and scopes[i].kind == "class" and scopes[i].owner >= 0:
                return scopes[i].owner
            i += 1
        return None

    def _type_name_in(self, type_node) -> int | None:
        """The reference naming a written type: itself, else (`T | undefined`, `Promise<T>`) the
        first name written in it, a built-in wrapper (`Required<Hooks>`, not bound here) standing
        for its argument."""
        index = self._expr_map.get((type_node.start_byte, type_node.end_byte))
        if index is not None:
            return index
        starts, names = self._ref_starts, self._reference_names
        i = bisect_left(starts, type_node.start_byte) if starts else 0
        while i + 1 < len(starts) and starts[i + 1] < type_node.end_byte \
                and names[i] in self.spec.builtins and not self._binds_here(names[i]):
            i += 1
        return i if i < len(starts) and starts[i] < type_node.end_byte else None

    def _value_token(self, node, depth: int = 0, positions: bool = True):
        """The token of an expression, looking through wrappers that keep its value
        (parentheses, `await`, a non-null `x!`), give it a declared type (`x as T`), or choose
        between values (`a or b`, `a ?? b`, `a if c else b`: an ``("o", token, token)``)."""
        cast = False
        while node is not None and depth < 32:
            depth += 1
            span = (node.start_byte, node.end_byte)
            index = self._expr_map.get(span)
            if index is not None:
                return ("n", index) if cast else ("r", index)
            if not cast and span in self._call_map:
                token = self._call_map[span]
                given = self._type_arguments.get(span) if self._type_arguments and token[0] == "c" else None
                index = self._type_name_in(given) if given is not None else None
                # `load<User>(url)`: the call, and the type it was given
                return token if index is None else ("g", token, ("n", index))
            wrapped = self._wrappers.get(span)
            if wrapped is None:
                return None if cast or not positions else self._argument_position(node)
            how, inner, keys = wrapped
            if how == "items":  # a literal list / tuple: ("e", its items in order); a dict: ("k", key, item, …)
                tokens = tuple(self._token(n, depth) for n in inner[:64])
                if keys and len(keys) == len(inner):
                    return ("k",) + tuple(x for key, t in zip(keys, tokens) for x in (self._literal_key(key), t))
                return ("e",) + tokens
            if how == "element":  # `x[k]`: one of x's items (the one at k when k is a literal)
                token = self._token(inner[0], depth)
                key = self._literal_key(keys[0]) if keys else None
                return None if token is None else ("s", token) if key is None else ("s", token, key)
            if len(inner) > 1 and not cast:
                tokens = tuple(t for t in (self._token(n, depth) for n in inner) if t is not None)
                return None if not tokens else tokens[0] if len(tokens) == 1 else ("o",) + tokens
            # `x as T`: an instance of what T names (a `new T` stands for that in inference)
            cast = cast or how == "cast"
            node = inner[0]
        return None

    # ------------------------------------------------------------------ imports / exports
    def _import(self, caps: dict) -> Import | None:
        statement = caps["import"][0]
        module_nodes = caps.get("import.module")
        module = _unquote(self.text(module_nodes[0])) if module_nodes else ""
        line, column = self.point(statement)
        first_line = _one_line(self.text(statement))
        local_node = None
        name = None
        name_node = None
        if "import.star" in caps:
            kind, local = "star", None
        elif "import.dotted" in caps:
            kind, local_node = "dotted", caps["import.dotted"][0]
            local = module.split(".")[0]
        elif "import.namespace" in caps:
            kind, local_node = "namespace", caps["import.namespace"][0]
            local = self.text(local_node)
        elif "import.default" in caps:
            kind, local_node = "default", caps["import.default"][0]
            local = self.text(local_node)
        elif "import.name" in caps:
            kind, name_node = "named", caps["import.name"][0]
            name = self.text(name_node)
            local_node = caps["import.alias"][0] if "import.alias" in caps else name_node
            local = self.text(local_node)
        elif "import.alias" in caps:
            kind, local_node = "module", caps["import.alias"][0]
            local = self.text(local_node)
        elif (implied := self.spec.default_import_name(module)) is not None:
            kind, local = "namespace", implied  # Go `import "a/b"` binds the package name `b`
            written = self.text(module_nodes[0]) if module_nodes else ""
            if written.endswith(implied) and "\n" not in written:
                # Elixir `alias Shop.Pricing` binds `Pricing`, where it is written: the name's place
                line, column = self.point(module_nodes[0])
                column += len(written) - len(implied)
        else:
            kind, local = "side-effect", None
        if local_node is not None:
            line, column = self.point(local_node)
        imp = Import(module=module, kind=kind, name=name, local=local, line=line, column=column,
                     start_byte=statement.start_byte, statement=first_line[:300])
        imp.scope = self._innermost_scope(statement.start_byte)
        where = name_node or local_node
        imp.name_line, imp.name_column = self.point(where) if where is not None else (line, column)
        return imp

    def _doc_imports(self, comments: list) -> list[Import]:
        """Imports a file's doc comments make for its type annotations (``LanguageSpec.doc_imports``),
        bound in the scope the comment is in."""
        found = []
        for comment in comments:
            text = self.text(comment)
            if "@typedef" not in text:
                continue
            raw = self.source[comment.start_byte:comment.end_byte]
            for module, name, local, at in self.spec.doc_imports(text):
                if len(text) != len(raw):
                    at = len(text[:at].encode())
                start = comment.start_byte + at
                row = comment.start_point[0] + raw.count(b"\n", 0, at)
                line_start = raw.rfind(b"\n", 0, at)
                byte_column = at - line_start - 1 if line_start >= 0 else comment.start_point[1] + at
                line, column = self.point(_NameInText(start, start + len(local.encode()), row, byte_column))
                imp = Import(module=module, kind="named", name=name, local=local, line=line, column=column,
                             start_byte=start, statement=_one_line(text)[:300])
                imp.scope = self._innermost_scope(start)
                imp.name_line, imp.name_column = line, column
                found.append(imp)
        return found

    def _export(self, caps: dict, defs: list[Definition]) -> Export | None:
        anchor = _export_anchor(caps)
        module_nodes = caps.get("export.module")
        module = _unquote(self.text(module_nodes[0])) if module_nodes else None
        line, column = self.point(anchor)
        statement = _one_line(self.text(anchor))[:300]
        if "export.namespace" in caps:
            node = caps["export.namespace"][0]
            line, column = self.point(node)
            return Export("namespace", None, self.text(node), module, line, column, node.start_byte, None, statement)
        if "export.star" in caps:
            node = caps["export.star"][0]
            return Export("star", None, None, module, line, column, node.start_byte, None, statement)
        if "export.default" in caps:
            node = caps["export.default"][0]
            span = (node.start_byte, node.end_byte)
            named = next((d.name for d in defs if (d.start_byte, d.end_byte) == span), None)
            token = None if named else self._token(node)
            if named is None and token is None:
                named = self.text(node) if self.text(node).isidentifier() else None
            line, column = self.point(node)
            return Export("default", named, "default", module, line, column, node.start_byte, token, statement)
        if "export.name" in caps:
            node = caps["export.name"][0]
            name = self.text(node)
            alias = self.text(caps["export.alias"][0]) if "export.alias" in caps else name
            line, column = self.point(node)
            return Export("named", name, alias, module, line, column, node.start_byte, None, statement)
        return None


@lru_cache(maxsize=None)
def _plan(spec: LanguageSpec, whole: bool) -> tuple[tuple[str, str | None], ...]:
    """How to read each pattern's matches, decided once from the names it captures."""
    plan = []
    rare_from = len(pattern_captures(spec)) if whole and spec.rare_words else None   # (run_query's numbering)
    for names in pattern_captures(spec, whole):
        kinds = [_DEFINITION_KEYS[n] for n in names if n in _DEFINITION_KEYS]
        if kinds:
            plan.append(("definition", kinds[0]))
        elif "import" in names:
            plan.append(("import", "rare" if rare_from is not None and len(plan) >= rare_from else None))
        elif "export.all" in names:
            plan.append(("export.all", None))
        elif any(n.startswith("export.") for n in names):
            plan.append(("export", "rare" if rare_from is not None and len(plan) >= rare_from else None))
        elif any(n.endswith(".owner") for n in names):
            plan.append(("owned", None))
        elif "item.write" in names:
            plan.append(("item", None))
        elif "inherit.child" in names:
            plan.append(("inherit", None))
        elif "narrow.name" in names:
            plan.append(("narrow", None))
        elif "shorthand.key" in names:
            plan.append(("shorthand", None))
        elif "call" in names:
            plan.append(("call", None))
        elif "reference" in names:
            plan.append(("member" if names & {"receiver", "receiver.builtin", "receiver.literal", "receiver.pattern",
                                                     "receiver.props"}
                         else "reference", None))
        elif names & _MARKS:
            plan.append(("mark", next(iter(names & _MARKS))))
        elif names & set(_SCOPE_KEYS):
            plan.append(("scope", next(iter(names & set(_SCOPE_KEYS)))))
        elif names & {"declare.global", "declare.nonlocal"}:
            plan.append(("declare", next(iter(names & {"declare.global", "declare.nonlocal"}))))
        elif "returned" in names:
            plan.append(("returned", None))
        elif names & {"iterated", "yielded"}:
            plan.append(("flow", None))
        elif "expression.wrapper" in names:
            plan.append(("wrapper", None))
        elif "type.region" in names:
            plan.append(("region", None))
        elif "type.forward" in names:
            plan.append(("forward", None))
        elif "comment" in names:
            plan.append(("comment", None))
        else:
            plan.append(("ignored", None))
    return tuple(plan)


def _export_anchor(caps: dict):
    """Where an export match is placed: the node of its first capture."""
    return next(iter(caps.values()))[0]


class _NameInText:
    """A name inside a string's text, standing in for a syntax node (start/end bytes and points)."""

    __slots__ = ("start_byte", "end_byte", "start_point", "end_point")

    def __init__(self, start_byte: int, end_byte: int, row: int, column: int):
        self.start_byte, self.end_byte = start_byte, end_byte
        self.start_point, self.end_point = (row, column), (row, column + end_byte - start_byte)


_FORWARD_NAME = re.compile(rb"(?<![\w.])[A-Za-z_]\w*")


def _forward_names(node, source: bytes) -> list[_NameInText]:
    """The names a one-line forward reference (`"Console"`, `"Optional[Segment]"`) reads: each
    dotted name's first part (a module or a class in scope; what follows a dot is left out)."""
    text = source[node.start_byte:node.end_byte]
    if b"\n" in text or len(text) > 200:
        return []
    row, column = node.start_point
    return [_NameInText(node.start_byte + m.start(), node.start_byte + m.end(), row, column + m.start())
            for m in _FORWARD_NAME.finditer(text)]


def _merge(regions: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping union of spans (type annotations nest)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(regions):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _inside(regions: list[tuple[int, int]], starts: list[int], position: int) -> bool:
    i = bisect_right(starts, position) - 1
    return i >= 0 and regions[i][0] <= position < regions[i][1]


def _one_line(statement: str) -> str:
    """A statement as one line: `import {\n  a,\n  b,\n} from "m"` → `import {a, b} from "m"`."""
    if "\n" not in statement.strip():
        return statement.strip()
    text = _collapse(statement)
    text = re.sub(r"([({\[]) ", r"\1", text)
    return re.sub(r",? ([)}\]])", r"\1", text)


def _collapse(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`":
        return text[1:-1]
    return text


def _clean_docstring(text: str) -> str:
    try:
        value = ast.literal_eval(text)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        value = text.strip("\"'rRbBuUfF")
    return inspect.cleandoc(str(value))


def _clean_comment(text: str) -> str:
    lines = []
    for line in text.splitlines():
        line = line.strip()
        for prefix in ("/**", "/*!", "/*", "///", "//!", "//"):
            if line.startswith(prefix):
                line = line[len(prefix):]
                break
        if line.endswith("*/"):
            line = line[:-2]
        line = line.strip()
        if line.startswith("*"):
            line = line[1:].strip() if not line.startswith("*/") else ""
        lines.append(line)
    return "\n".join(lines).strip()


def _same(node, other) -> bool:
    return node is not None and (node.start_byte, node.end_byte) == (other.start_byte, other.end_byte)


def _position(parent, child) -> int | None:
    """Where ``child`` is among the named children of ``parent`` (comments left out)."""
    span = (child.start_byte, child.end_byte)
    named = [c for c in parent.named_children if not c.is_extra]
    return next((k for k, c in enumerate(named) if (c.start_byte, c.end_byte) == span), None)
