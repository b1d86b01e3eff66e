"""One author id per person within a corpus.

Names are grouped by their matching key (:func:`kg.names.name_key`: accents, case and
punctuation ignored). Probable-but-uncertain variants (typos, initials) are found and merged
only with evidence; see :func:`find_duplicates`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from kg.names import author_id, name_key
from kg.records import Record


@dataclass
class AuthorIndex:
    """Maps every spelling of an author name to one author id, display name and aliases.

    Examples
    --------
    >>> idx = AuthorIndex.from_names(["Emmanuel J. Candès", "Emmanuel J Candes"])
    >>> idx.resolve("EMMANUEL J. CANDES")
    'emmanuel-j-candes'
    >>> idx.display("emmanuel-j-candes")
    'Emmanuel J. Candès'
    """

    #: name key -> author id
    key_to_id: dict[str, str] = field(default_factory=dict)
    #: author id -> Counter of display spellings seen
    spellings: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    @classmethod
    def from_names(cls, names: Iterable[str]) -> "AuthorIndex":
        idx = cls()
        for name in names:
            idx.add(name)
        return idx

    @classmethod
    def from_records(cls, records: Iterable[Record]) -> "AuthorIndex":
        return cls.from_names(a for r in records for a in r.authors)

    def add(self, name: str) -> str:
        key = name_key(name)
        aid = self.key_to_id.get(key)
        if aid is None:
            aid = self.key_to_id[key] = author_id(name)
        self.spellings[aid][name] += 1
        return aid

    def resolve(self, name: str) -> str:
        """The author id of a name (unknown names get the id their key would have)."""
        key = name_key(name)
        return self.key_to_id.get(key) or author_id(name)

    def display(self, aid: str) -> str:
        """The display name: the most frequent spelling; ties go to the one with accents."""
        seen = self.spellings.get(aid)
        if not seen:
            return aid
        return max(seen.items(), key=lambda kv: (kv[1], sum(ord(c) > 127 for c in kv[0]), kv[0]))[0]

    def aliases(self, aid: str) -> list[str]:
        """Other spellings of the same author, most frequent first."""
        main = self.display(aid)
        return [n for n, _ in self.spellings.get(aid, Counter()).most_common() if n != main]

    def ids(self) -> list[str]:
        return list(self.spellings)

    def merge(self, keep: str, other: str) -> None:
        """Make ``other`` (an author id) the same person as ``keep``."""
        if keep == other or other not in self.spellings:
            return
        for key, aid in self.key_to_id.items():
            if aid == other:
                self.key_to_id[key] = keep
        self.spellings[keep].update(self.spellings.pop(other))
