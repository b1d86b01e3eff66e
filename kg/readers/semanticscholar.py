"""Semantic Scholar: Graph API paper JSON, and S2ORC metadata lines.

Graph API shapes accepted (https://api.semanticscholar.org/api-docs/graph):

- one paper (``/paper/{id}``), possibly with nested ``citations`` and ``references`` lists;
- a list of papers (``/paper/batch``; ``null`` items, for ids not found, are skipped);
- a page ``{"data": [...]}`` from search, or from ``/paper/{id}/citations`` and
  ``/references`` whose items wrap the paper as ``citingPaper`` / ``citedPaper``;
- JSON Lines of any of these.

Every paper that appears becomes a record: the top paper, each citing paper and each cited
paper. The top paper's references are its cited papers' ids; each citing paper gets the top
paper's id as a reference, so the citation edges survive. A nested reference without a
``paperId`` (S2 could not resolve it; its "title" is often a footnote) cannot be linked to
anything and is not emitted.

Fields: ``paperId`` -> ``ids["s2"]``; ``externalIds`` DOI, ArXiv, CorpusId (-> ``corpusid``),
MAG, ACL, PubMed (-> ``pmid``); ``authors[].name`` and ``authors[].authorId`` (-> ``author_ids``);
``venue`` (else ``publicationVenue.name``, else ``journal.name``); ``year``; the first of
``fieldsOfStudy`` (else of ``s2FieldsOfStudy``) -> category area. References are written
``s2:<paperId>``.

S2ORC metadata lines (``paper_id``, ``authors`` as first/middle/last/suffix,
``outbound_citations``; S2ORC, Lo et al. 2020) are read here too: the paper_id is an S2 corpus
id, kept as ``ids["s2orc"]`` and ``ids["corpusid"]``; ``outbound_citations`` become
``s2orc:<id>`` references; ``mag_field_of_study[0]`` is the category area.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from kg.readers.base import ReadContext
from kg.readers.jsonl import authors_from_json, iter_json_values
from kg.records import Category, Record, Source, make_record

NAME = "semanticscholar"
EXTENSIONS = ()

_EXTERNAL = {"DOI": "doi", "ArXiv": "arxiv", "CorpusId": "corpusid", "MAG": "mag", "ACL": "acl",
             "PubMed": "pmid"}


def _first_field(paper: dict[str, Any]) -> Category | None:
    fos = paper.get("fieldsOfStudy")
    if isinstance(fos, list) and fos and isinstance(fos[0], str):
        return Category(fos[0])
    s2fos = paper.get("s2FieldsOfStudy")
    if isinstance(s2fos, list) and s2fos and isinstance(s2fos[0], dict) and s2fos[0].get("category"):
        return Category(str(s2fos[0]["category"]))
    return None


def _venue(paper: dict[str, Any]) -> str | None:
    for value in (paper.get("venue"), (paper.get("publicationVenue") or {}).get("name")
                  if isinstance(paper.get("publicationVenue"), dict) else None,
                  (paper.get("journal") or {}).get("name") if isinstance(paper.get("journal"), dict) else None):
        if isinstance(value, str) and value.strip():
            return value
    return None


def _ref_id(paper: Any) -> str | None:
    if isinstance(paper, dict) and isinstance(paper.get("paperId"), str) and paper["paperId"]:
        return f"s2:{paper['paperId']}"
    return None


def _paper_record(paper: dict[str, Any], path: Path, line: int, ctx: ReadContext,
                  references: list[str]) -> Record | None:
    title = paper.get("title") if isinstance(paper.get("title"), str) else None
    abstract = paper.get("abstract") if isinstance(paper.get("abstract"), str) else None
    if not ctx.check_text(title, abstract, line=line, what=f"Semantic Scholar paper {paper.get('paperId')!r}"):
        return None
    try:
        authors, aids = authors_from_json(paper.get("authors"))
    except ValueError as exc:
        ctx.bad(f"bad field: {exc}", line=line)
        return None
    ids: dict[str, str | None] = {"s2": paper.get("paperId")}
    ext = paper.get("externalIds") if isinstance(paper.get("externalIds"), dict) else {}
    for key, kind in _EXTERNAL.items():
        if ext.get(key) not in (None, ""):
            ids[kind] = str(ext[key])
    if paper.get("corpusId") and not ids.get("corpusid"):
        ids["corpusid"] = str(paper["corpusId"])
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=authors,
        author_ids=aids,
        category=_first_field(paper),
        year=paper.get("year") if isinstance(paper.get("year"), (int, str)) else None,
        venue=_venue(paper),
        ids=ids,
        references=references,
    )


def _graph_records(paper: Any, path: Path, line: int, ctx: ReadContext) -> Iterator[Record]:
    """The paper and every paper nested in its ``citations`` / ``references``."""
    if paper is None:
        return  # /paper/batch answers null for an id it does not know
    if not isinstance(paper, dict):
        ctx.bad(f"not a Semantic Scholar paper: expected a JSON object, got {type(paper).__name__}",
                line=line)
        return
    if "citingPaper" in paper or "citedPaper" in paper:
        paper = paper.get("citingPaper") or paper.get("citedPaper")
        yield from _graph_records(paper, path, line, ctx)
        return
    cited = [p for p in paper.get("references") or () if isinstance(p, dict)]
    citing = [p for p in paper.get("citations") or () if isinstance(p, dict)]
    own_refs = [r for r in (_ref_id(p) for p in cited) if r]
    rec = _paper_record(paper, path, line, ctx, own_refs)
    if rec is not None:
        yield rec
    me = _ref_id(paper)
    for p in citing:
        refs = [r for r in (_ref_id(q) for q in p.get("references") or ()) if r]
        if me:
            refs.append(me)
        sub = _paper_record(p, path, line, ctx, refs)
        if sub is not None:
            yield sub
    for p in cited:
        if not _ref_id(p):
            continue  # unresolved by S2: nothing to link it to (see the module docstring)
        refs = [r for r in (_ref_id(q) for q in p.get("references") or ()) if r]
        sub = _paper_record(p, path, line, ctx, refs)
        if sub is not None:
            yield sub


def _s2orc_record(obj: dict[str, Any], path: Path, line: int, ctx: ReadContext) -> Record | None:
    title = obj.get("title") if isinstance(obj.get("title"), str) else None
    abstract = obj.get("abstract") if isinstance(obj.get("abstract"), str) else None
    if not ctx.check_text(title, abstract, line=line, what=f"S2ORC paper {obj.get('paper_id')!r}"):
        return None
    try:
        authors, _ = authors_from_json(obj.get("authors"))
    except ValueError as exc:
        ctx.bad(f"bad field: {exc}", line=line)
        return None
    pid = str(obj.get("paper_id") or "") or None
    fos = obj.get("mag_field_of_study")
    venue = obj.get("venue") or obj.get("journal")
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=authors,
        category=Category(str(fos[0])) if isinstance(fos, list) and fos and fos[0] else None,
        year=obj.get("year") if isinstance(obj.get("year"), (int, str)) else None,
        venue=venue if isinstance(venue, str) else None,
        ids={"s2orc": pid, "corpusid": pid, "doi": obj.get("doi"), "arxiv": obj.get("arxiv_id"),
             "acl": obj.get("acl_id"), "pmid": obj.get("pubmed_id"), "mag": obj.get("mag_id")},
        references=[f"s2orc:{c}" for c in obj.get("outbound_citations") or () if c],
    )


def sniff(path: Path, head: str) -> bool:
    """Graph API keys (``paperId``) or S2ORC metadata keys in the first object."""
    start = head.lstrip()[:8000]
    if not start or start[0] not in "{[":
        return False
    if '"paperId"' in start:
        return True
    return '"paper_id"' in start and ('"outbound_citations"' in start or '"mag_field_of_study"' in start)


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """Records of every paper in the file (see the module docstring)."""
    for line, value in iter_json_values(path, ctx):
        if isinstance(value, dict) and "paper_id" in value and "paperId" not in value:
            rec = _s2orc_record(value, path, line, ctx)
            if rec is not None:
                yield rec
        elif isinstance(value, dict) and isinstance(value.get("data"), list) and "paperId" not in value:
            for item in value["data"]:
                yield from _graph_records(item, path, line, ctx)
        else:
            yield from _graph_records(value, path, line, ctx)
