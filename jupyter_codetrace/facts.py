"""Per-file facts: what extraction learns from one file, with no knowledge of any other file.

All positions are 1-based lines and code-point columns; ``*_byte`` fields are byte offsets
used only to relate facts of the same file (scopes, spans). Expression tokens relate an
expression to the facts that head it: ``("r", i)`` reference *i*, ``("c", i)`` a call of
reference *i*, ``("n", i)`` a ``new`` of reference *i*, ``("b",)`` a literal of a built-in type,
``None`` unknown; and for value flow ``("o", t, …)`` one of several values (`a or b`),
``("e", t, …)`` a literal container of those items, ``("s", t)`` an item of ``t`` (`t[k]`),
``("i", k)`` the result of indirect call *k* (``FileFacts.indirect_calls``: `f()()`),
``("p", call, k)`` what parameter *k* of the called function takes (an object literal argument),
``("x",)`` an object literal of no known type, ``("d", i)`` definition *i* itself (the
function a decorator is called with), ``("k", key, t, …)`` a literal dict (keys are
ints or double-quoted strings, None when not literal), ``("s", t, key)`` the item of ``t`` at
a literal position or key (`t[0]`, `t["a"]`), ``("u", t, k)`` what a destructuring binds at
position k (`a, b = t`: unlike `t[k]`, not typed by a `list[X]` annotation of t).
"""

from __future__ import annotations

import operator
import sys
from array import array
from collections.abc import Sequence
from itertools import accumulate
from dataclasses import field, fields
from typing import NamedTuple, Optional

from .dataclass_code import dataclass
from .index.encoding import decode, encode, leading_count

__all__ = ["Definition", "Reference", "Import", "Export", "Scope", "FileFacts", "Token", "CLASS_KINDS", "Moves", "line_moves",
           "MEMBER_OWNER_KINDS", "NODE_KINDS"]

Token = Optional[tuple]
# Kinds of definitions that are types, and those whose definitions inside are members (looked up
# through the owner: `Owner.name`, `self.name`).
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "type"})
MEMBER_OWNER_KINDS = CLASS_KINDS | {"impl", "namespace", "module"}
# Definitions that are nodes of the call graph (graph/build.py): what can do or be something there.
NODE_KINDS = frozenset({"function", "method", "constructor", "class", "interface", "type", "enum",
                        "struct", "trait", "impl", "namespace", "module", "macro"})


@dataclass(slots=True)
class Definition:
    """A name defined in a file: where, what kind, its signature, doc and what encloses it."""

    name: str
    kind: str
    line: int
    column: int
    end_line: int
    end_column: int
    start_line: int
    start_byte: int
    end_byte: int
    name_byte: int
    scope: int = 0              # scope it binds in (-1: a member of `container`, e.g. self.x)
    own_scope: int = -1         # scope it opens
    container: int = -1         # index of the enclosing definition
    signature: str = ""
    returns: str | None = None
    returns_span: tuple[int, int] | None = None
    generics: str | None = None
    modifiers: tuple[str, ...] = ()
    decorators: tuple[str, ...] = ()
    doc: str | None = None
    exported: bool = False
    declaration: bool = False
    type: str | None = None
    type_span: tuple[int, int] | None = None
    default: str | None = None
    value: Token = None
    extends: tuple[Token, ...] = ()
    implements: tuple[Token, ...] = ()
    qualifier: Token = None     # the type an out-of-line member belongs to (C++ `Foo::`, Go receiver, Rust impl)
    returned: tuple[Token, ...] = ()   # what its `return` statements give (value flow of functions)
    yielded: tuple[Token, ...] = ()    # what a generator yields: the items of what calling it gives
    alternatives: tuple[Token, ...] = ()   # a union type alias's members (`type R = A | B`): where its members are
    type_arguments: tuple[Token, ...] = ()  # `extends Base<A, B>`: A, B (instances of what they name)
    type_parameters: tuple[int, ...] = ()   # its own type parameters, in order (definition indices)


@dataclass(slots=True)
class Reference:
    """A name used in a file: where, how (read, write, call, type-ref) and in which scope."""

    name: str
    line: int
    column: int
    start_byte: int
    usage: str = "read"         # call | read | write | type-ref (import references come from Import)
    scope: int = 0
    container: int = -1         # innermost enclosing definition
    receiver: Token | bool = False   # False: a plain name; else the receiver expression's token
    new: bool = False           # called with `new`


@dataclass(slots=True)
class Import:
    """One name (or module) an import statement binds in a file."""

    module: str
    kind: str                   # module | dotted | named | namespace | default | star | side-effect
    name: str | None            # the imported name (named imports)
    local: str | None           # the name bound here (None for star / side-effect)
    line: int
    column: int                 # of the local name (or the statement)
    start_byte: int
    scope: int = 0
    name_line: int = 0          # where the imported name is written (for `usage: import` references)
    name_column: int = 0
    statement: str = ""


@dataclass(slots=True)
class Export:
    """One name a file exports, or re-exports from another module."""

    kind: str                   # named | star | namespace | default
    name: str | None            # local (or source-module) name
    exported_as: str | None
    module: str | None          # re-exported from, or None for a local export
    line: int
    column: int
    start_byte: int
    value: Token = None         # `export default EXPR`
    statement: str = ""


