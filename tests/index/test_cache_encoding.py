"""The cache's data-only encoding (index/encoding.py) gives back exactly the facts it was given.

Round trips through the real store (extract → encode → SQLite → decode) for every fixture
repository and for generated files with every kind of fact, compared with ``==`` (which tells a
list from a tuple); a hand-made ``FileFacts`` with every field of every fact away from its
default; and the blobs the decoder must refuse.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import zlib
from pathlib import Path

import lz4.block
import msgpack
import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.facts import (Definition, Export, FileFacts, Import, Reference, Scope, StoredCallArguments,
                                     StoredDefinitions, StoredReferences, reference_blob)
from jupyter_codetrace.facts import _packed as _packed_numbers, _unpacked as _unpacked_numbers
from jupyter_codetrace.index.encoding import DecodeError, decode, encode
from jupyter_codetrace.index.extract import extract_file
from jupyter_codetrace.languages import by_name

FIXTURES_DIR = Path(__file__).resolve().parents[2] / "fixtures"
FIXTURES = sorted(p.name for p in FIXTURES_DIR.iterdir() if p.is_dir())
LIST_FIELDS = ("definitions", "references", "imports", "exports", "scopes", "indirect_calls", "call_arguments",
               "item_writes", "iterations", "narrowings", "shorthand_keys")


def _round_trips(root: Path, cache: Path) -> dict[str, FileFacts]:
    """Every file's facts as extracted, checked equal to what the store gives back; returns them."""
    extracted = {}
    with Project(root, cache_dir=cache, workers=1) as project:
        index = project._index
        stats = project.index()
        assert stats.files > 0 and stats.parsed == stats.files, stats.to_text()
        for path in index.files():
            fresh = index._facts[path]   # kept from extraction (one worker: no pool, facts kept)
            loaded = index.store.load(path)
            assert loaded is not fresh
            assert loaded == fresh, path
            for name in LIST_FIELDS:
                if name not in ("references", "definitions", "call_arguments"):
                    assert type(getattr(loaded, name)) is list, (path, name)
            assert list(loaded.call_arguments) == list(fresh.call_arguments)
            assert list(loaded.call_callees()) == [callee for callee, _passed in fresh.call_arguments]
            # a stored file's definitions: made when asked for, columns read without making them
            if fresh.definitions:
                assert type(loaded.definitions) is StoredDefinitions
                for column in ("name", "kind", "scope", "container", "start_byte", "end_byte", "qualifier"):
                    assert list(loaded.definition_column(column)) == fresh.definition_column(column)
                assert loaded.definitions[1:4] == fresh.definitions[1:4]
                assert list(loaded.definitions) == fresh.definitions
            # a stored file's references: columns, each Reference made when asked for
            assert type(loaded.references) is StoredReferences
            assert list(loaded.references) == fresh.references and len(loaded.references) == len(fresh.references)
            for column in ("name", "line", "start_byte", "receiver", "new"):
                assert list(loaded.reference_column(column)) == list(fresh.reference_column(column))
            assert loaded.references[1:4] == fresh.references[1:4] and loaded.references[-1:] == fresh.references[-1:]
            extracted[path] = fresh
    return extracted


@pytest.mark.parametrize("fixture", FIXTURES)
def test_every_fixture_round_trips(fixture: str, tmp_path: Path, copy_fixture):
    _round_trips(copy_fixture(fixture), tmp_path / "cache")


