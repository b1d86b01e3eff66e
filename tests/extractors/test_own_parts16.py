"""Named parts of the authors' own system (issue 3): a Title-Case module, block or layer name that no
list knows, in an abstract where the authors speak, is proposed; a part of a known architecture or
a part attributed to earlier work is not.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations


def _roles(extract, text):
    return {m.text: e.role.value for e in extract(text) for m in e.mentions}


def test_unknown_module_name_is_the_authors_part(extract):
    text = ("We design a tracker for crowded scenes. A Gaze Routing Module (GRM) selects regions, and "
            "a Depth Echo Block refines them before the Gaze Routing Module fuses both streams.")
    roles = _roles(extract, text)
    assert roles.get("Gaze Routing Module") == "proposed"
    assert roles.get("GRM") == "proposed"


def test_part_of_a_known_architecture_stays_used(extract):
    text = "We stack twelve Transformer Layers and study what each of our probes reads from them."
    assert _roles(extract, text).get("Transformer Layers") != "proposed"


def test_our_solution_names_the_contribution(extract):
    text = ("Auditing tools can be gamed. Our solution, TallyGuard, checks each report against a "
            "second ledger. Our proposal, meshBolt, needs no labels.")
    roles = _roles(extract, text)
    assert roles.get("TallyGuard") == "proposed"
    assert roles.get("meshBolt") == "proposed"
