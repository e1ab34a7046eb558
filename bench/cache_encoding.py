"""How fast the facts cache loads, and how big it is: the old pickles against the data-only encoding.

Issue 16, item 6. Loading a file's facts from SQLite is on the path of every restart and of every
query over many files, so the data-only encoding (jupyter_codetrace/index/encoding.py) must not
load slower than the pickles it replaced. The corpus is a copy of the running interpreter's
standard library under /tmp (never in the repository); it is indexed once, then every file's facts
are written into two stores of the same shape, one per encoding, and loaded back file by file as
``Store.load`` does (one SELECT, the row checksum, decode, FileFacts), every loaded file kept alive
as a query over many files keeps them. The floor is the same SELECTs returning the blobs, undecoded.

    python bench/cache_encoding.py            # the whole stdlib (~1,800 files); ~1 min after the first index
    python bench/cache_encoding.py --quick    # the first 200 files

Prints a table (median of --repeat passes; CPU seconds beside wall seconds; × floor and × pickle)
and one JSON line.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import shutil
import sqlite3
import statistics
import sys
import sysconfig
import time
import zlib
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from jupyter_codetrace import Project  # noqa: E402
from jupyter_codetrace.facts import (Export, FileFacts, Import, Scope, StoredReferences,  # noqa: E402
                                     _call_arguments_in, _definitions_from_columns)
from jupyter_codetrace.index.encoding import _decompressed, decode, encode, gc_paused  # noqa: E402
from jupyter_codetrace.index.store import checksum  # noqa: E402

SKIP_DIRS = {"site-packages", "dist-packages", "__pycache__", "node_modules", ".git", ".venv", "venv", "dist",
             "build", "target"}


def copy_stdlib(target: Path, quick: bool) -> Path:
    """The stdlib's .py files (no site-packages, no folders the engine ignores) copied to ``target``."""
    marker = target / ".copied"
    if marker.exists():
        return target
    if target.exists():
        shutil.rmtree(target)
    source = Path(sysconfig.get_paths()["stdlib"])
    files = []
    for folder, dirs, names in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        files += [Path(folder, n).relative_to(source) for n in sorted(names) if n.endswith(".py")]
    for rel in sorted(files)[:200] if quick else files:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, target / rel)
    marker.write_text(str(source))
    return target


# ---------------------------------------------------------------- the encoding before (for comparison only)
def pickle_encode(value) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)


def pickle_decode(blob: bytes):
    return pickle.loads(zlib.decompress(blob))


def pickle_from_rows(rows: tuple) -> FileFacts:
    """FileFacts.from_rows as it was beside the pickles: no shape checks, every fact made at once
    (the definitions' and references' columns, as the cache holds them now, made into objects)."""
    (path, language, defs, refs, imps, exps, scopes, all_names, line_count, has_errors,
     warnings, cells, indirect, arguments, item_writes, iterations, narrowings, shorthand) = rows
    return FileFacts(path, language, list(_definitions_from_columns(defs)), list(StoredReferences(refs)),
                     [Import(*r) for r in imps], [Export(*r) for r in exps], [Scope(*r) for r in scopes],
                     all_names, line_count, has_errors, warnings, cells, indirect, _call_arguments_in(arguments), item_writes,
                     iterations, narrowings, shorthand)


def names_value(facts: FileFacts) -> tuple:
    """The names blob's value, as the indexer writes it."""
    defined, used = facts.names()
    return (sorted(defined), sorted(used), len(facts.definitions), len(facts.references), facts.line_count,
            facts.warnings, facts.has_errors)


