"""BibTeX via bibtexparser (hand-written entries)."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.readers import detect_format
from kg.readers.bibtex import latex_to_text
from reader_helpers import FIXTURES, read_all as read


def test_entries():
    path = FIXTURES / "papers.bib"
    assert detect_format(path) == "bibtex"
    recs, ctx = read(path)
    assert len(recs) == 3 and not ctx.skipped  # the @comment and @string are not papers
    one, two, three = recs
    assert one.title == "Lattice Gardens for Über-Sparse $\\ell_1$ Models"
    assert one.authors == ("Ada Quell", "Bertil Nordgren", "Gökhan Öztürk")
    assert one.authors_truncated  # "and others"
    assert one.venue == "Journal of Invented Learning"  # @string macro resolved
    assert one.doi == "10.5555/jil.2021.007" and one.year == 2021
    assert one.abstract.startswith("We propose LatticeGarden, a sparse model")
    assert one.sources[0].line == 4
    assert two.id == "arxiv:2402.00021" and two.venue == "Proceedings of the Invented Conference on Sampling"
    assert three.ids == {"arxiv": "1901.00005"}  # from an arXiv URL


def test_latex_to_text_keeps_math():
    assert latex_to_text(r"{\"a}{\'e}\c{c} \textbf{bold} $\alpha_{1}$") == "äéç bold $\\alpha_{1}$"
    assert latex_to_text("plain") == "plain"


def test_entry_that_does_not_parse(tmp_path):
    p = tmp_path / "broken.bib"
    p.write_text("@article{ok1, title={Fine}, author={Ada Quell}}\n\n"
                 "@inproceedings{broken,\n  title = {Unclosed\n  author = {X}\n\n"
                 "@misc{ok2, title={Also fine}}\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:3: BibTeX entry does not parse: ")
    recs, ctx = read(p, skip_bad=True)
    assert [r.title for r in recs] == ["Fine", "Also fine"]
    assert ctx.skipped == {"BibTeX entry does not parse": 1}


def test_duplicate_key_is_still_read(tmp_path):
    p = tmp_path / "dup.bib"
    p.write_text('@misc{k, title="One", author={Lee, Ann}}\n@misc{k, title="Two", author={Lee, Ann and Bo Chen}}\n',
                 encoding="utf-8")
    recs, _ = read(p)
    assert [(r.title, r.authors, r.sources[0].line) for r in recs] == [
        ("One", ("Ann Lee",), 1), ("Two", ("Ann Lee", "Bo Chen"), 2)]


def test_entry_without_title_or_abstract(tmp_path):
    p = tmp_path / "empty.bib"
    p.write_text("@misc{nothing, author={Ada Quell}}\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value) == f"{p}:1: BibTeX entry 'nothing': no title and no abstract"