_PYTHON = '''\
"""A module with one of everything."""
from os import path as p, sep
import json
from . import sibling
from .pkg import *

__all__ = ["Shape", "area", "walk"]
BIG = {123456789012345678901234567890: "big", -98765432109876543210987654321: "small"}
ROWS = [1, 2.5, "é✓", None, True]


class Base:
    pass


class Shape(Base):
    """A shape."""
    sides: int = 4

    def __init__(self, name: str = "s") -> None:
        self.name = name

    @property
    def label(self) -> str:
        return self.name


def area(shape: Shape, *args, scale: float = 1.0, **kw) -> float:
    global BIG
    table = {}
    table["a"] = shape
    table[0] = scale
    table[123456789012345678901234567890] = shape
    first, second = args
    for item in ROWS:
        yield item
    make()()
    area(shape, scale=2, *args, **kw)
    return table["a"] or BIG[123456789012345678901234567890]


def walk():
    counter = 0

    def step():
        nonlocal counter
        counter += 1
        return lambda: counter
    return step


async def later(x: "Shape") -> list[Shape]:
    import asyncio
    return [x async for x in x]
'''

_TYPESCRIPT = '''\
import { helper as h, other } from "./helper";
import * as ns from "./ns";
import def from "./def";
export { h as helperAgain } from "./helper";
export * from "./barrel";
export * as grouped from "./grouped";

export interface Named<T> { name: T; percent: number }
export type Choice = Circle | Square;
export enum Color { Red, Green = 2 }

class Circle { r = 1 }
class Square { s = 2 }

export class Box<T> extends Array<T> implements Named<string> {
  name = "box";
  percent = 3;
  constructor(private readonly size: number) { super(); }
  get label(): string { return this.name; }
}

export function pick(x: Circle | Square, percent: number): Named<number> {
  if (x instanceof Circle) {
    return { name: x.r, percent };
  }
  const table: Record<string, number> = {};
  table["k"] = percent;
  for (const v of [1, 2]) { h(v); }
  h()();
  new Box<number>(2);
  return { name: 0, percent };
}

export function over(a: number): number;
export function over(a: string): string;
export function over(a: any): any { return a; }
declare function ambient(x: number): void;

export default function main(...rest: number[]): void { pick(new Circle(), rest[0]); ns.run(def); }
'''


def _notebook(*sources: str) -> str:
    cells = [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
             for s in sources]
    cells.insert(1, {"cell_type": "markdown", "metadata": {}, "source": "# notes"})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_generated_files_with_every_kind_of_fact_round_trip(tmp_path: Path):
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "everything.py").write_text(_PYTHON, encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "sibling.py").write_text("def broken(:\n    pass\n\ndef after():\n    return 1\n")  # has_errors
    (root / "latin.py").write_bytes(b"NAME = '\xe9t\xe9'\n")   # a warning: invalid UTF-8
    (root / "everything.ts").write_text(_TYPESCRIPT, encoding="utf-8")
    (root / "helper.ts").write_text("export function helper(n?: number) { return () => n; }\n"
                                    "export const other = 1;\nexport default helper(other);\n")
    (root / "go.mod").write_text("module example.com/app\n\ngo 1.21\n")
    (root / "server.go").write_text("package app\n\ntype Server struct{ port int }\n\n"
                                    "func (s *Server) Run() int { return s.port }\n")
    (root / "book.ipynb").write_text(_notebook("import json\nvalue = json.dumps({})\n", "def f(a):\n    return a\n"))
    facts = _round_trips(root, tmp_path / "cache")
    everything = list(facts.values())
    for name in LIST_FIELDS:
        assert any(getattr(f, name) for f in everything), f"no generated file has {name}"
    for name in ("definitions", "references", "imports", "exports", "scopes"):
        rows = [row for f in everything for row in getattr(f, name)]
        for field in dataclasses.fields(rows[0]):
            default = field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default
            assert any(getattr(row, field.name) != default for row in rows), f"{name}: {field.name} never set"
    assert facts["everything.py"].all_names == ("Shape", "area", "walk")
    assert facts["book.ipynb"].notebook_cells
    assert facts["sibling.py"].has_errors and facts["latin.py"].warnings
    big = 123456789012345678901234567890

    def holds_big(value) -> bool:
        return value == big if type(value) is int else isinstance(value, (tuple, list)) and any(map(holds_big, value))

    assert holds_big(facts["everything.py"].item_writes), "the 64-bit-overflowing key was not exercised"


