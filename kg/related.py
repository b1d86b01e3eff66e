"""Related authors and papers, each with the reasons in words.

The author score combines, for a query author ``a`` and a candidate ``c``:

- **co-author proximity**: joint papers (for existing co-authors), Adamic–Adar over common co-authors ``z``,
  ``sum 1 / log(deg z)`` (Adamic & Adar, 2003), plus a resource-allocation walk of length 3,
  ``sum 1 / (deg z1 * deg z2)`` over paths ``a - z1 - z2 - c`` (Zhou, Lü & Zhang, 2009, extended to
  three hops as in Kovács et al., 2019);
- **shared topics**: the IDF weights of the methods, benchmarks and concepts both carry
  (rarity-weighted, as for ``shares`` edges), divided by ``sqrt`` of the candidate's count of such
  items so that very prolific authors do not win by volume;
- **shared terms**: cosine similarity of the authors' TF-IDF profiles over the words and word
  pairs of their titles and abstracts (Salton & Buckley, 1988), rare terms only (in 2 papers or
  more, at most ``max_df`` of them). It carries the topic signal of papers whose extracted
  entities are few, e.g. title-only records;
- **shared categories** (subarea 1, area 0.5) and **citations** between their papers;
- a small **activity prior** ``log(1 + papers of c)``: people who publish more gain more
  co-authors; it mostly orders candidates that nothing else separates.

:data:`AUTHOR_WEIGHTS` holds the combination, tuned with ``bench/linkpred.py`` on the
NeurIPS 2018 -> ICML 2019 split (see ``bench/RESULTS.md``).
"""

from __future__ import annotations

import difflib
import math
import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

import networkx as nx

from kg.errors import NotFoundError
from kg.names import name_key
from kg.schema import EdgeType, NodeType
from kg.text import fold

#: Weights of the author score components (see module doc).
AUTHOR_WEIGHTS: dict[str, float] = {"co": 3.0, "aa": 1.0, "p3": 0.0, "n3": 0.2, "graph_base": 0.2,
                                    "graph_terms": 10.0, "topics": 0.005, "terms": 0.3, "terms_activity": 0.3,
                                    "categories": 0.1, "citations": 0.3, "prior": 0.0}
#: Weights of the paper score components.
PAPER_WEIGHTS: dict[str, float] = {"authors": 2.0, "topics": 1.0, "citations": 1.5, "coupling": 0.5,
                                   "categories": 0.3}
_ENTITY_EDGES = {EdgeType.PROPOSES.value, EdgeType.USES.value, EdgeType.INTRODUCES.value,
                 EdgeType.EVALUATES_ON.value, EdgeType.ABOUT.value}
_ENTITY_TYPES = {NodeType.METHOD.value, NodeType.BENCHMARK.value, NodeType.CONCEPT.value}
_WORD = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: Function words and the generic vocabulary of abstracts, left out of term profiles.
STOPWORDS = frozenset("""
a about above across after again against all almost also although always among an and another any are
as at be because been before being below between both but by can could did do does doing done down during
each either else even ever every few for from further had has have having here how however if in into is
it its itself just less many may more most much must neither no nor not of off often on once one only or
other our ours out over own per rather same several she should since so some such than that the their them
then there these they this those through thus to too under until up upon us very via was we well were what
when where whether which while who whom whose why will with within without would yet you your
paper propose proposed proposes present presents introduce introduces show shows shown demonstrate
demonstrates approach approaches method methods result results new novel based using use used uses work
existing provide provides study problem problems performance state art experiments experimental extensive
significantly significant achieve achieves outperforms compared first two three however furthermore
moreover specifically large small different various recent recently prior previous across task tasks model
models learning data framework algorithm algorithms
""".split())


@dataclass(frozen=True, slots=True)
class Related:
    """One related author or paper: its key, label, score, co-author distance and reasons."""

    key: str
    label: str
    score: float
    hops: int | None
    reasons: tuple[str, ...]
    components: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def why(self) -> str:
        """The reasons as one sentence: ``shares co-author Yao Shu; both work on ...; 2 hops``."""
        return "; ".join(self.reasons)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "score": round(self.score, 4), "hops": self.hops,
                "reasons": list(self.reasons), "components": {k: round(v, 4) for k, v in self.components.items()}}


