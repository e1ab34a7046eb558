"""Mutation score of the resolver and the graph traversal against the fixture tests (issue 22).

A mutation tester (mutmut 3, ``pip install mutmut``) injects one small fault at a time into the
chosen modules (an operator swapped, a constant changed, a call's argument dropped ...) and runs
the tests that reach the mutated function: a fault that makes a test fail is *killed*, one that
lets every test pass *survived* -- a behaviour no test pins down.

Nothing is mutated in this checkout: the script exports a commit (``--ref``, default HEAD) with
``git archive`` into a scratch folder outside the repository (``--workdir``, default
``$CODETRACE_MUTATION_DIR`` or ``/tmp/codetrace-mutation``), optionally lays files of the work
tree over it (``--overlay``: new tests not committed yet), writes mutmut's configuration there
(``setup.cfg``) and runs mutmut in that copy; mutmut's own ``mutants/`` folder is inside it.

The full set is thousands of mutants and a survivor costs a whole run of the tests that reach
its function, so by default a seeded random sample of ``--sample`` mutants per module is run
(``--sample 0``: all of them), with one worker process (``--workers``) and a wall-clock budget
(``--budget`` seconds; mutants not reached by then are reported as ``not checked``).

Output: a table per module (mutants in the module, sampled, killed, timeout, survived, no tests,
not checked, score), then one JSON line. Score = (killed + timeout) / checked, where *checked*
counts every sampled mutant that ran or had no test reaching it (``no tests`` counts against
the score, as a survivor). The survivors' diffs go to ``bench/results/mutation-survivors-*.txt``
(git-ignored) unless ``--no-diffs``.

    python bench/mutation.py                                  # traverse.py + resolve/, 30 each
    python bench/mutation.py --modules jupyter_codetrace/graph/traverse.py --sample 0
    python bench/mutation.py --overlay tests/resolve/test_mutation_survivors.py
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

DEFAULT_MODULES = [
    "jupyter_codetrace/graph/traverse.py",
    "jupyter_codetrace/resolve/base.py",
    "jupyter_codetrace/resolve/candidates.py",
    "jupyter_codetrace/resolve/flow.py",
    "jupyter_codetrace/resolve/imports.py",
    "jupyter_codetrace/resolve/members.py",
    "jupyter_codetrace/resolve/modules.py",
    "jupyter_codetrace/resolve/resolver.py",
    "jupyter_codetrace/resolve/scopes.py",
    "jupyter_codetrace/resolve/types.py",
]
# The fixture tests: caret assertions in fixtures/*, the cross-query consistency check, and the
# graph and resolver tests. ~30 s for the whole selection on an idle 2-core machine.
DEFAULT_TESTS = [
    "tests/test_fixture_assertions.py",
    "tests/test_consistency.py",
    "tests/graph/",
    "tests/resolve/",
]
# Copied beside the package and the tests (tests/ is always copied): the fixture repositories,
# and notebooks/ because pyproject's pytest addopts names notebooks/nbval_sanitize.cfg.
ALSO_COPY = ["fixtures/", "notebooks/"]

# mutmut's exit codes (mutmut/stats.py) folded into the columns printed here.
STATUS_BY_EXIT_CODE = {
    1: "killed", 3: "killed",
    0: "survived",
    5: "no tests", 33: "no tests",
    36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
    None: "not checked", 2: "not checked",
}
COLUMNS = ["killed", "timeout", "survived", "no tests", "suspicious", "not checked"]
PREPARE_NAME = "__codetrace_generate_only__"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", nargs="+", default=DEFAULT_MODULES,
                        help="files to mutate, relative to the repository root")
    parser.add_argument("--tests", nargs="+", default=DEFAULT_TESTS,
                        help="pytest selection (files, folders or node ids)")
    parser.add_argument("--sample", type=int, default=30,
                        help="mutants per module, a seeded random sample (0: all; default 30)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--names-from", type=Path,
                        help="run exactly the mutants listed in this file (one a line, or the "
                             "JSON line of an earlier run) instead of sampling")
    parser.add_argument("--previous", type=Path,
                        help="a file ending in the JSON line of an earlier run: the same sample, of which "
                             "only the mutants that were not detected then are run again (tests only get "
                             "added, so a detected mutant stays detected); the score covers the whole sample")
    parser.add_argument("--budget", type=float, default=2400.0,
                        help="wall-clock seconds for the mutants' runs (default 2400)")
    parser.add_argument("--workers", type=int, default=1, help="mutmut worker processes (default 1)")
    parser.add_argument("--timeout-multiplier", type=float, default=3.0,
                        help="a mutant's CPU limit is 2 x this x (its tests' clean time + 1 s)")
    parser.add_argument("--deselect", action="append", default=[], metavar="NODEID",
                        help="leave out a test (repeatable): the selection must pass on the unmutated code")
    parser.add_argument("--ref", default="HEAD", help="the commit to export (default HEAD)")
    parser.add_argument("--overlay", nargs="*", default=[],
                        help="work-tree files laid over the export (e.g. new, uncommitted tests)")
    parser.add_argument("--workdir", type=Path,
                        default=Path(os.environ.get("CODETRACE_MUTATION_DIR", "/tmp/codetrace-mutation")),
                        help="scratch folder outside the repository")
    parser.add_argument("--no-diffs", action="store_true", help="do not write the survivors' diffs")
    parser.add_argument("--list-only", action="store_true",
                        help="generate the mutants and print the sample, run none of them")
    return parser.parse_args(argv)


def mutmut_version() -> str:
    try:
        from importlib.metadata import version
        return version("mutmut")
    except Exception:  # noqa: BLE001 - not installed
        sys.exit("mutmut is not installed in this interpreter: python -m pip install mutmut")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def export_checkout(ref: str, overlay: list[str], workdir: Path) -> tuple[Path, str]:
    """``git archive`` of REF into a fresh folder under WORKDIR, overlay files laid over it."""
    commit = git("rev-parse", ref).strip()
    workdir = workdir.resolve()
    if workdir == ROOT or ROOT in workdir.parents:
        sys.exit(f"--workdir {workdir} is inside the repository: mutants must live outside it")
    workdir.mkdir(parents=True, exist_ok=True)
    src = Path(tempfile.mkdtemp(prefix=f"{commit[:10]}-", dir=workdir))
    with tempfile.TemporaryFile() as archive:
        subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, check=True, stdout=archive)
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(src, filter="data")
    for rel in overlay:
        source = ROOT / rel
        if not source.is_file():
            sys.exit(f"--overlay {rel}: no such file in the work tree")
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, src / rel)
    return src, commit


def write_config(src: Path, modules: list[str], tests: list[str], deselect: list[str],
                 timeout_multiplier: float) -> None:
    pyproject = (src / "pyproject.toml").read_text(encoding="utf-8")
    if re.search(r"^\[tool\.mutmut\]", pyproject, re.M):
        sys.exit("pyproject.toml has a [tool.mutmut] table, which mutmut would read instead of ours")
    lines = ["[mutmut]", "source_paths = jupyter_codetrace", "only_mutate ="]
    lines += [f"    {module}" for module in modules]
    lines += ["also_copy ="] + [f"    {path}" for path in ALSO_COPY]
    lines += ["pytest_add_cli_args_test_selection ="] + [f"    {test}" for test in tests]
    if deselect:
        lines += ["pytest_add_cli_args ="] + [f"    --deselect={nodeid}" for nodeid in deselect]
    lines += [
        # Each mutant runs in a process forked from a server that has only collected the tests,
        # never from the process that ran them for the stats: no cache filled by an unmutated
        # run can answer for a mutant.
        "process_isolation = forkserver",
        "forkserver_warmup = collect",
        f"timeout_multiplier = {timeout_multiplier}",
        "use_git_change_detection = false",
        "",
    ]
    (src / "setup.cfg").write_text("\n".join(lines), encoding="utf-8")


def mutmut(src: Path, args: list[str], log: Path, timeout: float | None = None) -> tuple[int, bool]:
    """Run ``python -m mutmut ARGS`` in SRC, output to LOG; interrupted (SIGINT) after TIMEOUT s."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", TERM="dumb")
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "mutmut", *args], cwd=src, env=env,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            return process.wait(timeout=timeout), False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGINT)  # mutmut stops its workers and keeps results
            try:
                return process.wait(timeout=60), True
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                return process.wait(), True


