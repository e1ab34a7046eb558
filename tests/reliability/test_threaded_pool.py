"""The first index's worker processes, started from a process with other threads running.

A Jupyter server, the MCP server and the language server index from a background thread while
their other threads work (JupyterLab's own extensions import modules and read package metadata
as the server starts). A worker forked while another thread held a lock inherits it held and
waits for it forever: the index never ended, the panel said "indexing" for good, and the server
did not exit on SIGTERM (its exit joins the pool). Here another thread is importing the C++
grammar (holds that module's import lock) at the moment the pool starts the worker that
extracts the C++ file — in a fresh interpreter, where no one has imported it yet.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from concurrent.futures.process import BrokenProcessPool

import pytest

from jupyter_codetrace.index.workers import ProcessWorkers

SCRIPT = textwrap.dedent("""
    import importlib._bootstrap as bootstrap
    import json
    import sys
    import threading
    import time

    from jupyter_codetrace import Project

    GRAMMAR = "tree_sitter_language_pack.bindings.cpp"


    def importing_the_grammar(held):
        # what another thread's `import` holds while the module's body runs
        with bootstrap._ModuleLockManager(GRAMMAR):
            held.set()
            time.sleep(3)


    def main():
        held = threading.Event()
        threading.Thread(target=importing_the_grammar, args=(held,), daemon=True).start()
        held.wait()
        with Project(sys.argv[1], cache_dir=sys.argv[2], workers=2) as project:
            stats = project.index()
            found = project.find_definition("area")
            print(json.dumps({"grammar_imported_here": GRAMMAR in sys.modules, "files": stats.files,
                              "skipped": stats.skipped, "status": found.status,
                              "file": found.file}))


    if __name__ == "__main__":
        main()
""")


def test_an_index_started_while_another_thread_imports_a_grammar_ends(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    for i in range(3):
        (root / f"m{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    (root / "shapes.cpp").write_text("int area(int w, int h) { return w * h; }\nint main() { return area(2, 3); }\n")
    (root / "view.ts").write_text("export function show(x: number): number { return x; }\n")
    script = tmp_path / "index_beside_a_thread.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(root), str(tmp_path / "cache")],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    # extracted by a worker (the grammar was never imported here): it met the lock held
    assert answer["grammar_imported_here"] is False
    assert answer["files"] == 5 and answer["skipped"] == []
    assert answer["status"] == "found" and answer["file"] == "shapes.cpp"


def test_the_workers_answer_raise_and_outlive_a_worker_that_died():
    with ProcessWorkers(1) as workers:
        first = workers.submit(os.getpid).result(timeout=60)
        assert first != os.getpid()                    # a process of its own
        with pytest.raises(ValueError):                # a job's error is raised here, as a pool does
            workers.submit(int, "not a number").result(timeout=60)
        assert workers.submit(os.getpid).result(timeout=60) == first   # the same worker, still there
        with pytest.raises(BrokenProcessPool):         # killed mid-job (out of memory, a crash)
            workers.submit(os._exit, 3).result(timeout=60)
        again = workers.submit(os.getpid).result(timeout=60)
        assert again not in (first, os.getpid())       # the next job has a new worker


def test_a_worker_imports_from_this_process_s_path(tmp_path, monkeypatch):
    """A package found on a path this process added (a checkout, not installed) is found there by
    the workers too — without PYTHONPATH, which would put site-packages before the stdlib."""
    (tmp_path / "only_here.py").write_text("import os\n\ndef pid():\n    return os.getpid()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import only_here

    with ProcessWorkers(1) as workers:
        assert workers.submit(only_here.pid).result(timeout=60) != os.getpid()
