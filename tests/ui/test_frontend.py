"""The side panel's frontend checks, run from pytest so `make test` covers them: the unit tests
of the view logic (`jlpm test`, Node's test runner) and the generated response types
(`src/types.ts` must equal what json-schema-to-typescript makes of the result schema)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LABEXTENSION = Path(__file__).resolve().parents[2] / "labextension"
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.skipif(not (LABEXTENSION / "node_modules").is_dir(),
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
