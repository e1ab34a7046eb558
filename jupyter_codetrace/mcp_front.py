"""A fast front for ``codetrace mcp`` over stdio: the handshake is answered before the MCP SDK
(about a second of imports) has loaded.

The answers to the handshake (``initialize``, or ``server/discover`` in the 2026 protocol) and to
``tools/list`` depend only on the request, the SDK's version and this package's tool definitions.
So the SDK's own answers are recorded the first time (in the index cache folder, keyed by a hash
of all of these) and replayed at once on later starts, with the request's id. Every message still
reaches the SDK, in order; its answers to requests already answered from the record are dropped,
so the client sees each answer once, and the record is checked against the SDK's fresh answer
(a difference replaces it). Nothing here imports the SDK.

The plumbing: the process's stdin and stdout are replaced by pipes before the SDK starts; one
thread copies the client's messages into the SDK's stdin (answering recorded requests first),
another copies the SDK's stdout to the client (dropping answers already given).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

__all__ = ["Front"]

_RECORDED = ("initialize", "server/discover", "tools/list")


def _cache_file() -> Path:
    base = os.environ.get("CODETRACE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "jupyter_codetrace")
    return Path(base) / "mcp-answers.json"


def _fingerprint() -> str:
    """What the recorded answers depend on besides the request: the SDK and this package's tools."""
    from . import __version__
    from .installed import installed_version

    digest = hashlib.sha256(__version__.encode())
    for module, name in (("mcp", "mcp"), ("mcp_types", "mcp-types")):
        digest.update((installed_version(module, name) or "").encode())
    here = Path(__file__).resolve().parent
    for source in ("mcp_server.py", "mcp_front.py"):
        digest.update((here / source).read_bytes())
    return digest.hexdigest()[:16]


def _key(fingerprint: str, message: dict) -> str:
    params = json.dumps(message.get("params"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{fingerprint}\0{message['method']}\0{params}".encode()).hexdigest()[:24]


class Front:
    """Install before the SDK starts (``Front().start()``); ``close()`` after the server returns."""

    def __init__(self) -> None:
        self._path = _cache_file()
        try:
            self._answers: dict = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self._answers = {}
        self._fingerprint = _fingerprint()
        self._pending: dict = {}      # request id (JSON) -> recording key, for requests to record
        self._answered: set = set()   # request ids (JSON) answered from the record
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()

    def start(self) -> None:
        self._client_in = os.dup(0)
        self._client_out = os.dup(1)
        sdk_in_read, self._sdk_in = os.pipe()
        self._sdk_out, sdk_out_write = os.pipe()
        os.dup2(sdk_in_read, 0)
        os.dup2(sdk_out_write, 1)
        os.close(sdk_in_read)
        os.close(sdk_out_write)
        threading.Thread(target=self._inbound, name="codetrace-mcp-in", daemon=True).start()
        self._outbound_thread = threading.Thread(target=self._outbound, name="codetrace-mcp-out", daemon=True)
        self._outbound_thread.start()

    def close(self) -> None:
        """The server returned: let the last answers through, then save what was recorded."""
        os.close(1)  # the SDK's stdout: the copying thread sees its end
        self._outbound_thread.join(timeout=5)

    def _save(self) -> None:
        """Written at once (a client may kill the server rather than wait for it to exit)."""
        with self._lock:
            data = json.dumps(self._answers)
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self._path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(data, encoding="utf-8")
            os.replace(temporary, self._path)
        except OSError:
            pass

    # ------------------------------------------------------------------ the client -> the SDK
    def _inbound(self) -> None:
        with os.fdopen(self._client_in, "rb", buffering=0) as source, os.fdopen(self._sdk_in, "wb") as sdk:
            for line in _lines(source):
                self._answer_from_record(line)
                sdk.write(line)
                sdk.flush()

    def _answer_from_record(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return
        if not isinstance(message, dict) or message.get("method") not in _RECORDED or "id" not in message:
            return
        key = _key(self._fingerprint, message)
        request_id = json.dumps(message["id"])
        with self._lock:
            self._pending[request_id] = key
            recorded = self._answers.get(key)
            if recorded is not None:
                self._answered.add(request_id)
        if recorded is not None:
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": recorded})

    # ------------------------------------------------------------------ the SDK -> the client
    def _outbound(self) -> None:
        with os.fdopen(self._sdk_out, "rb", buffering=0) as source:
            for line in _lines(source):
                if not self._already_answered(line):
                    with self._write_lock:
                        _write_all(self._client_out, line)

    def _already_answered(self, line: bytes) -> bool:
        if b'"result"' not in line:
            return False
        try:
            message = json.loads(line)
        except ValueError:
            return False
        if not isinstance(message, dict) or "result" not in message or "id" not in message:
            return False
        request_id = json.dumps(message["id"])
        with self._lock:
            key = self._pending.pop(request_id, None)
            answered = request_id in self._answered
            self._answered.discard(request_id)
            changed = key is not None and self._answers.get(key) != message["result"]
            if changed:
                self._answers[key] = message["result"]
        if changed:
            self._save()
        return answered

    def _send(self, message: dict) -> None:
        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        with self._write_lock:
            _write_all(self._client_out, data)


def _lines(source):
    """Newline-delimited messages from an unbuffered binary file, as they arrive."""
    pending = b""
    while True:
        chunk = source.read(65536)
        if not chunk:
            if pending.strip():
                yield pending + b"\n"
            return
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if line.strip():
                yield line + b"\n"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
