from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.ingest import expand_inputs, ingest
from kg.records import Category


@pytest.fixture(scope="module")
def seeds(seeds_dir):
    return ingest([seeds_dir])


def test_seeds_60_entries_become_47_papers(seeds):
    assert seeds.read == 60
    assert len(seeds.records) == 47
    assert seeds.summary()["merged"] == 13
    assert [f["records"] for f in seeds.summary()["files"]] == [20, 20, 20]


def test_duplicates_of_004_keep_authors_and_category_of_000(seeds):
    relisted = [r for r in seeds.records if any("004_" in s.file for s in r.sources)]
    assert len(relisted) == 20
    merged = [r for r in relisted if len(r.sources) == 2]
    assert len(merged) == 13
    for r in merged:
        assert [s.file.rsplit("/", 1)[1][:4] for s in r.sources] == ["000_", "004_"]
        assert r.authors, r.id  # the authors of 000 are kept
    # 004 lists no authors: its 7 papers not in 000 have none
    assert sum(1 for r in relisted if not r.authors) == 7
    zovh = next(r for r in seeds.records if r.abstract and "ZoVH" in r.abstract)
    assert zovh.authors == ("Junbin Qiu", "Zhaowei Hong", "Renzhe Xu", "Yao Shu")
    assert zovh.category == Category("Optimization", "Zero-order and Black-box Optimization")


def test_seed_records_are_normalised(seeds):
    text = " ".join(r.abstract or "" for r in seeds.records)
    assert "\u2011" not in text and "CIFAR-10" in text
    names = {a for r in seeds.records for a in r.authors}
    assert "Remi Munos" in names and "REMI MUNOS" not in names
    assert not any("论文" in (r.abstract or "") for r in seeds.records)
    assert sum(r.authors_truncated for r in seeds.records) >= 1
    assert len({r.id for r in seeds.records}) == 47


def test_ingest_is_idempotent_on_its_own_output(seeds, tmp_path):
    from kg.workspace import write_records

    out = tmp_path / "records.jsonl"
    write_records(seeds.records, out)
    again = ingest([out])
    assert [r.to_dict() | {"sources": None} for r in again.records] == \
           [r.to_dict() | {"sources": None} for r in seeds.records]


def test_same_paper_across_formats_is_one_record(tmp_path, shared_data):
    import json

    src = shared_data / "confpapers" / "jsonl" / "icml2019.jsonl"
    first = json.loads(src.read_text(encoding="utf-8").splitlines()[0])
    csv = tmp_path / "one.csv"
    csv.write_text('title,abstract,authors\n"{}","{}","{}"\n'.format(
        first["title"].upper(), first["abstract"].replace('"', '""'), "; ".join(first["authors"])), encoding="utf-8")
    result = ingest([src, csv])
    assert result.read == 774 and len(result.records) == 773


def test_folder_expansion_skips_docs(seeds_dir):
    files = expand_inputs([seeds_dir])
    assert [f.name[:3] for f in files] == ["000", "003", "004"]


def test_missing_input_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        ingest([tmp_path / "nope.jsonl"])
