"""arXiv metadata: the public metadata snapshot (JSON lines) and the arXiv API's Atom feed.

Snapshot lines (the Kaggle "arXiv dataset" / ``arxiv-metadata-oai-snapshot.json``) have
``id``, ``title``, ``abstract``, ``authors``, ``authors_parsed`` (``[last, first, suffix]``),
``categories`` (space separated, primary first), ``doi``, ``journal-ref``, ``versions``
(``[{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}, ...]``) and ``update_date``.
Names come from ``authors_parsed`` (LaTeX accents decoded), the year from the first version
(else the id's ``YYMM``, else ``update_date``), the venue is ``arXiv``.

The Atom feed (``http://export.arxiv.org/api/query``) has ``feed/entry`` elements with ``id``
(the abs URL), ``title``, ``summary``, ``author/name``, ``published``, ``arxiv:doi``,
``arxiv:primary_category`` and ``arxiv:journal_ref``. It is parsed incrementally with
:mod:`xml.etree.ElementTree`; a document declaring entities (``<!ENTITY``) is refused, so no
entity is ever expanded.

The primary category becomes the record category through a small table of common codes
(names from arXiv's category taxonomy, https://arxiv.org/category_taxonomy):
``cs.LG`` -> ``Computer Science · Machine Learning``; an unknown code of a known archive keeps
the code as subarea (``cs.XY`` -> ``Computer Science · cs.XY``); anything else is kept as is.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterator

from kg.readers.base import ReadContext
from kg.readers.jsonl import get_str, iter_json_values, iter_text_lines
from kg.records import Category, Record, Source, make_record

NAME = "arxiv"
EXTENSIONS = (".atom",)

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV_NS = "{http://arxiv.org/schemas/atom}"
ARXIV_CODE = re.compile(r"^[a-z][a-z\-]*(\.[A-Za-z\-]+)?$")

ARCHIVES = {
    "cs": "Computer Science", "stat": "Statistics", "math": "Mathematics",
    "eess": "Electrical Engineering and Systems Science", "econ": "Economics",
    "q-bio": "Quantitative Biology", "q-fin": "Quantitative Finance", "physics": "Physics",
    "astro-ph": "Astrophysics", "cond-mat": "Condensed Matter", "quant-ph": "Quantum Physics",
    "hep-th": "High Energy Physics", "hep-ph": "High Energy Physics",
    "hep-ex": "High Energy Physics", "hep-lat": "High Energy Physics",
    "gr-qc": "General Relativity and Quantum Cosmology", "nlin": "Nonlinear Sciences",
    "math-ph": "Mathematical Physics", "nucl-th": "Nuclear Theory", "nucl-ex": "Nuclear Experiment",
}

SUBJECTS = {
    "cs.AI": "Artificial Intelligence", "cs.CL": "Computation and Language",
    "cs.CV": "Computer Vision and Pattern Recognition", "cs.LG": "Machine Learning",
    "cs.NE": "Neural and Evolutionary Computing", "cs.IR": "Information Retrieval",
    "cs.RO": "Robotics", "cs.CR": "Cryptography and Security",
    "cs.DS": "Data Structures and Algorithms", "cs.GT": "Computer Science and Game Theory",
    "cs.HC": "Human-Computer Interaction", "cs.SI": "Social and Information Networks",
    "cs.DB": "Databases", "cs.SE": "Software Engineering",
    "cs.DC": "Distributed, Parallel, and Cluster Computing", "cs.CY": "Computers and Society",
    "cs.MA": "Multiagent Systems", "cs.SD": "Sound", "cs.IT": "Information Theory",
    "cs.LO": "Logic in Computer Science", "cs.PL": "Programming Languages",
    "cs.CC": "Computational Complexity", "cs.DM": "Discrete Mathematics",
    "cs.MM": "Multimedia", "cs.NI": "Networking and Internet Architecture",
    "cs.GR": "Graphics", "cs.SY": "Systems and Control",
    "stat.ML": "Machine Learning", "stat.ME": "Methodology", "stat.TH": "Statistics Theory",
    "stat.AP": "Applications", "stat.CO": "Computation",
    "math.OC": "Optimization and Control", "math.PR": "Probability",
    "math.ST": "Statistics Theory", "math.NA": "Numerical Analysis", "math.CO": "Combinatorics",
    "math.IT": "Information Theory", "math.DS": "Dynamical Systems",
    "eess.IV": "Image and Video Processing", "eess.SP": "Signal Processing",
    "eess.AS": "Audio and Speech Processing", "eess.SY": "Systems and Control",
    "q-bio.NC": "Neurons and Cognition", "q-bio.QM": "Quantitative Methods",
    "physics.comp-ph": "Computational Physics", "physics.data-an": "Data Analysis, Statistics and Probability",
    "cond-mat.stat-mech": "Statistical Mechanics", "cond-mat.dis-nn": "Disordered Systems and Neural Networks",
    "econ.EM": "Econometrics", "q-fin.ST": "Statistical Finance",
}

_NEW_ID = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}")
_OLD_ID = re.compile(r"/(\d{2})(\d{2})\d{3}")
_YEAR = re.compile(r"\b(19|20)\d{2}\b")


def arxiv_category(code: str) -> Category:
    """The readable category of an arXiv subject code.

    Examples
    --------
    >>> str(arxiv_category("cs.LG"))
    'Computer Science · Machine Learning'
    >>> str(arxiv_category("quant-ph"))
    'Quantum Physics'
    """
    code = code.strip()
    if code in SUBJECTS:
        return Category(ARCHIVES[code.split(".")[0]], SUBJECTS[code])
    archive = code.split(".")[0]
    if archive in ARCHIVES:
        return Category(ARCHIVES[archive], code if "." in code else None)
    return Category(code)


def _year_from_id(arxiv_id: str) -> int | None:
    m = _NEW_ID.match(arxiv_id) or _OLD_ID.search(arxiv_id)
    if not m:
        return None
    yy = int(m.group(1))
    return 1900 + yy if yy >= 91 else 2000 + yy


def _snapshot_year(obj: dict[str, Any]) -> int | None:
    versions = obj.get("versions")
    if isinstance(versions, list) and versions and isinstance(versions[0], dict):
        m = _YEAR.search(str(versions[0].get("created") or ""))
        if m:
            return int(m.group(0))
    year = _year_from_id(str(obj.get("id") or ""))
    if year:
        return year
    m = _YEAR.search(str(obj.get("update_date") or ""))
    return int(m.group(0)) if m else None


def _snapshot_authors(obj: dict[str, Any]) -> list[str]:
    from kg.readers.bibtex import latex_to_text
    from kg.readers.csv import split_authors

    parsed = obj.get("authors_parsed")
    names: list[str] = []
    if isinstance(parsed, list) and parsed:
        for parts in parsed:
            if not isinstance(parts, list) or not parts:
                continue
            last = parts[0] if len(parts) > 0 else ""
            first = parts[1] if len(parts) > 1 else ""
            suffix = parts[2] if len(parts) > 2 else ""
            name = " ".join(p for p in (first, last, suffix) if p)
            names.append(latex_to_text(name) or "")
        return names
    raw = obj.get("authors")
    if isinstance(raw, str):
        return [latex_to_text(a) or "" for a in split_authors(re.sub(r"\s+and\s+", ", ", raw))]
    return names


def _snapshot_record(obj: Any, path: Path, line: int, ctx: ReadContext) -> Record | None:
    if not isinstance(obj, dict):
        ctx.bad(f"not a paper: expected a JSON object, got {type(obj).__name__}", line=line)
        return None
    title = get_str(obj, "title", ctx, line)
    abstract = get_str(obj, "abstract", ctx, line)
    if not ctx.check_text(title, abstract, line=line):
        return None
    cats = str(obj.get("categories") or "").split()
    arxiv_id = get_str(obj, "id", ctx, line)
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=_snapshot_authors(obj),
        category=arxiv_category(cats[0]) if cats else None,
        year=_snapshot_year(obj),
        venue="arXiv",
        ids={"arxiv": arxiv_id, "doi": get_str(obj, "doi", ctx, line)},
    )


def _text(elem: ET.Element | None) -> str | None:
    if elem is None or elem.text is None:
        return None
    return elem.text


def _atom_record(entry: ET.Element, path: Path, line: int, ctx: ReadContext) -> Record | None:
    title = _text(entry.find(f"{ATOM}title"))
    abstract = _text(entry.find(f"{ATOM}summary"))
    abs_url = _text(entry.find(f"{ATOM}id"))
    if abs_url and "api/errors" in abs_url:
        ctx.bad(f"arXiv API error entry: {(abstract or title or '').strip()[:200]}", line=line)
        return None
    if not ctx.check_text(title, abstract, line=line):
        return None
    authors = [_text(a.find(f"{ATOM}name")) or "" for a in entry.findall(f"{ATOM}author")]
    primary = entry.find(f"{ARXIV_NS}primary_category")
    code = primary.get("term") if primary is not None else None
    if not code:
        first = entry.find(f"{ATOM}category")
        code = first.get("term") if first is not None else None
    published = _text(entry.find(f"{ATOM}published")) or ""
    m = _YEAR.search(published)
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=authors,
        category=arxiv_category(code) if code else None,
        year=int(m.group(0)) if m else (_year_from_id(abs_url.rsplit("/", 1)[-1]) if abs_url else None),
        venue="arXiv",
        ids={"arxiv": abs_url, "doi": _text(entry.find(f"{ARXIV_NS}doi"))},
    )


def _read_atom(path: Path, ctx: ReadContext) -> Iterator[Record]:
    parser = ET.XMLPullParser(events=("start", "end"))
    depth = 0
    entry_line = 0
    root: ET.Element | None = None
    for n, line in iter_text_lines(path, ctx):
        if "<!ENTITY" in line or "<!DOCTYPE" in line:
            ctx.bad("XML with a DOCTYPE or entity declarations is not read (entities are never expanded)",
                    line=n)
            return
        try:
            parser.feed(line + "\n")
            events = list(parser.read_events())
        except ET.ParseError as exc:
            ctx.bad(f"malformed XML: {exc.msg if hasattr(exc, 'msg') else exc}", line=exc.position[0])
            return  # an XML parser cannot resume after an error
        for event, elem in events:
            if event == "start":
                if root is None:
                    root = elem
                    if elem.tag != f"{ATOM}feed" and elem.tag != f"{ATOM}entry":
                        ctx.bad(f"not an Atom feed: root element is {elem.tag!r}", line=n)
                        return
                if elem.tag == f"{ATOM}entry":
                    depth += 1
                    entry_line = n
            elif elem.tag == f"{ATOM}entry":
                depth -= 1
                rec = _atom_record(elem, path, entry_line, ctx)
                if rec is not None:
                    yield rec
                elem.clear()
                if root is not None and root is not elem:
                    root.clear()  # keep memory flat on long feeds
    try:
        parser.close()
    except ET.ParseError as exc:
        ctx.bad(f"malformed XML: {exc}", line=exc.position[0])


def sniff(path: Path, head: str) -> bool:
    """A snapshot line (``authors_parsed``) or an Atom feed using the arXiv namespace."""
    start = head.lstrip()[:6000]
    if start.startswith("{") and '"authors_parsed"' in start:
        return True
    if start.startswith("<") and "<feed" in start and ("arxiv.org/schemas/atom" in head
                                                      or "arxiv.org/abs/" in head):
        return True
    return False


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """Records from an arXiv Atom feed or metadata-snapshot JSON lines."""
    with open(path, "rb") as fh:
        first = fh.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    if first.startswith(b"<"):
        yield from _read_atom(path, ctx)
        return
    for line, obj in iter_json_values(path, ctx):
        rec = _snapshot_record(obj, path, line, ctx)
        if rec is not None:
            yield rec