def _token(depth: int):
    token = ("r", 3)
    for i in range(depth):
        token = ("o", token, ("c", i), ("k", '"key"', ("b",), None), ("s", token, -1), ("e", ("x",)))
    return token


def _handmade() -> FileFacts:
    """Every field of every fact class set away from its default, with the awkward values: a big
    integer, negative numbers, non-ASCII text, empty strings, nested tokens, None beside ()."""
    definition = Definition(
        name="naïve_✓", kind="method", line=3, column=5, end_line=9, end_column=2, start_line=2, start_byte=17,
        end_byte=2**40, name_byte=21, scope=-1, own_scope=4, container=0, signature="(self, x: int = 1) -> 'T'",
        returns="T", returns_span=(30, 31), generics="<T>", modifiers=("async", "static"), decorators=("@cache",),
        doc="Line one.\n\nLine \u2028two.", exported=True, declaration=True, type="list[int]", type_span=(5, 14),
        default="''", value=_token(3), extends=(("r", 1), None), implements=(("n", 2),), qualifier=("r", 0),
        returned=(("i", 0), ("p", 1, 2)), yielded=(("u", ("r", 1), 0),), alternatives=(("r", 5), ("r", 6)),
        type_arguments=(("r", 7),), type_parameters=(8, 9))
    reference = Reference(name="self", line=4, column=9, start_byte=55, usage="write", scope=3, container=0,
                          receiver=("d", 0), new=True)
    plain = Reference(name="", line=1, column=1, start_byte=0)
    imp = Import(module="..pkg.mod", kind="named", name="thing", local="alias", line=1, column=8, start_byte=0,
                 scope=2, name_line=1, name_column=20, statement="from ..pkg.mod import thing as alias")
    exp = Export(kind="default", name="main", exported_as="default", module="./main", line=7, column=1, start_byte=99,
                 value=("c", 1), statement="export default main()")
    scope = Scope(kind="function", start_byte=10, end_byte=90, parent=0, owner=0, globals=("G",), nonlocals=("n",))
    return FileFacts(
        path="src/ünïcode/mod.py", language="notebook", definitions=[definition, definition], _references=[reference, plain],
        imports=[imp], exports=[exp], scopes=[Scope("module", 0, 100, -1), scope], all_names=("a", "b"), line_count=12,
        has_errors=True, warnings=("invalid UTF-8 decoded with replacement characters",),
        notebook_cells=((0, 1, 4), (2, 5, 8)),
        indirect_calls=[(("c", 0), 5, 3, 0)], _call_arguments=[(1, (("scale", ("b",), False), (None, ("r", 0), True)))],
        item_writes=[(("r", 0), 123456789012345678901234567890, ("x",), False), (("r", 0), '"k"', None, True)],
        iterations=[(("r", 1), 6, -1)], narrowings=[("x", ("r", 2), 40, 80)], shorthand_keys=[(0, ("x",))])


def test_a_handmade_file_with_every_field_set_round_trips():
    facts = _handmade()
    for fact in (facts, facts.definitions[0], facts.references[0], facts.imports[0], facts.exports[0], facts.scopes[1]):
        for field in dataclasses.fields(fact):
            default = field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default
            assert getattr(fact, field.name) != default, f"{type(fact).__name__}.{field.name} left at its default"
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    assert again == facts
    assert type(again.definitions[0].modifiers) is tuple and type(again.item_writes) is list
    assert again.references[0].new is True and type(again.references[1].receiver) is bool


def test_decoding_is_exact_about_types():
    value = (True, 1, 0, False, None, "", "1", 1.5, b"\x00", (), ((),), -2**63, 2**64 - 1, 2**64, -(2**100))
    again = decode(encode(value))
    assert again == value
    assert [type(v) for v in again] == [type(v) for v in value]


def _packed(obj) -> bytes:
    return lz4.block.compress(msgpack.packb(obj, use_bin_type=True))


