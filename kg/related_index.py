"""The author side of :mod:`kg.related` kept in the build folder, so ``kg related`` answers
without loading the graph.

A query for related authors reads the co-author weights, each author's papers, rare
methods/benchmarks/concepts, categories and citations, the term profiles and, for the reasons
in words, names and the text of a few papers. A query for related papers (``--paper``) reads
each paper's authors, rare items, categories and citations, the papers of each rare item, and
to find the paper its key, record id and title. :func:`write_related_index` stores exactly those
tables, derived from the graph by :class:`kg.related.RelatedIndex`, as flat NumPy arrays (CSR
tables of integer ids, UTF-8 blobs with offsets for strings); :func:`load_related_index` maps
them back (``mmap_mode="r"``: only the pages a query touches are read) into a
:class:`StoredIndex`, whose attributes behave like the graph-built index's, so the one scoring
code in :mod:`kg.related` gives the same ranked authors, scores and reasons.

Layout::

    OUT/related/
      meta.json      format, code fingerprint, the graph file it was derived from, array shapes
      *.npy          one array each (see :func:`_tables`)

``meta.json`` is written last and removed first: a half-written index is never taken for a
whole one. An index whose format, code fingerprint or graph file (size and modification time)
differ from the current ones is stale; :func:`workspace_index` then rebuilds it from the graph.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from kg import related as _rel
from kg.errors import WorkspaceError
from kg.io import atomic_write
from kg.text import digest

#: Folder of the index inside a build folder.
INDEX_DIR = "related"
#: Version of the layout; another number means "rebuild". 2: every paper (not only those with
#: authors, categories or citations), paper labels and record ids, items_of_paper and
#: papers_of_item (for related papers).
INDEX_FORMAT = 2
_META = "meta.json"


class StaleIndexError(WorkspaceError):
    """The stored related-authors index is missing, unreadable or from another graph or version."""


def code_fingerprint() -> str:
    """A digest of what the stored tables depend on besides the graph: the layout version and
    the term and entity definitions of :mod:`kg.related` (a change to them makes old indexes stale)."""
    return digest(str(INDEX_FORMAT), " ".join(sorted(_rel.STOPWORDS)), _rel._WORD.pattern,
                  " ".join(sorted(_rel._ENTITY_EDGES)), " ".join(sorted(_rel._ENTITY_TYPES)), length=16)


def graph_fingerprint(graph_path: str | Path) -> str:
    """The graph file's size and modification time, as ``size:mtime_ns``."""
    st = Path(graph_path).stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


# -- strings and CSR tables ------------------------------------------------------------------

def _encode(strings: Iterable[str | None]) -> tuple[np.ndarray, np.ndarray]:
    """One UTF-8 blob and ``n + 1`` offsets (``None`` is stored as the empty string)."""
    parts = [(s or "").encode("utf-8", "surrogatepass") for s in strings]
    offs = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum([len(p) for p in parts], out=offs[1:])
    return np.frombuffer(b"".join(parts), dtype=np.uint8), offs


def _decode(blob: np.ndarray, offs: np.ndarray) -> list[str]:
    raw, o = blob.tobytes(), offs.tolist()
    return [raw[o[i]:o[i + 1]].decode("utf-8", "surrogatepass") for i in range(len(o) - 1)]


class _Strings(Sequence):
    """Strings decoded one at a time from a (memory-mapped) blob: the vocabulary and paper texts
    are too many to decode for a query that reads a few hundred of them."""

    def __init__(self, blob: np.ndarray, offs: np.ndarray) -> None:
        self.raw, self.offs = memoryview(np.ascontiguousarray(blob)), offs

    def __len__(self) -> int:
        return len(self.offs) - 1

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError(i)
        i %= n
        lo, hi = self.offs[i:i + 2].tolist()
        return str(self.raw[lo:hi], "utf-8", "surrogatepass")

    def many(self, ids: np.ndarray) -> list[str]:
        """The strings at ``ids``."""
        raw = self.raw
        return [str(raw[lo:hi], "utf-8", "surrogatepass")
                for lo, hi in zip(self.offs[ids].tolist(), self.offs[np.asarray(ids) + 1].tolist())]


