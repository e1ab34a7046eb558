#!/usr/bin/env python
"""Accuracy of ``Project.find_definition`` against real oracles.

Python: Jedi's ``Script.goto(follow_imports=True)`` on a pip-installed third-party
package (default ``rich==15.0.0``). TypeScript: the compiler's language service
(``getDefinitionAtPosition``, npm ``typescript``) on a packed npm package that ships
its ``.ts`` sources (default ``mobx@7.1.3``). JavaScript: the same language service with
``allowJs`` (``checkJs`` off, ``module`` commonjs, ``target`` es2020, the package's ``.js``
files as root names) on a packed CommonJS package kept as published (default
``express@5.1.0``; its dependencies are not installed, so references into them are external
or silent). Corpora and oracle answers are cached in ``~/.cache/jupyter_codetrace-bench``
(or ``$CODETRACE_BENCH_CACHE``).

Sampled references: a seeded random sample of N identifiers that are references (not
definition names), enumerated with tree-sitter; kinds ``plain``, ``attribute`` (member
after a dot) and ``imported`` (a plain name bound by an import in that file, or in
JavaScript by ``const x = require(…)``). A sampled position the oracle answers with itself
is a definition and is replaced by the next one.

Scoring per reference, by the oracle's answer:
  in-repo   the oracle names definitions inside the root: we *match* when our found
            (file, line) is one of them (recall = matched / in-repo);
  external  the oracle's answers are all outside the root (stdlib, site-packages,
            lib.d.ts): we agree when we answer ``unresolved`` or ``builtin``, or found in
            library code at the oracle's (file, line) under its import root (Python: the
            longest sys.path folder holding the file); library recall = those found at the
            oracle's place / external answers the oracle located;
  silent    the oracle gives nothing: reported, not scored.
Precision = of our ``found`` answers on in-repo or external references, the share whose
(file, line) is one of the oracle's in-repo answers or its library place (name-only guesses
count). Our
columns are 1-based code points; Jedi's are 0-based code points; the language
service's are UTF-16 offsets: all converted.

Mismatches (a seeded sample) go to bench/results/accuracy-mismatches-<lang>.txt and
every row to bench/results/accuracy-<lang>.json (TypeScript: ``<lang>-<package>``).
``--lang all`` runs Python, TypeScript and JavaScript.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402
from benchlib import Ref, log, percentile  # noqa: E402

# Bump when reference enumeration or oracle normalisation changes (invalidates cached answers).
ORACLE_FORMAT = 5  # 5: external answers carry their place under the import root (external_at)
KINDS = ("plain", "attribute", "imported")
NOT_FOUND_EXTERNAL_OK = {"unresolved", "builtin"}
# The oracle's options for a JavaScript corpus (it ships no tsconfig; none is written into it).
JS_COMPILER_OPTIONS = {"allowJs": True, "checkJs": False, "module": "commonjs", "target": "es2020",
                       "noEmit": True}


# ---------------------------------------------------------------- oracles

def _inside(path: Path, root: Path) -> str | None:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def _under_import_root(path: Path) -> str | None:
    """A library file as the engine names it: under the longest ``sys.path`` folder holding it.
    None for Jedi's own copy of typeshed (stubs of built-ins the interpreter has no source for:
    the engine answers ``builtin`` there, which the scoring counts as agreement)."""
    path = path.resolve()
    if "third_party/typeshed" in path.as_posix():
        return None
    for entry in sorted((Path(p).resolve() for p in sys.path if p and Path(p).is_dir()), key=lambda p: -len(str(p))):
        if path.is_relative_to(entry):
            return path.relative_to(entry).as_posix()
    return None


def jedi_oracle(root: Path, pool, need: int):
    """Ask Jedi for each ref of ``pool`` until ``need`` non-definition refs are answered."""
    import jedi

    project = jedi.Project(str(root))
    scripts: dict[str, object] = {}
    kept, rows, dropped = [], [], 0
    times_first_in_file, times_warm = [], []
    t_start = time.perf_counter()
    first_call = None
    for ref in pool:
        if len(kept) >= need:
            break
        fresh = ref.file not in scripts
        if fresh:
            path = root / ref.file
            scripts[ref.file] = jedi.Script(path.read_text(encoding="utf-8"), path=str(path),
                                            project=project)
        t0 = time.perf_counter()
        error = None
        try:
            names = scripts[ref.file].goto(ref.line, ref.column0, follow_imports=True)
        except Exception as exc:  # Jedi has its own bugs; an error is "no answer"
            names, error = [], f"{type(exc).__name__}: {exc}"
        dt = time.perf_counter() - t0
        if first_call is None:
            first_call = dt
        (times_first_in_file if fresh else times_warm).append(dt)
        in_repo, external, external_at = [], [], []
        for n in names:
            rel = _inside(Path(n.module_path), root) if n.module_path else None
            if rel is None or n.line is None:
                external.append(f"{n.module_name or '?'}:{n.full_name or n.name}")
                under = _under_import_root(Path(n.module_path)) if n.module_path and n.line else None
                if under is not None:
                    external_at.append([under, n.line])
            else:
                in_repo.append([rel, n.line, n.column + 1, n.type, n.full_name or n.name])
        if any(a[0] == ref.file and a[1] == ref.line and a[2] == ref.column for a in in_repo):
            dropped += 1
            continue
        kept.append(ref)
        rows.append({"in_repo": in_repo, "external": external, "external_at": external_at, "error": error})
    total = time.perf_counter() - t_start
    timings = {
        "oracle": f"jedi {jedi.__version__}",
        "calls": len(times_first_in_file) + len(times_warm),
        "first_call_s": first_call,
        "first_in_file_p50_ms": _ms(percentile(times_first_in_file, 50)),
        "warm_p50_ms": _ms(percentile(times_warm, 50)),
        "warm_p95_ms": _ms(percentile(times_warm, 95)),
        "total_s": total,
    }
    return kept, rows, dropped, timings


def ts_oracle(root: Path, pool, need: int, ts_version: str, compiler_options=None):
    """Ask the TypeScript language service (one node process per batch). ``compiler_options``
    (JavaScript) stand in for the root's tsconfig.json, with the root's .js files as root names."""
    ts_module = benchlib.ensure_typescript_module(ts_version)
    config = None if compiler_options is None else {
        "compilerOptions": compiler_options, "files": benchlib.list_source_files(root, "javascript")}
    script = Path(__file__).resolve().parent / "ts_oracle.js"
    kept, rows, dropped = [], [], 0
    timings = None
    cursor = 0
    texts: dict[str, list[str]] = {}
    while len(kept) < need and cursor < len(pool):
        batch = pool[cursor: cursor + max(50, int((need - len(kept)) * 1.25))]
        cursor += len(batch)
        with tempfile.TemporaryDirectory() as tmp:
            qpath, opath = Path(tmp, "q.json"), Path(tmp, "o.json")
            qpath.write_text(json.dumps([{"id": i, "file": r.file, "offset": r.utf16_offset}
                                         for i, r in enumerate(batch)]))
            extra = []
            if config is not None:
                Path(tmp, "config.json").write_text(json.dumps(config))
                extra = [str(Path(tmp, "config.json"))]
            subprocess.run(["node", str(script), str(ts_module), str(root), str(qpath), str(opath), *extra],
                           check=True)
            out = json.loads(opath.read_text())
        if timings is None:  # the first batch is the cold one
            per = out["timings"]["per_query_ms"]
            timings = {
                "oracle": f"typescript {out['typescript']} language service",
                "program_files": out["files_in_program"],
                "cold_start_ms": out["timings"]["cold_start_ms"],
                "require_ms": out["timings"]["require_ms"],
                "first_query_ms": out["timings"]["first_query_ms"],
                "warm_p50_ms": percentile(per, 50),
                "warm_p95_ms": percentile(per, 95),
                "calls": len(per) + 1,
                "total_s": out["timings"]["total_ms"] / 1000,
            }
        for ref, ans in zip(batch, out["answers"]):
            if len(kept) >= need:
                break
            in_repo, external, is_self = [], [], False
            for d in ans["defs"]:
                rel = _inside(Path(d["file"]), root)
                if rel is None or d["line0"] < 0:
                    external.append(f"{Path(d['file']).name}:{d['containerName'] or ''}.{d['name']}")
                    continue
                line = d["line0"] + 1
                if rel not in texts:
                    texts[rel] = (root / rel).read_text(encoding="utf-8").split("\n")
                src_line = texts[rel][line - 1] if line - 1 < len(texts[rel]) else ""
                col = benchlib.utf16_to_code_points(src_line, d["char16"]) + 1
                if rel == ref.file and line == ref.line and col == ref.column:
                    is_self = True
                container = (d["containerName"] or "").replace(f'"{root}/', '"')
                in_repo.append([rel, line, col, d["kind"],
                                f"{container}.{d['name']}" if container else d["name"]])
            if is_self:
                dropped += 1
                continue
            kept.append(ref)
            rows.append({"in_repo": in_repo, "external": external, "error": ans.get("error")})
    return kept, rows, dropped, timings or {}


def _ms(seconds):
    return None if seconds is None else seconds * 1000


# ---------------------------------------------------------------- our engine

def run_engine(root: Path, refs: list[Ref], store: Path):
    """find_definition for every ref; never raises. Returns (rows, info)."""
    os.environ["CODETRACE_CACHE_DIR"] = str(store)
    info: dict = {}
    err = benchlib.engine_import_error()
    if err:
        return None, {"error": f"cannot import jupyter_codetrace: {err}"}
    from jupyter_codetrace import Project

    try:
        t0 = time.perf_counter()
        project = Project(str(root))
        info["project_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        stats = project.index()
        info["index_s"] = time.perf_counter() - t0
        try:
            info["index_stats"] = stats.to_dict()
        except Exception as exc:
            info["index_stats"] = f"to_dict failed: {type(exc).__name__}: {exc}"
    except Exception as exc:
        return None, {"error": f"Project/index failed: {type(exc).__name__}: {exc}"}

    rows, times = [], []
    for ref in refs:
        t0 = time.perf_counter()
        try:
            result = project.find_definition(ref.name, ref.file, ref.line, ref.column)
            d = result.to_dict()
            status = getattr(result, "status", None) or d.get("status")
            row = {
                "status": status,
                "file": d.get("file"),
                "library": d.get("library"),
                "line": d.get("line"),
                "column": d.get("column"),
                "resolution": d.get("resolution"),
                "candidates": _candidate_positions(d.get("candidates")),
            }
        except Exception as exc:
            row = {"status": "error", "error": benchlib.describe_exception(exc)}
        times.append(time.perf_counter() - t0)
        rows.append(row)
    info["query_p50_ms"] = _ms(percentile(times, 50))
    info["query_p95_ms"] = _ms(percentile(times, 95))
    return rows, info


def _candidate_positions(cands):
    out = []
    for c in cands or []:
        if isinstance(c, dict) and c.get("file") is not None:
            out.append([c.get("file"), c.get("line")])
    return out


# ---------------------------------------------------------------- scoring

def score(refs, oracle_rows, our_rows):
    """Per-kind and overall tallies; also tags each row with an outcome."""
    tallies = {k: Counter() for k in (*KINDS, "overall")}
    by_resolution = defaultdict(Counter)
    outcomes = []
    for ref, orc, ours in zip(refs, oracle_rows, our_rows):
        targets = {(f, ln) for f, ln, *_ in orc["in_repo"]}
        category = "in_repo" if targets else ("external" if orc["external"] else "silent")
        status = ours.get("status")
        found = status == "found"
        pos = (ours.get("file"), ours.get("line"))
        match = found and pos in targets
        loose = match or any(tuple(c) in targets for c in ours.get("candidates") or [])
        library_targets = {tuple(t) for t in orc.get("external_at") or []}
        library_match = found and bool(ours.get("library")) and pos in library_targets
        if category == "in_repo":
            outcome = "match" if match else ("wrong" if found else "missed")
        elif category == "external" and library_match:
            outcome = "library"   # found in the library source, where the oracle says
        elif category == "external":
            outcome = "agree" if status in NOT_FOUND_EXTERNAL_OK else ("wrong" if found else "other")
        else:
            outcome = "found-silent" if found else "silent"
        outcomes.append(outcome)
        for key in (ref.kind, "overall"):
            t = tallies[key]
            t["refs"] += 1
            t[category] += 1
            t["error"] += status == "error"
            if category == "in_repo":
                t["matched"] += match
                t["loose"] += loose
            if category == "external":
                t["ext_agree"] += status in NOT_FOUND_EXTERNAL_OK or library_match
                t["ext_located"] += bool(library_targets)
                t["library_match"] += library_match
            if category != "silent" and found:
                t["found"] += 1
                t["found_correct"] += match or library_match
            if category == "silent" and found:
                t["silent_found"] += 1
        if category != "silent" and found:
            res = ours.get("resolution") or "?"
            by_resolution[res]["found"] += 1
            by_resolution[res]["correct"] += match
    return tallies, by_resolution, outcomes


def _pct(num, den):
    return None if not den else round(100.0 * num / den, 1)


def summarize(tallies):
    out = {}
    for key, t in tallies.items():
        out[key] = {
            "refs": t["refs"],
            "oracle_in_repo": t["in_repo"],
            "oracle_external": t["external"],
            "oracle_silent": t["silent"],
            "we_found": t["found"],
            "precision": _pct(t["found_correct"], t["found"]),
            "recall": _pct(t["matched"], t["in_repo"]),
            "external_agreement": _pct(t["ext_agree"], t["external"]),
            "library_recall": _pct(t["library_match"], t["ext_located"]),
            "recall_incl_candidates": _pct(t["loose"], t["in_repo"]),
            "errors": t["error"],
            "found_when_oracle_silent": t["silent_found"],
        }
    return out


def print_table(summary):
    head = (f"{'kind':<10}{'refs':>6}{'in-repo':>9}{'extern':>8}{'silent':>8}{'found':>7}"
            f"{'precision':>11}{'recall':>8}{'ext-agree':>11}{'lib-recall':>11}{'recall+cand':>13}{'errors':>8}")
    print(head)
    print("-" * len(head))
    fmt = lambda v: "—" if v is None else f"{v:.1f}%"  # noqa: E731
    for key in (*KINDS, "overall"):
        s = summary[key]
        print(f"{key:<10}{s['refs']:>6}{s['oracle_in_repo']:>9}{s['oracle_external']:>8}"
              f"{s['oracle_silent']:>8}{s['we_found']:>7}{fmt(s['precision']):>11}"
              f"{fmt(s['recall']):>8}{fmt(s['external_agreement']):>11}{fmt(s['library_recall']):>11}"
              f"{fmt(s['recall_incl_candidates']):>13}{s['errors']:>8}")


def write_mismatches(path: Path, lang, root, refs, oracle_rows, our_rows, outcomes, k, seed):
    bad = [i for i, o in enumerate(outcomes) if o in ("wrong", "missed", "other")]
    pick = sorted(random.Random(seed).sample(bad, min(k, len(bad))))
    lines_cache: dict[str, list[str]] = {}

    def src(f, ln):
        if f not in lines_cache:
            try:
                lines_cache[f] = (root / f).read_text(encoding="utf-8").split("\n")
            except (OSError, UnicodeDecodeError):
                lines_cache[f] = []
        return lines_cache[f][ln - 1].strip() if 0 < ln <= len(lines_cache[f]) else ""

    with path.open("w", encoding="utf-8") as fh:
        fh.write(f"# {lang}: {len(pick)} of {len(bad)} mismatches (seed {seed}); root {root}\n")
        fh.write("# outcome: missed = oracle in-repo, we did not answer found; wrong = we answered\n"
                 "# another place (or found where the oracle says external); other = oracle external,\n"
                 "# we answered neither found nor unresolved/builtin\n\n")
        for i in pick:
            ref, orc, ours = refs[i], oracle_rows[i], our_rows[i]
            fh.write(f"[{outcomes[i]}] {ref.file}:{ref.line}:{ref.column} `{ref.name}` ({ref.kind})\n")
            fh.write(f"    source: {src(ref.file, ref.line)}\n")
            for f, ln, col, kind, qual in orc["in_repo"]:
                fh.write(f"    oracle: {f}:{ln}:{col} {kind} {qual} | {src(f, ln)}\n")
            for e in orc["external"]:
                fh.write(f"    oracle: external {e}\n")
            if ours.get("status") == "found":
                fh.write(f"    ours:   found {ours.get('file')}:{ours.get('line')}:{ours.get('column')} "
                         f"resolution={ours.get('resolution')} | {src(ours.get('file') or '', ours.get('line') or 0)}\n")
            else:
                fh.write(f"    ours:   {ours.get('status')} {ours.get('error', '')}\n")
            if ours.get("candidates"):
                cands = ", ".join(f"{f}:{ln}" for f, ln in ours["candidates"][:5])
                fh.write(f"    candidates: {cands}\n")
            fh.write("\n")
    return len(bad)


# ---------------------------------------------------------------- driver

def oracle_answers(lang, root, meta, args):
    refs_all = benchlib.enumerate_references(root, lang, include_receivers=args.include_receivers)
    pool = benchlib.sample_references(refs_all, None, args.seed)
    key_src = json.dumps([ORACLE_FORMAT, lang, meta["name"], meta["version"], args.seed, args.n,
                          args.include_receivers, args.typescript_version if lang != "python" else
                          _jedi_version()] + ([JS_COMPILER_OPTIONS] if lang == "javascript" else []))
    key = hashlib.sha1(key_src.encode()).hexdigest()[:16]
    cache = benchlib.cache_dir() / "oracle" / f"{lang}-{meta['name'].replace('/', '+')}-{key}.json"
    if cache.exists() and not args.no_oracle_cache:
        data = json.loads(cache.read_text())
        log(f"[oracle] {lang}: cached answers from {cache}")
        return [Ref(**r) for r in data["refs"]], data["rows"], data["dropped"], data["timings"], len(refs_all)
    log(f"[oracle] {lang}: {len(refs_all)} reference identifiers; asking the oracle for {args.n}")
    if lang == "python":
        kept, rows, dropped, timings = jedi_oracle(root, pool, args.n)
    else:
        kept, rows, dropped, timings = ts_oracle(root, pool, args.n, args.typescript_version,
                                                 JS_COMPILER_OPTIONS if lang == "javascript" else None)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"refs": [r.to_dict() for r in kept], "rows": rows,
                                 "dropped": dropped, "timings": timings}))
    return kept, rows, dropped, timings, len(refs_all)


def _jedi_version():
    try:
        import jedi
        return jedi.__version__
    except ImportError:
        return None


def print_examples(refs, rows, k, seed):
    idx = [i for i, r in enumerate(rows) if r["in_repo"]]
    ext = [i for i, r in enumerate(rows) if not r["in_repo"] and r["external"]]
    rng = random.Random(seed)
    pick = rng.sample(idx, min(k, len(idx))) + rng.sample(ext, min(2, len(ext)))
    for i in pick:
        ref, row = refs[i], rows[i]
        answers = [f"{f}:{ln}:{c} ({kind} {qual})" for f, ln, c, kind, qual in row["in_repo"]]
        answers += [f"external {e}" for e in row["external"]]
        print(f"  {ref.file}:{ref.line}:{ref.column} `{ref.name}` [{ref.kind}] -> {'; '.join(answers)}")


def run_language(lang, args, package=None):
    if lang == "python":
        root, meta = benchlib.ensure_python_corpus(args.py_package)
    elif package.startswith("repo:"):
        root, meta = benchlib.ensure_repo_corpus(package[len("repo:"):], lang, args.mirrors)
    else:
        root, meta = benchlib.ensure_ts_corpus(package, lang)
    refs, rows, dropped, timings, n_refs = oracle_answers(lang, root, meta, args)
    kinds = Counter(r.kind for r in refs)
    print(f"\n=== {lang}: {meta['name']} {meta['version']} — {meta['files']} files, "
          f"{meta['lines']:,} lines; root {root}")
    print(f"    {n_refs:,} reference identifiers; sample of {len(refs)} (seed {args.seed}; "
          f"{dropped} sampled positions were definitions per the oracle and were skipped); "
          f"kinds: " + ", ".join(f"{k} {kinds[k]}" for k in KINDS))
    broken = benchlib.files_with_parse_errors(root, lang)
    if broken:
        in_broken = sum(r.file in set(broken) for r in refs)
        print(f"    tree-sitter parse errors in {len(broken)} files ({', '.join(broken[:6])}"
              f"{' …' if len(broken) > 6 else ''}); {in_broken} sampled refs are in them")
    cats = Counter("in-repo" if r["in_repo"] else ("external" if r["external"] else "silent") for r in rows)
    print(f"    oracle ({timings.get('oracle')}): in-repo {cats['in-repo']}, external "
          f"{cats['external']}, silent {cats['silent']}")
    print("    oracle timings: " + ", ".join(
        f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in timings.items() if k != "oracle"))
    print(f"    {args.examples} oracle examples (+2 external):")
    print_examples(refs, rows, args.examples, args.seed)

    report = {"language": lang, "corpus": {**meta, "files_with_parse_errors": broken},
              "seed": args.seed, "n": len(refs),
              "skipped_definitions": dropped, "oracle_timings": timings}
    if args.oracle_only:
        return report
    label = lang if lang != "typescript" else f"{lang}-{meta['name'].replace('/', '+').lstrip('@')}"
    report["label"] = label
    store = benchlib.cache_dir() / "stores" / f"accuracy-{label}"
    our_rows, info = run_engine(root, refs, store)
    report["engine"] = info
    if our_rows is None:
        print(f"    ENGINE: {info['error']}")
        return report
    tallies, by_res, outcomes = score(refs, rows, our_rows)
    summary = summarize(tallies)
    report["summary"] = summary
    report["by_resolution"] = {k: {"found": v["found"], "precision": _pct(v["correct"], v["found"])}
                               for k, v in sorted(by_res.items())}
    statuses = Counter(r.get("status") for r in our_rows)
    report["our_statuses"] = dict(statuses)
    print(f"    engine: index {info.get('index_s', 0):.2f}s, find_definition p50 "
          f"{info.get('query_p50_ms') or 0:.2f} ms p95 {info.get('query_p95_ms') or 0:.2f} ms; "
          f"statuses: " + ", ".join(f"{k} {v}" for k, v in statuses.most_common()))
    print()
    print_table(summary)
    print("\n    precision by our resolution: " + (", ".join(
        f"{k} {v['precision']}% of {v['found']}" for k, v in report["by_resolution"].items()) or "— (no found answers)"))
    out_dir = benchlib.results_dir()
    mm_path = out_dir / f"accuracy-mismatches-{label}.txt"
    n_bad = write_mismatches(mm_path, lang, root, refs, rows, our_rows, outcomes, args.mismatches, args.seed)
    print(f"    {n_bad} mismatches; a sample of {min(n_bad, args.mismatches)} in {mm_path}")
    detail = [{"ref": r.to_dict(), "oracle": o, "ours": u, "outcome": oc}
              for r, o, u, oc in zip(refs, rows, our_rows, outcomes)]
    (out_dir / f"accuracy-{label}.json").write_text(json.dumps({**report, "rows": detail}, indent=1))
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", choices=("python", "typescript", "javascript", "all"), default="all")
    ap.add_argument("-n", "--n", type=int, default=None,
                    help="references sampled per language (default 1500; 300 with --quick)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="smoke run: 300 references per language")
    ap.add_argument("--py-package", default="rich==15.0.0", help="PyPI NAME==VERSION (default %(default)s)")
    ap.add_argument("--ts-package", default="mobx@7.1.3,zod@4.6.7",
                    help="npm NAME@VERSION[,NAME@VERSION…] shipping .ts sources in src/ (default %(default)s: "
                         "classes and barrels; an ESM package with .js specifiers, default exports and "
                         "type-alias members)")
    ap.add_argument("--js-package", default="express@5.1.0",
                    help="npm NAME@VERSION of a plain-JavaScript (CommonJS) package, kept as published "
                         "(default %(default)s: lib/*.js and index.js, require/module.exports)")
    ap.add_argument("--ts-repo", default="",
                    help="OWNER/NAME[@COMMIT][,…] of TypeScript applications, read from local git mirrors "
                         "(--mirrors; e.g. outline/outline: a Koa + Sequelize server and a React + MobX app), "
                         "measured after the --ts-package ones")
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"),
                    help="folder of bare git mirrors, OWNER+NAME/repo (default %(default)s)")
    ap.add_argument("--typescript-version", default="5.9.3",
                    help="npm typescript used as the oracle (default %(default)s; 7.x is the native port without this API)")
    ap.add_argument("--mismatches", type=int, default=30, help="mismatches written per language")
    ap.add_argument("--examples", type=int, default=5, help="oracle answers printed per language")
    ap.add_argument("--include-receivers", action="store_true", help="also sample self/cls references")
    ap.add_argument("--oracle-only", action="store_true", help="run the oracles only (no engine)")
    ap.add_argument("--no-oracle-cache", action="store_true", help="recompute cached oracle answers")
    args = ap.parse_args(argv)
    if args.n is None:
        args.n = 300 if args.quick else 1500
    langs = ("python", "typescript", "javascript") if args.lang == "all" else (args.lang,)
    before = benchlib.engine_fingerprint()
    reports = []
    for lang in langs:
        packages = {"python": [None], "javascript": [args.js_package]}.get(
            lang, [p.strip() for p in args.ts_package.split(",") if p.strip()]
            + [f"repo:{r.strip()}" for r in args.ts_repo.split(",") if r.strip()])
        reports += [run_language(lang, args, package) for package in packages]
    if not args.oracle_only and benchlib.engine_fingerprint() != before:
        print("\nNOTE: the engine's source files changed during this run; run again for clean figures")
    compact = {r.get("label", r["language"]): {"corpus": f"{r['corpus']['name']} {r['corpus']['version']}",
                               "n": r["n"], "overall": (r.get("summary") or {}).get("overall"),
                               "by_kind": {k: {m: (r.get("summary") or {}).get(k, {}).get(m)
                                               for m in ("precision", "recall", "external_agreement")}
                                           for k in KINDS},
                               "engine_error": (r.get("engine") or {}).get("error")}
               for r in reports}
    print("\n" + json.dumps({"bench": "accuracy", "seed": args.seed, "results": compact}))


if __name__ == "__main__":
    main()
