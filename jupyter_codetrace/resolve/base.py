"""The vocabulary of resolution: symbols, resolutions, inferred types, a file's lookup tables.

Shared by the parts of the resolver (``scopes``, ``imports``, ``members``, ``types``,
``candidates``) and by the stages after it, which import these names from ``resolver``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Sequence

from ..dataclass_code import dataclass
from ..facts import CLASS_KINDS, MEMBER_OWNER_KINDS, FileFacts
from ..languages.spec import LanguageSpec

_VALUE_KINDS = frozenset({"variable", "constant", "field", "property", "parameter", "enum_member"})
_CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
_MERGED_KINDS = frozenset({"interface", "namespace"})
_MAX_DEPTH = 24          # import chains and inference steps; deeper is almost surely a cycle
_MAX_CANDIDATES = 8
_END = 1 << 60           # "after everything": what a module finally binds


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition (``index`` into the file's definitions) or a whole module (``index == -1``)."""

    path: str
    index: int = -1

    @property
    def is_module(self) -> bool:
        return self.index < 0


@dataclass(slots=True)
class Resolution:
    """What a name resolved to (or why not), how, and the rivals a name-only answer had."""

    status: str                                     # found | builtin | unresolved | not_found
    target: Symbol | None = None
    kind: str = "scope"                             # scope | import | member | inferred | name-only
    # Sequences, never changed in place: most of a project's resolutions (800k on the stdlib) have
    # none, and share one empty tuple instead of two empty lists each.
    candidates: Sequence[Symbol] = ()
    resolved_from: Sequence[tuple[str, str]] = ()
    via: str | None = None                          # the import an unresolved name came through
    missing: str | None = None                      # the module that import names, found nowhere
    why: str | None = None                          # why it is unresolved, when no import tells

    def with_chain(self, step: tuple[str, str]) -> "Resolution":
        return Resolution(self.status, self.target, "import" if self.kind == "scope" else self.kind,
                          self.candidates, (step, *self.resolved_from), self.via, self.missing, self.why)


class SameAnswers:
    """One object for equal resolutions: the stdlib's 830k resolved references have 180k distinct
    answers (every read of a parameter, every call of a function), and an answer with its Symbol
    takes 150 bytes. Safe because no resolution is changed in place (``dataclasses.replace``
    makes another)."""

    __slots__ = ("_by_target", "_others")

    def __init__(self):
        # most answers are a target and how it was found: one table per (status, kind, file),
        # keyed by the target's index, so that no key is kept for them and none hashes a Symbol
        self._by_target: dict[tuple[str, str, str], dict[int, Resolution]] = {}
        self._others: dict[tuple, Resolution] = {}

    def one(self, answer: Resolution) -> Resolution:
        """The first answer equal to ``answer`` (``answer`` itself the first time)."""
        target = answer.target
        if target is not None and not answer.candidates and not answer.resolved_from \
                and answer.via is None and answer.missing is None and answer.why is None:
            place = (answer.status, answer.kind, target.path)
            table = self._by_target.get(place)
            if table is None:
                table = self._by_target[place] = {}
            return table.setdefault(target.index, answer)
        key = (answer.status, answer.target, answer.kind, tuple(answer.candidates), tuple(answer.resolved_from),
               answer.via, answer.missing, answer.why)
        return self._others.setdefault(key, answer)


# Kinds of ``Resolver.kept`` keys ``(kind, path, …)`` whose value depends only on the facts of the
# file ``key[1]``: kept by the next generation while that file is unchanged. Two are the graph's
# (graph/build.py), one find_references' (queries/references.py). Anything else there is stored
# with ``Resolver.remember``.
FILE_MEMOS = frozenset({"interface", "defined_names", "calls_of", "value_names", "arity", "arguments",
                        "references.names"})

_UNKNOWN = Resolution("not_found")
_NO_VIEW = object()


@dataclass(frozen=True, slots=True)
class InferredType:
    """The type a value was inferred to have: an instance or class of a symbol, a module, a builtin."""

    kind: str            # instance | class | module | builtin | super
    symbol: Symbol | None = None


class TablesByKey:
    """key -> the table ``make`` makes of the items grouped under that key, made when first asked
    for (``get``, as of a dict); the group is let go once its table is made."""

    __slots__ = ("_groups", "_tables", "_make")

    def __init__(self, groups: dict, make):
        self._groups, self._tables, self._make = groups, {}, make

    def get(self, key, default=None):
        table = self._tables.get(key)
        if table is None:
            group = self._groups.get(key)
            if group is None:
                return default
            table = self._tables[key] = self._make(group)
            # let go only once the table is there: another reader finds one or the other
            self._groups.pop(key, None)
        return table

    def make_all(self) -> None:
        """Every table made now; the maker (and what it holds) let go."""
        for key in list(self._groups):
            self.get(key)
        self._make = None


