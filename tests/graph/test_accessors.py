"""Reading a getter runs it: `order.total` of an `@property` and `cart.size` of a TypeScript
`get size()` are calls in the graph, so the getter's incoming call tree lists its readers (seed
002: getters and setters get full call chains); a plain attribute read stays a reference."""

from __future__ import annotations

from jupyter_codetrace import Project

SHOP_PY = '''class Order:
    def __init__(self, lines):
        self.lines = lines
        self.note = ""

    @property
    def total(self):
        return sum(self.lines)


def report(order: Order):
    return order.total, order.note
'''

SHOP_TS = '''export class Cart {
  private items: number[] = [];
  get size(): number {
    return this.items.length;
  }
}

export function describe(cart: Cart): string {
  return `${cart.size} items`;
}
'''


def test_reading_a_getter_is_a_call(tmp_path):
    (tmp_path / "shop.py").write_text(SHOP_PY, encoding="utf-8")
    (tmp_path / "shop.ts").write_text(SHOP_TS, encoding="utf-8")
    with Project(tmp_path, cache_dir=tmp_path / ".cache") as project:
        incoming = project.trace("Order.total", calls=True).to_dict()["calls"]["incoming"]
        assert [(c["symbol"], c["line"]) for c in incoming] == [("report", 11)]
        incoming = project.trace("Cart.size", calls=True).to_dict()["calls"]["incoming"]
        assert [(c["symbol"], c["line"]) for c in incoming] == [("describe", 8)]
        edges = {(e.source, e.target, e.kind) for e in project.call_graph().edges}
        assert ("shop.py#report", "shop.py#Order.total", "CALLS") in edges
        assert ("shop.ts#describe", "shop.ts#Cart.size", "CALLS") in edges
        assert not any(e[1].endswith("Order.note") for e in edges)   # a plain attribute is no node