@pytest.mark.parametrize("blob", [
    b"", b"not lz4 at all", lz4.block.compress(b""), lz4.block.compress(b"\xc1"),    # empty, not msgpack
    lz4.block.compress(b"\x93\x01\x02"),                                              # truncated array
    _packed((1, 2))[:-1], lz4.block.compress(msgpack.packb((1, 2)) + b"\x01"),         # cut, trailing data
    _packed({"path": "a.py"}), _packed((1, {2: 3})),                                 # maps are never written
    _packed(msgpack.ExtType(9, b"x")), _packed(msgpack.ExtType(1, b"12a")), _packed(msgpack.ExtType(1, b"")),
    _packed(msgpack.ExtType(1, b"\xd9\xa0")),                                          # non-ASCII digits
    lz4.block.compress(b"\x91" * 100_000),                                             # nested past the stack
    lz4.block.compress(b"\xdd\xff\xff\xff\xff"),                                       # an array claiming 4G items
    lz4.block.compress(b"\x81\xa1a\x01"),
    zlib.compress(msgpack.packb((1, 2))),                                             # the old stores' zlib
    b"\xff\xff\xff\x7f" + lz4.block.compress(b"\x90")[4:],                              # claims 2 GB from 6 bytes
    (1000).to_bytes(4, "little") + lz4.block.compress(b"\x90")[4:],                     # a size it does not have
], ids=lambda b: b[:12].hex())
def test_malformed_blobs_are_refused(blob: bytes):
    with pytest.raises(DecodeError):
        decode(blob)


def _with_definition_column(index: int, change) -> tuple:
    """The handmade file's rows with one column of its definitions changed."""
    rows = _handmade().to_rows()
    columns = list(rows[2])
    columns[index] = change(columns[index])
    return rows[:2] + (tuple(columns),) + rows[3:]


@pytest.mark.parametrize("rows", [
    (), ("a.py",), ("a.py", "python", (), (), (), (), ()),                              # too few parts
    _handmade().to_rows() + (1,),                                                       # too many
    (7,) + _handmade().to_rows()[1:],                                                   # path not a string
    _handmade().to_rows()[:2] + (((1, 2, 3),),) + _handmade().to_rows()[3:],             # definitions as rows
    _handmade().to_rows()[:3] + ((("x",) * 20,),) + _handmade().to_rows()[4:],          # a long reference row
    _handmade().to_rows()[:6] + ((5,),) + _handmade().to_rows()[7:],                     # a scope row not a row
    _with_definition_column(0, lambda names: (7,) + names[1:]),                           # a name not a string
    _with_definition_column(1, lambda kinds: (None,) + kinds[1:]),                       # a kind not a string
    _with_definition_column(2, lambda lines: (3, 4)),                                    # lines not packed
    _with_definition_column(2, lambda lines: b"x" + lines[1:]),                          # an unknown type code
    _with_definition_column(2, lambda lines: lines + b"\x01"),                           # not a whole number of items
    _with_definition_column(2, lambda lines: lines + lines[1:]),                         # more lines than names
    _with_definition_column(20, lambda column: column[:-1]),                             # a column short of one
    _handmade().to_rows()[:2] + (_handmade().to_rows()[2][:-1],) + _handmade().to_rows()[3:],  # a column missing
    _handmade().to_rows()[:13] + (((1, ()),),) + _handmade().to_rows()[14:],           # call arguments as rows
])
def test_rows_of_the_wrong_shape_are_refused(rows):
    with pytest.raises((TypeError, ValueError)):
        FileFacts.from_rows(decode(encode(rows)))


@pytest.mark.parametrize("value", [object(), {1, 2}, frozenset(), 1j, type])
def test_values_the_encoding_cannot_hold_fail_when_written(value):
    with pytest.raises(TypeError):
        encode(("a", (value,)))