@dataclass(slots=True)
class Scope:
    """A region of a file where names bind (module, class, function, block)."""

    kind: str                   # module | block | function | class
    start_byte: int
    end_byte: int
    parent: int
    owner: int = -1             # the definition that opens it
    globals: tuple[str, ...] = ()
    nonlocals: tuple[str, ...] = ()


@dataclass(slots=True, eq=False)
class FileFacts:
    """Everything extraction found in one file: definitions, references, imports, exports, scopes."""

    path: str
    language: str
    definitions: list[Definition] = field(default_factory=list)
    # ``references`` (below): a list of Reference, or as the cache holds them (their rows, still
    # encoded) until first read. Most files loaded only to be looked into (a name defined there,
    # a member of a class) never have theirs read: making them was 2/3 of loading a file, and
    # their decoded rows took ten times the memory (the stdlib after an edit: 355k rows, ~90 MB).
    _references: list[Reference] | bytes = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    exports: list[Export] = field(default_factory=list)
    scopes: list[Scope] = field(default_factory=list)
    all_names: tuple[str, ...] | None = None
    line_count: int = 0
    has_errors: bool = False
    warnings: tuple[str, ...] = ()
    notebook_cells: tuple | None = None   # ((cell, first_line, line_count), ...) for .ipynb
    indirect_calls: list[tuple] = field(default_factory=list)  # (callee token, line, column, container)
    # (callee reference, ((keyword, token, splat), ...)) per call with arguments: a list, or as the
    # cache holds them (one encoded blob) until first read, as references are (``call_arguments``)
    _call_arguments: list[tuple] | bytes = field(default_factory=list)
    item_writes: list[tuple] = field(default_factory=list)  # (container token, key, value token, spread): `d[k] = v`
    iterations: list[tuple] = field(default_factory=list)   # (iterated token, line, container): `for x in it`
    narrowings: list[tuple] = field(default_factory=list)   # (name, class token, start, end): `if (x instanceof C) {…}`
    shorthand_keys: list[tuple] = field(default_factory=list)  # (reference, literal's token): `{percent}` also names T.percent

    @property
    def references(self) -> Sequence[Reference]:
        """The file's references: a list when extracted here, a ``StoredReferences`` when read
        from the cache (made when first asked for)."""
        references = self._references
        if type(references) is bytes:
            references = self._references = _stored_references(references)
        return references

    def reference_column(self, field: str) -> Sequence:
        """One field of every reference, in order (``"name"``, ``"line"``, ``"start_byte"``, …):
        a stored file's column as it is, without making its references."""
        references = self.references
        if type(references) is StoredReferences:
            return getattr(references, _COLUMNS[field])
        return [getattr(r, field) for r in references]

    def reference_receiver(self, index: int):
        """Reference ``index``'s receiver token (False: none), without making the reference
        (receiver chains are walked link by link)."""
        references = self.references
        if type(references) is StoredReferences:
            return references.receiver_of(index)
        return references[index].receiver

    def reference_name(self, index: int) -> str:
        """Reference ``index``'s name, without making the reference."""
        references = self.references
        if type(references) is StoredReferences:
            return references.names[index]
        return references[index].name

    def definition_column(self, field: str) -> Sequence:
        """One field of every definition, in order (``"name"``, ``"scope"``, …): a stored
        file's column without making its definitions."""
        definitions = self.definitions
        if type(definitions) is StoredDefinitions:
            return definitions.column(field)
        return [getattr(d, field) for d in definitions]

    def hold_as_lists(self) -> None:
        """Every definition and reference made, and held as plain lists from now on: a file whose
        every reference is resolved (the graph's build) has each read tens of times, and a list's
        item is read without a call, a stored one's with one (10 M calls on the stdlib's build)."""
        if type(self._references) is not list:
            self._references = list(self.references)
        if type(self.definitions) is not list:
            self.definitions = list(self.definitions)
        arguments = self._call_arguments
        if type(arguments) is not list:   # (each call's read once or more: decoded whole, kept)
            self._call_arguments = _call_arguments_in(arguments) if type(arguments) is bytes else list(arguments)

    @references.setter
    def references(self, references: list[Reference]) -> None:
        self._references = references

    @property
    def call_arguments(self) -> "Sequence[tuple]":
        """What each call with arguments passes: ``(callee reference, ((keyword, token, splat),
        …))``. A stored file's are read when first asked for (``StoredCallArguments``): only value
        flow and overloads read them, of the few files whose calls they look at, yet they were the
        largest table a loaded file held (the stdlib after 700 answers: 1.4 M of its 7.7 M objects,
        all walked by the cyclic collector; then 39 MB of a long-lived process)."""
        arguments = self._call_arguments
        if type(arguments) is bytes:
            arguments = self._call_arguments = _call_arguments_in(arguments) if _CALLS_DECODED_WHOLE \
                else StoredCallArguments(arguments)
        return arguments

    def call_callees(self) -> Sequence[int]:
        """The callee reference of each call with arguments, in ``call_arguments``' order (no
        call's arguments decoded)."""
        arguments = self.call_arguments
        if type(arguments) is StoredCallArguments:
            return arguments.callees
        return [callee for callee, _passed in arguments]

    @call_arguments.setter
    def call_arguments(self, arguments: list[tuple]) -> None:
        self._call_arguments = arguments

    @property
    def reference_count(self) -> int:
        """How many references, without making them."""
        references = self._references
        return leading_count(references) if type(references) is bytes else len(references)

    def __eq__(self, other) -> bool:
        if type(other) is not FileFacts:
            return NotImplemented
        return self.to_rows() == other.to_rows()   # equal whether the references were made yet or not

    # ---- compact storage: rows of plain values (the cache's data-only encoding, index/encoding.py)
    def to_rows(self) -> tuple:
        references = self._references
        return (
            self.path, self.language,
            definition_columns(self.definitions),
            references if type(references) is bytes else reference_blob(references),
            [_row(i) for i in self.imports], [_row(e) for e in self.exports],
            [_row(s) for s in self.scopes],
            self.all_names, self.line_count, self.has_errors, self.warnings, self.notebook_cells,
            self.indirect_calls, _call_arguments_blob(self._call_arguments), self.item_writes, self.iterations,
            self.narrowings, self.shorthand_keys,
        )

    @classmethod
    def from_rows(cls, rows: tuple) -> "FileFacts":
        """The inverse of :meth:`to_rows`, also from rows whose lists came back as tuples (the
        cache's encoding has one kind of array): the fields declared as lists are lists again.
        Rows of another shape (a count, a row length, the path's or language's type) raise
        ``ValueError`` or ``TypeError``, so that a damaged or foreign cache row is refused."""
        (path, language, defs, refs, imps, exps, scopes, all_names, line_count, has_errors,
         warnings, cells, indirect, arguments, item_writes, iterations, narrowings, shorthand) = rows
        if type(path) is not str or type(language) is not str:
            raise TypeError("path and language must be strings")
        if type(refs) is not bytes or type(arguments) is not bytes:
            raise TypeError("references and call arguments must be encoded")
        for table, width in ((imps, _WIDTH[Import]),
                             (exps, _WIDTH[Export]), (scopes, _WIDTH[Scope])):
            if table and set(map(len, table)) != {width}:   # a short row would take the defaults silently
                raise ValueError(f"fact rows of {sorted(set(map(len, table)))} fields, not {width}")
        share = {}.setdefault   # one object per distinct number in the file's scopes (kinds interned)
        return cls(
            path, language,
            _definitions_from_columns(defs), refs,
            [Import(*r) for r in imps], [Export(*r) for r in exps],
            [Scope(sys.intern(kind), share(start, start), share(end, end), parent, share(owner, owner), *rest)
             for kind, start, end, parent, owner, *rest in scopes],
            all_names, line_count, has_errors, warnings, cells, list(indirect), arguments,
            list(item_writes), list(iterations), list(narrowings), list(shorthand),
        )

    def name_roles(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """(names defined as members of a type or module, names defined at the file's top level),
        each with the indexes of those definitions, in order: what a lookup by name alone looks
        for, so that it need not load a file to find them (nor one where the name is only a
        local variable to find that out)."""
        definitions = self.definitions
        members: dict[str, list[int]] = {}
        top: dict[str, list[int]] = {}
        for i, d in enumerate(definitions):
            if d.kind == "parameter":
                continue
            if d.container >= 0 and definitions[d.container].kind in MEMBER_OWNER_KINDS:
                members.setdefault(d.name, []).append(i)
            if d.scope == 0:
                top.setdefault(d.name, []).append(i)
        return members, top

    def node_names(self) -> set[str]:
        """The names of the definitions a call graph makes nodes of (``NODE_KINDS``), and of
        properties (a getter is one): the names whose reads the graph resolves, kept in each
        file's summary so that a graph's build knows them all without loading every file."""
        column = self.definition_column
        return {name for name, kind in zip(column("name"), column("kind")) if kind in NODE_KINDS or kind == "property"}

    def names(self) -> tuple[set[str], set[str]]:
        """(names defined here, names referenced or imported here): the cross-file name index."""
        defined = {d.name for d in self.definitions if d.kind != "parameter"}
        used = set(self.reference_column("name"))   # (a stored file's references are not made)
        for imp in self.imports:
            if imp.name:
                used.add(imp.name)
            elif imp.kind == "default":
                used.add("default")  # found by find_references of whatever a module exports as default
            if imp.local:
                used.add(imp.local)
        for exp in self.exports:
            if exp.kind == "star":
                used.add("*")  # a barrel: find_references looks through it for every name
            for n in (exp.name, exp.exported_as):
                if n:
                    used.add(n)
        return defined, used


def indices_of(column: Sequence, value) -> list[int]:
    """Where ``value`` is in ``column`` (a tuple or list of a file's facts' field), in order:
    searched by ``index``, at C speed, rather than compared item by item in Python."""
    found, i = [], -1
    try:
        while True:
            i = column.index(value, i + 1)
            found.append(i)
    except ValueError:
        return found


def _call_arguments_blob(arguments) -> bytes:
    """The cache's form of a file's call arguments: one blob (kept as it is once read from it)."""
    if type(arguments) is bytes:
        return arguments
    if type(arguments) is StoredCallArguments:
        return arguments.blob
    return encode(arguments, compress=False)


def _call_arguments_in(blob: bytes) -> list[tuple]:
    """A file's call arguments from their blob. One of another shape raises (``DecodeError``, a
    ``ValueError``, or ``TypeError``), as a row of another shape does when the file is loaded."""
    arguments = decode(blob, compressed=False)
    if type(arguments) is not tuple or not all(
            type(call) is tuple and len(call) == 2 and type(call[0]) is int and type(call[1]) is tuple
            for call in arguments):
        raise TypeError("call arguments of another shape")
    return list(arguments)


# Set in a process that reads the calls of nearly every file, many times over (the graph's build, in
# its child): each file's are decoded whole and kept there, as reading them call by call cost that
# build 5 % more CPU (``decode_calls_whole``).
_CALLS_DECODED_WHOLE = False


def decode_calls_whole() -> None:
    """From now on in this process, a stored file's call arguments are decoded whole when first
    read and kept (not ``StoredCallArguments``)."""
    global _CALLS_DECODED_WHOLE
    _CALLS_DECODED_WHOLE = True


def _row(obj) -> tuple:
    return _FIELDS[type(obj)](obj)


class _StoredFacts(Sequence):
    """What ``StoredDefinitions``, ``StoredReferences`` and ``StoredCallArguments`` share: a list
    of facts made when asked for (``StoredDefinitions`` keeps those it made in ``_made``), equal to
    the list of them."""

    __slots__ = ()

    def __len__(self) -> int:
        return len(self._made)

    def __iter__(self):
        """Every fact, those not made yet made first (an iteration reads them all): then the
        list's own iterator, not a call per item."""
        made = self._made
        for i in [i for i, fact in enumerate(made) if fact is None]:   # (`None in made` would call __eq__)
            self[i]
        return iter(made)

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, type(self))) and len(other) == len(self) and all(
            a == b for a, b in zip(self, other))

    __hash__ = None


