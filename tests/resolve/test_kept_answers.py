"""find_references answers kept across index generations and processes (queries/kept_answers.py):
served again only while everything they were worked out from is unchanged, and then exactly
the answer a fresh start gives — after edits, new files, a changed subclass, a damaged row."""

from __future__ import annotations

import os
import random
import re
import sqlite3
import time
from pathlib import Path

import pytest

from jupyter_codetrace import Project
from jupyter_codetrace.queries import references

FILES = {
    "shapes/base.py": '''class Shape:
    def area(self):
        return 0

    def describe(self):
        return f"{self.name}: {self.area()}"


def total_area(shapes):
    return sum(shape.area() for shape in shapes)
''',
    "shapes/round.py": '''from shapes.base import Shape


class Circle(Shape):
    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return 3.14 * self.radius ** 2
''',
    "shapes/square.py": '''from shapes.base import Shape, total_area


class Square(Shape):
    def __init__(self, side):
        self.side = side


def both(shapes):
    return total_area(shapes) + Square(1).area()
''',
    "report.py": '''from shapes.base import total_area
from shapes.round import Circle
from shapes.square import Square


def report(items):
    shapes = [Circle(1), Square(2)]
    print(total_area(shapes), shapes[0].area(), Circle(3).describe())
    return len(items)
''',
}


@pytest.fixture
def keep_every_answer(monkeypatch):
    """Every answer is kept, however quickly it was worked out (the fixture's are fast)."""
    monkeypatch.setattr(references, "KEEP_AFTER_SECONDS", 0.0)


@pytest.fixture
def worked_out(monkeypatch) -> list:
    """The targets whose answer was worked out (not served from what was kept), in order."""
    calls = []
    original = references._references_to

    def spy(ctx, target, *args):
        calls.append((target.path, target.index))
        return original(ctx, target, *args)

    monkeypatch.setattr(references, "_references_to", spy)
    return calls


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        stamp = time.time() + 2   # a new mtime even on coarse-clock filesystems
        os.utime(path, (stamp, stamp))


