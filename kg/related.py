"""Related authors and papers, each with the reasons in words.

The author score is log-linear: a product of factors, each of which is one signal and one
reason in words. For a query author ``a`` and a candidate ``c``::

    score = log(1 + (co * joint + paths2 + n3 * paths3) / eps)
            + terms * cos(a, c) + nbmax * max_z cos(z, c) + topics * log(1 + shared)
            + prior * log(1 + papers of c) + categories * shared + citations * log(1 + cites)

Every part is 0 without its signal, so a score is never negative and 0 means nothing relates
the two. (The proximity part is ``log(eps + proximity) - log(eps)``: the same ranking as with
``log(eps + proximity)`` for any query, without the constant ``log(eps)`` that made every
candidate with no co-author path score about -4.)

- **co-author proximity** (the logarithm, so that it multiplies the rest): joint papers of
  existing co-authors (``joint``); ``paths2``, the weighted common neighbours
  ``sum_z w(a, z) * w(z, c)`` over shared co-authors ``z`` with ``w`` the number of joint papers,
  i.e. the number of pairs of papers that link the two through a shared co-author (Newman,
  2001, "Clustering and preferential attachment in growing networks", counts common
  neighbours; weighting them by tie strength follows Murata & Moriyasu, 2007); ``paths3``, the
  number of co-author paths of length 3 (Katz, 1953, damped: it only orders candidates with no
  shared co-author, ``n3`` is small). Adamic–Adar (Adamic & Adar, 2003) and the
  resource-allocation weight of the length-3 paths (Zhou, Lü & Zhang, 2009) are computed too
  and reported as components, but measured alone they do worse than ``paths2`` on the
  link-prediction benchmark.
- **shared terms**: cosine of the authors' TF-IDF profiles over the words and word pairs of their
  titles and abstracts (Salton & Buckley, 1988), rare terms only (in 2 papers or more and at
  most ``max_df`` of them); it carries the topic signal of papers whose extracted entities are
  few, e.g. title-only records.
- **close to a co-author**: the largest such cosine between the candidate and one of ``a``'s
  co-authors (people join groups whose members work on what they work on).
- **shared topics**: the IDF weights of the methods, benchmarks and concepts both carry
  (rarity-weighted, as for ``shares`` edges), divided by ``sqrt`` of the candidate's count of
  such items so that very prolific authors do not win by volume.
- **activity**: people who publish more gain more co-authors (preferential attachment,
  Barabási & Albert, 1999); ``prior * log(1 + papers)`` is a power law ``papers ** prior``.
- **shared categories** (subarea 1, area 0.5) and **citations** between their papers.

:data:`AUTHOR_WEIGHTS` were chosen with ``bench/linkpred.py`` on the ICML 2023 -> ICLR 2024 +
ICML 2024 split and checked, held out, on NeurIPS 2018 -> ICML 2019 and ICLR 2024 -> ICML 2025 +
COLM 2025 (figures in ``bench/RESULTS.md``).

Everything the author and paper scores read is in :class:`RelatedIndex`, derived once from
the graph; ``kg build`` also stores it in ``OUT/related/`` (:mod:`kg.related_index`), and the
functions here that take a graph take that stored index as well, with the same results, so
that a ``kg related`` call (``NAME`` or ``--paper``) does not load the graph.
"""

from __future__ import annotations

import difflib
import math
from array import array
import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import networkx as nx
import numpy as np

from kg.errors import NotFoundError
from kg.names import name_key
from kg.schema import EdgeType, NodeType
from kg.text import fold

#: Weights of the author score (see module doc). Chosen by grid search for MRR with
#: ``bench/linkpred.py`` on history ICML 2023 -> future ICLR 2024 + ICML 2024 (titles only);
#: NeurIPS 2018 -> ICML 2019 and ICLR 2024 -> ICML 2025 + COLM 2025 were held out.
#: ``co`` (existing co-authors), ``categories`` and ``citations`` are not measured by the
#: benchmark (co-authors are not candidates there; the conference lists have no references and
#: almost no categories) and are set by hand.
AUTHOR_WEIGHTS: dict[str, float] = {"eps": 0.01, "co": 3.0, "n3": 0.003, "terms": 6.0, "nbmax": 1.0,
                                    "topics": 0.2, "prior": 0.5, "categories": 0.1, "citations": 0.3}
#: Signals of :func:`author_signals`, one array each.
SIGNALS = ("co", "cn", "aa", "paths2", "n3", "p3", "terms", "nbmax", "topics", "categories", "citations")
#: Weights of the paper score components.
PAPER_WEIGHTS: dict[str, float] = {"authors": 2.0, "topics": 1.0, "citations": 1.5, "coupling": 0.5,
                                   "categories": 0.3}
#: Smallest cosine that is worth a reason in words ("both write about ...", "close to co-author ...").
REASON_MIN_COSINE = 0.05
#: Smallest cosine worth naming single shared words when no word pair is shared ("share the
#: words ..."): single words are more often incidental than pairs, so the bar is higher.
WORDS_MIN_COSINE = 0.1
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


