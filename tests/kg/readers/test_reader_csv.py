"""CSV/TSV with a header (hand-written files)."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.readers import detect_format
from kg.readers.csv import split_authors
from reader_helpers import FIXTURES, read_all as read


def test_columns_case_insensitive_and_multiline_fields():
    path = FIXTURES / "papers.csv"
    assert detect_format(path) == "csv"
    recs, _ = read(path)
    one, two, three = recs
    assert one.abstract == "We model soil sensors as a moss graph. The graph grows with each reading."
    assert one.doi == "10.5555/moss.1" and one.year == 2022 and one.venue == "Invented Soil Conference"
    assert str(one.category) == "Applications · Sensing"
    assert [r.sources[0].line for r in recs] == [2, 4, 5]  # file lines, not row numbers
    assert two.authors == ("Renzhe Xu", "Haoxuan Li")  # "Last, First; Last, First"
    assert three.title == "A Title, With a Comma" and three.abstract is None
    assert three.authors == ("Ada Quell", "Bertil Nordgren")


def test_tab_separated():
    path = FIXTURES / "papers.tsv"
    assert detect_format(path) == "csv"
    (r,), _ = read(path)
    assert r.authors == ("Ola Brandvik", "Petra Lindqvist") and r.year == 2020


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Xu, Renzhe; Li, Haoxuan", ["Xu, Renzhe", "Li, Haoxuan"]),
        ("Xu, Renzhe", ["Xu, Renzhe"]),
        ("Xu, Renzhe, Li, Haoxuan", ["Xu, Renzhe", "Li, Haoxuan"]),
        ("Ada Quell, Bertil Nordgren", ["Ada Quell", "Bertil Nordgren"]),
        ("Ada Quell and Bo Chen", ["Ada Quell", "Bo Chen"]),
        ("", []),
    ],
)
def test_split_authors(text, names):
    assert split_authors(text) == names


def test_row_with_too_few_columns(tmp_path):
    p = tmp_path / "short.csv"
    p.write_text('title,abstract,authors,year\nFine,"Multi\nline",A B,2020\nShort,Row\nAlso fine,x,C D,2021\n',
                 encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value) == f"{p}:4: CSV row has 2 columns, the header has 4"
    recs, ctx = read(p, skip_bad=True)
    assert [r.title for r in recs] == ["Fine", "Also fine"]
    assert ctx.skipped == {"CSV row has 2 columns, the header has 4": 1}


def test_row_without_title_and_abstract(tmp_path):
    p = tmp_path / "empty_row.csv"
    p.write_text("Title,Abstract,Venue\n,,Somewhere\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value) == f"{p}:2: no title and no abstract in this row"


def test_header_without_known_columns(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("name,value\na,1\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p, format="csv")
    assert str(exc.value).startswith(f"{p}:1: CSV header: no title or abstract column")


@pytest.mark.parametrize("eol", ["\r", "\r\n", "\n"], ids=["cr", "crlf", "lf"])
def test_any_line_ending(tmp_path, eol):
    # CR-only line endings (old Mac OS, some spreadsheet exports) were a _csv.Error traceback
    rows = ['title,abstract,year', '"A","B",2020', '"Two, lines","first' + eol + 'second",2021',
            'Short,Row', '"C","D",2022']
    p = tmp_path / "lines.txt"  # no .csv: the header is recognised from the text
    p.write_bytes(eol.join(rows).encode("utf-8") + eol.encode())
    assert detect_format(p) == "csv"
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value) == f"{p}:5: CSV row has 2 columns, the header has 3"
    recs, _ = read(p, skip_bad=True)
    assert [(r.title, r.abstract, r.year, r.sources[0].line) for r in recs] == [
        ("A", "B", 2020, 2), ("Two, lines", "first second", 2021, 3), ("C", "D", 2022, 6)]


def test_cr_line_endings_and_a_line_not_utf8(tmp_path):
    p = tmp_path / "cr.csv"
    p.write_bytes(b'title,abstract\r"A","B"\r"Caf\xe9","x"\r"C","D"\r')
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:3: not UTF-8: byte 0xe9 at column 5")
    recs, _ = read(p, skip_bad=True)
    assert [r.title for r in recs] == ["A", "C"]
