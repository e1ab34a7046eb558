#!/usr/bin/env python
"""Indexing throughput per language, against the bare tree-sitter parse of the same files.

Corpora are real third-party repositories, one per language (table below). The script copies
the language's files out of a local git mirror into ``~/.cache/jupyter_codetrace-bench/
languages/<name>/`` (``$CODETRACE_BENCH_CACHE`` overrides) the first time; mirrors are bare git
directories, by default ``/work/.mirror/<owner>+<name>/repo`` (``--mirrors`` to change; fetch
them with ``git clone --mirror`` anywhere else). Nothing enters the repository.

Per language it reports:
  lines            lines of the corpus files of that language
  parse floor      bare tree-sitter parse of every file, one core, best of ``--runs``
                   (wall and CPU seconds)
  cold index       Project(root).index() with a fresh store, best of ``--runs`` (engine's
                   default workers, as bench/index_speed.py; ``--workers 1`` for one core):
                   wall seconds, and CPU seconds of this process and its extraction workers
                   (getrusage SELF + CHILDREN: the pool has exited when index() returns)
  cpu ratio        cold index CPU / parse floor CPU                            target <= 3x
  ratio            cold index wall / parse floor wall (information)
Prints a table, then one JSON line; the JSON also goes to bench/results/language_speed.json.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from jupyter_codetrace import Project  # noqa: E402
from jupyter_codetrace.languages import for_path  # noqa: E402

__all__ = ["CORPORA", "main"]

# language -> (mirror names, extensions kept). `.h` goes with C: cJSON is a C project.
CORPORA: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "c": (("DaveGamble/cJSON",), (".c", ".h")),
    "cpp": (("gabime/spdlog",), (".cpp", ".h", ".hpp")),
    "go": (("spf13/pflag",), (".go",)),
    "rust": (("BurntSushi/termcolor", "dtolnay/anyhow"), (".rs",)),
    "java": (("google/gson",), (".java",)),
    # an ESM TypeScript package (`.js` specifiers, types through values) and a CommonJS one
    # (`require`, `module.exports`: the patterns asking for those words run too)
    "typescript": (("colinhacks/zod",), (".ts", ".tsx")),
    "javascript": (("expressjs/express",), (".js",)),
}


def cache_root() -> Path:
    return Path(os.environ.get("CODETRACE_BENCH_CACHE", Path.home() / ".cache" / "jupyter_codetrace-bench"))


def corpus(language: str, mirrors: Path) -> Path:
    """The corpus folder, exported from the mirrors once (only the language's files)."""
    repos, extensions = CORPORA[language]
    target = cache_root() / "languages" / language
    if (target / ".complete").exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    for repo in repos:
        git_dir = mirrors / repo.replace("/", "+") / "repo"
        if not git_dir.is_dir():
            raise SystemExit(f"missing mirror {git_dir}: clone {repo} there (git clone --mirror)")
        data = subprocess.run(["git", "--git-dir", str(git_dir), "archive", "--format=tar", "HEAD"],
                              check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            members = [m for m in archive.getmembers() if m.isfile() and m.name.endswith(extensions)]
            for member in members:
                member.name = f"{repo.replace('/', '+')}/{member.name}"
            archive.extractall(target, members=members, filter="data")
    (target / ".complete").write_text("ok")
    return target


def _files(root: Path, extensions: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and p.name.endswith(extensions))


def tree_cpu() -> float:
    """User + system CPU seconds of this process and of its children that have been waited for."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def parse_floor(files: list[Path]) -> tuple[float, float]:
    """Wall and CPU seconds of parsing every file once with the bare tree-sitter parser (as
    bench/index_speed.py: not the engine's parse(), which also re-parses around syntax errors)."""
    from tree_sitter_language_pack import get_parser

    sources = [(get_parser(spec.grammar), p.read_bytes())
               for p in files if (spec := for_path(p.as_posix())) is not None]
    start, cpu = time.perf_counter(), time.process_time()
    for parser, data in sources:
        parser.parse(data)
    return time.perf_counter() - start, time.process_time() - cpu


def cold_index(root: Path, workers: int | None) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds (this process and its workers) and stats of one cold index."""
    with tempfile.TemporaryDirectory(prefix="codetrace-langbench-") as store:
        start, cpu = time.perf_counter(), tree_cpu()
        stats = Project(root, cache_dir=store, workers=workers).index()
        return time.perf_counter() - start, tree_cpu() - cpu, stats.to_dict()


def measure(language: str, mirrors: Path, runs: int, workers: int | None = None) -> dict:
    root = corpus(language, mirrors)
    files = _files(root, CORPORA[language][1])
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    floors = [parse_floor(files) for _ in range(runs)]
    floor, floor_cpu = min(f[0] for f in floors), min(f[1] for f in floors)
    indexes = [cold_index(root, workers) for _ in range(runs)]
    best, best_cpu, stats = min(r[0] for r in indexes), min(r[1] for r in indexes), indexes[-1][2]
    return {
        "language": language, "repos": list(CORPORA[language][0]), "files": len(files), "lines": lines,
        "by_language": stats["by_language"], "syntax_errors": len(stats["syntax_errors"]),
        "workers": workers, "parse_s": round(floor, 3), "index_s": round(best, 3),
        "parse_lines_per_s": round(lines / floor) if floor else None,
        "index_lines_per_s": round(lines / best) if best else None,
        "ratio": round(best / floor, 2) if floor else None,
        "parse_cpu_s": round(floor_cpu, 3), "index_cpu_s": round(best_cpu, 3),
        "cpu_ratio": round(best_cpu / floor_cpu, 2) if floor_cpu else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("languages", nargs="*", default=list(CORPORA), help="subset of: " + " ".join(CORPORA))
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"), help="folder of <owner>+<name>/repo git mirrors")
    parser.add_argument("--runs", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--workers", type=int, default=None,
                        help="extraction processes (default: the engine's own choice, as bench/index_speed.py; 1 = one core)")
    parser.add_argument("--target", type=float, default=3.0, help="max index/parse CPU ratio (default 3)")
    args = parser.parse_args(argv)
    results = [measure(language, args.mirrors, args.runs, args.workers) for language in args.languages]
    print(f"{'language':<8} {'files':>6} {'lines':>8} {'parse s':>8} {'index s':>8} "
          f"{'parse l/s':>10} {'index l/s':>10} {'ratio':>6} {'parse cpu':>9} {'index cpu':>9} {'cpu ratio':>9}")
    for r in results:
        print(f"{r['language']:<8} {r['files']:>6} {r['lines']:>8} {r['parse_s']:>8} {r['index_s']:>8} "
              f"{r['parse_lines_per_s']:>10} {r['index_lines_per_s']:>10} {r['ratio']:>5}x "
              f"{r['parse_cpu_s']:>9} {r['index_cpu_s']:>9} {r['cpu_ratio']:>8}x")
    summary = {"results": results, "target_ratio": args.target,
               "all_within_target": all(r["cpu_ratio"] is not None and r["cpu_ratio"] <= args.target for r in results)}
    out = Path(__file__).resolve().parent / "results" / "language_speed.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary))
    return 0 if summary["all_within_target"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
