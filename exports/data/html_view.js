/* paperkg view: draws the graph held in #paperkg-data with vis-network.
 * Every string from the data goes through textContent, option.value or canvas text;
 * nothing from the data is parsed as HTML. window.paperkg exposes the network for tests. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("paperkg-data").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var big = data.nodes.length > 1500;

  document.getElementById("title").textContent = data.title;
  if (data.note) {
    var note = document.getElementById("note");
    note.textContent = data.note;
    note.hidden = false;
  }
  document.getElementById("counts").textContent =
    data.nodes.length.toLocaleString("en") + " nodes, " + data.edges.length.toLocaleString("en") +
    " edges drawn; size by " + data.size_by + ".";
  document.getElementById("legend-help").textContent =
    "Untick a type to hide it. Hover a node or edge for details; scroll to zoom.";

  function darker(hex) {
    var n = parseInt(hex.slice(1), 16);
    var r = Math.round(((n >> 16) & 255) * 0.7), g = Math.round(((n >> 8) & 255) * 0.7), b = Math.round((n & 255) * 0.7);
    return "#" + ((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1);
  }

  var groups = {};
  data.types.forEach(function (t) {
    groups[t.type] = {
      shape: t.shape,
      color: { background: t.color, border: darker(t.color),
               highlight: { background: t.color, border: "#111" }, hover: { background: t.color, border: "#111" } }
    };
  });

  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var options = {
    groups: groups,
    physics: { enabled: false },
    layout: { improvedLayout: false },
    interaction: { hover: true, tooltipDelay: 120, hideEdgesOnDrag: big, hideEdgesOnZoom: big },
    nodes: { borderWidth: 1, font: { size: 14, color: "#222", strokeWidth: 3, strokeColor: "#fff" },
             scaling: { label: { drawThreshold: 9 } } },
    edges: { smooth: false, selectionWidth: 2,
             color: { color: "#8a96a3", highlight: "#222", hover: "#444", opacity: 0.5 },
             arrows: { to: { scaleFactor: 0.45 } } }
  };
  var container = document.getElementById("network");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, options);
  network.once("afterDrawing", function () {
    // vis-network fits the view before it has measured the labels; fit again with them, so
    // no label of a node at the edge starts cut off.
    network.fit({ animation: false });
    window.paperkgDrawn = performance.now();
    document.body.setAttribute("data-drawn", "1");
  });

  // Legend doubling as the type filter.
  var byType = {};
  data.nodes.forEach(function (n) { (byType[n.group] = byType[n.group] || []).push(n.id); });
  var boxes = {};

  function swatch(t) {
    var svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("width", "16"); svg.setAttribute("height", "16"); svg.setAttribute("viewBox", "0 0 16 16");
    var shape;
    var pts = { diamond: "8,1 15,8 8,15 1,8", triangle: "8,1 15,14 1,14", triangleDown: "1,2 15,2 8,15",
                hexagon: "4,1.5 12,1.5 15.5,8 12,14.5 4,14.5 0.5,8",
                star: "8,1 10,6 15.5,6 11,9.5 12.8,15 8,11.6 3.2,15 5,9.5 0.5,6 6,6" }[t.shape];
    if (pts) { shape = document.createElementNS(SVGNS, "polygon"); shape.setAttribute("points", pts); }
    else if (t.shape === "square") {
      shape = document.createElementNS(SVGNS, "rect");
      shape.setAttribute("x", "2"); shape.setAttribute("y", "2"); shape.setAttribute("width", "12"); shape.setAttribute("height", "12");
    } else {
      shape = document.createElementNS(SVGNS, "circle");
      shape.setAttribute("cx", "8"); shape.setAttribute("cy", "8"); shape.setAttribute("r", "6.5");
    }
    shape.setAttribute("fill", t.color); shape.setAttribute("stroke", darker(t.color));
    svg.appendChild(shape);
    return svg;
  }

  function setTypeVisible(type, visible) {
    var ids = byType[type] || [];
    nodes.update(ids.map(function (id) { return { id: id, hidden: !visible }; }));
    if (boxes[type]) { boxes[type].checked = visible; }
  }

  var list = document.getElementById("legend-items");
  data.types.forEach(function (t) {
    var li = document.createElement("li");
    var label = document.createElement("label");
    var box = document.createElement("input");
    box.type = "checkbox"; box.checked = true; box.value = t.type;
    box.setAttribute("data-type", t.type);
    box.addEventListener("change", function () { setTypeVisible(t.type, box.checked); });
    boxes[t.type] = box;
    var text = document.createElement("span");
    text.textContent = t.name + " (" + t.count.toLocaleString("en") + ")";
    label.appendChild(box); label.appendChild(swatch(t)); label.appendChild(text);
    li.appendChild(label);
    list.appendChild(li);
  });

  // Search: exact label, then prefix, then substring of the label, then of the tooltip.
  var datalist = document.getElementById("search-names");
  var seen = {};
  data.nodes.forEach(function (n) {
    if (seen[n.label]) { return; }
    seen[n.label] = true;
    var opt = document.createElement("option");
    opt.value = n.label;
    datalist.appendChild(opt);
  });
  var status = document.getElementById("search-status");

  function findNodes(query) {
    var q = query.trim().toLowerCase();
    if (!q) { return []; }
    var tests = [
      function (n) { return n.label.toLowerCase() === q || n.id.toLowerCase() === q; },
      function (n) { return n.label.toLowerCase().indexOf(q) === 0; },
      function (n) { return n.label.toLowerCase().indexOf(q) >= 0; },
      function (n) { return n.title.toLowerCase().indexOf(q) >= 0; }
    ];
    for (var i = 0; i < tests.length; i++) {
      var hits = data.nodes.filter(tests[i]);
      if (hits.length) { return hits; }
    }
    return [];
  }

  function focusNode(id) {
    var n = nodes.get(id);
    if (!n) { return false; }
    if (n.hidden) { setTypeVisible(n.group, true); }
    network.selectNodes([id]);
    network.focus(id, { scale: Math.max(network.getScale(), 1.0), animation: false });
    return true;
  }

  function search(query) {
    var hits = findNodes(query);
    if (!hits.length) {
      status.textContent = "No node matches \u201c" + query + "\u201d";
      return null;
    }
    focusNode(hits[0].id);
    status.textContent = "Found: " + hits[0].label + (hits.length > 1 ? " (1 of " + hits.length + " matches)" : "");
    return hits[0].id;
  }

  document.getElementById("search-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    search(document.getElementById("search").value);
  });

  if (data.focus) {
    network.once("afterDrawing", function () { network.selectNodes([data.focus]); });
  }

  window.paperkg = { network: network, nodes: nodes, edges: edges, data: data,
                     search: search, focusNode: focusNode, setTypeVisible: setTypeVisible };
})();