class FileView:
    """A file's facts with the lookup tables resolution needs, built once per generation."""

    __slots__ = ("facts", "spec", "bindings", "stars", "_ref_starts", "members", "extensions", "_by_name",
                 "_params", "_params_of", "_params_by_start")

    def __init__(self, facts: FileFacts, spec: LanguageSpec):
        self.facts, self.spec = facts, spec
        # Read as columns (a stored file's definitions are made only when asked for), and only
        # grouped here: the table of a scope's names (``bindings``) or of a type's members
        # (``members``) is made when first asked for. An answer looks into a few scopes of the
        # files it reads; making every table of a 2,000-definition file was 5 ms of its load.
        column = facts.definition_column
        names, kinds, scopes, containers = column("name"), column("kind"), column("scope"), column("container")
        by_scope: dict[int, list] = {}
        by_container: dict[int, list[int]] = {}
        for i, (kind, scope, container) in enumerate(zip(kinds, scopes, containers)):
            if scope >= 0:
                by_scope.setdefault(scope, []).append(i)
            if container >= 0 and kind != "parameter":
                by_container.setdefault(container, []).append(i)
        stars: dict[int, list[int]] = {}
        for j, imp in enumerate(facts.imports):
            if imp.kind == "star":
                stars.setdefault(imp.scope, []).append(j)
            elif imp.local:
                by_scope.setdefault(imp.scope, []).append((imp.local, j << 3 | _BOUND | _IMPORT))
        starts, ends = column("start_byte"), column("end_byte")
        if spec.namespace_members_visible:
            # C++: a namespace's members are also seen from around it (and from other
            # files through `#include`), as the namespace is reopened wherever it is used.
            own_scopes = column("own_scope")
            for i, name in enumerate(names):
                inner = i
                while containers[inner] >= 0 and scopes[inner] >= 0:
                    outer = containers[inner]
                    if kinds[outer] not in ("namespace", "module") or own_scopes[outer] != scopes[inner] \
                            or scopes[outer] < 0:
                        break
                    by_scope.setdefault(scopes[outer], []).append((name, i << 3 | _BOUND))
                    inner = outer

        def bindings_of(group: list) -> dict[str, int | tuple]:
            table: dict[str, int | list] = {}
            for i in group:
                if type(i) is tuple:   # an import's local name, a namespace member seen around it
                    name, entry = i
                else:
                    # A variable's own value cannot see it (`x = x + 1` reads the previous x).
                    name, entry = names[i], i << 3 | (_BOUND | _OWN_VALUE if kinds[i] in _VALUE_KINDS else _BOUND)
                _add_number(table, name, entry)
            # A name bound once (most) as its entry alone; bound more often, as (where each
            # starts, the entries, where the value of each that cannot see itself ends, else -1)
            # in that order (``binding_entries``, ``nearest_binding``). Kept as numbers, never
            # changed: as (start, kind, index, end) tuples, a table's entries were 32 MB of the
            # warm stdlib process's 420.
            for name, entries in table.items():
                if type(entries) is not int:
                    placed = sorted((facts.imports[e >> 3].start_byte if e & _IMPORT else starts[e >> 3],
                                     e & _IMPORT, e >> 3, ends[e >> 3] if e & _OWN_VALUE else -1, e) for e in entries)
                    begins, _imported, _index, finishes, entries = zip(*placed)
                    table[name] = (begins, entries, finishes)
            return table

        def members_of(group: list[int]) -> dict[str, tuple[int, ...]]:
            table: dict[str, list[int]] = {}
            for i in group:
                table.setdefault(names[i], []).append(i)
            return {name: tuple(indices) for name, indices in table.items()}

        # (the groups of the tables not made yet as tuples: lists made by appending hold room for
        # more, 15 MB of the warm stdlib process's views)
        self.bindings = TablesByKey({scope: tuple(group) for scope, group in by_scope.items()}, bindings_of)
        self.members = TablesByKey({owner: tuple(group) for owner, group in by_container.items()}, members_of)
        if type(facts.definitions) is list:
            # facts extracted here: their columns were made for this view alone, and kept by
            # the tables' makers they would double the definitions' memory; made now instead
            self.bindings.make_all()
            self.members.make_all()
        self.stars = stars
        self.extensions = [i for i, qualifier in enumerate(column("qualifier")) if qualifier]
        self._ref_starts: list[int] | None = None
        self._by_name: dict[str, int | tuple[int, ...]] | None = None
        self._params: dict[int, tuple[int, ...]] | None = None
        self._params_of: dict[int, tuple[int, ...]] | None = None
        self._params_by_start: tuple[list[int], list[int]] | None = None

    @property
    def ref_starts(self) -> list[int]:
        """Where each reference starts (they are in position order), made when first needed: a
        file looked into for its definitions only never makes its references."""
        if self._ref_starts is None:
            self._ref_starts = self.facts.reference_column("start_byte")
        return self._ref_starts

    def named(self, name: str) -> tuple[int, ...]:
        """Indices of the definitions called ``name``."""
        by_name = self._by_name
        if by_name is None:
            by_name = {}
            for i, defined in enumerate(self.facts.definition_column("name")):
                _add_number(by_name, defined, i)
            # a name defined once (most) as its index alone, others as a tuple: lists of one were
            # 18 MB of the warm stdlib process's views
            for defined, found in by_name.items():
                if type(found) is not int:
                    by_name[defined] = tuple(found)
            self._by_name = by_name
        found = by_name.get(name, ())
        return (found,) if type(found) is int else found

    def parameters(self, scope: int) -> tuple[int, ...]:
        """The parameters bound in function scope ``scope``, in order (definition indices)."""
        if self._params is None:
            params: dict[int, list[int]] = {}
            column = self.facts.definition_column
            for i, (kind, bound_in) in enumerate(zip(column("kind"), column("scope"))):
                if kind == "parameter":
                    params.setdefault(bound_in, []).append(i)
            self._params = {scope: tuple(indices) for scope, indices in params.items()}
        return self._params.get(scope, ())

    def parameters_of(self, owner: int) -> tuple[int, ...]:
        """The parameters definition ``owner`` (a function) contains, in order (definition
        indices after its own): value flow asks it for every parameter whose arguments it follows,
        and scanning the definitions after the function each time was most of that."""
        if self._params_of is None:
            params: dict[int, list[int]] = {}
            column = self.facts.definition_column
            for i, (kind, container) in enumerate(zip(column("kind"), column("container"))):
                if kind == "parameter" and 0 <= container < i:
                    params.setdefault(container, []).append(i)
            self._params_of = {owner: tuple(indices) for owner, indices in params.items()}
        return self._params_of.get(owner, ())

    def parameters_within(self, start: int, end: int, after: int) -> list[int]:
        """The parameters written in bytes ``[start, end)`` of the file and defined after definition
        ``after``, in order (definition indices): those of a function, and of the function types
        written in a property's or alias's type. Found by position among the file's parameters,
        not by making every definition after ``after`` (type inference asks it for each function
        whose parameters it reads; a 5,000-definition file made them all each time)."""
        if self._params_by_start is None:
            column = self.facts.definition_column
            placed = sorted((at, i) for i, (kind, at) in enumerate(zip(column("kind"), column("start_byte")))
                            if kind == "parameter")
            self._params_by_start = ([at for at, _ in placed], [i for _, i in placed])
        starts, indices = self._params_by_start
        return sorted(i for i in indices[bisect_left(starts, start):bisect_left(starts, end)] if i > after)

    def first_parameter(self, scope: int) -> int | None:
        """The first parameter bound in function scope ``scope`` (``self`` of a method)."""
        params = self.parameters(scope)
        return params[0] if params else None