class StoredCallArguments(_StoredFacts):
    """A stored file's call arguments, read from their blob: the callees' reference indexes as an
    array, each call's arguments held encoded (a few bytes) and decoded when first asked for.
    Decoded whole, those of the files value flow had looked into were 39 MB of the stdlib's
    long-lived process (a tuple for each argument and for its token), though value flow reads the
    calls of one callee at a time; the blob is checked whole when first read, as before, and kept
    to be written again as it was."""

    __slots__ = ("blob", "callees", "_offsets", "_encoded", "_decoded")

    def __init__(self, blob: bytes):
        calls = _call_arguments_in(blob)   # (one of another shape raises here, as before)
        self.blob = blob
        self.callees = array("i", [callee for callee, _passed in calls])
        parts = [encode(passed, compress=False) for _callee, passed in calls]
        self._offsets = array("q", accumulate(map(len, parts), initial=0))
        self._encoded = b"".join(parts)
        self._decoded: dict[int, tuple] = {}

    def __len__(self) -> int:
        return len(self.callees)

    def __getitem__(self, k):
        if type(k) is slice:
            return [self[i] for i in range(*k.indices(len(self.callees)))]
        if k < 0:
            k += len(self.callees)
        call = self._decoded.get(k)
        if call is None:
            offsets = self._offsets
            call = self._decoded[k] = (self.callees[k], decode(self._encoded[offsets[k]:offsets[k + 1]],
                                                               compressed=False))
        return call

    def __iter__(self):
        return map(self.__getitem__, range(len(self.callees)))

    def __reduce__(self):
        return StoredCallArguments, (self.blob,)


