"""``kg authors OUT --duplicates --authors-file F`` shows the user's ``A = B`` lines as
decisions. Found by QA: the merges of the file were ignored there (the pair stayed "listed",
"no shared co-author or topic") although ``kg build --authors-file`` merges it."""

from __future__ import annotations

import json

import pytest

from kg.cli import main


@pytest.fixture(scope="module")
def seeds_ws(tmp_path_factory, seeds_dir):
    out = tmp_path_factory.mktemp("ws") / "out"
    assert main(["build", str(seeds_dir), "-o", str(out), "-q", "--no-extract", "--no-rdf", "--no-html"]) == 0
    return out


def _pair(seeds_ws, capsys, lines: str, tmp_path) -> dict:
    f = tmp_path / "decisions.txt"
    f.write_text(lines, encoding="utf-8")
    assert main(["authors", str(seeds_ws), "--duplicates", "--json", "--authors-file", str(f)]) == 0
    rows = json.loads(capsys.readouterr().out)
    return next(r for r in rows if {r["a"], r["b"]} == {"Jinluan Yang", "Jinxuan Yang"})


def test_user_merge_is_the_decision(seeds_ws, capsys, tmp_path) -> None:
    pair = _pair(seeds_ws, capsys, "Jinxuan Yang = Jinluan Yang\n", tmp_path)
    assert pair["decision"] == "merged-by-user"
    assert pair["reason"] == f"authors file: {pair['a']} = {pair['b']}"


def test_user_split_is_the_decision(seeds_ws, capsys, tmp_path) -> None:
    pair = _pair(seeds_ws, capsys, "Jinluan Yang != Jinxuan Yang\n", tmp_path)
    assert pair["decision"] == "kept-apart-by-user"


def test_other_lines_leave_the_pair_listed(seeds_ws, capsys, tmp_path) -> None:
    pair = _pair(seeds_ws, capsys, "Julia Kempe != Renzhe Xu\n", tmp_path)
    assert pair["decision"] == "listed" and pair["reason"] == "no shared co-author or topic"


@pytest.mark.parametrize("top", ["0", "-1"])
def test_top_below_one_is_a_usage_error(seeds_ws, top: str) -> None:
    # found by QA: --top -1 printed an empty table and exit status 0
    from click.testing import CliRunner

    from kg.cli import cli

    r = CliRunner().invoke(cli, ["authors", str(seeds_ws), "--top", top])
    assert r.exit_code == 2 and "Invalid value for '--top'" in r.output