def test_a_value_encoded_in_pieces_is_the_value_encoded_whole():
    from jupyter_codetrace.index.encoding import encode_chunks

    value = ((("a", 1), ("b", (1, 2, [3, 4]))), ("x" * 300, bytes(5000), tuple(range(2000)), (), [()], None, 2**70, -5, 1.5))
    whole = encode(value, compress=False)
    for size in (1, 100, 1 << 20):
        for depth in (0, 1, 3, 10):
            pieces = list(encode_chunks(value, size, depth))
            assert b"".join(pieces) == whole
            assert size > 1 or depth == 0 or len(pieces) > 1
    assert decode(b"".join(encode_chunks(value, 100)), compressed=False) == decode(whole, compressed=False)


def test_references_stay_encoded_until_first_read():
    facts = _handmade()
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    assert type(again._references) is bytes and again.reference_count == len(facts.references)
    assert again.to_rows() == facts.to_rows()   # written again as read, without decoding them
    assert list(again.reference_column("name")) == [r.name for r in facts.references]
    stored = again._references
    assert type(stored) is StoredReferences and again.reference_count == len(facts.references)
    # the blob is not kept beside the columns read from it: written again, it is the same bytes
    # (bytes only as columns of one byte a reference: usages and `new`)
    assert all(len(getattr(stored, slot)) == len(stored) for slot in StoredReferences.__slots__
               if type(getattr(stored, slot)) is bytes)
    assert stored.usages == tuple(r.usage for r in facts.references) and stored.new == tuple(r.new for r in facts.references)
    assert stored.blob == reference_blob(facts.references) == facts.to_rows()[3]
    # made when asked for, not kept (a long-lived process held 62 MB of them)
    assert again.references[1] == facts.references[1] and again.references[1] is not again.references[1]
    assert again.references[-1] == facts.references[-1] and again.references[1:] == facts.references[1:]
    assert list(again.references) == facts.references and again.to_rows() == facts.to_rows()
    assert pickle.loads(pickle.dumps(again)) == facts


def test_definitions_are_made_when_first_asked_for():
    facts = _handmade()
    count = len(facts.definitions)
    assert count >= 2
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    stored = again.definitions
    assert type(stored) is StoredDefinitions and len(stored) == count
    for column in ("name", "kind", "scope", "container", "own_scope", "end_byte", "qualifier", "modifiers"):
        assert list(again.definition_column(column)) == [getattr(d, column) for d in facts.definitions]
    assert stored._made == [None] * count and again.to_rows() == facts.to_rows()   # columns make none
    assert stored[1] == facts.definitions[1] and stored[1] is stored[1]
    assert [i for i, made in enumerate(stored._made) if made is not None] == [1]   # only the one asked for
    assert list(stored) == facts.definitions and stored[1:] == facts.definitions[1:]
    assert type(stored[0].line) is int and type(stored[0].modifiers) is tuple
    assert again.to_rows() == facts.to_rows() and again == facts
    assert pickle.loads(pickle.dumps(again)) == facts
    assert type(pickle.loads(pickle.dumps(again)).definitions) is StoredDefinitions


def test_a_field_no_definition_sets_is_one_shared_column():
    """Two stored files whose definitions set no type, generics or qualifier read those fields
    from one tuple, longer than either file: still each file's own length and values, and the
    same rows and answers as the file extracted."""
    first = extract_file("a.py", b"def f(x):\n    return x\n\nclass C:\n    y = 1\n", by_name("python"))
    second = extract_file("b.py", b"z = 2\n", by_name("python"))
    stored = [FileFacts.from_rows(decode(encode(f.to_rows()))) for f in (first, second)]
    shared = [f.definitions._columns[Definition.__slots__.index("generics")] for f in stored]
    assert shared[0] is shared[1] and len(shared[0]) > len(first.definitions)
    for again, facts in zip(stored, (first, second)):
        assert list(again.definition_column("generics")) == [None] * len(facts.definitions)
        assert list(again.definition_column("qualifier")) == [d.qualifier for d in facts.definitions]
        assert again.to_rows() == facts.to_rows() and list(again.definitions) == facts.definitions
        assert pickle.loads(pickle.dumps(again)).to_rows() == facts.to_rows()
    # a field one definition sets keeps a column of the file's own
    assert stored[0].definition_column("signature") is stored[0].definitions._columns[Definition.__slots__.index("signature")]


