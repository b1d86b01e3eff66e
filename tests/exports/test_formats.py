"""GraphML, GEXF, node-link JSON, Neo4j CSV and VOSviewer JSON: write, read back, compare."""

from __future__ import annotations

import csv
import json

import networkx as nx
import numpy as np
import pytest

from export_graphs import INJECTIONS, tiny_graph
from exports.neo4j import ARRAY_DELIMITER, read_neo4j, to_neo4j, write_neo4j
from exports.networkx_formats import (JSON_KEYS, read_gexf, read_graphml, read_json, scalar_graph,
                                      to_json, write_gexf, write_graphml, write_json)
from exports.vosviewer import read_vosviewer, to_vosviewer_data, write_vosviewer
from kg.errors import InputError


def _odd_graph() -> nx.MultiDiGraph:
    """tiny_graph plus values the XML formats cannot hold directly."""
    G = tiny_graph()
    G.graph["options"] = {"top_k": 5}
    G.nodes["paper:h:p1"]["pagerank"] = np.float64(0.25)
    G.nodes["paper:h:p2"]["pagerank"] = 1  # int beside float: written as float
    G.nodes["author:a:ada"]["tags"] = {"b", "a"}  # a set
    G.add_edge("paper:h:p1", "paper:h:p2", key="shares", undirected=True, weight=0.5, shared=[])
    return G


def _expected_nodes(G, keep_none=False):
    return {n: {k: v for k, v in d.items() if keep_none or v is not None} for n, d in G.nodes(data=True)}


def _same(a, b):
    if isinstance(a, set):
        a = sorted(a)
    if isinstance(a, (int, float)) and not isinstance(a, bool) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return a == b


def _assert_round_trip(G, H, *, keep_none=False):
    assert isinstance(H, nx.MultiDiGraph)
    assert set(H.edges(keys=True)) == set(G.edges(keys=True))  # keys (edge types) preserved
    exp = _expected_nodes(G, keep_none)
    assert set(H) == set(exp)
    for n, d in exp.items():
        assert set(H.nodes[n]) == set(d), n
        for k, v in d.items():
            assert _same(v, H.nodes[n][k]), (n, k, v, H.nodes[n][k])
    for u, v, k, d in G.edges(keys=True, data=True):
        got = H.edges[u, v, k]
        for name, value in d.items():
            if value is None and not keep_none:
                assert name not in got
            else:
                assert _same(value, got[name]), (u, v, k, name)
    assert H.nodes["paper:h:p1"]["type"] == "paper"
    assert H.edges["author:a:alan", "author:a:grace", "coauthor"]["weight"] == 1


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "json"])
def test_networkx_formats_round_trip(tmp_path, fmt):
    G = _odd_graph()
    write, read = {"graphml": (write_graphml, read_graphml), "gexf": (write_gexf, read_gexf),
                   "json": (write_json, read_json)}[fmt]
    path = write(G, tmp_path / f"g.{fmt}")
    H = read(path)
    _assert_round_trip(G, H, keep_none=fmt == "json")  # JSON keeps None as null
    assert H.graph["schema_version"] == "1"
    assert H.graph["options"] == {"top_k": 5}
    assert H.edges["paper:h:p3", "paper:h:p2", "cites"]["source"] == "in_text"
    assert H.edges["paper:h:p1", "method:graphformer", "proposes"]["evidence"][0]["rule"] == "propose_np"
    assert H.nodes["paper:h:p4"]["abstract"] == G.nodes["paper:h:p4"]["abstract"]  # hostile text intact


def test_networkx_reads_files_natively_with_types_and_weights(tmp_path):
    G = tiny_graph()
    g = nx.read_graphml(write_graphml(G, tmp_path / "g.graphml"), force_multigraph=True, edge_key_type=str)
    assert g.nodes["author:a:ada"]["type"] == "author"
    assert g.edges["paper:h:p2", "paper:h:p3", "shares"]["weight"] == 2
    x = nx.read_gexf(write_gexf(G, tmp_path / "g.gexf"))
    assert x.nodes["author:a:ada"]["type"] == "author" and x.nodes["author:a:ada"]["label"] == "Ada Lovelace"
    assert any(d.get("weight") == 2.0 for *_, d in x.edges(data=True))


def test_scalar_rule_none_omitted_lists_json_mixed_types_widened():
    H = scalar_graph(_odd_graph())
    assert "title" not in H.nodes["paper:h:p3"]  # None omitted
    assert H.nodes["paper:h:p1"]["authors"] == '["Ada Lovelace", "Alan Turing"]'
    assert H.nodes["author:a:ada"]["tags"] == '["a", "b"]'
    assert isinstance(H.nodes["paper:h:p2"]["pagerank"], float)
    assert json.loads(H.graph["paperkg_json"])["edge"] == ["evidence", "papers", "shared"]
    G = nx.MultiDiGraph()
    G.add_node("a", year=2020)
    G.add_node("b", year="n.d.")
    G.add_node("c", flag=True, obj=object())
    H = scalar_graph(G)
    assert H.nodes["a"]["year"] == "2020" and H.nodes["b"]["year"] == "n.d."
    assert isinstance(H.nodes["c"]["obj"], str)


