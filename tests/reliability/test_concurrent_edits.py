"""Queries to a real jupyter-server while other threads rename, add, delete and edit files
(issue 16's load proof, in small): no error, no stale answer. ``bench/server_load.py`` is the
60-second version with 20 clients; this one makes a fixed number of edits, without timing.

A stale answer names a (file, line) that holds what the answer says (a definition's line reads
`def <symbol>(`, a reference's line names it) in none of the versions of the repository that
could have been on disk while the request ran: the versions whose change began before the answer
came and that were not yet replaced when the request was sent. Each editing thread owns its
modules; every write is atomic (a temporary file renamed over the old one, as editors save), and
the version log records the times just before and just after each change.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import threading
import time
from pathlib import Path

import pytest
import tornado.httpclient

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "graph_py"
EDITORS, MODULES, EDITS = 3, 2, 40   # threads, modules each, edits each
CLIENTS = 6


@pytest.fixture
def root(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "repo")
    return tmp_path / "repo"


@pytest.fixture
def jp_server_config(root):
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}}, "Codetrace": {"root": str(root)}}


def _module(k: int, m: dict) -> str:
    params = ", ".join(f"p{i}" for i in range(m["params"]))
    return (f'"""Module {k}."""\n' + "# padding\n" * m["pad"]
            + f"def f{k}_{m['gen']}({params}):\n    return helper_{k}({m['body']})\n\n\ndef helper_{k}(x):\n    return x\n")


def _user(k: int, m: dict) -> str:
    module = m["path"][:-3].replace("/", ".") if m["path"] else f"live.gone{k}"
    return f"from {module} import f{k}_{m['gen']}\n\nvalue = f{k}_{m['gen']}(1)\n"


class History:
    """The live files' versions: (time before the change, time after it, every live file's text)."""

    def __init__(self, root: Path):
        self.root, self.lock = root, threading.Lock()
        self.files: dict[str, str] = {}
        self.versions: list[tuple[float, float, dict]] = []
        self.mods = {k: {"path": f"live/m{k}.py", "gen": 0, "pad": 0, "params": 1, "body": 0, "n": 0}
                     for k in range(EDITORS * MODULES)}
        (root / "live").mkdir()
        (root / "live/__init__.py").write_text("")
        for k, m in self.mods.items():
            self._save(m["path"], _module(k, m))
            self._save(f"live/use{k}.py", _user(k, m))
        self.versions.append((0.0, time.time(), dict(self.files)))

    def _save(self, path: str, text: str | None, rename_from: str | None = None) -> None:
        target = self.root / path
        if rename_from is not None:
            os.rename(self.root / rename_from, target)
            text = self.files.pop(rename_from)
        elif text is None:
            os.remove(target)
        else:
            temporary = target.with_name(f".{target.name}.tmp")
            temporary.write_text(text)
            os.replace(temporary, target)
        if text is None:
            self.files.pop(path, None)
        else:
            self.files[path] = text

    def change(self, path: str, text: str | None, rename_from: str | None = None) -> None:
        with self.lock:   # one change at a time: each is one version
            before = time.time()
            self._save(path, text, rename_from)
            self.versions.append((before, time.time(), dict(self.files)))

    def edit(self, k: int, rng: random.Random) -> None:
        m = self.mods[k]
        op = "add" if m["path"] is None else rng.choice(("body", "interface", "rename", "delete"))
        if op == "body":
            m["pad"], m["body"] = rng.randrange(5), rng.randrange(100)
            self.change(m["path"], _module(k, m))
        elif op == "interface":
            m["gen"], m["params"] = m["gen"] + 1, rng.randrange(1, 4)
            self.change(m["path"], _module(k, m))
            self.change(f"live/use{k}.py", _user(k, m))
        elif op == "rename":
            old, m["n"] = m["path"], m["n"] + 1
            m["path"] = f"live/m{k}_r{m['n']}.py"
            self.change(m["path"], None, rename_from=old)
            self.change(f"live/use{k}.py", _user(k, m))
        elif op == "delete":
            old, m["path"] = m["path"], None
            self.change(old, None)
        else:
            m["n"] += 1
            m["path"] = f"live/m{k}_r{m['n']}.py"
            self.change(m["path"], _module(k, m))
            self.change(f"live/use{k}.py", _user(k, m))

    def alive(self, sent: float, received: float) -> list[dict]:
        with self.lock:
            versions = list(self.versions)
        return [files for i, (before, _, files) in enumerate(versions)
                if before <= received and (versions[i + 1][1] if i + 1 < len(versions) else float("inf")) >= sent]


def _holds(files: dict, path: str, line: int, name: str, definition: bool) -> bool:
    lines = files[path].split("\n") if path in files else []
    if not 1 <= line <= len(lines):
        return False
    text = lines[line - 1]
    return text.startswith(f"def {name}(") if definition else re.search(rf"\b{re.escape(name)}\b", text) is not None


def _stale(history: History, route: str, params: dict, code: int, body: dict, sent: float, received: float):
    name, alive = params["symbol"], history.alive(sent, received)
    if code == 404:
        if route == "definition" and "file" not in params and all(
                any(f"\ndef {name}(" in text for text in files.values()) for files in alive):
            return f"{name} not found but defined in every version on disk meanwhile"
        return None
    definition = body.get("definition") if route in ("trace", "references") else body
    claims = [(definition["file"], definition["line"], True)] if definition and "file" in definition else []
    claims += [(r["file"], r["line"], False) for r in body.get("references", ())] if route == "references" else []
    for path, line, is_definition in claims:
        if not any(_holds(files, path, line, name, is_definition) for files in alive):
            return f"{route} {params}: {path}:{line} holds no {name} in any of {len(alive)} versions on disk meanwhile"
    return None


async def _get(jp_fetch, route, params):
    try:
        response = await jp_fetch("codetrace", "api", route, params=params)
    except tornado.httpclient.HTTPClientError as error:
        response = error.response
        if response is None:
            raise
    return response.code, json.loads(response.body)


async def test_answers_stay_true_while_files_are_renamed_added_deleted_and_edited(jp_fetch, root):
    history = History(root)
    for _ in range(400):   # the first index, then the live files
        code, _ = await _get(jp_fetch, "definition", {"symbol": "f0_0"})
        if code == 200:
            break
        await asyncio.sleep(0.05)
    assert code == 200
    fixed = {"symbol": "place_order", "file": "main.py", "line": "11"}
    code, expected = await _get(jp_fetch, "definition", fixed)
    assert code == 200

    def editor(thread: int):
        rng = random.Random(thread)
        for _ in range(EDITS):
            history.edit(thread * MODULES + rng.randrange(MODULES), rng)
            time.sleep(rng.uniform(0.01, 0.05))

    threads = [threading.Thread(target=editor, args=(i,)) for i in range(EDITORS)]
    errors, stale, answered = [], [], {}

    async def client(seed: int):
        rng = random.Random(100 + seed)
        while any(t.is_alive() for t in threads):
            if rng.random() < 0.2:
                code, body = await _get(jp_fetch, "definition", fixed)
                if (code, body) != (200, expected):
                    errors.append(f"the fixture's own answer changed: {code} {body}")
                continue
            k = rng.randrange(EDITORS * MODULES)
            m = dict(history.mods[k])
            name = f"f{k}_{m['gen']}"
            route, params = rng.choice([
                ("definition", {"symbol": name}),
                ("definition", {"symbol": name, "file": f"live/use{k}.py", "line": "3"}),
                ("trace", {"symbol": name}),
                ("references", {"symbol": name, "file": m["path"] or f"live/m{k}.py", "line": str(2 + m["pad"])}),
            ])
            sent = time.time()
            code, body = await _get(jp_fetch, route, params)
            received = time.time()
            answered[code] = answered.get(code, 0) + 1
            if code not in (200, 404):
                errors.append(f"{route} {params}: {code} {body}")
            elif (why := _stale(history, route, params, code, body, sent, received)) is not None:
                stale.append(why)

    for thread in threads:
        thread.start()
    try:
        await asyncio.gather(*(client(i) for i in range(CLIENTS)))
    finally:
        for thread in threads:
            thread.join()
    assert not errors, errors[:5]
    assert not stale, stale[:5]
    assert answered.get(200, 0) > 20   # the live questions were answered, not only refused
    # and once the edits stop, every live function is found where it is
    for k, m in history.mods.items():
        name = f"f{k}_{m['gen']}"
        code, body = await _get(jp_fetch, "definition", {"symbol": name})
        if m["path"] is None:
            assert code == 404, body
        else:
            assert (code, body["file"], body["line"]) == (200, m["path"], 2 + m["pad"]), body
