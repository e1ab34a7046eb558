"""The parameters of each ``Project`` query, read from the method's signature.

The signature is the one declaration: its names, its annotations (the JSON type) and its
defaults (a parameter without one is required). The surfaces take their parameter lists from
here (REST routes, the OpenAPI document) or are checked against it (MCP tools, CLI commands:
``tests/test_parameter_lists.py``), so a parameter added to a query cannot be forgotten by one.

Surfaces import this module; it imports only ``project`` (the stage before them).

>>> [(p.name, p.type, p.required) for p in parameters("symbols")]      # doctest: +SKIP
[('query', 'string', True), ('limit', 'integer', False)]
"""

from __future__ import annotations

import inspect
import types
import typing
from functools import lru_cache

from .dataclass_code import dataclass
from .project import Project

__all__ = ["Parameter", "QUERIES", "PAIRS", "parameters", "call"]

# The Project methods that are queries of the surfaces (REST, MCP, CLI).
QUERIES = ("find_definition", "find_references", "trace", "dependencies_of", "dependents_of", "paths_between",
           "symbols", "call_graph", "library_source")

# A parameter that is a ``(file, symbol)`` pair is given as two flat arguments, named here.
PAIRS = {
    "paths_between": {"source": ("from_file", "from_symbol"), "target": ("to_file", "to_symbol")},
}

_JSON_TYPES = {str: "string", int: "integer", bool: "boolean", float: "number"}


@dataclass(frozen=True)
class Parameter:
    """One flat argument of a query, as REST and OpenAPI name it."""

    name: str
    type: str                       # JSON type: string, integer, boolean, number
    required: bool
    default: object = None          # when not required
    argument: str = ""              # the Project parameter it fills (``source`` for ``from_file``)


def _json_type(annotation, where: str) -> str:
    """The JSON type of an annotation; ``X | None`` is ``X`` (None means "not given")."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(kinds) == 1:
            annotation = kinds[0]
    if annotation in _JSON_TYPES:
        return _JSON_TYPES[annotation]
    raise TypeError(f"{where}: no JSON type for the annotation {annotation!r} (add it to parameters.py)")


@lru_cache(maxsize=None)
def _signature(query: str) -> inspect.Signature:
    if query not in QUERIES:
        raise KeyError(f"{query!r} is not a Project query ({', '.join(QUERIES)})")
    signature = inspect.signature(getattr(Project, query), eval_str=True)
    return signature.replace(parameters=list(signature.parameters.values())[1:])   # without self


@lru_cache(maxsize=None)
def parameters(query: str) -> tuple[Parameter, ...]:
    """The flat arguments of ``Project.<query>``, in the signature's order."""
    flat = []
    for name, parameter in _signature(query).parameters.items():
        required = parameter.default is inspect.Parameter.empty
        default = None if required else parameter.default
        where = f"Project.{query}({name})"
        pair = PAIRS.get(query, {}).get(name)
        if pair is None:
            flat.append(Parameter(name, _json_type(parameter.annotation, where), required, default, name))
            continue
        members = typing.get_args(parameter.annotation)
        if typing.get_origin(parameter.annotation) is not tuple or len(members) != len(pair):
            raise TypeError(f"{where}: PAIRS names {len(pair)} members, the annotation is {parameter.annotation!r}")
        flat += [Parameter(member, _json_type(kind, where), required, None, name) for member, kind in zip(pair, members)]
    return tuple(flat)


def call(project: Project, query: str, arguments: dict):
    """``project.<query>`` called with flat ``arguments`` (by their ``Parameter`` names). A missing
    optional argument takes its default; a missing required one is passed as None, so that the
    query says which one is missing (``InvalidRequest`` naming the field)."""
    values = {}
    for name, parameter in _signature(query).parameters.items():
        pair = PAIRS.get(query, {}).get(name)
        if pair is not None:
            values[name] = tuple(arguments.get(member) for member in pair)
        else:
            default = None if parameter.default is inspect.Parameter.empty else parameter.default
            values[name] = arguments.get(name, default)
    return getattr(project, query)(**values)