def _csr(rows: Sequence[str], table: Mapping[str, Any], pos: Mapping[str, int] | None,
         weighted: bool = False) -> dict[str, np.ndarray]:
    """``table`` (key -> list/set/dict of keys, or of ids when ``pos`` is None) as row pointers
    and target ids, each row in the container's own order (sums over a row then add up in the
    same order as from the graph)."""
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    tgt: list[int] = []
    wts: list[Any] = []
    for i, key in enumerate(rows):
        row = table.get(key) or ()
        tgt.extend(row if pos is None else (pos[t] for t in row))
        if weighted and row:
            wts.extend(row.values())
        ptr[i + 1] = len(tgt)
    out = {"ptr": ptr, "tgt": np.array(tgt, dtype=np.int32)}
    if weighted:
        out["w"] = np.array(wts, dtype=np.int32)  # joint papers, papers with an item
    return out


class _Rows(Mapping):
    """A read-only ``key -> list | set | dict`` view of one CSR table, decoded row by row (and
    kept: a query reads the same co-author rows many times)."""

    def __init__(self, pos: Mapping[str, int], ptr: np.ndarray, tgt: np.ndarray, keys: Sequence[Any] | None,
                 kind: type = list, weights: np.ndarray | None = None) -> None:
        self.pos, self.ptr, self.tgt, self.keys = pos, ptr, tgt, keys
        self.kind, self.weights = kind, weights
        self._rows: dict[int, Any] = {}

    def __getitem__(self, key: str) -> Any:
        i = self.pos[key]
        row = self._rows.get(i)
        if row is None:
            lo, hi = int(self.ptr[i]), int(self.ptr[i + 1])
            ids = self.tgt[lo:hi].tolist()
            if self.keys is not None:
                keys = self.keys
                ids = [keys[j] for j in ids]
            row = dict(zip(ids, self.weights[lo:hi].tolist())) if self.weights is not None else self.kind(ids)
            self._rows[i] = row
        return row

    def __iter__(self) -> Iterator[str]:
        return iter(self.pos)

    def __len__(self) -> int:
        return len(self.pos)


# -- writing ---------------------------------------------------------------------------------

def _tables(idx: _rel.RelatedIndex) -> dict[str, np.ndarray]:
    """Every array of the stored index, from an index built on the graph."""
    authors = idx.authors
    apos = idx.pos
    papers = idx.paper_keys  # every paper: --paper finds any of them
    ppos = {p: i for i, p in enumerate(papers)}
    items = sorted(idx.idf)
    ipos = {it: i for i, it in enumerate(items)}
    cats = sorted(idx.papers_in_category)
    cpos = {k: i for i, k in enumerate(cats)}
    out: dict[str, np.ndarray] = {}

    def strings(name: str, values: Iterable[str | None]) -> None:
        out[f"{name}_blob"], out[f"{name}_offs"] = _encode(values)

    def table(name: str, rows: Sequence[str], tab: Mapping[str, Any], pos: Mapping[str, int] | None,
              weighted: bool = False) -> None:
        for part, arr in _csr(rows, tab, pos, weighted).items():
            out[f"{name}_{part}"] = arr

    strings("author", authors)
    strings("author_name", (idx.label(a) for a in authors))
    strings("paper", papers)
    texts = [idx.paper_text(p) for p in papers]
    strings("title", (t for t, _ in texts))
    strings("abstract", (a for _, a in texts))
    del texts
    strings("paper_label", (idx.paper_label(p) for p in papers))
    strings("record_id", idx.paper_record_ids())
    strings("item", items)
    strings("item_name", (idx.label(it) for it in items))
    out["item_idf"] = np.array([idx.idf[it] for it in items], dtype=np.float64)
    strings("cat", cats)
    strings("cat_name", (idx.G.nodes[k].get("name") or "" for k in cats))
    names = idx.names()
    strings("name_key", names)
    out["name_author"] = np.array([apos[a] for a in names.values()], dtype=np.int32)

    table("co", authors, idx.co, apos, weighted=True)
    table("papers_of", authors, idx.papers_of, ppos)
    table("authors_of", papers, idx.authors_of, apos)
    items_of_author = idx.items_of_author
    table("items_of_author", authors, items_of_author, ipos, weighted=True)
    # item_authors holds author positions already
    table("item_authors", items, idx.item_authors, None)
    table("cats_of_paper", papers, idx.cats_of_paper, cpos)
    table("papers_in_category", cats, idx.papers_in_category, ppos)
    table("cites", papers, idx.cites, ppos)
    table("cited_by", papers, idx.cited_by, ppos)
    idf = idx.idf
    rare = {p: sorted(it for it in its if it in idf) for p, its in idx.items_of_paper.items()}
    table("items_of_paper", papers, rare, ipos)  # rare items only: the others weigh nothing
    del rare
    table("papers_of_item", items, idx.papers_of_item(), ppos)

    terms = idx.terms()
    out["terms_row_ptr"] = terms.row_ptr.astype(np.int64)
    out["terms_cols"] = terms.cols.astype(np.int32)
    out["terms_ptr"] = terms.ptr.astype(np.int64)
    strings("vocab", terms.vocab)
    out.update(_term_weights(terms))
    return out


