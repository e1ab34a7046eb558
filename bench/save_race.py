#!/usr/bin/env python
"""Saves and questions racing in a watching process: is an answer ever from before the save?

Session 43 saw it once in JupyterLab (a `dependents` answer a second after a save lacked the new
caller, and had it minutes later with no save in between). This replays that save as JupyterLab's
contents API makes it — a backup copy beside the file, the file truncated and written, fsync, the
backup removed — on a real CommonJS package (`express@5.1.0` from npm, as `accuracy.py` fetches
it), with `Project.watch()` on (as the server and MCP run): each round adds or removes a
`require('./express')` at the top of lib/utils.js and a function calling it at the end, waits a
random pause (0–0.5 s), and asks `dependents_of(lib/express.js, createApplication)`; the answer
must hold the new caller exactly when the file does. ``--restart`` starts every few rounds a new
process on the kept cache (the stored graph is read while saves come in).

    python bench/save_race.py                  # 120 rounds
    python bench/save_race.py -n 400 --restart --seed 3

Prints one line per wrong answer and a JSON summary; exit status 1 on any wrong answer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import ensure_ts_corpus, log  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402

_PAUSES = (0, 0.01, 0.03, 0.05, 0.07, 0.1, 0.2, 0.5)


def _version(original: str, round_: int, with_caller: bool) -> str:
    text = original
    if with_caller:
        lines = text.split("\n")
        first = next(n for n, line in enumerate(lines) if line.startswith("var "))
        lines.insert(first, "var expressApp = require('./express');")
        text = "\n".join(lines) + (f"\nfunction makeAnotherApp{round_}() {{\n  return expressApp();\n}}\n"
                                   f"exports.makeAnotherApp{round_} = makeAnotherApp{round_};\n")
    return text + f"\n// round {round_}\n"


def _save_as_jupyterlab(path: Path, text: str) -> None:
    backup = path.with_name(f".~{path.name}")
    shutil.copy2(path, backup)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    backup.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=120, help="rounds (default 120)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--restart", action="store_true", help="a new process on the kept cache every 10 rounds")
    parser.add_argument("--js-package", default="express@5.1.0")
    args = parser.parse_args()
    source, _ = ensure_ts_corpus(args.js_package, language="javascript")
    work = Path(tempfile.mkdtemp(prefix="save-race-"))
    root, cache = work / source.name, work / "cache"
    shutil.copytree(source, root)
    path = root / "lib" / "utils.js"
    original = path.read_text(encoding="utf-8")
    rng = random.Random(args.seed)
    wrong = []
    project = None
    try:
        for round_ in range(args.n):
            if project is None or (args.restart and round_ % 10 == 0):
                if project is not None:
                    project.close()
                project = Project(root, cache_dir=cache)
                if not project.watch():
                    log("no inotify here: nothing runs ahead of the questions")
            want = round_ % 2 == 0
            _save_as_jupyterlab(path, _version(original, round_, want))
            pause = rng.choice(_PAUSES)
            time.sleep(pause)
            answer = project.dependents_of("lib/express.js", "createApplication")
            has = any(f"makeAnotherApp{round_}" in node.id for node in answer.nodes)
            if has != want:
                wrong.append({"round": round_, "pause": pause, "caller_saved": want, "caller_answered": has})
                log(f"WRONG round {round_} after {pause} s: the file {'has' if want else 'lacks'} the caller, "
                    f"the answer {'has' if has else 'lacks'} it")
    finally:
        if project is not None:
            project.close()
        shutil.rmtree(work, ignore_errors=True)
    summary = {"bench": "save_race", "rounds": args.n, "seed": args.seed, "restart": args.restart, "wrong": len(wrong),
               "wrong_rounds": wrong}
    print(json.dumps(summary))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
