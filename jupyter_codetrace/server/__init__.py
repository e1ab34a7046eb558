"""The jupyter-server extension: REST routes over the queries of the server's root.

Settings (``jupyter_server_config.py`` or the command line)::

    c.Codetrace.root = "/path/to/repo"      # default: the server's root_dir
    c.Codetrace.max_file_size = 2_000_000
    c.Codetrace.exclude = ["generated/**"]
    c.Codetrace.index_on_start = True

Only this package imports tornado and jupyter_server (ARCHITECTURE.md, habit 12).
"""

from __future__ import annotations

import os

from traitlets import Bool, Int, List, Unicode
from traitlets.config import Configurable

from .handlers import ROUTES, route_handlers
from .registry import ProjectRegistry

__all__ = ["Codetrace", "load_extension", "ROUTES"]


class Codetrace(Configurable):
    """Settings of the codetrace server extension."""

    root = Unicode("", help="The repository to serve; default: the server's root_dir.").tag(config=True)
    max_file_size = Int(2_000_000, help="Files larger than this many bytes are not indexed.").tag(config=True)
    exclude = List(Unicode(), default_value=[], help="Extra gitignore-style patterns not to index.").tag(config=True)
    index_on_start = Bool(True, help="Index the root in the background when the server starts.").tag(config=True)
    query_threads = Int(4, help="Threads that run queries off the event loop.").tag(config=True)
    python = Unicode("", help="The Python interpreter whose standard library and site-packages library names "
                              "resolve into (asked once for its sys.path); default: $CODETRACE_PYTHON, else "
                              "the server's own.").tag(config=True)


def _contents_path(root: str, root_dir: str) -> str | None:
    """``root`` as a path of the server's contents ('' when it is root_dir, None outside it)."""
    relative = os.path.relpath(os.path.realpath(root), os.path.realpath(root_dir))
    if relative == os.curdir:
        return ""
    if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
        return None
    return relative.replace(os.sep, "/")


def load_extension(serverapp) -> ProjectRegistry:
    settings = Codetrace(parent=serverapp)
    root = settings.root or serverapp.root_dir
    registry = ProjectRegistry(root, max_file_size=settings.max_file_size, exclude=settings.exclude,
                               workers=settings.query_threads, log=serverapp.log, python=settings.python or None,
                               contents_path=_contents_path(root, serverapp.root_dir))
    registry.server = serverapp
    web_app = serverapp.web_app
    web_app.add_handlers(".*$", route_handlers(web_app.settings["base_url"], registry))
    web_app.settings["codetrace_registry"] = registry
    if settings.index_on_start:
        registry.start_indexing()
    serverapp.log.info("codetrace: serving %s under %scodetrace/api/", root, web_app.settings["base_url"])
    return registry
