"""Author names: display form, matching key, and one id per person within a corpus.

Display form keeps accents and fixes what sources get wrong: ``REMI MUNOS`` -> ``Remi Munos``,
``Xu, Renzhe`` -> ``Renzhe Xu``. Matching ignores accents, case and punctuation
(``Candes`` = ``Candès``). Names that are probably but not certainly the same person are
handled in :mod:`kg.authors`.
"""

from __future__ import annotations

import re

from kg.text import fold, normalize_text

_WORD_SPLIT = re.compile(r"(\s+)")
_TRAILING_MARKS = re.compile(r"[\s*†‡§¶#\d,;]+$")
_LEADING_MARKS = re.compile(r"^[\s*†‡§¶#,;]+")
_KEY_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}


def _title_word(word: str) -> str:
    """``JEAN-PIERRE`` -> ``Jean-Pierre``, ``O'NEIL`` -> ``O'Neil``."""
    out = []
    upper_next = True
    for ch in word:
        out.append(ch.upper() if upper_next else ch.lower())
        upper_next = not ch.isalpha()
    return "".join(out)


def _is_caps(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def display_name(raw: str | None) -> str | None:
    """The display form of an author name, or None when nothing name-like is left.

    Examples
    --------
    >>> display_name("REMI MUNOS")
    'Remi Munos'
    >>> display_name("Xu, Renzhe")
    'Renzhe Xu'
    >>> display_name("Zhitao YING")
    'Zhitao Ying'
    >>> display_name("Emmanuel J. Candès*")
    'Emmanuel J. Candès'
    """
    name = normalize_text(raw)
    if not name:
        return None
    if not (name[0].isalpha() and (name[-1].isalpha() or name[-1] == ".")):
        name = _LEADING_MARKS.sub("", _TRAILING_MARKS.sub("", name))
        if not name:
            return None
    if "," not in name and name.istitle():
        return name  # the common case, "Ada Lovelace": nothing to repair
    if name.count(",") == 1:
        last, first = (p.strip() for p in name.split(","))
        if first.lower().rstrip(".") in _SUFFIXES:  # "Smith, Jr." is not "Last, First"
            name = f"{last} {first}"
        elif first and last:
            name = f"{first} {last}"
    words = name.split(" ")
    letters = [c for c in name if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        words = [_title_word(w) if _is_caps(w) else w for w in words]
    else:
        # A name written in mixed case with one word in capitals (``Zhitao YING``,
        # a common surname convention) gets that word fixed; short words may be initials.
        words = [_title_word(w) if _is_caps(w) and len(w) >= 3 else w for w in words]
    name = " ".join(w for w in words if w)
    return name if any(c.isalpha() for c in name) else None


def name_key(name: str) -> str:
    """Matching key: accents, case and punctuation ignored.

    Examples
    --------
    >>> name_key("Emmanuel J. Candès") == name_key("EMMANUEL J CANDES")
    True
    """
    return " ".join(_KEY_WORDS.findall(fold(name)))


def author_id(name: str) -> str:
    """The corpus-level id of a (resolved) author name: its matching key with hyphens."""
    return name_key(name).replace(" ", "-") or "unknown"


def split_name(name: str) -> tuple[str, str]:
    """(given names, family name) by the last-word rule; good enough for display and RDF."""
    parts = name.split()
    if len(parts) >= 2 and parts[-1].lower().rstrip(".") in _SUFFIXES:
        return " ".join(parts[:-2]), " ".join(parts[-2:])
    if len(parts) < 2:
        return "", name
    return " ".join(parts[:-1]), parts[-1]
