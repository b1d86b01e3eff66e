"""Exports: a graph turned into files (HTML views, RDF, GraphML/GEXF/JSON, Neo4j CSV, VOSviewer JSON).

One module per format family; each pairs a pure ``to_<fmt>`` with ``write_<fmt>``.
"""