class Recording:
    __slots__ = ("stack", "read", "keep")

    def __init__(self, stack: list[set[str]], keep: bool = True):
        self.stack, self.read, self.keep = stack, set(), keep

    def __enter__(self) -> set[str]:
        self.stack.append(self.read)
        return self.read

    def __exit__(self, *exc) -> None:
        self.stack.pop()
        if self.keep:
            self.stack[-1].update(self.read)


# A binding as a scope's table holds it (``FileView.bindings``): one number, the index of the
# definition or import that binds the name, shifted left by 3, with these bits: bound (always: the
# number is never 0), an import (not a definition), a value that cannot see its own binding.
_BOUND, _IMPORT, _OWN_VALUE = 4, 1, 2


def _add_number(table: dict, key, number: int) -> None:
    """``number`` filed under ``key``: alone while it is the only one (most keys have one; a list
    of one is 64 bytes more), then in a list of them."""
    held = table.get(key)
    if held is None:
        table[key] = number
    elif type(held) is int:
        table[key] = [held, number]
    else:
        held.append(number)


def binding_entries(entries) -> tuple[int, ...]:
    """A name's entries in a scope's table, in the order they start: a name bound once is held
    as its entry alone, one bound more often as (their starts, the entries, their ends)."""
    return (entries,) if type(entries) is int else entries[1]


def binding_kind(entry: int) -> str:
    """``"i"`` for an import's binding, ``"d"`` for a definition's."""
    return "i" if entry & _IMPORT else "d"


def binding_index(entry: int) -> int:
    """The index of the import or definition (``binding_kind``) that makes the binding."""
    return entry >> 3


def nearest_binding(entries, at: int) -> int:
    """The binding in effect at byte ``at``: the last one before it, else the first after it
    (a name bound once: its one entry, ``binding_entries``)."""
    if type(entries) is int:
        return entries
    starts, entries, ends = entries
    i = bisect_right(starts, at) - 1
    while i >= 0 and ends[i] > at:  # skip a variable whose own value holds `at`
        i -= 1
    return entries[i] if i >= 0 else entries[0]