def _term_weights(terms: Any) -> dict[str, np.ndarray]:
    """The weights by term (read in bulk by every cosine) as they are, and the weights by
    author (read one row at a time) as counts, 1 byte instead of 8, when they recompute to the
    very same bits (else as floats too)."""
    by_term = {"terms_who": terms.who.astype(np.int32), "terms_val": terms.val.astype(np.float64)}
    if terms.parts is not None:
        cnt, tab, idf, norms = terms.parts
        rows = np.repeat(np.arange(terms.n, dtype=np.int32), np.diff(terms.row_ptr))
        step = 1 << 22  # checked in slices: five temporaries of every weight at once weigh 1 GB at 100k papers
        if all(np.array_equal(_weights(tab, cnt[k:k + step], idf, terms.cols[k:k + step], norms, rows[k:k + step]),
                              terms.vals[k:k + step]) for k in range(0, len(cnt), step)):
            return by_term | {"terms_cnt": cnt, "terms_tab": tab, "terms_idf": idf, "terms_norms": norms}
    return by_term | {"terms_vals": terms.vals.astype(np.float64)}


def _weights(tab: np.ndarray, cnt: np.ndarray, idf: np.ndarray, cols: np.ndarray, norms: np.ndarray,
             rows: np.ndarray) -> np.ndarray:
    # the operations of kg.related._Index.terms, in its order: (1 + log count) * idf, / norm
    return tab[cnt] * idf[cols] / norms[rows]


class _RowWeights:
    """``vals[lo:hi]`` of :class:`kg.related._Terms` (weights in author order), computed from
    the stored counts for the postings read."""

    def __init__(self, a: Mapping[str, np.ndarray]) -> None:
        self.cnt, self.tab, self.idf, self.norms = a["terms_cnt"], a["terms_tab"], a["terms_idf"], a["terms_norms"]
        self.cols, self.row_ptr = a["terms_cols"], a["terms_row_ptr"]

    def __len__(self) -> int:
        return len(self.cnt)

    def __getitem__(self, k: Any) -> np.ndarray:
        if isinstance(k, slice):
            k = np.arange(*k.indices(len(self)))
        k = np.asarray(k)
        rows = np.searchsorted(self.row_ptr, k, side="right") - 1
        return _weights(self.tab, self.cnt[k], self.idf, self.cols[k], self.norms, rows)


