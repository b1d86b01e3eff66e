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
        """The display name: a properly capitalised spelling when the corpus has one (``Xue
        Wang`` over ``xue wang``, however often that was written), then the most frequent;
        ties go to the one with accents.

        Examples
        --------
        >>> AuthorIndex.from_names(["xue wang", "xue wang", "Xue Wang"]).display("xue-wang")
        'Xue Wang'
        """
        seen = self.spellings.get(aid)
        if not seen:
            return aid
        return max(seen.items(), key=lambda kv: (_capitalised(kv[0]), kv[1], sum(ord(c) > 127 for c in kv[0]),
                                                 kv[0]))[0]

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


def _capitalised(name: str) -> bool:
    """Written in mixed case, as names are: not all lower case (``xue wang``) nor all capitals."""
    return any(c.isupper() for c in name) and any(c.islower() for c in name)


# --------------------------------------------------------------------------------------------
# Probable duplicates: found by blocking, confirmed only by evidence
# --------------------------------------------------------------------------------------------

from itertools import combinations  # noqa: E402  (kept beside the code that uses it)
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from kg.errors import InputError  # noqa: E402


@dataclass(frozen=True)
class DuplicateCandidate:
    """Two author ids that may be one person, with the evidence for and against."""

    a: str
    b: str
    name_a: str
    name_b: str
    kind: str  # "initials" (E. Candes / Emmanuel Candes) or "typo" (Cabannnes / Cabannes)
    shared_coauthors: tuple[str, ...]
    shared_topics: tuple[str, ...]
    same_paper: bool
    ambiguous: bool
    decision: str = "listed"  # "merged" (evidence), "merged-by-user", "kept-apart-by-user", "listed"

    @property
    def reason(self) -> str:
        if self.same_paper:
            return "both names are on one paper: two people"
        if self.ambiguous:
            return "the short form fits several full names"
        parts = []
        if self.shared_coauthors:
            parts.append(f"{len(self.shared_coauthors)} shared co-author(s): " + ", ".join(self.shared_coauthors[:3]))
        if self.shared_topics:
            parts.append(f"{len(self.shared_topics)} shared topic(s): " + ", ".join(self.shared_topics[:3]))
        return "; ".join(parts) or "no shared co-author or topic"

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.name_a, "b": self.name_b, "a_id": self.a, "b_id": self.b, "kind": self.kind,
                "shared_coauthors": list(self.shared_coauthors), "shared_topics": list(self.shared_topics),
                "decision": self.decision, "reason": self.reason}


def _edit_distance_at_most(a: str, b: str, k: int) -> bool:
    """Levenshtein distance <= k, in O(k * len) with a banded dynamic programme."""
    if abs(len(a) - len(b)) > k:
        return False
    if len(a) > len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [k + 1] * len(b)
        lo, hi = max(1, i - k), min(len(b), i + k)
        for j in range(lo, hi + 1):
            cost = 0 if ca == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        if min(cur[max(0, lo - 1):hi + 1]) > k:
            return False
        prev = cur
    return prev[len(b)] <= k


def _given_compatible(g1: list[str], g2: list[str]) -> bool:
    """Given names that can be the same person: ``e j`` ~ ``emmanuel j`` ~ ``emmanuel``.

    Tokens are matched in order; a one-letter token matches any token with that initial. The
    shorter list may leave out trailing (middle) names but not the first one.
    """
    if not g1 or not g2:
        return False
    short, long_ = (g1, g2) if len(g1) <= len(g2) else (g2, g1)
    if not _tok_match(short[0], long_[0]):
        return False
    j = 1
    for tok in short[1:]:
        while j < len(long_) and not _tok_match(tok, long_[j]):
            j += 1
        if j == len(long_):
            return False
        j += 1
    return any(len(t) == 1 for t in g1 + g2) or len(g1) != len(g2)