class StoredDefinitions(_StoredFacts):
    """A stored file's definitions, read from the cache's columns (``definition_columns``);
    each ``Definition`` made when first asked for.

    A file is loaded for a few of its definitions (the one a name is bound to, a class's
    members, a function's parameters), yet making all of them was the largest part of loading
    it (a 5,600-line test file: 2,000 definitions, 8 ms of 30); and the rows and objects it
    kept were walked by every collection of the cyclic collector until they grew old (10-20 ms
    of an answer, one in ten). Columns are a few dozen objects: names and kinds interned, the
    places (lines, offsets, scopes, containers) in arrays; the lookup tables of a file
    (``resolve.base.FileView``) read them (``FileFacts.definition_column``) without making a
    definition. Like the list it stands for, it is not changed once made."""

    __slots__ = ("_columns", "_made")

    def __init__(self, columns: tuple):
        """From the cache's columns (``definition_columns``: the numbers as arrays already)."""
        intern = sys.intern   # a name or kind not a string (a foreign row): TypeError
        columns = list(columns)
        count = len(columns[0])
        columns[0], columns[1] = tuple(map(intern, columns[0])), tuple(map(intern, columns[1]))
        # A field no definition of the file sets (most of a Python file's: types, generics,
        # qualifiers, …) reads from one tuple of its default that every file shares: a column
        # of a file's own was 8 bytes a definition each (28 MB of the stdlib's loaded facts).
        for i, default in _DEFAULTS:
            column = columns[i]
            if column.count(default) == count:   # (in C: a check per value in Python was 15 % of a load)
                columns[i] = _defaults(default, count)
        self._columns = tuple(columns)
        self._made: list[Definition | None] = [None] * count

    def __getitem__(self, index):
        made = self._made[index]   # (resolution asks for a definition ten times for each made: this first)
        if made is None:
            made = self._made[index] = Definition(*[column[index] for column in self._columns])
        elif type(made) is list:   # a slice
            return [self[i] for i in range(*index.indices(len(self._made)))]
        return made

    def column(self, field: str) -> Sequence:
        """One field of every definition, in order, without making them."""
        column = self._columns[_DEFINITION_FIELD[field]]
        return column if len(column) == len(self._made) else column[:len(self._made)]

    def columns(self) -> tuple:
        """Every field's column, in ``Definition``'s order (numbers in arrays)."""
        count = len(self._made)
        return tuple(column if len(column) == count else column[:count] for column in self._columns)

    def __reduce__(self):
        return StoredDefinitions, (self.columns(),)


