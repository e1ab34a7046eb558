"""An interactive call-tree explorer for large trees (ipywidgets): a node's callees or callers
are fetched only when it is expanded, and a node's "definition" button shows its card below the
tree. ``%trace NAME --explore`` opens one; so does the class directly:

    from jupyter_codetrace.widgets import CallTreeExplorer
    CallTreeExplorer(project, "compute_total", file="inventory/pricing.py")
"""

from __future__ import annotations

import ipywidgets as widgets

__all__ = ["CallTreeExplorer"]

_DIRECTIONS = {"outgoing": "callees (outgoing)", "incoming": "callers (incoming)"}


class CallTreeExplorer(widgets.VBox):
    """Callees (``direction="outgoing"``) or callers (``"incoming"``) of a symbol, expanded on
    demand; the direction can be switched in the widget."""

    def __init__(self, project, symbol: str, file: str | None = None, direction: str = "outgoing"):
        if direction not in _DIRECTIONS:
            raise ValueError(f"direction: 'outgoing' or 'incoming', not {direction!r}")
        self.project, self.direction, self.symbol = project, direction, symbol
        self.detail = widgets.Output(layout={"border": "1px solid var(--jp-border-color2, #ddd)"})
        trace = project.trace(symbol, file)
        if not trace.found:
            self.root = None
            super().__init__([widgets.HTML(f"<b>{trace.status}</b>: {trace.message}")])
            return
        definition = trace.definition
        self.file = definition.file
        self.qualified = ".".join(definition.path) or symbol
        self.switch = widgets.ToggleButtons(options=[(label, key) for key, label in _DIRECTIONS.items()],
                                            value=direction)
        self.root = self._node(self.qualified, self.file, depth=0)
        self.switch.observe(self._switched, names="value")
        super().__init__([self.switch, self.root, self.detail])

    def __repr__(self) -> str:
        # text/plain for terminals and static renderers (the widget itself needs a live kernel)
        if self.root is None:
            return f"CallTreeExplorer: {self.symbol!r} not found"
        return (f"CallTreeExplorer: {_DIRECTIONS[self.direction]} of {self.qualified} ({self.file}), "
                "expanded on click in a live notebook")

    def _switched(self, change) -> None:
        self.direction = change["new"]
        self.root = self._node(self.qualified, self.file, depth=0)
        self.children = (self.switch, self.root, self.detail)

    def _children(self, symbol: str, file: str) -> list[dict]:
        # One level per click: trace's tree for this node, of which only the first level is used.
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
            # Set the output directly rather than capturing `display()`: works the same in a
            # kernel, in a test and from a callback running outside any cell.
            self.detail.outputs = ()
            self.detail.append_display_data(self.project.trace(symbol, file).definition)

        button.on_click(toggle)
        show.on_click(definition)
        box.toggle, box.show_definition = toggle, definition
        return box
