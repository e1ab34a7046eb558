"""The text of a library file an answer led to, for a read-only view (panel, editor, REST)."""

from __future__ import annotations

import os

from ..errors import InvalidRequest
from ..results import LibrarySourceResult
from .context import QueryContext

__all__ = ["library_source"]


def library_source(ctx: QueryContext, file) -> LibrarySourceResult:
    if not isinstance(file, str) or not file.strip():
        raise InvalidRequest("file is required (a library file as a definition names it: json/__init__.py)",
                             field="file")
    file = file.strip()
    with ctx.lock:
        ctx.fresh()
        path = ctx.libraries.reached_file(file)
        if path is None:
            # an absolute or climbing path is never how an answer names a library file: it is not
            # echoed (no result names a path outside the root, CONTRACT.md)
            named = not (os.path.isabs(file) or ".." in file.replace("\\", "/").split("/"))
            return LibrarySourceResult(
                "file_not_indexed", file if named else "",
                f"{repr(file) if named else 'That path'} is not a library file an answer has led to in this session: "
                f"only those are shown (ask for the definition that names it first).")
        place = ctx.libraries.place(path)
        text = ctx.libraries.source(path).decode("utf-8", "replace")
        return LibrarySourceResult("found", place.file if place else file, None, ctx.index.language_of(path),
                                   place.to_dict() if place else None, text)
