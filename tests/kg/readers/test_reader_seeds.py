"""The seed listing reader on the three real listing files and on hand-written ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import InputError
from kg.readers import detect_format
from kg.readers.seeds import classify_line, split_authors_line
from reader_helpers import FIXTURES, read_all as read


@pytest.fixture(scope="module")
def seed_records(seeds_dir: Path) -> dict[str, list]:
    return {p.name[:3]: read(p)[0] for p in sorted(seeds_dir.glob("*.txt"))}


def test_sixty_entries_in_three_files(seed_records):
    assert {k: len(v) for k, v in seed_records.items()} == {"000": 20, "003": 20, "004": 20}


def test_004_entries_have_no_authors(seed_records):
    assert all(r.authors == () and not r.authors_truncated for r in seed_records["004"])


def test_000_and_003_entries_all_have_authors(seed_records):
    assert all(r.authors for k in ("000", "003") for r in seed_records[k])


def test_truncation_marker_sets_flag_and_is_removed(seed_records):
    truncated = [r for r in seed_records["000"] if r.authors_truncated]
    assert len(truncated) == 2
    for r in truncated:
        assert not any("等" in a for a in r.authors)
    assert truncated[0].authors[:2] == ("Xinpeng Lv", "Yunxin Mao")
    assert truncated[0].authors[-1] == "Mingyang Geng"


def test_categories_parsed_and_not_carried_over(seed_records):
    first = seed_records["000"][0]
    assert (first.category.area, first.category.subarea) == ("General Machine Learning", "Everything Else")
    # The paper by Yunzhen Feng et al. has no category line of its own; the one before it
    # (Deep Learning · Large Language Models) must not leak onto it.
    feng = next(r for r in seed_records["000"] if r.authors and r.authors[0] == "Yunzhen Feng")
    assert feng.category is None
    counts = {k: sum(r.category is not None for r in v) for k, v in seed_records.items()}
    assert counts == {"000": 12, "003": 18, "004": 10}


def test_category_with_commas(seed_records):
    cats = {str(r.category) for r in seed_records["004"] if r.category}
    assert "Applications · Chemistry, Physics, and Earth Sciences" in cats


def test_chrome_lines_never_become_records(seed_records):
    for recs in seed_records.values():
        for r in recs:
            assert "论文检索" not in r.abstract and "输入标题" not in r.abstract
            assert len(r.abstract) > 500  # every real entry is a full abstract


def test_004_first_line_before_chrome_is_an_abstract(seed_records):
    first = seed_records["004"][0]
    assert first.sources[0].line == 1
    assert first.abstract.startswith("Deep hypergraph clustering")


def test_source_lines_point_at_abstracts(seed_records, seeds_dir):
    lines = (seeds_dir / "000_da0255890f613690.txt").read_text(encoding="utf-8").splitlines()
    for r in seed_records["000"]:
        assert lines[r.sources[0].line - 1].strip()[:40] == r.abstract[:40]


def test_all_caps_author_displayed_in_title_case(seed_records):
    names = {a for recs in seed_records.values() for r in recs for a in r.authors}
    assert "Remi Munos" in names and "REMI MUNOS" not in names
    assert "Zhitao Ying" in names


def test_non_breaking_hyphen_normalised(seed_records):
    text = " ".join(r.abstract for r in seed_records["004"])
    assert "\u2011" not in text
    assert "CIFAR-10" in text


def test_same_paper_in_000_and_004_gets_same_id(seed_records):
    ids_000 = {r.id for r in seed_records["000"]}
    ids_004 = {r.id for r in seed_records["004"]}
    assert len(ids_000 & ids_004) == 13


def test_detects_all_seed_files(seeds_dir):
    assert {detect_format(p) for p in seeds_dir.glob("*.txt")} == {"seeds"}


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Theory · Game Theory", "category"),
        ("Applications · Chemistry, Physics, and Earth Sciences", "category"),
        ("Theory · Game Theory. We study games.", "abstract"),
        ("Erdem Koyuncu", "authors"),
        ("Mikael Moller Hogsgaard, Kasper Green Larsen, Liang-Yu Zou", "authors"),
        ("Yuan Feng, Junlin Lv, S Kevin Zhou", "authors"),
        ("Emmanuel J. Candès, Sofia van der Berg 等", "authors"),
        ("张伟, 李娜", "authors"),
        ("We study X, Y and Z.", "abstract"),
        ("Deep Learning for Graphs", "abstract"),
        ("Graphs, Trees and Forests: a survey of $k$-ary structures", "abstract"),
        ("论文检索", "chrome"),
        ("输入标题、作者或关键词，从 100,903 篇学术成果中精准定位", "chrome"),
        ("   ", "blank"),
    ],
)
def test_classify_line(line, kind):
    assert classify_line(line) == kind


def test_split_authors_line():
    assert split_authors_line("A B, C D 等") == (["A B", "C D"], True)
    assert split_authors_line("A B, C D") == (["A B", "C D"], False)
    assert split_authors_line("A B, C D et al.") == (["A B", "C D"], True)
    assert split_authors_line("A B, Ahmet Al") == (["A B", "Ahmet Al"], False)


def test_hand_written_block_layout():
    recs, ctx = read(FIXTURES / "listing_blocks.txt")
    assert len(recs) == 4 and not ctx.skipped
    first, second, third, fourth = recs
    assert first.authors == ("Ada Quell", "Bertil Nordgren", "Kwame Asante")
    assert first.authors_truncated
    assert "CIFAR-10" in first.abstract
    assert str(second.category) == "Applications · Chemistry, Physics, and Earth Sciences"
    assert second.authors == ("Sofia van der Berg", "J. R. Okafor")
    assert second.abstract.endswith("without a blank line.")  # a wrapped abstract is joined
    assert third.authors == ("Petra Lindqvist",) and third.category is None
    assert fourth.authors == () and fourth.category is None
    assert [r.sources[0].line for r in recs] == [7, 13, 18, 20]


def test_hand_written_line_layout():
    recs, _ = read(FIXTURES / "listing_lines.txt")
    assert [r.sources[0].line for r in recs] == [1, 5, 6, 8]
    assert [str(r.category) if r.category else None for r in recs] == [
        None, "Deep Learning · Large Language Models", None, "Theory · Learning Theory"]


def test_authors_line_without_abstract_is_bad(tmp_path):
    p = tmp_path / "dangling.txt"
    p.write_text("论文检索\n\nAda Quell, Bertil Nordgren\n\nAn abstract about things, with words.\n\n"
                 "Theory · Game Theory\n\nOla Brandvik\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:9: authors line without an abstract")
    recs, ctx = read(p, skip_bad=True)
    assert len(recs) == 1
    assert sum(ctx.skipped.values()) == 2  # the authors line and the category line before it


def test_line_classifier_on_real_conference_records(shared_data):
    """Real abstracts, author lists and areas from other sources, laid out as listing lines."""
    import json

    counts = {"abstract": [0, 0], "authors": [0, 0], "category": [0, 0]}
    for name in ("iclr2024", "neurips2018", "ijcai2024"):
        path = shared_data / "confpapers" / "jsonl" / f"{name}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            samples = [("abstract", d["abstract"]), ("authors", ", ".join(d["authors"]))]
            if d["area"] and "->" in d["area"]:
                samples.append(("category", d["area"].replace("->", " · ")))
            for kind, text in samples:
                if text:
                    counts[kind][0] += 1
                    counts[kind][1] += classify_line(text) == kind
    assert counts["abstract"][0] > 4000 and counts["abstract"][1] == counts["abstract"][0]
    assert counts["category"][1] == counts["category"][0] > 1500
    total, right = counts["authors"]
    assert total > 4000 and right / total > 0.995  # misses: all-lower-case single names