class _Terms:
    """Unit TF-IDF term vectors of the authors as sparse arrays: rows by author (for one
    author's vector) and columns by term (for one author's cosines with everyone)."""

    def __init__(self, vocab: list[str], rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, n: int) -> None:
        # rows, cols, vals: the non-zeros, sorted by (row, col)
        row_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n), out=row_ptr[1:])
        order = np.argsort(cols, kind="stable")
        ptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.cumsum(np.bincount(cols, minlength=len(vocab)), out=ptr[1:])
        self._set(vocab, row_ptr, cols, vals, ptr, rows[order], vals[order], n)

    @classmethod
    def from_arrays(cls, vocab: Any, row_ptr: np.ndarray, cols: np.ndarray, vals: np.ndarray,
                    ptr: np.ndarray, who: np.ndarray, val: np.ndarray, n: int) -> "_Terms":
        """Both orders given (e.g. memory-mapped from :mod:`kg.related_index`); ``vocab`` is
        anything indexable by term id."""
        self = cls.__new__(cls)
        self._set(vocab, row_ptr, cols, vals, ptr, who, val, n)
        return self

    def _set(self, vocab: Any, row_ptr: np.ndarray, cols: np.ndarray, vals: np.ndarray,
             ptr: np.ndarray, who: np.ndarray, val: np.ndarray, n: int) -> None:
        self.vocab = vocab
        self.n = n
        self.row_ptr, self.cols, self.vals = row_ptr, cols, vals  # by author
        self.ptr, self.who, self.val = ptr, who, val  # by term
        self.vectors = _Vectors(self)
        self.parts: tuple[np.ndarray, ...] | None = None

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.row_ptr[i], self.row_ptr[i + 1]
        return self.cols[lo:hi], self.vals[lo:hi]

    def cosines(self, i: int) -> np.ndarray:
        """Cosine of author ``i``'s profile with every author's."""
        tid, x = self.row(i)
        out = np.zeros(self.n)
        if not len(tid):
            return out
        # A sparse row times the term-by-author matrix: for each author, the products
        # x[t] * w[t, author] are added one by one in the order of the query's terms, as a
        # bincount over the joined postings would (the same bits), in one pass in C.
        by_term = self._by_term()
        if by_term is None:  # no SciPy: the same sums, by a bincount over the joined postings
            lo, hi = self.ptr[tid], self.ptr[tid + 1]
            spans = list(zip(lo.tolist(), hi.tolist()))
            who = np.concatenate([self.who[a:b] for a, b in spans])
            val = np.concatenate([self.val[a:b] for a, b in spans])
            return np.bincount(who, weights=val * np.repeat(x, hi - lo), minlength=self.n)
        ix = by_term.indices.dtype
        q = _sparse().csr_matrix((x, tid.astype(ix), np.array([0, len(tid)], dtype=ix)), shape=(1, by_term.shape[0]))
        r = q @ by_term
        out[r.indices] = r.data
        return out

    def _by_term(self) -> Any:
        """The term-by-author weights as a SciPy CSR matrix over the same arrays (None without SciPy)."""
        if getattr(self, "_matrix", None) is None:
            try:
                _sparse()
            except ImportError:
                return None
            who, ptr = np.asarray(self.who), np.asarray(self.ptr)
            if ptr[-1] > np.iinfo(who.dtype).max:  # one index type for both (else scipy copies)
                who = who.astype(np.int64)
            self._matrix = _sparse().csr_matrix((np.asarray(self.val), who, ptr.astype(who.dtype)),
                                                shape=(len(ptr) - 1, self.n))
        return self._matrix


def _sparse() -> Any:
    import scipy.sparse  # not at module level: most commands never score authors

    return scipy.sparse


class _Vectors:
    """``terms.vectors[i]``: author ``i``'s vector as a {term: weight} dict, made on demand."""

    def __init__(self, terms: _Terms) -> None:
        self.terms = terms

    def __len__(self) -> int:
        return self.terms.n

    def __getitem__(self, i: int) -> dict[str, float]:
        cols, vals = self.terms.row(i)
        vocab = self.terms.vocab
        many = getattr(vocab, "many", None)  # a stored vocabulary decodes a row's terms at once
        words = many(cols) if many else [vocab[c] for c in cols.tolist()]
        return dict(zip(words, vals.tolist()))


