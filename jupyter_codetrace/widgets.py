"""An interactive call-tree explorer for large trees (ipywidgets): a node's callers or callees
are fetched when it is expanded, and clicking a node shows its definition card.

    from jupyter_codetrace.widgets import CallTreeExplorer
    CallTreeExplorer(project, "total", file="shop/pricing.py")
"""

from __future__ import annotations

import ipywidgets as widgets
from IPython.display import Markdown, display

__all__ = ["CallTreeExplorer"]


class CallTreeExplorer(widgets.VBox):
    """Callers (``direction="incoming"``) or callees of a symbol, expanded on demand."""

    def __init__(self, project, symbol: str, file: str | None = None, direction: str = "outgoing"):
        self.project, self.direction = project, direction
        self.detail = widgets.Output(layout={"border": "1px solid var(--jp-border-color2, #ddd)"})
        trace = project.trace(symbol, file)
        if not trace.found:
            super().__init__([widgets.HTML(f"<b>{trace.status}</b>: {trace.message}")])
            return
        definition = trace.definition
        self.root = self._node(".".join(definition.path) or symbol, definition.file, depth=0)
        super().__init__([widgets.HTML(f"<b>{direction.title()} calls of <code>{symbol}</code></b>"), self.root,
                          self.detail])

    def _children(self, symbol: str, file: str) -> list[dict]:
        calls = self.project.trace(symbol, file, calls=True).calls or {}
        return [c for c in calls.get(self.direction, []) if not c.get("external")]

    def _node(self, symbol: str, file: str, depth: int) -> widgets.VBox:
        button = widgets.Button(description=f"▸ {symbol}", tooltip=f"{symbol} ({file}): expand",
                                layout={"width": "auto", "margin": f"0 0 0 {depth * 16}px"})
        show = widgets.Button(description="definition", layout={"width": "auto"}, button_style="info")
        box = widgets.VBox([widgets.HBox([button, widgets.Label(file), show])])
        box.symbol, box.file, box.expanded = symbol, file, False

        def toggle(_):
            if box.expanded:
                box.children = box.children[:1]
                button.description = f"▸ {symbol}"
            else:
                kids = [self._node(c["symbol"], c["file"], depth + 1) for c in self._children(symbol, file)]
                box.children = box.children[:1] + tuple(kids or [widgets.Label("(no calls)")])
                button.description = f"▾ {symbol}"
            box.expanded = not box.expanded

        def definition(_):
            self.detail.clear_output()
            with self.detail:
                display(Markdown(self.project.trace(symbol, file).definition.to_markdown()))

        button.on_click(toggle)
        show.on_click(definition)
        box.toggle, box.show_definition = toggle, definition
        return box
