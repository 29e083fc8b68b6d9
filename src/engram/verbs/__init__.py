"""Engram's verbs, defined once for every surface: the agent's tools (Anthropic, OpenAI Chat
Completions and Responses shapes), the MCP server and the REST API with its OpenAPI document.

    from engram.verbs import verb_specs, json_schema, tool_definition
    [v.name for v in verb_specs("tool")]          # ['remember', 'recall', 'forget']
    json_schema("recall", "mcp")                  # the arguments' JSON schema as MCP publishes it
    tool_definition("recall", "openai")           # {"type": "function", "function": {...}}

A `Verb` carries its name, description, arguments (JSON-schema types, limits, defaults, aliases),
the narrowings a surface applies (each with its reason) and the handler that calls `Memory`.
`Verb.arguments(surface, raw)` renames aliases and validates with `jsonschema`.
"""

from __future__ import annotations

import copy
from typing import Any

from engram.errors import InvalidInput
from engram.verbs.replies import BRIEF_FIELDS, SCHEMAS, inline, item_json
from engram.verbs.spec import (
    LENIENT,
    NO_DEFAULT,
    SURFACES,
    Arg,
    Call,
    Narrowing,
    Route,
    Surface,
    Verb,
)
from engram.verbs.table import VERBS

SHAPES = ("anthropic", "openai", "responses")

__all__ = ["BRIEF_FIELDS", "LENIENT", "NO_DEFAULT", "SCHEMAS", "SHAPES", "SURFACES", "VERBS", "Arg", "Call",
           "Narrowing", "Route", "Surface", "Verb", "get_verb", "item_json", "json_schema", "reply_schema", "shaped",
           "tool_definition", "verb_specs"]


def verb_specs(surface: Surface | None = None) -> list[Verb]:
    """Every verb (or those `surface` offers), in definition order."""
    if surface is not None and surface not in SURFACES:
        raise InvalidInput(f"surface must be one of {', '.join(SURFACES)}, not {surface!r}")
    return [v for v in VERBS.values() if surface is None or surface in v.surfaces]


def get_verb(name: str) -> Verb:
    """The verb called `name`; InvalidInput listing the verbs otherwise."""
    if name not in VERBS:
        raise InvalidInput(f"there is no verb {name!r}; verbs: {', '.join(VERBS)}")
    return VERBS[name]


def json_schema(verb: str | Verb, surface: Surface) -> dict[str, Any]:
    """The JSON schema of a verb's arguments as `surface` publishes it (a fresh copy)."""
    return (get_verb(verb) if isinstance(verb, str) else verb).schema(surface)


def shaped(name: str, description: str, parameters: dict[str, Any], shape: str) -> dict[str, Any]:
    """A tool definition in one API's shape: "anthropic" (Messages, also MCP's), "openai" (Chat
    Completions) or "responses" (OpenAI Responses)."""
    params = copy.deepcopy(parameters)
    if shape == "anthropic":
        return {"name": name, "description": description, "input_schema": params}
    if shape == "openai":
        return {"type": "function", "function": {"name": name, "description": description, "parameters": params}}
    if shape == "responses":
        return {"type": "function", "name": name, "description": description, "parameters": params}
    raise InvalidInput(f"tool shape must be one of {', '.join(SHAPES)}, not {shape!r}")


def tool_definition(verb: str | Verb, shape: str = "anthropic", surface: Surface = "tool") -> dict[str, Any]:
    """A verb as a model's tool definition in `shape`, with the arguments `surface` exposes."""
    found = get_verb(verb) if isinstance(verb, str) else verb
    return shaped(found.name, found.description, found.schema(surface), shape)


def reply_schema(verb: str | Verb, surface: Surface) -> dict[str, Any]:
    """The self-contained JSON schema of what a verb's handler returns on `surface` (the one its
    REST route documents; items in the brief shape on model-facing surfaces)."""
    found = get_verb(verb) if isinstance(verb, str) else verb
    found.schema(surface)  # refuses a surface the verb is not on
    if found.route is None:
        raise InvalidInput(f"{found.name} has no reply schema")
    shapes = list(found.route.reply.values())
    assert all(s == shapes[0] for s in shapes), f"{found.name}: one reply shape for every status"
    result: dict[str, Any] = inline(shapes[0], brief=surface in LENIENT)
    return result
