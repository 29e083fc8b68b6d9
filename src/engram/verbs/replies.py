"""How a memory goes out as JSON on every surface, and the JSON schemas of the replies.

`item_json` is the one place an `Item` or `Hit` becomes JSON (REST, MCP and the agent's tools all
call it); a new field shown to callers is added here and to `ITEM` below.
"""

from __future__ import annotations

from typing import Any

from engram.types import Hit, Item

# The fields a model needs (model-facing surfaces); REST gets every field.
BRIEF_FIELDS = ("id", "text", "kind", "source", "created_at", "event_at")


def item_json(found: Item | Hit, *, brief: bool = False) -> dict[str, Any]:
    """An Item (or a Hit, with its `score` and any `explain` components) as JSON-ready data."""
    if isinstance(found, Hit):
        out = item_json(found.item, brief=brief)
        out["score"] = round(found.score, 4 if brief else 6)
        if found.components and not brief:
            out["explain"] = {k: round(v, 6) for k, v in found.components.items()}
        if found.passage is not None:  # a message: the part that matched (a model sees only that)
            out["passage"], out["passage_id"] = found.passage, found.passage_id
            if brief:
                out["text"] = found.passage
        return out
    data = found.to_dict()
    return {k: data[k] for k in BRIEF_FIELDS} if brief else data


NULLABLE_STR = {"type": ["string", "null"]}
ITEM: dict[str, Any] = {"type": "object", "properties": {
    "id": {"type": "string"}, "subject": {"type": "string"}, "text": {"type": "string"}, "kind": {"type": "string"},
    "source": {"type": "string"}, "agent": {"type": "string"}, "key": NULLABLE_STR, "category": NULLABLE_STR,
    "session": NULLABLE_STR, "created_at": {"type": "string"}, "event_at": {"type": "string"},
    "valid_from": {"type": "string"}, "valid_to": NULLABLE_STR, "superseded_by": NULLABLE_STR,
    "confidence": {"type": "number"}, "importance": {"type": "number"}, "access_count": {"type": "integer"},
    "last_accessed": NULLABLE_STR, "content_hash": {"type": "string"}, "metadata": {"type": "object"}},
    "additionalProperties": False}
ITEM["required"] = list(ITEM["properties"])  # Item.to_dict writes every field
HIT: dict[str, Any] = {**ITEM, "required": [*ITEM["required"], "score"], "properties": {**ITEM["properties"],
    "score": {"type": "number"}, "explain": {"type": "object", "additionalProperties": {"type": "number"}},
    "passage": {"type": "string", "description": "A message's passage that matched (its text is the whole message)."},
    "passage_id": {"type": "string"}}}
SAVED = {"type": "object", "required": ["saved", "id", "reason"], "properties": {
    "saved": {"type": "boolean"}, "id": NULLABLE_STR, "reason": NULLABLE_STR,
    "superseded": {"type": "array", "items": {"type": "string"}},
    "redacted": {"type": "array", "items": {"type": "string"},
                 "description": "Kinds of secret replaced in place by [redacted: kind] (a message)."}},
    "additionalProperties": False}
KEY = {"type": "object", "required": ["id", "subjects", "admin"], "properties": {
    "id": {"type": "string"}, "name": {"type": "string"}, "subjects": {"type": "array", "items": {"type": "string"}},
    "admin": {"type": "boolean"}, "created_at": {"type": "number"},
    "ambiguous": {"type": "array", "items": {"type": "string"},
                  "description": "Old prefix grants that stop mid-name (team:acme*): replace this key."},
    "key": {"type": "string", "description": "The secret token: shown in this response only."}}}
ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["type", "message"],
    "properties": {"type": {"type": "string"}, "message": {"type": "string"}}}}}
SCHEMAS: dict[str, dict[str, Any]] = {"Item": ITEM, "Hit": HIT, "Saved": SAVED, "Key": KEY, "Error": ERROR}


def ref(name: str) -> dict[str, str]:
    """A JSON reference to one of SCHEMAS, as the OpenAPI document places them."""
    return {"$ref": f"#/components/schemas/{name}"}


def array_of(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": schema}


_COUNT = {"type": "integer"}
EXTRACTED: dict[str, Any] = {"type": "object", "additionalProperties": False, "required": [
    "batches", "failed", "messages", "pending", "saved", "refused", "facts", "rejected", "errors"], "properties": {
    "batches": _COUNT, "failed": _COUNT, "messages": {**_COUNT, "description": "Messages extracted (now marked)."},
    "pending": {**_COUNT, "description": "Messages still waiting (a failed batch, or past max_batches)."},
    "saved": _COUNT, "refused": {**_COUNT, "description": "Facts a screen or a length rule refused."},
    "facts": array_of({"type": "object", "required": ["text", "about", "messages", "saved", "id", "reason"],
                       "additionalProperties": False, "properties": {
        "text": {"type": "string"}, "about": NULLABLE_STR, "saved": {"type": "boolean"}, "id": NULLABLE_STR,
        "reason": NULLABLE_STR, "messages": array_of({"type": "string", "description": "A message's item id."})}}),
    "rejected": array_of({"type": "object", "required": ["proposed", "reason"], "properties": {
        "proposed": {"description": "What the model proposed."}, "reason": {"type": "string"}}}),
    "errors": array_of({"type": "string"})}}


def _brief(schema: dict[str, Any]) -> dict[str, Any]:
    """An item schema with only what `item_json(brief=True)` keeps: BRIEF_FIELDS (plus a hit's score
    and passage; never `explain`)."""
    keep = (*BRIEF_FIELDS, "score", "passage", "passage_id")
    return {**schema, "required": [n for n in schema["required"] if n in keep],
            "properties": {n: s for n, s in schema["properties"].items() if n in keep}}


BRIEF = {"Item": _brief(ITEM), "Hit": _brief(HIT)}


def inline(schema: Any, *, brief: bool = False) -> Any:
    """`schema` with every reference to SCHEMAS replaced by the schema itself (a fresh copy), the
    brief item shapes when `brief` (what model-facing surfaces get): a self-contained JSON schema."""
    import copy

    if isinstance(schema, list):
        return [inline(s, brief=brief) for s in schema]
    if not isinstance(schema, dict):
        return schema
    target = schema.get("$ref")
    if isinstance(target, str) and target.startswith("#/components/schemas/"):
        name = target.rsplit("/", 1)[1]
        return inline(copy.deepcopy((BRIEF if brief else {}).get(name, SCHEMAS[name])), brief=brief)
    return {k: inline(v, brief=brief) for k, v in schema.items()}