def test_json_key_set_is_pinned(tmp_path):
    data = json.loads(to_json(tiny_graph()))
    assert set(data) == {"directed", "multigraph", "graph", "nodes", "edges"}
    assert JSON_KEYS == {"nodes": "nodes", "edges": "edges", "name": "id", "source": "from", "target": "to", "key": "key"}
    edge = next(e for e in data["edges"] if e["key"] == "cites" and e["from"] == "paper:h:p3")
    assert edge["to"] == "paper:h:p2" and edge["source"] == "in_text"
    assert data["nodes"][0]["id"] == "paper:h:p1"
    G = nx.MultiDiGraph()
    G.add_node("n", id="clash")
    G.add_edge("n", "n", key="k", to="clash")
    H = read_json(write_json(G, tmp_path / "c.json"))
    assert H.nodes["n"]["attr_id"] == "clash" and H.edges["n", "n", "k"]["attr_to"] == "clash"


def test_unreadable_inputs_are_input_errors(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<graphml><oops", encoding="utf-8")
    for read in (read_graphml, read_gexf, read_json):
        with pytest.raises(InputError, match="bad.xml"):
            read(bad)


def test_neo4j_headers_and_round_trip(tmp_path):
    G = _odd_graph()
    paths = write_neo4j(G, tmp_path / "neo")
    names = {p.name for p in paths}
    assert {"nodes_paper.csv", "nodes_author.csv", "rels_authored.csv", "rels_cites.csv", "import.sh"} <= names
    with open(tmp_path / "neo" / "nodes_paper.csv", encoding="utf-8", newline="") as fh:
        header = next(csv.reader(fh))
    assert header[:2] == ["id:ID", ":LABEL"]
    assert {"year:int", "authors:string[]", "authors_truncated:boolean", "pagerank:double", "title:string"} <= set(header)
    with open(tmp_path / "neo" / "rels_authored.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == [":START_ID", ":END_ID", ":TYPE", "position:int"]
    assert ["author:a:ada", "paper:h:p1", "AUTHORED", "0"] in rows
    with open(tmp_path / "neo" / "rels_shares.csv", encoding="utf-8", newline="") as fh:
        header = next(csv.reader(fh))
    assert header == [":START_ID", ":END_ID", ":TYPE", "shared:string", "undirected:boolean", "weight:double"]
    script = (tmp_path / "neo" / "import.sh").read_text(encoding="utf-8")
    assert f"--array-delimiter={ARRAY_DELIMITER}" in script and "--nodes=nodes_paper.csv" in script
    H = read_neo4j(tmp_path / "neo")
    # empty lists are empty cells: absent after the round trip, as in Neo4j
    G2 = G.copy()
    for _, d in [*G2.nodes(data=True), *((None, d) for *_, d in G2.edges(keys=True, data=True))]:
        for k in [k for k, v in d.items() if isinstance(v, (list, set)) and not v]:
            del d[k]
    _assert_round_trip(G2, H)
    assert H.nodes["author:a:x"]["name"] == INJECTIONS[0]


def test_neo4j_delimiter_inside_list_items_falls_back_to_json(tmp_path):
    G = nx.MultiDiGraph()
    G.add_node("author:1", type="author", aliases=["Lee; Ann", "A. Lee"])
    files = to_neo4j(G)
    assert "aliases:string" in files["nodes_author.csv"].splitlines()[0].split(",")
    write_neo4j(G, tmp_path / "n")
    assert read_neo4j(tmp_path / "n").nodes["author:1"]["aliases"] == ["Lee; Ann", "A. Lee"]


def test_vosviewer_map_and_network(tmp_path):
    G = tiny_graph()
    for n in G:
        if G.nodes[n]["type"] in ("paper", "author"):
            G.nodes[n]["community"] = 0 if n in ("paper:h:p1", "author:a:ada", "author:a:alan") else 1
    data = to_vosviewer_data(G)
    ids = {n: i for i, n in enumerate(G, start=1)}  # items are numbered in node order
    assert [i["id"] for i in data["network"]["items"]] == list(ids.values())
    items = {n: data["network"]["items"][i - 1] for n, i in ids.items()}
    assert items["paper:h:p3"]["label"] == "SparseMix" and items["method:sparsemix"]["label"] == "SparseMix"
    assert items["author:a:ada"]["cluster"] == 1 and items["author:a:grace"]["cluster"] == 2
    assert items["method:graphformer"]["cluster"] == 1  # joins its paper's cluster
    links = {(l["source_id"], l["target_id"]): l["strength"] for l in data["network"]["links"]}
    a, b = sorted((ids["paper:h:p2"], ids["paper:h:p3"]))
    assert links[(a, b)] == 3  # cites (1) + shares (weight 2) merged into one link
    assert all(s < t for s, t in links)
    alan = items["author:a:alan"]
    assert alan["weights"]["Documents"] == 2 and alan["scores"]["Avg. pub. year"] == 2023.5
    assert alan["weights"]["Links"] == 4
    hostile = items["author:a:x"]
    assert "<img" not in hostile["description"] and "&lt;img" in hostile["description"]
    path = write_vosviewer(G, tmp_path / "v.json", types=["author"])
    R = read_vosviewer(path)
    assert R.number_of_nodes() == 4 and R.number_of_edges() == 2
    assert all(-1.0001 <= d["x"] <= 1.0001 for _, d in R.nodes(data=True))