# a reference's columns as the cache holds them: count, name, line, column, start, usage (a byte
# each), scope, container, receiver codes (-2: a token given after the columns), new (a byte each),
# then those tokens
_ONE = b"i\x01\x00\x00\x00"
_ZERO = b"i\x00\x00\x00\x00"
_MINUS_ONE = b"i\xff\xff\xff\xff"
_OTHER = b"i\xfe\xff\xff\xff"


def _reference_blob(count=1, line=_ONE, receiver=_OTHER, others=(None,), usages=b"\x00", new=b"\x00"):
    return encode((count, ("x",), line, _ONE, _ZERO, usages, _ZERO, _MINUS_ONE, receiver, new, others),
                  compress=False)


@pytest.mark.parametrize("encoded", [
    encode([(1, 2)], compress=False), encode((1, 2), compress=False), b"\xc1",
    encode([("x", 10**30, 1, 0, "read", 0, -1, False, False)], compress=False),    # rows, not columns
    _reference_blob(line=(1,)),                                                      # a line not packed
    _reference_blob(count=2),                                                        # a count not theirs
    _reference_blob(line=b"q\x01"),                                                 # a part of a number
    _reference_blob(others=()),                                                      # a receiver's token missing
    _reference_blob(others=(None, ("b",))),                                          # a token of no receiver
    _reference_blob(receiver=b"i\xfd\xff\xff\xff", others=()),                       # a code of nothing
    _reference_blob(receiver=(("r", 0),)),                                           # receivers as tokens
    _reference_blob(usages=("read",)),                                               # usages as words
    _reference_blob(usages=b"\x07"),                                                 # a usage of no kind
    _reference_blob(usages=b"\x00\x00"),                                             # two usages of one reference
    _reference_blob(new=b"\x02"),                                                    # a flag neither 0 nor 1
])
def test_references_of_the_wrong_shape_are_refused_when_read(encoded):
    rows = _handmade().to_rows()
    facts = FileFacts.from_rows(rows[:3] + (encoded,) + rows[4:])
    with pytest.raises((TypeError, ValueError)):
        facts.references


def test_well_formed_reference_columns_are_read():
    """The hostile columns above differ from these in one place each."""
    rows = _handmade().to_rows()
    facts = FileFacts.from_rows(rows[:3] + (_reference_blob(),) + rows[4:])
    assert facts.reference_count == 1
    assert list(facts.references) == [Reference("x", 1, 1, 0, "read", 0, -1, None, False)]
    facts = FileFacts.from_rows(rows[:3] + (_reference_blob(receiver=_ZERO, others=()),) + rows[4:])
    assert facts.references[0].receiver == ("r", 0) and facts.references[-1] == facts.references[0]


def test_receivers_are_held_as_numbers():
    """A name read as a receiver is its index, none is -1, and only the other tokens (a call's
    result, a literal, an item) are kept as tuples — written again, into the same bytes."""
    facts = extract_file("a.py", b"import os\nos.path.join('a', 'b')\nf().x\n'-'.join([])\nv = {}\nv[0].y\n",
                         by_name("python"))
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    stored = again.references
    assert type(stored) is StoredReferences and list(stored) == list(facts.references)
    assert stored.receivers == tuple(r.receiver for r in facts.references)
    kinds = {r.receiver[0] for r in facts.references if isinstance(r.receiver, tuple)}
    assert {"r", "c", "b"} <= kinds, kinds
    assert len(stored._other_receivers) == sum(1 for r in facts.references
                                               if isinstance(r.receiver, tuple) and r.receiver[0] != "r")
    assert stored.blob == facts.to_rows()[3] and again.to_rows() == facts.to_rows()


