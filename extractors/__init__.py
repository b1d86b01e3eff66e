"""spaCy components that pull methods, benchmarks, concepts and citations out of abstracts.

This is the only package of paperkg that imports spaCy, and spaCy objects never leave it: the
rest of the code calls :func:`extractors.pipeline.extract_records` (or ``extract_raw`` +
``consolidate``) and gets plain :class:`kg.records.Entity` / :class:`kg.records.Citation`
records back.

Components (registered as spaCy factories through the ``spacy_factories`` entry point):

- ``paperkg_abbreviations``: Schwartz & Hearst abbreviation definitions (``doc._.abbreviations``).
- ``paperkg_entities``: methods and benchmarks with roles (``doc.spans["paperkg_entities"]``);
  ``paperkg_methods`` / ``paperkg_benchmarks`` are the same component restricted to one label.
- ``paperkg_concepts`` and ``paperkg_citations`` (other modules of this package).
"""

from __future__ import annotations

#: Version of the extraction output; it keys the build cache, so bump it whenever rules,
#: gazetteer or output format change.
EXTRACTOR_VERSION = "1.18.0"

#: Span labels.
METHOD = "METHOD"
BENCHMARK = "BENCHMARK"

__all__ = ["BENCHMARK", "EXTRACTOR_VERSION", "METHOD"]
