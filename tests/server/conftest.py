"""Fixtures of the server tests that serve a copy of the demo (as `make lab` serves it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "demo"


@pytest.fixture
def demo_copy(tmp_path) -> Path:
    shutil.copytree(DEMO, tmp_path / "demo")
    return tmp_path / "demo"


@pytest.fixture
def demo_server_config(demo_copy) -> dict:
    """A module's ``jp_server_config`` returns it: jupyter-server with the extension on the copy."""
    return {"ServerApp": {"jpserver_extensions": {"jupyter_codetrace": True}, "root_dir": str(demo_copy)},
            "Codetrace": {"root": str(demo_copy)}}
