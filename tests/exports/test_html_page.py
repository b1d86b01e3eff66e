"""Views opened in real headless Chromium: offline, complete, searchable, filterable, inert."""

from __future__ import annotations

import pytest

from export_graphs import INJECTIONS, synthetic_graph, tiny_graph
from browser import open_page
from exports.html import write_html, write_site

pytestmark = pytest.mark.browser


def test_page_loads_offline_with_every_node_and_edge(browser, tmp_path):
    G = tiny_graph()
    path = write_html(G, tmp_path / "view.html")
    page, log = open_page(browser, path)
    try:
        assert page.evaluate("window.paperkg.nodes.length") == G.number_of_nodes()
        assert page.evaluate("window.paperkg.edges.length") == G.number_of_edges()
        ids = set(page.evaluate("window.paperkg.nodes.getIds()"))
        assert ids == {str(n) for n in G}
        assert log.console_errors == [] and log.page_errors == []
        assert log.external == []
        assert all(u.startswith("file:") or u.startswith("data:") for u in log.requests), log.requests
    finally:
        page.close()


def _hover(page, node_id: str) -> str:
    """Move the mouse onto a node and return the tooltip's text."""
    page.evaluate("(id) => window.paperkg.network.focus(id, {scale: 1.5, animation: false})", node_id)
    box = page.evaluate(
        """(id) => { const d = window.paperkg.network.canvasToDOM(window.paperkg.network.getPosition(id));
                     const r = document.getElementById('network').getBoundingClientRect();
                     return {x: r.left + d.x, y: r.top + d.y}; }""", node_id)
    page.mouse.move(box["x"] - 40, box["y"] - 40)
    page.mouse.move(box["x"], box["y"], steps=4)
    tip = page.locator("div.vis-tooltip")
    tip.wait_for(state="visible", timeout=5000)
    return tip


def test_injections_raise_no_dialog_and_show_as_text(browser, tmp_path):
    G = tiny_graph(with_injections=True)
    path = write_html(G, tmp_path / "hostile.html", title=INJECTIONS[2])
    page, log = open_page(browser, path)
    try:
        tip = _hover(page, "paper:h:p4")
        text = tip.inner_text()
        for s in INJECTIONS:
            assert s in text.replace("\n", " ") or s[:20] in text
        # vis-network sets plain-string tooltips with innerText: newlines become <br>, nothing else
        tags = tip.evaluate("el => [...el.querySelectorAll('*')].map(e => e.tagName)")
        assert set(tags) <= {"BR"}
        # nothing from the data became an element anywhere on the page
        assert page.evaluate("document.querySelectorAll('img, svg[onload], b').length") == 0
        assert page.title() == INJECTIONS[2]
        assert page.locator("#title").inner_text() == INJECTIONS[2]
        # the hostile author name is searchable text and shows in the legend-free datalist as a value
        assert page.evaluate("(s) => window.paperkg.search(s)", INJECTIONS[0]) == "author:a:x"
        assert INJECTIONS[0] in page.locator("#search-status").inner_text()
        page.wait_for_timeout(300)
        assert log.dialogs == []
        assert log.console_errors == [] and log.page_errors == []
    finally:
        page.close()


def test_search_box_focuses_a_named_node(browser, tmp_path):
    path = write_html(tiny_graph(), tmp_path / "view.html")
    page, log = open_page(browser, path)
    try:
        page.fill("#search", "grace hopper")
        page.press("#search", "Enter")
        assert page.evaluate("window.paperkg.network.getSelectedNodes()") == ["author:a:grace"]
        center = page.evaluate("window.paperkg.network.getViewPosition()")
        node = page.evaluate("window.paperkg.network.getPosition('author:a:grace')")
        assert abs(center["x"] - node["x"]) < 1 and abs(center["y"] - node["y"]) < 1
        assert page.locator("#search-status").inner_text() == "Found: Grace Hopper"
        page.fill("#search", "no such thing at all")
        page.click("#search-form button")
        assert page.locator("#search-status").inner_text().startswith("No node matches")
    finally:
        page.close()


def test_type_filter_hides_a_type(browser, tmp_path):
    G = tiny_graph()
    n_authors = sum(1 for _, t in G.nodes(data="type") if t == "author")
    path = write_html(G, tmp_path / "view.html")
    page, log = open_page(browser, path)
    try:
        hidden = "() => window.paperkg.nodes.get({filter: n => n.hidden === true}).map(n => n.group)"
        assert page.evaluate(hidden) == []
        page.uncheck("#legend input[data-type=author]")
        groups = page.evaluate(hidden)
        assert groups == ["author"] * n_authors
        # vis-network really stops drawing them
        drawn = page.evaluate("""() => Object.values(window.paperkg.network.body.nodes)
                                   .filter(n => n.options.group === 'author' && !n.options.hidden).length""")
        assert drawn == 0
        page.check("#legend input[data-type=author]")
        assert page.evaluate(hidden) == []
    finally:
        page.close()


def test_legend_lists_types_with_counts(browser, tmp_path):
    path = write_html(tiny_graph(), tmp_path / "view.html")
    page, _ = open_page(browser, path)
    try:
        items = page.locator("#legend-items li").all_inner_texts()
        assert items == ["Paper (4)", "Author (4)", "Method (3)", "Benchmark (2)", "Concept (1)",
                         "Category (2)", "Cited work (1)"]
    finally:
        page.close()


def test_budget_keeps_central_nodes_and_says_so(browser, tmp_path):
    G = synthetic_graph(400, seed=3)
    path = write_html(G, tmp_path / "big.html", budget=150)
    page, log = open_page(browser, path)
    try:
        assert page.evaluate("window.paperkg.nodes.length") == 150
        assert page.locator("#note").is_visible()
        assert "Showing 150 of 400 nodes" in page.locator("#note").inner_text()
        assert log.console_errors == [] and log.external == []
    finally:
        page.close()


def test_site_index_links_to_views_that_load(browser, tmp_path):
    written = write_site(tiny_graph(), tmp_path / "html", top=2)
    index = tmp_path / "html" / "index.html"
    assert written[-1] == index and (tmp_path / "html" / "overview.html") in written
    page, log = open_page(browser, index, wait_drawn=False)
    try:
        hrefs = page.eval_on_selector_all("a", "els => els.map(a => a.getAttribute('href'))")
        assert hrefs[0] == "overview.html" and len(hrefs) == 1 + 2 + 2 + 2
        assert page.evaluate("document.querySelectorAll('script, img').length") == 0
        page.click("text=Grace Hopper")
        page.wait_for_function("window.paperkgDrawn !== undefined")
        assert page.evaluate("window.paperkg.network.getSelectedNodes()") == ["author:a:grace"]
        assert log.external == [] and log.console_errors == [] and log.dialogs == []
    finally:
        page.close()