class _Index:
    """Adjacency and profiles derived once from a graph (cached per graph object)."""

    def __init__(self, G: nx.MultiDiGraph) -> None:
        self.G = G
        self.signature = (G.number_of_nodes(), G.number_of_edges())
        types = dict(G.nodes(data="type"))
        self.co: dict[str, dict[str, int]] = defaultdict(dict)
        self.papers_of: dict[str, list[str]] = defaultdict(list)
        self.authors_of: dict[str, list[str]] = defaultdict(list)
        self.items_of_paper: dict[str, set[str]] = defaultdict(set)
        self.cats_of_paper: dict[str, set[str]] = defaultdict(set)
        self.cites: dict[str, set[str]] = defaultdict(set)
        self.cited_by: dict[str, set[str]] = defaultdict(set)
        for u, v, k, d in G.edges(keys=True, data=True):
            if k == EdgeType.AUTHORED.value:
                self.papers_of[u].append(v)
                self.authors_of[v].append(u)
            elif k == EdgeType.COAUTHOR.value:
                w = d.get("weight", 1)
                self.co[u][v] = w
                self.co[v][u] = w
            elif k in _ENTITY_EDGES:
                self.items_of_paper[u].add(v)
            elif k == EdgeType.IN_CATEGORY.value:
                self.cats_of_paper[u].add(v)
                area = G.nodes[v].get("area")
                if G.nodes[v].get("level") == "subarea" and area:
                    for _, parent, pk in G.out_edges(v, keys=True):
                        if pk == EdgeType.BROADER.value:
                            self.cats_of_paper[u].add(parent)
            elif k == EdgeType.CITES.value and types.get(v) == NodeType.PAPER.value:
                self.cites[u].add(v)
                self.cited_by[v].add(u)
        n_papers = sum(1 for t in types.values() if t == NodeType.PAPER.value)
        max_df = (G.graph.get("options") or {}).get("max_df", 0.05)
        self.df_limit = max(2, int(max_df * n_papers))
        self.idf: dict[str, float] = {}
        for key, t in types.items():
            if t in _ENTITY_TYPES:
                df = G.nodes[key].get("n_papers") or 0
                if 2 <= df <= self.df_limit and n_papers > df:
                    self.idf[key] = math.log(n_papers / df)
        self.items_of_author: dict[str, dict[str, int]] = {}
        self.item_authors: dict[str, set[str]] = defaultdict(set)
        for a, papers in self.papers_of.items():
            items: dict[str, int] = defaultdict(int)
            for p in papers:
                for it in self.items_of_paper.get(p, ()):
                    if it in self.idf:
                        items[it] += 1
            self.items_of_author[a] = items
            for it in items:
                self.item_authors[it].add(a)
        self._names: dict[str, str] | None = None
        self._terms: tuple[dict[str, dict[str, float]], dict[str, list[tuple[str, float]]]] | None = None

    def terms(self) -> tuple[dict[str, dict[str, float]], dict[str, list[tuple[str, float]]]]:
        """Unit TF-IDF term vector of every author, and the postings term -> [(author, value)]."""
        if self._terms is None:
            paper_terms: dict[str, set[str]] = {}
            for key, d in self.G.nodes(data=True):
                if d.get("type") == NodeType.PAPER.value:
                    paper_terms[key] = paper_terms_of(d.get("title"), d.get("abstract"))
            df: dict[str, int] = defaultdict(int)
            for ts in paper_terms.values():
                for t in ts:
                    df[t] += 1
            n = len(paper_terms)
            idf = {t: math.log(n / c) for t, c in df.items() if 2 <= c <= self.df_limit and c < n}
            vectors: dict[str, dict[str, float]] = {}
            postings: dict[str, list[tuple[str, float]]] = defaultdict(list)
            for a, papers in self.papers_of.items():
                tf: dict[str, int] = defaultdict(int)
                for p in papers:
                    for t in paper_terms.get(p, ()):
                        if t in idf:
                            tf[t] += 1
                vec = {t: (1.0 + math.log(c)) * idf[t] for t, c in tf.items()}
                norm = math.sqrt(sum(x * x for x in vec.values())) or 1.0
                vec = {t: x / norm for t, x in vec.items()}
                vectors[a] = vec
                for t, x in vec.items():
                    postings[t].append((a, x))
            self._terms = (vectors, postings)
        return self._terms

    def deg(self, a: str) -> int:
        return len(self.co.get(a, ()))

    def names(self) -> dict[str, str]:
        """Folded name key of every author spelling -> author node key."""
        if self._names is None:
            out: dict[str, str] = {}
            for k, d in self.G.nodes(data=True):
                if d.get("type") == NodeType.AUTHOR.value:
                    for n in (d.get("name") or "", *(d.get("aliases") or ())):
                        out.setdefault(name_key(n), k)
            self._names = out
        return self._names

    def cats_of_author(self, a: str) -> set[str]:
        out: set[str] = set()
        for p in self.papers_of.get(a, ()):
            out |= self.cats_of_paper.get(p, set())
        return out


