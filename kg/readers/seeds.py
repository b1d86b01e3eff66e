"""The listing pages of the seed paper-search site, as scraped text (``shared/data/seeds``).

Two layouts, read by the same line classifier:

- blocks separated by blank lines: an optional category line ``Area · Subarea``, an authors
  line (comma separated; a trailing `` 等`` means "et al." and sets ``authors_truncated``),
  then the abstract;
- one item a line with no blank lines and no authors lines; category lines stand before some
  abstracts.

Each non-blank line is classified on its own (:func:`classify_line`): site chrome (the Chinese
page title and search-box hint, dropped), a category line (short, one `` · ``, no sentence
punctuation), an authors line (comma-separated name-like tokens, no sentence), or else abstract
prose. A category or authors line belongs to the next abstract only; nothing is carried over to
later papers (a missing category is missing data). In a file that separates items with blank
lines, prose lines that follow each other without a blank line are one wrapped abstract; in the
one-item-a-line layout every prose line is its own paper.

A record's source line is the line its abstract starts on. A category or authors line with no
abstract after it is reported as bad input (nothing is dropped silently).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from kg.readers.base import SNIFF_BYTES, ReadContext
from kg.readers.jsonl import iter_text_lines
from kg.records import Category, Record, Source, make_record

NAME = "seeds"
EXTENSIONS = (".txt",)

CHROME = "chrome"
CATEGORY = "category"
AUTHORS = "authors"
ABSTRACT = "abstract"
BLANK = "blank"

#: Site chrome: the page title "paper search" and the search-box hint.
_CHROME_EXACT = {"论文检索"}
_CHROME_PREFIXES = ("输入标题、作者或关键词",)
#: Endings of a cut authors list ("et al."), longest first.
_TRUNCATION = ("等", "et al.", "et al", "…", "...")
#: No authors line is longer (100 names of 50 characters); longer lines are prose.
_MAX_AUTHORS_LINE = 5000
_AUTHOR_SEP = re.compile(r"\s*[,，、;；]\s*")
_SENTENCE = re.compile(r"[.!?。！？](\s|$)|[:;$\\{}()\[\]=<>|@#%^*_~\"“”]")
_NOT_IN_NAMES = re.compile(r"[:$\\{}()\[\]=<>|@#%^*_~\"“”!?。！？]")
_DIGIT = re.compile(r"\d")
_NICKNAME = re.compile(r"\s*[(“\"][^()“”\"]{1,30}[)”\"]\s*")
_LOOSE_WORD = re.compile(r"^[^\W\d_][^\W\d_'’.\-]*(?:['’.\-][^\W\d_]*)*\.?$")
_INITIAL = re.compile(r"^(?:[^\W\d_]{1,2}\.)+-?(?:[^\W\d_]{1,2}\.)?$")
#: Lower-case name particles (``van der Waals``, ``de la Cruz``, ``bin Ahmad``).
_PARTICLES = {"van", "von", "de", "der", "den", "di", "da", "du", "del", "della", "des", "la",
              "le", "bin", "binti", "al", "el", "dos", "das", "do", "y", "ten", "ter", "zu", "af"}
_MAX_CATEGORY = 120
_MAX_NAME_WORDS = 6
_MAX_NAME_CHARS = 60


def _is_name_word(word: str) -> bool:
    if _INITIAL.match(word):
        return True
    if word.lower() in _PARTICLES:
        return True
    first = word[0]
    if not first.isalpha():
        return False
    if word.endswith(".") and len(word) > 3:
        return False  # "approach." ends a sentence; "Jr." and initials are short
    # Upper-case first letter, or a script without case (Chinese, Japanese, Korean names).
    return first.isupper() or not first.islower()


def _is_name(token: str) -> bool:
    if not token or len(token) > _MAX_NAME_CHARS or _DIGIT.search(token):
        return False
    words = token.split()
    if len(words) > _MAX_NAME_WORDS:
        return False
    return all(_is_name_word(w) for w in words)


def split_authors_line(line: str) -> tuple[list[str], bool]:
    """(names, truncated) of an authors line: ``"A B, C D 等"`` -> ``(["A B", "C D"], True)``."""
    text = line.strip()
    truncated = False
    lower = text.lower()
    for mark in _TRUNCATION:
        if lower.endswith(mark) and (mark in ("等", "…") or len(lower) == len(mark)
                                     or lower[-len(mark) - 1] in " ,"):
            text, truncated = text[: len(text) - len(mark)].rstrip(), True
            break
    names = [t for t in _AUTHOR_SEP.split(text) if t]
    return names, truncated


def is_category_line(line: str) -> bool:
    """``Area · Subarea``: short, one middle dot, no sentence punctuation or digits."""
    s = line.strip()
    if len(s) > _MAX_CATEGORY or s.count("·") != 1 or " · " not in s:
        return False
    if _SENTENCE.search(s) or _DIGIT.search(s):
        return False
    area, _, sub = s.partition(" · ")
    return bool(area.strip()) and bool(sub.strip()) and area[0].isupper()


def _is_loose_name(token: str) -> bool:
    words = token.split()
    return 0 < len(words) <= 4 and len(token) <= 40 and all(_LOOSE_WORD.match(w) for w in words)


def is_authors_line(line: str) -> bool:
    """Comma-separated name-like tokens, optionally ending in `` 等``; no sentence in it.

    Nicknames in brackets or quotes (``Nanyun (Violet) Peng``) are allowed. Every name must
    be made of a few letter-only words; for one or two names each must look like a name
    (capitalised words, initials, particles such as ``van``), for more at least half must,
    so lower-case spellings (``fengyan wang``) pass inside a real list while a short sentence
    with commas does not.
    """
    if len(line) > _MAX_AUTHORS_LINE:
        return False
    text = _NICKNAME.sub(" ", line)
    names, _ = split_authors_line(text)
    if not names or _NOT_IN_NAMES.search(text):
        return False
    if not all(_is_loose_name(n) or _is_name(n) for n in names):
        return False
    good = sum(_is_name(n) for n in names)
    if len(names) <= 2:
        return good == len(names)
    return good >= 0.5 * len(names)


def classify_line(line: str) -> str:
    """``blank``, ``chrome``, ``category``, ``authors`` or ``abstract``.

    Examples
    --------
    >>> classify_line("Theory · Game Theory")
    'category'
    >>> classify_line("Ada Lovelace, Charles Babbage 等")
    'authors'
    >>> classify_line("We study engines. They compute.")
    'abstract'
    """
    s = line.strip()
    if not s:
        return BLANK
    if s in _CHROME_EXACT or s.startswith(_CHROME_PREFIXES):
        return CHROME
    if is_category_line(s):
        return CATEGORY
    if is_authors_line(s):
        return AUTHORS
    return ABSTRACT


def _uses_blank_lines(path: Path) -> bool:
    """True when items are separated by blank lines (a blank line stands between content)."""
    with open(path, "rb") as fh:
        head = fh.read(SNIFF_BYTES).decode("utf-8", errors="replace")
    lines = head.splitlines()
    seen_content = False
    blank_after_content = False
    for ln in lines:
        if ln.strip():
            if blank_after_content:
                return True
            seen_content = True
        elif seen_content:
            blank_after_content = True
    return False


def sniff(path: Path, head: str) -> bool:
    """The site chrome, or a category line, in the first lines of a text file."""
    if "论文检索" in head[:2000] or "输入标题、作者或关键词" in head[:4000]:
        return True
    if head.lstrip()[:1] in ("{", "[", "@", "<"):
        return False
    return any(is_category_line(ln) for ln in head.splitlines()[:40])


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """The papers of one listing file, in file order."""
    joined = _uses_blank_lines(path)
    category: tuple[int, str] | None = None
    authors: tuple[int, list[str], bool] | None = None
    para: list[str] = []
    para_line = 0
    para_meta: tuple[tuple[int, str] | None, tuple[int, list[str], bool] | None] = (None, None)

    def flush() -> Iterator[Record]:
        nonlocal para
        if not para:
            return
        text = " ".join(para)
        para = []
        cat, auth = para_meta
        if not ctx.check_field(text, "abstract", line=para_line):
            return
        names, truncated = (auth[1], auth[2]) if auth else ([], False)
        yield make_record(
            source=Source(str(path), para_line, NAME),
            abstract=text,
            authors=names,
            authors_truncated=truncated,
            category=Category.parse(cat[1]) if cat else None,
        )

    def dangling(*, keep_category: bool = False) -> None:
        nonlocal category, authors
        if authors is not None:
            n = authors[0]
            authors = None
            ctx.bad("authors line without an abstract after it", line=n)
        if category is not None and not keep_category:
            n = category[0]
            category = None
            ctx.bad("category line without an abstract after it", line=n)

    for n, line in iter_text_lines(path, ctx):
        kind = classify_line(line)
        if kind == ABSTRACT:
            if para and joined:
                para.append(line.strip())
                continue
            yield from flush()
            para, para_line, para_meta = [line.strip()], n, (category, authors)
            category = authors = None
            continue
        yield from flush()
        if kind == CATEGORY:
            dangling()
            category = (n, line.strip())
        elif kind == AUTHORS:
            if authors is not None:
                dangling(keep_category=True)
            names, truncated = split_authors_line(line)
            authors = (n, names, truncated)
    yield from flush()
    dangling()
