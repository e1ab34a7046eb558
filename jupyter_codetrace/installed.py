"""Versions of installed distributions, read without ``importlib.metadata``.

Every process that opens an index keys its cache by the tree-sitter versions, and the MCP front
keys its recorded answers by the SDK's: ``importlib.metadata`` costs about 30 ms of imports
(email, zipfile, csv …) there, more than the rest of the MCP handshake.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache

__all__ = ["installed_version"]


@lru_cache(maxsize=None)
def installed_version(module: str, distribution: str) -> str | None:
    """The version of ``distribution``, which provides the top-level package ``module``; None when
    it is not installed.

    Read from the name of the one ``<module>-<version>.dist-info`` folder beside the package, as
    pip and uv install it; any other layout (several such folders, an egg, a zip) is left to
    ``importlib.metadata``.

    >>> installed_version("tree_sitter", "tree-sitter")             # doctest: +SKIP
    '0.26.1'
    """
    spec = importlib.util.find_spec(module)
    if spec is None:
        return None
    if spec.origin and spec.submodule_search_locations:
        folder = os.path.dirname(os.path.dirname(spec.origin))   # .../site-packages
        prefix, suffix = f"{module}-", ".dist-info"
        try:
            found = [name[len(prefix):-len(suffix)] for name in os.listdir(folder)
                     if name.startswith(prefix) and name.endswith(suffix)]
        except OSError:
            found = []
        if len(found) == 1 and found[0][:1].isdigit():
            return found[0]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None
