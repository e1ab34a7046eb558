#!/usr/bin/env python
"""The files that define or use a name, asked in a new process before the index inverts its
name sets (``Index.defined_in`` / ``used_in``, ``_FilesByName``; issue 20): what a restart's
first answers and a kept answer's check pay for each name.

On the CPython standard library (``benchlib.ensure_stdlib_corpus``, 1,788 files, indexed once,
untimed), a new process opens the project, reads the stored names once (the first search,
reported apart), then asks each name of NAMES twice — the first time a name found in many files
decodes their sets, the second time is the search alone. The floor is one ``bytes.find`` of the
name's encoding over every file's encoded set joined (1.5 MB; ``count``, which reads it all, as a
search must): the least a byte search costs.

    .venv/bin/python bench/files_by_name.py [--source DIR] [--store DIR]

``--source DIR`` measures the package in ``DIR/jupyter_codetrace`` with the same index cache
(the same engine version) or its own. Prints a table, then one JSON line (also
bench/results/files_by_name.json).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from benchlib import cache_dir, ensure_stdlib_corpus, log, save_result  # noqa: E402

NAMES = ["urlparse", "altzone", "getdefaulttimeout", "Frobnicate", "RFC1808_BASE", "zlib", "assertIn", "x"]

_WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from jupyter_codetrace import Project
from jupyter_codetrace.index.store import encode
project = Project(sys.argv[2], cache_dir=sys.argv[3])
project.index()
index = project._context.index
out = {}
for field in ("defined", "used"):
    table = getattr(index, f"{field}_in")
    began = time.perf_counter()
    table._search("a name asked first")
    out[f"{field}_first_ms"] = (time.perf_counter() - began) * 1000
    blobs = b"".join(s.encoded(field) for s in index._summaries.values() if type(s.encoded(field)) is bytes)
    for name in json.loads(sys.argv[4]):
        needle = encode(name, compress=False)
        began = time.perf_counter()
        blobs.count(needle)   # every place, as a search that finds nothing must look
        floor = time.perf_counter() - began
        began = time.perf_counter()
        files = table._search(name)
        first = time.perf_counter() - began
        began = time.perf_counter()
        table._search(name)
        again = time.perf_counter() - began
        out[f"{field}:{name}"] = {"files": len(files), "first_ms": first * 1000, "again_ms": again * 1000,
                                  "floor_ms": floor * 1000}
print(json.dumps(out))
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", default=str(BENCH.parent), help="the folder holding jupyter_codetrace/")
    parser.add_argument("--store", help="an index cache folder of the stdlib to use (default: the bench's own)")
    args = parser.parse_args(argv)
    root, _meta = ensure_stdlib_corpus(False)
    store = Path(args.store) if args.store else cache_dir() / "files-by-name-store"
    def new_process() -> dict:
        done = subprocess.run([sys.executable, "-c", _WORKER, args.source, str(root), str(store), json.dumps(NAMES)],
                              capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            raise SystemExit(done.stderr[-3000:])
        return json.loads(done.stdout.strip().splitlines()[-1])

    log(f"[index] {root} under {store} (untimed when already stored)")
    new_process()
    log("[search] a new process")
    began = time.perf_counter()
    found = new_process()
    res = {"bench": "files_by_name", "source": args.source, "process_s": time.perf_counter() - began, **found}
    print(f"files by name in a new process ({args.source}); names read first: defined "
          f"{res['defined_first_ms']:.1f} ms, used {res['used_first_ms']:.1f} ms")
    print(f"{'field:name':<30} {'files':>6} {'first ms':>9} {'again ms':>9} {'floor ms':>9} {'x floor':>8}")
    for field in ("defined", "used"):
        for name in NAMES:
            row = res[f"{field}:{name}"]
            ratio = row["again_ms"] / row["floor_ms"] if row["floor_ms"] else 0
            print(f"{field + ':' + name:<30} {row['files']:>6} {row['first_ms']:>9.2f} {row['again_ms']:>9.2f} "
                  f"{row['floor_ms']:>9.2f} {ratio:>7.1f}x")
    save_result("files_by_name", res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
