"""A real LSP client session over stdio: pygls' LanguageClient spawning
``python -m jupyter_codetrace.cli --root ROOT lsp``.

pytest-lsp's plugin is off in this project (it breaks nbval, see pyproject.toml), so the session
is driven here: one event loop per session, run only while a request is awaited; messages the
server sends in between (progress) wait in the pipe and are handled on the next run.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls import uris
from pygls.lsp.client import LanguageClient

FIXTURES = Path(__file__).resolve().parent.parent.parent / "fixtures"


class Session:
    """A started server and its client; ``run(coroutine)`` waits for one answer."""

    def __init__(self, root: Path, env: dict | None = None):
        self.root = root.resolve()
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("codetrace-tests", "1")
        self.progress: list[tuple[float, object]] = []

        @self.client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create(params: lsp.WorkDoneProgressCreateParams):
            self.progress.append((time.monotonic(), "create"))
            return None

        @self.client.feature(lsp.PROGRESS)
        def progress(params: lsp.ProgressParams):
            self.progress.append((time.monotonic(), params.value))

        self.run(self.client.start_io(sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(self.root), "lsp",
                                      env={**os.environ, **(env or {})}))

    def run(self, coroutine, timeout: float = 120):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, timeout))

    def initialize(self) -> lsp.InitializeResult:
        result = self.run(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(window=lsp.WindowClientCapabilities(work_done_progress=True)),
            root_uri=uris.from_fs_path(str(self.root)),
            workspace_folders=[lsp.WorkspaceFolder(uris.from_fs_path(str(self.root)), self.root.name)])))
        self.client.initialized(lsp.InitializedParams())
        self.capabilities = result.capabilities
        return result

    def uri(self, path: str) -> str:
        return uris.from_fs_path(str(self.root / path))

    def doc(self, path: str) -> lsp.TextDocumentIdentifier:
        return lsp.TextDocumentIdentifier(self.uri(path))

    def at(self, path: str, line: int, name: str, occurrence: int = 0) -> lsp.TextDocumentPositionParams:
        """The position of ``name`` on 1-based ``line`` of ``path`` as on disk (ASCII fixtures)."""
        text = (self.root / path).read_text().splitlines()[line - 1]
        column = -1
        for _ in range(occurrence + 1):
            column = text.index(name, column + 1)
        return lsp.TextDocumentPositionParams(self.doc(path), lsp.Position(line - 1, column))

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_async(None), timeout=30)
            self.client.exit(None)
            self.run(self.client.stop(), timeout=30)
        finally:
            self.loop.close()


@pytest.fixture(scope="module")
def graph_session():
    session = Session(FIXTURES / "graph_py")
    session.initialize()
    yield session
    session.close()


@pytest.fixture(scope="module")
def libs_session():
    session = Session(FIXTURES / "py_libs")
    session.initialize()
    yield session
    session.close()
