"""The side panel's frontend checks, run from pytest so `make test` covers them: the unit tests
of the view logic (`jlpm test`, Node's test runner) and the generated response types
(`src/types.ts` must equal what json-schema-to-typescript makes of the result schema)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LABEXTENSION = Path(__file__).resolve().parents[2] / "labextension"
BIN = Path(sys.executable).parent

# Outside CI a checkout without the panel's packages skips these (saying why); in CI
# (scripts/bootstrap.sh installs them) they must run, so there a missing folder fails them.
pytestmark = pytest.mark.skipif(not (LABEXTENSION / "node_modules").is_dir() and not os.environ.get("CI"),
                                reason="labextension/node_modules missing: scripts/bootstrap.sh builds the panel")


def _jlpm(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run([shutil.which("jlpm", path=env["PATH"]) or "jlpm", *args], cwd=LABEXTENSION,
                          capture_output=True, text=True, env=env, timeout=240)


def test_view_logic_unit_tests():
    done = _jlpm("test")
    assert done.returncode == 0 and "# fail 0" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]


def test_response_types_are_generated_from_the_schema(tmp_path):
    committed = (LABEXTENSION / "src" / "types.ts").read_text(encoding="utf-8")
    done = _jlpm("json2ts", "-i", "../jupyter_codetrace/schema/results.schema.json", "-o", str(tmp_path / "types.ts"),
                 "--unreachableDefinitions", "--bannerComment", committed.splitlines()[0])
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "types.ts").read_text(encoding="utf-8") == committed, \
        "src/types.ts is stale: run `jlpm gen:types` in labextension/"


def _keymap(schema: dict) -> list[dict]:
    return [s for s in schema.get("jupyter.lab.shortcuts", []) if not s.get("disabled")]


def _chord(keys: list[str]) -> str:
    # On Linux and Windows "Accel" is Ctrl: a JupyterLab binding on Ctrl-… takes the same keys.
    return " , ".join(" ".join(sorted("Accel" if k == "Ctrl" else k for k in key.split())) for key in keys)


def test_the_panel_shortcuts_are_free_in_jupyterlab():
    """Every key binding of the panel (schema/plugin.json) is taken by nothing in the installed
    JupyterLab's keymap (Accel-Shift-U, the first choice, opened the Property Inspector)."""
    ours = _keymap(json.loads((LABEXTENSION / "schema" / "plugin.json").read_text(encoding="utf-8")))
    assert {s["command"] for s in ours} == {"codetrace:open", "codetrace:trace-under-cursor", "codetrace:go-to-definition",
                                            "codetrace:find-references", "codetrace:navigate-back",
                                            "codetrace:navigate-forward"}
    assert {s["keys"][0] for s in ours if s["command"].startswith(("codetrace:go-to", "codetrace:find", "codetrace:navigate"))} \
        == {"F12", "Shift F12", "Alt ArrowLeft", "Alt ArrowRight"}
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"
    if not schemas.is_dir():
        pytest.skip(f"no JupyterLab schemas under {schemas}")
    theirs: dict[str, str] = {}
    for path in schemas.rglob("*.json"):
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        for shortcut in _keymap(schema) if isinstance(schema, dict) else []:
            theirs[_chord(shortcut["keys"])] = shortcut["command"]
    assert len(theirs) > 50, "JupyterLab's keymap was not found"
    taken = {s["command"]: theirs[_chord(s["keys"])] for s in ours if _chord(s["keys"]) in theirs}
    assert not taken, f"the panel's shortcuts are JupyterLab's: {taken}"


def _codemirror_keys() -> set[str]:
    """The keys of CodeMirror's default keymap (which JupyterLab's editors keep), as Lumino writes them
    (Linux/Windows side: `Mod` is Ctrl, i.e. Accel)."""
    source = (LABEXTENSION / "node_modules" / "@codemirror" / "commands" / "dist" / "index.js").read_text(encoding="utf-8")
    keys = set()
    for key in re.findall(r'\bkey: "([^"]+)"', source):
        parts = ["Accel" if p in ("Mod", "Ctrl") else p for p in key.split("-")]
        keys.add(" ".join(sorted(parts)))
    return keys


def test_keys_shared_with_codemirror_are_taken_before_it():
    """Alt-ArrowLeft/Right are CodeMirror's cursorSyntaxLeft/Right: inside an editor CodeMirror
    would take them before JupyterLab's keymap. The editor extension runs Code Trace commands for
    their bound keys first (navigator.ts, runBoundCommand); no other key may collide unnoticed."""
    ours = _keymap(json.loads((LABEXTENSION / "schema" / "plugin.json").read_text(encoding="utf-8")))
    codemirror = _codemirror_keys()
    assert len(codemirror) > 30, "CodeMirror's default keymap was not found"
    shared = {s["keys"][0] for s in ours if _chord(s["keys"]) in codemirror}
    assert shared == {"Alt ArrowLeft", "Alt ArrowRight"}, shared
    navigator = (LABEXTENSION / "src" / "navigator.ts").read_text(encoding="utf-8")
    assert "private runBoundCommand(event: KeyboardEvent)" in navigator and "this.runBoundCommand(event)" in navigator


def test_settings_schema_offers_each_navigation_feature():
    schema = json.loads((LABEXTENSION / "schema" / "plugin.json").read_text(encoding="utf-8"))
    properties = schema["properties"]
    assert {"click", "underline", "hoverCard", "hoverDelay", "modifier", "jupyterlabLsp"} <= set(properties)
    assert properties["modifier"]["enum"] == ["Accel", "Alt"] and properties["hoverDelay"]["default"] == 500