class RelatedIndex:
    """Adjacency and profiles derived once from a graph (cached per graph object).

    :class:`kg.related_index.StoredIndex` is the same index read back from a build folder
    without the graph: every query (related authors and related papers) goes through the
    attributes and the methods ``label``, ``is_author``, ``paper_text``, ``names``, ``terms``,
    ``is_paper``, ``paper_label``, ``paper_titles``, ``paper_record_ids`` and
    ``papers_of_item``, never ``G``.
    """

    def __init__(self, G: nx.MultiDiGraph) -> None:
        self.G: nx.MultiDiGraph | None = G
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
        self.authors = sorted(k for k, t in types.items() if t == NodeType.AUTHOR.value)
        self.pos = {a: i for i, a in enumerate(self.authors)}
        self.n_papers = np.array([len(self.papers_of.get(a, ())) for a in self.authors], dtype=np.float64)
        self._sorted_counts = np.sort(self.n_papers)
        self.paper_keys: list[str] = sorted(k for k, t in types.items() if t == NodeType.PAPER.value)
        n_papers = len(self.paper_keys)
        max_df = (G.graph.get("options") or {}).get("max_df", 0.05)
        self.df_limit = max(2, int(max_df * n_papers))
        self.idf: dict[str, float] = {}
        for key, t in types.items():
            if t in _ENTITY_TYPES:
                df = G.nodes[key].get("n_papers") or 0
                if 2 <= df <= self.df_limit and n_papers > df:
                    self.idf[key] = math.log(n_papers / df)
        self.items_of_author: dict[str, dict[str, int]] = {}
        self.item_authors: dict[str, list[int]] = defaultdict(list)
        for a, papers in self.papers_of.items():
            items: dict[str, int] = defaultdict(int)
            for p in papers:
                for it in self.items_of_paper.get(p, ()):
                    if it in self.idf:
                        items[it] += 1
            self.items_of_author[a] = items
            for it in items:
                self.item_authors[it].append(self.pos[a])
        self.papers_in_category: dict[str, list[str]] = defaultdict(list)
        for p, ks in self.cats_of_paper.items():
            for k in ks:
                self.papers_in_category[k].append(p)
        self.n_items = np.array([len(self.items_of_author.get(a, ())) for a in self.authors], dtype=np.float64)
        self._names: dict[str, str] | None = None
        self._terms: _Terms | None = None
        self._papers_of_item: dict[str, list[str]] | None = None

    def terms(self) -> _Terms:
        """Unit TF-IDF term vectors of every author (see module doc), built on first use.

        An author's count of a term is the number of their papers that contain it; the
        author-by-term counts are one sparse product (authorships x paper terms) done with
        NumPy sorting, not per-author dictionaries (those took 130 s at 100k papers)."""
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
            vocab = sorted(t for t, c in df.items() if 2 <= c <= self.df_limit and c < n)
            tid = {t: j for j, t in enumerate(vocab)}
            idf = np.array([math.log(n / df[t]) for t in vocab], dtype=np.float64)
            ppos: dict[str, int] = {}
            p_lens: list[int] = []
            p_terms = array("q")  # 8 bytes a posting, not a Python int object (~0.5 GB at 100k papers)
            for key, ts in paper_terms.items():
                ids = [tid[t] for t in ts if t in tid]
                ppos[key] = len(p_lens)
                p_lens.append(len(ids))
                p_terms.extend(ids)
            del paper_terms, df, tid  # the papers' term sets are the bulk of the memory here
            p_ptr = np.zeros(len(p_lens) + 1, dtype=np.int64)
            np.cumsum(np.array(p_lens, dtype=np.int64), out=p_ptr[1:])
            terms_flat = np.frombuffer(p_terms, dtype=np.int64) if len(p_terms) else np.zeros(0, dtype=np.int64)
            a_idx: list[int] = []
            p_idx: list[int] = []
            for i, a in enumerate(self.authors):
                for p in dict.fromkeys(self.papers_of.get(a, ())):
                    j = ppos.get(p)
                    if j is not None:
                        a_idx.append(i)
                        p_idx.append(j)
            pa = np.array(p_idx, dtype=np.int64)
            lens = p_ptr[pa + 1] - p_ptr[pa]
            rows = np.repeat(np.array(a_idx, dtype=np.int64), lens)
            first = np.repeat(p_ptr[pa] - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
            cols = terms_flat[first + np.arange(int(lens.sum()))]
            del first, terms_flat, p_terms
            V = max(len(vocab), 1)
            code, counts = np.unique(rows * V + cols, return_counts=True)
            rows, cols = code // V, code % V
            logs = 1.0 + np.log(counts)
            vals = logs * idf[cols]
            norms = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=len(self.authors)))
            norms[norms == 0] = 1.0
            self._terms = _Terms(vocab, rows, cols, vals / norms[rows], len(self.authors))
            # What the weights are made of, for kg.related_index to store counts, not floats:
            # (1 + log count) by count, the terms' idf and the authors' norms.
            tab = np.zeros(int(counts.max(initial=0)) + 1)
            tab[counts] = logs
            if np.array_equal(tab[counts], logs):  # one value per count (no SIMD/scalar difference)
                small = counts.astype(np.min_scalar_type(len(tab) - 1))
                self._terms.parts = (small, tab, idf, norms)
        return self._terms

    def label(self, key: str) -> str:
        """The display name of an author, method/benchmark/concept or category node."""
        return self.G.nodes[key]["name"]

    def is_author(self, key: str) -> bool:
        return key in self.G and self.G.nodes[key].get("type") == NodeType.AUTHOR.value

    def paper_text(self, key: str) -> tuple[str | None, str | None]:
        """A paper's title and abstract."""
        d = self.G.nodes[key]
        return d.get("title"), d.get("abstract")

    def is_paper(self, key: str) -> bool:
        return key in self.G and self.G.nodes[key].get("type") == NodeType.PAPER.value

    def paper_label(self, key: str) -> str:
        """A paper's display label (the graph's ``label``: its title, shortened)."""
        return self.G.nodes[key]["label"]

    def paper_titles(self) -> list[str | None]:
        """Every paper's title (or None), in the order of :attr:`paper_keys`."""
        return [self.G.nodes[k].get("title") for k in self.paper_keys]

    def paper_record_ids(self) -> list[str]:
        """Every paper's record id, in the order of :attr:`paper_keys`."""
        return [self.G.nodes[k]["record_id"] for k in self.paper_keys]

    def papers_of_item(self) -> Mapping[str, list[str]]:
        """The papers with each rare item (those of ``idf``), in key order; built on first use."""
        if self._papers_of_item is None:
            out: dict[str, list[str]] = defaultdict(list)
            for p in self.paper_keys:
                for it in self.items_of_paper.get(p, ()):
                    if it in self.idf:
                        out[it].append(p)
            self._papers_of_item = dict(out)
        return self._papers_of_item

    def top_share(self, n: int) -> float:
        """Share of the graph's authors with at least ``n`` papers."""
        if not len(self._sorted_counts):
            return 1.0
        k = len(self._sorted_counts) - int(np.searchsorted(self._sorted_counts, n, side="left"))
        return k / len(self._sorted_counts)

    def deg(self, a: str) -> int:
        return len(self.co.get(a, ()))

    def names(self) -> dict[str, str]:
        """Folded name key of every author spelling -> author node key."""
        if self._names is None:
            self._names = _author_names(self.G)
        return self._names

    def cats_of_author(self, a: str) -> set[str]:
        out: set[str] = set()
        for p in self.papers_of.get(a, ()):
            out |= self.cats_of_paper.get(p, set())
        return out


