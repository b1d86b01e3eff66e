"""What a read-only SPARQL service may run: queries yes; updates and ``SERVICE`` calls no.

The check parses the text with rdflib's SPARQL grammar and walks the parse tree, so a
``SERVICE`` inside a string literal or a comment is not mistaken for one, and one written in
lower case or behind a prefixed IRI is still found.
"""

from __future__ import annotations

from typing import Any

from kg.errors import QueryError


class UpdateRefusedError(QueryError):
    """The text is a SPARQL Update (INSERT, DELETE, LOAD, CLEAR, ...): the service is read-only."""


class ServiceRefusedError(QueryError):
    """The query calls out to another endpoint with ``SERVICE``, which paperkg never does."""


def _walk(node: Any, depth: int = 0) -> bool:
    """True when the parse tree holds a ServiceGraphPattern."""
    from rdflib.plugins.sparql.parserutils import CompValue

    if depth > 200:  # deeper than any real query; stop rather than recurse forever
        return False
    if isinstance(node, CompValue):
        if node.name == "ServiceGraphPattern":
            return True
        return any(_walk(v, depth + 1) for v in node.values())
    if isinstance(node, (list, tuple)):
        return any(_walk(v, depth + 1) for v in node)
    if hasattr(node, "asList") and not isinstance(node, str):  # pyparsing ParseResults
        return any(_walk(v, depth + 1) for v in node)
    return False


def _message(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def check_query(sparql: str) -> str:
    """Return the kind of a read-only query (``"select"``, ``"ask"``, ``"construct"``, ``"describe"``).

    Raises
    ------
    UpdateRefusedError
        For SPARQL Update text.
    ServiceRefusedError
        For a query with a ``SERVICE`` clause.
    QueryError
        For text that is neither a query nor an update, with the parser's message.

    Examples
    --------
    >>> check_query("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    'select'
    >>> check_query('ASK { ?s ?p "SERVICE <http://x> {}" }')
    'ask'
    >>> check_query("select * { service <http://evil.example/sparql> { ?s ?p ?o } }")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    kg.sparql_safety.ServiceRefusedError: SERVICE (federated query) is not allowed here: paperkg only answers from its own store
    """
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    if not sparql or not sparql.strip():
        raise QueryError("empty query")
    try:
        tree = parseQuery(sparql)
    except ParseException as exc:
        try:
            parseUpdate(sparql)
        except ParseException:
            raise QueryError(f"malformed SPARQL query: {_message(exc)}") from None
        raise UpdateRefusedError("SPARQL Update is not allowed: this service is read-only") from None
    except Exception as exc:  # rdflib raises a few non-pyparsing errors (e.g. unknown prefix)
        raise QueryError(f"malformed SPARQL query: {_message(exc)}") from None
    if _walk(tree):
        raise ServiceRefusedError("SERVICE (federated query) is not allowed here: "
                                  "paperkg only answers from its own store")
    name = tree[1].name if len(tree) > 1 else ""
    return {"SelectQuery": "select", "AskQuery": "ask", "ConstructQuery": "construct",
            "DescribeQuery": "describe"}.get(name, "select")
