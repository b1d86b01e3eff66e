"""What every reader shares: the read context (errors, skipping, counts) and safe text input."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from kg.errors import InputError

#: A field longer than this is refused (or skipped with --skip-bad): no real abstract or title
#: comes near it, and a 5 MB "abstract" is a broken scrape, not a paper.
MAX_FIELD_CHARS = 2_000_000

#: How many bytes are sniffed to detect formats, binary files and encodings.
SNIFF_BYTES = 64 * 1024


@dataclass
class ReadContext:
    """Passed to a reader for one file: where errors go and what was skipped.

    A reader calls :meth:`bad` for a malformed item and carries on; without ``skip_bad`` that
    raises :class:`InputError` naming file and line, with it the item is counted and skipped.
    """

    path: Path
    format: str
    skip_bad: bool = False
    skipped: Counter = field(default_factory=Counter)
    skipped_examples: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.path)

    def bad(self, reason: str, *, line: int | None = None) -> None:
        if not self.skip_bad:
            raise InputError(reason, path=self.name, line=line)
        self.skipped[reason.split(":")[0]] += 1
        if len(self.skipped_examples) < 20:
            where = f"{self.name}:{line}" if line is not None else self.name
            self.skipped_examples.append(f"{where}: {reason}")

    def check_text(self, title: str | None, abstract: str | None, *, line: int | None,
                   what: str | None = None) -> bool:
        """False (after reporting) when an item has neither title nor abstract, or one too long.

        ``what`` names the item in the message (``"BibTeX entry 'key'"``).
        """
        if not title and not abstract:
            self.bad(f"{what}: no title and no abstract" if what else "no title and no abstract", line=line)
            return False
        return self.check_field(abstract, "abstract", line=line) and self.check_field(title, "title", line=line)

    def check_field(self, value: str | None, what: str, *, line: int | None) -> bool:
        """False (after reporting) when a field is too long to be real."""
        if value is not None and len(value) > MAX_FIELD_CHARS:
            self.bad(f"{what} too long: {len(value):,} characters (limit {MAX_FIELD_CHARS:,})", line=line)
            return False
        return True


def check_binary(path: Path, head: bytes) -> None:
    """Refuse binary files (known magic numbers, then NUL bytes) and text in UTF-16/32."""
    for magic, what in ((b"\x1f\x8b", "gzip"), (b"PK\x03\x04", "zip"), (b"%PDF", "PDF"),
                        (b"BZh", "bzip2"), (b"\xfd7zXZ", "xz")):
        if head.startswith(magic):
            raise InputError(f"{what} file: unpack it or give paperkg the text inside", path=str(path))
    for bom, what in ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
                      (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16")):
        if head.startswith(bom):
            raise InputError(f"{what} text: convert it to UTF-8 (e.g. iconv -f {what} -t UTF-8)", path=str(path))
    if b"\x00" in head:
        raise InputError("binary file (NUL bytes), not a text format paperkg reads", path=str(path))


def read_head(path: Path, n: int = SNIFF_BYTES) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(n)
    except FileNotFoundError:
        raise InputError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a directory (give the files in it, or a glob)", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=str(path)) from None


def not_utf8_reason(raw: bytes, exc: UnicodeDecodeError) -> str:
    """The one wording of a line that is not UTF-8 (its counter key when skipped: ``not UTF-8``).

    >>> try:
    ...     b"caf\\xe9".decode("utf-8")
    ... except UnicodeDecodeError as e:
    ...     not_utf8_reason(b"caf\\xe9", e)
    'not UTF-8: byte 0xe9 at column 4; convert the file to UTF-8, e.g. with iconv'
    """
    return (f"not UTF-8: byte 0x{raw[exc.start]:02x} at column {exc.start + 1}; "
            "convert the file to UTF-8, e.g. with iconv")


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(1-based line number, line without newline), decoding UTF-8 strictly line by line.

    A byte sequence that is not UTF-8 raises an :class:`InputError` naming the line, instead of
    garbling names silently. A UTF-8 byte-order mark is accepted.
    """
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            try:
                text = raw.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(not_utf8_reason(raw, exc), path=str(path), line=n) from None
            yield n, text.rstrip("\r\n")


def read_text(path: Path) -> str:
    """The whole file as text, with the same strict UTF-8 check as :func:`iter_lines`."""
    buf = io.StringIO()
    for _, line in iter_lines(path):
        buf.write(line)
        buf.write("\n")
    return buf.getvalue()


def line_of(text: str, pos: int) -> int:
    """1-based line number of a character offset (for errors from whole-file parsers)."""
    return text.count("\n", 0, pos) + 1
