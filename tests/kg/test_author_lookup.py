"""``kg view --author`` and ``kg related`` find authors the same way (kg.related.find_author).

Found by QA: ``kg view --author Li`` matched any name containing "li" (and so focused on
Haoyu Lin when he was the only one), while ``kg related`` matched whole words of a name. Now
both take the same lookup: the whole name, an id, or whole words that fit one author; a part
of a name that fits several is one line listing them, the same line from both commands.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kg.build import BuildOptions, build
from kg.cli import main
from kg.related import find_author
from kg.workspace import Workspace

PAPERS = [
    ("Sparse Routing for Mixture Models", ["Haoyu Lin", "Ana Costa"]),
    ("Label Noise in Federated Learning", ["Wei Zhang", "Ana Costa"]),
    ("Kernel Methods for Graph Matching", ["Min Zhang", "Maria Li"]),
]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("lookup")
    src = d / "papers.jsonl"
    src.write_text("".join(json.dumps({"title": t, "abstract": f"We study {t.lower()} on public data.",
                                       "authors": a, "year": 2024}) + "\n" for t, a in PAPERS),
                   encoding="utf-8")
    build([src], d / "out", options=BuildOptions(progress=False, extract=False, rdf=False, html=False))
    return d / "out"


def _focus(path: Path) -> str:
    page = path.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="paperkg-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))["focus"]


def _err(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


@pytest.mark.parametrize("query,key", [
    ("Li", "author:maria-li"),           # a whole word: never Haoyu Lin
    ("li", "author:maria-li"),
    ("Lin", "author:haoyu-lin"),
    ("Maria Li", "author:maria-li"),
    ("haoyu-lin", "author:haoyu-lin"),   # the id `kg authors` lists
    ("author:min-zhang", "author:min-zhang"),
    ("Costa", "author:ana-costa"),
])
def test_view_and_related_find_the_same_author(out: Path, tmp_path: Path, capsys, query: str, key: str) -> None:
    G = Workspace(out).load_graph()
    assert find_author(G, query) == key
    target = tmp_path / "v.html"
    code, err = _err(capsys, "view", str(out), "--author", query, "-o", str(target))
    assert (code, err) == (0, "")
    assert _focus(target) == key
    assert main(["related", str(out), query, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert main(["related", str(out), key, "--json"]) == 0  # the node key itself: the same answer
    assert json.loads(capsys.readouterr().out) == json.loads(captured.out)


def test_a_part_of_a_name_that_fits_several_is_the_same_line_from_both(out: Path, capsys) -> None:
    expected = "kg: error: 'Zhang' fits several authors: Min Zhang, Wei Zhang; give more of the name\n"
    assert _err(capsys, "view", str(out), "--author", "Zhang") == (1, expected)
    assert _err(capsys, "related", str(out), "Zhang") == (1, expected)


def test_a_substring_that_is_no_word_finds_nobody(out: Path, capsys) -> None:
    # "Haoy" was enough for the view before (the only name containing it)
    for args in (["view", str(out), "--author", "Haoy"], ["related", str(out), "Haoy"]):
        code, err = _err(capsys, *args)
        assert code == 1 and err.startswith("kg: error: no author named 'Haoy' in the graph")


def test_other_focus_options_still_say_one_focus_at_most(out: Path, capsys) -> None:
    assert _err(capsys, "view", str(out), "--author", "Nobody", "--method", "x") == (
        1, "kg: error: give one focus at most, got --author, --method\n")


def test_the_readme_examples_still_work(tmp_path: Path, seeds_dir: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["build", str(seeds_dir), "-o", str(out), "-q", "--no-rdf", "--no-html"]) == 0
    capsys.readouterr()
    assert main(["view", str(out), "--author", "Julia Kempe", "--depth", "2"]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert path == out / "html" / "views" / "author-julia-kempe.html" and _focus(path) == "author:julia-kempe"
    assert main(["related", str(out), "Renzhe Xu", "--top", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(" 1. ") and len([ln for ln in lines if re.match(r"^ ?\d+\. ", ln)]) == 10
    assert main(["view", str(out), "--author", "Kempe"]) == 0  # a surname that fits one author
    assert _focus(Path(capsys.readouterr().out.strip())) == "author:julia-kempe"
