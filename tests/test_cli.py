"""The `codetrace` command line: global options in either position, a closed pipe, help texts."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_codetrace.cli import build_parser, main

REPO = Path(__file__).resolve().parents[1]
PYTHON_APP = REPO / "fixtures" / "python_app"
GRAPH_PY = REPO / "fixtures" / "graph_py"


def _run(capsys, argv: list[str]) -> tuple[int, str]:
    status = main(argv)
    return status, capsys.readouterr().out


# (arguments after the global options, root): found and not-found queries of every kind.
QUERIES = [
    (["def", "app/main.py:38", "User"], PYTHON_APP),
    (["def", "app/main.py:38", "Nope"], PYTHON_APP),
    (["refs", "app/main.py:38", "User", "--include-declaration"], PYTHON_APP),
    (["symbols", "user", "--limit", "3"], PYTHON_APP),
    (["trace", "place_order", "--file", "main.py", "--calls"], GRAPH_PY),
    (["deps", "main.py", "main"], GRAPH_PY),
    (["dependents", "shop/pricing.py", "round_price"], GRAPH_PY),
    (["paths", "main.py:main", "shop/pricing.py:round_price"], GRAPH_PY),
    (["graph", "--format", "dot"], GRAPH_PY),
]


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("command,root", QUERIES, ids=[" ".join(q[0]) for q in QUERIES])
def test_global_options_work_before_and_after_the_command(capsys, command, root, as_json):
    flags = ["--root", str(root)] + (["--json"] if as_json else [])
    before = _run(capsys, flags + command)
    after = _run(capsys, command + flags)
    mixed = _run(capsys, flags[:2] + command + flags[2:])  # --root before, --json after
    assert before == after == mixed
    status, out = before
    assert out
    if as_json and command[0] != "graph":
        json.loads(out)


def test_the_readme_example_with_json_after_the_arguments(capsys):
    status, out = _run(capsys, ["--root", str(PYTHON_APP), "def", "app/main.py:38", "User", "--json"])
    assert status == 0
    data = json.loads(out)
    assert (data["status"], data["file"], data["line"]) == ("found", "app/models.py", 8)


def test_an_option_after_the_command_does_not_reset_one_given_before():
    parser = build_parser()
    args = parser.parse_args(["--root", "somewhere", "--json", "def", "a.py:1", "x"])
    assert (args.root, args.json) == ("somewhere", True)
    args = parser.parse_args(["def", "a.py:1", "x"])
    assert (args.root, args.json) == (".", False)
    args = parser.parse_args(["--root", "first", "def", "a.py:1", "x", "--root", "second"])
    assert args.root == "second"  # the later one wins, as with any repeated option


@pytest.mark.parametrize("argv", [["mcp", "--root", "DIR"], ["--root", "DIR", "mcp"],
                                  ["mcp", "--root", "DIR", "--http", "8000"], ["mcp", "--http", "8000", "--root", "DIR"]])
def test_mcp_takes_root_after_the_command(argv):
    args = build_parser().parse_args(argv)
    assert args.command == "mcp" and args.root == "DIR"


def test_exit_status_not_found_and_invalid(capsys):
    assert main(["def", "app/main.py:38", "Nope", "--root", str(PYTHON_APP)]) == 1
    assert main(["def", "app/main.py:x", "User", "--root", str(PYTHON_APP)]) == 2
    with pytest.raises(SystemExit) as exit_:
        main(["def", "app/main.py:38", "User", "--no-such-option"])
    assert exit_.value.code == 2


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_argument_and_option_is_described():
    parser = build_parser()
    for name, sub in {"codetrace": parser, **_subcommands(parser)}.items():
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)
        assert sub.description, name
        assert any(a.dest == "root" for a in sub._actions) and any(a.dest == "json" for a in sub._actions), name


@pytest.mark.parametrize("command,formats", [("def", ["FILE:LINE[:COL]", "SYMBOL", "--mode", "declaration", "--root DIR"]),
                                             ("refs", ["FILE:LINE[:COL]", "SYMBOL", "--include-declaration"]),
                                             ("paths", ["FILE:SYMBOL", "--format"]),
                                             ("deps", ["FILE", "SYMBOL", "--include-name-matches"]),
                                             ("trace", ["SYMBOL", "--file FILE", "--all"]),
                                             ("mcp", ["--http PORT", "--root DIR", "127.0.0.1"])])
def test_subcommand_help_describes_the_argument_formats(capsys, command, formats):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for word in formats:
        assert word in text, (command, word)
    assert "Example: codetrace" in " ".join(text.split())


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.mark.parametrize("argv", [["--root", str(PYTHON_APP), "def", "app/main.py:38", "User"],
                                  ["--root", str(GRAPH_PY), "graph", "--format", "graphml"]])
def test_a_closed_pipe_ends_quietly(argv):
    """`codetrace def ... | head`: the reader is gone before anything is written (deterministic)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        process = subprocess.run([sys.executable, "-m", "jupyter_codetrace.cli", *argv], stdout=write_end,
                                 stderr=subprocess.PIPE, text=True, env=_env(), cwd=REPO, timeout=120)
    finally:
        os.close(write_end)
    assert "Traceback" not in process.stderr and "BrokenPipeError" not in process.stderr, process.stderr
    assert process.stderr == ""
    assert process.returncode == 0


def test_python_names_the_interpreter_libraries_resolve_in(tmp_path):
    """--python, before or after the command: library names resolve in that interpreter's
    import path; one that is not there is a usage error (exit 2) that names it."""
    root = Path(__file__).resolve().parents[1] / "fixtures" / "py_libs"
    env = {**os.environ, "CODETRACE_CACHE_DIR": str(tmp_path)}
    found = subprocess.run([sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(root), "--json", "def",
                            "analysis.py:29", "dumps", "--python", sys.executable],
                           capture_output=True, text=True, env=env)
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["library"]["kind"] == "stdlib"
    missing = subprocess.run([sys.executable, "-m", "jupyter_codetrace.cli", "--python", str(tmp_path / "nope"),
                              "--root", str(root), "def", "analysis.py:29", "dumps"],
                             capture_output=True, text=True, env=env)
    assert missing.returncode == 2 and "is not an executable interpreter" in missing.stderr


def _in_a_terminal(argv: list[str], env: dict) -> tuple[int, str]:
    """Run ``argv`` with stdout and stderr on a pseudo-terminal, as in a shell: (status, output)."""
    import pty

    primary, secondary = pty.openpty()
    process = subprocess.Popen(argv, stdout=secondary, stderr=secondary, stdin=subprocess.DEVNULL, env=env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:   # EIO: the other end closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(primary)
    return process.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


def test_a_long_first_index_shows_progress_on_a_terminal_only(tmp_path):
    root = tmp_path / "many"
    root.mkdir()
    for i in range(1200):
        (root / f"m{i}.py").write_text("".join(f"def f{j}(x):\n    return g{j}(x) + {j}\n" for j in range(40)),
                                       encoding="utf-8")
    env = {**os.environ, "CODETRACE_CACHE_DIR": str(tmp_path / "tty-cache")}
    status, shown = _in_a_terminal([sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(root), "index"], env)
    assert status == 0 and "files/s" in shown and "s left" in shown and "Indexing [" in shown
    assert "Indexed 1200 files" in shown
    piped = subprocess.run([sys.executable, "-m", "jupyter_codetrace.cli", "--root", str(root), "index"],
                           capture_output=True, text=True, env={**env, "CODETRACE_CACHE_DIR": str(tmp_path / "pipe")})
    assert piped.returncode == 0 and "files/s" not in piped.stderr + piped.stdout