def write_related_index(G: Any, folder: str | Path, *, key: str) -> dict[str, Any]:
    """Write the related-authors index of ``G`` (a graph or a :class:`kg.related.RelatedIndex`
    built on one) into ``folder``, for the graph file fingerprinted ``key``
    (:func:`graph_fingerprint`). Returns the metadata written (with ``bytes``, the size on disk).

    A graph is indexed afresh (not through :mod:`kg.related`'s per-graph cache), so the
    tables are freed when this returns.
    """
    idx = G if isinstance(G, _rel.RelatedIndex) else _rel.RelatedIndex(G)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / _META).unlink(missing_ok=True)  # from here on the folder is not a valid index
    tables = _tables(idx)
    arrays = {}
    size = 0
    for name, arr in tables.items():
        path = folder / f"{name}.npy"
        tmp = folder / f".{name}.npy.tmp"
        with open(tmp, "wb") as fh:
            np.save(fh, np.ascontiguousarray(arr), allow_pickle=False)
        os.replace(tmp, path)  # a reader holding the old file mapped keeps it
        arrays[name] = [arr.dtype.str, list(arr.shape)]
        size += path.stat().st_size
    meta = {"format": INDEX_FORMAT, "code": code_fingerprint(), "graph": key, "signature": list(idx.signature),
            "df_limit": idx.df_limit, "authors": len(idx.authors), "arrays": arrays, "bytes": size}
    with atomic_write(folder / _META) as fh:
        json.dump(meta, fh, indent=1)
    return meta


# -- reading ---------------------------------------------------------------------------------

