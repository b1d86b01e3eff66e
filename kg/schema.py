"""The one vocabulary of node, edge and entity types shared by extractors, graph, RDF and exports.

Node keys in the graph are stable strings ``"<type>:<id>"`` built by the helpers below, so the
same paper, author or method gets the same key in every run.

Graph contract (``G.graph["schema_version"] == SCHEMA_VERSION``)
-----------------------------------------------------------------
Nodes carry ``type`` (a :class:`NodeType` value) and ``label`` (short display text) plus:

- ``paper``: ``record_id``, ``title`` (or None), ``abstract``, ``year``, ``venue``, ``doi``,
  ``authors`` (display names in order), ``authors_truncated``, ``category`` ("Area · Subarea"
  or None), ``n_entities``.
- ``author``: ``name`` (display), ``aliases`` (other spellings seen), ``n_papers``,
  ``truncated`` (True when some paper of theirs had a cut author list).
- ``method`` / ``benchmark`` / ``concept``: ``name`` (canonical), ``aliases``, ``n_papers``.
- ``category``: ``name``, ``level`` ("area" or "subarea"), ``area``.
- ``work``: an external cited work not in the corpus: ``work_id``.

Edges are keyed by their :class:`EdgeType` value (``G.edges[u, v, "cites"]``). Directed facts:
``authored`` (author -> paper, ``position`` 0-based), ``proposes``/``uses`` (paper -> method),
``introduces``/``evaluates_on`` (paper -> benchmark), ``about`` (paper -> concept),
``in_category`` (paper -> category), ``broader`` (subarea -> area), ``cites`` (paper -> paper or
work, ``source`` "references" or "in_text", ``confidence``). Every edge that came from text has
``evidence``: a list of mention dicts ``{"start", "end", "text", "rule", "field"}``.

Derived undirected relations are stored once, from the smaller key to the larger, with
``undirected=True``: ``coauthor`` (author–author, ``weight`` = joint papers, ``papers``) and
``shares`` (paper–paper or author–author, ``weight``, ``shared``: list of
``{"type", "name", "weight"}`` explaining the edge).
"""

from __future__ import annotations

import enum
import re
import unicodedata

SCHEMA_VERSION = "1"


class NodeType(str, enum.Enum):
    PAPER = "paper"
    AUTHOR = "author"
    METHOD = "method"
    BENCHMARK = "benchmark"
    CONCEPT = "concept"
    CATEGORY = "category"
    WORK = "work"

    def __str__(self) -> str:
        return self.value


class EntityType(str, enum.Enum):
    """What the extractors find in text (a subset of node types)."""

    METHOD = "method"
    BENCHMARK = "benchmark"
    CONCEPT = "concept"

    def __str__(self) -> str:
        return self.value


class Role(str, enum.Enum):
    PROPOSED = "proposed"
    USED = "used"

    def __str__(self) -> str:
        return self.value


class EdgeType(str, enum.Enum):
    AUTHORED = "authored"
    PROPOSES = "proposes"
    USES = "uses"
    INTRODUCES = "introduces"
    EVALUATES_ON = "evaluates_on"
    ABOUT = "about"
    IN_CATEGORY = "in_category"
    BROADER = "broader"
    CITES = "cites"
    COAUTHOR = "coauthor"
    SHARES = "shares"

    def __str__(self) -> str:
        return self.value


#: (entity type, role) -> the paper->entity edge type.
ROLE_EDGES: dict[tuple[EntityType, Role | None], EdgeType] = {
    (EntityType.METHOD, Role.PROPOSED): EdgeType.PROPOSES,
    (EntityType.METHOD, Role.USED): EdgeType.USES,
    (EntityType.BENCHMARK, Role.PROPOSED): EdgeType.INTRODUCES,
    (EntityType.BENCHMARK, Role.USED): EdgeType.EVALUATES_ON,
    (EntityType.CONCEPT, Role.PROPOSED): EdgeType.ABOUT,
    (EntityType.CONCEPT, Role.USED): EdgeType.ABOUT,
    (EntityType.CONCEPT, None): EdgeType.ABOUT,
}

_NON_SLUG = re.compile(r"[^0-9a-z]+")


def slugify(text: str) -> str:
    """Lower-case ASCII slug used inside node keys and IRIs.

    Accents are dropped and every run of other characters becomes one hyphen, so
    ``"Mixture-of-Experts"`` and ``"mixture of experts"`` give the same slug.

    Examples
    --------
    >>> slugify("Candès, Emmanuel J.")
    'candes-emmanuel-j'
    >>> slugify("CIFAR‑10")
    'cifar-10'
    """
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    slug = _NON_SLUG.sub("-", folded.lower()).strip("-")
    return slug or "x"


def node_key(node_type: NodeType | str, ident: str) -> str:
    """The graph key of a node: ``"paper:<record id>"``, ``"method:<slug>"``, ...

    Paper, author and work ids are used as they are (they are already normalised ids);
    entity and category names are slugified.
    """
    t = NodeType(node_type)
    if t in (NodeType.PAPER, NodeType.AUTHOR, NodeType.WORK):
        return f"{t.value}:{ident}"
    return f"{t.value}:{slugify(ident)}"


def category_key(area: str, subarea: str | None = None) -> str:
    """Key of an area node, or of a subarea node (which lives under its area)."""
    if subarea:
        return f"category:{slugify(area)}/{slugify(subarea)}"
    return f"category:{slugify(area)}"


def key_type(key: str) -> NodeType:
    """The node type encoded in a node key."""
    return NodeType(key.split(":", 1)[0])
