"""Memory tools: one definition in three API shapes; handlers that answer the model, never raise."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram.agent.tools import FORGET, RECALL, REMEMBER, MemoryTools, specs, tools_for
from engram.errors import InvalidInput

SUBJECT = "user:42"


@pytest.fixture
def tools(sqlite_memory):
    return MemoryTools(sqlite_memory, SUBJECT, source="chat:s1:1", metadata={"turns": ["s1:1"]})


# -- schemas -------------------------------------------------------------------------------------
def test_three_shapes_share_one_definition():
    for spec in (REMEMBER, RECALL, FORGET):
        anthropic, chat, responses = spec.anthropic(), spec.openai(), spec.responses()
        assert anthropic == {"name": spec.name, "description": spec.description, "input_schema": spec.parameters}
        assert chat == {"type": "function", "function": {"name": spec.name, "description": spec.description,
                                                          "parameters": spec.parameters}}
        assert responses == {"type": "function", "name": spec.name, "description": spec.description,
                             "parameters": spec.parameters}
        assert anthropic["input_schema"]["type"] == "object"
        assert set(anthropic["input_schema"]["required"]) <= set(anthropic["input_schema"]["properties"])


def test_shapes_are_copies_not_shared_state():
    schema = REMEMBER.anthropic()["input_schema"]
    schema["properties"]["fact"]["description"] = "changed"
    assert REMEMBER.anthropic()["input_schema"]["properties"]["fact"]["description"] != "changed"


def test_remember_description_is_written_for_the_model():
    text = REMEMBER.description
    for phrase in ("ONE durable fact", "Never save secrets", "one-off", "whole messages", "tool result", "web page"):
        assert phrase in text


def test_untrusted_input_gets_read_only_recall():
    assert [t["name"] for t in tools_for()] == ["remember", "recall", "forget"]
    assert [t["name"] for t in tools_for(untrusted_input=True)] == ["recall"]
    assert [t["function"]["name"] for t in tools_for(untrusted_input=True, shape="openai")] == ["recall"]
    with pytest.raises(InvalidInput, match="shape"):
        tools_for(shape="gemini")
    with pytest.raises(InvalidInput, match="unknown memory tool"):
        specs(["remember", "delete_everything"])


def test_read_only_tools_refuse_writes(sqlite_memory):
    ro = MemoryTools(sqlite_memory, SUBJECT, untrusted_input=True)
    assert [t["name"] for t in ro.definitions("responses")] == ["recall"]
    assert "read-only" in ro.handle("remember", {"fact": "Team uses Postgres 16 for all services."})
    assert "read-only" in ro.handle("forget", {"match": "postgres", "confirm": True})
    assert sqlite_memory.items(SUBJECT) == []


# -- remember --------------------------------------------------------------------------------------
def test_remember_saves_with_provenance(tools, sqlite_memory):
    assert tools.handle("remember", {"fact": "Team uses Postgres 16 for all services."}) == "saved"
    [item] = sqlite_memory.items(SUBJECT)
    assert item.source == "chat:s1:1" and item.metadata["turns"] == ["s1:1"]


def test_remember_reasons_the_model_can_act_on(tools):
    assert tools.handle("remember", {"fact": "My key is sk-ant-api03-Xy7Qw2Lp9Rt4Vb8NzzKq"}).startswith(
        "not saved: looks like a secret")
    assert tools.handle("remember", {"fact": "Deploys to AWS Lambda."}) == "saved"
    assert tools.handle("remember", {"fact": "Deploys to AWS Lambda."}) == "not saved: duplicate (already remembered)"
    assert tools.handle("remember", {"fact": "ok"}).startswith("not saved: too short")
    assert "at most 300" in tools.handle("remember", {"fact": "word " * 2000})


@pytest.mark.parametrize("alias", ["text", "content", "memory", "note"])
def test_remember_accepts_the_names_models_guess(tools, sqlite_memory, alias):
    assert tools.handle("remember", {alias: f"Prefers {alias} in the examples."}) == "saved"
    assert sqlite_memory.items(SUBJECT)[0].text == f"Prefers {alias} in the examples."


@pytest.mark.parametrize("arguments, expected", [
    ({}, "missing 'fact'"),
    ({"fact": 42}, "'fact' must be a string, not integer"),
    ({"fact": ["a", "b"]}, "must be a string, not array"),
    ({"fact": "   "}, "'fact' is empty"),
])
def test_remember_malformed_arguments(tools, arguments, expected):
    result = tools.handle("remember", arguments)
    assert result.startswith("not saved:") and expected in result


def test_arguments_that_are_not_an_object(tools):
    assert tools.handle("remember", "Team uses Postgres").startswith("error: remember arguments must be a JSON object")
    assert tools.handle("recall", None).startswith("error:")
    assert tools.handle("fly", {}).startswith("error: there is no tool 'fly'")


# -- recall ----------------------------------------------------------------------------------------
def test_recall_returns_an_escaped_block(tools, sqlite_memory):
    sqlite_memory.remember(SUBJECT, "Team uses Postgres 16 for all services.")
    sqlite_memory.remember(SUBJECT, "Likes <b>bold</b> text </memory> a lot.")
    result = tools.handle("recall", {"query": "postgres services"})
    assert result.startswith("2 memories, best first:")
    assert "- Team uses Postgres 16 for all services." in result.splitlines()[2]
    assert result.count("</memory>") == 1 and "&lt;/memory&gt;" in result


@pytest.mark.parametrize("arguments", [{"q": "postgres"}, {"question": "postgres", "top_k": 1},
                                       {"query": "postgres", "limit": "1"}, {"search": "postgres", "k": 1.0}])
def test_recall_aliases_and_coercion(tools, sqlite_memory, arguments):
    sqlite_memory.remember(SUBJECT, "Team uses Postgres 16 for all services.")
    sqlite_memory.remember(SUBJECT, "Deploys to AWS Lambda with Python 3.12.")
    result = tools.handle("recall", arguments)
    assert "Postgres 16" in result.splitlines()[2]
    if "k" in arguments or "top_k" in arguments or "limit" in arguments:
        assert result.startswith("1 memory")


def test_recall_bad_k_and_caps(tools, sqlite_memory):
    sqlite_memory.remember(SUBJECT, "Team uses Postgres 16 for all services.")
    assert tools.handle("recall", {"query": "postgres", "k": "many"}) == "error: 'k' must be a whole number, not 'many'"
    assert tools.handle("recall", {"query": "postgres", "k": 0}) == "error: 'k' must be between 1 and 10, not 0"
    assert "(k capped at 10)" in tools.handle("recall", {"query": "postgres", "k": 500})
    assert tools.handle("recall", {"query": "x" * 5000}).startswith("error: 'query' is 5000 characters")
    assert tools.handle("recall", {}).startswith("error: missing 'query'")


def test_recall_with_nothing_saved(tools):
    assert tools.handle("recall", {"query": "anything"}) == "no memories found for that query"


# -- forget ----------------------------------------------------------------------------------------
def test_forget_previews_then_deletes_on_confirm(tools, sqlite_memory):
    sqlite_memory.remember(SUBJECT, "Team uses Postgres 16 for all services.")
    sqlite_memory.remember(SUBJECT, "Migrated billing off Postgres in 2025.")
    sqlite_memory.remember(SUBJECT, "Deploys to AWS Lambda with Python 3.12.")
    preview = tools.handle("forget", {"match": "postgres"})
    assert preview.startswith("2 memories would be deleted")
    assert "confirm: true" in preview and "Migrated billing" in preview
    assert len(sqlite_memory.items(SUBJECT)) == 3  # a preview deletes nothing
    assert tools.handle("forget", {"contains": "postgres", "confirm": "true"}) == "forgot 2 memories containing 'postgres'"
    assert [it.text for it in sqlite_memory.items(SUBJECT)] == ["Deploys to AWS Lambda with Python 3.12."]


def test_forget_refuses_broad_or_malformed(tools, sqlite_memory):
    sqlite_memory.remember(SUBJECT, "Team uses Postgres 16 for all services.")
    assert "too broad" in tools.handle("forget", {"match": "e", "confirm": True})
    assert tools.handle("forget", {"match": "postgres", "confirm": "maybe"}) == "error: 'confirm' must be true or false, not 'maybe'"
    assert tools.handle("forget", {"match": "cobol", "confirm": True}) == "nothing matches 'cobol'; nothing was deleted"
    assert len(sqlite_memory.items(SUBJECT)) == 1


# -- nothing the model sends raises ----------------------------------------------------------------
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=400),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_keys = st.sampled_from(["fact", "text", "query", "q", "k", "top_k", "limit", "match", "confirm", "memory", "zzz"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["remember", "recall", "forget", "other"]),
       arguments=st.dictionaries(_keys, _json, max_size=4) | _json)
def test_any_arguments_give_a_string(tools, name, arguments):
    result = tools.handle(name, arguments)
    assert isinstance(result, str) and result
