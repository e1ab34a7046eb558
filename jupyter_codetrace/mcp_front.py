"""A fast front for ``codetrace mcp`` over stdio: the handshake and the first tool calls are
answered before the MCP SDK (about a second of imports) has loaded.

The answers to the handshake (``initialize``, or ``server/discover`` in the 2026 protocol) and to
``tools/list`` depend only on the request, the SDK's version and this package's tool definitions.
So the SDK's own answers are recorded the first time (in the index cache folder, keyed by a hash
of all of these) and replayed at once on later starts, with the request's id. Every such message
still reaches the SDK, in order; its answers to requests already answered from the record are
dropped, so the client sees each answer once, and the record is checked against the SDK's fresh
answer (a difference replaces it). Nothing here imports the SDK.

Tool calls that arrive before the SDK has said anything are answered here, by the same
``mcp_tools.Tools`` the SDK's server calls, when three things recorded from the SDK allow it: the
tool's input schema (from its ``tools/list`` answer; the arguments must fit it, checked as strictly
as the SDK's validation or more — anything else is left to the SDK), and the envelope the SDK puts
around a tool's result in the call's protocol version (learned from its answer to an earlier call).
Such a call does not reach the SDK; a call the front cannot answer, or whose tool fails, does.

The plumbing: the process's stdin and stdout are replaced by pipes before the SDK starts; one
thread copies the client's messages into the SDK's stdin (answering recorded requests first),
another copies the SDK's stdout to the client (dropping answers already given).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import typing
from pathlib import Path

if typing.TYPE_CHECKING:
    from .mcp_tools import Tools

__all__ = ["Front"]

_RECORDED = ("initialize", "server/discover", "tools/list")
_VERSION_META = "io.modelcontextprotocol/protocolVersion"   # a 2026-protocol request's version
_CONTENT = ("content", "structuredContent", "isError")       # a tool result's own keys
_TOOLS_WAIT_SECONDS = 2.0   # a call that comes before use(): the tools are being imported


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
    """Install before the SDK starts (``Front().start()``); ``close()`` after the server returns.
    Tool calls are answered here with the tools given to ``use()`` (after ``start()``: the
    handshake is answered meanwhile, before the tools' imports; a call that arrives first waits
    for them up to ``_TOOLS_WAIT_SECONDS``); without tools only the handshake and the tool list."""

    def __init__(self, tools: Tools | None = None) -> None:
        self._path = _cache_file()
        try:
            self._answers: dict = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self._answers = {}
        self._fingerprint = _fingerprint()
        self._schemas_key = f"schemas:{self._fingerprint}"   # tool name -> input schema, from tools/list
        self.tools: Tools | None = None
        self._tools_given = threading.Event()
        self._pending: dict = {}      # request id (JSON) -> (method, recording key), for answers to record
        self._answered: set = set()   # request ids (JSON) answered from the record
        self._session_version = ""    # the protocol version asked in `initialize` (older protocols)
        self._sdk_speaks = threading.Event()   # the SDK has written its first message: it answers calls
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        if tools is not None:
            self.use(tools)

    def use(self, tools: Tools) -> None:
        """Answer tool calls with these tools from now on."""
        self.tools = tools
        self._tools_given.set()

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

    @property
    def answers_calls(self) -> bool:
        """Whether tool calls can be answered here: the tools' schemas and an envelope are on record."""
        envelopes = f"envelope:{self._fingerprint}:"
        return (self.tools is not None and bool(self._answers.get(self._schemas_key))
                and any(key.startswith(envelopes) for key in self._answers))

    # ------------------------------------------------------------------ the client -> the SDK
    def _inbound(self) -> None:
        with os.fdopen(self._client_in, "rb", buffering=0) as source, os.fdopen(self._sdk_in, "wb") as sdk:
            for line in _lines(source):
                message = _message(line)
                if message is not None and message.get("method") == "tools/call" and self._answer_call(message):
                    continue
                if message is not None:
                    self._answer_from_record(message)
                sdk.write(line)
                sdk.flush()

    def _answer_from_record(self, message: dict) -> None:
        method = message.get("method")
        if method == "initialize" and isinstance(message.get("params"), dict):
            self._session_version = str(message["params"].get("protocolVersion", ""))
        if "id" not in message or method not in _RECORDED and method != "tools/call":
            return
        request_id = json.dumps(message["id"])
        if method == "tools/call":   # left to the SDK: its answer shows the envelope of this version
            with self._lock:
                self._pending[request_id] = (method, self._envelope_key(message))
            return
        key = _key(self._fingerprint, message)
        with self._lock:
            self._pending[request_id] = (method, key)
            recorded = self._answers.get(key)
            if recorded is not None:
                self._answered.add(request_id)
        if recorded is not None:
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": recorded})

    def _envelope_key(self, message: dict) -> str:
        meta = (message.get("params") or {}).get("_meta") or {}
        version = meta.get(_VERSION_META) if isinstance(meta, dict) else None
        return f"envelope:{self._fingerprint}:{version or self._session_version}"

    def _answer_call(self, message: dict) -> bool:
        """Answer a tool call here (True) while the SDK is still loading, when the tool's schema and
        the protocol's envelope are on record and the arguments fit the schema."""
        if self._sdk_speaks.is_set() or "id" not in message:
            return False
        params = message.get("params")
        if not isinstance(params, dict) or not isinstance(params.get("arguments", {}), dict):
            return False
        with self._lock:
            schema = self._answers.get(self._schemas_key, {}).get(params.get("name"))
            envelope = self._answers.get(self._envelope_key(message))
        arguments = _fitted(params.get("arguments") or {}, schema) if schema and envelope else None
        if arguments is None or not self._tools_given.wait(_TOOLS_WAIT_SECONDS):
            return False
        tools = self.tools
        try:
            answer = tools.answer(params["name"], arguments)
        except Exception:   # a failure is the SDK's to report, in its words
            return False
        wire = answer.to_wire() | envelope["extras"]
        if not set(envelope["keys"]) <= set(wire):
            return False   # the SDK would have said more than the front knows how to
        result = {key: wire[key] for key in envelope["keys"]}   # the SDK's keys, in its order
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        return True

    # ------------------------------------------------------------------ the SDK -> the client
    def _outbound(self) -> None:
        with os.fdopen(self._sdk_out, "rb", buffering=0) as source:
            for line in _lines(source):
                self._sdk_speaks.set()
                if not self._already_answered(line):
                    with self._write_lock:
                        _write_all(self._client_out, line)

    def _already_answered(self, line: bytes) -> bool:
        if b'"result"' not in line:
            return False
        message = _message(line)
        if message is None or "result" not in message or "id" not in message:
            return False
        request_id = json.dumps(message["id"])
        result = message["result"]
        with self._lock:
            method, key = self._pending.pop(request_id, (None, None))
            answered = request_id in self._answered
            self._answered.discard(request_id)
            if method == "tools/call":
                record = _envelope(result)
            else:
                record = result if key is not None else None
            changed = record is not None and self._answers.get(key) != record
            if changed:
                self._answers[key] = record
            if method == "tools/list" and isinstance(result, dict) and isinstance(result.get("tools"), list):
                schemas = self._answers.setdefault(self._schemas_key, {})
                for tool in result["tools"]:
                    if isinstance(tool, dict) and schemas.get(tool.get("name")) != tool.get("inputSchema"):
                        schemas[tool.get("name")] = tool.get("inputSchema")
                        changed = True
        if changed:
            self._save()
        return answered

    def _send(self, message: dict) -> None:
        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        with self._write_lock:
            _write_all(self._client_out, data)


