"""Build the JupyterLab side panel (labextension/) into jupyter_codetrace/labextension.

One freshness rule for every way the panel gets built:

- ``pip wheel .`` / ``pip install .`` / ``python -m build``: hatch-jupyter-builder's build hook
  calls ``build()`` (pyproject.toml, ``[tool.hatch.build.hooks.jupyter-builder]``), so the
  wheel holds the panel without any step beforehand;
- ``scripts/bootstrap.sh`` runs this file (``python scripts/build_labextension.py``) before the
  editable install.

The panel is rebuilt when a hash of its sources (package.json, yarn.lock, .yarnrc.yml,
tsconfig.json, src/, style/) differs from the one stamped into the output folder at the last
build; otherwise nothing runs (and Node.js is not needed: a wheel built from an sdist uses the
panel the sdist carries). A build is ``jlpm install --immutable`` (the lock file is never
rewritten behind your back) then ``jlpm build:prod`` (tsc + the offline-safe @jupyter/builder).
``jlpm`` comes from the ``jupyter-builder`` Python package, a build requirement.

Environment: ``CODETRACE_FORCE_PANEL_BUILD=1`` rebuilds regardless of the stamp.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "labextension"
OUTPUT = ROOT / "jupyter_codetrace" / "labextension"
STAMP = OUTPUT / ".source-hash"
_SOURCE_FILES = ("package.json", "yarn.lock", ".yarnrc.yml", "tsconfig.json")
_SOURCE_FOLDERS = ("src", "style")


def _log(message: str) -> None:
    print(f"[build_labextension] {message}", file=sys.stderr, flush=True)


def source_hash() -> str:
    """A hash of everything the built panel depends on (names and contents, in a stable order)."""
    digest = hashlib.sha256()
    files = [SOURCE / name for name in _SOURCE_FILES]
    for folder in _SOURCE_FOLDERS:
        files += sorted(p for p in (SOURCE / folder).rglob("*") if p.is_file())
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(SOURCE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def is_fresh() -> bool:
    """The output folder holds a build of the current sources."""
    if not (OUTPUT / "package.json").is_file():
        return False
    if not (SOURCE / "package.json").is_file():
        return True  # no sources (an unpacked wheel-like tree): what is built is all there is
    try:
        return STAMP.read_text(encoding="utf-8").strip() == source_hash()
    except OSError:
        return False


def _jlpm() -> str:
    """The ``jlpm`` command: next to this interpreter (a virtualenv or pip's build environment), else on PATH."""
    search = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", os.defpath)])
    found = shutil.which("jlpm", path=search)
    if not found:
        raise RuntimeError(
            "building the JupyterLab side panel needs `jlpm` (pip install jupyter-builder) and Node.js "
            ">= 18 on PATH; or build from an sdist, which carries the built panel")
    if not shutil.which("node") and not shutil.which("nodejs"):
        raise RuntimeError("building the JupyterLab side panel needs Node.js >= 18 on PATH "
                           "(Debian: apt-get install nodejs npm)")
    return found


def build_panel(force: bool = False) -> bool:
    """Build when stale (or ``force``); returns whether a build ran."""
    force = force or os.environ.get("CODETRACE_FORCE_PANEL_BUILD") == "1"
    if not force and is_fresh():
        _log("the side panel is up to date")
        return False
    if not (SOURCE / "package.json").is_file():
        raise RuntimeError(f"no side panel sources at {SOURCE} and no built panel at {OUTPUT}")
    jlpm = _jlpm()
    wanted = source_hash()
    # build:prod calls `jlpm` itself: make the one found here the one its scripts find.
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(jlpm).parent), os.environ.get("PATH", "")])}
    for step in (["install", "--immutable"], ["build:prod"]):
        _log(f"(labextension/) jlpm {' '.join(step)}")
        subprocess.run([jlpm, *step], cwd=SOURCE, env=env, check=True)
    if not (OUTPUT / "package.json").is_file():
        raise RuntimeError(f"jlpm build:prod wrote no {OUTPUT / 'package.json'}")
    STAMP.write_text(wanted + "\n", encoding="utf-8")
    return True


def build(target_name: str, version: str, **_: object) -> None:
    """hatch-jupyter-builder's ``build-function``: called for the wheel and sdist targets,
    ``version`` "standard" or "editable"."""
    build_panel()


if __name__ == "__main__":
    build_panel(force="--force" in sys.argv[1:])
