"""SCIP export against the real SCIP indexers: how many of their precise occurrences ours has.

    python bench/scip_agreement.py                   # fixtures/python_app, fixtures/ts_app, rich
    python bench/scip_agreement.py --only python_app --show 20

For each corpus, Sourcegraph's own indexer (``@sourcegraph/scip-python`` for Python,
``@sourcegraph/scip-typescript`` for TypeScript, from the npm registry into
``$CODETRACE_BENCH_CACHE/scip-tools``, never into the repository) and ``Project.export_scip``
index the same files; both indexes are decoded with our schema (``scip_messages``). Symbol
strings differ between tools, so occurrences are matched by position:

- **definitions**: their occurrences with the ``Definition`` role; present in ours when ours has
  a ``Definition`` occurrence with the same range in the same document.
- **references**: their other occurrences; present in ours when ours has a non-definition
  occurrence with the same range. Then **same target**: among their references whose symbol is
  defined in the index (not external), the share where one of our symbols at that range is
  defined at one of the places theirs is (document + range of the ``Definition`` occurrence).
- references to symbols their index does not define (built-ins, the standard library,
  packages) are reported apart as **external**, and the headline is given with and without them.

Roles other than ``Definition`` are not compared: scip-python marks every reference
``ReadAccess`` and sets no ``Import`` role; scip-typescript sets neither. Ranges are compared
as written (both tools and ours count UTF-16 code units).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jupyter_codetrace import Project  # noqa: E402
from jupyter_codetrace.scip import scip_messages  # noqa: E402

CACHE = Path(os.environ.get("CODETRACE_BENCH_CACHE", Path.home() / ".cache" / "jupyter_codetrace-bench"))
TOOLS = {"python": ("@sourcegraph/scip-python", "0.6.6", "scip-python"),
         "typescript": ("@sourcegraph/scip-typescript", "0.4.0", "scip-typescript")}
CORPORA = {
    "python_app": (HERE.parent / "fixtures" / "python_app", "python"),
    "ts_app": (HERE.parent / "fixtures" / "ts_app", "typescript"),
    "rich": (CACHE / "corpora" / "python" / "rich-15.0.0", "python"),
}


def tool_path(language: str, folder: Path) -> Path:
    package, version, binary = TOOLS[language]
    path = folder / "node_modules" / ".bin" / binary
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), f"{package}@{version}"],
                       check=True, capture_output=True, text=True)
    return path


def run_theirs(language: str, root: Path, work: Path, tools: Path) -> tuple[Path, float]:
    """Their indexer on a copy of ``root`` (it may write beside the sources); the .scip path."""
    copy = work / "src"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("node_modules", "__pycache__", ".git"))
    output = work / "theirs.scip"
    binary = tool_path(language, tools)
    if language == "python":
        command = [str(binary), "index", "--project-name", root.name, "--project-version", "0", "--output", str(output), "."]
    else:
        if not (copy / "tsconfig.json").exists():
            command = [str(binary), "index", "--infer-tsconfig", "--output", str(output)]
        else:
            command = [str(binary), "index", "--output", str(output)]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 or not output.exists():
        raise RuntimeError(f"{binary.name} failed ({done.returncode}): {done.stderr[-2000:] or done.stdout[-2000:]}")
    return output, time.perf_counter() - started


def run_ours(root: Path, work: Path) -> tuple[Path, float, float]:
    output = work / "ours.scip"
    with Project(root, cache_dir=work / "cache") as project:
        started = time.perf_counter()
        project.export_scip(output)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        project.export_scip(output)
        warm = time.perf_counter() - started
    return output, cold, warm


def decode(path: Path):
    index = scip_messages().Index()
    index.ParseFromString(path.read_bytes())
    return index


def _range(values) -> tuple[int, int, int, int]:
    values = list(values)
    return tuple(values) if len(values) == 4 else (values[0], values[1], values[0], values[2])


def _key(path: str, symbol: str) -> tuple[str, str]:
    """Local symbols are local to their document."""
    return (path, symbol) if symbol.startswith("local ") else ("", symbol)


def occurrences(index):
    """(path, range) -> [(symbol key, is definition)], and symbol key -> {(path, range) defined}."""
    at: dict[tuple, list] = defaultdict(list)
    defined: dict[tuple, set] = defaultdict(set)
    for document in index.documents:
        path = document.relative_path
        for occurrence in document.occurrences:
            if not occurrence.symbol:
                continue
            rng = _range(occurrence.range)
            key = _key(path, occurrence.symbol)
            is_definition = bool(occurrence.symbol_roles & 1)
            at[(path, rng)].append((key, is_definition))
            if is_definition:
                defined[key].add((path, rng))
    return at, defined


def compare(theirs, ours, show: int = 0) -> dict:
    their_at, their_defined = occurrences(theirs)
    our_at, our_defined = occurrences(ours)
    our_paths = {d.relative_path for d in ours.documents}
    counts = Counter()
    missing: list[str] = []
    for (path, rng), entries in sorted(their_at.items()):
        if path not in our_paths:
            counts["documents_not_ours"] += 1
            continue
        # several of their occurrences at one range (TypeScript's merged `Date` declarations)
        # count once, as one definition and/or one reference
        mine = our_at.get((path, rng), [])
        if any(d for _, d in entries):
            counts["definitions"] += 1
            if any(d for _, d in mine):
                counts["definitions_found"] += 1
            elif len(missing) < show:
                missing.append(f"def {path}:{rng[0] + 1}:{rng[1] + 1} {entries[0][0][1]}")
        keys = {k for k, d in entries if not d}
        if not keys:
            continue
        defined_at = set().union(*(their_defined.get(k, set()) for k in keys))
        external = not defined_at
        group = "external" if external else "references"
        counts[group] += 1
        refs = [k for k, d in mine if not d]
        if not refs:
            if len(missing) < show:
                missing.append(f"ref {path}:{rng[0] + 1}:{rng[1] + 1} {sorted(keys)[0][1]}")
            continue
        counts[f"{group}_found"] += 1
        if external:
            if any(k not in our_defined and not k[1].startswith("local ") for k in refs):
                counts["external_same"] += 1
        elif any(our_defined.get(k, set()) & defined_at for k in refs):
            counts["references_same_target"] += 1
        elif len(missing) < show:
            missing.append(f"target {path}:{rng[0] + 1}:{rng[1] + 1} {sorted(keys)[0][1]} -> ours {[k[1] for k in refs]}")
    ours_total = sum(len(v) for v in our_at.values())
    theirs_total = sum(len(v) for v in their_at.values())
    share = lambda a, b: round(100.0 * counts[a] / counts[b], 1) if counts[b] else None  # noqa: E731
    precise = counts["definitions"] + counts["references"]
    result = {
        "their_occurrences": theirs_total, "our_occurrences": ours_total,
        "definitions": counts["definitions"], "definitions_found_pct": share("definitions_found", "definitions"),
        "references": counts["references"], "references_found_pct": share("references_found", "references"),
        "references_same_target_pct": share("references_same_target", "references"),
        "external_references": counts["external"], "external_found_pct": share("external_found", "external"),
        "in_project_found_pct": round(100.0 * (counts["definitions_found"] + counts["references_found"]) / precise, 1)
        if precise else None,
        "all_found_pct": round(100.0 * (counts["definitions_found"] + counts["references_found"]
                                        + counts["external_found"]) / (precise + counts["external"]), 1)
        if precise + counts["external"] else None,
    }
    if show:
        result["missing_sample"] = missing
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(CORPORA), help="corpus (repeatable)")
    parser.add_argument("--root", action="append", default=[], metavar="NAME=DIR:LANGUAGE",
                        help="another corpus, e.g. mylib=/src/mylib:python")
    parser.add_argument("--tools", type=Path, default=CACHE / "scip-tools", help="where the npm indexers are installed")
    parser.add_argument("--show", type=int, default=0, metavar="N", help="list N of their occurrences ours lacks")
    args = parser.parse_args(argv)
    corpora = {name: CORPORA[name] for name in (args.only or CORPORA)}
    for extra in args.root:
        name, _, rest = extra.partition("=")
        folder, _, language = rest.rpartition(":")
        corpora[name] = (Path(folder), language)
    results = {}
    for name, (root, language) in corpora.items():
        if not root.is_dir():
            print(f"{name}: {root} is missing (rich: run bench/accuracy.py once to fetch it)", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory(prefix=f"scip-{name}-") as folder:
            work = Path(folder)
            their_path, their_time = run_theirs(language, root, work, args.tools)
            our_path, cold, warm = run_ours(root, work)
            result = compare(decode(their_path), decode(our_path), args.show)
            result.update({"tool": TOOLS[language][2] + " " + TOOLS[language][1], "their_seconds": round(their_time, 2),
                           "our_seconds_cold": round(cold, 2), "our_seconds_warm": round(warm, 2)})
            results[name] = result
    header = ("corpus", "their defs", "found", "their refs", "found", "same target", "external", "found",
              "headline (in-project)", "with external")
    print(" | ".join(header))
    for name, r in results.items():
        print(" | ".join(str(v) for v in (
            name, r["definitions"], f"{r['definitions_found_pct']}%", r["references"], f"{r['references_found_pct']}%",
            f"{r['references_same_target_pct']}%", r["external_references"], f"{r['external_found_pct']}%",
            f"{r['in_project_found_pct']}%", f"{r['all_found_pct']}%")))
        for line in r.get("missing_sample", []):
            print("   ", line)
    print(json.dumps({name: {k: v for k, v in r.items() if k != "missing_sample"} for name, r in results.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