class StoredIndex(_rel.RelatedIndex):
    """A :class:`kg.related.RelatedIndex` read back from a build folder (no graph).

    Both :func:`kg.related.related_authors` and :func:`kg.related.related_papers` answer from it.
    """

    def __init__(self, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
        a = arrays
        self.G = None
        self.meta = dict(meta)
        self.signature = tuple(meta["signature"])
        self.authors = _decode(a["author_blob"], a["author_offs"])
        self.pos = {k: i for i, k in enumerate(self.authors)}
        self._author_names = _Strings(a["author_name_blob"], a["author_name_offs"])
        papers = _decode(a["paper_blob"], a["paper_offs"])
        self._papers = {p: i for i, p in enumerate(papers)}
        self._titles = _Strings(a["title_blob"], a["title_offs"])
        self._abstracts = _Strings(a["abstract_blob"], a["abstract_offs"])
        self.paper_keys = papers
        self._paper_labels = _Strings(a["paper_label_blob"], a["paper_label_offs"])
        self._record_ids = (a["record_id_blob"], a["record_id_offs"])
        items = _decode(a["item_blob"], a["item_offs"])
        ipos = {it: i for i, it in enumerate(items)}
        self._items = ipos
        self._item_names = _Strings(a["item_name_blob"], a["item_name_offs"])
        self.idf = dict(zip(items, a["item_idf"].tolist()))
        cats = _decode(a["cat_blob"], a["cat_offs"])
        cpos = {k: i for i, k in enumerate(cats)}
        self._cat_names = dict(zip(cats, _decode(a["cat_name_blob"], a["cat_name_offs"])))
        self._name_keys = (a["name_key_blob"], a["name_key_offs"], a["name_author"])

        def rows(name: str, pos: Mapping[str, int], keys: Sequence[Any] | None, kind: type = list,
                 weighted: bool = False) -> _Rows:
            return _Rows(pos, a[f"{name}_ptr"], a[f"{name}_tgt"], keys, kind,
                         a[f"{name}_w"] if weighted else None)

        self.co = rows("co", self.pos, self.authors, weighted=True)
        self.papers_of = rows("papers_of", self.pos, papers)
        self.authors_of = rows("authors_of", self._papers, self.authors)
        self.items_of_author = rows("items_of_author", self.pos, items, weighted=True)
        self.item_authors = rows("item_authors", ipos, None)
        self.cats_of_paper = rows("cats_of_paper", self._papers, cats, set)
        self.papers_in_category = rows("papers_in_category", cpos, papers)
        self.cites = rows("cites", self._papers, papers, set)
        self.cited_by = rows("cited_by", self._papers, papers, set)
        self.items_of_paper = rows("items_of_paper", self._papers, items, set)
        self._papers_of_item = rows("papers_of_item", ipos, papers)
        self.n_papers = np.diff(a["papers_of_ptr"]).astype(np.float64)
        self._sorted_counts = np.sort(self.n_papers)
        self.n_items = np.diff(a["items_of_author_ptr"]).astype(np.float64)
        self.df_limit = int(meta["df_limit"])
        self._names = None
        vals = _RowWeights(a) if "terms_cnt" in a else a["terms_vals"]
        self._terms = _rel._Terms.from_arrays(
            _Strings(a["vocab_blob"], a["vocab_offs"]), a["terms_row_ptr"], a["terms_cols"], vals,
            a["terms_ptr"], a["terms_who"], a["terms_val"], len(self.authors))

    def label(self, key: str) -> str:
        i = self.pos.get(key)
        if i is not None:
            return self._author_names[i]
        i = self._items.get(key)
        if i is not None:
            return self._item_names[i]
        return self._cat_names[key]

    def is_author(self, key: str) -> bool:
        return key in self.pos

    def paper_text(self, key: str) -> tuple[str | None, str | None]:
        i = self._papers[key]
        return self._titles[i], self._abstracts[i]

    def is_paper(self, key: str) -> bool:
        return key in self._papers

    def paper_label(self, key: str) -> str:
        return self._paper_labels[self._papers[key]]

    def paper_titles(self) -> list[str | None]:
        return [t or None for t in _decode(self._titles.raw, self._titles.offs)]

    def paper_record_ids(self) -> list[str]:
        return _decode(*self._record_ids)

    def papers_of_item(self) -> Mapping[str, list[str]]:
        return self._papers_of_item

    def names(self) -> dict[str, str]:
        if self._names is None:
            blob, offs, who = self._name_keys
            authors = self.authors
            self._names = dict(zip(_decode(blob, offs), (authors[i] for i in who.tolist())))
        return self._names


def load_related_index(folder: str | Path, *, key: str | None = None) -> StoredIndex:
    """The index in ``folder``, memory-mapped.

    Raises
    ------
    StaleIndexError
        When there is none, it is unreadable, of another format or code version, or (with
        ``key``) derived from another graph file.
    """
    folder = Path(folder)
    try:
        meta = json.loads((folder / _META).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StaleIndexError(f"{folder}: no related-authors index") from None
    except (OSError, ValueError) as e:
        raise StaleIndexError(f"{folder / _META}: unreadable ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != INDEX_FORMAT or meta.get("code") != code_fingerprint():
        raise StaleIndexError(f"{folder}: related-authors index from another paperkg version")
    if key is not None and meta.get("graph") != key:
        raise StaleIndexError(f"{folder}: related-authors index of an older graph.pickle")
    arrays: dict[str, np.ndarray] = {}
    try:
        for name, (dtype, shape) in meta["arrays"].items():
            arr = np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
            if arr.dtype.str != dtype or list(arr.shape) != shape:
                raise ValueError(f"{name}.npy has {arr.dtype.str} {list(arr.shape)}, expected {dtype} {shape}")
            arrays[name] = arr.view(np.ndarray)  # still the mapped pages; slices without np.memmap's overhead
        return StoredIndex(arrays, meta)
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError) as e:
        raise StaleIndexError(f"{folder}: related-authors index unreadable ({e})") from None


def write_workspace_index(G: Any, ws: Any) -> dict[str, Any]:
    """Write the index of the graph just saved to the build folder ``ws`` (a
    :class:`kg.workspace.Workspace`) into ``OUT/related/``; ``kg build`` calls this."""
    return write_related_index(G, ws.path / INDEX_DIR, key=graph_fingerprint(ws.graph_path))


def workspace_index(ws: Any, *, log: Callable[[str], None] = lambda msg: None,
                    check: Callable[[_rel.RelatedIndex], Any] | None = None) -> _rel.RelatedIndex:
    """The related-authors index of the build folder ``ws``: the stored one when it is current,
    else one built from the graph (then stored, so the next call is fast; ``log`` gets one line
    saying why). ``check`` runs on the index before the slow part of the rebuild (the term
    profiles and writing), e.g. to fail early on an unknown author name.
    """
    folder = ws.path / INDEX_DIR
    graph = ws.require(ws.graph_path, "graph")
    try:
        return load_related_index(folder, key=graph_fingerprint(graph))
    except StaleIndexError as e:
        log(f"{e}; building it from the graph (once)")
    idx = _rel.RelatedIndex(ws.load_graph())
    if check is not None:
        check(idx)
    try:
        write_related_index(idx, folder, key=graph_fingerprint(graph))
    except OSError as e:
        log(f"{folder}: could not store the related-authors index ({e})")
    return idx
