"""``kg view --author/--method ...`` with an unknown name suggests names as the graph spells them.
Found by QA: the hint listed lower-case match keys ("close matches: julia kempe")."""

from __future__ import annotations

import networkx as nx
import pytest

from exports.html import find_node
from kg.errors import NotFoundError


def _graph() -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    G.add_node("author:julia-kempe", type="author", name="Julia Kempe", label="Julia Kempe",
               aliases=["Julia KEMPE"])
    G.add_node("benchmark:cifar-10", type="benchmark", name="CIFAR-10", label="CIFAR-10")
    G.add_node("benchmark:cifar-100", type="benchmark", name="CIFAR-100", label="CIFAR-100")
    return G


def test_hint_uses_display_names_once_each() -> None:
    with pytest.raises(NotFoundError) as exc:
        find_node(_graph(), "author", "J. Kempe")
    assert str(exc.value) == "no author named 'J. Kempe' in the graph; close matches: Julia Kempe"


def test_hint_lists_several_names() -> None:
    with pytest.raises(NotFoundError, match=r"close matches: CIFAR-10, CIFAR-100$"):
        find_node(_graph(), "benchmark", "cifar")


def test_seed_build_cli_line(tmp_path, seeds_dir, capsys) -> None:
    from kg.cli import main

    out = tmp_path / "out"
    assert main(["build", str(seeds_dir), "-o", str(out), "-q", "--no-extract", "--no-rdf", "--no-html"]) == 0
    capsys.readouterr()
    assert main(["view", str(out), "--author", "J. Kempe"]) == 1
    assert capsys.readouterr().err == "kg: error: no author named 'J. Kempe' in the graph; close matches: Julia Kempe\n"
