"""Where a file defines each name, as a lookup by name lists it without the file's facts.

A symbol search, the places an unresolved answer lists and the ranking of did-you-mean names
ask, for a name, which files define it (the summaries' ``defined`` sets) and then where in
each: loading those files' facts for it cost the stdlib's searches 0.4-3 s (a view, every
definition made, for the few named). A file's places are stored beside its facts
(``index/store.py``) and made from them, in memory too for an unsaved buffer, by the same
``_place``: a lookup reads them alone.
"""

from __future__ import annotations


from .dataclass_code import dataclass
from .facts import MEMBER_OWNER_KINDS, FileFacts, indices_of
from .nesting import nesting

__all__ = ["Place", "checked", "places_of", "places_named", "stored_places"]


@dataclass(frozen=True, slots=True)
class Place:
    """A definition other than a parameter, as a lookup by name shows it."""
    name: str
    kind: str
    line: int
    column: int
    container: tuple[str, ...]   # the enclosing definitions' names, outermost first (``nesting`` but its own)
    exported: bool
    top_level: bool              # enclosed by no definition
    searchable: bool             # at the top of its file or a member of a type: what a symbol search lists
    signature: str
    index: int                   # the definition's index in its file's facts (``Symbol(path, index)``)
    declaration: bool            # a declaration only (a C prototype, a TypeScript overload)
    scoped: bool                 # in a scope of its file (a C++ out-of-line member is not: ``scope`` -1)


def _place(facts: FileFacts, index: int) -> tuple:
    d = facts.definitions[index]
    defs = facts.definitions
    searchable = d.scope <= 0 or (d.container >= 0 and defs[d.container].kind in MEMBER_OWNER_KINDS)
    return (d.name, d.kind, d.line, d.column, nesting(facts, index)[:-1], bool(d.exported), d.container < 0,
            searchable, d.signature or "", index, bool(d.declaration), d.scope >= 0)


def places_of(facts: FileFacts) -> tuple[tuple, tuple[str, ...]]:
    """(a row per definition other than a parameter, in the file's order; the names its
    parameters have): what is stored."""
    rows, parameters = [], set()
    for i, d in enumerate(facts.definitions):
        if d.kind == "parameter":
            parameters.add(d.name)
        else:
            rows.append(_place(facts, i))
    return tuple(rows), tuple(sorted(parameters))


def places_named(facts: FileFacts, name: str, named=None) -> tuple[list[Place], bool]:
    """(the places of ``name`` in facts held in memory, whether a parameter has that name);
    ``named``: the indices of the definitions called so, when known (``FileView.named``: then
    no other definition is made to be compared)."""
    found, parameter = [], False
    definitions = facts.definitions
    for i in named if named is not None else indices_of(facts.definition_column("name"), name):
        d = definitions[i]
        if d.name == name:
            if d.kind == "parameter":
                parameter = True
            else:
                found.append(Place(*_place(facts, i)))
    return found, parameter


def checked(stored) -> tuple[tuple, frozenset]:
    """What ``places_of`` gave, as decoded from the store, checked once: rows of another shape
    raise ``TypeError`` or ``ValueError``."""
    rows, parameters = stored
    kept = []
    for name, kind, line, column, container, exported, top_level, searchable, signature, index, declaration, \
            scoped in rows:
        if not (type(name) is str and type(kind) is str and type(line) is int and type(column) is int
                and type(signature) is str and type(index) is int and index >= 0
                and all(type(part) is str for part in container)):
            raise TypeError("a place of another shape")
        kept.append((name, kind, line, column, tuple(container), bool(exported), bool(top_level), bool(searchable),
                     signature, index, bool(declaration), bool(scoped)))
    if not all(type(p) is str for p in parameters):
        raise TypeError("parameter names of another shape")
    return tuple(kept), frozenset(parameters)


def stored_places(stored: tuple[tuple, frozenset], name: str) -> tuple[list[Place], bool]:
    """``places_named`` from what ``checked`` gave."""
    rows, parameters = stored
    return [Place(*row) for row in rows if row[0] == name], name in parameters
