"""Reference -> Resolution: lexical scopes, imports and re-exports, members and inferred types.

The only cross-file stage. It never branches on a language's name: what differs between
languages comes from the facts and from ``LanguageSpec`` hooks. Results are cached per index
generation (any file change starts a new one), which keeps those no change can reach.

The parts live beside this file: ``scopes`` (lexical names), ``imports`` (imports and
exports), ``members`` (members and the MRO), ``types`` (types of expressions), ``candidates``
(the name-only fallback), ``flow`` (values for calls), ``overloads`` (a call's overload by its
argument count); ``base`` holds the shared vocabulary.
"""

from __future__ import annotations

from ..languages import by_name
from ..nesting import nesting
from ..places import places_named
from .base import (
    CLASS_KINDS, FILE_MEMOS, FileView, MEMBER_OWNER_KINDS, Recording, Resolution, SameAnswers, Symbol,
    _MERGED_KINDS, _NO_VIEW, _UNKNOWN, _VALUE_KINDS,
)
from .candidates import NameCandidates
from .imports import ImportLookup
from .members import MemberLookup
from .modules import ProjectModules
from .overloads import OverloadChoice
from .scopes import ScopeLookup
from .types import TypeInference

# How many reference resolutions may wait on each other before one gives up (unresolved, not
# cached): a bound on the Python stack, far above what written code needs.
_MAX_NESTING = 64

__all__ = ["Resolver", "Resolution", "Symbol", "CLASS_KINDS", "MEMBER_OWNER_KINDS"]


def _outermost(facts, index: int) -> int:
    """The top-level definition that holds definition ``index`` (itself when top-level)."""
    seen = 0
    while facts.definitions[index].container >= 0 and seen < 256:
        index, seen = facts.definitions[index].container, seen + 1
    return index


def _outline(facts) -> tuple:
    """What of a file a project-wide name lookup can see: each definition's name, kind, place
    in the scopes and the type it is written for, and the imports (which decide what that type
    is); not positions, nor tokens that count references."""
    refs = facts.references

    def qualifier(token):
        if isinstance(token, tuple) and len(token) == 2 and token[0] == "r" and 0 <= token[1] < len(refs):
            return refs[token[1]].name
        return token if not isinstance(token, tuple) else token[0]

    return (tuple((d.name, d.kind, d.scope, d.container, qualifier(d.qualifier)) for d in facts.definitions),
            tuple((i.module, i.kind, i.name, i.local, i.scope) for i in facts.imports))


