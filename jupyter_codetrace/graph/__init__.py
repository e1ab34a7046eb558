"""The code graph (a compact MultiDiGraph, graph/compact.py) and the traversals graph queries use."""

from .build import CALLABLE_KINDS, EDGE_KINDS, NODE_KINDS, CodeGraph

__all__ = ["CodeGraph", "NODE_KINDS", "EDGE_KINDS", "CALLABLE_KINDS"]
