"""Text normalisation shared by readers, de-duplication and search."""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

# Characters NFKC leaves alone but that break matching: dashes and hyphens of every kind,
# and quotes, are folded to ASCII; zero-width characters are removed.
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2212\u2043\ufe63\uff0d"), "-")
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_TRANSLATE = {**_DASHES, **_ZERO_WIDTH}
_WORD = re.compile(r"\w+")


def normalize_text(text: str | None) -> str | None:
    """NFKC, ASCII hyphens (U+2011 -> ``-``), no zero-width characters, single spaces.

    The em dash (U+2014) is kept: it separates clauses and is not a hyphen.

    Examples
    --------
    >>> normalize_text("CIFAR\u201110,  and\\nDVS\u2011Gesture ")
    'CIFAR-10, and DVS-Gesture'
    >>> normalize_text("   ") is None
    True
    """
    if text is None:
        return None
    if not text.isascii():  # ASCII is already NFKC and holds none of the characters folded
        text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    text = " ".join(text.split())
    return text or None


# Combining marks left by NFKD decomposition (accents, cedillas, ...), removed by one regex
# pass instead of a per-character Python loop: fold() runs on every abstract at ingest.
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def fold(text: str) -> str:
    """Case- and accent-insensitive form for matching: ``"Candès"`` -> ``"candes"``.

    Examples
    --------
    >>> fold("Émile Zoë ŁUKASZ")
    'emile zoe łukasz'
    """
    if text.isascii():
        return text.lower()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text)).casefold()


@functools.lru_cache(maxsize=256)
def match_key(text: str) -> str:
    """Words only, folded: the key under which two spellings of a text are the same text."""
    return " ".join(_WORD.findall(fold(text)))


def digest(*parts: str, length: int = 16) -> str:
    """A short, stable hex digest of some strings (SHA-1, joined with a separator)."""
    h = hashlib.sha1("\x1f".join(parts).encode("utf-8"))
    return h.hexdigest()[:length]