_Index = RelatedIndex  # the name bench/linkpred.py and older callers know
_CACHE: "weakref.WeakKeyDictionary[nx.MultiDiGraph, _Index]" = weakref.WeakKeyDictionary()


def _index(G: nx.MultiDiGraph | _Index) -> _Index:
    if isinstance(G, _Index):
        return G
    idx = _CACHE.get(G)
    if idx is None or idx.signature != (G.number_of_nodes(), G.number_of_edges()):
        idx = _CACHE[G] = _Index(G)
    return idx


#: A candidate's paper count is given as a reason from this many papers, when at most this
#: share of the graph's authors has as many.
PROLIFIC_MIN_PAPERS = 3
PROLIFIC_TOP_SHARE = 0.10

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


def find_author(G: nx.MultiDiGraph | RelatedIndex, name: str) -> str:
    """The author node key of a name (accents, case and punctuation ignored), a node key
    (``author:julia-kempe``) or an author id (``julia-kempe``, as ``kg authors`` lists it).

    A part of a name is enough when it fits one author only: whole words of the name or of
    another spelling of it, so ``kempe`` finds Julia Kempe, and ``Li`` finds an author named Li
    but never ``Lin``. ``kg related`` and ``kg view --author`` both look authors up here. Given
    a graph, only its author nodes are read (no :class:`RelatedIndex` is built).

    Raises
    ------
    NotFoundError
        When no author has that name (the message lists close matches), or when the part of a
        name given fits several authors (the message lists them).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("author:li-na", type="author", name="Li Na")
    >>> G.add_node("author:lin-wei", type="author", name="Lin Wei")
    >>> find_author(G, "li"), find_author(G, "Wei"), find_author(G, "lin-wei")
    ('author:li-na', 'author:lin-wei', 'author:lin-wei')
    """
    if isinstance(G, RelatedIndex):
        return _find_author(G, name)
    idx = _CACHE.get(G)
    if idx is not None and idx.signature == (G.number_of_nodes(), G.number_of_edges()):
        return _find_author(idx, name)

    def is_author(key: str) -> bool:
        return key in G and G.nodes[key].get("type") == NodeType.AUTHOR.value

    return _lookup_author(name, is_author=is_author, names=_author_names(G),
                          label=lambda k: G.nodes[k].get("name") or k)


def _author_names(G: nx.MultiDiGraph) -> dict[str, str]:
    """Folded name key of every author spelling in ``G`` -> author node key."""
    out: dict[str, str] = {}
    for k, d in G.nodes(data=True):
        if d.get("type") == NodeType.AUTHOR.value:
            for n in (d.get("name") or "", *(d.get("aliases") or ())):
                out.setdefault(name_key(n), k)
    return out


def _find_author(idx: _Index, name: str) -> str:
    return _lookup_author(name, is_author=idx.is_author, names=idx.names(), label=idx.label)


def _lookup_author(name: str, *, is_author: Callable[[str], bool], names: Mapping[str, str],
                   label: Callable[[str], str]) -> str:
    """:func:`find_author` over any source of author keys, spellings and display names."""
    for key in (name, f"{NodeType.AUTHOR.value}:{name}"):
        if is_author(key):
            return key
    key = names.get(name_key(name))
    if key:
        return key
    words = set(name_key(name).split())
    if words:
        # every word given is a word of the name (or of another spelling of it)
        fits = sorted({k for nk, k in names.items() if words <= set(nk.split())}, key=lambda k: (label(k), k))
        if len(fits) == 1:
            return fits[0]
        if fits:
            more = f" (and {len(fits) - 8} more)" if len(fits) > 8 else ""
            raise NotFoundError(f"{name!r} fits several authors: {', '.join(label(k) for k in fits[:8])}{more}; "
                                "give more of the name")
    labels = {fold(label(k)): label(k) for k in set(names.values())}
    close = difflib.get_close_matches(fold(name), list(labels), n=5, cutoff=0.6)
    hint = "; close matches: " + ", ".join(labels[c] for c in close) if close else "; no close matches"
    raise NotFoundError(f"no author named {name!r} in the graph{hint}")