_DEFINITION_FIELD = {name: i for i, name in enumerate(Definition.__slots__)}
# (field, its default) of the fields held as objects whose default is one shared object (None,
# False, "", ()): a column holding only it is made of ``_defaults``
_DEFAULTS = tuple((i, f.default) for i, f in enumerate(fields(Definition))
                  if f.default is None or (type(f.default) in (bool, str, tuple) and f.default in (False, "", ())))
_DEFAULT_RUNS: dict[int, tuple] = {}   # id of a default -> a tuple of it, as long as the longest asked for


def _defaults(default, count: int) -> tuple:
    """A tuple of at least ``count`` times ``default``, shared."""
    run = _DEFAULT_RUNS.get(id(default), ())
    if len(run) < count:
        run = _DEFAULT_RUNS[id(default)] = (default,) * max(count, 2 * len(run), 1024)
    return run


# the fields held in arrays: every one an integer in every definition
_DEFINITION_NUMBERS = frozenset(_DEFINITION_FIELD[name] for name in (
    "line", "column", "end_line", "end_column", "start_line", "start_byte", "end_byte", "name_byte", "scope",
    "own_scope", "container"))


def definition_columns(definitions) -> tuple:
    """A file's definitions as the cache holds them: one column per field, in ``Definition``'s
    order; a column of numbers as the bytes of an array (``_packed``), any other as a tuple.
    Read back whole (``_unpacked``), not value by value: loading a file's definitions was mostly
    making one tuple per definition and one object per field (a 2,000-definition file: 4.5 ms
    of msgpack, then 4 ms to turn its rows into columns)."""
    columns = definitions.columns() if type(definitions) is StoredDefinitions else _columns_of(definitions, Definition)
    return _packed_columns(columns, _DEFINITION_NUMBERS)


def _definitions_from_columns(columns) -> "StoredDefinitions | list":
    """The inverse of ``definition_columns``; columns of another shape raise ``ValueError`` or
    ``TypeError`` (a damaged or foreign cache row is refused as a whole)."""
    if type(columns) is not tuple or len(columns) != _WIDTH[Definition]:
        raise ValueError("definitions of another shape")
    count = len(columns[0]) if type(columns[0]) is tuple else -1
    return StoredDefinitions(_unpacked_columns(columns, _DEFINITION_NUMBERS, count)) if count else []


def _columns_of(facts: list, kind: type) -> tuple:
    """Each field of ``kind`` over ``facts``, in the order of its fields."""
    return tuple(zip(*map(_FIELDS[kind], facts))) if facts else ((),) * _WIDTH[kind]


def _packed_columns(columns, numbers: frozenset) -> tuple:
    """Columns as the cache holds them: those at ``numbers`` packed (``_packed``), the others tuples."""
    return tuple(_packed(column) if i in numbers else tuple(column) for i, column in enumerate(columns))


def _unpacked_columns(columns, numbers: frozenset, count: int, flags: frozenset = frozenset()) -> tuple:
    """The inverse of ``_packed_columns``, each column checked to hold ``count`` items (those at
    ``flags``: a byte each, as bytes)."""
    columns = tuple(_unpacked(column) if i in numbers else column for i, column in enumerate(columns))
    if any(type(column) not in ((bytes,) if i in flags else (tuple, array)) or len(column) != count
           for i, column in enumerate(columns)):
        raise ValueError("fact columns of unequal lengths")
    return columns


_REFERENCE_NUMBERS = frozenset(Reference.__slots__.index(name)
                               for name in ("line", "column", "start_byte", "scope", "container"))
_BIG_ENDIAN = sys.byteorder == "big"


