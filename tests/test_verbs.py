"""One definition per verb: the agent's tools, the MCP server and the REST API (with its OpenAPI
document) expose the same arguments, aliases and limits for every verb they share, and differ only
where `engram.verbs` declares a narrowing, with its reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from starlette.testclient import TestClient

from engram import __version__
from engram.agent.tools import MemoryTools, tools_for
from engram.core.memory import Memory
from engram.errors import InvalidInput
from engram.interfaces.mcp import build_server
from engram.interfaces.rest import create_app, openapi_document
from engram.safety.keys import KeyRing
from engram.store import open_store
from engram.verbs import (
    BRIEF_FIELDS,
    NO_DEFAULT,
    SURFACES,
    VERBS,
    Arg,
    Surface,
    Verb,
    get_verb,
    json_schema,
    tool_definition,
    verb_specs,
)

FACT = "The team uses Postgres 16 for every service."
LIMITS = ("maximum", "maxLength", "maxItems")
LOWER_LIMITS = ("minimum", "minLength")


# -- what each surface actually publishes -----------------------------------------------------
def mcp_schemas(tmp_path: Path) -> dict[str, dict[str, Any]]:
    server = build_server(lambda: Memory(str(tmp_path / "mcp.db"), embedder="hashing"))

    async def go() -> dict[str, dict[str, Any]]:
        async with Client(server) as client:
            return {t.name: t.input_schema for t in (await client.list_tools()).tools}
    return anyio.run(go)


def rest_schema(verb: Verb) -> dict[str, Any]:
    """A verb's REST arguments as the OpenAPI document states them (body and parameters together)."""
    assert verb.route is not None
    op = openapi_document(__version__)["paths"][verb.route.path][verb.route.method.lower()]
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    props = dict(body.get("properties", {}))
    required = list(body.get("required", []))
    for param in op["parameters"]:
        props[param["name"]] = param["schema"]
        if param["required"] and param["in"] != "path":
            required.append(param["name"])
        if param["in"] == "path":
            required.append(param["name"])
    return {"properties": props, "required": required}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[Surface, dict[str, dict[str, Any]]]:
    """surface -> verb -> {"properties", "required"} as a client of that surface sees them."""
    tool = {t["name"]: t["input_schema"] for t in tools_for()}
    mcp = mcp_schemas(tmp_path_factory.mktemp("mcp"))
    rest = {v.name: rest_schema(v) for v in verb_specs("rest")}
    return {"tool": tool, "mcp": mcp, "rest": rest}


def base(arg: Arg) -> dict[str, Any]:
    """The argument as defined, before any surface narrows it."""
    out = {**arg.schema, "description": arg.description}
    if arg.default is not NO_DEFAULT and arg.default is not None:
        out["default"] = arg.default
    return out


SHARED = [v for v in VERBS.values() if len(v.surfaces) > 1]


def test_the_shared_verbs_are_the_memory_verbs():
    assert [v.name for v in SHARED] == ["remember", "recall", "forget", "add_messages", "list"]
    assert {v.name for v in verb_specs("rest")} >= {"keys", "me", "subjects", "create_key", "revoke_key"}


@pytest.mark.parametrize("verb", SHARED, ids=lambda v: v.name)
def test_surfaces_publish_the_definition_and_differ_only_where_it_says(published, verb):
    for surface in sorted(verb.surfaces):
        seen = published[surface][verb.name]
        exposed = {a.name for a in verb.args if a.on(surface)}
        assert set(seen["properties"]) == exposed, (surface, verb.name)
        assert set(seen["required"]) == {a.name for a in verb.args if a.on(surface) and a.required_on(surface)}
        for arg in verb.args:
            if not arg.on(surface):
                narrow = arg.narrowing(surface)
                assert narrow and narrow.absent and len(narrow.reason) > 20, (surface, arg.name)
                continue
            got = {k: v for k, v in seen["properties"][arg.name].items() if k != "x-aliases"}
            want = base(arg)
            differs = {k for k in set(got) | set(want) if got.get(k) != want.get(k)}
            narrow = arg.narrowing(surface)
            declared = set(narrow.schema) | ({"default"} if narrow.default is not NO_DEFAULT else set()) \
                if narrow else set()
            assert differs == declared, (surface, verb.name, arg.name, differs, declared)
            if narrow:
                assert len(narrow.reason) > 20, (surface, arg.name)
                for limit in LIMITS:  # a narrowing only tightens
                    if limit in narrow.schema:
                        assert narrow.schema[limit] < arg.schema[limit], (surface, arg.name, limit)
                for limit in LOWER_LIMITS:
                    if limit in narrow.schema:
                        assert narrow.schema[limit] > arg.schema.get(limit, 0), (surface, arg.name, limit)


