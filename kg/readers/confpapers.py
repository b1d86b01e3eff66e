"""Conference paper-list JSON, in the two layouts of ``shared/data/confpapers/raw/``.

- airas-papers-db: a list of ``{"id", "title", "authors": [...], "abstract", "topic":
  "Area->Subarea", "conference": "iclr", "year": "2024", ...}``;
- papercopilot paperlists: a list of ``{"id", "title", "author": "A; B; C", "abstract",
  "primary_area", "site", "status", "track", ...}`` (authors separated by ``;``; some lists
  use ``,``). Venue and year are not fields: they come from the file name (``nips2018.json``
  -> ``NeurIPS``, 2018) or else from the ``site`` URL (``icml.cc/virtual/2019/...``).

``Area->Subarea`` (``topic`` / ``primary_area``) maps to the same :class:`Category` as the
seed listings' ``Area · Subarea``. Every item is read whatever its ``status``; de-duplication
is not this reader's job.

Ids: the source id is kept as ``ids["<venue><year>"]`` (``iclr2024: 34f9...``), exactly the
``id`` the derived ``confpapers/jsonl`` files carry, so both read to the same ids. An
OpenReview forum id (papercopilot ``site``/``or`` on openreview.net) is also kept as
``ids["openreview"]``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

from kg.readers.base import ReadContext
from kg.readers.csv import split_authors
from kg.readers.jsonl import get_str, iter_json_values
from kg.records import Category, Record, Source, make_record

NAME = "confpapers"
EXTENSIONS = ()

#: Conference short names as the lists spell them -> display name.
VENUES = {"nips": "NeurIPS", "neurips": "NeurIPS", "icml": "ICML", "iclr": "ICLR", "colm": "COLM",
          "ijcai": "IJCAI", "aaai": "AAAI", "acl": "ACL", "emnlp": "EMNLP", "naacl": "NAACL",
          "cvpr": "CVPR", "iccv": "ICCV", "eccv": "ECCV", "aistats": "AISTATS", "uai": "UAI",
          "colt": "COLT", "kdd": "KDD", "www": "WWW", "corl": "CoRL", "rss": "RSS",
          "wacv": "WACV", "icra": "ICRA", "iros": "IROS", "sigir": "SIGIR", "tmlr": "TMLR"}
_FILE_VENUE = re.compile(r"^([a-z]+)[_\-]?((?:19|20)\d{2})", re.IGNORECASE)
_SITE = re.compile(r"https?://(?:www\.)?([a-z]+)\.(?:cc|org|com)/(?:virtual|Conferences)/((?:19|20)\d{2})",
                   re.IGNORECASE)
_OPENREVIEW = re.compile(r"openreview\.net/forum\?id=([\w\-]+)")


def venue_name(short: str) -> str:
    """``"nips"`` -> ``"NeurIPS"``; unknown names are upper-cased."""
    return VENUES.get(short.lower(), short.upper())


def _from_file_name(path: Path) -> tuple[str | None, int | None]:
    m = _FILE_VENUE.match(path.stem)
    if not m:
        return None, None
    return venue_name(m.group(1)), int(m.group(2))


def _paper(obj: Any, path: Path, line: int, ctx: ReadContext,
           file_venue: tuple[str | None, int | None]) -> Record | None:
    if not isinstance(obj, dict):
        ctx.bad(f"not a paper: expected a JSON object, got {type(obj).__name__}", line=line)
        return None
    title = get_str(obj, "title", ctx, line)
    abstract = get_str(obj, "abstract", ctx, line)
    if not ctx.check_text(title, abstract, line=line):
        return None
    raw_authors = obj.get("authors", obj.get("author"))
    if isinstance(raw_authors, list):
        authors = [str(a) for a in raw_authors if a]
    elif isinstance(raw_authors, str):
        authors = split_authors(raw_authors)
    else:
        authors = []
    venue, year = None, None
    conf = obj.get("conference")
    if isinstance(conf, str) and conf.strip():
        venue = venue_name(conf.strip())
        year = obj.get("year")
    if venue is None:
        venue, year = file_venue
    if venue is None:
        m = _SITE.search(str(obj.get("site") or ""))
        if m:
            venue, year = venue_name(m.group(1)), int(m.group(2))
    if year is None and obj.get("year"):
        year = obj["year"]
    area = get_str(obj, "primary_area", ctx, line) or get_str(obj, "topic", ctx, line)
    ids: dict[str, str] = {}
    src_id = obj.get("id")
    try:
        year_int = int(str(year)[:4]) if year else None
    except ValueError:
        year_int = None
    if src_id not in (None, "") and venue and year_int:
        ids[f"{venue.lower()}{year_int}"] = str(src_id)
    elif src_id not in (None, ""):
        ids["source"] = str(src_id)
    for key in ("site", "or"):
        m = _OPENREVIEW.search(str(obj.get(key) or ""))
        if m:
            ids["openreview"] = m.group(1)
            break
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=authors,
        category=Category.parse(area) if area else None,
        year=year_int,
        venue=venue,
        ids=ids,
    )


def sniff(path: Path, head: str) -> bool:
    """A JSON list whose first item has the airas or papercopilot keys."""
    start = head.lstrip()[:6000]
    if not start.startswith("["):
        return False
    if '"author_site"' in start or '"primary_area"' in start:
        return True
    if '"topic"' in start and '"conference"' in start:
        return True
    return '"author"' in start and '"track"' in start and '"status"' in start


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """One record per list item, in file order (source line = the line the item starts on)."""
    file_venue = _from_file_name(path)
    for line, obj in iter_json_values(path, ctx):
        rec = _paper(obj, path, line, ctx, file_venue)
        if rec is not None:
            yield rec
