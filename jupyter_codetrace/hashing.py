"""The hash functions the index and its caches are keyed by, taken without ``hashlib``: it loads
OpenSSL on import (~5 ms of every process's start) for algorithms none of these use."""

from __future__ import annotations

try:
    from _blake2 import blake2b
    from _sha1 import sha1
except ImportError:  # pragma: no cover - an interpreter built without its own implementations
    from hashlib import blake2b, sha1

__all__ = ["blake2b", "sha1"]