def find_paper(G: nx.MultiDiGraph | RelatedIndex, ident: str) -> str:
    """The paper node key of a record id, node key, DOI or exact title (accents and case
    ignored; of several papers with that title, the first by key).

    Raises
    ------
    NotFoundError
        When no paper matches; the message lists the record ids of close matches.
    """
    return _find_paper(_index(G), ident)


def _find_paper(idx: _Index, ident: str) -> str:
    for key in (ident, f"paper:{ident}", f"paper:doi:{ident.lower()}"):
        if idx.is_paper(key):
            return key
    keys, titles = idx.paper_keys, idx.paper_titles()
    want = fold(ident).strip()
    for k, title in zip(keys, titles):
        if title and fold(title).strip() == want:
            return k
    rids = idx.paper_record_ids()
    choices = dict(zip(rids, range(len(keys))))
    choices.update({fold(t): i for i, t in enumerate(titles) if t})
    close = difflib.get_close_matches(want, list(choices), n=5, cutoff=0.6)
    hint = "; close matches: " + ", ".join(rids[choices[c]] for c in close) if close else ""
    raise NotFoundError(f"no paper with id or title {ident!r} in the graph{hint}")


def coauthor_distances(G: nx.MultiDiGraph | RelatedIndex, author: str, *, max_hops: int = 3) -> dict[str, int]:
    """Co-author graph distance from ``author`` to every author within ``max_hops``."""
    return _distances(_index(G), author, max_hops)


def _distances(idx: _Index, author: str, max_hops: int) -> dict[str, int]:
    co = idx.co
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


def author_signals(G: nx.MultiDiGraph | RelatedIndex, author: str) -> dict[str, np.ndarray]:
    """Every signal of :data:`SIGNALS` between ``author`` and each author of the graph.

    Returns one array per signal, aligned with the sorted author keys (``_index(G).authors``):
    ``co`` joint papers, ``cn`` common co-authors, ``aa`` Adamic–Adar, ``paths2`` weighted
    common co-authors, ``n3`` and ``p3`` count and resource-allocation weight of co-author paths
    of length 3, ``terms`` and ``nbmax`` cosines, ``topics`` shared rare entities, ``categories``
    and ``citations``. The entry of ``author`` itself is meaningless (callers drop it).
    """
    return _signals(_index(G), author)


def _signals(idx: _Index, author: str) -> dict[str, np.ndarray]:
    n = len(idx.authors)
    pos = idx.pos
    co = idx.co
    sig = {k: np.zeros(n) for k in SIGNALS}
    me = pos[author]
    nbrs = co.get(author, {})
    co_, cn, aa, paths2, n3, p3 = (sig[k] for k in ("co", "cn", "aa", "paths2", "n3", "p3"))
    for z, w_az in nbrs.items():
        co_[pos[z]] = w_az
        zn = co[z]
        dz = len(zn)
        inv_log = 1.0 / math.log(dz) if dz > 1 else 0.0
        for c, w_zc in zn.items():
            if c != author:
                i = pos[c]
                cn[i] += 1.0
                aa[i] += inv_log
                paths2[i] += w_az * w_zc
        for z2 in zn:
            if z2 == author:
                continue
            z2n = co[z2]
            w = 1.0 / (dz * len(z2n))
            for c in z2n:
                if c != author and c != z:
                    i = pos[c]
                    p3[i] += w
                    n3[i] += 1.0
    terms = idx.terms()
    sig["terms"] = terms.cosines(me)
    nbmax = sig["nbmax"]
    for z in nbrs:
        np.maximum(nbmax, terms.cosines(pos[z]), out=nbmax)
    topics = sig["topics"]
    # In key order: the items come from sets, whose order changes from process to process, and
    # a float sum in another order can differ in the last bit (and swap two tied candidates).
    for it in sorted(idx.items_of_author.get(author, {})):
        topics[idx.item_authors[it]] += idx.idf[it]
    topics /= np.sqrt(np.maximum(idx.n_items, 1.0))
    cats = sig["categories"]
    for k in idx.cats_of_author(author):
        holders = {pos[a] for p in idx.papers_in_category.get(k, ()) for a in idx.authors_of.get(p, ())}
        if holders:
            cats[list(holders)] += 1.0 if "/" in k else 0.5
    cites = sig["citations"]
    for p in idx.papers_of.get(author, ()):
        for q in idx.cites.get(p, set()) | idx.cited_by.get(p, set()):
            for c in idx.authors_of.get(q, ()):
                cites[pos[c]] += 1.0
    return sig