_CACHE: "weakref.WeakKeyDictionary[nx.MultiDiGraph, _Index]" = weakref.WeakKeyDictionary()


def _index(G: nx.MultiDiGraph) -> _Index:
    idx = _CACHE.get(G)
    if idx is None or idx.signature != (G.number_of_nodes(), G.number_of_edges()):
        idx = _CACHE[G] = _Index(G)
    return idx


def paper_terms_of(title: str | None, abstract: str | None) -> set[str]:
    """The words and adjacent word pairs of a title and abstract (folded, no stop words).

    Examples
    --------
    >>> sorted(paper_terms_of("Hypergraph Clustering", "We study hypergraph clustering."))
    ['clustering', 'hypergraph', 'hypergraph clustering']
    """
    out: set[str] = set()
    for text in (title, abstract):
        if not text:
            continue
        prev = None
        for w in _WORD.findall(fold(text)):
            if w in STOPWORDS or len(w) < 3:
                prev = None
                continue
            out.add(w)
            if prev:
                out.add(f"{prev} {w}")
            prev = w
    return out


def find_author(G: nx.MultiDiGraph, name: str) -> str:
    """The author node key of a name (accents, case and punctuation ignored), or a node key.

    Raises
    ------
    NotFoundError
        When no author has that name; the message lists close matches.
    """
    if name in G and G.nodes[name].get("type") == NodeType.AUTHOR.value:
        return name
    idx = _index(G)
    key = idx.names().get(name_key(name))
    if key:
        return key
    labels = {fold(G.nodes[k]["name"]): G.nodes[k]["name"] for k in set(idx.names().values())}
    close = difflib.get_close_matches(fold(name), list(labels), n=5, cutoff=0.6)
    if not close:  # a surname or given name alone: list the authors containing it
        words = set(name_key(name).split())
        close = sorted(f for f in labels if words and words <= set(name_key(f).split()))[:5]
    hint = "; close matches: " + ", ".join(labels[c] for c in close) if close else "; no close matches"
    raise NotFoundError(f"no author named {name!r} in the graph{hint}")


def find_paper(G: nx.MultiDiGraph, ident: str) -> str:
    """The paper node key of a record id, node key, DOI or exact title."""
    for key in (ident, f"paper:{ident}", f"paper:doi:{ident.lower()}"):
        if key in G and G.nodes[key].get("type") == NodeType.PAPER.value:
            return key
    papers = {k: d for k, d in G.nodes(data=True) if d.get("type") == NodeType.PAPER.value}
    want = fold(ident).strip()
    for k, d in papers.items():
        if d.get("title") and fold(d["title"]).strip() == want:
            return k
    choices = {d["record_id"]: k for k, d in papers.items()}
    choices.update({fold(d["title"]): k for k, d in papers.items() if d.get("title")})
    close = difflib.get_close_matches(want, list(choices), n=5, cutoff=0.6)
    hint = "; close matches: " + ", ".join(papers[choices[c]]["record_id"] for c in close) if close else ""
    raise NotFoundError(f"no paper with id or title {ident!r} in the graph{hint}")


