"""Round-12 gazetteer: textbook statistics, numerical and optimisation algorithms and benchmark
families the curated list lacked (issue 3).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _found(entities) -> set[tuple[str, str]]:
    return {(e.type.value, entity_key(form)) for e in entities
            for form in (e.name, *e.aliases, *(m.text for m in e.mentions))}


@pytest.mark.parametrize("text, etype, name", [
    # nonparametric smoothing, model selection and Monte Carlo estimators
    ("The weights are refined with kernel smoothing before resampling.", "method", "kernel smoothing"),
    ("The ridge penalty is chosen by generalized cross-validation.", "method", "generalized cross-validation"),
    ("Its variance is lower than that of conditional Monte Carlo.", "method", "conditional Monte Carlo"),
    ("The polytope is sampled with the Dikin walk and with hit-and-run.", "method", "hit-and-run"),
    ("Covariate shift is corrected by propensity score weighting.", "method", "propensity score weighting"),
    # latent-variable models and tensor decompositions
    ("The baseline is a mixture of factor analyzers fitted by maximum likelihood.", "method",
     "mixture of factor analyzers"),
    ("A Tucker decomposition of the weight tensor halves the parameters.", "method", "Tucker decomposition"),
    ("Each mode is compressed with a tensor train decomposition.", "method", "tensor train decomposition"),
    # numerical integration and fast summation
    ("The integral is approximated with the trapezoidal rule.", "method", "trapezoidal rule"),
    ("Long-range forces are computed by Ewald summation.", "method", "Ewald summation"),
    # optimisation algorithms
    ("We analyse SGD under random reshuffling and under shuffle once.", "method", "random reshuffling"),
    ("We analyse SGD under random reshuffling and under shuffle once.", "method", "shuffle once"),
    ("The update follows steepest descent on the dual.", "method", "steepest descent"),
    ("Hyperparameters are tuned by random search over a grid.", "method", "random search"),
    ("The two-stage problem is solved by column-and-constraint generation.", "method",
     "column-and-constraint generation"),
    # uncertainty estimation and graph isomorphism tests
    ("Uncertainty comes from deep evidential regression.", "method", "deep evidential regression"),
    ("Its expressivity matches the Folklore WL test.", "method", "Folklore WL"),
    # benchmark families
    ("Results on Imagewoof and Imagenette confirm the trend.", "benchmark", "Imagewoof"),
    ("Speech translation is evaluated on MUST-C and Europarl-ST.", "benchmark", "MuST-C"),
    ("Speech translation is evaluated on MUST-C and Europarl-ST.", "benchmark", "Europarl-ST"),
    ("The hardest tasks remain Path-X and Path256.", "benchmark", "Path-256"),
    ("Translation between Java and Python is scored on AVATAR and XLCoST.", "benchmark", "XLCoST"),
    ("Offline optimisation is run on Design-Bench, including TFBind8.", "benchmark", "Design-Bench"),
    ("Few-shot concept learning is tested on Bongard-LOGO.", "benchmark", "Bongard-LOGO"),
    ("Label noise is studied on ANIMAL-10N and on WebVision.", "benchmark", "ANIMAL-10N"),
    ("Distribution shift is measured on WILDs and on DomainNet.", "benchmark", "WILDs"),
])
def test_round12_family_names(extract, text, etype, name):
    assert (etype, entity_key(name)) in _found(extract(text))