def test_every_narrowing_names_surfaces_and_a_reason():
    for verb in VERBS.values():
        for arg in verb.args:
            for narrow in arg.narrowed:
                assert narrow.surfaces and narrow.surfaces <= set(SURFACES), (verb.name, arg.name)
                assert len(narrow.reason.split()) >= 5, (verb.name, arg.name)


def test_same_limits_where_nothing_is_declared(published):
    """Pairwise: two surfaces that both expose an argument and narrow it in neither show the same schema."""
    for verb in SHARED:
        for arg in verb.args:
            plain = [s for s in sorted(verb.surfaces) if arg.on(s) and not arg.narrowing(s)]
            shown = [{k: v for k, v in published[s][verb.name]["properties"][arg.name].items() if k != "x-aliases"}
                     for s in plain]
            assert all(x == shown[0] for x in shown), (verb.name, arg.name, plain)


def test_openapi_lists_every_alias(published):
    for verb in verb_specs("rest"):
        for arg in verb.args_on("rest"):
            prop = published["rest"][verb.name]["properties"][arg.name]
            assert prop.get("x-aliases", []) == list(arg.aliases), (verb.name, arg.name)


# -- aliases and limits, by calling each surface ----------------------------------------------
@pytest.fixture
def surfaces(tmp_path: Path):
    """A tool bound to user:1, an MCP session and a REST client with a user:1 key, on one store."""
    db = str(tmp_path / "verbs.db")
    store = open_store(db)
    token = KeyRing(store).create(["user:1"])[0]
    store.close()
    with TestClient(create_app(lambda: Memory(db, embedder="hashing"))) as rest:
        tools = MemoryTools(rest.app.state.memory, "user:1")
        yield tools, build_server(lambda: Memory(db, embedder="hashing"), default_subject="user:1"), rest, token