def coauthor_distances(G: nx.MultiDiGraph, author: str, *, max_hops: int = 3) -> dict[str, int]:
    """Co-author graph distance from ``author`` to every author within ``max_hops``."""
    co = _index(G).co
    dist = {author: 0}
    frontier = [author]
    for hop in range(1, max_hops + 1):
        nxt = []
        for u in frontier:
            for v in co.get(u, ()):
                if v not in dist:
                    dist[v] = hop
                    nxt.append(v)
        frontier = nxt
    return dist


def author_components(G: nx.MultiDiGraph, author: str) -> dict[str, dict[str, float]]:
    """Score components of every candidate related to ``author`` by any signal.

    Candidates are authors within three co-author hops or sharing a rare method, benchmark or
    concept. Returns candidate key -> ``{"co", "aa", "p3", "topics"}`` (``co``: joint papers).
    """
    idx = _index(G)
    co = idx.co
    comps: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(("co", "aa", "p3", "n3", "topics", "terms"), 0.0))
    nbrs = co.get(author, {})
    for z, joint in nbrs.items():
        comps[z]["co"] = float(joint)
        dz = len(co[z])
        if dz > 1:
            for c in co[z]:
                if c != author:
                    comps[c]["aa"] += 1.0 / math.log(dz)
        for z2 in co[z]:
            if z2 == author:
                continue
            d2 = len(co[z2])
            w = 1.0 / (dz * d2)
            for c in co[z2]:
                if c != author and c != z:
                    comp = comps[c]
                    comp["p3"] += w
                    comp["n3"] += 1.0
    vectors, postings = idx.terms()
    for t, x in vectors.get(author, {}).items():
        for c, y in postings[t]:
            if c != author:
                comps[c]["terms"] += x * y
    mine = idx.items_of_author.get(author, {})
    for it in mine:
        w = idx.idf[it]
        for c in idx.item_authors[it]:
            if c != author:
                comps[c]["topics"] += w
    for c, comp in comps.items():
        if comp["topics"]:
            comp["topics"] /= math.sqrt(len(idx.items_of_author.get(c, ())) or 1)
    return comps


def _categories_and_citations(idx: _Index, a: str, c: str, my_cats: set[str]) -> tuple[float, int]:
    cat = 0.0
    if my_cats:
        for k in my_cats & idx.cats_of_author(c):
            cat += 1.0 if "/" in k else 0.5
    mine = set(idx.papers_of.get(a, ()))
    theirs = set(idx.papers_of.get(c, ()))
    n_cite = sum(len(idx.cites.get(p, set()) & theirs) for p in mine)
    n_cite += sum(len(idx.cites.get(p, set()) & mine) for p in theirs)
    return cat, n_cite


def combine(comp: dict[str, float] | None, *, n_papers: int, categories: float = 0.0, citations: float = 0.0,
            weights: dict[str, float] | None = None) -> float:
    """The author score from its components (see module doc and :data:`AUTHOR_WEIGHTS`).

    ``co * joint papers + graph * (graph_base + graph_terms * terms)
    + terms * (terms + terms_activity * log(1 + papers)) + topics + categories + citations``,
    where ``graph = aa * Adamic-Adar + n3 * paths of length 3 (+ p3 * their
    resource-allocation weight)``. Co-author proximity counts most when the two also write about
    the same things, and shared terms count more for active candidates: both measured on the
    link-prediction benchmark.
    """
    w = AUTHOR_WEIGHTS if weights is None else weights
    activity = math.log1p(n_papers)
    s = w["prior"] * activity + w["categories"] * categories + w["citations"] * citations
    if comp:
        terms = comp["terms"]
        graph = w["aa"] * comp["aa"] + w["p3"] * comp["p3"] + w["n3"] * comp["n3"]
        s += (w["co"] * comp["co"] + graph * (w["graph_base"] + w["graph_terms"] * terms)
              + w["topics"] * comp["topics"] + (w["terms"] + w["terms_activity"] * activity) * terms)
    return s


