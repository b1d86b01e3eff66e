"""End to end: the bundled demo corpus through readers, extractors, the graph builder and
metrics, written as a site and opened in headless Chromium. One demo abstract quotes
``<img src=x onerror=alert(1)>``: it must show as text and run nothing."""

from __future__ import annotations

import pytest

from browser import open_page
from exports.html import write_site
from extractors.pipeline import extract_records
from kg.graph import build_graph
from kg.metrics import add_metrics
from kg.readers import read_file

pytestmark = pytest.mark.browser
PAYLOAD = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def demo_graph(demo_dir):
    files = sorted(demo_dir.glob("*.txt"))
    assert files, f"no demo corpus in {demo_dir}"
    records = extract_records([r for f in files for r in read_file(f)])
    G = build_graph(records)
    add_metrics(G)
    return G


def test_demo_site_overview_in_browser(browser, demo_graph, tmp_path):
    G = demo_graph
    hostile = [n for n, d in G.nodes(data=True) if PAYLOAD in (d.get("abstract") or "")]
    assert len(hostile) == 1, "the demo corpus should hold exactly one abstract with the payload"
    paths = write_site(G, tmp_path / "html", top=3)
    overview = tmp_path / "html" / "overview.html"
    page, log = open_page(browser, overview)
    try:
        assert page.evaluate("window.paperkg.nodes.length") == G.number_of_nodes()
        assert page.evaluate("window.paperkg.edges.length") == G.number_of_edges()
        title = page.evaluate("(id) => window.paperkg.nodes.get(id).title", hostile[0])
        assert PAYLOAD in title  # the tooltip's abstract excerpt reaches the payload
        page.evaluate("(id) => window.paperkg.network.focus(id, {scale: 2, animation: false})", hostile[0])
        box = page.evaluate(
            """(id) => { const d = window.paperkg.network.canvasToDOM(window.paperkg.network.getPosition(id));
                         const r = document.getElementById('network').getBoundingClientRect();
                         return {x: r.left + d.x, y: r.top + d.y}; }""", hostile[0])
        page.mouse.move(box["x"] - 30, box["y"] - 30)
        page.mouse.move(box["x"], box["y"], steps=3)
        tip = page.locator("div.vis-tooltip")
        tip.wait_for(state="visible", timeout=5000)
        assert set(tip.evaluate("el => [...el.querySelectorAll('*')].map(e => e.tagName)")) <= {"BR"}
        assert PAYLOAD in tip.inner_text()
        assert page.evaluate("document.querySelectorAll('img').length") == 0
        page.wait_for_timeout(300)
        assert log.dialogs == [] and log.console_errors == [] and log.page_errors == [] and log.external == []
    finally:
        page.close()
    for view in [p for p in paths if p.parent.name == "views"][:3]:
        page, log = open_page(browser, view)
        try:
            assert page.evaluate("window.paperkg.network.getSelectedNodes().length") == 1
            assert log.dialogs == [] and log.console_errors == [] and log.external == []
        finally:
            page.close()
