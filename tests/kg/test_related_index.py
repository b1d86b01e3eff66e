"""kg.related_index: the stored related-authors index gives what the graph gives, and a stale
or damaged one is refused with a one-line StaleIndexError."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import numpy as np
import pytest

from kg.build import BuildOptions, build
from kg.errors import NotFoundError, WorkspaceError
from kg.graph import build_graph
from kg.records import Category, Entity, Record
from kg.related import (
    RelatedIndex,
    _index,
    author_scores,
    author_signals,
    coauthor_distances,
    find_author,
    related_authors,
)
from kg.related_index import (
    INDEX_DIR,
    StaleIndexError,
    StoredIndex,
    graph_fingerprint,
    load_related_index,
    workspace_index,
    write_related_index,
)
from kg.schema import EntityType
from kg.workspace import Workspace


def results(source, author, **kw):
    """Everything a query returns, with the unrounded score and components."""
    return [(r.key, r.label, r.score, r.hops, r.reasons, r.components) for r in related_authors(source, author, **kw)]


def assert_same_answers(G, stored, authors):
    assert stored.authors == _index(G).authors
    n = 0
    for a in authors:
        for kw in ({"top": 25}, {"top": 10, "exclude_coauthors": True}, {"top": 10, "exclude_within": 2}):
            expected = results(G, a, **kw)
            assert results(stored, a, **kw) == expected, (a, kw)
            n += len(expected)
    return n


def stored_copy(G, tmp_path) -> StoredIndex:
    folder = tmp_path / INDEX_DIR
    write_related_index(G, folder, key="k")
    return load_related_index(folder, key="k")


@pytest.fixture(scope="module")
def demo(tmp_path_factory, demo_dir):
    out = tmp_path_factory.mktemp("demo")
    build([demo_dir], out, options=BuildOptions(rdf=False, html=False, progress=False))
    return Workspace(out)


@pytest.fixture(scope="module")
def real(tmp_path_factory, shared_data):
    """A real build: 250 ICLR 2024 and 150 ICML 2023 papers (with abstracts), which share authors."""
    out = tmp_path_factory.mktemp("real")
    src = shared_data / "confpapers" / "jsonl"
    rows = []
    for name, n in (("iclr2024.jsonl", 250), ("icml2023.jsonl", 150)):
        with open(src / name, encoding="utf-8") as fh:
            rows += [line for line in itertools.islice(fh, n)]
    path = out / "input.jsonl"
    path.write_text("".join(rows), encoding="utf-8")
    build([path], out / "build", options=BuildOptions(rdf=False, html=False, progress=False))
    return Workspace(out / "build")


def test_build_writes_the_index_for_its_graph(demo):
    meta = json.loads((demo.path / INDEX_DIR / "meta.json").read_text(encoding="utf-8"))
    assert meta["graph"] == graph_fingerprint(demo.graph_path)
    assert meta["bytes"] == sum(p.stat().st_size for p in (demo.path / INDEX_DIR).glob("*.npy"))
    assert "related" in demo.load_summary()["seconds"]


def test_demo_every_author_same_answers(demo):
    G = demo.load_graph()
    stored = load_related_index(demo.path / INDEX_DIR, key=graph_fingerprint(demo.graph_path))
    assert isinstance(stored, StoredIndex) and stored.G is None
    n = assert_same_answers(G, stored, _index(G).authors)
    assert n > 100  # the demo authors do have related authors, with reasons
    some = related_authors(stored, "Ingrid Solheim")
    assert some and all(r.reasons for r in some)


def test_real_build_same_answers(real):
    G = real.load_graph()
    idx = _index(G)
    stored = load_related_index(real.path / INDEX_DIR, key=graph_fingerprint(real.graph_path))
    # the most prolific authors (long reasons, many co-authors) and a random sample
    prolific = sorted(idx.authors, key=lambda a: (-idx.n_papers[idx.pos[a]], a))[:15]
    sample = random.Random(7).sample(idx.authors, 60)
    n = assert_same_answers(G, stored, prolific + sample)
    assert n > 500
    said = {r for a in prolific for x in related_authors(stored, a) for r in x.reasons}
    assert any(r.startswith("both write about ") for r in said)  # paper texts are read back
    assert any(r.startswith("both work on ") for r in said)


def test_real_build_tables_round_trip(real):
    G = real.load_graph()
    idx = RelatedIndex(G)
    stored = load_related_index(real.path / INDEX_DIR)
    for name in ("co", "papers_of", "items_of_author"):
        theirs = getattr(stored, name)
        for a, row in getattr(idx, name).items():
            assert theirs[a] == row and list(theirs[a]) == list(row), (name, a)  # same order too
    for name in ("authors_of", "cats_of_paper", "cites", "cited_by", "papers_in_category", "item_authors"):
        theirs = getattr(stored, name)
        for k, row in getattr(idx, name).items():
            assert theirs[k] == row, (name, k)
    assert stored.idf == idx.idf and stored.names() == idx.names()
    assert stored.df_limit == idx.df_limit
    assert np.array_equal(stored.n_papers, idx.n_papers) and np.array_equal(stored.n_items, idx.n_items)
    a, b = idx.terms(), stored.terms()
    assert list(a.vocab) == list(b.vocab) and len(a.vocab) > 1000
    for x, y in ((a.row_ptr, b.row_ptr), (a.cols, b.cols), (a.vals, b.vals), (a.ptr, b.ptr), (a.who, b.who),
                 (a.val, b.val)):
        assert np.array_equal(x[:], y[:])  # the weights are recomputed from counts, to the same bits
    assert "terms_cnt" in stored.meta["arrays"] and "terms_vals" not in stored.meta["arrays"]
    for i in random.Random(3).sample(range(len(idx.authors)), 40):
        assert np.array_equal(a.cosines(i), b.cosines(i))
        assert np.array_equal(b.cosines(i), bincount_cosines(a, i))
    b._matrix = None
    b._by_term = lambda: None  # as without SciPy
    for i in random.Random(4).sample(range(len(idx.authors)), 10):
        assert np.array_equal(b.cosines(i), bincount_cosines(a, i))
    for p in list(idx.authors_of)[:50]:
        assert stored.paper_text(p) == tuple(t or "" for t in idx.paper_text(p))


def bincount_cosines(terms, i):
    """Cosines as kg.related computed them before the sparse product (``56d06bb``): one
    bincount over the gathered postings of the query's terms."""
    tid, x = terms.row(i)
    if not len(tid):
        return np.zeros(terms.n)
    starts, lens = terms.ptr[tid], terms.ptr[tid + 1] - terms.ptr[tid]
    offsets = np.repeat(starts - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
    gather = offsets + np.arange(int(lens.sum()))
    return np.bincount(terms.who[gather], weights=terms.val[gather] * np.repeat(x, lens), minlength=terms.n)


def test_signals_scores_distances_and_lookup_from_the_stored_index(tmp_path):
    records = [Record("p1", "Spectral hypergraph clustering", None, ("Renzhe Xu", "Yao Shu"), False,
                      Category("Theory", "Game Theory"), 2024,
                      entities=(Entity(EntityType.CONCEPT, "strategic classification", None),)),
               Record("p2", "Hypergraph clustering at scale", None, ("Yao Shu", "José Núñez"), False, None, 2024,
                      references=("p1",)),
               Record("p3", "Strategic classification", None, ("Pat Kim",), False,
                      Category("Theory", "Game Theory"), 2024,
                      entities=(Entity(EntityType.CONCEPT, "strategic classification", None),))]
    records += [Record(f"f{i}", f"Filler topic{i}", None, (f"Filler Person{chr(97 + i)}",), False, None, 2020)
                for i in range(20)]
    G = build_graph(records, max_df=0.2)
    stored = stored_copy(G, tmp_path)
    a = "author:renzhe-xu"
    mine, theirs = author_signals(G, a), author_signals(stored, a)
    assert all(np.array_equal(mine[k], theirs[k]) for k in mine)
    assert author_scores(stored, a) == author_scores(G, a)
    assert coauthor_distances(stored, a) == coauthor_distances(G, a)
    assert find_author(stored, "jose nunez") == "author:jose-nunez"
    with pytest.raises(NotFoundError, match=r"^no author named 'Renzhe Xuu' in the graph; close matches: Renzhe Xu$"):
        related_authors(stored, "Renzhe Xuu")
    assert_same_answers(G, stored, _index(G).authors)


def test_stale_and_damaged_indexes_are_refused(tmp_path):
    G = build_graph([Record("p1", "A title", None, ("Ann Lee", "Bo Chen"), False, None, 2024)])
    folder = tmp_path / INDEX_DIR
    with pytest.raises(StaleIndexError, match="no related-authors index$"):
        load_related_index(folder)
    write_related_index(G, folder, key="graph-1")
    assert load_related_index(folder, key="graph-1").authors == ["author:ann-lee", "author:bo-chen"]
    with pytest.raises(StaleIndexError, match="index of an older graph.pickle$"):
        load_related_index(folder, key="graph-2")
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    (folder / "meta.json").write_text(json.dumps(meta | {"code": "0000"}), encoding="utf-8")
    with pytest.raises(StaleIndexError, match="from another paperkg version$"):
        load_related_index(folder)
    (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    np.save(folder / "co_tgt.npy", np.zeros(3, dtype=np.int64))  # another dtype and shape
    with pytest.raises(StaleIndexError, match=r"unreadable \(co_tgt.npy has <i8 \[3\], expected <i4 \[2\]\)$"):
        load_related_index(folder)
    (folder / "co_tgt.npy").write_bytes(b"not an array")
    with pytest.raises(StaleIndexError, match="unreadable"):
        load_related_index(folder)
    assert issubclass(StaleIndexError, WorkspaceError)


def test_workspace_index_rebuilds_and_stores(tmp_path):
    G = build_graph([Record("p1", "A title", None, ("Ann Lee", "Bo Chen"), False, None, 2024)])
    ws = Workspace(tmp_path)
    ws.save_graph(G)
    said: list[str] = []
    first = workspace_index(ws, log=said.append)
    assert not isinstance(first, StoredIndex) and len(said) == 1
    second = workspace_index(ws, log=said.append)
    assert isinstance(second, StoredIndex) and len(said) == 1
    assert results(second, "Ann Lee") == results(first, "Ann Lee")
    with pytest.raises(WorkspaceError, match="not a build folder"):
        workspace_index(Workspace(tmp_path / "nothing"))


def test_a_query_from_the_index_reads_no_graph(demo):
    # a fresh process: the stored index is used and the graph pickle is never opened
    code = ("import builtins, sys\n"
            "real_open = builtins.open\n"
            "def guarded(f, *a, **k):\n"
            "    assert not str(f).endswith('graph.pickle'), f\n"
            "    return real_open(f, *a, **k)\n"
            "builtins.open = guarded\n"
            "from kg.workspace import Workspace\n"
            "from kg.related import related_authors\n"
            "from kg.related_index import workspace_index\n"
            f"idx = workspace_index(Workspace({str(demo.path)!r}), log=sys.exit)\n"
            "print(related_authors(idx, 'Ingrid Solheim', top=1)[0].label)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    G = demo.load_graph()
    assert res.stdout.strip() == related_authors(G, "Ingrid Solheim", top=1)[0].label


def test_weights_stored_as_floats_when_their_parts_are_unknown(tmp_path):
    # term profiles whose counts are unknown (their parts not kept) are stored as floats
    records = [Record(f"q{i}", f"Study {i}", f"We analyse {t} with {t} experiments.",
                      (f"Author {chr(65 + i)}", f"Author {chr(65 + (i + 2) % 4)}"), False, None, 2024)
               for i, t in enumerate(["hypergraph clustering", "hypergraph motifs", "bandit regret", "bandit arms"])]
    records += [Record(f"z{i}", f"Other {i}", "Filler text about weather.", (f"Filler {i}",), False, None, 2023)
                for i in range(10)]
    G1, G2 = build_graph(records), build_graph(records)
    _index(G2).terms().parts = None
    stored = stored_copy(_index(G2), tmp_path)  # the index whose profiles came from the file
    assert "terms_vals" in stored.meta["arrays"] and "terms_cnt" not in stored.meta["arrays"]
    assert_same_answers(G1, stored, _index(G1).authors)
    assert results(stored, "Author A") and _index(G1).terms().parts is not None


# -- related papers (kg related --paper) from the stored index --------------------------------

def paper_results(source, paper, **kw):
    """Everything a related-papers query returns, with the unrounded score and components."""
    from kg.related import related_papers

    return [(r.key, r.label, r.score, r.hops, r.reasons, r.components) for r in related_papers(source, paper, **kw)]


def assert_same_paper_answers(G, stored, papers):
    n = 0
    for p in papers:
        expected = paper_results(G, p, top=25)
        assert paper_results(stored, p, top=25) == expected, p
        n += len(expected)
    return n


def test_demo_every_paper_same_related_papers(demo):
    G = demo.load_graph()
    stored = load_related_index(demo.path / INDEX_DIR, key=graph_fingerprint(demo.graph_path))
    assert stored.paper_keys == _index(G).paper_keys
    assert len(stored.paper_keys) == sum(1 for _, t in G.nodes(data="type") if t == "paper")
    assert assert_same_paper_answers(G, stored, stored.paper_keys) > 50  # demo papers do have related papers
    said = {r for p in stored.paper_keys for x in paper_results(stored, p) for r in x[4]}
    assert any(r.startswith("shares author") for r in said) and any(r.startswith("both on ") for r in said)


def test_real_build_same_related_papers(real):
    G = real.load_graph()
    stored = load_related_index(real.path / INDEX_DIR, key=graph_fingerprint(real.graph_path))
    papers = _index(G).paper_keys
    assert len(papers) == 400
    assert assert_same_paper_answers(G, stored, papers[::2]) > 1000
    # by record id and by title, as a user gives them
    p = papers[5]
    rid, title = G.nodes[p]["record_id"], G.nodes[p]["title"]
    assert paper_results(stored, rid) == paper_results(G, rid) == paper_results(G, p)
    assert paper_results(stored, title.upper()) == paper_results(G, title)


def citing_graph():
    """Papers with citations both ways, shared references, categories at two levels, a DOI, a
    paper without authors and two papers with one title."""
    rare = (Entity(EntityType.CONCEPT, "strategic classification", None),
            Entity(EntityType.METHOD, "Hypergraph Lasso", None))
    game, learn = Category("Theory", "Game Theory"), Category("Theory", "Learning Theory")
    records = [
        Record("p1", "Strategic Classification Revisited", None, ("Renzhe Xu", "Yao Shu"), False, game, 2024,
               entities=rare),
        Record("p2", "Hypergraph lasso at scale", None, ("Yao Shu", "José Núñez"), False, learn, 2024,
               references=("p1", "p3"), entities=rare[1:]),
        Record("p3", "Strategic agents", None, ("Pat Kim",), False, game, 2023, references=("p1",),
               entities=rare[:1]),
        Record("doi:10.1234/abc.5", "Citing everything", None, ("Lin Zhou",), False, None, 2025,
               references=("p1", "p3", "p2"), doi="10.1234/abc.5", entities=rare),
        Record("p5", "Anonymous note on strategic classification", None, (), False, game, 2022,
               references=("p3",), entities=rare[:1]),
        Record("p6", "Strategic agents", None, ("Mara Diaz",), False, None, 2021, references=("p1",)),
    ]
    records += [Record(f"f{i}", f"Filler topic{i}", None, (f"Filler Person{chr(97 + i)}",), False, None, 2020)
                for i in range(20)]
    return build_graph(records, max_df=0.2)


def test_related_papers_with_citations_categories_and_lookup(tmp_path):
    G = citing_graph()
    stored = stored_copy(G, tmp_path)
    assert assert_same_paper_answers(G, stored, _index(G).paper_keys) > 20
    said = {r for p in stored.paper_keys for x in paper_results(stored, p) for r in x[4]}
    for reason in ("cited by this paper", "cites this paper", "2 shared references",
                   "cited together by 2 papers", "same category Game Theory", "shares author Yao Shu",
                   "both on Hypergraph Lasso and strategic classification"):
        assert reason in said, reason
    from kg.related import find_paper

    for ident, key in (("p5", "paper:p5"), ("paper:p2", "paper:p2"), ("10.1234/ABC.5", "paper:doi:10.1234/abc.5"),
                       ("  strategic CLASSIFICATION revisited ", "paper:p1"),
                       ("Strategic agents", "paper:p3")):  # of two papers with this title, the first by key
        assert find_paper(stored, ident) == find_paper(G, ident) == key, ident
    assert stored.paper_label("paper:p5") == G.nodes["paper:p5"]["label"]
    for source in (G, stored):
        with pytest.raises(NotFoundError, match=r"^no paper with id or title 'Strategic agent' in the graph; "
                                                r"close matches: p6$"):  # one title, one hint
            find_paper(source, "Strategic agent")
        with pytest.raises(NotFoundError, match=r"^no paper with id or title 'zzz' in the graph$"):
            find_paper(source, "zzz")


@pytest.mark.slow
def test_bench_related_runs_and_finds_the_paths_equal(demo):
    # bench/bench_related.py once read a cache that was removed; it runs on a real build folder
    # and checks the graph path and the installed `kg related` against the stored index.
    from pathlib import Path

    from kg.related import related_papers

    G = demo.load_graph()
    paper = max(_index(G).paper_keys, key=lambda p: (len(related_papers(G, p)), p))
    bench = Path(__file__).resolve().parents[2] / "bench" / "bench_related.py"
    res = subprocess.run([sys.executable, str(bench), str(demo.path), "--name", "Ingrid Solheim",
                          "--paper", G.nodes[paper]["record_id"]], capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith(f"build folder {demo.path}: graph.pickle ")
    verdicts = [line for line in lines if "answers equal to the index's to the bit" in line]
    assert len(verdicts) == 2
    assert verdicts[0].endswith("graph yes, build yes, index (every call) yes; kg related --json the same: yes")
    assert verdicts[1].endswith("graph yes, index (every call) yes; kg related --json the same: yes")
    rows = [line.split()[0] for line in lines if line.startswith("  ") and line.split()[0] in
            ("index", "graph", "build", "kg")]
    assert rows == ["index", "graph", "build", "kg", "index", "graph", "kg"]