class Resolver(ScopeLookup, ImportLookup, MemberLookup, TypeInference, NameCandidates, OverloadChoice):
    """Resolves references of one index generation."""

    def __init__(self, index, workspace, previous: "Resolver | None" = None):
        self.index = index
        self.modules = ProjectModules(index, workspace)
        self._views: dict[str, FileView | None] = {}
        # path -> (digest, view) of files not asked for yet in this generation, from earlier ones:
        # building a view again (facts from the store, binding tables) is most of the cost of an
        # answer right after an edit. A view is taken only if its file's digest is unchanged.
        self._carried: dict[str, tuple[str | None, FileView]] = {}
        # path -> (digest, facts) a file changed since the previous generation had there (when
        # that generation read it): what the graph compares its new facts with (replaced_facts)
        self._replaced: dict[str, tuple[str, object]] = {}
        self._digests: dict[str, str | None] = {}
        self._library: dict[str, bool] = {}
        self._resolved: dict[tuple[str, int], Resolution] = {}
        self._same = SameAnswers()   # what _resolved holds, each distinct answer once (this generation's)
        self._nesting = 0   # resolve_reference calls in progress (each may need another's answer)
        # What each resolution read: file paths, "*name:N" (a same-name lookup over the whole
        # project: the files defining N), "*used:N" (the files naming N: its callers, a type's
        # extensions), "*files" (the project's files: a submodule or package listing) and
        # "*missing" (a module found nowhere, which an installed package may provide). The graph
        # redoes only the files whose answers a change can alter; the next generation keeps the
        # answers whose reads no change touched.
        self._read: list[set[str]] = [set()]
        self._reads: dict[tuple[str, int], frozenset[str]] = {}
        # Each distinct read set once; the sets that hold a read; the answers (resolution and
        # memo keys) each set stands for: a change finds what it reaches in a few lookups.
        self._read_sets: dict[frozenset[str], frozenset[str]] = {}
        self._sets_by_read: dict[str, list[frozenset[str]]] = {}
        self._listed = self._live = 0   # entries in those lists; what the live sets need
        self._keys_by_reads: dict[frozenset[str], list[tuple]] = {}
        self._same_name: dict[tuple[str, bool], list[Symbol]] = {}
        self._extensions: dict[str, dict[Symbol, dict[str, Symbol]]] = {}   # type name -> class -> members
        self._extending: set[Symbol] = set()   # classes whose extensions are being collected
        # How many answers were given before they were complete (a cycle's placeholder, the
        # nesting bound): what is worked out while it stays the same can be kept (settled()).
        self._partial = 0
        self._settled: dict[tuple, tuple] = {}   # see settled()
        self._settled_reads: dict[frozenset[str], frozenset[str]] = {}
        self._name_only_answers: dict[tuple, Resolution] = {}   # this generation's (candidates.py)
        self.memo: dict = {}   # later stages' caches for this generation only
        # Caches kept across generations like resolutions: a key is either ``(kind, path, …)``
        # with kind in FILE_MEMOS (made from that file's facts alone), or was stored with
        # ``remember`` (with what it read). No other kind of key may be stored here.
        self.kept: dict = {}
        summaries = getattr(index, "summaries", None)
        self._summaries = summaries() if summaries is not None else None
        if previous is not None:
            self._carry(previous)

    def _carry(self, previous: "Resolver") -> None:
        """Keep what the previous generation learnt that no change since can alter: the views of
        unchanged files, and every answer (and memo) whose recorded reads miss the changed files
        and the names they define or use before and after. A file added or removed (module
        lookups may change anywhere) or a changed library file starts afresh but for the views.
        The tables are handed over, not copied: the cost is that of what the change reaches."""
        carried = previous._carried
        for path, view in previous._views.items():
            if view is not None:
                carried[path] = (previous._digests.get(path), view)
        self._carried, previous._carried = carried, {}
        before, now = previous._summaries, self._summaries
        if before is None or now is None or before.keys() != now.keys():
            if now is not None:   # a deleted file's view would be kept for nothing
                for path in [p for p in carried if p not in now and not self.is_library(p)]:
                    del carried[path]
            return
        changed = {path for path, summary in now.items() if before[path].record.digest != summary.record.digest}
        for path, (digest, _view) in carried.items():
            if path not in now and self.index.digest(path) != digest:
                return   # a library file changed (an upgrade): its names are not indexed
        # files whose change only moved what they say (a comment, blank lines): every answer is
        # the same (answers name definitions and references by their index, and offsets compare
        # as before); only the memos made of their facts (FILE_MEMOS, dropped below) are not
        only_moved = getattr(self.index, "only_moved", None)
        moved = {path for path in changed if only_moved is not None
                 and only_moved(path, before[path].record.digest, now[path].record.digest)}
        defined: set[str] = set()   # names whose lookups ("*name:") may now find other definitions
        used: set[str] = set()      # names whose users ("*used:") may now be other files
        for path in changed - moved:
            old, new = before[path], now[path]
            if path in carried and carried[path][0] == old.record.digest:
                self._replaced[path] = (old.record.digest, carried[path][1].facts)
            at_end = self._outline_tail(path, carried.get(path))
            if at_end is not None:
                # the same definitions at the same places in the list (an edit inside bodies, a
                # moved line), maybe with some added or removed after them (a function appended):
                # every symbol into the file that still exists names the same definition, and a
                # project-wide name lookup finds the same ones, unless the names the file defines
                # or uses changed, or are those of the definitions at the end
                defined.update(at_end)
                defined.update(old.defined ^ new.defined)
                used.update(old.used ^ new.used)
            else:
                defined.update(old.defined | new.defined)
                used.update(old.used | new.used)
        names = defined | used
        stale = (changed - moved) | {f"*name:{name}" for name in defined} | {f"*used:{name}" for name in used}
        stale.add("*missing")   # a package installed since may provide it
        self._resolved, self._reads, self._read_sets = previous._resolved, previous._reads, previous._read_sets
        self._sets_by_read, self._keys_by_reads = previous._sets_by_read, previous._keys_by_reads
        self._same_name, self._extensions, self.kept = previous._same_name, previous._extensions, previous.kept
        # the previous generation is done: nothing may answer from the tables it handed over
        previous._resolved, previous._reads, previous._read_sets, previous.kept = {}, {}, {}, {}
        previous._sets_by_read, previous._keys_by_reads, previous._same_name, previous._extensions = {}, {}, {}, {}
        self._listed, self._live = previous._listed, previous._live
        for what in stale:
            sets = self._sets_by_read.pop(what, ())
            self._listed -= len(sets)
            for reads in sets:
                if self._read_sets.pop(reads, None) is None:
                    continue   # already dropped through another of its reads
                self._live -= len(reads)
                for key in self._keys_by_reads.pop(reads, ()):
                    self._resolved.pop(key, None)
                    self._reads.pop(key, None)
                    self.kept.pop(key, None)
        if self._listed > 2 * self._live + 1024:
            # a dropped set stays listed under its other reads: listed again from the live ones
            # before those lists outgrow them (every save leaves some behind)
            self._sets_by_read = {}
            for reads in self._read_sets:
                for what in reads:
                    self._sets_by_read.setdefault(what, []).append(reads)
            self._listed = self._live
        for path in changed:
            for kind in FILE_MEMOS:
                self.kept.pop((kind, path), None)
        for name in names:
            self._same_name.pop((name, False), None)
            self._same_name.pop((name, True), None)
            self._extensions.pop(name, None)

    def _outline_tail(self, path: str, carried: tuple | None) -> set[str] | None:
        """When a changed file still has its previous definitions in the same order, at the start
        of its list, and the same imports (so every Symbol into it that still exists names the
        same definition): the names of the definitions added or removed after them (empty for the
        same outline). None otherwise, and when the previous generation never read the file."""
        if carried is None:
            return None
        facts = self.index.facts(path)
        if facts is None:
            return None
        (old_definitions, old_imports), (new_definitions, new_imports) = _outline(carried[1].facts), _outline(facts)
        if old_imports != new_imports:
            return None
        shorter, longer = sorted((old_definitions, new_definitions), key=len)
        if longer[:len(shorter)] != shorter:
            return None
        return {definition[0] for definition in longer[len(shorter):]}

    def replaced_facts(self, path: str, digest: str | None):
        """The facts ``path`` had at ``digest``, when the change to this generation replaced
        them and the previous generation had read them (None otherwise)."""
        found = self._replaced.get(path)
        return found[1] if found is not None and found[0] == digest else None

    def recall(self, key: tuple):
        """An answer stored with ``remember`` (None if there is none), its reads read again: what
        asked for it depends on them too."""
        found = self.kept.get(key)
        if found is None:
            return None
        self._read[-1].update(found[1])
        return found[0]

    def settled(self, key: tuple, work):
        """``work()``, kept for this generation under ``key`` with what it read (read again by
        each asker), when it met no answer still being worked out (a cycle's placeholder, the
        nesting bound): such an answer may lack what a later call finds. ``work`` must depend on
        nothing but resolutions (its answer must be the same whenever it is asked), and its answer
        must not be changed by the asker."""
        found = self._settled.get(key)
        if found is not None:
            self._read[-1].update(found[1])
            return found[0]
        partial = self._partial
        with self.recording() as read:
            answer = work()
        if self._partial == partial:
            reads = frozenset(read)
            # most read the same few sets (the file itself; it and a module): one copy each
            self._settled[key] = (answer, self._settled_reads.setdefault(reads, reads))
        return answer

    def note_name(self, name: str) -> None:
        """What is being worked out looks ``name`` up across the project (the files defining it):
        a file that starts or stops defining it changes the answer."""
        self._note(f"*name:{name}")

    def note_users(self, name: str) -> None:
        """What is being worked out goes through the files that name ``name`` (its callers, the
        files that may extend a type): a file that starts or stops naming it changes the answer."""
        self._note(f"*used:{name}")

    def remember(self, key: tuple, answer, read: set[str]) -> frozenset[str]:
        """Store an answer with what it read (``self.kept[key] = (answer, reads)``), to be kept by
        the next generations while nothing it read changes."""
        reads = self._read_set(key, read)
        self.kept[key] = (answer, reads)
        return reads

    def _read_set(self, key: tuple, read: set[str]) -> frozenset[str]:
        read = frozenset(read)
        # most answers read the same few sets (their own file; it and one module): one copy
        found = self._read_sets.get(read)
        if found is None:
            found = self._read_sets[read] = read
            for what in read:
                self._sets_by_read.setdefault(what, []).append(read)
            self._listed += len(read)
            self._live += len(read)
        self._keys_by_reads.setdefault(found, []).append(key)
        return found

    def kind_of(self, symbol: Symbol) -> str | None:
        """A definition's kind, with what only resolution can tell: an out-of-line function whose
        qualifier is a type (`double Circle::area() {}`) is that type's method, not a free function
        of a namespace (`geo::area`)."""
        d = self.definition(symbol)
        if d is None:
            return None
        if d.kind == "function" and isinstance(d.qualifier, tuple) and len(d.qualifier) == 2 \
                and d.qualifier[0] == "r":
            owner = self.resolve_reference(symbol.path, d.qualifier[1])
            target = self.definition(owner.target) if owner.status == "found" else None
            if target is not None and target.kind in CLASS_KINDS:
                return "method"
        return d.kind

    def is_library(self, path: str) -> bool:
        """A file reached outside the project (standard library, installed package, node_modules)."""
        found = self._library.get(path)
        if found is None:   # asked for the target of every call: once per file
            check = getattr(self.index, "is_library", None)
            found = self._library[path] = bool(check and check(path))
        return found

    def library_name(self, symbol: Symbol) -> str:
        """How code outside a library names its symbol: ``json.dumps``, ``networkx.DiGraph.add_edge``
        (the package's public name when its top module re-exports the symbol, else the module's)."""
        view = self.view(symbol.path)
        names = nesting(view.facts, symbol.index) if view is not None and not symbol.is_module else ()
        place = self.index.libraries.place(symbol.path) if self.is_library(symbol.path) else None
        if place is not None and view is not None and view.facts.language != "python":
            return ".".join((place.package,) + names)
        module = view.spec.module_name(symbol.path, self.modules) if view is not None else symbol.path
        top = module.split(".", 1)[0]
        if names and top != module:
            for init in self.modules.resolve(top, symbol.path, "python"):
                found = self.module_member(init, names[0])
                head = Symbol(symbol.path, _outermost(view.facts, symbol.index))
                if found.status == "found" and found.target == head:
                    module = top
                    break
        return ".".join((module,) + names)

    def recording(self) -> "Recording":
        """``with resolver.recording() as read:`` collects what resolutions inside it read."""
        return Recording(self._read)

    def _note(self, what: str) -> None:
        self._read[-1].add(what)

    def view(self, path: str) -> FileView | None:
        self._read[-1].add(path)
        found = self._views.get(path, _NO_VIEW)
        if found is _NO_VIEW:
            digest = self._digests[path] = self.index.digest(path)
            carried = self._carried.pop(path, None)
            if carried is not None and digest is not None and carried[0] == digest:
                self._views[path] = carried[1]
                return carried[1]
            facts = self.index.facts(path)
            if facts is None:
                found = None
            else:
                language = "python" if facts.language == "notebook" else facts.language
                found = FileView(facts, by_name(language))
            self._views[path] = found
        return found

    def places(self, path: str, name: str) -> tuple[list, bool]:
        """Where the file defines ``name`` and whether a parameter has it (``places.py``; a read,
        as ``view`` is), without making its view when it has none yet: a lookup by name asks
        it of files nothing else reads."""
        self._read[-1].add(path)
        view = self._views.get(path)
        if view is not None and view is not _NO_VIEW:
            return places_named(view.facts, name, view.named(name))
        return self.index.places(path, name)

    def variable_group(self, symbol: Symbol) -> list[Symbol]:
        """Every assignment of the same variable (same name, same scope or same owner), first first.

        A variable is one symbol however often it is assigned: its first binding stands for it and
        the later ones are writes."""
        d = self.definition(symbol)
        if d is not None and d.kind in _MERGED_KINDS and d.scope >= 0:
            # TS declaration merging: `interface Shape` declared twice is one interface.
            defs = self.view(symbol.path).facts.definitions
            return [Symbol(symbol.path, i) for i in self.view(symbol.path).named(d.name)
                    if defs[i].kind == d.kind and defs[i].scope == d.scope] or [symbol]
        if d is None or d.kind not in _VALUE_KINDS or d.kind == "parameter":
            return [symbol]
        view = self.view(symbol.path)
        defs = view.facts.definitions
        named = view.named(d.name)   # not every definition of the file: this runs for each value read
        if d.scope >= 0 and not (d.container >= 0 and defs[d.container].kind in CLASS_KINDS):
            same = [i for i in named if defs[i].scope == d.scope and defs[i].kind in _VALUE_KINDS]
        else:
            same = [i for i in named if defs[i].container == d.container
                    and defs[i].kind in _VALUE_KINDS and defs[i].kind != "parameter"
                    and (defs[i].scope < 0 or defs[d.container].own_scope == defs[i].scope)]
        return [Symbol(symbol.path, i) for i in sorted(same, key=lambda i: (defs[i].scope < 0, i))] or [symbol]

    def definition(self, symbol: Symbol | None) -> Definition | None:
        if symbol is None:
            return None
        # view(), written out for the common case (a file already read): millions of calls
        self._read[-1].add(symbol.path)
        view = self._views.get(symbol.path, _NO_VIEW)
        if view is _NO_VIEW:
            view = self.view(symbol.path)
        if view is None or symbol.index < 0:
            return None
        defs = view.facts.definitions
        return defs[symbol.index] if symbol.index < len(defs) else None

    def resolve_reference(self, path: str, ref_index: int, ref=None) -> Resolution:
        """What reference ``ref_index`` of the file names (``ref``: that reference, when the
        caller has it made already: a stored file's are made each time they are asked for)."""
        key = (path, ref_index)
        cached = self._resolved.get(key)
        if cached is not None:
            if cached is _UNKNOWN:
                self._partial += 1
            self._read[-1].update(self._reads.get(key, ()))
            return cached
        if self._nesting >= _MAX_NESTING:
            self._partial += 1
            return Resolution("unresolved")  # not cached: a shallower query resolves it
        view = self.view(path)
        if ref is None:
            ref = view.facts.references[ref_index]
        if isinstance(ref.receiver, tuple):
            self._receivers_first(view, path, ref.receiver)
        self._resolved[key] = _UNKNOWN  # a cycle through this reference resolves to nothing
        self._nesting += 1
        # what Resolver.recording() does, written out: this runs for every reference (its own
        # file is read: its view, taken above)
        read: set[str] = {path}
        stack = self._read
        stack.append(read)
        try:
            cached = self._resolve_reference(path, ref_index, view, ref)
            if view.spec.overloads_by_arity:
                cached = self.by_arity(path, ref_index, cached, ref.usage)
        except BaseException:
            self._resolved.pop(key, None)   # no answer, and no read record to carry it by
            raise
        finally:
            self._nesting -= 1
            stack.pop()
            stack[-1].update(read)
        if cached.status == "found" and cached.target is None:
            cached = Resolution("not_found")
        cached = self._same.one(cached)   # memory: equal answers are one object
        self._resolved[key] = cached
        self._reads[key] = self._read_set(key, read)
        return cached

    def _receivers_first(self, view: FileView, path: str, token) -> None:
        """Resolve a long receiver chain (``a.b.c.…``, ``x.f().g().…``, ``a[0].b[0]…``: generated
        code) innermost first, so that each link finds its receiver resolved instead of
        recursing once per link (a RecursionError thousands of links deep). ``token``: the
        receiver of the reference resolved."""
        facts = view.facts
        count = facts.reference_count
        chain = []
        while isinstance(token, tuple) and len(token) >= 2:
            if token[0] in ("s", "u", "w", "g"):  # an item (at a key), what `with` enters, a generic call
                token = token[1]
            elif token[0] in ("r", "n", "c") and isinstance(token[1], int) and 0 <= token[1] < count \
                    and (path, token[1]) not in self._resolved:
                chain.append(token[1])
                token = facts.reference_receiver(token[1])
            else:
                break
        if len(chain) >= _MAX_NESTING // 4:
            for index in reversed(chain):
                self.resolve_reference(path, index)

    def _module_object_member(self, path: str, view: FileView, ref) -> Resolution | None:
        """`exports.etag` / `module.exports.etag` read in the module that assigns it: that member
        (None when the receiver is not the module object, or the module assigns no such member)."""
        facts = view.facts
        written = facts.reference_name(ref.receiver[1])
        outer = facts.reference_receiver(ref.receiver[1])
        if isinstance(outer, tuple) and outer[0] == "r":
            written = f"{facts.reference_name(outer[1])}.{written}"   # module.exports
        elif outer is not False:
            return None
        if written not in view.spec.module_object_names:
            return None
        defs = view.facts.definitions
        for i in view.named(ref.name):
            if defs[i].scope < 0 and defs[i].container < 0:
                return Resolution("found", Symbol(path, i), "member")
        return None

    def _super_constructor(self, path: str, container: int) -> Resolution:
        """`super(id)` in a constructor (``LanguageSpec.super_call_is_constructor``): the parent
        class's constructor, or the parent class itself when it declares none (its implicit one)."""
        cls = self.enclosing_class(path, container)
        d = self.definition(cls)
        parent = self.infer(cls.path, d.extends[0], 1) if d is not None and d.extends else None
        if parent is None or parent.symbol is None or parent.kind not in ("class", "instance") \
                or parent.symbol.is_module:
            return Resolution("unresolved", why="the parent class is not in the project")
        base = parent.symbol
        view = self.view(base.path)
        names = view.spec.constructor_names if view else frozenset()
        for name, indices in (view.members.get(base.index, {}) if view else {}).items():
            for i in indices:
                if view.facts.definitions[i].kind == "constructor" or name in names:
                    return Resolution("found", Symbol(base.path, i), "member")
        return Resolution("found", base, "member")

    def _resolve_reference(self, path: str, ref_index: int, view: FileView, ref) -> Resolution:
        """``resolve_reference`` of ``ref``, reference ``ref_index`` of the file's ``view``."""
        spec = view.spec
        if ref.receiver is False:
            if ref.name in spec.super_names and spec.super_call_is_constructor and ref.usage == "call":
                return self._super_constructor(path, ref.container)
            if ref.name in spec.this_keywords:
                cls = self.enclosing_class(path, ref.container)
                if cls is not None:
                    return Resolution("found", cls, "member")
            found = self.resolve_name(path, ref.scope, ref.name, ref.start_byte, 0)
            return self.as_type(found) if ref.usage == "type-ref" else found
        if ref.receiver == ("b",):
            return Resolution("builtin")
        if spec.module_object_names and isinstance(ref.receiver, tuple) and ref.receiver[0] == "r":
            found = self._module_object_member(path, view, ref)
            if found is not None:
                return found
        owner = self.infer(path, ref.receiver, 1)
        if owner is None and ref.receiver is not None and ref.receiver[0] in ("p", "x"):
            return Resolution("unresolved")  # a key of an object literal whose parameter type is unknown
        found = self._member_of(owner, ref.name, path, 0)
        if owner is None and (found.status != "found" or found.kind == "name-only") \
                and isinstance(ref.receiver, tuple) \
                and ref.receiver[0] in ("r", "n", "c") and isinstance(ref.receiver[1], int):
            # `math.sqrt`, `np.array`: the receiver came through an import that leads outside (a
            # same-named member of the project's classes is no answer for it)
            receiver = self.resolve_reference(path, ref.receiver[1])
            if receiver.status == "unresolved" and receiver.via:
                return Resolution("unresolved", via=receiver.via, resolved_from=receiver.resolved_from,
                                  missing=receiver.missing)
        if owner is None and found.status != "found" and not found.why:
            return Resolution(found.status, via=found.via, resolved_from=found.resolved_from, missing=found.missing,
                              why="it is a member of a value whose type could not be inferred")
        return found
