"""Latency of `codetrace lsp` (issue 17): definition, references and call hierarchy over the
standard library, as an editor sees them, against a floor of the same Project calls in-process.

A copy of N files of this interpreter's standard library (default 300: the top-level modules,
then whole packages) is made under a temp folder (never in the repository). One server is
spawned over stdio with pygls' LanguageClient, a cold cache of its own; the first index and the
first call hierarchy (which builds the graph) are timed apart. Then, at a seeded sample of call
sites (a name followed by ``(``) whose definition the engine finds in the copy (builtins and
unresolved names answer at once: not worth timing), each request is timed from the client: wall time per request,
and the server's CPU time (from /proc) per request. The floor asks the same questions of a
``Project`` in this process, over the same warm cache: wall and CPU per call.

    .venv/bin/python bench/lsp_latency.py [--files 300] [--samples 150] [--seed 0]

Call hierarchy = prepareCallHierarchy + callHierarchy/incomingCalls + callHierarchy/outgoingCalls
(what an editor sends to show one level); its floor is find_definition + dependents_of +
dependencies_of.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lsprotocol import types as lsp  # noqa: E402
from pygls import uris  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from jupyter_codetrace import Project  # noqa: E402
from jupyter_codetrace.lsp import to_units  # noqa: E402

_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_KEYWORDS = {"if", "for", "while", "return", "print", "and", "or", "not", "in", "is", "elif", "with", "assert",
             "lambda", "yield", "del", "raise", "except", "def", "class", "await", "super", "len", "isinstance",
             "str", "int", "list", "dict", "set", "tuple", "type", "getattr", "hasattr", "range", "object"}


def copy_stdlib(target: Path, count: int) -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    chosen = sorted(p for p in stdlib.glob("*.py"))
    for package in ("json", "email", "http", "logging", "importlib", "concurrent", "xml", "asyncio", "urllib"):
        chosen += sorted(p for p in (stdlib / package).rglob("*.py") if "test" not in p.parts)
    for source in chosen[:count]:
        destination = target / source.relative_to(stdlib)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, destination)


def sample_calls(root: Path, count: int, seed: int) -> list[tuple[str, int, int, str]]:
    """(file, 1-based line, 1-based column, name) of call sites inside indented code."""
    sites = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for number, text in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if not text.startswith((" ", "\t")) or text.lstrip().startswith(("#", "def ", "class ", "@")):
                continue
            for match in _CALL.finditer(text):
                if match.group(1) not in _KEYWORDS:
                    sites.append((rel, number, match.start(1) + 1, match.group(1)))
    return random.Random(seed).sample(sites, min(count, len(sites)))


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


async def measure_server(root: Path, sites, env: dict) -> dict:
    client = LanguageClient("lsp-latency", "1")
    client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)(lambda params: None)
    client.feature(lsp.PROGRESS)(lambda params: None)
    started = time.perf_counter()
    await client.start_io(sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(root), "lsp", env=env)
    pid = client._server.pid
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(window=lsp.WindowClientCapabilities(work_done_progress=True)),
        root_uri=uris.from_fs_path(str(root))))
    client.initialized(lsp.InitializedParams())
    lines: dict[str, list[str]] = {}

    def params(file, line, column):
        text = lines.setdefault(file, (root / file).read_text(encoding="utf-8", errors="replace").splitlines())
        return dict(text_document=lsp.TextDocumentIdentifier(uris.from_fs_path(str(root / file))),
                    position=lsp.Position(line - 1, to_units(text[line - 1], column - 1)))

    first = sites[0]
    await client.text_document_definition_async(lsp.DefinitionParams(**params(*first[:3])))
    first_index = time.perf_counter() - started

    async def hierarchy(file, line, column):
        items = await client.text_document_prepare_call_hierarchy_async(
            lsp.CallHierarchyPrepareParams(**params(file, line, column)))
        if items:
            await client.call_hierarchy_incoming_calls_async(lsp.CallHierarchyIncomingCallsParams(items[0]))
            await client.call_hierarchy_outgoing_calls_async(lsp.CallHierarchyOutgoingCallsParams(items[0]))
        return bool(items)

    t = time.perf_counter()
    await hierarchy(*first[:3])
    first_hierarchy = time.perf_counter() - t

    requests = {
        "definition": lambda f, l, c: client.text_document_definition_async(lsp.DefinitionParams(**params(f, l, c))),
        "references": lambda f, l, c: client.text_document_references_async(lsp.ReferenceParams(
            context=lsp.ReferenceContext(include_declaration=False), **params(f, l, c))),
        "call hierarchy": hierarchy,
    }
    out = {"first index + first definition s": round(first_index, 2),
           "first call hierarchy s": round(first_hierarchy, 2)}
    for name, request in requests.items():
        walls, answered = [], 0
        cpu_before = cpu_of(pid)
        for file, line, column, _ in sites:
            t = time.perf_counter()
            answer = await request(file, line, column)
            walls.append(time.perf_counter() - t)
            answered += bool(answer)
        cpu = cpu_of(pid) - cpu_before
        p50, p95 = quantiles(walls)
        out[name] = {"p50 ms": round(p50 * 1000, 2), "p95 ms": round(p95 * 1000, 2),
                     "server CPU ms/request": round(cpu * 1000 / len(sites), 2), "answered": answered}
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


def answered_sites(root: Path, sites, count: int) -> list:
    """The first ``count`` sites whose definition the engine finds in the project: the questions
    worth timing (a builtin or an unresolved name answers at once), project targets first so that
    the first call hierarchy builds the graph."""
    with Project(root) as project:
        project.index()
        kept = [site for site in sites if (found := project.find_definition(site[3], *site[:3])).found
                and not found.library]
    return kept[:count]


def measure_floor(root: Path, sites) -> dict:
    project = Project(root)
    project.index()
    file, line, column, name = sites[0]
    found = project.find_definition(name, file, line, column)
    project.dependents_of(found.file, ".".join(found.path) or found.name)   # builds the graph

    def hierarchy(file, line, column, name):
        found = project.find_definition(name, file, line, column)
        if found.found and not found.library and found.cell is None:
            symbol = ".".join(found.path) or found.name
            project.dependents_of(found.file, symbol)
            project.dependencies_of(found.file, symbol)
        return found

    calls = {
        "definition": lambda f, l, c, n: project.find_definition(n, f, l, c),
        "references": lambda f, l, c, n: project.find_references(n, f, l, c),
        "call hierarchy": hierarchy,
    }
    out = {}
    for label, call in calls.items():
        walls = []
        cpu_before = time.process_time()
        for site in sites:
            t = time.perf_counter()
            call(*site)
            walls.append(time.perf_counter() - t)
        cpu = time.process_time() - cpu_before
        p50, p95 = quantiles(walls)
        out[label] = {"p50 ms": round(p50 * 1000, 2), "p95 ms": round(p95 * 1000, 2),
                      "CPU ms/call": round(cpu * 1000 / len(sites), 2)}
    project.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=300, help="stdlib files to copy (default 300)")
    parser.add_argument("--samples", type=int, default=150, help="call sites asked about (default 150)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lsp-latency-") as temp:
        root = Path(temp) / "stdlib"
        copy_stdlib(root, args.files)
        # the floor's index (and the sample's filter) in one cache; the server starts cold in another
        os.environ["CODETRACE_CACHE_DIR"] = str(Path(temp) / "floor-cache")
        sites = answered_sites(root, sample_calls(root, args.samples * 4, args.seed), args.samples)
        floor = measure_floor(root, sites)
        env = {**os.environ, "CODETRACE_CACHE_DIR": str(Path(temp) / "server-cache")}
        server = asyncio.run(measure_server(root, sites, env))
    files = len(list(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")))
    print(f"codetrace lsp over {args.files} stdlib files ({files} top-level modules first), "
          f"{len(sites)} call sites resolving into the project, seed {args.seed}")
    print(f"first index + first definition: {server['first index + first definition s']} s; "
          f"first call hierarchy (graph build): {server['first call hierarchy s']} s")
    print(f"{'request':<16}{'LSP p50':>10}{'LSP p95':>10}{'srv CPU':>10}{'floor p50':>11}{'floor p95':>11}"
          f"{'floor CPU':>11}  (ms; CPU per request)")
    for name in ("definition", "references", "call hierarchy"):
        s, f = server[name], floor[name]
        print(f"{name:<16}{s['p50 ms']:>10}{s['p95 ms']:>10}{s['server CPU ms/request']:>10}"
              f"{f['p50 ms']:>11}{f['p95 ms']:>11}{f['CPU ms/call']:>11}")
    print(json.dumps({"server": server, "floor": floor, "files": args.files, "samples": len(sites)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
