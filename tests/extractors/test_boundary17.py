"""Span boundaries of known names (session 17): a name-forming modifier in front of a known method,
a version written after a known name."""
from __future__ import annotations

import pytest

TITLE = "A study of estimators"


def _spans(extract, text: str) -> set[str]:
    return {m.text for e in extract(text, TITLE) for m in e.mentions}


# ------------------------------------------------------------------ a name-forming modifier before a known method
@pytest.mark.parametrize("text, variant, base", [
    ("Our tracker is compared with extended Kalman filtering on the radar tracks.",
     "extended Kalman filtering", "Kalman filtering"),
    ("Each cluster centre is refit by soft k-means, then pruned.", "soft k-means", "k-means"),
    ("We sample the posterior with kinetic Langevin diffusion and a small step.",
     "kinetic Langevin diffusion", "Langevin diffusion"),
    ("The meta-gradients come from truncated backpropagation through a short unroll.",
     "truncated backpropagation", "backpropagation"),
    ("As a baseline we fit oblique decision trees on the tabular features.",
     "oblique decision trees", "decision trees"),
])
def test_a_name_forming_modifier_extends_a_known_method(extract, text: str, variant: str, base: str) -> None:
    spans = _spans(extract, text)
    assert variant in spans and base not in spans


@pytest.mark.parametrize("text, name", [
    ("We compare against the standard Kalman filtering of the radar tracks.", "Kalman filtering"),
    ("The Laplace approximation of the evidence is cheap.", "Laplace approximation"),
    ("In this work we extended SGD to the streaming case.", "SGD"),  # a verb, not a modifier
    ("An adaptive importance sampling step proposes the particles.", "importance sampling"),  # split evenly
])
def test_other_words_before_a_known_method_leave_it(extract, text: str, name: str) -> None:
    assert name in _spans(extract, text)


# ------------------------------------------------------------------ a version after a known name
@pytest.mark.parametrize("text, name, short", [
    ("Our speech encoder is initialised from wav2vec 2.0 and trained for a day.", "wav2vec 2.0", "wav2vec"),
    ("We pretrain the audio branch like data2vec 2.0 does for images.", "data2vec 2.0", "data2vec"),
    ("The backbones include ConvNet, ViT and Swin V2.", "Swin V2", "Swin"),
    ("We query Claude 2.0/2.1 and GPT-4 with the same prompts.", "Claude 2.0", "Claude"),
])
def test_a_version_after_a_known_method_is_part_of_its_name(extract, text: str, name: str, short: str) -> None:
    spans = _spans(extract, text)
    assert name in spans and short not in spans


def test_a_decimal_version_after_a_known_benchmark_is_part_of_its_name(extract) -> None:
    spans = _spans(extract, "Recovery rates rise on CATH 4.2/4.3 single-chain benchmarks and on TS50.")
    assert "CATH 4.2" in spans and "CATH" not in spans


@pytest.mark.parametrize("text, name", [
    ("With ResNeXt 5.5 times fewer steps are needed.", "ResNeXt"),  # a factor, not a version
    ("Samples from data2vec 12.5 percent of the time are kept.", "data2vec"),
])
def test_a_number_that_is_no_version_stays_out(extract, text: str, name: str) -> None:
    assert name in _spans(extract, text)
