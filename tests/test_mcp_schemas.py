"""MCP schemas, checked with the SDK's own client: every tool publishes the exact JSON schema of its
reply, every real reply validates against it, and the input schema refuses what the server refuses."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client

from engram import validate
from engram.core.memory import Memory
from engram.interfaces.mcp import build_server, output_schema
from engram.interfaces.rest import openapi_document
from engram.verbs import get_verb, reply_schema, tool_definition, verb_specs
from engram.verbs.replies import inline

SUBJECT = "user:1"


def run(db: str, body):
    async def go():
        async with Client(build_server(lambda: Memory(db, embedder="hashing"), default_subject=SUBJECT)) as client:
            return await body(client)
    return anyio.run(go)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "mcp.db")


def listed(db: str) -> dict:
    return {t.name: t for t in run(db, lambda c: c.list_tools()).tools}


def test_every_tool_publishes_its_verbs_reply_schema(db):
    tools = listed(db)
    assert set(tools) == {v.name for v in verb_specs("mcp")}
    for verb in verb_specs("mcp"):
        schema = tools[verb.name].output_schema
        Draft202012Validator.check_schema(schema)
        assert schema == output_schema(verb), verb.name
        assert schema["type"] == "object" and schema["properties"], verb.name
    remember = tools["remember"].output_schema
    assert remember["required"] == ["saved", "id", "reason"] and remember["properties"]["saved"] == {"type": "boolean"}
    hit = tools["recall"].output_schema["properties"]["memories"]["items"]
    assert set(hit["required"]) == {"id", "text", "kind", "source", "created_at", "event_at", "score"}
    assert hit["additionalProperties"] is False and "explain" not in hit["properties"]  # the brief shape models get
    assert tools["list"].output_schema["required"] == ["memories"]


def test_the_reply_shape_is_defined_once_for_rest_and_mcp():
    doc = openapi_document("0")
    schemas = doc["components"]["schemas"]
    for verb in verb_specs("mcp"):
        route = verb.route
        op = doc["paths"][route.path][route.method.lower()]
        code = next(iter(route.reply))
        published = op["responses"][code]["content"]["application/json"]["schema"]
        assert inline(published) == reply_schema(verb, "rest"), verb.name
        assert all(ref.rsplit("/", 1)[1] in schemas for ref in _refs(published))


def _refs(schema) -> list[str]:
    if isinstance(schema, dict):
        return [schema["$ref"]] if "$ref" in schema else [r for v in schema.values() for r in _refs(v)]
    return [r for v in schema for r in _refs(v)] if isinstance(schema, list) else []


def test_every_real_reply_validates_against_the_published_schema(db):
    async def body(c):
        tools = {t.name: t for t in (await c.list_tools()).tools}
        calls = [
            ("remember", {"fact": "The team uses Postgres 16 for every service."}),
            ("remember", {"fact": "The team uses Postgres 16 for every service."}),  # duplicate: not saved
            ("remember", {"fact": "My password: hunter2hunter2 for the VPN"}),  # refused: a secret
            ("remember", {"fact": "Prefers short answers.", "kind": "preference"}),
            ("remember", {"fact": "The team uses Postgres 17 for every service now."}),  # may supersede
            ("add_messages", {"messages": [{"role": "user", "content": "We deploy on Fridays, token sk-ant-api03-"
                                                                     "Xy7Qw2Lp9Rt4Vb8NzzKq."},
                                           {"role": "assistant", "content": "Noted: Friday deploys."}]}),
            ("recall", {"query": "which database?", "k": 3}),
            ("recall", {"query": "deploy day", "k": 50}),  # capped: comes with a note
            ("list", {}),
            ("list", {"all": True, "limit": 1}),
            ("forget", {"match": "postgres"}),
            ("forget", {"match": "nothing like this"}),
            ("forget", {"match": "postgres", "confirm": True}),
        ]
        out = []
        for name, args in calls:
            result = await c.call_tool(name, args)  # the SDK client itself validates against outputSchema
            assert not result.is_error, (name, result.content[0].text)
            out.append((name, tools[name].output_schema, result.structured_content, json.loads(result.content[0].text)))
        return out

    results = run(db, body)
    seen_fields = set()
    for name, schema, structured, text in results:
        assert structured == text, name
        errors = list(Draft202012Validator(schema).iter_errors(structured))
        assert not errors, (name, structured, [e.message for e in errors])
        seen_fields.update(structured)
    assert {"note", "memories", "would_forget", "forgotten", "saved", "reason", "refused"} <= seen_fields
    notes = [s for n, _, s, _ in results if n == "recall" and "note" in s]
    assert notes and notes[0]["note"] == "k capped at 10"


@pytest.mark.parametrize("broken", [
    {"saved": True, "id": "x"},  # reason missing
    {"saved": "yes", "id": None, "reason": None},
    {"saved": True, "id": "x", "reason": None, "extra": 1},
])
def test_the_schema_is_not_unconstrained(db, broken):
    assert list(Draft202012Validator(listed(db)["remember"].output_schema).iter_errors(broken))


def test_forget_reply_is_a_preview_or_a_deletion(db):
    check = Draft202012Validator(listed(db)["forget"].output_schema)
    assert check.is_valid({"forgotten": 2})
    assert check.is_valid({"would_forget": 0, "memories": [], "next": "nothing matches"})
    assert not check.is_valid({"would_forget": 0, "memories": [], "next": "x", "forgotten": 0})
    assert not check.is_valid({})


def near(n: int) -> str:
    """A clean sentence of exactly n characters."""
    return ("Likes tea and cake " * 100)[:n - 1] + "."


@pytest.mark.parametrize(("kind", "length"), [
    ("fact", 1), ("fact", validate.MIN_FACT_CHARS - 1), ("fact", validate.MIN_FACT_CHARS),
    ("fact", validate.MAX_CHARS["fact"]), ("fact", validate.MAX_CHARS["fact"] + 1),
    (None, validate.MIN_FACT_CHARS - 1), (None, validate.MIN_FACT_CHARS),
    ("preference", 5), ("preference", validate.MAX_CHARS["preference"] + 1),
    ("procedure", validate.MAX_CHARS["procedure"]), ("procedure", validate.MAX_CHARS["procedure"] + 1),
])
def test_the_input_schema_refuses_what_the_server_refuses(db, kind, length):
    text = near(length)
    assert len(text) == length and validate.clean_text(text) == text
    args = {"fact": text, **({"kind": kind} if kind else {})}

    async def body(c):
        tools = {t.name: t for t in (await c.list_tools()).tools}
        return tools["remember"].input_schema, await c.call_tool("remember", args)

    schema, result = run(db, body)
    schema_ok = Draft202012Validator(schema).is_valid(args)
    server_ok = not result.is_error and not (result.structured_content["reason"] or "").startswith("too ")
    assert schema_ok == server_ok, (kind, length, result.content[0].text)
    with Memory(str(Path(db).with_name("direct.db")), embedder="hashing") as mem:  # Memory's own rule agrees
        saved = mem.remember(SUBJECT, text, kind=kind or "fact")
        assert (saved.reason or "").startswith("too ") != schema_ok, saved
    if not schema_ok:
        assert result.is_error and ("too short" in result.content[0].text or "at most" in result.content[0].text)


def test_the_agents_tool_and_rest_publish_the_same_fact_limits():
    tool = tool_definition("remember", "anthropic")["input_schema"]["properties"]["fact"]
    assert (tool["minLength"], tool["maxLength"]) == (validate.MIN_FACT_CHARS, validate.MAX_CHARS["fact"])
    rest = get_verb("remember").schema("rest")
    mcp = get_verb("remember").schema("mcp")
    assert rest["allOf"] == mcp["allOf"]
    assert Draft202012Validator(rest).is_valid({"subject": SUBJECT, "fact": "ok", "kind": "preference"})
    assert not Draft202012Validator(rest).is_valid({"subject": SUBJECT, "fact": "ok"})
    with pytest.raises(Exception, match="too short: 'fact' needs at least 10"):
        get_verb("remember").arguments("rest", {"subject": SUBJECT, "fact": "ok"})
