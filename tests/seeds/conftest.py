"""Shared fixtures of the seed-conformance tests (tests/seeds/): a real MCP client session,
in memory, over the server that ``jupyter_codetrace.mcp_server.build_server`` builds.

Usage from any test module under tests/seeds/ (no import needed)::

    def test_something(mcp_session):
        session = mcp_session("fixtures/seeds/seed_000/ts")   # or an absolute Path
        result = session.call("find_definition", {"symbol_name": "f", "file_path": "a.ts", "line_number": 3})
        result.text            # the tool's text content
        result.data            # its structured content (the query's to_dict())
        result.is_error        # True for a ToolError (invalid input)

``mcp_session(root)`` is a module-scoped factory: one client session per root and test module,
kept open across that module's tests and closed when the module is done. The session runs
the SDK's ``mcp.Client`` against the in-process server in "legacy" mode, i.e. through the
SDK's in-memory transport with JSON-RPC framing and the initialize handshake — arguments are
validated against the published tool schemas exactly as for a stdio client. Tests stay plain
synchronous functions: the client lives on an event loop in a background thread (anyio's
blocking portal).
"""

from __future__ import annotations

import dataclasses
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable

import pytest

REPO_DIR = Path(__file__).resolve().parents[2]
SEED_FIXTURES = REPO_DIR / "fixtures" / "seeds"


@dataclasses.dataclass(frozen=True)
class ToolAnswer:
    """One tool call's answer: the text content, the structured content and the error flag."""

    text: str
    data: dict | None
    is_error: bool
    raw: Any


class McpSession:
    """A connected MCP client over one project root, callable from synchronous tests."""

    def __init__(self, root: Path, portal, client, server):
        self.root = root
        self._portal = portal
        self.client = client
        self.server = server  # the MCPServer object (server.codetrace_tools.project is the Project)

    def call(self, tool: str, arguments: dict) -> ToolAnswer:
        result = self._portal.call(self.client.call_tool, tool, arguments)
        text = "".join(getattr(part, "text", "") for part in result.content)
        return ToolAnswer(text=text, data=result.structured_content, is_error=bool(result.is_error), raw=result)

    def list_tools(self):
        return self._portal.call(self.client.list_tools).tools


def _resolve_root(root: str | Path) -> Path:
    path = Path(root)
    if not path.is_absolute():
        path = REPO_DIR / path
    return path.resolve()


@pytest.fixture(scope="module")
def mcp_session() -> Callable[[str | Path], McpSession]:
    """Factory: ``mcp_session(root)`` -> an open :class:`McpSession` on that root (relative roots
    are taken from the repository checkout, e.g. ``"fixtures/seeds/seed_000/ts"``)."""
    import mcp
    from anyio.from_thread import start_blocking_portal

    from jupyter_codetrace.mcp_server import build_server

    sessions: dict[Path, McpSession] = {}
    with ExitStack() as stack:
        portal = None

        def open_session(root: str | Path) -> McpSession:
            nonlocal portal
            path = _resolve_root(root)
            if path not in sessions:
                if portal is None:
                    portal = stack.enter_context(start_blocking_portal("asyncio"))
                server = build_server(str(path))
                client = stack.enter_context(portal.wrap_async_context_manager(
                    mcp.Client(server, mode="legacy", read_timeout_seconds=120)))
                sessions[path] = McpSession(path, portal, client, server)
            return sessions[path]

        yield open_session
