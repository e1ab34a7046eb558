"""Projects served by the extension: one ``Project`` per root, indexed in the background.

The registry is created by the extension and injected into the handlers (no module-level state).
While a root's first index runs, queries get a 503 with the progress. Then a background thread
takes in each change as it is saved (``Project.watch``), and each query still refreshes first
(the index is always fresh).
"""

from __future__ import annotations

import os
import posixpath
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import field
from datetime import datetime, timezone

from ..dataclass_code import dataclass
from ..project import Project

__all__ = ["ProjectRegistry", "IndexState"]

# Once indexed, the server compiles its languages' parsing queries, each after this long without a
# request (or kernel activity), and gives up waiting after QUIET_WAIT_LIMIT (_compile_when_quiet).
QUIET_SECONDS = 2.0
QUIET_WAIT_LIMIT = 600.0


@dataclass
class IndexState:
    """Where a root's index stands, for the status endpoint."""

    state: str = "idle"              # idle | indexing | ready | error
    done: int = 0
    total: int = 0
    current: str | None = None
    started: float | None = None
    finished: float | None = None
    error: str | None = None
    stats: dict | None = None
    runs: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def to_dict(self) -> dict:
        with self.lock:
            data = {"state": self.state, "done": self.done, "total": self.total, "current": self.current,
                    "started": self.started, "finished": self.finished, "error": self.error, "runs": self.runs}
            if self.stats is not None:
                stats = self.stats
                data.update({"files": stats.get("files"), "languages": stats.get("by_language"),
                             "skipped": stats.get("skipped"), "warnings": stats.get("warnings"),
                             "syntax_errors": stats.get("syntax_errors"), "seconds": stats.get("seconds")})
            return data


