"""Views are not cramped: in headless Chromium, no two nodes' boxes overlap once a view is drawn.

A node's box is vis-network's own ``body.nodes[id].shape.boundingBox`` (the shape and the label
under it, as the canvas measured it), read after the first draw; physics is off, so that
drawing is the settled one. The views are the ones a user gets: ``kg build`` of the seeds corpus
and of the demo corpus, then ``kg view`` (the overview, and three authors at depth 1 and 2).

Before the label-aware layout (commit df3fca2's parent) the same measure gave, for the seeds'
focused views at depth 1 / 2: Julia Kempe 48 / 72 overlapping label boxes (18 / 6 shapes),
Renzhe Xu 75 / 118, Yunxin Mao 73 / 99; the seeds overview 717 (65 shapes) and the demo
overview 542 (81 shapes).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner

from browser import open_page
from export_graphs import synthetic_graph
from kg.cli import cli
from kg.workspace import Workspace

pytestmark = pytest.mark.browser

SEED_AUTHORS = ["Julia Kempe", "Renzhe Xu", "Yunxin Mao"]

#: Boxes of every node (vis-network's, label included) and of its shape alone, in canvas units.
_BOXES_JS = """() => {
  const net = window.paperkg.network;
  return window.paperkg.data.nodes.map(d => {
    const n = net.body.nodes[d.id], b = n.shape.boundingBox;
    return {id: d.id, x: n.x, y: n.y, w: n.shape.width, h: n.shape.height,
            label: n.labelModule.size.width, box: [b.left, b.top, b.right, b.bottom]};
  });
}"""


def overlapping_pairs(boxes: list[list[float]], tol: float = 0.5) -> int:
    """Pairs of ``[left, top, right, bottom]`` boxes that share more than ``tol`` pixels both ways."""
    count = 0
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if min(a[2], b[2]) - max(a[0], b[0]) > tol and min(a[3], b[3]) - max(a[1], b[1]) > tol:
                count += 1
    return count


def measure(page: Any) -> dict[str, Any]:
    """Overlapping pairs of a drawn view: ``shape`` (node shapes) and ``label`` (shape and label)."""
    nodes = page.evaluate(_BOXES_JS)
    shapes = [[n["x"] - n["w"] / 2, n["y"] - n["h"] / 2, n["x"] + n["w"] / 2, n["y"] + n["h"] / 2] for n in nodes]
    return {"nodes": nodes, "shape": overlapping_pairs(shapes), "label": overlapping_pairs([n["box"] for n in nodes]),
            "scale": page.evaluate("window.paperkg.network.getScale()")}


def _run(*args: str) -> None:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code == 0, r.output


@pytest.fixture(scope="module")
def seeds_out(seeds_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seeds") / "out"
    _run("build", str(seeds_dir), "-o", str(out), "-q", "--no-rdf", "--no-html")
    return out


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "out"
    _run("build", "--demo", "-o", str(out), "-q", "--no-rdf", "--no-html")
    return out


def _view(out: Path, name: str, *args: str) -> Path:
    path = out.parent / f"{name}.html"
    _run("view", str(out), *args, "-o", str(path))
    return path


def _check_uncramped(browser: Any, path: Path) -> dict[str, Any]:
    page, log = open_page(browser, path)
    try:
        assert page.evaluate("window.paperkg.network.physics.options.enabled") is False
        page.wait_for_timeout(200)
        m = measure(page)
        # settled: what is drawn is where the page put the nodes, nothing moved after the first draw
        at = {d["id"]: (d["x"], d["y"]) for d in page.evaluate("window.paperkg.data.nodes")}
        assert all(abs(n["x"] - at[n["id"]][0]) < 0.01 and abs(n["y"] - at[n["id"]][1]) < 0.01 for n in m["nodes"])
        assert not log.page_errors and not log.console_errors and not log.external
    finally:
        page.close()
    assert m["shape"] == 0, f"{path.name}: {m['shape']} pairs of node shapes overlap"
    assert m["label"] == 0, f"{path.name}: {m['label']} pairs of nodes overlap, labels included"
    return m


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("author", SEED_AUTHORS)
def test_seeds_focused_views_have_no_overlaps(browser, seeds_out, author, depth):
    path = _view(seeds_out, f"{author.split()[-1]}-{depth}", "--author", author, "--depth", str(depth))
    m = _check_uncramped(browser, path)
    assert len(m["nodes"]) >= 10  # a real neighbourhood, not a trivial page
    # the labels take real room (the measure is not of bare dots) ...
    assert sum(n["box"][2] - n["box"][0] > n["w"] + 1 for n in m["nodes"]) >= len(m["nodes"]) // 2
    # ... and the view still opens at a zoom where most labels are drawn (not spread to specks)
    if depth == 1:
        assert m["scale"] >= 0.5


def test_seeds_overview_has_no_overlaps(browser, seeds_out):
    _check_uncramped(browser, _view(seeds_out, "seeds-overview"))


def test_demo_overview_and_focused_view_have_no_overlaps(browser, demo_out):
    _check_uncramped(browser, _view(demo_out, "demo-overview"))
    G = Workspace(demo_out).load_graph()
    top = max((n for n, d in G.nodes(data=True) if str(d.get("type")) in ("author", "NodeType.AUTHOR")),
              key=lambda n: (G.degree(n), str(n)))
    _check_uncramped(browser, _view(demo_out, "demo-top-author", "--author", G.nodes[top]["name"], "--depth", "2"))


def test_label_width_estimate_covers_the_drawn_labels(browser, seeds_out):
    """The layout's label widths (Arial metrics, +10% for bold) are at least what Chromium draws."""
    from exports.html import text_width

    path = _view(seeds_out, "xu-widths", "--author", "Renzhe Xu", "--depth", "2")
    page, _ = open_page(browser, path)
    try:
        nodes = page.evaluate(_BOXES_JS)
        data = {d["id"]: d for d in page.evaluate("window.paperkg.data.nodes")}
    finally:
        page.close()
    short = [(data[n["id"]]["label"], n["label"], text_width(data[n["id"]]["label"], data[n["id"]]["font"]["size"]))
             for n in nodes if n["label"] > text_width(data[n["id"]]["label"], data[n["id"]]["font"]["size"]) + 1]
    assert not short, f"labels drawn wider than the layout allowed: {short[:5]}"