def author_scores(G: nx.MultiDiGraph, author: str, *, candidates: Iterable[str] | None = None,
                  weights: dict[str, float] | None = None) -> dict[str, float]:
    """The combined score of candidates for a query author key (see module doc).

    With ``candidates``, every one of them is scored (those with no signal get the activity
    prior only); without, only authors related by some signal.
    """
    idx = _index(G)
    w = {**AUTHOR_WEIGHTS, **(weights or {})}
    comps = author_components(G, author)
    my_cats = idx.cats_of_author(author)
    pool = comps.keys() if candidates is None else candidates
    out: dict[str, float] = {}
    for c in pool:
        if c == author:
            continue
        comp = comps.get(c)
        cat, n_cite = 0.0, 0
        if comp is not None and (w["categories"] or w["citations"]):
            cat, n_cite = _categories_and_citations(idx, author, c, my_cats)
        out[c] = combine(comp, n_papers=len(idx.papers_of.get(c, ())), categories=cat, citations=n_cite, weights=w)
    return out


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def related_authors(
    G: nx.MultiDiGraph,
    name: str,
    *,
    top: int = 10,
    exclude_coauthors: bool = False,
    exclude_within: int | None = None,
) -> list[Related]:
    """Authors related to ``name``, best first, each with reasons in words.

    Parameters
    ----------
    G
        A graph from :func:`kg.graph.build_graph`.
    name
        An author name (any spelling; accents and case ignored) or author node key.
    top
        How many to return.
    exclude_coauthors
        Leave out existing co-authors (the reviewer view: they are conflicts of interest).
    exclude_within
        Leave out everyone within this many co-author hops (``exclude_coauthors`` is 1).

    Raises
    ------
    NotFoundError
        When no author has that name (the message lists close matches).
    """
    author = find_author(G, name)
    idx = _index(G)
    limit = max(exclude_within or 0, 1 if exclude_coauthors else 0)
    dist = coauthor_distances(G, author, max_hops=max(3, limit))
    comps = author_components(G, author)
    my_cats = idx.cats_of_author(author)
    rows = []
    for c, comp in comps.items():
        hops = dist.get(c)
        if hops is not None and hops <= limit:
            continue
        cat, n_cite = _categories_and_citations(idx, author, c, my_cats)
        s = combine(comp, n_papers=len(idx.papers_of.get(c, ())), categories=cat, citations=n_cite)
        rows.append((s, c, hops, {**comp, "categories": cat, "citations": float(n_cite)}))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return [Related(c, G.nodes[c]["name"], s, hops, tuple(_author_reasons(G, idx, author, c, hops, n_cite=int(comp["citations"]))), comp)
            for s, c, hops, comp in rows[:top]]


def _author_reasons(G: nx.MultiDiGraph, idx: _Index, a: str, c: str, hops: int | None, *, n_cite: int) -> list[str]:
    reasons = []
    if hops == 1:
        n = idx.co[a][c]
        reasons.append(f"already co-authors ({n} joint paper{'s' if n != 1 else ''})")
    common = sorted(set(idx.co.get(a, ())) & set(idx.co.get(c, ())),
                    key=lambda z: (-(idx.co[a][z] + idx.co[c][z]), G.nodes[z]["name"]))
    if common:
        names = [G.nodes[z]["name"] for z in common[:3]]
        more = f" (and {len(common) - 3} more)" if len(common) > 3 else ""
        reasons.append(f"shares co-author{'s' if len(common) > 1 else ''} {_join(names)}{more}")
    shared = sorted(set(idx.items_of_author.get(a, ())) & set(idx.items_of_author.get(c, ())),
                    key=lambda it: (-idx.idf[it], it))
    if shared:
        reasons.append(f"both work on {_join([G.nodes[it]['name'] for it in shared[:3]])}")
    cats = sorted(k for k in idx.cats_of_author(a) & idx.cats_of_author(c) if "/" in k)
    if cats:
        reasons.append(f"both publish in {_join([G.nodes[k]['name'] for k in cats[:2]])}")
    if n_cite:
        reasons.append(f"{n_cite} citation{'s' if n_cite != 1 else ''} between their papers")
    if hops and hops > 1:
        reasons.append(f"{hops} hops")
    elif hops is None:
        reasons.append("not connected by co-authorship within 3 hops")
    return reasons


