"""The name-only fallback: same-named definitions, best first, honestly labelled.

A part of ``Resolver`` (resolve/resolver.py), which combines them; methods call each other
through ``self``.
"""

from __future__ import annotations

from .base import MEMBER_OWNER_KINDS, _MAX_CANDIDATES, Symbol, Resolution, Recording

__all__ = ["NameCandidates"]


class NameCandidates:
    """The name-only fallback."""

    def name_only(self, name: str, from_path: str, members: bool, external_base: bool = False) -> Resolution:
        """No resolution: the same-named definitions, best first, honestly labelled."""
        self._note(f"*name:{name}")
        # the same answer for every read of that name in the file (`x.append` of unknown x …);
        # it reads nothing but the name index and the files' facts
        key = (name, from_path, members, external_base)
        found = self._name_only_answers.get(key)
        if found is None:
            with Recording(self._read, keep=False):  # the "*name:" note stands for these reads
                found = self._name_only_answers[key] = self._name_only(name, from_path, members, external_base)
        return found

    def _name_only(self, name: str, from_path: str, members: bool, external_base: bool) -> Resolution:
        candidates = self._same_named_in(from_path, name, members)
        key = (name, members)
        others = self._same_name.get(key)
        if others is None:
            others = self._same_name[key] = self._same_named(name, members)
        for symbol in others:
            if len(candidates) >= _MAX_CANDIDATES:
                break
            if symbol.path != from_path:
                candidates.append(symbol)
        if not candidates:
            return Resolution("unresolved" if members or external_base else "not_found")
        view = self.view(from_path)
        if members and view is not None and view.spec.precise and \
                (len(candidates) > 1 or not view.spec.guess_unique_members):
            # A member of an unknown receiver that several types define: a guess would mostly be
            # wrong (measured: 6 of 29 right on zod, 0 of 8 on rich). Say so, listing them.
            return Resolution("unresolved", candidates=candidates[:_MAX_CANDIDATES])
        return Resolution("found", candidates[0], "name-only", candidates[:_MAX_CANDIDATES])

    def _same_named(self, name: str, members: bool) -> list[Symbol]:
        """The first same-named definitions in path order: enough for any file's candidate list
        (a common name is defined in hundreds of files; loading them all would cost seconds).
        A file lists its own, then the others': with a list's worth here, whichever file asks,
        its list is whole (its own are here already, or come on top)."""
        found: list[Symbol] = []
        summaries = self._summaries or {}
        for path in sorted(self.index.defined_in.get(name, ())):
            summary = summaries.get(path)
            if summary is None:
                found += self._same_named_in(path, name, members)
            else:   # from the file's summary, which lists them: the file is not loaded (nor
                # one where the name is only a local: most files defining `value` or `path`)
                found += [Symbol(path, i) for i in (summary.members if members else summary.top).get(name, ())]
            if len(found) >= _MAX_CANDIDATES:
                break
        return found

    def _same_named_in(self, path: str, name: str, members: bool) -> list[Symbol]:
        view = self.view(path)
        if view is None:
            return []
        defs = view.facts.definitions
        found = []
        for i in view.named(name):
            d = defs[i]
            if d.kind == "parameter":
                continue
            is_member = d.container >= 0 and defs[d.container].kind in MEMBER_OWNER_KINDS
            if members and is_member or not members and d.scope == 0:
                found.append(Symbol(path, i))
        return found