def _message(line: bytes) -> dict | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def _envelope(result) -> dict | None:
    """What the SDK puts around a successful tool result besides its content (e.g. ``resultType``
    and a ``_meta`` stamp in the 2026 protocol), and which keys it sends."""
    if not isinstance(result, dict) or result.get("isError") is not False or "content" not in result:
        return None
    return {"keys": list(result), "extras": {key: value for key, value in result.items() if key not in _CONTENT}}


# ---------------------------------------------------------------------- arguments against a schema
# The JSON Schema the SDK publishes for a tool's arguments, checked no more loosely than its own
# (pydantic) validation: strings and booleans must be JSON strings and booleans, integers JSON
# integers; a keyword not listed here, or a property the schema does not name, leaves the call to
# the SDK.
_UNDERSTOOD = {"type", "properties", "required", "anyOf", "enum", "minimum", "default", "title", "description",
               "$defs"}


def _fitted(arguments: dict, schema: dict) -> dict | None:
    """``arguments`` with the schema's defaults filled in when they fit the schema, else None."""
    if not _fits(arguments, schema, schema.get("$defs", {})):
        return None
    filled = dict(arguments)
    for name, property_schema in schema.get("properties", {}).items():
        if name not in filled:
            if "default" not in property_schema:
                return None   # an optional argument without a published default: the SDK's to fill
            filled[name] = property_schema["default"]
    return filled


def _fits(value, schema: dict, definitions: dict) -> bool:
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return name in definitions and _fits(value, definitions[name], definitions)
    if set(schema) - _UNDERSTOOD:
        return False
    if "anyOf" in schema:
        return any(_fits(value, choice, definitions) for choice in schema["anyOf"])
    kind = schema.get("type")
    if kind == "string":
        fits = type(value) is str and value in schema.get("enum", (value,))
    elif kind == "integer":
        fits = type(value) is int and value >= schema.get("minimum", value) and "enum" not in schema
    elif kind == "boolean":
        fits = type(value) is bool and "enum" not in schema
    elif kind == "null":
        fits = value is None
    elif kind == "object":
        properties = schema.get("properties", {})
        fits = (type(value) is dict and set(value) <= set(properties) and set(schema.get("required", ())) <= set(value)
                and all(_fits(item, properties[name], definitions) for name, item in value.items()))
    else:
        return False
    return fits and ("minimum" not in schema or kind == "integer")


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
