"""Every `codetrace` command the README shows works as written.

README.md is parsed when the tests are collected, so the tests follow it: a command that stops
working, or a README edit that documents a form the CLI does not accept, fails here.

- Each `codetrace ...` line of a ```bash block runs verbatim (through bash, from the repository
  root); `> FILE` redirections are pointed into a temporary folder. It must exit 0 (1 when the
  line's comment says "not found") and print something (or write a non-empty file).
- Commands that start the MCP server (`codetrace mcp ...`, in a bash block, in the prose, in the
  client configuration JSON or in the `claude mcp add ... -- COMMAND` line) run as a real MCP stdio
  session: initialize, list the tools, call one, close. Placeholders (`DIR`, `/path/to/...`) are
  replaced by a fixture repository and by this environment's `codetrace` executable.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import mcp
import pytest
from mcp import StdioServerParameters

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
PLACEHOLDER_ROOT = REPO / "fixtures" / "graph_py"
BIN = Path(sys.executable).parent  # the environment the tests run in; `codetrace` is installed there

_FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
_REDIRECT = re.compile(r"(?<![<>&\d])(>>?)[ \t]*([^\s;|&<>]+)")
_GLOBAL_WITH_VALUE = {"--root"}


def _blocks(language: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(README.read_text(encoding="utf-8")) if lang == language]


def _logical_lines(block: str) -> list[str]:
    """The block's command lines, with backslash continuations joined and a `$ ` prompt removed."""
    lines, current = [], ""
    for raw in block.splitlines():
        if raw.rstrip().endswith("\\"):
            current += raw.rstrip()[:-1] + " "
            continue
        lines.append((current + raw).strip())
        current = ""
    if current:
        lines.append(current.strip())
    return [line[2:] if line.startswith("$ ") else line for line in lines]


def _subcommand(words: list[str]) -> str | None:
    """The command name after `codetrace` and its global options (`--root DIR`, `--json`)."""
    rest = iter(words[1:])
    for word in rest:
        if word in _GLOBAL_WITH_VALUE:
            next(rest, None)
        elif not word.startswith("-"):
            return word
    return None


def _bash_commands() -> list[str]:
    commands = []
    for block in _blocks("bash") + _blocks("sh") + _blocks("shell"):
        for line in _logical_lines(block):
            if line == "codetrace" or line.startswith("codetrace "):
                commands.append(line)
    return commands


def _is_server(line: str) -> bool:
    words = shlex.split(line, comments=True)
    return _subcommand(words) == "mcp"


def _prose_server_commands() -> list[str]:
    """`codetrace mcp --root DIR` and `claude mcp add NAME -- COMMAND ...` written in the text."""
    text = _FENCE.sub("", README.read_text(encoding="utf-8"))
    found = [span for span in re.findall(r"`(codetrace mcp [^`]+)`", text)]
    found += re.findall(r"`claude mcp add \S+ -- ([^`]+)`", text)
    return found


def _json_server_configs() -> list[dict]:
    """The {"command", "args"} objects of the README's MCP client configuration blocks."""
    configs = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("command"), str) and isinstance(node.get("args"), list):
                configs.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for block in _blocks("json"):
        try:
            walk(json.loads(block))
        except json.JSONDecodeError:
            continue
    return configs


BASH_COMMANDS = _bash_commands()
CLI_COMMANDS = [line for line in BASH_COMMANDS if not _is_server(line)]
SERVER_COMMANDS = ([("bash block", shlex.split(line, comments=True)) for line in BASH_COMMANDS if _is_server(line)]
                   + [("prose", shlex.split(line)) for line in _prose_server_commands()]
                   + [("client configuration", [config["command"], *config["args"]])
                      for config in _json_server_configs()])


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    return env


def _codetrace_executable() -> str:
    found = shutil.which("codetrace", path=str(BIN)) or shutil.which("codetrace", path=_env()["PATH"])
    assert found, f"the `codetrace` command is not installed (looked in {BIN} and on PATH): pip install -e ."
    return found


def test_the_readme_documents_commands():
    """The parsers above still find what they look for (a README reorganisation must not empty the tests)."""
    assert len(CLI_COMMANDS) >= 3, BASH_COMMANDS
    assert any(where == "client configuration" for where, _ in SERVER_COMMANDS), "no MCP client configuration JSON"
    assert any(where == "prose" and "--root" in words for where, words in SERVER_COMMANDS), SERVER_COMMANDS


@pytest.mark.parametrize("line", CLI_COMMANDS, ids=CLI_COMMANDS)
def test_a_readme_command_runs_as_written(line: str, tmp_path: Path):
    _codetrace_executable()
    targets: list[Path] = []

    def into_tmp(match: re.Match) -> str:
        target = tmp_path / Path(match.group(2)).name
        targets.append(target)
        return f"{match.group(1)} {shlex.quote(str(target))}"

    command = _REDIRECT.sub(into_tmp, line)
    process = subprocess.run(["bash", "-c", command], cwd=REPO, env=_env(), capture_output=True, text=True,
                             timeout=240)
    comment = line.partition("#")[2].lower()
    expected = 1 if "not found" in comment else 0
    assert process.returncode == expected, (line, process.returncode, process.stderr[-2000:])
    assert "Traceback" not in process.stderr, process.stderr[-2000:]
    if targets:
        for target in targets:
            assert target.is_file() and target.stat().st_size > 0, (line, target)
    else:
        assert process.stdout.strip(), line


def _placeholders(words: list[str]) -> list[str]:
    """Fill the README's placeholders: the executable path and the repository to serve."""
    out = []
    for i, word in enumerate(words):
        if i == 0 and word != "codetrace" and word.endswith("/codetrace") and not Path(word).exists():
            out.append(_codetrace_executable())  # /path/to/jupyter_codetrace/.venv/bin/codetrace
        elif word.startswith("/path/to/") or re.fullmatch(r"[A-Z][A-Z_]*", word):
            out.append(str(PLACEHOLDER_ROOT))  # DIR, /path/to/your/repo
        else:
            out.append(word)
    return out


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize(("where", "words"), SERVER_COMMANDS, ids=[f"{w}: {' '.join(c)}" for w, c in SERVER_COMMANDS])
async def test_a_readme_server_command_serves_mcp(where: str, words: list[str], anyio_backend):
    words = _placeholders(words)
    assert "--http" not in words, "an HTTP server command: extend this test to connect over HTTP"
    params = StdioServerParameters(command=words[0], args=words[1:], cwd=str(REPO), env=_env())
    async with mcp.Client(params, read_timeout_seconds=120) as client:
        assert client.server_info.name == "codetrace"
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"find_definition", "find_references", "search_symbols"} <= names, names
        result = await client.call_tool("search_symbols", {"query": "main", "limit": 3})
        assert not result.is_error, result.content
        assert result.content and result.content[0].text.strip()
