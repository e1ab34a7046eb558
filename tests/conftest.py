"""Shared test fixtures: an isolated index cache, and writable copies of the fixture repos."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest

# jp_fetch / jp_serverapp: a real jupyter-server for the REST extension's tests (tests/server/).
pytest_plugins = ("pytest_jupyter.jupyter_server",)

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def codetrace_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    """Every persisted index of the session goes to a temporary folder, never ~/.cache."""
    cache = tmp_path_factory.mktemp("codetrace-cache")
    xdg = tmp_path_factory.mktemp("xdg-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CODETRACE_CACHE_DIR", str(cache))
        patch.setenv("XDG_CACHE_HOME", str(xdg))  # in case something ignores CODETRACE_CACHE_DIR
        yield cache


@pytest.fixture
def copy_fixture(tmp_path: Path) -> Callable[[str], Path]:
    """``copy_fixture("python_app")`` -> a writable copy of that fixture repo under tmp_path."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(FIXTURES_DIR / name, target, ignore=shutil.ignore_patterns("__pycache__"))
        return target

    return copy


@pytest.fixture
def graph_forks(monkeypatch) -> list[int]:
    """Every graph update of more than no file redone in a forked child (graph/build.py
    ``_built_in_child``); the pids of the children forked, in order."""
    import os

    from jupyter_codetrace.graph import build

    monkeypatch.setattr(build, "CHILD_BUILD_FILES", 0)
    pids: list[int] = []
    fork = os.fork

    def recorded_fork():
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(build.os, "fork", recorded_fork)
    return pids
