"""A folder of records as downloaded, with its licence and readme files, ingests. Found by QA:
``kg ingest ../shared/data/confpapers/raw/`` stopped at ``airas/LICENSE`` ("cannot tell the
format"), and the S2 folder's ``LICENSE-semanticscholar-client.txt`` was read as a listing page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.ingest import expand_inputs, ingest


def test_licence_and_readme_files_are_left_out(tmp_path: Path, seeds_dir: Path) -> None:
    d = tmp_path / "data"
    shutil.copytree(seeds_dir, d)
    for name in ("LICENSE", "LICENSE-client.txt", "README", "README.txt", "COPYING", "NOTICE", "CITATION.cff"):
        (d / name).write_text("Permission is hereby granted, free of charge, to any person\n", encoding="utf-8")
    files = [p.name for p in expand_inputs([d])]
    assert files == sorted(p.name for p in seeds_dir.glob("*.txt"))
    assert len(ingest([d]).records) == 47


def test_paper_files_with_such_words_are_kept(tmp_path: Path, seeds_dir: Path) -> None:
    d = tmp_path / "data"
    d.mkdir()
    src = sorted(seeds_dir.glob("*.txt"))[0]
    for name in ("authors_2024.txt", "notices.txt", "license_plates.jsonl"):
        shutil.copy(src, d / name)
    assert sorted(p.name for p in expand_inputs([d])) == ["authors_2024.txt", "license_plates.jsonl", "notices.txt"]


def test_a_licence_given_by_name_is_still_read(tmp_path: Path) -> None:
    f = tmp_path / "LICENSE"
    f.write_text("Permission is hereby granted\n", encoding="utf-8")
    assert expand_inputs([f]) == [f]
    with pytest.raises(InputError, match="LICENSE"):
        ingest([f])


def test_shared_raw_folders_ingest(shared_data: Path) -> None:
    r = ingest([shared_data / "confpapers" / "raw", shared_data / "citations" / "raw" / "s2-turing-ego"])
    assert {Path(f.path).name for f in r.files} >= {"iclr2024.json", "nips2018.json", "Paper.json"}
    assert not any("LICENSE" in f.path for f in r.files)