def _targets(root: Path) -> list[tuple[str, str, int, int]]:
    """(name, file, line, column) of every `def`/`class` name in the project."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = re.match(r"\s*(?:def|class) (\w+)", text)
            if match:
                found.append((match.group(1), rel, number, match.start(1) + 1))
    return found


def _answers(project: Project, targets) -> dict:
    return {t: project.find_references(*t, include_declaration=True).to_dict() for t in targets}


def _fresh_answers(root: Path, cache: Path, targets) -> dict:
    """The same questions in a project that never kept anything (an empty cache of its own)."""
    with Project(root, cache_dir=cache) as fresh:
        fresh._context._answer_store = None
        return _answers(fresh, targets)


def _asked_once(tmp_path: Path) -> tuple[Path, list, dict]:
    """The project of FILES written under tmp_path, its targets, and their answers as a first
    process on ``tmp_path / "cache"`` gave them."""
    root = tmp_path / "p"
    _write(root, FILES)
    targets = _targets(root)
    with Project(root, cache_dir=tmp_path / "cache") as first:
        return root, targets, _answers(first, targets)


def test_a_new_process_is_served_the_kept_answer(tmp_path, keep_every_answer, worked_out):
    root, targets, before = _asked_once(tmp_path)
    assert len(worked_out) == len(targets)
    worked_out.clear()
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert _answers(second, targets) == before
    assert worked_out == []
    assert before == _fresh_answers(root, tmp_path / "fresh", targets)
    area = before[("area", "shapes/base.py", 2, 9)]["references"]
    assert {(r["file"], r["line"]) for r in area} >= {("shapes/base.py", 6), ("shapes/round.py", 8), ("shapes/square.py", 10)}


def test_an_edit_elsewhere_keeps_the_answer_and_a_new_use_does_not(tmp_path, keep_every_answer, worked_out):
    _write(tmp_path / "p", FILES)
    root = tmp_path / "p"
    area = ("area", "shapes/base.py", 2, 9)
    with Project(root, cache_dir=tmp_path / "cache") as project:
        project.find_references(*area)
        _write(root, {"notes.py": ""})   # a new file: any import may lead elsewhere now
        project.find_references(*area)
        assert len(worked_out) == 2
        # a change of a file that names nothing the answer read: served in the next generation
        _write(root, {"notes.py": "X = 1\n"})
        served = project.find_references(*area).to_dict()
        assert len(worked_out) == 2
        # a new use in a file the answer read: worked out again, with the use
        _write(root, {"report.py": FILES["report.py"] + "\n\nCircle(2).area()\n"})
        again = project.find_references(*area).to_dict()
        assert len(worked_out) == 3
    assert ("report.py", 12) not in {(r["file"], r["line"]) for r in served["references"]}
    assert ("report.py", 12) in {(r["file"], r["line"]) for r in again["references"]}


@pytest.mark.parametrize("change", ["new file", "override added", "module it resolves through", "use removed"])
def test_a_change_the_answer_depends_on_is_seen_by_a_new_process(tmp_path, keep_every_answer, change):
    root, targets, before = _asked_once(tmp_path)
    if change == "new file":   # a file not in the listing before, using the names
        _write(root, {"extra.py": "from shapes.round import Circle\n\nCircle(1).area()\nCircle(2).describe()\n"})
    elif change == "override added":   # a file the answer did not read starts defining `area`
        _write(root, {"shapes/square.py": FILES["shapes/square.py"].replace(
            "        self.side = side\n", "        self.side = side\n\n    def area(self):\n        return self.side ** 2\n")})
    elif change == "module it resolves through":   # `Circle` now comes from elsewhere
        _write(root, {"shapes/round.py": FILES["shapes/round.py"] + "\n\nclass Oval:\n    pass\n",
                      "report.py": FILES["report.py"].replace("from shapes.round import Circle",
                                                              "from shapes.round import Oval as Circle")})
    else:
        _write(root, {"report.py": FILES["report.py"].replace(", shapes[0].area()", "")})
    targets = _targets(root)
    with Project(root, cache_dir=tmp_path / "cache") as second:
        after = _answers(second, targets)
    assert after == _fresh_answers(root, tmp_path / "fresh", targets)
    assert after != {t: a for t, a in before.items() if t in after}


def test_a_changed_library_file_is_seen_by_a_new_process(tmp_path, keep_every_answer):
    """The answer reads a package in node_modules (its definition is there): a new version of the
    package, and no project file changed."""
    root = tmp_path / "p"
    _write(root, {"node_modules/greeter/package.json": '{"name": "greeter", "main": "index.js"}\n',
                  "node_modules/greeter/index.js": "export function greet() {}\n",
                  "src/a.ts": 'import { greet } from "greeter";\n\ngreet();\n',
                  "src/b.ts": 'import { greet } from "greeter";\n\ngreet();\ngreet();\n'})
    greet = ("greet", "src/a.ts", 3, 1)
    with Project(root, cache_dir=tmp_path / "cache") as first:
        before = first.find_references(*greet).to_dict()
    _write(root, {"node_modules/greeter/index.js": "// version 2\n\nexport function greet() {}\n"})
    with Project(root, cache_dir=tmp_path / "cache") as second:
        after = second.find_references(*greet).to_dict()
    assert (before["definition"]["line"], after["definition"]["line"]) == (1, 3)
    assert len(after["references"]) == 5   # two imports, three calls


def test_a_damaged_row_is_worked_out_again(tmp_path, keep_every_answer, worked_out):
    _write(tmp_path / "p", FILES)
    root = tmp_path / "p"
    area = ("area", "shapes/base.py", 2, 9)
    with Project(root, cache_dir=tmp_path / "cache") as first:
        before = first.find_references(*area).to_dict()
        file = first._context.answer_store.file
    with sqlite3.connect(file) as db:
        db.execute("UPDATE answers SET blob = substr(blob, 1, length(blob) - 3) || x'000102'")
    worked_out.clear()
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert second.find_references(*area).to_dict() == before
    assert len(worked_out) == 1


def test_random_edits_kept_answers_equal_a_fresh_start(tmp_path, keep_every_answer):
    """Sixty random edits (uses added and removed, overrides, files added and deleted, imports
    redirected); after each, every target asked of a long-lived project, of a new process on the
    same cache, and of a fresh project: the three answers are the same."""
    rng = random.Random(7)
    root = tmp_path / "p"
    _write(root, FILES)
    lines = {
        "use": "Circle({n}).area()\n",
        "describe": "Square({n}).describe()\n",
        "total": "total_area([Circle({n})])\n",
    }
    with Project(root, cache_dir=tmp_path / "cache") as living:
        for step in range(60):
            files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
            kind = rng.choice(["append", "append", "drop", "override", "new", "delete", "redirect"])
            if kind == "append":
                rel = rng.choice(files)
                text = (root / rel).read_text(encoding="utf-8")
                head = "from shapes.round import Circle\nfrom shapes.square import Square\n" \
                       "from shapes.base import total_area\n"
                _write(root, {rel: (text if "import Circle" in text else head + text)
                              + rng.choice(list(lines.values())).format(n=step)})
            elif kind == "drop":
                rel = rng.choice(files)
                text = (root / rel).read_text(encoding="utf-8").splitlines(keepends=True)
                calls = [i for i, t in enumerate(text) if re.match(r"(Circle|Square|total_area)\(", t)]
                if calls:
                    del text[rng.choice(calls)]
                    _write(root, {rel: "".join(text)})
            elif kind == "override":
                rel = "shapes/square.py"
                text = (root / rel).read_text(encoding="utf-8")
                method = "\n    def area(self):\n        return self.side ** 2\n"
                _write(root, {rel: text.replace(method, "") if method in text
                              else text.replace("        self.side = side\n", "        self.side = side\n" + method)})
            elif kind == "new":
                _write(root, {f"extra_{step}.py": "from shapes.round import Circle\n\n"
                              + lines["use"].format(n=step)})
            elif kind == "delete":
                extras = [f for f in files if f.startswith("extra_")]
                if extras:
                    (root / rng.choice(extras)).unlink()
            else:
                rel = "report.py"
                text = (root / rel).read_text(encoding="utf-8")
                a, b = "from shapes.round import Circle", "from shapes.square import Square as Circle"
                _write(root, {rel: text.replace(a, b) if a in text else text.replace(b, a)})
            targets = _targets(root)
            living_answers = _answers(living, targets)
            with Project(root, cache_dir=tmp_path / "cache") as restarted:
                restarted_answers = _answers(restarted, targets)
            fresh = _fresh_answers(root, tmp_path / f"fresh{step}", targets)
            assert living_answers == fresh, (step, kind)
            assert restarted_answers == fresh, (step, kind)


def test_a_store_file_that_is_not_a_database_is_replaced(tmp_path, keep_every_answer):
    root, targets, before = _asked_once(tmp_path)
    with Project(root, cache_dir=tmp_path / "cache") as first:
        file = first._context.answer_store.file
    for suffix in ("-wal", "-shm"):
        Path(f"{file}{suffix}").unlink(missing_ok=True)
    file.write_bytes(b"this is not SQLite\n" * 100)
    with Project(root, cache_dir=tmp_path / "cache") as second:
        assert _answers(second, targets) == before
    with sqlite3.connect(file) as db:   # replaced by a store that keeps answers again
        assert db.execute("SELECT count(*) FROM answers").fetchone()[0] == len(targets)


def _definition_targets(project: Project, rng: random.Random, count: int) -> list[tuple[str, str, int, int]]:
    """``count`` of the project's definitions (not parameters) as (name, file, line, column)."""
    resolver = project._context.fresh()
    found = []
    for path in sorted(resolver.index.files()):
        view = resolver.view(path)
        found += [(d.name, path, d.line, d.column) for d in (view.facts.definitions if view else ())
                  if d.kind != "parameter"]
    return sorted(rng.sample(found, min(count, len(found))))