def combine(signals: dict[str, np.ndarray], n_papers: np.ndarray, *,
            weights: dict[str, float] | None = None) -> np.ndarray:
    """The author score from its signals (see module doc and :data:`AUTHOR_WEIGHTS`).

    Examples
    --------
    >>> z = np.zeros(2)
    >>> s = {k: z for k in SIGNALS} | {"paths2": np.array([2.0, 0.0])}
    >>> np.round(combine(s, np.array([1.0, 1.0]), weights={**AUTHOR_WEIGHTS, "prior": 0.0}), 3)
    array([5.303, 0.   ])
    """
    w = AUTHOR_WEIGHTS if weights is None else {**AUTHOR_WEIGHTS, **weights}
    proximity = w["co"] * signals["co"] + signals["paths2"] + w["n3"] * signals["n3"]
    return (np.log1p(proximity / w["eps"])
            + w["terms"] * signals["terms"] + w["nbmax"] * signals["nbmax"]
            + w["topics"] * np.log1p(signals["topics"]) + w["prior"] * np.log1p(n_papers)
            + w["categories"] * signals["categories"] + w["citations"] * np.log1p(signals["citations"]))


def _related_mask(signals: dict[str, np.ndarray]) -> np.ndarray:
    """Authors related by some signal (the activity prior alone does not make a relation)."""
    mask = np.zeros(len(signals["co"]), dtype=bool)
    for k in ("co", "cn", "n3", "terms", "topics", "categories", "citations"):
        mask |= signals[k] > 0
    return mask


def author_scores(G: nx.MultiDiGraph | RelatedIndex, author: str, *, candidates: Iterable[str] | None = None,
                  weights: dict[str, float] | None = None) -> dict[str, float]:
    """The combined score of candidates for a query author key (see module doc).

    With ``candidates``, every one of them is scored (those with no signal get the activity
    prior only); without, only authors related by some signal.
    """
    idx = _index(G)
    sig = _signals(idx, author)
    score = combine(sig, idx.n_papers, weights=weights)
    if candidates is None:
        keep = np.flatnonzero(_related_mask(sig))
        return {idx.authors[i]: float(score[i]) for i in keep if idx.authors[i] != author}
    return {c: float(score[idx.pos[c]]) for c in candidates if c != author}


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def related_authors(
    G: nx.MultiDiGraph | RelatedIndex,
    name: str,
    *,
    top: int = 10,
    exclude_coauthors: bool = False,
    exclude_within: int | None = None,
    weights: dict[str, float] | None = None,
) -> list[Related]:
    """Authors related to ``name``, best first, each with reasons in words.

    Parameters
    ----------
    G
        A graph from :func:`kg.graph.build_graph`, or its index read back from a build folder
        by :func:`kg.related_index.load_related_index` (same results, without the graph).
    name
        An author name (any spelling; accents and case ignored) or author node key.
    top
        How many to return.
    exclude_coauthors
        Leave out existing co-authors (the reviewer view: they are conflicts of interest).
    exclude_within
        Leave out everyone within this many co-author hops (``exclude_coauthors`` is 1).
    weights
        Override some of :data:`AUTHOR_WEIGHTS`.

    Raises
    ------
    NotFoundError
        When no author has that name (the message lists close matches).
    """
    idx = _index(G)  # checked once: the check counts the edges of G (a RelatedIndex as is)
    author = _find_author(idx, name)
    limit = max(exclude_within or 0, 1 if exclude_coauthors else 0)
    dist = _distances(idx, author, max(3, limit))
    sig = _signals(idx, author)
    score = combine(sig, idx.n_papers, weights=weights)
    rows = []
    for i in np.flatnonzero(_related_mask(sig)):
        c = idx.authors[i]
        hops = dist.get(c)
        if c == author or (hops is not None and hops <= limit):
            continue
        rows.append((float(score[i]), c, hops, i))
    rows.sort(key=lambda r: (-r[0], r[1]))
    out = []
    for s, c, hops, i in rows[:top]:
        comp = {k: float(v[i]) for k, v in sig.items()}
        out.append(Related(c, idx.label(c), s, hops, tuple(_author_reasons(idx, author, c, hops, comp)), comp))
    return out


def _joint_papers(idx: _Index, a: str, c: str) -> set[str]:
    return set(idx.papers_of.get(a, ())) & set(idx.papers_of.get(c, ()))


def _shared_coauthors(idx: _Index, a: str, c: str) -> list[str]:
    """Co-authors of both ``a`` and ``c`` through papers other than the two's joint papers
    (the other authors of a joint paper say nothing more than the joint paper itself)."""
    joint = _joint_papers(idx, a, c)

    def others(x: str) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for p in idx.papers_of.get(x, ()):
            if p not in joint:
                for z in idx.authors_of.get(p, ()):
                    if z != x and z in idx.co.get(x, {}):
                        out[z] += 1
        return out

    if not joint:
        mine, theirs = idx.co.get(a, {}), idx.co.get(c, {})
    else:
        mine, theirs = others(a), others(c)
    common = [z for z in mine if z in theirs and z not in (a, c)]
    return sorted(common, key=lambda z: (-mine[z] * theirs[z], idx.label(z)))


