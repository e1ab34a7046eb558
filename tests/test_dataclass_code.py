"""The package's dataclasses with their methods' code kept between processes (dataclass_code.py).

Each start of a process compiled every class's generated methods again (~50 ms of importing the
package). Checked here: a second process compiles none of them, the classes made from kept code
behave as the standard library's in every respect a caller can see, and a damaged, foreign or
unwritable file costs nothing but the compile.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_codetrace import dataclass_code

ROOT = Path(__file__).resolve().parent.parent

# A child interpreter importing what a CLI call or a restart imports; it reports how many method
# texts it compiled, how many it took from the file, and where the file is.
_CHILD = """
import json, sys
from jupyter_codetrace import Project
Project
import jupyter_codetrace.results, jupyter_codetrace.graph.build
from jupyter_codetrace import dataclass_code as d
print(json.dumps({"compiled": d._compiled, "used": len(d._used), "path": d.cache_path()}))
"""


def _child(prefix: Path, *flags: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    done = subprocess.run([sys.executable, *flags, "-c", _CHILD], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_process_compiles_no_method(tmp_path):
    first = _child(tmp_path)
    assert first["compiled"] > 40 and first["compiled"] == first["used"]
    path = Path(first["path"])
    assert path.is_file() and str(path).startswith(str(tmp_path))
    second = _child(tmp_path)
    assert second["compiled"] == 0 and second["used"] == first["used"]


@pytest.mark.parametrize("damage", ["garbage", "foreign magic", "truncated", "not a dict"])
def test_a_damaged_file_is_compiled_past_and_written_again(tmp_path, damage):
    path = Path(_child(tmp_path)["path"])
    good = path.read_bytes()
    header = dataclass_code._HEADER
    path.write_bytes({"garbage": os.urandom(4000),
                      "foreign magic": b"\x00\x00\r\n" + good[4:],
                      "truncated": good[:len(good) // 2],
                      "not a dict": header + b"\xe9\x01\x00\x00\x00"}[damage])   # marshal of a list
    again = _child(tmp_path)
    assert again["compiled"] == again["used"] > 40
    assert path.read_bytes().startswith(header)
    assert _child(tmp_path)["compiled"] == 0


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path):
    report = _child(tmp_path, "-B")
    assert report["compiled"] > 40
    assert not Path(report["path"]).exists()


def _shapes(make):
    """Two classes as the package writes them, made by ``make`` (a dataclass decorator)."""

    @make(slots=True, frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = ()

    @make
    class Box:
        name: str
        items: list = dataclasses.field(default_factory=list)
        hidden: int = dataclasses.field(default=3, repr=False, compare=False)

    return Point, Box


def test_kept_code_makes_the_standard_librarys_classes():
    dataclass_code._exec("pass")   # the file read (or not) before the first class below
    _shapes(dataclass_code.dataclass)   # its texts compiled (or read from the file) ...
    before = dataclass_code._compiled
    ours, theirs = _shapes(dataclass_code.dataclass), _shapes(dataclasses.dataclass)
    assert dataclass_code._compiled == before   # ... the same texts again: every method from kept code
    assert "exec" not in vars(dataclasses)   # the standard library left as it was
    for mine, stdlib in zip(ours, theirs):
        assert dataclasses.is_dataclass(mine)
        assert [(f.name, f.default, f.repr, f.compare) for f in dataclasses.fields(mine)] == \
            [(f.name, f.default, f.repr, f.compare) for f in dataclasses.fields(stdlib)]
        assert str(inspect.signature(mine)) == str(inspect.signature(stdlib))
        assert mine.__init__.__annotations__ == stdlib.__init__.__annotations__
        assert getattr(mine, "__slots__", None) == getattr(stdlib, "__slots__", None)
        assert (mine.__hash__ is None) == (stdlib.__hash__ is None)
    Point, Box = ours
    p = Point(1, tags=("a",))
    assert repr(p) == repr(theirs[0](1, tags=("a",))) == "_shapes.<locals>.Point(x=1, y=0, tags=('a',))"
    assert p == Point(1, 0, ("a",)) and p != Point(2) and hash(p) == hash(Point(1, 0, ("a",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5
    assert dataclasses.replace(p, y=4) == Point(1, 4, ("a",))
    b = Box("n")
    assert repr(b) == repr(theirs[1]("n")) and b.items is not Box("n").items
    assert Box("n", [1], hidden=9) == Box("n", [1])
    with pytest.raises(TypeError):
        Point()
