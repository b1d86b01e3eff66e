"""paperkg: turn piles of scientific paper records into a knowledge graph.

The data flows one way: readers -> records -> extractors -> graph -> exports / queries / CLI.
Heavy packages (spaCy, pyvis, rdflib) are imported lazily by the modules that need them.
"""

from __future__ import annotations

__version__ = "0.1.0"

#: Bumped whenever a change to readers, extractors or graph construction changes output.
#: It keys the build cache, so a new version never reuses stale results.
PIPELINE_VERSION = "0.1.0"

__all__ = ["__version__", "PIPELINE_VERSION"]