def mcp_calls(server, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def go() -> list[Any]:
        async with Client(server) as client:
            out = []
            for name, args in calls:
                result = await client.call_tool(name, args)
                text = result.content[0].text
                out.append({"error": text} if result.is_error else json.loads(text))
            return out
    return anyio.run(go)


@pytest.mark.parametrize("arg_name", ["fact"])
def test_every_remember_alias_works_on_every_surface(surfaces, arg_name):
    tools, server, rest, token = surfaces
    aliases = get_verb("remember").arg(arg_name).aliases
    assert len(aliases) >= 4
    for i, alias in enumerate(aliases):
        text = f"Alias {alias} fact number {i} via the tool."
        assert tools.handle("remember", {alias: text}) == "saved", alias
        got = mcp_calls(server, [("remember", {alias: text.replace("tool", "MCP server")})])[0]
        assert got["saved"] is True, (alias, got)
        r = rest.post("/v1/memories", headers={"Authorization": f"Bearer {token}"},
                      json={"subject": "user:1", alias: text.replace("tool", "REST API")})
        assert r.status_code == 201, (alias, r.text)
    assert len(rest.app.state.memory.items("user:1")) == 3 * len(aliases)


def test_every_recall_alias_and_the_k_limit_on_every_surface(surfaces):
    tools, server, rest, token = surfaces
    h = {"Authorization": f"Bearer {token}"}
    for i in range(12):
        rest.app.state.memory.remember("user:1", f"Postgres fact number {i} for the team.")
    verb = get_verb("recall")
    for q in (verb.arg("query").name, *verb.arg("query").aliases):
        for k in (verb.arg("k").name, *verb.arg("k").aliases):
            assert tools.handle("recall", {q: "postgres", k: 2}).startswith("2 memories"), (q, k)
            [got] = mcp_calls(server, [("recall", {q: "postgres", k: 2})])
            assert len(got["memories"]) == 2, (q, k, got)
            r = rest.post("/v1/recall", headers=h, json={"subject": "user:1", q: "postgres", k: 2})
            assert r.status_code == 200 and len(r.json()) == 2, (q, k, r.text)
    # The models' k is narrowed to 10 (capped, with a note); REST keeps the definition's 100.
    assert "(k capped at 10)" in tools.handle("recall", {"query": "postgres", "k": 50})
    [capped] = mcp_calls(server, [("recall", {"query": "postgres", "k": 50})])
    assert len(capped["memories"]) == 10 and capped["note"] == "k capped at 10"
    assert len(rest.post("/v1/recall", headers=h, json={"subject": "user:1", "query": "postgres", "k": 50}).json()) == 12
    too_many = rest.post("/v1/recall", headers=h, json={"subject": "user:1", "query": "postgres", "k": 101})
    assert too_many.status_code == 400 and "'k' must be between 1 and 100" in too_many.json()["error"]["message"]


def test_forget_preview_and_errors_agree_across_surfaces(surfaces):
    tools, server, rest, token = surfaces
    h = {"Authorization": f"Bearer {token}"}
    rest.app.state.memory.remember("user:1", FACT)
    [preview, broad] = mcp_calls(server, [("forget", {"contains": "postgres"}), ("forget", {"match": "e"})])
    r = rest.post("/v1/forget", headers=h, json={"subject": "user:1", "contains": "postgres"}).json()
    assert preview["would_forget"] == r["would_forget"] == 1 and "1 memory would be deleted" in \
        tools.handle("forget", {"contains": "postgres"})
    # One handler: the same refusal, word for word, on every surface.
    message = "match 'e' is too broad; give a word or phrase of at least 3 characters"
    assert message in broad["error"]
    assert tools.handle("forget", {"match": "e"}) == f"error: {message}"
    assert rest.post("/v1/forget", headers=h, json={"subject": "user:1", "match": "e"}).json()["error"]["message"] \
        == message


def test_items_are_serialised_by_one_function(surfaces):
    _, server, rest, token = surfaces
    saved = rest.app.state.memory.remember("user:1", FACT, source="chat 1")
    [listed] = mcp_calls(server, [("list", {})])
    r = rest.get("/v1/memories", params={"subject": "user:1"}, headers={"Authorization": f"Bearer {token}"}).json()
    assert set(listed["memories"][0]) == set(BRIEF_FIELDS)
    assert {k: r[0][k] for k in BRIEF_FIELDS} == listed["memories"][0]
    assert r[0]["id"] == saved.id and r[0]["source"] == "chat 1"


# -- the definitions from outside ------------------------------------------------------------
def test_public_listing_and_schemas_per_surface():
    assert [v.name for v in verb_specs("tool")] == ["remember", "recall", "forget"]
    assert [v.name for v in verb_specs("mcp")] == ["remember", "recall", "forget", "add_messages", "list"]
    assert json_schema("recall", "tool")["properties"]["k"]["maximum"] == 10
    assert json_schema("recall", "rest")["properties"]["k"]["maximum"] == 100
    assert json_schema("recall", "rest")["additionalProperties"] is False
    assert "subject" not in json_schema("remember", "tool")["properties"]
    assert json_schema("remember", "mcp")["required"] == ["fact"]
    assert tool_definition("recall", "openai")["function"]["parameters"] == json_schema("recall", "tool")
    assert tool_definition("list", "responses", surface="mcp")["parameters"] == json_schema("list", "mcp")
    schema = json_schema("recall", "tool")
    schema["properties"]["k"]["maximum"] = 99  # a copy: callers cannot change the definition
    assert json_schema("recall", "tool")["properties"]["k"]["maximum"] == 10
    with pytest.raises(InvalidInput, match="no verb 'fly'"):
        get_verb("fly")
    with pytest.raises(InvalidInput, match="not offered on tool"):
        json_schema("list", "tool")
    with pytest.raises(InvalidInput, match="surface must be one of"):
        verb_specs("grpc")  # type: ignore[arg-type]  # a wrong surface on purpose


@pytest.mark.parametrize(("surface", "raw", "words"), [
    ("rest", {"subject": "user:1", "query": "x", "k": "5"}, "'k' must be a whole number, not '5'"),
    ("mcp", {"query": "x", "k": "5"}, None),
    ("rest", {"subject": "user:1", "query": "x", "q": "y"}, "'query' is given twice (as query and q)"),
    ("rest", {"subject": "user:1", "query": "x", "explain": "yes"}, "'explain' must be true or false, not 'yes'"),
    ("rest", {"subject": "user:1", "query": "x", "kinds": ["fact", "BAD"]}, "'kinds[1]' must be"),
    ("rest", {"subject": "user:1", "query": "a\x07b"}, "'query' must be text without control characters"),
    ("mcp", {"query": "x", "explain": True}, None),  # not offered to models: ignored, not an error
])
def test_strict_for_programs_lenient_for_models(surface, raw, words):
    verb = get_verb("recall")
    if words is None:
        args = verb.arguments(surface, raw)
        assert args["k"] == 5 and "explain" not in args
    else:
        with pytest.raises(InvalidInput) as caught:
            verb.arguments(surface, raw)
        assert words in str(caught.value)