#: Words of web addresses: they weigh in the score like any rare term, but say nothing as a reason.
_URL_WORDS = frozenset("http https www com org github io html".split())


#: Words that make a word pair a fragment of a sentence rather than a topic ("becomes
#: increasingly", "given limited", "avoid toxic"); words ending in -ly are treated the same.
_REASON_NOISE = frozenset("""
able allow allows avoid avoids become becomes becoming besides beyond better can cannot consider considers
directly hence onto therefore toward towards whereby
due enable enables ensure ensures even follow follows given good help helps high higher improve
improves improved improving including key known lack lead leads less limited low lower make makes
making many may need needs obtain often particular possible remains require requires same set shown
still strong such take takes typically unlike way ways well whereas widely without yield yields
""".split())
_NOT_WORD = re.compile(r"[^a-z0-9\- ]+")


def _phrase_text(idx: _Index, papers: Iterable[str]) -> str:
    """The folded titles and abstracts of ``papers``, punctuation kept as a barrier ("|")."""
    parts = []
    for p in papers:
        for text in idx.paper_text(p):
            if text:
                parts.append(" ".join(_NOT_WORD.sub(" | ", fold(text)).split()))
    return " | " + " | ".join(parts) + " "


def _top_terms(idx: _Index, a: str, c: str, n: int = 3) -> list[str]:
    """The word pairs that add most to the two authors' cosine, as both write them.

    Only the wording of the reason is chosen here; the score uses every term. A pair must
    appear as written (no punctuation between its words) in a paper of each author, so
    "Generative Flow Networks (GFlowNets)" gives no "networks gflownets"; adjacent pairs of
    one phrase are joined ("generative flow" + "flow networks" = "generative flow networks").
    """
    terms = idx.terms()
    va, vc = terms.vectors[idx.pos[a]], terms.vectors[idx.pos[c]]
    # Word pairs only: single words that weigh most are often incidental ("enjoys", "overall").
    shared = sorted((t for t in va if " " in t and t in vc and _URL_WORDS.isdisjoint(t.split())),
                    key=lambda t: (-va[t] * vc[t], t))
    texts: tuple[str, str] | None = None
    out: list[str] = []
    for t in shared[:50]:
        words = t.split()
        if any(w in _REASON_NOISE or w.endswith("ly") for w in words):
            continue
        if texts is None:
            texts = (_phrase_text(idx, dict.fromkeys(idx.papers_of.get(a, ()))),
                     _phrase_text(idx, dict.fromkeys(idx.papers_of.get(c, ()))))
        if not all(f" {t} " in x for x in texts):
            continue
        for k, prev in enumerate(out):
            joined = None
            if len(prev.split()) == 2:  # at most three words: longer chains are sentence pieces
                joined = (f"{prev} {words[-1]}" if prev.split()[-1] == words[0] else
                          f"{words[0]} {prev}" if prev.split()[0] == words[-1] else None)
            if joined and all(f" {joined} " in x for x in texts):
                out[k] = joined
                break
            if set(words) & set(prev.split()):
                break  # overlaps a phrase already given without forming one with it
        else:
            out.append(t)
        if len(out) == n:
            break
    return out


def _top_words(idx: _Index, a: str, c: str, n: int = 3) -> list[str]:
    """The single words that add most to the two authors' cosine (for when no word pair is
    shared as written: see :func:`_top_terms`)."""
    terms = idx.terms()
    va, vc = terms.vectors[idx.pos[a]], terms.vectors[idx.pos[c]]
    words = (t for t in va if " " not in t and t in vc and len(t) >= 4 and t not in _URL_WORDS
             and t not in _REASON_NOISE and not t.endswith("ly"))
    return sorted(words, key=lambda t: (-va[t] * vc[t], t))[:n]


