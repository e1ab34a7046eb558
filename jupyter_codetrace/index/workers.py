"""Extraction workers for a process with other threads running: each a new interpreter
with this process's import path, that takes jobs over a pipe.

A Jupyter server, the MCP and the language servers index from a background thread while their
other threads work. A worker *forked* from such a process inherits every lock another thread held
at that instant (an import under way, a database call) held for good, and can wait for it forever:
the index never ends, and the process's exit, which joins the pool, never comes. multiprocessing's
fork server avoids that but imports the main module once more (``jupyter-lab``'s: all of
JupyterLab, seconds). These workers import only the extraction code.

``submit``, ``with`` and ``BrokenProcessPool`` for a worker that died are those of
``concurrent.futures.ProcessPoolExecutor``, which the index uses where it is the only thread.
"""

from __future__ import annotations

import pickle
import queue
import subprocess
import sys
import threading

__all__ = ["ProcessWorkers"]

_SIZE = 8   # bytes of the length before each message


class ProcessWorkers:
    """Up to ``workers`` processes, each started at its first job and fed one job at a time."""

    def __init__(self, workers: int):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        # the worker imports as this process does (this package from a checkout put on sys.path,
        # say), as multiprocessing's spawned processes do; not through PYTHONPATH, which would
        # put a site-packages folder ahead of the standard library
        self._command = [sys.executable, "-c", f"import sys; sys.path[:] = {sys.path!r}; "
                         f"from {__name__} import _serve; _serve()"]
        # daemon: an exit does not wait for extraction (the workers see their pipe close and end)
        self._feeders = [threading.Thread(target=self._feed, name="codetrace-worker", daemon=True)
                         for _ in range(max(1, workers))]
        for feeder in self._feeders:
            feeder.start()

    def submit(self, fn, *args):
        from concurrent.futures import Future   # (here: a worker, which runs this module, never needs it)

        future = Future()
        self._jobs.put((future, fn, args))
        return future

    def shutdown(self) -> None:
        for _ in self._feeders:
            self._jobs.put(None)
        for feeder in self._feeders:
            feeder.join()

    def __enter__(self) -> "ProcessWorkers":
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def _feed(self) -> None:
        from concurrent.futures.process import BrokenProcessPool

        worker = None
        try:
            while (job := self._jobs.get()) is not None:
                future, fn, args = job
                if not future.set_running_or_notify_cancel():
                    continue
                try:
                    if worker is None:
                        worker = self._start()
                    _send(worker.stdin, (fn, args))
                    ok, value = _receive(worker.stdout)
                except (OSError, EOFError, pickle.UnpicklingError):
                    # the worker died (killed, out of memory, a crash in a parser): this job fails
                    # as in a broken pool, the next one starts a new worker
                    _stop(worker)
                    worker = None
                    future.set_exception(BrokenProcessPool("the extraction worker process ended"))
                    continue
                except BaseException as error:  # noqa: BLE001 - e.g. an argument that does not pickle
                    future.set_exception(error)
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        finally:
            _stop(worker)


def _send(stream, message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(_SIZE, "big"))
    stream.write(data)
    stream.flush()


def _receive(stream):
    header = stream.read(_SIZE)
    if len(header) < _SIZE:
        raise EOFError
    size = int.from_bytes(header, "big")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def _stop(worker: subprocess.Popen | None) -> None:
    if worker is None:
        return
    try:
        worker.stdin.close()   # its loop ends at the end of its input
    except OSError:
        pass
    try:
        worker.wait(timeout=5)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
    worker.stdout.close()


def _serve() -> None:
    jobs, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr   # something printed by a job must not enter the answers' pipe
    while True:
        try:
            fn, args = _receive(jobs)
        except EOFError:
            return
        except Exception as error:  # noqa: BLE001 - read whole, yet not made here (its module not importable)
            _send(answers, (False, RuntimeError(f"the job could not be read in the worker: {error}")))
            continue
        try:
            answer = (True, fn(*args))
        except Exception as error:  # noqa: BLE001 - raised in the submitting process, as a pool does
            answer = (False, error)
        try:
            _send(answers, answer)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            _send(answers, (False, RuntimeError(f"the answer could not be sent back: {error}")))


if __name__ == "__main__":
    _serve()
