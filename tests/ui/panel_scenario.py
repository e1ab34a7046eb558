"""The side-panel scenario in a real browser, run by tests/ui/test_panel_e2e.py in its own
process (Playwright's sync API needs a thread without a running asyncio loop, which pytest's
jupyter plugins keep). Prints `ok STEP` per step; exits non-zero with the failure otherwise.

    python tests/ui/panel_scenario.py        # also handy by hand: screenshots land in
                                             # labextension/ui-tests/screenshots/
    python tests/ui/panel_scenario.py STEP…  # only these steps (names without `step_`)
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "labextension" / "ui-tests" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _open_panel(page) -> None:
    """Show the panel (clicking its tab while it is shown would collapse the sidebar)."""
    if not page.locator(".jp-CodeTrace-search").is_visible():
        page.click('li[data-id="jp-codetrace-panel"]')


def _put_cursor(page, line, column: int) -> None:
    """Click a code line, then move the cursor to 0-based ``column`` with the keyboard."""
    line.click()
    page.keyboard.press("Home")
    for _ in range(column):
        page.keyboard.press("ArrowRight")


def _word_box(line, word: str) -> dict:
    """The on-screen box of the first ``word`` in a CodeMirror line (its text spans several nodes)."""
    return line.evaluate("""(line, word) => {
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        const nodes = [];
        let text = '';
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            nodes.push([node, text.length]);
            text += node.data;
        }
        const at = text.indexOf(word);
        const place = offset => {
            const [node, base] = nodes.filter(([, b]) => b <= offset).pop();
            return [node, offset - base];
        };
        const range = document.createRange();
        range.setStart(...place(at));
        range.setEnd(...place(at + word.length - 1));
        const box = range.getBoundingClientRect();
        return {x: box.x, y: box.y, width: box.width, height: box.height};
    }""", word)



# Generated into the copy of the demo by main() (nothing large is committed): a docstring written
# in reST, a JSDoc comment, and a symbol with long lists (references, callers, subclasses, members).
LONG = 160  # references and callers of `tally`: more than a page of 100
SUBCLASSES = 120
MEMBERS = 110

DESCRIBE_LINE = '''"""Receipt lines."""


def describe_line(sku: str, quantity: int) -> str:
    """Describe one order line for a receipt.

    The text names the SKU and the quantity, padded so that
    receipts line up in a monospaced font.

    Example::

        describe_line("kb-1", 2)
        describe_line("mouse-7", 10)

    - the SKU comes first
    - the quantity is right-aligned

    :param sku: the product's SKU
    :param quantity: how many were ordered
    :returns: one line of text, <b>never</b> empty <img src=x onerror="window.codetraceInjected=1">
    """
    return f"{sku:<10}{quantity:>4}"
'''

FORMAT_PRICE = """/**
 * Formats a price for the receipt.
 *
 * Two decimals, always: `formatPrice(5)` is "$0.05".
 *
 * ```ts
 * formatPrice(1250); // "$12.50"
 * formatPrice(99, '€');
 * ```
 *
 * @param cents - the amount in cents
 * @param currency - the currency sign
 * @returns the amount with two decimals
 */