class ProjectRegistry:
    """The project of the served root, its index state and the executor queries run in."""

    def __init__(self, root: str, *, max_file_size: int = 2_000_000, exclude=(), workers: int = 4,
                 log=None, contents_path: str | None = "", python: str | None = None):
        self.project = Project(root, max_file_size=max_file_size, exclude=tuple(exclude), python=python)
        self.python = python
        # Where the root is in JupyterLab's file tree (relative to the server's root_dir; None
        # outside it): the panel opens `contents_path/file` for a result's `file`.
        self.contents_path = contents_path
        self.state = IndexState()
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="codetrace")
        self.log = log
        self._index_thread: threading.Thread | None = None
        self._settled = threading.Event()   # the index run is over (ready or error)
        self._closing = threading.Event()
        self.server = None    # the ServerApp: its sessions say which kernel runs a notebook
        self._by_python: dict[str, Project] = {}

    async def project_for(self, file) -> Project:
        """The project to answer a request about ``file``: for a notebook whose kernel runs another
        Python than the server's, the same project with library names resolved in that kernel's
        environment (issue 21: `json.dumps`, `nx.DiGraph` as the notebook's code imports them)."""
        python = await self._kernel_python(file)
        if python is None:
            return self.project
        project = self._by_python.get(python)
        if project is None:
            project = self._by_python[python] = self.project.for_python(python)
        return project

    async def _kernel_python(self, file) -> str | None:
        if self.server is None or not isinstance(file, str) or not file.endswith(".ipynb") \
                or self.contents_path is None:
            return None
        path = posixpath.normpath(posixpath.join(self.contents_path, file.lstrip("/")))
        try:
            sessions = await self.server.session_manager.list_sessions()
            name = next((s["kernel"]["name"] for s in sessions if s.get("path") == path and s.get("kernel")), None)
            if name is None:
                return None
            argv = self.server.kernel_spec_manager.get_kernel_spec(name).argv
        except Exception:  # noqa: BLE001 - no session, no spec: the server's own interpreter answers
            return None
        python = shutil.which(argv[0]) if argv else None
        if python is None or "python" not in os.path.basename(python):
            return None   # not a Python kernel (or not one this machine can run)
        if os.path.realpath(python) in (os.path.realpath(sys.executable), os.path.realpath(self.python or "")):
            return None
        return python

    @property
    def ready(self) -> bool:
        """Whether queries are answered: once the first index run has ended. A later run (POST
        reindex) does not stop them: each query takes in the changes first, after that run."""
        return self.state.runs > 0

    def start_indexing(self) -> bool:
        """Index in a background thread; False when a run is already going."""
        with self.state.lock:
            if self.state.state == "indexing":
                return False
            self.state.state, self.state.done, self.state.total = "indexing", 0, 0
            self.state.started, self.state.finished, self.state.error = time.time(), None, None
        self._settled.clear()
        self._index_thread = threading.Thread(target=self._index, name="codetrace-index", daemon=True)
        self._index_thread.start()
        return True

    def _progress(self, done: int, total: int, path: str) -> None:
        with self.state.lock:
            # Monotonic: a later callback never moves the bar back.
            self.state.done = max(self.state.done, done)
            self.state.total = max(self.state.total, total)
            self.state.current = path

    def _index(self) -> None:
        try:
            stats = self.project.index(progress=self._progress)
        except Exception as error:  # noqa: BLE001 - reported through the status route, never lost
            if self.log:
                self.log.exception("codetrace: indexing failed")
            with self.state.lock:
                self.state.state, self.state.error = "error", f"{type(error).__name__}: {error}"
                self.state.finished, self.state.runs = time.time(), self.state.runs + 1
            self._settled.set()
            return
        with self.state.lock:
            self.state.stats = stats.to_dict()
            self.state.done = self.state.total = max(self.state.total, stats.files)
            self.state.state, self.state.finished, self.state.current = "ready", time.time(), None
            self.state.runs += 1
            by_files = self.state.stats.get("by_language") or {}
        try:
            self.project.watch()   # a save is taken in while the person looks for what to ask
        except Exception:  # noqa: BLE001 - without it each question takes in the changes itself
            if self.log:
                self.log.debug("codetrace: watching the root for changes failed", exc_info=True)
        self._settled.set()
        self._compile_when_quiet(sorted(by_files, key=lambda language: -by_files[language]))

    def _compile_when_quiet(self, languages) -> None:
        """Compile the parsing queries of ``languages``, so that the first save of each is answered
        as fast as the next; each once the server has had no request for QUIET_SECONDS. A compile
        holds the interpreter for 0.2-0.7 s, the whole server with it: right when the index was
        ready, JupyterLab's own requests waited 1.7 s on the demo's three languages."""
        for language in languages:
            if not self._quiet_now():
                return   # never quiet: each language's first save compiles its query
            try:
                self.project.compile_queries([language])
            except Exception:  # noqa: BLE001 - a query that fails to compile fails in its files' extraction
                if self.log:
                    self.log.debug("codetrace: compiling the parsing queries failed", exc_info=True)

    def _quiet_now(self) -> bool:
        """Wait until the server has been idle for QUIET_SECONDS (False after QUIET_WAIT_LIMIT)."""
        deadline = time.monotonic() + QUIET_WAIT_LIMIT
        while not self._closing.is_set():
            quiet = self._quiet_for()
            if quiet >= QUIET_SECONDS:
                return True
            if time.monotonic() > deadline:
                return False
            self._closing.wait(min(QUIET_SECONDS - quiet, 0.5))
        return False

    def _quiet_for(self) -> float:
        """Seconds since the server's last request or kernel activity (no server: forever)."""
        try:
            last = self.server.web_app.last_activity()
        except Exception:  # noqa: BLE001 - no server (a registry of its own), or one without the record
            return float("inf")
        return (datetime.now(timezone.utc) - last).total_seconds()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait (up to ``timeout``) for the index run under way to end; whether queries are answered."""
        if self._index_thread is not None:
            self._settled.wait(timeout)
        return self.ready

    def close(self) -> None:
        self._closing.set()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.project.close()
