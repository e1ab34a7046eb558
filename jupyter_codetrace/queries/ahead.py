"""Answers made ready before the question: a background thread brings the index — and the graph,
once a question has built it — up to date as soon as files under the root change. It starts by
reading the graph an earlier process left, if there is one.

Every query refreshes what changed before it answers, so a question asked right after a save pays
for re-reading the file and redoing its part of the graph (0.1–1 s on large files). A person saves,
then looks, then asks: in a long-lived process (the server, MCP) that pause is enough to have the
work done, and the question finds it done. The work is the same a query would do, under the same
lock: a question that arrives meanwhile waits for it, never for more, and never gets a stale answer.
Only changes the index can hold wake it (a source file, an ignore file, a folder: not a log or a
data file a notebook writes), and files written without pause take at most half the process.
Where changes are not watched (no inotify), nothing runs ahead and queries refresh as before.
"""

from __future__ import annotations

import threading
import time

from ..graph.build import CHILD_BUILD_FILES
from ..graph.persist import engine_version
from .context import QueryContext
from .graph import _graph

__all__ = ["AheadUpdates", "update_now", "load_stored_graph"]

# An editor's save is a burst of writes (a temporary file and a rename, then JupyterLab's
# checkpoint): waiting this long after the first event takes the whole burst in one update.
SETTLE_SECONDS = 0.05
# How long the thread waits for an event before it looks at whether it was stopped.
_POLL_SECONDS = 1.0


def load_stored_graph(ctx: QueryContext) -> bool:
    """Read the graph an earlier process left (its snapshot, then the files changed since are
    redone), so that a restarted server's first call tree is answered at once. Never a build from
    nothing, nor a large redo (many files changed since: a branch switched): those hold every
    question meanwhile, and wait for one that needs the graph. Whether a graph is now loaded."""
    engine_version()   # hashes the engine's sources once per process: not while questions wait
    with ctx.lock:
        ctx.fresh()
        if ctx.index.parsed_in_process > CHILD_BUILD_FILES:
            return False
        return _graph(ctx, only_stored=True) is not None


def update_now(ctx: QueryContext) -> None:
    """What the next question would do first: refresh the index, start the resolver's new
    generation, and redo the changed files' part of the graph if this process has built one."""
    with ctx.lock:
        resolver = ctx.fresh()
        graph = getattr(ctx, "_code_graph", None)
        if graph is not None:
            graph.update(resolver, ctx.index)


class AheadUpdates:
    """The thread that calls :func:`update_now` after each burst of changes, until ``stop()``."""

    def __init__(self, ctx: QueryContext):
        self._ctx = ctx
        self._others: list[QueryContext] = []   # contexts on the same index (follow)
        self._stopped = threading.Event()
        self.updates = 0                 # bursts of changes handled so far
        self.error: str | None = None    # the last update's failure (the next question retries it)
        self.loaded = threading.Event()  # set once the stored graph was read (or there was none)
        self._thread = threading.Thread(target=self._run, name="codetrace-ahead", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def follow(self, ctx: QueryContext) -> None:
        """Bring this context up to date too after each change: another interpreter's
        resolutions and graph over the same index (``Project.for_python``), kept for as long
        as this thread runs."""
        self._others = [*self._others, ctx]

    def _run(self) -> None:
        index = self._ctx.index
        try:
            load_stored_graph(self._ctx)
        except Exception as error:  # noqa: BLE001 - the first graph question loads it and reports
            self.error = f"{type(error).__name__}: {error}"
        self.loaded.set()
        while not self._stopped.is_set():
            if not index.wait_for_change(_POLL_SECONDS):
                if not index.watching:   # no inotify, or not indexed yet: look again later
                    self._stopped.wait(_POLL_SECONDS)
                continue
            if self._stopped.wait(SETTLE_SECONDS):
                break
            started = time.perf_counter()
            try:
                for ctx in [self._ctx, *self._others]:
                    update_now(ctx)
            except Exception as error:  # noqa: BLE001 - the next question redoes it and reports
                self.error = f"{type(error).__name__}: {error}"
                self._stopped.wait(_POLL_SECONDS)   # not a loop of failures while the cause lasts
                continue
            self.updates += 1
            self.error = None
            # Files written without pause (a generator, a long checkout) take at most half the
            # process: as long again as the update took, before the next one.
            self._stopped.wait(min(time.perf_counter() - started, _POLL_SECONDS))

    def stop(self, timeout: float | None = None) -> None:
        """No update starts after this; one under way is waited for (up to ``timeout``)."""
        self._stopped.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
