"""``dataclass``, the standard library's, with the methods it writes compiled once per interpreter
instead of at every start (issue 20).

``dataclasses.dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, … as source
text and compiles that text with ``exec``. The package's forty classes cost ~50 ms of every
process's start that way — a third of importing it, paid by each CLI call, restart, kernel and
MCP spawn. Here ``exec`` is handed, for each text, the code compiled from it by an earlier
process, kept in one file beside this module's own bytecode (``importlib.util.cache_from_source``):
the place, and so the trust, of the bytecode Python already runs from there. The file is read for
this interpreter only (its magic number and optimisation level head the file) and written, like
bytecode, only when Python writes bytecode; it is keyed by each text's digest, so a class that
changed simply misses and is compiled from its text as before. The classes are the standard
library's in every way: only where their methods' code comes from differs.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import os
import sys
import threading
import types

from .hashing import blake2b

__all__ = ["dataclass"]

_HEADER = importlib.util.MAGIC_NUMBER + bytes([sys.flags.optimize])
_KEPT_MAX = 4000   # texts kept in the file; beyond, only those this process used (old versions go)

_lock = threading.RLock()
_codes: dict[bytes, types.CodeType] | None = None   # text digest -> its code (None: not read yet)
_used: set[bytes] = set()
_compiled = 0   # texts this process compiled (missing from the file): it is written at exit


def dataclass(cls=None, /, **options):
    """``dataclasses.dataclass(cls, **options)``, also as ``@dataclass(**options)``."""
    if cls is None:
        return lambda cls: dataclass(cls, **options)
    with _lock:
        # dataclasses looks ``exec`` up among its module's names before the builtins: for the
        # length of this call, the one below (another thread's class made meanwhile gets the same
        # code its text compiles to, so it is none the wiser)
        dataclasses.exec = _exec
        try:
            return dataclasses.dataclass(cls, **options)
        finally:
            del dataclasses.exec


def cache_path() -> str | None:
    """The file the methods' code is kept in (None where this interpreter keeps no bytecode)."""
    try:
        own = importlib.util.cache_from_source(__file__)
    except (NotImplementedError, ValueError):
        return None
    return os.path.join(os.path.dirname(own), f"dataclass-methods.{sys.implementation.cache_tag}.bin")


def _exec(source, globals=None, locals=None, /):
    global _compiled
    if type(source) is str:
        key = blake2b(source.encode(), digest_size=16).digest()
        codes = _read() if _codes is None else _codes
        code = codes.get(key)
        if code is None:
            # as exec(text) compiles it: no __future__ flag of this module's (annotations would
            # turn the generated __init__'s annotations into strings)
            code = codes[key] = compile(source, "<string>", "exec", dont_inherit=True)
            if not _compiled:
                atexit.register(_write)
            _compiled += 1
        _used.add(key)
        source = code
    builtins.exec(source, globals, locals)


def _read() -> dict:
    global _codes
    _codes = {}
    path = cache_path()
    if path is not None:
        try:
            with open(path, "rb") as file:
                data = file.read()
            if data.startswith(_HEADER):
                stored = marshal.loads(data[len(_HEADER):])
                if type(stored) is dict:
                    _codes = {key: code for key, code in stored.items()
                              if type(key) is bytes and type(code) is types.CodeType}
        except (OSError, EOFError, ValueError, TypeError):
            pass   # no file yet, or one of another shape: compiled again, written again
    return _codes


def _write() -> None:
    """Write the file again with what this process compiled (at exit: once, not per class)."""
    path = cache_path()
    if path is None or sys.dont_write_bytecode or not _codes:
        return
    with _lock:
        codes = dict(_codes)
        if len(codes) > _KEPT_MAX:
            codes = {key: codes[key] for key in _used}
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(_HEADER + marshal.dumps(codes))
        os.replace(temporary, path)   # whole or not at all, whoever else writes it meanwhile
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