def test_call_arguments_stay_encoded_until_first_read():
    facts = _handmade()
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    assert type(again._call_arguments) is bytes
    assert again.to_rows() == facts.to_rows() and type(again._call_arguments) is bytes   # written again as read
    assert pickle.loads(pickle.dumps(again)) == facts
    assert again.call_arguments == facts.call_arguments and type(again.call_arguments) is StoredCallArguments
    assert again.call_arguments is again.call_arguments   # read once
    # each call's arguments held encoded, decoded when first asked for
    stored = FileFacts.from_rows(decode(encode(facts.to_rows()))).call_arguments
    assert not stored._decoded and stored[0] == facts.call_arguments[0] and stored[0] is stored[0]
    assert list(stored._decoded) == [0]
    assert stored[-1] == facts.call_arguments[-1] and stored[1:] == facts.call_arguments[1:]
    assert list(again.call_callees()) == [callee for callee, _passed in facts.call_arguments]
    held = FileFacts.from_rows(decode(encode(facts.to_rows())))
    held.hold_as_lists()   # (the graph's build reads every call: decoded whole, kept)
    assert type(held.call_arguments) is list and held.call_arguments == facts.call_arguments
    assert again.to_rows() == facts.to_rows() and again == facts


@pytest.mark.parametrize("encoded", [
    b"\xc1", encode(5, compress=False), encode([(1, 2)], compress=False), encode([(1,)], compress=False),
    encode([("x", ())], compress=False), encode([(1, (), 3)], compress=False), encode([[1, ()], 2], compress=False)])
def test_call_arguments_of_the_wrong_shape_are_refused_when_read(encoded):
    rows = _handmade().to_rows()
    facts = FileFacts.from_rows(rows[:13] + (encoded,) + rows[14:])
    with pytest.raises((TypeError, ValueError)):
        facts.call_arguments


def test_well_formed_call_arguments_are_read():
    """The hostile blobs above differ from this one in one place each."""
    rows = _handmade().to_rows()
    facts = FileFacts.from_rows(rows[:13] + (encode([(1, ((None, ("r", 0), False),))], compress=False),) + rows[14:])
    assert facts.call_arguments == [(1, ((None, ("r", 0), False),))]


@pytest.mark.parametrize("numbers, typecode", [
    ([1, -1, 32767, -32768], b"h"), ([32768, -1], b"i"), ([-32769], b"i"), ([2 ** 31], b"q"), ([], b"h")])
def test_numbers_are_packed_in_the_smallest_array_that_holds_them(numbers, typecode):
    packed = _packed_numbers(numbers)
    assert packed[:1] == typecode and _unpacked_numbers(packed).tolist() == numbers
    assert _packed_numbers(_unpacked_numbers(packed)) == packed   # written again as read


def test_a_file_past_16_bit_offsets_reads_back_whole():
    source = b"".join(b"def f%d(x):\n    return g(x, %d)\n\n" % (i, i) for i in range(2000))
    facts = extract_file("big.py", source, by_name("python"))
    assert facts.definitions[-1].start_byte > 32767 and facts.references[-1].start_byte > 32767
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    assert list(again.definitions) == list(facts.definitions) and list(again.references) == list(facts.references)
    assert again.to_rows() == facts.to_rows()


def test_a_process_reading_every_call_keeps_them_decoded_whole(monkeypatch):
    """The graph's build (in its child: ``decode_calls_whole``) reads nearly every file's calls,
    many times over: there a file's call arguments are decoded whole and kept, as a list."""
    import jupyter_codetrace.facts as facts_module

    facts = _handmade()
    monkeypatch.setattr(facts_module, "_CALLS_DECODED_WHOLE", True)
    again = FileFacts.from_rows(decode(encode(facts.to_rows())))
    assert type(again.call_arguments) is list and again.call_arguments == facts.call_arguments
    assert again.to_rows() == facts.to_rows()
