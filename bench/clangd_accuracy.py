#!/usr/bin/env python
"""C/C++ find_definition (definition and declaration modes) against clangd, on a real project.

Corpus: the C files of DaveGamble/cJSON, exported by bench/language_speed.py into
``~/.cache/jupyter_codetrace-bench/languages/c`` (run ``bench/language_speed.py c`` once).
Oracle: ``clangd`` (Debian package) over LSP, ``textDocument/definition`` and
``textDocument/declaration``, with a ``compile_flags.txt`` (``-xc``, ``-I`` every folder holding
a header) written into the corpus.

Sample: a seeded sample of N (default 400) references the engine extracted from ``.c`` files
(calls, reads, type uses). For each, both tools answer; answers outside the corpus (system
headers) count as "external" and are left out of the scores:
  precision = engine answers equal to clangd's / engine answers where clangd has an in-corpus answer
  recall    = engine answers equal to clangd's / clangd in-corpus answers
Equal = same file and same line. Prints a table, then one JSON line (also in bench/results/).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from jupyter_codetrace import Project  # noqa: E402

__all__ = ["main"]


class Lsp:
    """A minimal LSP client over a clangd subprocess (requests answered in order)."""

    def __init__(self, root: Path):
        self.proc = subprocess.Popen(["clangd", "--log=error", "--background-index=false"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        self.opened: set[Path] = set()

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict:
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("clangd exited")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def request(self, method: str, params: dict):
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self._read()
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def open(self, path: Path) -> None:
        if path not in self.opened:
            self.opened.add(path)
            self.notify("textDocument/didOpen", {"textDocument": {
                "uri": path.as_uri(), "languageId": "c", "version": 1,
                "text": path.read_text(encoding="utf-8", errors="replace")}})

    def locate(self, method: str, path: Path, line: int, column: int) -> tuple[str, int] | None:
        self.open(path)
        result = self.request(method, {"textDocument": {"uri": path.as_uri()},
                                       "position": {"line": line - 1, "character": column - 1}})
        if not result:
            return None
        first = result[0] if isinstance(result, list) else result
        uri = first.get("uri") or first.get("targetUri")
        rng = first.get("range") or first.get("targetSelectionRange")
        return unquote(uri[len("file://"):]), rng["start"]["line"] + 1

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
        finally:
            self.proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get(
        "CODETRACE_BENCH_CACHE", Path.home() / ".cache" / "jupyter_codetrace-bench")) / "languages" / "c")
    parser.add_argument("-n", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    root = args.corpus.resolve()
    header_dirs = sorted({p.parent for p in root.rglob("*.h")})
    (root / "compile_flags.txt").write_text("-xc\n" + "".join(f"-I{d}\n" for d in header_dirs))
    with tempfile.TemporaryDirectory() as store:
        project = Project(root, cache_dir=store)
        project.index()
        refs = []
        for path in sorted(root.rglob("*.c")):
            rel = path.relative_to(root).as_posix()
            facts = project._index.facts(rel)  # the extracted references: what users click on
            refs += [(rel, r.line, r.column, r.name) for r in facts.references
                     if r.usage in ("call", "read", "type-ref") and r.name.isidentifier()]
        random.Random(args.seed).shuffle(refs)
        sample = refs[: args.n]
        lsp = Lsp(root)
        # clangd knows the bodies of open files only (no background index without a build):
        # open every file first so that both tools see the whole project.
        for path in sorted(root.rglob("*.c")):
            lsp.open(path)
            lsp.request("textDocument/documentSymbol", {"textDocument": {"uri": path.as_uri()}})
        scores = {}
        disagreements = []
        try:
            for mode, method in (("definition", "textDocument/definition"), ("declaration", "textDocument/declaration")):
                both = engine_n = oracle_n = 0
                for rel, line, column, name in sample:
                    oracle = lsp.locate(method, root / rel, line, column)
                    if oracle is not None and not oracle[0].startswith(str(root) + "/"):
                        continue  # system headers: outside the project for both tools
                    d = project.find_definition(name, rel, line, column, mode=mode).to_dict()
                    mine = (str(root / d["file"]), d["line"]) if d["status"] == "found" else None
                    if oracle is not None:
                        oracle_n += 1
                        if mine is not None:
                            engine_n += 1
                            if mine == oracle:
                                both += 1
                            else:
                                disagreements.append(f"{mode} {rel}:{line}:{column} {name}: engine "
                                                     f"{d['file']}:{d['line']} clangd {oracle[0][len(str(root)) + 1:]}:{oracle[1]}")
                        else:
                            disagreements.append(f"{mode} {rel}:{line}:{column} {name}: engine {d['status']}")
                scores[mode] = {"sampled": len(sample), "clangd_in_corpus": oracle_n, "engine_answers": engine_n,
                                "agree": both, "precision": round(both / engine_n, 3) if engine_n else None,
                                "recall": round(both / oracle_n, 3) if oracle_n else None}
        finally:
            lsp.close()
    print(f"{'mode':<12} {'sampled':>8} {'clangd':>7} {'engine':>7} {'agree':>6} {'precision':>9} {'recall':>7}")
    for mode, s in scores.items():
        print(f"{mode:<12} {s['sampled']:>8} {s['clangd_in_corpus']:>7} {s['engine_answers']:>7} {s['agree']:>6} "
              f"{s['precision']:>9} {s['recall']:>7}")
    out = Path(__file__).resolve().parent / "results"
    out.mkdir(exist_ok=True)
    (out / "clangd_accuracy.json").write_text(json.dumps(scores, indent=2))
    (out / "clangd_accuracy_disagreements.txt").write_text("\n".join(disagreements) + "\n")
    print(json.dumps(scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