export function formatPrice(cents: number, currency = '$'): string {
  return `${currency}${(cents / 100).toFixed(2)}`;
}
"""


def _write_generated_fixtures(root: Path) -> None:
    (root / "inventory" / "receipts.py").write_text(DESCRIBE_LINE)
    (root / "client" / "src" / "format.ts").write_text(FORMAT_PRICE)
    members = "".join(f"\n    def col_{i:03}(self) -> int:\n        return {i}\n" for i in range(MEMBERS))
    (root / "inventory" / "ledger.py").write_text(
        '"""A ledger with many users."""\n\n\nclass Entry:\n    """One ledger entry."""\n\n\n'
        "def tally(amount: int) -> int:\n    return amount\n\n\n"
        f"class Journal:\n    \"\"\"A wide class.\"\"\"\n{members}")
    ticks = "".join(f"\n\ndef tick_{i:03}() -> int:\n    return tally({i})\n" for i in range(LONG))
    kinds = "".join(f"\n\nclass Entry{i:03}(Entry):\n    pass\n" for i in range(SUBCLASSES))
    (root / "inventory" / "ledger_use.py").write_text(f"from .ledger import Entry, tally\n{ticks}{kinds}")

def _shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"))

def step_search_open_definition_references_and_call_tree(page):
    _open_panel(page)
    search = page.locator(".jp-CodeTrace-search")
    search.wait_for()
    page.wait_for_selector(".jp-CodeTrace-status:has-text('files indexed')", timeout=30_000)
    search.fill("compute_total")
    page.wait_for_selector(".jp-CodeTrace-match")
    _shot(page, "01-search")
    search.press("Enter")
    card = page.locator(".jp-CodeTrace-card h3")
    card.wait_for()
    assert "compute_total" in card.inner_text()
    assert "inventory/pricing.py:26" in page.locator(".jp-CodeTrace-card").inner_text()
    refs = page.locator(".jp-CodeTrace-refs")
    assert "inventory/service.py" in refs.inner_text()
    callers = page.locator(".jp-CodeTrace-calls").first
    assert "OrderService.place_order" in callers.inner_text()
    _shot(page, "02-symbol-view")


def step_a_call_tree_name_expands_and_its_link_opens(page):
    callers = page.locator(".jp-CodeTrace-calls").first
    tabs = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab")
    before = tabs.count()
    node = callers.locator(".jp-CodeTrace-node", has=page.locator(
        ":scope > .jp-CodeTrace-node-row .jp-CodeTrace-node-name", has_text="OrderService.place_order")).first
    node.locator(":scope > .jp-CodeTrace-node-row .jp-CodeTrace-node-name").click()
    # Clicking the name expands the node (its callers show) and opens nothing.
    child = node.locator(".jp-CodeTrace-children .jp-CodeTrace-node-name", has_text="run_order").first
    child.wait_for(timeout=5_000)
    assert node.get_attribute("aria-expanded") == "true"
    page.wait_for_timeout(300)
    assert tabs.count() == before, f"clicking a call-tree name opened a document: {tabs.all_inner_texts()}"
    # Its own link opens the file at the caller's line.
    row = node.locator(".jp-CodeTrace-children .jp-CodeTrace-node-row", has_text="run_order").first
    row.locator(".jp-CodeTrace-goto").click()
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('cli.py')", timeout=20_000)
    page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Ln 17,')", timeout=20_000)
    # Collapsing hides the callers again.
    node.locator(":scope > .jp-CodeTrace-node-row .jp-CodeTrace-twisty").click()
    assert node.get_attribute("aria-expanded") == "false" and not child.is_visible()
    _shot(page, "02-call-tree")


def step_a_reference_opens_the_editor_at_its_line(page):
    page.locator(".jp-CodeTrace-refs a", has_text="service.py:26").first.click()
    # The editor opened with the cursor on the reference: JupyterLab's status bar says where.
    page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Ln 26, Col 29')", timeout=20_000)
    assert "compute_total" in page.locator(".jp-FileEditor:visible .cm-content").inner_text()
    tab = page.locator(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel")
    assert tab.inner_text() == "service.py"
    _shot(page, "03-reference-opened")


def step_the_shortcut_opens_the_panel_from_the_editor(page):
    # Accel-Shift-U was JupyterLab's Property Inspector: the panel's own shortcut must reach it.
    page.click('li[data-id="filebrowser"]')  # another sidebar panel in front of ours
    page.wait_for_selector(".jp-CodeTrace-search", state="hidden")
    page.locator(".jp-FileEditor:visible .cm-content").click()
    page.keyboard.press("Control+Shift+O")
    page.wait_for_selector(".jp-CodeTrace-search", state="visible", timeout=10_000)
    page.wait_for_function("document.activeElement?.classList.contains('jp-CodeTrace-search')", timeout=5_000)
    assert not page.locator(".jp-PropertyInspector").is_visible()


def step_a_second_pick_after_a_tall_card(page):
    # A short window makes the first card taller than the panel; the results must stay usable.
    page.set_viewport_size({"width": 1400, "height": 600})
    try:
        _open_panel(page)
        search = page.locator(".jp-CodeTrace-search")
        search.fill("place")
        page.locator(".jp-CodeTrace-match", has_text="OrderService.place_order").click()
        page.wait_for_selector(".jp-CodeTrace-card h3:has-text('OrderService.place_order')")
        view = page.locator(".jp-CodeTrace-view")
        assert view.evaluate("v => v.scrollHeight > v.clientHeight"), "the card is not taller than the panel"
        # every match stays on screen: the list keeps its own height (at most its cap), not what the card leaves
        results = page.locator(".jp-CodeTrace-results")
        shown = results.evaluate("r => [r.clientHeight, r.scrollHeight, r.querySelectorAll('.jp-CodeTrace-match').length,"
                                 " r.parentElement.clientHeight]")
        height, content, matches, panel = shown
        assert matches >= 2 and height >= min(content, 0.3 * panel) - 1, f"the results shrank: {shown}"
        page.locator(".jp-CodeTrace-match", has_text="InventoryClient.placeOrder").click()
        page.wait_for_selector(".jp-CodeTrace-card h3:has-text('placeOrder')")
        _shot(page, "04-second-pick")
    finally:
        page.set_viewport_size({"width": 1400, "height": 900})


def step_paths_diagram(page):
    _open_panel(page)
    page.locator(".jp-CodeTrace-search").fill("run_order")
    page.wait_for_selector(".jp-CodeTrace-match:has-text('run_order')")
    page.locator(".jp-CodeTrace-search").press("Enter")
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('run_order')")
    paths = page.locator(".jp-CodeTrace-paths input")
    diagram = page.locator(".jp-CodeTrace-diagram svg")
    # A name that does not exist is not swapped for the closest fuzzy match (it became pricing.total).
    paths.fill("zzznotasymbol")
    paths.press("Enter")
    page.wait_for_selector(".jp-CodeTrace-paths-message:has-text('zzznotasymbol')", timeout=10_000)
    assert diagram.count() == 0
    # Typing part of a name offers the matches; arrow keys and Enter pick one.
    paths.fill("round_mo")
    page.wait_for_selector(".jp-CodeTrace-choices .jp-CodeTrace-match:has-text('round_money')")
    paths.press("ArrowDown")
    paths.press("Enter")
    diagram.wait_for(timeout=20_000)
    assert "round_money" in diagram.inner_html()
    assert paths.input_value() == "round_money"
    # A name typed exactly is taken on Enter.
    page.locator(".jp-CodeTrace-diagram").evaluate("d => d.replaceChildren()")
    paths.fill("compute_total")
    paths.press("Enter")
    diagram.wait_for(timeout=20_000)
    assert "compute_total" in diagram.inner_html()
    _shot(page, "04-paths")


def step_the_panel_fits_its_width_takes_focus_and_speaks_aria(page):
    # The view of run_order with a path diagram is open: nothing may scroll sideways or be cut off.
    panel = page.locator("#jp-codetrace-panel")
    for node in (panel, page.locator(".jp-CodeTrace-view")):
        width = node.evaluate("n => [n.scrollWidth, n.clientWidth]")
        assert width[0] <= width[1] + 1, f"the panel scrolls sideways: {width}"
    button, box = page.locator(".jp-CodeTrace-paths-button").bounding_box(), panel.bounding_box()
    assert button["x"] + button["width"] <= box["x"] + box["width"], "the Paths to… button is cut off"
    # Shown again from its sidebar tab, the panel is ready to type into.
    page.click('li[data-id="filebrowser"]')
    page.click('li[data-id="jp-codetrace-panel"]')
    page.wait_for_function("document.activeElement?.classList.contains('jp-CodeTrace-search')", timeout=5_000)
    # The results are a listbox the search box controls; arrow keys move the active option.
    search = page.locator(".jp-CodeTrace-search")
    search.fill("total")
    page.wait_for_function("document.querySelector('.jp-CodeTrace-results [role=option]')?.textContent.includes('total')")
    assert search.get_attribute("role") == "combobox"
    assert page.locator(f"#{search.get_attribute('aria-controls')}").get_attribute("role") == "listbox"
    search.press("ArrowDown")
    first = page.locator(".jp-CodeTrace-results [role=option]").first
    assert search.get_attribute("aria-activedescendant") == first.get_attribute("id")
    assert first.get_attribute("aria-selected") == "true"
    page.wait_for_selector(".jp-CodeTrace-sr-only:has-text('matching symbols')", state="attached")
    _shot(page, "05-fits")


def step_trace_symbol_under_cursor_in_a_notebook_cell(page):
    _open_panel(page)
    page.locator(".jp-CodeTrace-search").fill("stocked_service")
    page.wait_for_selector(".jp-CodeTrace-match:has-text('stocked_service')")
    page.locator(".jp-CodeTrace-search").press("Enter")
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('stocked_service')")
    page.locator(".jp-CodeTrace-card a").first.click()  # opens the notebook at the defining cell
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=30_000)
    line = page.locator(".jp-Notebook .jp-Cell .cm-line", has_text="service = stocked_service(").first
    line.wait_for()
    page.wait_for_timeout(500)  # the notebook's editors settle after opening
    _put_cursor(page, line, 12)  # inside `stocked_service`
    with page.expect_response(lambda response: "/codetrace/api/definition" in response.url) as answer:
        page.keyboard.press("Control+Shift+Y")
    assert answer.value.status == 200, answer.value.text()
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('stocked_service')")
    # Cells are counted from 1, as JupyterLab's status bar does ("Cell 3/5").
    assert "notebooks/explore.ipynb cell 3:1" in page.locator(".jp-CodeTrace-card").inner_text()
    _shot(page, "05-trace-under-cursor")


def step_not_found_shows_clickable_suggestions(page):
    line = page.locator(".jp-Notebook .jp-Cell .cm-line", has_text="service = stocked_service(").first
    _put_cursor(page, line, 27)  # on `kb`, a keyword argument: it names nothing
    page.keyboard.press("Control+Shift+Y")
    alert = page.locator(".jp-CodeTrace-notfound")
    alert.wait_for(timeout=20_000)
    # Words for people, not the status code (that stays in the tooltip and data-status).
    assert alert.get_attribute("data-status") == "reference_not_found"
    assert "No name to trace here" in alert.inner_text() and "reference_not_found" not in alert.inner_text()
    assert "Names on this line:" in page.locator(".jp-CodeTrace-view").inner_text()
    suggestions = page.locator(".jp-CodeTrace-suggestion")
    assert suggestions.count() >= 1
    suggestions.filter(has_text="stocked_service").first.click()
    page.wait_for_selector(".jp-CodeTrace-match:has-text('stocked_service')")
    _shot(page, "06-not-found")


def step_the_context_menu_traces_the_right_clicked_word_not_the_caret(page):
    line = page.locator(".jp-Notebook .jp-Cell .cm-line", has_text="service = stocked_service(").first
    _put_cursor(page, line, 12)  # the caret stays on `stocked_service`
    other = page.locator(".jp-Notebook .jp-Cell .cm-line", has_text="order = service.place_order(").first
    box = _word_box(other, "place_order")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, button="right")
    item = page.locator(".lm-Menu-item:has-text('Trace place_order')")
    item.wait_for(timeout=5_000)
    item.click()
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('place_order')", timeout=20_000)
    assert "inventory/service.py" in page.locator(".jp-CodeTrace-card").inner_text()
    _shot(page, "07-context-menu")
    # The same in a file editor: the caret on line 1, a right-click on compute_total further down.
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text="service.py").click()
    editor = page.locator(".jp-FileEditor:visible")
    _put_cursor(page, editor.locator(".cm-line").first, 3)
    target = editor.locator(".cm-line", has_text="order.total_cents = compute_total(").first
    box = _word_box(target, "compute_total")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, button="right")
    page.locator(".lm-Menu-item:has-text('Trace compute_total')").click()
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('compute_total')", timeout=20_000)


def _show(page, query: str, name: str) -> None:
    """Search, click the result named ``name``, and wait for its card."""
    _open_panel(page)
    page.locator(".jp-CodeTrace-search").fill(query)
    page.locator(".jp-CodeTrace-results .jp-CodeTrace-match", has=page.locator(
        ".jp-CodeTrace-name", has_text=name)).first.click()
    page.wait_for_selector(f".jp-CodeTrace-card h3:has-text('{name}')", timeout=20_000)


def step_hide_tests_knows_test_folders_and_holds_between_symbols(page):
    # client/test/ (the TypeScript convention) is written into the copy of the demo by main().
    _show(page, "checkout", "checkout")
    refs = page.locator(".jp-CodeTrace-refs")
    assert "client/test/checkout_helpers.ts" in refs.inner_text()
    refs.locator("input[type=checkbox]").check()
    assert "client/test/checkout_helpers.ts" not in refs.inner_text()
    # The next symbol keeps the choice: the box stays ticked and its tests stay hidden.
    _show(page, "place_order", "OrderService.place_order")
    assert refs.locator("input[type=checkbox]").is_checked()
    assert "tests/test_service.py" not in refs.inner_text()
    refs.locator("input[type=checkbox]").uncheck()
    assert "tests/test_service.py" in refs.inner_text()
    _shot(page, "08-hide-tests")


def step_a_search_while_indexing_asks_again_by_itself(page):
    # The server answers 503 + Retry-After while it indexes: the first search gets one here.
    answered = []

    def indexing_once(route):
        if answered:
            route.continue_()
            return
        answered.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/json",
                      body='{"status": "indexing", "message": "retry shortly", "progress": {"done": 3, "total": 17}}')

    page.route("**/codetrace/api/symbols?*", indexing_once)
    try:
        _open_panel(page)
        page.locator(".jp-CodeTrace-search").fill("warn_low_stock")
        page.wait_for_selector(".jp-CodeTrace-results:has-text('Still indexing the project (3 of 17 files)')",
                               timeout=5_000)
        # No key pressed again: the panel retries and the match shows up.
        page.wait_for_selector(".jp-CodeTrace-results .jp-CodeTrace-match:has-text('warn_low_stock')", timeout=10_000)
        assert len(answered) == 1
    finally:
        page.unroute("**/codetrace/api/symbols?*")


def step_the_tutorials_are_beside_the_demo_and_outside_it_is_said(page):
    # JupyterLab shows the checkout (tutorials one click away) while the panel traces the demo.
    page.click('li[data-id="filebrowser"]')
    listing = page.locator(".jp-DirListing-content")
    listing.locator(".jp-DirListing-item", has_text="notebooks").first.dblclick()
    listing.locator(".jp-DirListing-item", has_text="tutorial.ipynb").first.dblclick()
    line = page.locator(".jp-Notebook .jp-Cell .cm-line", has_text="total = round_money(3)").first
    line.wait_for(timeout=30_000)
    page.wait_for_timeout(500)
    _put_cursor(page, line, 10)
    page.keyboard.press("Control+Shift+Y")
    alert = page.locator(".jp-CodeTrace-notfound")
    alert.wait_for(timeout=10_000)
    assert "outside the traced repository (fixtures/demo/)" in alert.inner_text(), alert.inner_text()
    assert "in fixtures/demo/" in page.locator(".jp-CodeTrace-status").inner_text()
    _shot(page, "09-outside")


def _light(color: str) -> bool:
    """Whether a computed CSS colour (rgb(…)) is a light one."""
    r, g, b = (int(float(v)) for v in color[color.index("(") + 1:color.index(")")].split(",")[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b > 128


def step_the_path_diagram_fits_zooms_pans_and_follows_the_dark_theme(page):
    page.click(".lm-MenuBar-itemLabel:text-is('Settings')")
    page.hover(".lm-Menu-itemLabel:text-is('Theme')")
    page.click(".lm-Menu-itemLabel:text-is('JupyterLab Dark')")
    page.wait_for_selector("body[data-jp-theme-light='false']", state="attached", timeout=20_000)
    _show(page, "run_order", "run_order")
    paths = page.locator(".jp-CodeTrace-paths input")
    paths.fill("round_money")
    paths.press("Enter")
    svg = page.locator(".jp-CodeTrace-diagram svg")
    svg.wait_for(timeout=20_000)
    box = page.locator(".jp-CodeTrace-diagram")
    width = svg.evaluate("s => s.getBoundingClientRect().width")
    assert 0 < width <= box.evaluate("b => b.clientWidth") + 1, f"the diagram is {width} px wide"
    # No white box in the dark theme: no background, light labels, dark text only on light nodes.
    assert svg.locator("g.graph > polygon").first.evaluate("p => getComputedStyle(p).fill") == "none"
    assert _light(svg.locator("g.cluster text").first.evaluate("t => getComputedStyle(t).fill"))
    assert _light(svg.locator("g.edge path").first.evaluate("p => getComputedStyle(p).stroke")) is not None
    _shot(page, "10-diagram-dark")
    # Zoom in with the button, pan by dragging, and fit again.
    canvas = page.locator(".jp-CodeTrace-diagram-canvas")
    fitted = svg.get_attribute("viewBox")
    page.click(".jp-CodeTrace-diagram-button[aria-label^='Zoom in']")
    page.click(".jp-CodeTrace-diagram-button[aria-label^='Zoom in']")
    assert float(canvas.get_attribute("data-zoom")) > 1.5
    zoomed = [float(v) for v in svg.get_attribute("viewBox").split()]
    area = canvas.bounding_box()
    page.mouse.move(area["x"] + area["width"] / 2, area["y"] + area["height"] / 2)
    page.mouse.down()
    page.mouse.move(area["x"] + area["width"] / 2 - 60, area["y"] + area["height"] / 2, steps=4)
    page.mouse.up()
    panned = [float(v) for v in svg.get_attribute("viewBox").split()]
    assert panned[0] > zoomed[0] and panned[2] == zoomed[2], (zoomed, panned)
    _shot(page, "11-diagram-zoomed")
    page.click(".jp-CodeTrace-diagram-button:text-is('Fit')")
    assert svg.get_attribute("viewBox") == fitted


def _pick(page, query: str, name: str) -> None:
    """Search and click the result named exactly ``name`` (``_show`` takes the first that contains it)."""
    _open_panel(page)
    page.locator(".jp-CodeTrace-search").fill(query)
    page.locator(".jp-CodeTrace-results .jp-CodeTrace-match", has=page.locator(
        f".jp-CodeTrace-name:text-is('{name}')")).first.click()
    page.wait_for_selector(f".jp-CodeTrace-card h3:has-text('{name}')", timeout=20_000)


def step_a_docstring_keeps_its_paragraphs_code_and_lists(page):
    # reST (inventory/receipts.py, written by main()): paragraphs, a :: literal block, a bullet
    # list, :param: fields, and HTML that must stay text.
    _pick(page, "describe_line", "describe_line")
    doc = page.locator(".jp-CodeTrace-card .jp-CodeTrace-doc")
    paragraphs = doc.locator("p")
    assert paragraphs.count() >= 2, doc.inner_html()
    assert paragraphs.first.inner_text() == "Describe one order line for a receipt."
    assert "receipts line up" in paragraphs.nth(1).inner_text()
    assert doc.locator("pre").inner_text().strip() == 'describe_line("kb-1", 2)\ndescribe_line("mouse-7", 10)'
    assert "Example:" in doc.inner_text() and "Example::" not in doc.inner_text()
    assert [li.inner_text() for li in doc.locator("ul.jp-CodeTrace-doc-list li").all()] == [
        "the SKU comes first", "the quantity is right-aligned"]
    fields = doc.locator(".jp-CodeTrace-doc-fields li")
    assert fields.count() == 3 and "sku" in fields.first.inner_text() and "the product's SKU" in fields.first.inner_text()
    # Written by the docstring, shown as text: no element, no script.
    assert doc.locator("img, b").count() == 0 and "<img src=x" in doc.inner_text()
    assert page.evaluate("window.codetraceInjected") is None
    # Longer than a few lines: collapsed, with a toggle that opens it.
    toggle = page.locator(".jp-CodeTrace-card .jp-CodeTrace-doc-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert doc.evaluate("d => d.scrollHeight > d.clientHeight + 4"), "the long docstring is not collapsed"
    _shot(page, "12-docstring-collapsed")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert doc.evaluate("d => d.scrollHeight <= d.clientHeight + 1"), "the docstring did not open"
    _shot(page, "12-docstring-open")
    # JSDoc (client/src/format.ts): a fenced code block and @param lines.
    _pick(page, "formatPrice", "formatPrice")
    doc = page.locator(".jp-CodeTrace-card .jp-CodeTrace-doc")
    assert doc.locator("pre").inner_text().strip() == 'formatPrice(1250); // "$12.50"\nformatPrice(99, \'€\');'
    assert doc.locator("p code").first.inner_text() == "formatPrice(5)"
    fields = doc.locator(".jp-CodeTrace-doc-fields li")
    assert fields.count() == 3 and "cents" in fields.first.inner_text() and "@param" not in doc.inner_text()


def step_long_lists_show_a_page_and_more_on_request(page):
    # tally (inventory/ledger.py, written by main()): 161 references, 160 callers.
    started = time.monotonic()
    _pick(page, "tally", "tally")
    drawn = time.monotonic() - started
    refs = page.locator(".jp-CodeTrace-refs")
    rows = refs.locator(".jp-CodeTrace-ref")
    assert rows.count() == 100, rows.count()
    more = refs.locator(".jp-CodeTrace-more-button")
    assert more.inner_text().startswith("Show 61 more"), more.inner_text()
    _shot(page, "13-long-references")
    # The keyboard reaches it, and the focus lands on the first row it drew.
    more.focus()
    page.keyboard.press("Enter")
    assert rows.count() == LONG + 1 and more.count() == 0
    focused = page.evaluate("[[...document.querySelectorAll('.jp-CodeTrace-refs .jp-CodeTrace-ref')]"
                            ".indexOf(document.activeElement.closest('.jp-CodeTrace-ref')), document.activeElement.outerHTML]")
    assert focused[0] == 100, focused
    # Callers: 100 tree items, then one that draws the rest.
    tree = page.locator(".jp-CodeTrace-calls [role=tree]").first
    assert tree.locator(":scope > .jp-CodeTrace-node[role=treeitem]").count() == 100
    tree.locator(":scope > [role=treeitem] .jp-CodeTrace-more-button").click()
    assert tree.locator(":scope > .jp-CodeTrace-node[role=treeitem]").count() == LONG
    assert tree.locator(".jp-CodeTrace-more-button").count() == 0
    # Subclasses, in the type hierarchy.
    _pick(page, "Entry", "Entry")
    types = page.locator(".jp-CodeTrace-types")
    types.locator("summary").click()
    assert types.locator("li.jp-CodeTrace-type").count() == 100
    types.locator(".jp-CodeTrace-more-button").click()
    assert types.locator("li.jp-CodeTrace-type").count() == SUBCLASSES
    # Members of a class: a page, more on request, and each traces the member.
    _pick(page, "Journal", "Journal")
    members = page.locator(".jp-CodeTrace-members")
    members.locator("summary").click()
    assert members.locator("li.jp-CodeTrace-member").count() == 100
    members.locator(".jp-CodeTrace-more-button").click()
    assert members.locator("li.jp-CodeTrace-member").count() == MEMBERS
    members.locator(".jp-CodeTrace-member button", has_text="col_105").click()
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('Journal.col_105')", timeout=20_000)
    # Search results: a page from the server, and an option that asks for more (keyboard too).
    search = page.locator(".jp-CodeTrace-search")
    search.fill("tick_")
    page.wait_for_selector(".jp-CodeTrace-results .jp-CodeTrace-more-option[role=option]")
    options = page.locator(".jp-CodeTrace-results [role=option]")
    first_page = options.count() - 1
    search.press("ArrowUp")  # from the box, up goes to the last option: the one that asks for more
    assert search.get_attribute("aria-activedescendant") == page.locator(
        ".jp-CodeTrace-results .jp-CodeTrace-more-option").get_attribute("id")
    search.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('.jp-CodeTrace-results .jp-CodeTrace-match:not(.jp-CodeTrace-more-option)').length > {first_page}")
    # The first new match is the active option, as if the list had always been that long.
    active = search.get_attribute("aria-activedescendant")
    assert active.endswith(f"-{first_page}") and "tick_" in page.locator(f"#{active}").inner_text(), active
    _shot(page, "13-long-search")
    assert drawn < 10, f"the symbol view of tally took {drawn:.1f} s"


def step_an_unsaved_editor_is_said_and_save_and_trace_works(page):
    _pick(page, "compute_total", "compute_total")
    page.locator(".jp-CodeTrace-card a").first.click()  # pricing.py, cursor on line 26
    page.wait_for_selector(".jp-StatusBar-TextItem:has-text('Ln 26,')", timeout=20_000)
    editor = page.locator(".jp-FileEditor:visible")
    # A line added at the end, not saved: the lines above keep their numbers.
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.type("EXTRA = compute_total")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current.jp-mod-dirty", timeout=5_000)
    # A line that is the same on disk is answered, and the panel says from which version.
    _put_cursor(page, editor.locator(".cm-line", has_text="def compute_total(").first, 6)
    page.keyboard.press("Control+Shift+Y")
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('compute_total')", timeout=20_000)
    note = page.locator(".jp-CodeTrace-unsaved-note")
    note.wait_for(timeout=5_000)
    assert "unsaved edits" in note.inner_text() and "saved version" in note.inner_text(), note.inner_text()
    # The new line does not exist on disk: say so plainly, offer to save, never a status code.
    _put_cursor(page, editor.locator(".cm-line", has_text="EXTRA = compute_total").first, 10)
    page.keyboard.press("Control+Shift+Y")
    alert = page.locator(".jp-CodeTrace-unsaved")
    alert.wait_for(timeout=20_000)
    text = page.locator(".jp-CodeTrace-view").inner_text()
    assert "unsaved edits" in text and "Save the file (Ctrl-S) to trace it" in text, text
    assert "invalid_request" not in text and "reference_not_found" not in text, text
    assert page.locator(".jp-CodeTrace-card").count() == 0
    _shot(page, "14-unsaved")
    alert.locator("button", has_text="Save and trace").click()
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('compute_total')", timeout=20_000)
    assert page.locator(".lm-DockPanel-tabBar .lm-mod-current.jp-mod-dirty").count() == 0, "the file was not saved"
    assert page.locator(".jp-CodeTrace-unsaved, .jp-CodeTrace-unsaved-note").count() == 0
    _shot(page, "14-saved-and-traced")



# ---- Navigation inside the editor (issue 18; library tabs: issue 21 item 7) ------------------
# Files written into the copy of the demo by main(): a module using the standard library, and a
# name defined twice that a call reaches by name only (the chooser).
EXPORT = 'import json\n\n\ndef dump_order(order):\n    return json.dumps(order, indent=2)\n'
GEO_A = "def area_of(x):\n    return 1\n"
GEO_B = "def area_of(x):\n    return 2\n"
GEO_USE = "def report():\n    return area_of(3)\n"
LATENCY = {}
WORK: dict = {}   # main() notes the demo copy's root here (a step checks a file on disk)


def _open_path(page, path: str) -> None:
    """Open ``path`` (relative to JupyterLab's root) with File → Open from Path…."""
    page.click(".lm-MenuBar-itemLabel:text-is('File')")
    page.click(".lm-Menu-itemLabel:text-is('Open from Path…')")
    field = page.locator(".jp-Dialog input")
    field.fill(path)
    field.press("Enter")
    name = path.rsplit("/", 1)[-1]
    page.wait_for_selector(f".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('{name}')", timeout=20_000)


def _editor_line(page, text: str):
    """The visible CodeMirror line (file editor, notebook cell or library tab) holding ``text``."""
    line = page.locator(".cm-line:visible", has_text=text).first
    line.wait_for(timeout=20_000)
    return line


def _word_centre(page, text: str, word: str) -> tuple[float, float]:
    box = _word_box(_editor_line(page, text), word)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _modifier_click(page, text: str, word: str) -> None:
    x, y = _word_centre(page, text, word)
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    try:
        page.mouse.click(x, y)
    finally:
        page.keyboard.up("Control")


def _flashed(page, text: str, tab: str) -> None:
    """Navigation landed: ``tab`` is the current tab and its highlighted line holds ``text``, in sight."""
    page.wait_for_selector(f".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('{tab}')", timeout=20_000)
    flash = page.locator(".cm-line.jp-CodeTrace-flash:visible", has_text=text)
    flash.first.wait_for(timeout=20_000)
    assert text in flash.first.inner_text(), flash.first.inner_text()
    box, view = flash.first.bounding_box(), page.viewport_size
    assert box and 0 <= box["y"] <= view["height"] - box["height"], f"the line is out of sight: {box}"


def _status_says(page, text: str) -> None:
    page.wait_for_selector(f".jp-StatusBar-TextItem:has-text('{text}')", timeout=10_000)


def step_ctrl_click_in_a_python_file_opens_the_definition(page):
    _open_path(page, "fixtures/demo/inventory/service.py")
    x, y = _word_centre(page, "order.total_cents = compute_total(", "compute_total")
    # Holding Ctrl over a name underlines it when it leads somewhere.
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    try:
        page.mouse.move(x + 1, y)
        underline = page.locator(".jp-FileEditor:visible .jp-CodeTrace-navigable")
        underline.wait_for(timeout=10_000)
        assert underline.inner_text() == "compute_total"
        _shot(page, "20-ctrl-hover-underline")
        page.mouse.click(x, y)
    finally:
        page.keyboard.up("Control")
    _flashed(page, "def compute_total(", "pricing.py")
    _status_says(page, "Ln 26, Col 5")
    _shot(page, "21-ctrl-click-python")


def step_alt_left_returns_and_f12_goes_again(page):
    page.keyboard.press("Alt+ArrowLeft")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('service.py')", timeout=10_000)
    _status_says(page, "Ln 26, Col 29")  # where the click was, not where the caret had been
    page.keyboard.press("Alt+ArrowRight")
    _flashed(page, "def compute_total(", "pricing.py")
    page.keyboard.press("Alt+ArrowLeft")
    _status_says(page, "Ln 26, Col 29")
    # F12 with the caret on a name: here `Order` on the signature of place_order.
    _put_cursor(page, _editor_line(page, "def place_order(self, order: Order)"), 31)  # Home goes to `def`
    page.keyboard.press("F12")
    _flashed(page, "class Order", "models.py")
    page.keyboard.press("Alt+ArrowLeft")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('service.py')", timeout=10_000)
    _status_says(page, "Ln 23, Col 34")
    _shot(page, "22-f12-and-back")


def step_ctrl_click_in_a_notebook_cell_to_a_module_and_to_another_cell(page):
    _open_path(page, "fixtures/demo/notebooks/explore.ipynb")
    page.wait_for_timeout(500)  # the notebook's editors settle after opening
    # To another cell: stocked_service is defined in the third cell.
    _modifier_click(page, "service = stocked_service(", "stocked_service")
    flash = page.locator(".jp-Notebook .jp-Cell .cm-line.jp-CodeTrace-flash").first
    flash.wait_for(timeout=20_000)
    assert "def stocked_service(" in flash.inner_text()
    cell = page.locator(".jp-Notebook .jp-Cell").nth(2)
    assert cell.locator(".jp-CodeTrace-flash").count() == 1, "the definition is not in the third cell"
    assert "jp-mod-active" in (cell.get_attribute("class") or "")
    _shot(page, "23-notebook-to-cell")
    # To a module: compute_total comes from inventory/pricing.py.
    _modifier_click(page, "compute_total(Order('again')", "compute_total")
    _flashed(page, "def compute_total(", "pricing.py")
    page.keyboard.press("Alt+ArrowLeft")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('explore.ipynb')", timeout=10_000)
    _shot(page, "23-notebook-to-module")


def step_ctrl_click_in_typescript_and_cpp(page):
    _open_path(page, "fixtures/demo/client/src/checkout.ts")
    _modifier_click(page, "return formatCents(", "formatCents")
    _flashed(page, "function formatCents(", "checkout.ts")
    _status_says(page, "Ln 9, Col 10")
    _shot(page, "24-ctrl-click-typescript")
    _open_path(page, "fixtures/demo/native/src/main.cpp")
    _modifier_click(page, "std::cout << pricing::total(", "total")
    _flashed(page, "std::int64_t total(", "pricing.cpp")
    _status_says(page, "Ln 22, Col 14")
    _shot(page, "24-ctrl-click-cpp")


def step_several_candidates_offer_a_chooser(page):
    _open_path(page, "fixtures/demo/inventory/geo_use.py")
    _modifier_click(page, "return area_of(3)", "area_of")
    chooser = page.locator(".jp-CodeTrace-chooser[role=listbox]")
    chooser.wait_for(timeout=10_000)
    options = chooser.locator("[role=option]")
    assert options.count() == 2, chooser.inner_text()
    texts = options.all_inner_texts()
    assert any("geo_a.py:1" in t for t in texts) and any("geo_b.py:1" in t for t in texts), texts
    _shot(page, "25-chooser")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    _flashed(page, "def area_of(", "geo_b.py")
    assert chooser.count() == 0


def step_go_to_declaration_and_type_definition_from_the_menus(page):
    _open_path(page, "fixtures/demo/client/src/checkout.ts")
    x, y = _word_centre(page, "await client.placeOrder(orderFor(", "orderFor")
    page.mouse.click(x, y, button="right")
    page.locator(".lm-Menu-item:has-text('Go to Declaration')").wait_for(timeout=5_000)
    page.locator(".lm-Menu-item:has-text('Go to Type Definition')").click()
    _flashed(page, "OrderDto", "types.ts")
    _shot(page, "26-type-definition")
    page.keyboard.press("Alt+ArrowLeft")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('checkout.ts')", timeout=10_000)
    # The palette has the three modes.
    page.keyboard.press("Control+Shift+C")
    palette = page.locator(".lm-CommandPalette-input")
    palette.fill("Go to ")
    items = page.locator(".lm-CommandPalette-item").all_inner_texts()
    page.keyboard.press("Escape")
    for label in ("Go to Definition", "Go to Declaration", "Go to Type Definition"):
        assert any(label in item for item in items), items


def step_shift_f12_shows_reference_rows(page):
    _open_path(page, "fixtures/demo/inventory/pricing.py")
    _put_cursor(page, _editor_line(page, "def compute_total("), 6)
    page.keyboard.press("Shift+F12")
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('compute_total')", timeout=20_000)
    rows = page.locator(".jp-CodeTrace-refs .jp-CodeTrace-ref")
    rows.first.wait_for(timeout=10_000)
    assert rows.count() >= 3, rows.count()
    codes = rows.locator("code").all_inner_texts()
    assert any("compute_total(" in code for code in codes), codes
    # each row marks the name itself in its line, and each file's heading counts its rows
    marks = rows.locator("mark.jp-CodeTrace-name").all_inner_texts()
    assert len(marks) == rows.count() and set(marks) == {"compute_total"}, marks
    headings = page.locator(".jp-CodeTrace-refs .jp-CodeTrace-file").all_inner_texts()
    assert headings and all(h.rstrip().endswith(")") and "(" in h for h in headings), headings
    assert page.evaluate("document.activeElement?.closest('.jp-CodeTrace-ref') !== null"), "the first reference has no focus"
    _shot(page, "27-shift-f12-references")


def step_the_hover_card_appears_and_disappears(page):
    _open_path(page, "fixtures/demo/inventory/service.py")
    editor_line = "order.total_cents = compute_total("
    asked = []
    listener = lambda request: asked.append(request.url) if "/codetrace/api/definition" in request.url else None
    page.on("request", listener)
    try:
        # Sweeping over a line quickly asks for nothing: only the name the pointer rests on is asked for.
        box = _word_box(_editor_line(page, "self._reserve(line.sku, line.quantity)"), "_reserve")
        for step in range(12):
            page.mouse.move(box["x"] + step * 15, box["y"] + box["height"] / 2)
            page.wait_for_timeout(20)
        x, y = _word_centre(page, editor_line, "compute_total")
        page.mouse.move(x, y)
        card = page.locator(".jp-CodeTrace-hover[role=tooltip]")
        card.wait_for(timeout=10_000)
        assert len(asked) <= 1, asked  # the sweep's names were never asked for
    finally:
        page.remove_listener("request", listener)
    text = card.inner_text()
    assert "compute_total(order: Order, lookup) -> int" in text and "inventory/pricing.py:26" in text, text
    assert "import" in card.locator(".jp-CodeTrace-hover-resolution").inner_text()
    # The card wears the theme's colours (the tooltip's look, dark in the dark theme).
    background = card.evaluate("c => getComputedStyle(c).backgroundColor")
    layout = page.evaluate("(() => { const p = document.createElement('div'); p.style.background = 'var(--jp-layout-color1)';"
                           " document.body.append(p); const c = getComputedStyle(p).backgroundColor; p.remove(); return c; })()")
    assert background == layout, (background, layout)
    _shot(page, "28-hover-card")
    # Away from the name, the card goes.
    page.mouse.move(x, y + 200)
    card.wait_for(state="detached", timeout=5_000)


def step_ctrl_click_on_json_dumps_opens_the_library_read_only(page):
    _open_path(page, "fixtures/demo/inventory/export.py")
    _modifier_click(page, "return json.dumps(", "dumps")
    title = "json/__init__.py — stdlib 3.11 (read-only)"
    _flashed(page, "def dumps(", title)
    tab = page.locator(".jp-CodeTrace-library:visible")
    # Read-only: typing changes nothing.
    before = tab.locator(".cm-content").inner_text()
    page.keyboard.type("xyz")
    assert tab.locator(".cm-content").inner_text() == before
    assert tab.locator(".cm-content").get_attribute("aria-readonly") == "true"  # a caret for F12, no edits
    # Highlighted as Python (the line holds several highlighted tokens; CodeMirror parses in the background).
    tab.locator(".cm-line", has_text="def dumps(").first.locator("span").nth(1).wait_for(timeout=10_000)
    _shot(page, "29-library-read-only")
    page.keyboard.press("Alt+ArrowLeft")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('export.py')", timeout=10_000)
    # The panel's card opens the same read-only tab (it used to try the file browser).
    page.locator(f".lm-DockPanel-tabBar .lm-TabBar-tab:has-text('{title}') .lm-TabBar-tabCloseIcon").click()
    _put_cursor(page, _editor_line(page, "return json.dumps("), 14)  # inside `dumps` (Home goes to `return`)
    page.keyboard.press("Control+Shift+Y")
    page.wait_for_selector(".jp-CodeTrace-card h3:has-text('dumps')", timeout=20_000)
    link = page.locator(".jp-CodeTrace-card a").first
    assert "stdlib 3.11" in link.inner_text(), link.inner_text()
    link.click()
    _flashed(page, "def dumps(", title)


def step_the_hover_card_on_a_library_name_shows_its_docs(page):
    _open_path(page, "fixtures/demo/inventory/export.py")
    x, y = _word_centre(page, "return json.dumps(", "dumps")
    page.mouse.move(x, y)
    card = page.locator(".jp-CodeTrace-hover[role=tooltip]")
    card.wait_for(timeout=10_000)
    text = card.inner_text()
    assert "json/__init__.py" in text and "stdlib" in text, text
    assert "Serialize" in text and "JSON formatted" in text, text   # the first lines of its docstring
    _shot(page, "30-hover-library")
    page.mouse.move(x, y + 200)
    card.wait_for(state="detached", timeout=5_000)


def step_an_unsaved_new_function_is_found_by_ctrl_click(page):
    """Typed, not saved: Ctrl-click on the call of a function that exists only in the editor
    lands on it (the editor's text goes with the request); the file on disk is untouched."""
    _open_path(page, "fixtures/demo/inventory/export.py")
    export = WORK["root"] / "inventory" / "export.py"
    on_disk = export.read_text(encoding="utf-8")
    editor = page.locator(".jp-FileEditor:visible .cm-content")
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n\ndef archive_orders(orders):\n    return dump_order(orders)\n\n\nRESULT = archive_orders([])")
    page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current.jp-mod-dirty", timeout=5_000)
    _modifier_click(page, "RESULT = archive_orders([])", "archive_orders")
    _flashed(page, "def archive_orders(orders):", "export.py")
    _shot(page, "31-unsaved-ctrl-click")
    assert export.read_text(encoding="utf-8") == on_disk


def step_an_unsaved_notebook_cell_is_navigated(page):
    """Two new cells, not saved: Ctrl-click on the call in the last lands on the definition in
    the cell above it (the notebook's cells go with the request)."""
    _open_path(page, "fixtures/demo/notebooks/explore.ipynb")
    page.wait_for_timeout(500)
    page.locator(".jp-Notebook:visible .jp-Cell").last.locator(".cm-content").click()
    for source in ("def unsaved_helper(sku):\n    return sku.upper()", "unsaved_helper('kb-1')"):
        page.keyboard.press("Escape")
        page.keyboard.press("b")           # a new cell below, then edit it
        page.keyboard.press("Enter")
        page.keyboard.type(source)
    cells = page.locator(".jp-Notebook:visible .jp-Cell")   # not the other notebook tabs' cells
    count = cells.count()
    _modifier_click(page, "unsaved_helper('kb-1')", "unsaved_helper")
    flash = page.locator(".jp-Notebook:visible .jp-Cell .cm-line.jp-CodeTrace-flash").first
    flash.wait_for(timeout=20_000)
    assert "def unsaved_helper(" in flash.inner_text()
    assert cells.nth(count - 2).locator(".jp-CodeTrace-flash").count() == 1, "not the new cell above"
    _shot(page, "32-unsaved-notebook-cell")


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


# Times each Ctrl-click in the page: from its mousedown to the frame after the highlighted line
# holding `window.__ctExpect` is in the page (CodeMirror scrolls in its measure phase); the times
# collect in `window.__ctLatency`. Shared with bench/editor_latency.py.
LATENCY_OBSERVER = """() => {
    window.__ctLatency = [];
    window.addEventListener('mousedown', e => { if (e.ctrlKey) window.__ctClick = performance.now(); }, true);
    const landed = node => node.nodeType === 1 && [node, ...node.querySelectorAll('.cm-line')].some(line =>
        line.matches('.cm-line.jp-CodeTrace-flash') && line.textContent.includes(window.__ctExpect) && line.checkVisibility());
    new MutationObserver(records => {
        if (window.__ctClick === undefined) return;
        if (!records.some(r => r.type === 'attributes' ? landed(r.target) : [...r.addedNodes].some(landed))) return;
        const start = window.__ctClick;
        window.__ctClick = undefined;
        // Revealed = the frame after the highlighted line is in the page (CodeMirror scrolls in its measure phase).
        requestAnimationFrame(() => requestAnimationFrame(() => window.__ctLatency.push(performance.now() - start)));
    }).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
}"""


def step_click_to_revealed_latency_over_50_clicks(page):
    """performance.now() in the page from the Ctrl-click's mousedown to the target line highlighted
    in the DOM (the reveal's own paint is not included); an answer is never reused for a click."""
    _open_path(page, "fixtures/demo/inventory/service.py")
    page.evaluate(LATENCY_OBSERVER)
    targets = [("order.total_cents = compute_total(", "compute_total", "pricing.py", "def compute_total("),
               ("def place_order(self, order: Order)", "Order", "models.py", "class Order"),
               ("publish_low_stock(sku, left)", "publish_low_stock", "events.py", "def publish_low_stock(")]
    for i in range(50):
        text, word, tab, landing = targets[i % len(targets)]
        page.evaluate("expect => { window.__ctExpect = expect; }", landing)
        _modifier_click(page, text, word)
        page.wait_for_function(f"window.__ctLatency.length === {i + 1}", timeout=20_000)
        page.wait_for_selector(f".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('{tab}')")
        page.keyboard.press("Alt+ArrowLeft")
        page.wait_for_selector(".lm-DockPanel-tabBar .lm-mod-current .lm-TabBar-tabLabel:text-is('service.py')")
    times = page.evaluate("window.__ctLatency")
    LATENCY.update(clicks=len(times), p50_ms=round(_percentile(times, 50), 1), p95_ms=round(_percentile(times, 95), 1),
                   max_ms=round(max(times), 1), first_ms=round(times[0], 1))
    (SHOTS / "navigation-latency.json").write_text(json.dumps({**LATENCY, "samples_ms": [round(t, 1) for t in times]}, indent=1))
    print("latency click -> target line revealed:", json.dumps(LATENCY), flush=True)
    assert len(times) == 50 and LATENCY["p95_ms"] < 1500, LATENCY


STEPS = [step_search_open_definition_references_and_call_tree, step_a_call_tree_name_expands_and_its_link_opens,
         step_a_reference_opens_the_editor_at_its_line,
         step_the_shortcut_opens_the_panel_from_the_editor, step_a_second_pick_after_a_tall_card,
         step_paths_diagram, step_the_panel_fits_its_width_takes_focus_and_speaks_aria,
         step_trace_symbol_under_cursor_in_a_notebook_cell, step_not_found_shows_clickable_suggestions,
         step_the_context_menu_traces_the_right_clicked_word_not_the_caret,
         step_hide_tests_knows_test_folders_and_holds_between_symbols,
         step_a_search_while_indexing_asks_again_by_itself,
         step_the_tutorials_are_beside_the_demo_and_outside_it_is_said,
         step_the_path_diagram_fits_zooms_pans_and_follows_the_dark_theme,
         step_a_docstring_keeps_its_paragraphs_code_and_lists,
         step_long_lists_show_a_page_and_more_on_request,
         step_an_unsaved_editor_is_said_and_save_and_trace_works,
         step_ctrl_click_in_a_python_file_opens_the_definition,
         step_alt_left_returns_and_f12_goes_again,
         step_ctrl_click_in_a_notebook_cell_to_a_module_and_to_another_cell,
         step_ctrl_click_in_typescript_and_cpp,
         step_several_candidates_offer_a_chooser,
         step_go_to_declaration_and_type_definition_from_the_menus,
         step_shift_f12_shows_reference_rows,
         step_the_hover_card_appears_and_disappears,
         step_ctrl_click_on_json_dumps_opens_the_library_read_only,
         step_click_to_revealed_latency_over_50_clicks,
         step_the_hover_card_on_a_library_name_shows_its_docs,
         step_an_unsaved_new_function_is_found_by_ctrl_click,
         step_an_unsaved_notebook_cell_is_navigated]


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="codetrace-e2e-"))
    # The layout `make lab` serves (scripts/lab.sh): JupyterLab on a checkout with its tutorials
    # in notebooks/, the panel on fixtures/demo inside it.
    checkout = work / "checkout"
    root = checkout / "fixtures" / "demo"
    WORK["root"] = root
    shutil.copytree(REPO / "fixtures" / "demo", root)
    (checkout / "notebooks").mkdir()
    (checkout / "notebooks" / "tutorial.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
                   "source": ["total = round_money(3)"]}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    (root / "client" / "test").mkdir()
    (root / "client" / "test" / "checkout_helpers.ts").write_text(
        "import { checkout, demoClient } from '../src/checkout';\n\n"
        "export function checkedOut(): Promise<string> {\n  return checkout(demoClient(), 'kb-1');\n}\n")
    _write_generated_fixtures(root)
    (root / "inventory" / "export.py").write_text(EXPORT)
    for name, text in (("geo_a.py", GEO_A), ("geo_b.py", GEO_B), ("geo_use.py", GEO_USE)):
        (root / "inventory" / name).write_text(text)
    port, token = _free_port(), "e2e-token"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(work / "config"), "JUPYTER_RUNTIME_DIR": str(work / "runtime"),
           "CODETRACE_CACHE_DIR": str(work / "cache")}
    log = (work / "lab.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={checkout}", f"--Codetrace.root={root}",
         f"--LabApp.workspaces_dir={work / 'workspaces'}", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "codetrace" in m.text.lower() else None)
            # Every error the page reports goes to stderr, which the pytest wrapper shows on failure.
            page.on("console", lambda m: print("console:", m.text, file=sys.stderr) if m.type == "error" else None)
            page.on("pageerror", lambda e: print("pageerror:", e, file=sys.stderr))
            page.goto(f"{base}/lab?token={token}")
            page.wait_for_selector("#jp-main-dock-panel", timeout=60_000)
            # JupyterLab opens its Launcher a moment later: steps that count tabs must not see it come.
            page.wait_for_selector(".lm-DockPanel-tabBar .lm-TabBar-tab", timeout=30_000)
            wanted = set(sys.argv[1:])
            for step in STEPS:
                if wanted and step.__name__[5:] not in wanted:
                    continue
                try:
                    step(page)
                except Exception:
                    _shot(page, f"failed-{step.__name__[5:]}")  # what the page showed when it failed
                    raise
                print("ok", step.__name__[5:], flush=True)
            assert not errors, errors
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
