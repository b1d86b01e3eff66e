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