# ---------------------------------------------------------------- stores of one shape, one per encoding
def write_store(path: Path, facts: list[FileFacts], encoder) -> None:
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE files (path TEXT PRIMARY KEY, language TEXT NOT NULL, digest TEXT NOT NULL, "
               "names BLOB NOT NULL, facts BLOB NOT NULL, names_sum BLOB NOT NULL, facts_sum BLOB NOT NULL)")
    rows = []
    for f in facts:
        names, blob, digest = encoder(names_value(f)), encoder(f.to_rows()), "0" * 32
        rows.append((f.path, f.language, digest, names, blob, checksum(f.path, f.language, digest, names),
                     checksum(f.path, f.language, digest, blob)))
    with db:
        db.executemany("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("VACUUM")
    db.close()


def load_facts(db: sqlite3.Connection, paths: list[str], build, pause_gc: bool) -> list:
    """Every file's facts, one row at a time, as Store.load reads them; ``build`` None: the floor."""
    kept = []
    query = "SELECT language, digest, facts, facts_sum FROM files WHERE path = ?"
    for path in paths:
        language, digest, blob, expected = db.execute(query, (path,)).fetchone()
        if build is None or build is _decompressed:
            kept.append(blob if build is None else build(blob))
            continue
        if checksum(path, language, digest, blob) != expected:
            raise RuntimeError(path)
        if pause_gc:
            with gc_paused():
                kept.append(build(blob))
        else:
            kept.append(build(blob))
    return kept


def load_names(db: sqlite3.Connection, decoder) -> list:
    """The start-up read: every row's names blob, checked and decoded (Store.records + the indexer)."""
    rows = db.execute("SELECT path, language, digest, names, names_sum FROM files").fetchall()
    out = []
    for path, language, digest, blob, expected in rows:
        if checksum(path, language, digest, blob) != expected:
            raise RuntimeError(path)
        out.append(blob if decoder is None else decoder(blob))
    return out


def restart_target(facts: list[FileFacts]) -> tuple[str, str, int]:
    """A call in ``json/__init__.py`` of a class defined in another file (the first found), else any call."""
    by_path = {f.path: f for f in facts}
    chosen = by_path.get("json/__init__.py") or facts[0]
    defined_here = {d.name for d in chosen.definitions}
    calls = [r for r in chosen.references if r.usage == "call"]
    ref = next((r for r in calls if r.name not in defined_here and r.name[:1].isupper()), calls[0])
    return chosen.path, ref.name, ref.line


_RESTART = """
import sys, time
sys.path.insert(1, {checkout!r})
from jupyter_codetrace import Project
wall, cpu = time.perf_counter(), time.process_time()
with Project({root!r}, cache_dir={cache!r}) as project:
    found = project.find_definition({name!r}, {file!r}, {line})
    print(time.perf_counter() - wall, time.process_time() - cpu, found.status, found.file, found.line)
"""


def measure_restart(root: Path, cache: Path, target: tuple[str, str, int], repeat: int) -> dict:
    """A new process (modules imported first, not timed): Project() → the first find_definition answer."""
    import subprocess

    script = _RESTART.format(checkout=str(Path(__file__).resolve().parent.parent), root=str(root), cache=str(cache),
                             file=target[0], name=target[1], line=target[2])
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
        runs.append((float(out[0]), float(out[1]), " ".join(out[2:])))
    return {"wall_s": round(statistics.median(r[0] for r in runs), 4),
            "cpu_s": round(statistics.median(r[1] for r in runs), 4), "answer": runs[-1][2],
            "target": list(target)}


def timed(run) -> tuple[float, float, object]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the first 200 stdlib files")
    parser.add_argument("--repeat", type=int, default=5, help="passes per variant (median reported)")
    parser.add_argument("--workdir", default="/tmp/codetrace-bench-cache-encoding",
                        help="where the corpus copy, its index and the two stores live")
    args = parser.parse_args()

    work = Path(args.workdir)
    root = copy_stdlib(work / ("stdlib-quick" if args.quick else "stdlib"), args.quick)
    started = time.perf_counter()
    with Project(root, cache_dir=work / "engine-cache") as project:
        stats = project.index()
        index = project._index
        paths = index.files()
        facts = [index.store.load(p) for p in paths]   # the store's own round trip (tests assert it is exact)
    print(f"corpus: {len(paths)} files, {stats.lines} lines under {root} (indexed in {time.perf_counter() - started:.1f} s, "
          f"{stats.parsed} parsed)", file=sys.stderr)
    target = restart_target(facts)

    stores = {"pickle": work / "pickle.sqlite", "msgpack": work / "msgpack.sqlite"}
    write_store(stores["pickle"], facts, pickle_encode)
    write_store(stores["msgpack"], facts, encode)
    dbs = {name: sqlite3.connect(path) for name, path in stores.items()}
    del facts, index, project   # measure with the heap of a process that has loaded nothing yet
    for name, db in dbs.items():   # warm SQLite's page cache and the OS's alike
        load_facts(db, paths, None, False)
        assert [f.path for f in load_facts(db, paths[:50], (lambda b: pickle_from_rows(pickle_decode(b)))
                                           if name == "pickle" else (lambda b: FileFacts.from_rows(decode(b))),
                                           False)] == paths[:50]
    sizes = {}
    for name, db in dbs.items():
        facts_bytes, names_bytes = db.execute("SELECT sum(length(facts)), sum(length(names)) FROM files").fetchone()
        sizes[name] = {"facts_bytes": facts_bytes, "names_bytes": names_bytes,
                       "facts_bytes_per_file": round(facts_bytes / len(paths)),
                       "names_bytes_per_file": round(names_bytes / len(paths)),
                       "facts_raw_bytes": sum(len(zlib.decompress(b) if name == "pickle" else _decompressed(b))
                                             for (b,) in db.execute("SELECT facts FROM files")),
                       "store_file_bytes": stores[name].stat().st_size}

    variants = {   # name: (store, build, pause the collector)
        "floor: SELECT, no decoding": ("msgpack", None, False),
        "SELECT + decompress (info)": ("msgpack", _decompressed, False),
        "pickle (before)": ("pickle", lambda b: pickle_from_rows(pickle_decode(b)), False),
        "msgpack, collector on": ("msgpack", lambda b: FileFacts.from_rows(decode(b)), False),
        "msgpack, collector paused (shipped)": ("msgpack", lambda b: FileFacts.from_rows(decode(b)), True),
        "pickle, collector paused (info)": ("pickle", lambda b: pickle_from_rows(pickle_decode(b)), True),
    }
    names_variants = {
        "floor: SELECT, no decoding": ("msgpack", None),
        "pickle (before)": ("pickle", pickle_decode),
        "msgpack (shipped)": ("msgpack", decode),
    }
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    names_samples: dict[str, list[tuple[float, float]]] = {name: [] for name in names_variants}
    for _ in range(args.repeat):   # interleaved, so drift on a shared machine hits every variant alike
        for name, (store, build, pause) in variants.items():
            wall, cpu, kept = timed(lambda: load_facts(dbs[store], paths, build, pause))
            samples[name].append((wall, cpu))
            del kept
        for name, (store, decoder) in names_variants.items():
            wall, cpu, kept = timed(lambda: load_names(dbs[store], decoder))
            names_samples[name].append((wall, cpu))
            del kept

    def table(title: str, measured: dict, before: str) -> dict:
        floor = statistics.median(c for _, c in measured["floor: SELECT, no decoding"])
        base = statistics.median(c for _, c in measured[before])
        print(f"\n{title} ({len(paths)} files, median of {args.repeat})")
        print(f"{'variant':38} {'wall s':>8} {'CPU s':>8} {'ms/file':>8} {'× floor':>8} {'× pickle':>9}")
        out = {}
        for name, runs in measured.items():
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            out[name] = {"wall_s": round(wall, 4), "cpu_s": round(cpu, 4), "x_floor": round(cpu / floor, 2),
                         "x_pickle": round(cpu / base, 3)}
            print(f"{name:38} {wall:8.3f} {cpu:8.3f} {1000 * cpu / len(paths):8.3f} {cpu / floor:8.1f} "
                  f"{cpu / base:9.3f}")
        return out

    facts_result = table("Loading every file's facts (Store.load: SELECT, checksum, decode, FileFacts)", samples,
                         "pickle (before)")
    names_result = table("Start-up: every row's names blob (Store.records + decode)", names_samples,
                         "pickle (before)")
    print(f"\n{'bytes':38} {'facts/file':>10} {'names/file':>10} {'facts raw':>12} {'store file':>12}")
    for name, s in sizes.items():
        print(f"{name:38} {s['facts_bytes_per_file']:10,} {s['names_bytes_per_file']:10,} {s['facts_raw_bytes']:12,} "
              f"{s['store_file_bytes']:12,}")
    for db in dbs.values():
        db.close()
    restart = measure_restart(root, work / "engine-cache", target, args.repeat)
    print(f"\nrestart → first definition ({target[0]}:{target[2]} {target[1]}; a new process, the store above; "
          f"median of {args.repeat}): {restart['wall_s']:.3f} s wall, {restart['cpu_s']:.3f} s CPU, "
          f"answer {restart['answer']}")
    print(json.dumps({"benchmark": "cache_encoding", "files": len(paths), "lines": stats.lines,
                      "python": sys.version.split()[0], "load": facts_result, "startup_names": names_result,
                      "sizes": sizes, "restart_first_definition": restart}))


if __name__ == "__main__":
    main()