def _packed(numbers) -> bytes:
    """Integers as one bytes: a type code and the array's items, little-endian — the smallest of
    ``h`` (16 bits each), ``i`` (32) and ``q`` (64) that holds them all. Lines, columns, scopes
    and containers fit in 16 bits in all but the largest files: held as read, a loaded file's
    number columns take half the memory (4 of every 5 columns of the stdlib's)."""
    if type(numbers) is array:
        packed = numbers
    else:
        numbers = list(numbers)
        low, high = (min(numbers), max(numbers)) if numbers else (0, 0)
        typecode = "h" if -32768 <= low and high < 32768 else "i" if -2 ** 31 <= low and high < 2 ** 31 else "q"
        packed = array(typecode, numbers)   # (beyond 64 bits: OverflowError)
    if _BIG_ENDIAN:
        packed = array(packed.typecode, packed)
        packed.byteswap()
    return packed.typecode.encode() + packed.tobytes()


def _unpacked(blob) -> array:
    if type(blob) is not bytes or blob[:1] not in (b"h", b"i", b"q"):
        raise ValueError("a column of numbers of another shape")
    numbers = array(blob[:1].decode())
    numbers.frombytes(blob[1:])   # a length that is not a whole number of items: ValueError
    if _BIG_ENDIAN:
        numbers.byteswap()
    return numbers


def reference_blob(references) -> bytes:
    """A file's references as the cache holds them: their count, then one column per field, in
    ``Reference``'s order (numbers packed as ``definition_columns`` packs them). Kept encoded in
    the file's facts until first read (``StoredReferences``)."""
    if type(references) is StoredReferences:
        return references.blob
    return reference_blob_of_columns(_columns_of(references, Reference))


def reference_blob_of_columns(columns) -> bytes:
    """``reference_blob`` of references given as their columns (each a sequence, in ``Reference``'s
    field order), as extraction makes them. The receivers are numbers too (``_receiver_codes``),
    with the few tokens that are not a name's read after the columns."""
    codes, others = _receiver_codes(columns[_RECEIVER])
    packed = list(_packed_columns(columns[:_RECEIVER] + (codes,) + columns[_RECEIVER + 1:],
                                  _REFERENCE_NUMBERS | {_RECEIVER}))
    try:
        packed[_USAGE] = bytes(map(_USAGE_CODE.__getitem__, columns[_USAGE]))
    except KeyError as error:
        raise ValueError(f"a reference's usage of no known kind: {error}") from None
    packed[_NEW] = bytes(map(bool, columns[_NEW]))
    return encode((len(columns[0]), *packed, others), compress=False)


def _reference_columns(blob: bytes) -> tuple:
    """The columns ``reference_blob`` encoded, checked when first read as the other tables are when
    the file is loaded: columns of another shape raise ``ValueError`` or ``TypeError``, a blob that
    is not this encoding's ``DecodeError`` (a ``ValueError``). The receivers come as their codes
    and the tokens that are not a name's, by reference (``StoredReferences``)."""
    value = decode(blob, compressed=False)
    if type(value) is not tuple or len(value) != _WIDTH[Reference] + 2 or type(value[0]) is not int \
            or type(value[-1]) is not tuple:
        raise ValueError("references of another shape")
    columns = _unpacked_columns(value[1:-1], _REFERENCE_NUMBERS | {_RECEIVER}, value[0], _REFERENCE_FLAGS)
    if max(columns[_USAGE], default=0) >= len(_USAGES) or max(columns[_NEW], default=0) > 1:
        raise ValueError("reference usages of another shape")
    codes, others = columns[_RECEIVER], value[-1]
    at, by_reference = -1, {}
    for token in others:
        at = codes.index(_OTHER_RECEIVER, at + 1)   # (fewer codes than tokens: ValueError)
        by_reference[at] = token
    if _OTHER_RECEIVER in codes[at + 1:] or min(codes, default=0) < _OTHER_RECEIVER:
        raise ValueError("receivers of another shape")
    return columns[:_RECEIVER] + ((codes, by_reference),) + columns[_RECEIVER + 1:]


# A reference's usage and whether it is a `new X()`: a byte each (as tuples, 16 bytes a reference
# of every loaded file: 17 MB of the warm stdlib process)
_USAGES = ("read", "call", "write", "type-ref")
_USAGE_CODE = {usage: i for i, usage in enumerate(_USAGES)}
_USAGE, _NEW = Reference.__slots__.index("usage"), Reference.__slots__.index("new")
_REFERENCE_FLAGS = frozenset((_USAGE, _NEW))

# A reference's receiver as the cache holds it: the index of the name read (``("r", i)``: nine in
# ten receivers), none, or another token, kept beside the column (a call, a literal, …). As tuples,
# the receivers of the stdlib's files loaded after 700 questions were 27 MB.
_RECEIVER = Reference.__slots__.index("receiver")
_NO_RECEIVER, _OTHER_RECEIVER = -1, -2


def _receiver_codes(receivers) -> tuple[list, tuple]:
    """(a code for each receiver, the tokens coded ``_OTHER_RECEIVER`` in order)."""
    codes = [_NO_RECEIVER] * len(receivers)
    others = []
    for i, token in enumerate(receivers):
        if token is False:
            continue
        if type(token) is tuple and len(token) == 2 and token[0] == "r" and type(token[1]) is int \
                and 0 <= token[1] < 2 ** 31:
            codes[i] = token[1]
        else:
            codes[i] = _OTHER_RECEIVER
            others.append(token)
    return codes, tuple(others)


