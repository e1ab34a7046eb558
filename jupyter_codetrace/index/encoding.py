"""The cache's data-only encoding: msgpack arrays of primitives, LZ4-compressed.

A blob can hold only ``None``, booleans, integers, floats, strings, bytes and arrays of
those; nothing in it names a type, a function or a module, so a cache file written by
someone else can at worst hold wrong facts (rejected by the shape checks of
``FileFacts.from_rows`` or by the row checksum), never run code. That is why this is not
pickle (which calls whatever a blob names) nor marshal (which builds code objects).

Lists and tuples both become arrays and both come back as tuples; the readers turn the
fields declared as lists back into lists (``FileFacts.from_rows``). Maps are never written
and are refused when read, as is any extension type but one: integers beyond 64 bits (a
literal subscript such as ``t[10**30]`` written out), stored as their decimal digits.
"""

from __future__ import annotations

import contextlib
import gc
import sys

import lz4.block
import msgpack

__all__ = ["encode", "encode_chunks", "leading_count", "decode", "DecodeError", "gc_paused", "freeze_long_lived"]

# LZ4 rather than zlib (level 1): on the stdlib's facts 38 % of the bytes instead of 25 %, but
# compressed 5x and decompressed 5x faster (0.45 -> 0.09 s and 0.20 -> 0.04 s for all 1,788
# files): every load of a file's facts pays the decompression (find_references of a popular
# name loads hundreds), the index pays the compression once per file.
_SIZE_BYTES = 4       # lz4.block's own header: the decompressed size, little-endian
_MAX_RATIO = 255      # no LZ4 block decompresses to more than this many times its size
_BIG_INT = 1          # extension code: an integer outside 64 bits, as ASCII decimal digits
_MAX_BIG_DIGITS = 4300   # Python's own int/str conversion limit


class DecodeError(ValueError):
    """A blob that is not what this encoding writes (damaged, foreign or hostile)."""


def _default(value):
    if type(value) is int:   # msgpack asks only when the integer does not fit 64 bits
        return msgpack.ExtType(_BIG_INT, str(value).encode("ascii"))
    raise TypeError(f"cannot store a {type(value).__name__} in the cache")


def _ext(code: int, data: bytes):
    if code != _BIG_INT or not 0 < len(data) <= _MAX_BIG_DIGITS:
        raise DecodeError(f"unknown extension type {code}")
    digits = data[1:] if data[:1] == b"-" else data
    if not digits.isdigit():   # bytes.isdigit: ASCII digits only
        raise DecodeError("malformed integer")
    return int(data)


def _no_maps(_pairs):
    raise DecodeError("a map where only arrays are written")


_packer_options = {"use_bin_type": True, "default": _default}


def encode(value, compress: bool = True) -> bytes:
    """``value`` (nested tuples/lists of primitives) as a msgpack blob, compressed unless asked
    not to (a blob read whole at every start, where decompressing would cost more than reading)."""
    data = msgpack.packb(value, **_packer_options)
    return lz4.block.compress(data) if compress else data


def _decompressed(blob: bytes) -> bytes:
    """An LZ4 block as ``encode`` wrote it, refused (``DecodeError``) when it claims a size no
    block of its length can have: a hostile cache row asking for gigabytes is not allocated."""
    if len(blob) < _SIZE_BYTES:
        raise DecodeError("undecodable cache blob (shorter than its size header)")
    size = int.from_bytes(blob[:_SIZE_BYTES], "little")
    if size > _MAX_RATIO * (len(blob) - _SIZE_BYTES) + 16:
        raise DecodeError(f"undecodable cache blob (claims {size} bytes from {len(blob)})")
    try:
        return lz4.block.decompress(blob)
    except lz4.block.LZ4BlockError as error:
        raise DecodeError(f"undecodable cache blob ({error})") from error


def encode_chunks(value, size: int = 1 << 20, depth: int = 3):
    """``encode(value, compress=False)`` in pieces of about ``size`` bytes, made as they are
    written: a value of tens of MB (the graph's snapshot) is never one buffer. Arrays nested
    less than ``depth`` deep are packed item by item (a piece is at least one deeper item)."""
    packer = msgpack.Packer(**_packer_options)
    pending = bytearray()
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if level < depth and isinstance(item, (tuple, list)):
            pending += packer.pack_array_header(len(item))
            stack.extend((inner, level + 1) for inner in reversed(item))
        else:
            pending += packer.pack(item)
        if len(pending) >= size:
            yield bytes(pending)
            pending.clear()
    if pending:
        yield bytes(pending)


def leading_count(blob: bytes) -> int:
    """The first item of the array ``encode(…, compress=False)`` wrote, when it is an integer (a
    count written ahead of what it counts), read without the rest; -1 for anything else."""
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=len(blob) or 1)
    try:
        unpacker.feed(blob)
        unpacker.read_array_header()
        count = unpacker.unpack()
    except (ValueError, TypeError, msgpack.UnpackException, msgpack.OutOfData):
        return -1
    return count if type(count) is int else -1


def decode(blob: bytes, compressed: bool = True):
    """The value of :func:`encode` with every array as a tuple. Raises :class:`DecodeError`
    (a ``ValueError``) for anything else: not LZ4, not msgpack, trailing bytes, a map, an
    unknown extension type, nesting deeper than msgpack's stack."""
    try:
        data = _decompressed(blob) if compressed else blob
        return msgpack.unpackb(data, use_list=False, raw=False, strict_map_key=True,
                               object_pairs_hook=_no_maps, ext_hook=_ext)
    except DecodeError:
        raise
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        # malformed msgpack raises ValueError subclasses (ExtraData, FormatError, StackError)
        raise DecodeError(f"undecodable cache blob ({type(error).__name__}: {error})") from error


def freeze_long_lived() -> None:
    """Keep every object alive now out of the cyclic collector's later passes (``gc.freeze``):
    after a large build or load, the project's facts, resolutions and graph (millions of tracked
    objects, none in a cycle) would otherwise be walked by each full collection, 0.3-0.7 s on the
    stdlib, freeing nothing. Not in an interactive session (IPython, a kernel): the user's objects
    would be frozen too, and a cycle among them freed later would never be collected."""
    if "IPython" not in sys.modules:
        gc.freeze()


@contextlib.contextmanager
def gc_paused():
    """The cyclic garbage collector off while one blob's objects are built (then as it was).

    Building a file's facts allocates some 10^4 tuples and fact objects, none in a cycle; each
    700 of them start a collection that finds nothing to free. That added 10-20 % to loading the
    stdlib's facts, and up to 2.7x in a process with a small heap (bench/cache_encoding.py). Left
    off if someone turned it off; another thread loading at the same time may find it paused and
    leave it to this one to turn back on, which costs nothing but a later collection.
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