def related_papers(G: nx.MultiDiGraph, paper_id: str, *, top: int = 10) -> list[Related]:
    """Papers related to a paper (by record id, node key, DOI or exact title), with reasons.

    The score adds shared authors, rarity-weighted shared methods/benchmarks/concepts,
    direct citations, bibliographic coupling and co-citation (shared references or citing
    papers), and a shared category.
    """
    p = find_paper(G, paper_id)
    idx = _index(G)
    w = PAPER_WEIGHTS
    comps: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(
        ("authors", "topics", "citations", "coupling", "categories"), 0.0))
    for a in idx.authors_of.get(p, ()):
        for q in idx.papers_of.get(a, ()):
            comps[q]["authors"] += 1.0
    for it in idx.items_of_paper.get(p, ()):
        if it not in idx.idf:
            continue
        for q in {u for u, _ in G.in_edges(it)}:
            comps[q]["topics"] += idx.idf[it]
    for q in idx.cites.get(p, set()) | idx.cited_by.get(p, set()):
        comps[q]["citations"] += 1.0
    for r in idx.cites.get(p, set()):
        for q in idx.cited_by.get(r, set()):
            comps[q]["coupling"] += 1.0
    for r in idx.cited_by.get(p, set()):
        for q in idx.cites.get(r, set()):
            comps[q]["coupling"] += 1.0
    comps.pop(p, None)
    my_cats = idx.cats_of_paper.get(p, set())
    rows = []
    for q, comp in comps.items():
        comp["categories"] = sum(1.0 if "/" in k else 0.5 for k in my_cats & idx.cats_of_paper.get(q, set()))
        s = sum(w[k] * v for k, v in comp.items())
        rows.append((s, q, comp))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return [Related(q, G.nodes[q]["label"], s, None, tuple(_paper_reasons(G, idx, p, q)), comp)
            for s, q, comp in rows[:top]]


def _paper_reasons(G: nx.MultiDiGraph, idx: _Index, p: str, q: str) -> list[str]:
    reasons = []
    shared_authors = [a for a in idx.authors_of.get(p, ()) if a in set(idx.authors_of.get(q, ()))]
    if shared_authors:
        reasons.append(f"shares author{'s' if len(shared_authors) > 1 else ''} "
                       f"{_join([G.nodes[a]['name'] for a in shared_authors[:3]])}")
    shared = sorted((it for it in idx.items_of_paper.get(p, set()) & idx.items_of_paper.get(q, set()) if it in idx.idf),
                    key=lambda it: (-idx.idf[it], it))
    if shared:
        reasons.append(f"both on {_join([G.nodes[it]['name'] for it in shared[:3]])}")
    if q in idx.cites.get(p, set()):
        reasons.append("cited by this paper")
    if p in idx.cites.get(q, set()):
        reasons.append("cites this paper")
    n_refs = len(idx.cites.get(p, set()) & idx.cites.get(q, set()))
    if n_refs:
        reasons.append(f"{n_refs} shared reference{'s' if n_refs != 1 else ''}")
    n_citers = len(idx.cited_by.get(p, set()) & idx.cited_by.get(q, set()))
    if n_citers:
        reasons.append(f"cited together by {n_citers} paper{'s' if n_citers != 1 else ''}")
    cats = sorted(idx.cats_of_paper.get(p, set()) & idx.cats_of_paper.get(q, set()))
    if cats:
        reasons.append(f"same category {G.nodes[cats[-1]]['name']}")
    return reasons