class StoredReferences(_StoredFacts):
    """A stored file's references, read from the cache's columns (``reference_blob``); a
    ``Reference`` is made each time one is asked for, and not kept.

    A file is loaded to resolve a few of its references — those of one name (find_references of
    ``assertEqual``: 34,000 uses in 700 files, 50 in a file of 600), the one at a position and
    its receivers — yet making every one as an object was the largest part of loading it (3 µs
    each), and each object stayed for the cyclic collector to walk (600 a file; the stdlib's
    1.1M). Columns hold them in ~12 objects a file: names and usages interned (a few thousand
    distinct ones in a project), numbers in arrays; ``FileFacts.reference_column`` reads one as
    it is (the names searched for one, the lines bisected for a position). Like the list it
    stands for, it is not changed once made. Its blob is not kept beside its columns (25 MB of
    the stdlib's loaded files): ``blob`` encodes them again, into the same bytes.

    Made references were kept once (resolution asks for some several times): they were the
    largest table of a long-lived process — 62 MB of the stdlib's after 700 questions, a fresh int
    for each line and offset — and making one again costs less than a tenth of resolving it (the
    same 700 questions took as long; peak RSS 537 → 484 MB). A file whose every reference is read
    many times over (the graph's build) holds them as a list instead (``hold_as_lists``)."""

    __slots__ = ("names", "lines", "columns", "starts", "_usage_codes", "scopes", "containers", "_receiver_codes",
                 "_other_receivers", "_new_flags")

    def __init__(self, blob: bytes):
        (names, self.lines, self.columns, self.starts, self._usage_codes, self.scopes, self.containers,
         (self._receiver_codes, self._other_receivers), self._new_flags) = _reference_columns(blob)
        self.names = tuple(map(sys.intern, names))   # (a name not a string: TypeError)

    @property
    def usages(self) -> tuple:
        """Each reference's usage (``"read"``, ``"call"``, …), in order."""
        return tuple(map(_USAGES.__getitem__, self._usage_codes))

    @property
    def new(self) -> tuple:
        """Whether each reference is called with `new`, in order."""
        return tuple(map(bool, self._new_flags))

    @property
    def receivers(self) -> tuple:
        """Each reference's receiver token (False: none), in order."""
        return tuple(map(self.receiver_of, range(len(self.names))))

    @property
    def blob(self) -> bytes:
        """The cache's blob these references were read from (``reference_blob``)."""
        return reference_blob_of_columns((self.names, self.lines, self.columns, self.starts, self.usages,
                                          self.scopes, self.containers, self.receivers, self.new))

    def rows(self) -> list[tuple]:
        """Each reference's fields, in order, without making them."""
        return list(zip(self.names, self.lines, self.columns, self.starts, self.usages, self.scopes,
                        self.containers, self.receivers, self.new))

    def __len__(self) -> int:
        return len(self.names)

    def receiver_of(self, index: int):
        """Reference ``index``'s receiver token (False: none)."""
        code = self._receiver_codes[index]
        if code == _NO_RECEIVER:
            return False
        if code >= 0:
            return ("r", code)
        return self._other_receivers[index if index >= 0 else index + len(self.names)]

    def __getitem__(self, index):
        if type(index) is slice:
            return [self[i] for i in range(*index.indices(len(self.names)))]
        return Reference(self.names[index], self.lines[index], self.columns[index], self.starts[index],
                         _USAGES[self._usage_codes[index]], self.scopes[index], self.containers[index],
                         self.receiver_of(index), self._new_flags[index] == 1)

    def __iter__(self):
        return map(Reference, self.names, self.lines, self.columns, self.starts, self.usages, self.scopes,
                   self.containers, self.receivers, self.new)

    def __reduce__(self):
        return _stored_references, (self.blob,)


# Reference field -> its StoredReferences column
_COLUMNS = {"name": "names", "line": "lines", "column": "columns", "start_byte": "starts", "usage": "usages",
            "scope": "scopes", "container": "containers", "receiver": "receivers", "new": "new"}


def _stored_references(blob: bytes) -> StoredReferences:
    return StoredReferences(blob)


_WIDTH = {kind: len(kind.__slots__) for kind in (Definition, Reference, Import, Export, Scope)}
# each fact class's fields read in one C call, in declaration order (a tuple for every class:
# all have more than one field)
_FIELDS = {kind: operator.attrgetter(*kind.__slots__) for kind in _WIDTH}


# Where each kind of fact is placed: its lines, its byte offsets and byte spans, its columns. What
# resolution reads of a place is only how offsets compare (scopes, "bound before this use"); the
# graph reads lines. ``doc`` is read by neither (answers read it from the file's current facts).
_PLACES = {
    Definition: (("line", "end_line", "start_line"), ("start_byte", "end_byte", "name_byte"),
                 ("returns_span", "type_span"), ("column", "end_column", "doc")),
    Reference: (("line",), ("start_byte",), (), ("column",)),
    Import: (("line", "name_line"), ("start_byte",), (), ("column", "name_column")),
    Export: (("line",), ("start_byte",), (), ("column",)),
    Scope: ((), ("start_byte", "end_byte"), (), ()),
}