def _one_typo_apart(ta: list[str], tb: list[str]) -> bool:
    """Same words but one, and that one a single edit apart in a word of 5+ letters.

    Short words are left alone: ``Yi Wang`` and ``Yu Wang`` are different names, not a typo.
    """
    if len(ta) != len(tb):
        return False
    diff = [(x, y) for x, y in zip(ta, tb) if x != y]
    if len(diff) != 1:
        return False
    x, y = diff[0]
    return min(len(x), len(y)) >= 5 and _edit_distance_at_most(x, y, 1)


def _tok_match(a: str, b: str) -> bool:
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


@dataclass
class _Profile:
    papers: set[int] = field(default_factory=set)
    coauthors: set[str] = field(default_factory=set)
    topics: set[str] = field(default_factory=set)


def _profiles(records: list[Record], index: AuthorIndex) -> dict[str, _Profile]:
    """Papers, co-authors and *rare* topics of every author.

    Only methods, benchmarks and concepts carried by at most 1% of the papers (and at least
    by a handful) count as topics: sharing "large language models" says nothing about whether
    two names are one person; sharing "hypergraph clustering" does. Categories are too broad
    and are left out.
    """
    df: Counter = Counter()
    for rec in records:
        df.update({(e.type.value, e.name) for e in rec.entities})
    limit = max(3, len(records) // 100)
    profiles: dict[str, _Profile] = defaultdict(_Profile)
    for i, rec in enumerate(records):
        ids = [index.resolve(a) for a in rec.authors]
        topics = {f"{t}:{name}" for (t, name) in {(e.type.value, e.name) for e in rec.entities}
                  if df[(t, name)] <= limit}
        for aid in ids:
            p = profiles[aid]
            p.papers.add(i)
            p.coauthors.update(x for x in ids if x != aid)
            p.topics.update(topics)
    return profiles


def _candidate_pairs(index: AuthorIndex) -> list[tuple[str, str, str]]:
    """(a, b, kind) pairs by blocking, never all pairs."""
    from kg.names import split_name

    parts: dict[str, tuple[list[str], str]] = {}
    by_surname_initial: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_given_surname_letter: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_surname_given_letter: dict[tuple[str, str], list[str]] = defaultdict(list)
    for aid in index.ids():
        given, family = split_name(index.display(aid))
        g = name_key(given).split()
        f = name_key(family)
        if not f:
            continue
        parts[aid] = (g, f)
        initial = g[0][0] if g else ""
        by_surname_initial[(f, initial)].append(aid)
        by_given_surname_letter[(" ".join(g), f[0])].append(aid)
        by_surname_given_letter[(f, initial)].append(aid)
    pairs: dict[tuple[str, str], str] = {}
    for block in by_surname_initial.values():
        for a, b in combinations(sorted(block), 2):
            if _given_compatible(parts[a][0], parts[b][0]):
                pairs[(a, b)] = "initials"
    for blocks in (by_given_surname_letter, by_surname_given_letter):
        for block in blocks.values():
            if len(block) > 500:  # a block this big is a common name, not a typo cluster
                continue
            for a, b in combinations(sorted(block), 2):
                if (a, b) in pairs:
                    continue
                if _one_typo_apart(name_key(index.display(a)).split(), name_key(index.display(b)).split()):
                    pairs[(a, b)] = "typo"
    return [(a, b, kind) for (a, b), kind in sorted(pairs.items())]


def read_overrides(path: str | Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Read a user file of explicit decisions: ``A = B`` merges, ``A != B`` keeps apart.

    Blank lines and ``#`` comments are ignored. A line of any other shape is an error that names
    the file and line, and so is ``A != B`` when the file's ``=`` lines make A and B one person
    (directly or through others: ``A = C``, ``C = B``); the error names the lines that clash.
    Names are compared by :func:`kg.names.name_key`.
    """
    merges: list[tuple[str, str]] = []
    splits: list[tuple[str, str]] = []
    merge_lines: list[int] = []
    split_lines: list[int] = []
    from kg.readers.base import iter_lines

    for n, line in iter_lines(Path(path)):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if "!=" in text:
            a, b = (s.strip() for s in text.split("!=", 1))
            target = splits
        elif "=" in text:
            a, b = (s.strip() for s in text.split("=", 1))
            target = merges
        else:
            raise InputError("expected `Name A = Name B` (merge) or `Name A != Name B` (keep apart)",
                             path=str(path), line=n)
        if not a or not b:
            raise InputError("both names are needed", path=str(path), line=n)
        target.append((a, b))
        (split_lines if target is splits else merge_lines).append(n)
    _check_consistent(path, merges, merge_lines, splits, split_lines)
    return merges, splits


def _check_consistent(path: str | Path, merges: list[tuple[str, str]], merge_lines: list[int],
                      splits: list[tuple[str, str]], split_lines: list[int]) -> None:
    """Raise when an ``A != B`` line asks to keep apart two names the ``=`` lines join."""
    from collections import deque

    edges: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for (a, b), n in zip(merges, merge_lines):
        ka, kb = name_key(a), name_key(b)
        edges[ka].append((kb, n))
        edges[kb].append((ka, n))
    for (a, b), n in zip(splits, split_lines):
        start, goal = name_key(a), name_key(b)
        # breadth-first through the merges, remembering the line that led to each name
        came: dict[str, tuple[str, int] | None] = {start: None}
        todo = deque([start])
        while todo and goal not in came:
            k = todo.popleft()
            for nxt, line in edges.get(k, ()):
                if nxt not in came:
                    came[nxt] = (k, line)
                    todo.append(nxt)
        if goal not in came:
            continue
        lines = []
        k = goal
        while came[k] is not None:
            k, line = came[k]  # type: ignore[misc]
            lines.append(line)
        lines.sort()
        said = ", ".join("`{} = {}`".format(*merges[merge_lines.index(m)]) for m in lines)
        where = "line" if len(lines) == 1 else "lines"
        raise InputError(f"`{a} != {b}` contradicts {where} {', '.join(map(str, lines))} ({said}): "
                         "a pair cannot be both one person and two", path=str(path), line=n)


def find_duplicates(records: Iterable[Record], *, index: AuthorIndex | None = None,
                    splits: Iterable[tuple[str, str]] = (),
                    merges: Iterable[tuple[str, str]] = ()) -> list[DuplicateCandidate]:
    """Name variants that are probably one person, each with its evidence and decision.

    Blocking finds the pairs (same family name and compatible given names, or names one edit
    apart); evidence decides: a pair is merged when the two share a co-author, or (for a typo)
    share at least two rare topics (see :func:`_profiles`); never when both names are on one
    paper, nor when an initial fits several full names. The user's decisions come first: a
    pair of ``splits`` (``A != B``) is ``kept-apart-by-user``, one of ``merges`` (``A = B``)
    ``merged-by-user``.
    """
    records = list(records)
    index = index or AuthorIndex.from_records(records)
    profiles = _profiles(records, index)
    kept_apart = {frozenset((index.resolve(a), index.resolve(b))) for a, b in splits}
    joined = {frozenset((index.resolve(a), index.resolve(b))) for a, b in merges}
    raw = _candidate_pairs(index)
    # An abbreviated name compatible with several different full names is ambiguous.
    partners: dict[str, set[str]] = defaultdict(set)
    for a, b, kind in raw:
        if kind == "initials":
            partners[a].add(b)
            partners[b].add(a)
    out: list[DuplicateCandidate] = []
    for a, b, kind in raw:
        pa, pb = profiles.get(a, _Profile()), profiles.get(b, _Profile())
        shared_co = sorted((pa.coauthors & pb.coauthors) - {a, b})
        shared_topics = sorted(t.split(":", 1)[1] for t in (pa.topics & pb.topics))
        same_paper = bool(pa.papers & pb.papers)
        short = a if len(index.display(a)) <= len(index.display(b)) else b
        ambiguous = kind == "initials" and len(partners[short]) > 1
        decision = "listed"
        if frozenset((a, b)) in kept_apart:
            decision = "kept-apart-by-user"
        elif frozenset((a, b)) in joined:
            decision = "merged-by-user"
        elif not same_paper and not ambiguous and (
                shared_co or (kind == "typo" and len(shared_topics) >= 2)):
            decision = "merged"
        out.append(DuplicateCandidate(a, b, index.display(a), index.display(b), kind,
                                      tuple(index.display(x) for x in shared_co), tuple(shared_topics),
                                      same_paper, ambiguous, decision))
    return out


def resolve_authors(records: Iterable[Record], *, overrides: str | Path | None = None,
                    auto_merge: bool = True) -> tuple[AuthorIndex, dict[str, Any]]:
    """The author index of a corpus: exact-key groups, evidence-backed merges, user decisions.

    Returns the index and a report for the build summary.
    """
    records = list(records)
    index = AuthorIndex.from_records(records)
    merges, splits = read_overrides(overrides) if overrides else ([], [])
    candidates = find_duplicates(records, index=index, splits=splits, merges=merges)
    n_auto = 0
    if auto_merge:
        for c in candidates:
            if c.decision == "merged":
                keep, other = _keep_which(index, index.resolve(c.name_a), index.resolve(c.name_b), c.kind)
                if keep != other:
                    index.merge(keep, other)
                    n_auto += 1
    n_user = 0
    known = set(index.key_to_id)
    for a, b in merges:
        for name in (a, b):
            if name_key(name) not in known:
                raise InputError(f"author {name!r} in the merge file is not in the corpus", path=str(overrides))
        keep, other = _keep_which(index, index.resolve(a), index.resolve(b), "user")
        if keep != other:
            index.merge(keep, other)
            n_user += 1
    report = {"authors": len(index.ids()), "duplicate_candidates": len(candidates),
              "merged_by_evidence": n_auto, "merged_by_user": n_user,
              "listed_only": sum(1 for c in candidates if c.decision == "listed")}
    return index, report


def authors_file_record(path: str | Path) -> dict[str, str]:
    """What a build records of its ``--authors-file``: the absolute path and a SHA-1 of the
    content, so a later ``kg authors`` can apply the same decisions (:func:`build_authors_file`)."""
    from kg.cache import file_digest

    return {"path": str(Path(path).resolve()), "sha1": file_digest(path)}


def build_authors_file(summary: dict[str, Any]) -> tuple[str | None, str | None]:
    """The authors file a build used, to apply again: ``(path, None)`` when it is still there
    unchanged; ``(None, warning)`` when it was moved or edited since (the graph holds the
    decisions of the file as it was); ``(None, None)`` when the build used none.
    """
    rec = (summary.get("authors") or {}).get("authors_file")
    if not isinstance(rec, dict) or not rec.get("path"):
        return None, None
    path = Path(rec["path"])
    from kg.cache import file_digest

    try:
        same = file_digest(path) == rec.get("sha1")
    except OSError:
        return None, (f"the build applied the authors file {path}, which is gone; these names may not "
                      "match the graph's: pass --authors-file to apply decisions")
    if not same:
        return None, (f"the authors file {path} changed since the build applied it; these names may not "
                      "match the graph's: pass --authors-file to apply it as it is now, or build again")
    return str(path), None


def _keep_which(index: AuthorIndex, a: str, b: str, kind: str) -> tuple[str, str]:
    """Of two ids to merge, which id survives: the more frequent spelling; on a tie the fuller
    name (initials) or the shorter one (a doubled letter is the commoner typo)."""
    na = sum(index.spellings.get(a, Counter()).values())
    nb = sum(index.spellings.get(b, Counter()).values())
    if na != nb:
        return (a, b) if na > nb else (b, a)
    la, lb = len(index.display(a)), len(index.display(b))
    longer_first = (a, b) if la >= lb else (b, a)
    return longer_first if kind != "typo" else (longer_first[1], longer_first[0])
