"""Round-3 gazetteer coverage: used established names of several families (issue 3).

Each sentence is written for this test (no abstract text is copied). The names are ones the
round-3 curated lists added: optimisation and online-learning variants, samplers, neuron
models and learning rules, signal transforms, RL environments, knowledge bases, code and
speech benchmarks. A further group checks that ordinary phrases of the same families stay
unmarked.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import load_gazetteer


def _found(entities) -> set[tuple[str, str, str]]:
    return {(e.type.value, e.name, e.role.value if e.role else "") for e in entities}


@pytest.mark.parametrize("text, etype, name", [
    # optimisation and online learning
    ("The inner maximisation is solved with projected gradient ascent on the simplex.",
     "method", "projected gradient ascent"),
    ("Our bound also covers randomized coordinate descent and the Halpern iteration.",
     "method", "randomized coordinate descent"),
    ("Our bound also covers randomized coordinate descent and the Halpern iteration.",
     "method", "Halpern iteration"),
    ("We compare with two-timescale gradient descent ascent on minimax games.",
     "method", "two-timescale gradient descent ascent"),
    ("The learner runs implicit FTRL over the losses revealed so far.", "method", "implicit FTRL"),
    ("A regret of this order is attained by online Newton step for exp-concave losses.",
     "method", "online Newton step"),
    ("Each policy update is one step of policy mirror descent with a KL proximity term.",
     "method", "policy mirror descent"),
    ("The contrastive encoder is trained with hard negative mining from a memory bank.",
     "method", "hard negative mining"),
    # sampling and inference
    ("Particles evolve by mean-field Langevin dynamics in the space of measures.",
     "method", "mean-field Langevin dynamics"),
    ("We sample from the posterior with the proximal sampler and compare with Glauber dynamics.",
     "method", "Glauber dynamics"),
    ("Signal recovery uses approximate message passing with a learned denoiser.",
     "method", "approximate message passing"),
    # neuroscience models, learning rules, signal processing
    ("The network consists of leaky integrate-and-fire neurons trained with a surrogate loss.",
     "method", "leaky integrate-and-fire"),
    ("Synapses follow spike-timing-dependent plasticity in the first layer.",
     "method", "spike-timing-dependent plasticity"),
    ("As biologically plausible baselines we train with feedback alignment and equilibrium propagation.",
     "method", "equilibrium propagation"),
    ("Audio is converted with the short-time Fourier transform before encoding.",
     "method", "short-time Fourier transform"),
    ("Image blocks are compressed with the discrete cosine transform.", "method", "discrete cosine transform"),
    # models
    ("Programs are sampled from code-davinci-002 with a temperature of 0.8.", "method", "code-davinci-002"),
    # benchmarks
    ("We report returns on HalfCheetah, Hopper and Walker2d.", "benchmark", "Hopper"),
    ("We report returns on HalfCheetah, Hopper and Walker2d.", "benchmark", "Walker2d"),
    ("Cooperative agents are evaluated on Level-Based Foraging and Hanabi.", "benchmark", "Level-Based Foraging"),
    ("Exploration is hardest on Montezuma's Revenge.", "benchmark", "Montezuma's Revenge"),
    ("Entity types are linked to WordNet and to Freebase.", "benchmark", "WordNet"),
    ("The synthesiser is evaluated on SyGuS problems and on Karel programs.", "benchmark", "SyGuS"),
    ("Spiking models are trained on the Spiking Heidelberg Digits and Spiking Speech Commands.",
     "benchmark", "Spiking Speech Commands"),
    ("Keyword spotting accuracy is measured on Google Speech Commands.", "benchmark", "Google Speech Commands"),
    ("Disentanglement is scored on dSprites, MPI3D and Cars3D.", "benchmark", "MPI3D"),
    ("Word problems come from MAWPS and from TabMWP.", "benchmark", "MAWPS"),
    ("Tabular baselines are fitted on Spambase and Ionosphere.", "benchmark", "Spambase"),
    ("Regression error is reported on Abalone and Bike Sharing.", "benchmark", "Bike Sharing"),
    ("The speech encoder is pretrained on WenetSpeech and KsponSpeech.", "benchmark", "KsponSpeech"),
    # named numerical, operations-research and statistical procedures (round 3, second list)
    ("The master problem is solved by Benders decomposition at every node.", "method", "Benders decomposition"),
    ("Totals are estimated with the Horvitz-Thompson estimator from the sampled units.",
     "method", "Horvitz-Thompson estimator"),
    ("The flow field is discretised by the lattice Boltzmann method.", "method", "lattice Boltzmann method"),
    ("Protein sequences are aligned with Needleman-Wunsch before scoring.", "method", "Needleman-Wunsch"),
    # coined names of 2022-2024 methods used as baselines (round 3, third list)
    ("Routing follows Expert Choice routing with capacity two.", "method", "Expert Choice routing"),
    ("Expert layers follow Soft MoE with two slots per expert.", "method", "Soft MoE"),
])
def test_used_established_name_is_found(extract, text: str, etype: str, name: str) -> None:
    assert (etype, name, "used") in _found(extract(text))


@pytest.mark.parametrize("text, absent", [
    # the continuous-time object of a theory paper and a generic signal are no named method here
    ("The Wasserstein gradient flow of the energy converges, and gradients flow backwards.", "gradient flow"),
    # a weighted majority vote is an aggregation, not the weighted majority algorithm
    ("Labels are aggregated by a weighted majority vote over annotators.", "weighted majority"),
    # a metric named after a docking program is no method
    ("Molecules reach a mean Vina Dock score of -8.", "Vina"),
])
def test_ordinary_phrase_is_no_entity(extract, text: str, absent: str) -> None:
    names = {n.lower() for _t, n, _r in _found(extract(text))}
    assert not any(absent.lower() in n for n in names)


def test_known_name_in_its_own_paper_stays_proposed(extract) -> None:
    """A name the gazetteer now knows is still the paper's own when the paper introduces it."""
    found = _found(extract("We propose DropBlock, a structured form of dropout for convolutional layers."))
    assert ("method", "DropBlock", "proposed") in found


@pytest.mark.parametrize("name, etype", [
    ("ADMM", "method"), ("alternating direction method of multipliers", "method"),
    ("DomainBed", "benchmark"), ("SpQR", "method"), ("Atari 100k", "benchmark"),
])
def test_entry_types(name: str, etype: str) -> None:
    entry = load_gazetteer().lookup(name)
    assert entry is not None and entry.type == etype
