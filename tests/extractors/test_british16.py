"""British spellings of known names (issue 3): "Bayesian optimisation" is the gazetteer's
"Bayesian optimization", found in the text and keyed alike, while words that only look like
-ise words are left as they are.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import _british, entity_key


@pytest.mark.parametrize("text, surface, name", [
    ("Hyperparameters are tuned by Bayesian optimisation with a small budget.",
     "Bayesian optimisation", "Bayesian optimization"),
    ("We insert batch normalisation after every convolution.", "batch normalisation", "batch normalization"),
])
def test_british_spelling_of_a_known_name_is_found(extract, text, surface, name):
    found = {m.text: e for e in extract(text) for m in e.mentions}
    assert surface in found
    assert found[surface].type.value == "method"
    assert entity_key(found[surface].name) == entity_key(name)


def test_british_and_american_spellings_share_a_key():
    assert entity_key("Proximal Policy Optimisation") == entity_key("proximal policy optimization")
    assert entity_key("Adam optimiser") == entity_key("Adam optimizer")
    assert entity_key("randomized smoothing") != entity_key("random smoothing")


def test_only_long_stem_iz_words_are_respelt():
    assert _british("size, prize and seized") == "size, prize and seized"
    assert _british("regularized optimizers") == "regularised optimisers"


@pytest.mark.parametrize("text, surface", [
    # a hyphen written as a space inside a many-word known name
    ("The agent is trained with Soft Actor Critic on every task.", "Soft Actor Critic"),
    ("We compute a singular value decomposition of each weight matrix.", "singular value decomposition"),
    # a typographic apostrophe in a known benchmark
    ("Exploration is hardest on Montezuma\u2019s Revenge among the games.", "Montezuma\u2019s Revenge"),
    # a known edition code with its year written apart
    ("We report BLEU on WMT 2014 English-German after training.", "WMT 2014 English-German"),
])
def test_written_variants_of_known_names_are_found(extract, text, surface):
    assert surface in {m.text for e in extract(text) for m in e.mentions}