def meta_path(src: Path, module: str) -> Path:
    return src / "mutants" / (module + ".meta")


def load_meta(src: Path, module: str) -> dict:
    path = meta_path(src, module)
    if not path.exists():
        return {"exit_code_by_key": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def choose(names: list[str], sample: int, seed: int, module: str) -> list[str]:
    names = sorted(names)
    if sample <= 0 or sample >= len(names):
        return names
    # One generator per module, seeded by the module's path too: adding a module to the run
    # does not change another module's sample.
    return sorted(random.Random(f"{seed}:{module}").sample(names, sample))


def last_json(path: Path) -> dict:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("{")]
    if not lines:
        sys.exit(f"{path}: no JSON line")
    return json.loads(lines[-1])


def names_from(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8").strip()
    if "\n{" in text or text.startswith("{"):
        return {name for module in last_json(path)["modules"].values() for name in module["mutants"]}
    return {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}


def previous_statuses(path: Path) -> dict[str, str]:
    """An earlier run's verdict for each mutant of its sample (killed unless listed otherwise)."""
    statuses = {}
    for module in last_json(path)["modules"].values():
        if "undetected" not in module and module.get("not_checked"):
            sys.exit(f"{path}: an older run with mutants not checked, which it does not name")
        undetected = module.get("undetected") or {name: "survived" for name in module["survivors"]}
        for name in module["mutants"]:
            statuses[name] = undetected.get(name, "killed")
    return statuses


def previous_sample(path: Path) -> tuple[dict[str, str], int]:
    """An earlier run's checked mutants with their verdicts, and how many it did not check
    (left out: its score did not count them either)."""
    statuses = previous_statuses(path)
    checked = {name: status for name, status in statuses.items() if status != "not checked"}
    return checked, len(statuses) - len(checked)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    version = mutmut_version()
    started = time.monotonic()
    RESULTS.mkdir(parents=True, exist_ok=True)

    src, commit = export_checkout(args.ref, args.overlay, args.workdir)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    log = RESULTS / f"mutation-{stamp}.log"
    write_config(src, args.modules, args.tests, args.deselect, args.timeout_multiplier)
    print(f"mutmut {version}; {commit[:10]} exported to {src}; log {log}", flush=True)

    # 1. Generate the mutants and collect which tests reach which function (mutmut's stats run).
    #    mutmut has no generate-only command: asking it to run a name that matches nothing makes
    #    it generate, collect the stats, then stop on "nothing matches".
    t0 = time.monotonic()
    mutmut(src, ["run", "--max-children", str(args.workers), PREPARE_NAME], log)
    all_names = {module: sorted(load_meta(src, module)["exit_code_by_key"]) for module in args.modules}
    if not any(all_names.values()) or not (src / "mutants" / "mutmut-stats.json").exists():
        print(log.read_text(encoding="utf-8", errors="replace").replace("\r", "\n")[-2000:])
        # mutmut hides pytest's output: the usual cause is a test of the selection that fails on
        # the unmutated export. Name it.
        check = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", *args.tests,
                                *(f"--deselect={nodeid}" for nodeid in args.deselect)],
                               cwd=src, env=dict(os.environ, PYTHONPATH=str(src)), capture_output=True, text=True)
        failed = [line for line in check.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        print("\n".join(failed or check.stdout.splitlines()[-20:]))
        sys.exit("mutmut generated no mutants or collected no stats"
                 + (f": {len(failed)} test(s) of the selection fail on the unmutated code of {commit[:10]}"
                    " (fix them, or leave them out with --deselect NODEID)" if failed else ""))
    prepare_s = time.monotonic() - t0

    # 2. The sample.
    carried: dict[str, str] = {}
    unchecked_before = 0
    if args.previous:
        before, unchecked_before = previous_sample(args.previous)
        carried = {name: status for name, status in before.items() if status in ("killed", "timeout")}
        wanted = set(before)
    else:
        wanted = names_from(args.names_from) if args.names_from else None
    chosen: dict[str, list[str]] = {}
    for module, names in all_names.items():
        if wanted is not None:
            chosen[module] = [name for name in names if name in wanted]
        else:
            chosen[module] = choose(names, args.sample, args.seed, module)
    every = [name for names in chosen.values() for name in names if name not in carried]
    how = (f"the checked sample of {args.previous} ({len(carried)} detected then, the other {len(every)} run "
           f"again" + (f"; {unchecked_before} it did not check left out)" if unchecked_before else ")")
           if args.previous
           else f"the {len(every)} mutants named in {args.names_from}" if wanted is not None
           else "all mutants" if args.sample <= 0
           else f"a seeded random sample (seed {args.seed}) of up to {args.sample} mutants per module")
    print(f"{sum(map(len, all_names.values()))} mutants generated in {prepare_s:.0f} s; running {how}",
          flush=True)
    if args.list_only:
        for name in every:
            print(name)
        return 0

    # 3. Run them, one worker, within the budget.
    t0 = time.monotonic()
    interrupted = False
    if every:
        _, interrupted = mutmut(src, ["run", "--max-children", str(args.workers), *every], log,
                                timeout=args.budget)
    run_s = time.monotonic() - t0

    # 4. Results.
    report: dict[str, dict] = {}
    totals: Counter = Counter()
    survivors: list[str] = []
    for module in args.modules:
        codes = load_meta(src, module)["exit_code_by_key"]
        statuses = {name: carried.get(name) or STATUS_BY_EXIT_CODE.get(codes.get(name), "suspicious")
                    for name in chosen[module]}
        counts = Counter(statuses.values())
        totals.update(counts)
        checked = sum(counts[c] for c in COLUMNS if c != "not checked")
        detected = counts["killed"] + counts["timeout"]
        survivors += [name for name, status in statuses.items() if status in ("survived", "no tests")]
        report[module] = {
            "generated": len(all_names[module]),
            "sampled": len(chosen[module]),
            **{column.replace(" ", "_"): counts[column] for column in COLUMNS},
            "score": round(detected / checked, 4) if checked else None,
            "survivors": sorted(name for name, s in statuses.items() if s in ("survived", "no tests")),
            "undetected": {name: s for name, s in sorted(statuses.items()) if s not in ("killed", "timeout")},
            "timeouts": sorted(name for name, s in statuses.items() if s == "timeout"),
            "mutants": chosen[module],
        }

    header = f"{'module':44} {'mutants':>7} {'sample':>6} " + " ".join(f"{c:>11}" for c in COLUMNS) + f" {'score':>6}"
    print()
    print(header)
    print("-" * len(header))
    for module, row in report.items():
        score = "-" if row["score"] is None else f"{100 * row['score']:.0f}%"
        print(f"{module.removeprefix('jupyter_codetrace/'):44} {row['generated']:>7} {row['sampled']:>6} "
              + " ".join(f"{row[c.replace(' ', '_')]:>11}" for c in COLUMNS) + f" {score:>6}")
    checked = sum(totals[c] for c in COLUMNS if c != "not checked")
    detected = totals["killed"] + totals["timeout"]
    total_score = detected / checked if checked else None
    print("-" * len(header))
    print(f"{'total':44} {sum(r['generated'] for r in report.values()):>7} "
          f"{sum(r['sampled'] for r in report.values()):>6} "
          + " ".join(f"{totals[c]:>11}" for c in COLUMNS)
          + f" {'-' if total_score is None else f'{100 * total_score:.0f}%':>6}")
    print(f"\n{how}; score = (killed + timeout) / checked; {run_s:.0f} s for the mutants", end="")
    print(" (budget reached: the rest not checked)" if interrupted else "")

    if survivors and not args.no_diffs:
        diffs = RESULTS / f"mutation-survivors-{stamp}.txt"
        with diffs.open("w", encoding="utf-8") as out:
            for name in survivors:
                shown = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=src,
                                       capture_output=True, text=True)
                out.write(shown.stdout + "\n")
        print(f"survivors' diffs: {diffs}")

    summary = {
        "tool": f"mutmut {version}",
        "commit": commit,
        "overlay": args.overlay,
        "tests": args.tests,
        "seed": args.seed,
        "sample_per_module": None if wanted is not None else args.sample,
        "previous": str(args.previous) if args.previous else None,
        "workers": args.workers,
        "budget_s": args.budget,
        "budget_reached": interrupted,
        "prepare_s": round(prepare_s, 1),
        "run_s": round(run_s, 1),
        "elapsed_s": round(time.monotonic() - started, 1),
        "totals": {**{c.replace(" ", "_"): totals[c] for c in COLUMNS},
                   "score": None if total_score is None else round(total_score, 4)},
        "modules": report,
        "scratch": str(src),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