def test_random_edits_of_an_esm_package_kept_answers_equal_a_fresh_start(copy_fixture, tmp_path, keep_every_answer):
    """TypeScript with barrels, aliased and default exports, `export *` and type re-exports:
    twenty-five random edits (lines duplicated or removed anywhere, barrels added and removed,
    re-exports aliased, users of the default export added); after each, the answers of a
    long-lived project, of a new process on the same cache and of a fresh project are equal."""
    rng = random.Random(11)
    root = copy_fixture("ts_esm")
    new_files = {
        "source/more.ts": "export * from './utils/merge.js';\nexport {formatDate as when} from './utils/dates.js';\n",
        "source/use_more.ts": "import {mergeOptions, when} from './more.js';\n\nmergeOptions({}, {});\nwhen(new Date());\n",
        "source/use_api.ts": "import api from './index.js';\nimport {fmtDate} from './utils/index.js';\n\n"
                             "api.get('x');\nfmtDate(new Date());\n",
    }
    with Project(root, cache_dir=tmp_path / "cache") as living:
        for step in range(25):
            files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.ts"))
            kind = rng.choice(["duplicate", "duplicate", "remove", "add", "delete"])
            if kind in ("duplicate", "remove"):
                rel = rng.choice(files)
                lines = (root / rel).read_text(encoding="utf-8").splitlines(keepends=True)
                code = [i for i, t in enumerate(lines) if t.strip() and not t.lstrip().startswith("//")]
                if code:
                    i = rng.choice(code)
                    lines[i:i + 1] = [lines[i], lines[i]] if kind == "duplicate" else []
                    _write(root, {rel: "".join(lines)})
            elif kind == "add":
                rel = rng.choice(sorted(new_files))
                _write(root, {rel: new_files[rel]})
            else:
                added = [f for f in files if f in new_files]
                if added:
                    (root / rng.choice(added)).unlink()
            targets = _definition_targets(living, random.Random(step), 30)
            living_answers = _answers(living, targets)
            with Project(root, cache_dir=tmp_path / "cache") as restarted:
                restarted_answers = _answers(restarted, targets)
            fresh = _fresh_answers(root, tmp_path / f"fresh{step}", targets)
            assert living_answers == fresh, (step, kind)
            assert restarted_answers == fresh, (step, kind)
