"""Overloads: the one of several same-named methods of a class that a call's arguments fit.

A part of ``Resolver`` (resolve/resolver.py) for languages whose ``LanguageSpec`` sets
``overloads_by_arity`` (Java, TypeScript): a call whose name resolved to one of several methods
(or constructors) declared side by side under one container is moved to the first of them whose
parameter count fits the call's argument count (a variable-arity method takes its count less
one, or more; TypeScript's optional and rest parameters: ``LanguageSpec.arity_of``). Argument counts come from ``FileFacts.call_arguments`` (a call with no entry
there has no arguments); parameter counts from the ``parameter`` definitions each one holds.
"""

from __future__ import annotations

import dataclasses

from .base import _CALLABLE_KINDS, Resolution, Symbol

__all__ = ["OverloadChoice"]


class OverloadChoice:
    """Overload selection by argument count."""

    def by_arity(self, path: str, ref_index: int, found: Resolution, usage: str) -> Resolution:
        """``found`` for a use of reference ``ref_index`` (``usage``), or the overload its
        call's argument count fits."""
        target = found.target
        if found.status != "found" or target is None or target.index < 0 or usage != "call":
            return found
        view = self.view(path)
        if view is None or not view.spec.overloads_by_arity:
            return found
        siblings = self.overloads(target)
        if len(siblings) < 2:
            return found
        place = self.view(target.path)
        defs = place.facts.definitions
        if place.spec.overload_signature_is_definition:
            # TypeScript: a call is checked against the overload signatures only, never against
            # the implementation's own (`post(path, userOrOpts?, opts?)` is not callable as such)
            siblings = [i for i in siblings if defs[i].declaration] or siblings
        count = self._argument_count(path, ref_index)
        if count is None:
            return found
        fitting = [i for i in siblings if self._takes(place, i, count)]
        if not fitting or target.index in fitting:
            return found
        return dataclasses.replace(found, target=Symbol(target.path, fitting[0]))

    def chooses_overload(self, found: Resolution) -> bool:
        """Whether a call resolved to ``found`` may be moved to another overload (by its
        arguments): the same answer then cannot stand for every call of the name."""
        return found.status == "found" and found.target is not None and len(self.overloads(found.target)) > 1

    def overloads(self, target: Symbol) -> list[int]:
        """The definitions a call resolved to ``target`` may be moved among (its overloads, itself
        one of them); none when ``target`` is not a callable of an overloading language."""
        place = self.view(target.path)
        if place is None or not place.spec.overloads_by_arity or target.index < 0:
            return []
        defs = place.facts.definitions
        d = defs[target.index]
        if d.kind not in _CALLABLE_KINDS:
            return []
        # the file's definitions of that name (an index kept per file), not every definition of
        # the file made and compared: a call into a 5,000-definition file scanned them all
        return [i for i in place.named(d.name) if defs[i].container == d.container and defs[i].kind == d.kind]

    def _argument_count(self, path: str, ref_index: int) -> int | None:
        """How many arguments the call of reference ``ref_index`` passes (None: a spread)."""
        key = ("arity", path)
        counts = self.kept.get(key)
        if counts is None:
            counts = {}
            for callee, passed in self.view(path).facts.call_arguments:
                counts[callee] = None if any(splat for _, _, splat in passed) else len(passed)
            self.kept[key] = counts
        return counts.get(ref_index, 0)

    @staticmethod
    def _takes(view, index: int, count: int) -> bool:
        """Whether definition ``index`` of ``view``'s file can be called with ``count`` arguments."""
        signature = view.facts.definitions[index].signature or ""
        if view.spec.arity_of is not None:   # TypeScript: optional and rest parameters, read from the signature
            arity = view.spec.arity_of(signature)
            return arity is None or arity[0] <= count and (arity[1] is None or count <= arity[1])
        params = len(view.parameters_of(index))
        if "..." in signature:
            return count >= params - 1
        return count == params
