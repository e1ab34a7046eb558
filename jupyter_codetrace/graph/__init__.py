"""The code graph (a compact MultiDiGraph, graph/compact.py: ``build.CodeGraph``) and the
traversals graph queries use. Nothing is imported here: a process that answers only
definitions (a restart, the CLI) never loads the graph's modules."""
