from __future__ import annotations

import pytest

from kg.names import author_id, display_name, name_key, split_name


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("REMI MUNOS", "Remi Munos"),
        ("ZHITAO YING", "Zhitao Ying"),
        ("Xu, Renzhe", "Renzhe Xu"),
        ("Zhitao YING", "Zhitao Ying"),
        ("JEAN-PIERRE O'NEIL", "Jean-Pierre O'Neil"),
        ("Emmanuel J Candes", "Emmanuel J Candes"),
        ("Emmanuel J. Candès", "Emmanuel J. Candès"),
        ("  Yao   Shu  ", "Yao Shu"),
        ("Yao Shu*", "Yao Shu"),
        ("Yao Shu1", "Yao Shu"),
        ("Smith, Jr.", "Smith Jr."),
        ("Ng AY", "Ng AY"),  # two capitals in a mixed-case name may be initials: left alone
        ("李飞飞", "李飞飞"),
        ("", None),
        ("***", None),
        (None, None),
    ],
)
def test_display_name(raw, expected):
    assert display_name(raw) == expected


def test_accents_kept_for_display_but_not_for_matching():
    assert name_key("Emmanuel J. Candès") == name_key("EMMANUEL J CANDES") == "emmanuel j candes"
    assert author_id("Candès") == author_id("candes") == "candes"


def test_split_name():
    assert split_name("Renzhe Xu") == ("Renzhe", "Xu")
    assert split_name("Martin Luther King Jr.") == ("Martin Luther", "King Jr.")
    assert split_name("Plato") == ("", "Plato")
