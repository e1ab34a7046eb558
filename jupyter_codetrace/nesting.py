"""Qualified names inside one file: the enclosing definitions' names, and an out-of-line member's type.

A definition's nesting is the names of the definitions enclosing it, outermost first, ending
with its own (``Shape.describe``). An out-of-line member (``double Circle::area() const {}`` in a
``.cpp``, a Go method ``func (s *Store) Add()``) is not written inside its type, but its
``Definition.qualifier`` (the ``definition.qualifier`` capture) names the type, and its nesting
carries that type's name before its own: ``geo.Circle.area``, ``Store.Add`` — as a Rust
``impl Counter { fn bump }`` gives ``Counter.bump`` by containment.
"""

from __future__ import annotations

from .facts import FileFacts

__all__ = ["qualifier_names", "nesting"]


def qualifier_names(facts: FileFacts, index: int) -> tuple[str, ...]:
    """The type definition ``index`` is an out-of-line member of, as written (``Circle`` of
    ``Circle::area``; ``geo``, ``Circle`` of ``geo::Circle::area``; a Go receiver's type).
    Empty for a definition without a qualifier, and for one whose own name is the qualifier
    (Rust ``impl Counter``: its members nest in it)."""
    d = facts.definitions[index]
    token = d.qualifier
    if not isinstance(token, tuple):
        return ()   # most definitions: the file's references need not be made for them
    refs = facts.references
    names: list[str] = []
    while (isinstance(token, tuple) and len(token) == 2 and token[0] == "r"
           and isinstance(token[1], int) and 0 <= token[1] < len(refs) and len(names) < 32):
        ref = refs[token[1]]
        if not names and (ref.line, ref.column) == (d.line, d.column):
            return ()
        names.append(ref.name)
        token = ref.receiver
    return tuple(reversed(names))


def nesting(facts: FileFacts, index: int) -> tuple[str, ...]:
    """Names of definition ``index``'s enclosing definitions, outermost first, ending with its
    own; an out-of-line member's type (``qualifier_names``) stands before its name."""
    names: list[str] = []
    seen = 0
    while index >= 0 and seen < 256:
        d = facts.definitions[index]
        names.append(d.name)
        names.extend(reversed(qualifier_names(facts, index)))
        index = d.container
        seen += 1
    return tuple(reversed(names))