def _placed(fields: tuple[str, ...], places: tuple, by_name: bool) -> tuple:
    """Getters of (the fields that are not places, as one tuple; each line; each offset; each
    span): of a fact's attributes when ``by_name``, else of its row's items."""
    get = operator.attrgetter if by_name else (lambda *names: operator.itemgetter(*map(fields.index, names)))
    placed = {name for group in places for name in group}
    lines, offsets, spans, _other = ([get(name) for name in group] for group in places)
    return get(*[name for name in fields if name not in placed]), lines, offsets, spans


_MOVABLE = {kind: _placed(kind.__slots__, places, True) for kind, places in _PLACES.items()}
_REFERENCE_ROWS = _placed(Reference.__slots__, _PLACES[Reference], False)   # references still encoded
# the tuples of FileFacts' other tables: (token, line, column, container), (token, line,
# container), (name, token, start, end)
_TUPLES = {"indirect_calls": _placed(("t", "l", "c", "o"), (("l",), (), (), ("c",)), False),
           "iterations": _placed(("t", "l", "o"), (("l",), (), (), ()), False),
           "narrowings": _placed(("n", "t", "s", "e"), ((), ("s", "e"), (), ()), False)}


class Moves(NamedTuple):
    """What ``line_moves`` found: the facts only moved. ``lines``: each line of the old file
    that holds a fact -> its line in the new one; None when a line was split or joined (a
    formatter's reflow), so that a line alone no longer says where a fact went."""

    lines: dict[int, int] | None


def line_moves(before: FileFacts, after: FileFacts) -> Moves | None:
    """Whether ``after`` says all that ``before`` says, only at moved places (comment or blank
    lines added or removed, a docstring rewritten, code re-indented or reflowed); None when it
    does not. Moved means the same facts in the same order, the byte offsets of all of them moved
    by one order-keeping map: every resolution, which compares offsets only, is the same. What a
    save that changes no code costs is then that of reading the file again."""
    if (before.language, before.all_names, before.has_errors, before.notebook_cells, before.call_arguments,
            before.item_writes, before.shorthand_keys) != (after.language, after.all_names, after.has_errors,
                                                            after.notebook_cells, after.call_arguments,
                                                            after.item_writes, after.shorthand_keys):
        return None
    tables = [(_MOVABLE[kind], getattr(before, name), getattr(after, name))
              for kind, name in ((Definition, "definitions"), (Import, "imports"), (Export, "exports"))]
    # a file's own scope spans it whole: where it starts and ends is no place of what it says
    # (the first import starts with it, the last function may end with it, until a line is added)
    same_scope = _MOVABLE[Scope][0]
    if list(map(same_scope, before.scopes)) != list(map(same_scope, after.scopes)):
        return None
    tables.append((_MOVABLE[Scope], [s for s in before.scopes if s.parent >= 0],
                   [s for s in after.scopes if s.parent >= 0]))
    # as rows: the store's references need not be made (most of loading a file)
    tables.append((_REFERENCE_ROWS, _rows_of_references(before), _rows_of_references(after)))
    tables += [(placed, getattr(before, name), getattr(after, name)) for name, placed in _TUPLES.items()]
    old_lines: list[int] = []
    new_lines: list[int] = []
    old_offsets: list[int] = []
    new_offsets: list[int] = []
    for (same, line_at, offset_at, span_at), old, new in tables:
        if len(old) != len(new) or list(map(same, old)) != list(map(same, new)):
            return None
        for get in line_at:
            old_lines += map(get, old)
            new_lines += map(get, new)
        for get in offset_at:
            old_offsets += map(get, old)
            new_offsets += map(get, new)
        for get in span_at:
            for a, b in zip(map(get, old), map(get, new)):
                if (a is None) != (b is None):
                    return None
                if a is not None:
                    old_offsets += a
                    new_offsets += b
    if min(min(places, default=0) for places in (old_lines, old_offsets, new_lines, new_offsets)) < 0:
        return None   # (no fact has a negative place: not a file's facts)
    moved = dict(zip(old_lines, new_lines))
    if len(moved) != len(_pairs(old_lines, new_lines)):
        moved = None   # a line split in two, or two joined: an edge on it cannot be moved
    pairs = sorted(_pairs(old_offsets, new_offsets))   # by the old offset, then the new
    olds, news = [pair >> 32 for pair in pairs], [pair & 0xFFFFFFFF for pair in pairs]
    if len(set(olds)) != len(olds) or news != sorted(news) or len(set(news)) != len(news):
        return None   # two facts in another order, or at one place where they were apart
    return Moves(moved)


def _pairs(firsts: list[int], seconds: list[int]) -> set[int]:
    """The distinct (first, second) pairs of places, each as one integer that sorts as the pair
    does (places are not negative, and below 2**32: files are at most a few MB)."""
    return {first << 32 | second for first, second in zip(firsts, seconds)}


def _rows_of_references(facts: FileFacts):
    references = facts._references
    if type(references) is bytes:
        references = _stored_references(references)
    return references.rows() if type(references) is StoredReferences else list(map(_FIELDS[Reference], references))