def test_the_measure_sees_overlaps(browser, seeds_out):
    """Two nodes moved onto one spot count as overlapping: the zero counts above can fail."""
    path = _view(seeds_out, "kempe-moved", "--author", "Julia Kempe")
    page, _ = open_page(browser, path)
    try:
        ids = page.evaluate("window.paperkg.data.nodes.slice(0, 3).map(n => n.id)")
        page.evaluate("""(ids) => { const net = window.paperkg.network;
                          const p = net.getPositions([ids[0]])[ids[0]];
                          net.moveNode(ids[1], p.x, p.y); net.moveNode(ids[2], p.x + 5, p.y + 5); net.redraw(); }""", ids)
        m = measure(page)
    finally:
        page.close()
    assert m["shape"] >= 3 and m["label"] >= 3


def test_layout_boxes_do_not_overlap_without_a_browser():
    from exports.html import count_overlaps, layout_positions, node_box

    G = synthetic_graph(1200, seed=3)
    boxes = {n: node_box(8 + i % 20, "label of node " + str(n)[:20], 9 + i % 7) for i, n in enumerate(G)}
    pos = layout_positions(G, seed=1, boxes=boxes)
    assert count_overlaps(pos, boxes) == 0
    # the same points with smaller boxes overlap: the count is not blind
    assert count_overlaps({n: (x / 4, y / 4) for n, (x, y) in pos.items()}, boxes) > 0


def test_small_component_is_drawn_whole():
    """A focused view's nodes of several communities stay one piece, not discs far apart."""
    from exports.html import layout_positions

    G = nx.path_graph(12)
    nx.set_node_attributes(G, {n: n // 4 for n in G}, "community")
    pos = layout_positions(G)
    longest = max(abs(pos[u][0] - pos[v][0]) + abs(pos[u][1] - pos[v][1]) for u, v in G.edges())
    assert longest < 200


_LAYOUT_DIGEST = """
import hashlib, sys
sys.path.insert(0, {here!r})
from export_graphs import synthetic_graph
from exports.html import ego_graph, layout_positions
G = synthetic_graph(400, seed=5)
focus = max(G, key=lambda n: (G.degree(n), str(n)))
for H in (ego_graph(G, focus, depth=2), G):
    pos = layout_positions(H, seed=0)
    print(hashlib.sha256(repr(sorted((str(n), p) for n, p in pos.items())).encode()).hexdigest())
"""


def test_layout_is_the_same_in_every_process():
    """A focused view is a subgraph, which iterates its nodes in set order (it changes with
    PYTHONHASHSEED); the picture must not."""
    import os
    import subprocess
    import sys

    code = _LAYOUT_DIGEST.format(here=str(Path(__file__).resolve().parent))
    out = []
    for hash_seed in ("1", "2", "3"):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert r.returncode == 0, r.stderr
        out.append(r.stdout)
    assert out[0] == out[1] == out[2]


def test_a_node_can_still_be_dragged(browser, seeds_out):
    """Physics stays off: dragging moves the one node, where the user drops it, and it stays."""
    path = _view(seeds_out, "kempe-drag", "--author", "Julia Kempe")
    page, log = open_page(browser, path)
    try:
        node = page.evaluate("window.paperkg.data.nodes.find(n => !n.focus).id")
        start = page.evaluate("""(id) => { const net = window.paperkg.network, p = net.getPositions([id])[id];
                                  const d = net.canvasToDOM(p), r = net.body.container.getBoundingClientRect();
                                  return {x: r.left + d.x, y: r.top + d.y, cx: p.x, cy: p.y}; }""", node)
        others = page.evaluate("(id) => { const p = window.paperkg.network.getPositions(); delete p[id]; return p; }", node)
        page.mouse.move(start["x"], start["y"])
        page.mouse.down()
        page.mouse.move(start["x"] + 60, start["y"] + 40, steps=8)
        page.mouse.up()
        page.wait_for_timeout(300)
        after = page.evaluate("(id) => window.paperkg.network.getPositions([id])[id]", node)
        rest = page.evaluate("(id) => { const p = window.paperkg.network.getPositions(); delete p[id]; return p; }", node)
    finally:
        page.close()
    moved = math.hypot(after["x"] - start["cx"], after["y"] - start["cy"])
    assert moved > 30, f"the node did not follow the mouse: {start} -> {after}"
    assert rest == others  # nothing else moved (no physics pulling the rest along)
    assert not log.page_errors