def _author_reasons(idx: _Index, a: str, c: str, hops: int | None, comp: dict[str, float]) -> list[str]:
    name = idx.label
    reasons = []
    if hops == 1:
        n = idx.co[a][c]
        reasons.append(f"already co-authors on {n} paper{'s' if n != 1 else ''}")
    common = _shared_coauthors(idx, a, c)
    if common:
        names = [name(z) for z in common[:3]]
        more = f" (and {len(common) - 3} more)" if len(common) > 3 else ""
        reasons.append(f"shares co-author{'s' if len(common) > 1 else ''} {_join(names)}{more}")
    if hops == 3:
        path = _path3(idx, a, c)
        if path:
            reasons.append(f"linked through {name(path[0])} and {name(path[1])}")
    shared = sorted(set(idx.items_of_author.get(a, ())) & set(idx.items_of_author.get(c, ())),
                    key=lambda it: (-idx.idf[it], it))
    picked: list[str] = []
    if shared:
        # rarest first; a name inside one already given adds nothing ("variable model" after
        # "latent variable model")
        for it in shared:
            label = name(it)
            if not any(fold(label) in fold(p) for p in picked):
                picked.append(label)
            if len(picked) == 3:
                break
        reasons.append(f"both work on {_join(picked)}")
    if comp.get("terms", 0.0) >= REASON_MIN_COSINE:
        words = _top_terms(idx, a, c)
        said = " ".join(fold(p) for p in picked)
        words = [t for t in words if t not in said]
        if words:
            reasons.append(f"both write about {_join(words)}")
        elif comp["terms"] >= WORDS_MIN_COSINE:
            # No shared phrase, yet the texts are close: say which words make that, or the
            # reasons would leave out what may be the largest part of the score.
            words = [t for t in _top_words(idx, a, c) if t not in said]
            if words:
                reasons.append(f"share the words {_join(words)}")
    if hops != 1 and comp.get("nbmax", 0.0) >= REASON_MIN_COSINE:
        z = _closest_coauthor(idx, a, c)
        if z and z not in common:
            reasons.append(f"close in topic to co-author {name(z)}")
    cats = sorted(k for k in idx.cats_of_author(a) & idx.cats_of_author(c) if "/" in k)
    if cats:
        reasons.append(f"both publish in {_join([name(k) for k in cats[:2]])}")
    n_cite = int(comp.get("citations", 0))
    if n_cite:
        reasons.append(f"{n_cite} citation{'s' if n_cite != 1 else ''} between their papers")
    # The score's productivity prior, said only where it sets the candidate apart: most
    # authors have a paper or two, so "2 papers" explains nothing.
    n_pap = len(idx.papers_of.get(c, ()))
    share = idx.top_share(n_pap)
    if n_pap >= PROLIFIC_MIN_PAPERS and share <= PROLIFIC_TOP_SHARE:
        reasons.append(f"prolific: {n_pap} papers (top {max(1, math.ceil(100 * share))}% of authors)")
    if hops and hops > 1:
        reasons.append(f"{hops} hops")
    elif hops is None:
        reasons.append("not connected by co-authorship within 3 hops")
    return reasons


def _path3(idx: _Index, a: str, c: str) -> tuple[str, str] | None:
    """The strongest co-author path ``a - z1 - z2 - c`` (by joint papers), as ``(z1, z2)``."""
    co = idx.co
    best = None
    for z1, w1 in co.get(a, {}).items():
        for z2, w2 in co.get(z1, {}).items():
            if z2 in (a, c) or c not in co.get(z2, {}):
                continue
            key = (w1 * w2 * co[z2][c], z1, z2)
            if best is None or key[0] > best[0] or (key[0] == best[0] and key[1:] < best[1:]):
                best = key
    return (best[1], best[2]) if best else None


def _closest_coauthor(idx: _Index, a: str, c: str) -> str | None:
    """The co-author of ``a`` (other than ``c``) whose term profile is closest to ``c``'s."""
    terms = idx.terms()
    vc = terms.vectors[idx.pos[c]]
    best, best_z = REASON_MIN_COSINE, None
    for z in sorted(idx.co.get(a, {})):
        if z == c:
            continue
        vz = terms.vectors[idx.pos[z]]
        s = sum(x * vc[t] for t, x in vz.items() if t in vc)
        if s > best:
            best, best_z = s, z
    return best_z


def related_papers(G: nx.MultiDiGraph | RelatedIndex, paper_id: str, *, top: int = 10) -> list[Related]:
    """Papers related to a paper (by record id, node key, DOI or exact title), with reasons.

    The score adds shared authors, rarity-weighted shared methods/benchmarks/concepts,
    direct citations, bibliographic coupling and co-citation (shared references or citing
    papers), and a shared category. ``G`` is a graph or its index read back from a build
    folder by :func:`kg.related_index.load_related_index` (same results, without the graph).

    Raises
    ------
    NotFoundError
        When no paper matches ``paper_id`` (see :func:`find_paper`).
    """
    idx = _index(G)
    p = _find_paper(idx, paper_id)
    w = PAPER_WEIGHTS
    comps: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(
        ("authors", "topics", "citations", "coupling", "categories"), 0.0))
    for a in idx.authors_of.get(p, ()):
        for q in idx.papers_of.get(a, ()):
            comps[q]["authors"] += 1.0
    papers_of_item = idx.papers_of_item()
    # In key order: the items come from a set, and a float sum in another order can differ in
    # the last bit (and swap two tied papers) from process to process.
    for it in sorted(idx.items_of_paper.get(p, ())):
        if it not in idx.idf:
            continue
        for q in papers_of_item.get(it, ()):
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
    return [Related(q, idx.paper_label(q), s, None, tuple(_paper_reasons(idx, p, q)), comp)
            for s, q, comp in rows[:top]]


def _paper_reasons(idx: _Index, p: str, q: str) -> list[str]:
    reasons = []
    shared_authors = [a for a in idx.authors_of.get(p, ()) if a in set(idx.authors_of.get(q, ()))]
    if shared_authors:
        reasons.append(f"shares author{'s' if len(shared_authors) > 1 else ''} "
                       f"{_join([idx.label(a) for a in shared_authors[:3]])}")
    shared = sorted((it for it in idx.items_of_paper.get(p, set()) & idx.items_of_paper.get(q, set()) if it in idx.idf),
                    key=lambda it: (-idx.idf[it], it))
    if shared:
        reasons.append(f"both on {_join([idx.label(it) for it in shared[:3]])}")
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
        reasons.append(f"same category {idx.label(cats[-1])}")
    return reasons
