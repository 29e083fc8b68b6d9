"""Fact extraction from kept messages (engram.core.extraction), against real local HTTP servers
speaking the Anthropic Messages and OpenAI Chat Completions wire formats, through the official SDKs."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from wire_servers import API_KEY, Response, WireServer, anthropic_error, anthropic_message, openai_completion

from engram.core import extraction
from engram.core.extraction import MARK, batches, pending
from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.errors import ConfigError
from engram.interfaces.cli import main
from engram.llm.anthropic import AnthropicLLM
from engram.llm.base import LLM
from engram.llm.openai import OpenAILLM
from engram.types import FACT, MESSAGE

SUBJECT = "user:42"
CHAT = [
    {"role": "user", "id": "u1", "content": "We are moving the orders service from MySQL to Postgres 16 in March."},
    {"role": "assistant", "id": "a1", "content": "Good plan. Start with logical replication, then cut over."},
    {"role": "tool", "id": "t1", "content": "GET https://status.example.com: all systems operational"},
    {"role": "user", "id": "u2", "content": "I prefer short answers with code, and I work from Lisbon."},
]
GOOD = {"facts": [
    {"text": "Is moving the orders service from MySQL to Postgres 16 in March.", "about": "orders service",
     "messages": [1, 2]},
    {"text": "Prefers short answers with code.", "about": "style", "messages": [3]},
]}


class Wire:
    """A local wire server and an LLM of its flavour pointed at it (no SDK retries: one request per call)."""

    def __init__(self, flavour: str, server: WireServer | None = None) -> None:
        self.flavour = flavour
        self.server = (server or WireServer(flavour)).start()
        self.llm: LLM = (AnthropicLLM("claude-test", api_key=API_KEY, base_url=self.server.base_url, max_retries=0)
                         if flavour == "anthropic" else
                         OpenAILLM("gpt-test", api_key=API_KEY, base_url=self.server.base_url, max_retries=0))

    def answer(self, *texts: str) -> None:
        """Queue these replies, each in the flavour's own response shape."""
        build = anthropic_message if self.flavour == "anthropic" else openai_completion
        self.server.enqueue(*(Response(200, build(text)) for text in texts))

    def prompts(self) -> list[str]:
        """The user-side prompt of every request received."""
        return [body["messages"][-1]["content"] for body in self.server.bodies()]

    def systems(self) -> list[str]:
        bodies = self.server.bodies()
        if self.flavour == "anthropic":
            return [b["system"] for b in bodies]
        return [b["messages"][0]["content"] for b in bodies if b["messages"][0]["role"] == "system"]


@pytest.fixture(params=["anthropic", "openai"])
def wire(request: pytest.FixtureRequest) -> Iterator[Wire]:
    made = Wire(request.param)
    yield made
    made.server.stop()


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    memory = Memory(str(tmp_path / "memory.db"), embedder=HashingEmbedder(256))
    yield memory
    memory.close()


def kept(memory: Memory) -> list[Any]:
    return memory.add_messages(SUBJECT, CHAT, session="s1", at="2026-03-02T10:00:00Z")


def facts(memory: Memory) -> list[Any]:
    return memory.items(SUBJECT, kinds=[FACT])


def test_a_good_batch_is_one_call_and_each_fact_links_to_its_messages(wire, memory):
    mem = memory  # every backend
    saved = kept(mem)
    wire.answer(json.dumps(GOOD))
    report = mem.extract(SUBJECT, llm=wire.llm)
    assert len(wire.server.requests) == 1 and report.failed == [] and report.batches[0].attempts == 1
    out = report.to_dict()
    assert (out["saved"], out["refused"], out["messages"], out["pending"]) == (2, 0, 3, 0)
    [prompt] = wire.prompts()
    # The user and assistant messages, numbered; never the tool's output.
    assert "[1] user, 2026-03-02: We are moving the orders service" in prompt
    assert "[2] assistant, 2026-03-02: Good plan." in prompt and "[3] user, 2026-03-02: I prefer" in prompt
    assert "status.example.com" not in prompt
    assert "At most 20 facts" in wire.systems()[0]
    by_text = {f.text: f for f in facts(mem)}
    move = by_text["Is moving the orders service from MySQL to Postgres 16 in March."]
    assert move.source == "extract" and move.session == "s1"
    assert move.metadata["messages"] == [saved[0].id, saved[1].id]
    assert move.metadata["message_ids"] == ["u1", "a1"] and move.metadata["about"] == "orders service"
    assert mem.get(move.metadata["messages"][0]).text == CHAT[0]["content"]
    assert by_text["Prefers short answers with code."].metadata["messages"] == [saved[3].id]
    marks = {m.metadata["message_id"]: m.metadata.get(MARK) for m in mem.items(SUBJECT, kinds=[MESSAGE])}
    assert marks["u1"] and marks["a1"] and marks["u2"] and marks["t1"] is None  # a tool result is never read


def test_a_second_run_extracts_nothing_new(wire, mem):
    kept(mem)
    wire.answer(json.dumps(GOOD))
    mem.extract(SUBJECT, llm=wire.llm)
    again = mem.extract(SUBJECT, llm=wire.llm)
    assert again.batches == [] and len(wire.server.requests) == 1 and len(facts(mem)) == 2
    mem.add_messages(SUBJECT, [{"role": "user", "content": "Our CI runs on GitHub Actions.", "id": "u3"}],
                     session="s1")
    wire.answer(json.dumps({"facts": [{"text": "Runs CI on GitHub Actions.", "messages": [1]}]}))
    third = mem.extract(SUBJECT, llm=wire.llm)
    assert len(wire.server.requests) == 2 and "[1] user" in wire.prompts()[1] and "[2]" not in wire.prompts()[1]
    assert third.to_dict()["saved"] == 1 and len(facts(mem)) == 3


def test_bad_json_then_good_is_retried_once(wire, mem):
    kept(mem)
    wire.answer("Sure! Here are the facts: {\"facts\": [oops]}", json.dumps(GOOD))
    report = mem.extract(SUBJECT, llm=wire.llm)
    assert len(wire.server.requests) == 2 and report.batches[0].attempts == 2 and report.failed == []
    first, second = wire.prompts()
    assert "could not be used" not in first
    assert second.startswith(first) and "Your previous answer could not be used: the answer is not valid JSON" in second
    assert len(facts(mem)) == 2
    assert report.batches[0].usage == {"input_tokens": 24, "output_tokens": 14}  # both calls counted


def test_bad_twice_is_reported_stores_nothing_and_the_messages_stay_pending(wire, memory):
    mem = memory  # every backend
    kept(mem)
    wire.answer('{"facts": {"text": "not a list"}}', "I found nothing to save.")
    report = mem.extract(SUBJECT, llm=wire.llm)
    assert len(wire.server.requests) == 2
    out = report.to_dict()
    assert out["failed"] == 1 and out["messages"] == 0 and out["pending"] == 3
    assert "two answers in a row were not the JSON asked for" in out["errors"][0]
    assert "is not a JSON object" in out["errors"][0]
    assert facts(mem) == [] and len(pending(mem, SUBJECT)) == 3
    wire.answer(json.dumps(GOOD))  # the next run takes them again
    assert mem.extract(SUBJECT, llm=wire.llm).to_dict()["saved"] == 2 and pending(mem, SUBJECT) == []


def test_an_answer_cut_at_max_tokens_is_asked_again_for_fewer_facts(mem):
    wire = Wire("anthropic")
    try:
        kept(mem)
        cut = anthropic_message('{"facts": [{"text": "Is moving the orders', stop_reason="max_tokens")
        wire.server.enqueue(Response(200, cut))
        wire.answer(json.dumps(GOOD))
        report = mem.extract(SUBJECT, llm=wire.llm)
    finally:
        wire.server.stop()
    assert report.batches[0].attempts == 2 and len(facts(mem)) == 2
    assert "it was cut off at 2000 tokens" in wire.prompts()[1] and "send fewer, shorter facts" in wire.prompts()[1]
    assert wire.server.bodies()[0]["max_tokens"] == 2000


def test_invalid_facts_are_rejected_and_screened_ones_refused_without_failing_the_batch(wire, mem):
    kept(mem)
    answer = {"facts": [
        {"text": "Works from Lisbon.", "messages": [3]},
        {"text": "Works from Lisbon with the key sk-ant-api03-Xy7Qw2Lp9Rt4Vb8NzzKqAbCd.", "messages": [3]},
        {"text": "Starts logical replication first.", "messages": [2]},        # the assistant's words alone
        {"text": "Owns a sailing boat called Wind.", "messages": [1]},          # nobody said it
        {"text": "Works from Lisbon every day.", "messages": [9]},              # no such message
        {"text": "Works from Lisbon on Mondays."},                              # no messages
        "Lisbon",
    ]}
    wire.answer(json.dumps(answer))
    out = mem.extract(SUBJECT, llm=wire.llm).to_dict()
    assert out["failed"] == 0 and out["saved"] == 1 and out["refused"] == 1 and out["pending"] == 0
    refused = next(f for f in out["facts"] if not f["saved"])
    assert refused["reason"].startswith("looks like a secret")
    reasons = [r["reason"] for r in out["rejected"]]
    assert reasons[0] == "cites no user message: a fact comes from what the user said"
    assert reasons[1] == "the fact shares no word with the messages it cites"
    assert reasons[2] == "cites message 9, not one of 1 to 3"
    assert "'messages' is a required property" in reasons[3] and "is not of type 'object'" in reasons[4]
    assert [f.text for f in facts(mem)] == ["Works from Lisbon."]


def test_a_changed_plan_supersedes_the_old_fact(wire, mem):
    mem.add_messages(SUBJECT, [{"role": "user", "content": "I live in Berlin.", "id": "u1"}], session="s1")
    wire.answer(json.dumps({"facts": [{"text": "Lives in Berlin.", "messages": [1]}]}))
    mem.extract(SUBJECT, llm=wire.llm)
    mem.add_messages(SUBJECT, [{"role": "user", "content": "We moved: I live in Porto now.", "id": "u2"}],
                     session="s2")
    wire.answer(json.dumps({"facts": [{"text": "Moved to Porto.", "messages": [1]}]}))
    report = mem.extract(SUBJECT, llm=wire.llm)
    [fact] = report.facts
    assert [f.text for f in facts(mem)] == ["Moved to Porto."]
    assert [it.text for it in mem.history(fact.id)] == ["Lives in Berlin.", "Moved to Porto."]


def test_a_failing_provider_stops_the_run_and_leaves_the_rest_pending(mem):
    wire = Wire("anthropic")
    try:
        kept(mem)
        mem.add_messages(SUBJECT, [{"role": "user", "content": "Deploys on Fridays."}], session="s2")
        wire.server.enqueue(Response(500, anthropic_error("api_error", "Internal server error")))
        out = mem.extract(SUBJECT, llm=wire.llm).to_dict()
    finally:
        wire.server.stop()
    assert len(wire.server.requests) == 1  # the second batch is not tried against a failing provider
    assert out["batches"] == 0 and out["pending"] == 4 and "HTTP 500" in out["errors"][0]
    assert len(pending(mem, SUBJECT)) == 4 and facts(mem) == []


def test_batches_are_bounded_by_messages_characters_and_session(mem):
    long = "A plan line. " * 1000  # 13,000 characters: shown cut at MAX_SHOWN_CHARS
    mem.add_messages(SUBJECT, [{"role": "user", "content": f"Note {i}: ships weekly."} for i in range(5)], session="a")
    mem.add_messages(SUBJECT, [{"role": "assistant", "content": long}] * 4, session="b")
    mem.add_messages(SUBJECT, [{"role": "user", "content": "Note 5: ships daily."}], session="a")
    todo = pending(mem, SUBJECT)
    cut = list(batches(todo, max_messages=4))
    assert [[it.session for it in b] for b in cut] == [["a"] * 4, ["a"] * 2, ["b"] * 3, ["b"]]
    assert [it.text for it in cut[1]] == ["Note 4: ships weekly.", "Note 5: ships daily."]  # said order kept
    prompt = extraction.render(cut[2])
    assert len(prompt) < 3 * extraction.MAX_SHOWN_CHARS + 1000 and "more characters not shown" in prompt


def test_the_session_option_takes_only_that_session(wire, mem):
    kept(mem)
    mem.add_messages(SUBJECT, [{"role": "user", "content": "Deploys on Fridays."}], session="s2")
    wire.answer(json.dumps({"facts": [{"text": "Deploys on Fridays.", "messages": [1]}]}))
    out = mem.extract(SUBJECT, session="s2", llm=wire.llm).to_dict()
    assert out["messages"] == 1 and len(pending(mem, SUBJECT)) == 3


# -- in the background ----------------------------------------------------------------------------
class HeldServer(WireServer):
    """A wire server that holds every request until `release` is set (so a test sees who waits)."""

    def __init__(self, flavour: str) -> None:
        super().__init__(flavour)
        self.release = threading.Event()
        self.arrived = threading.Event()

    def respond(self, path: str, headers: dict[str, str], raw: bytes) -> Response:
        self.arrived.set()
        assert self.release.wait(60), "the test never released the request"
        return super().respond(path, headers, raw)


@pytest.mark.parametrize("flavour", ["anthropic", "openai"])
def test_background_extraction_never_blocks_add_messages_and_is_flushed_on_close(tmp_path, flavour):
    wire = Wire(flavour, HeldServer(flavour))
    held = wire.server
    assert isinstance(held, HeldServer)
    db = str(tmp_path / "memory.db")
    try:
        mem = Memory(db, embedder=HashingEmbedder(256), extract_llm=wire.llm)
        wire.answer(json.dumps(GOOD))
        saved = kept(mem)  # returns while the model's answer is held
        assert held.arrived.wait(60) and facts(mem) == []
        assert mem.extraction is not None and mem.extraction.report.batches == []
        held.release.set()
        mem.close()  # waits for the queued extraction
    finally:
        held.release.set()
        held.stop()
    with Memory(db, embedder=HashingEmbedder(256)) as reopened:
        assert {f.text for f in facts(reopened)} == {f["text"] for f in GOOD["facts"]}
        assert reopened.get(saved[0].id).metadata[MARK] and pending(reopened, SUBJECT) == []
    assert len(held.requests) == 1


def test_a_full_queue_drops_nothing_the_next_run_cannot_take(tmp_path):
    wire = Wire("openai", HeldServer("openai"))
    held = wire.server
    assert isinstance(held, HeldServer)
    db = str(tmp_path / "memory.db")
    try:
        mem = Memory(db, embedder=HashingEmbedder(256))
        from engram.core.extraction_thread import Background

        mem.extraction = Background(mem, wire.llm, queue_size=1)
        wire.answer(json.dumps({"facts": []}))
        mem.add_messages(SUBJECT, [{"role": "user", "content": "First message."}], session="s1")
        assert held.arrived.wait(60)  # the thread holds the first call; the queue is empty again
        mem.add_messages(SUBJECT, [{"role": "user", "content": "Second message."}], session="s1")  # queued
        mem.add_messages(SUBJECT, [{"role": "user", "content": "Third message."}], session="s1")  # full: dropped
        assert mem.extraction.dropped == 1
        held.release.set()
        report = mem.extraction.flush()
        assert [len(b.messages) for b in report.batches] == [1, 1] and report.failed == []
        assert [it.text for it in pending(mem, SUBJECT)] == ["Third message."]
        mem.close()
    finally:
        held.release.set()
        held.stop()


# -- without a provider, and on the CLI and REST --------------------------------------------------
def test_without_a_provider_extract_says_so_and_everything_else_works(tmp_path, mem):
    kept(mem)
    with pytest.raises(ConfigError, match="no LLM provider for extraction: set ENGRAM_LLM"):
        mem.extract(SUBJECT)
    assert len(pending(mem, SUBJECT)) == 3 and mem.recall(SUBJECT, "Postgres 16", k=1)
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    base = ["--db", db, "--embedder", "hashing"]
    assert runner.invoke(main, [*base, "remember", SUBJECT, "Team uses Postgres 16 for all services."]).exit_code == 0
    result = runner.invoke(main, [*base, "extract", "--subject", SUBJECT])
    assert result.exit_code == 1 and "error: no LLM provider for extraction" in result.output
    assert runner.invoke(main, [*base, "recall", SUBJECT, "Postgres"]).exit_code == 0


def test_the_cli_extracts_every_subject_and_exits_1_when_a_batch_fails(tmp_path, monkeypatch):
    wire = Wire("openai")
    db = str(tmp_path / "cli.db")
    base = ["--db", db, "--embedder", "hashing"]
    runner = CliRunner()
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps(CHAT), encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    spec = f"openai:gpt-test@{wire.server.base_url}"
    try:
        for subject in ("user:1", "user:2"):
            assert runner.invoke(main, [*base, "ingest", str(chat), "--subject", subject]).exit_code == 0
        wire.answer(json.dumps(GOOD), "no JSON here", "still none")
        result = runner.invoke(main, [*base, "extract", "--llm", spec, "--json"])
        assert result.exit_code == 1, result.output
        out = json.loads(result.stdout)
        assert (out["batches"], out["failed"], out["saved"], out["pending"]) == (2, 1, 2, 3)
        wire.answer(json.dumps(GOOD))
        monkeypatch.setenv("ENGRAM_LLM", spec)
        again = runner.invoke(main, [*base, "extract", "--subject", "user:2"])
        assert again.exit_code == 0, again.output
        assert "saved    " in again.output and "3 message(s) extracted in 1 batch(es): 2 fact(s) saved" in again.output
    finally:
        wire.server.stop()


def test_rest_extracts_with_the_configured_provider_and_says_503_without(tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    from engram.interfaces.rest import create_app
    from engram.safety.keys import KeyRing
    from engram.store import open_store

    db = str(tmp_path / "rest.db")
    store = open_store(db)
    token = KeyRing(store).create([SUBJECT])[0]
    store.close()
    auth = {"Authorization": f"Bearer {token}"}
    wire = Wire("anthropic")
    try:
        with TestClient(create_app(lambda: Memory(db, embedder="hashing"))) as client:
            client.post("/v1/messages", json={"subject": SUBJECT, "messages": CHAT, "session": "s1"}, headers=auth)
            missing = client.post("/v1/extract", json={"subject": SUBJECT}, headers=auth)
            assert missing.status_code == 503 and "no LLM provider" in missing.json()["error"]["message"]
            monkeypatch.setenv("ENGRAM_LLM", f"anthropic:claude-test@{wire.server.base_url}")
            monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
            wire.answer(json.dumps(GOOD))
            reply = client.post("/v1/extract", json={"subject": SUBJECT, "max_batches": 1}, headers=auth)
            assert reply.status_code == 200, reply.text
            assert reply.json()["saved"] == 2 and reply.json()["pending"] == 0
            other = client.post("/v1/extract", json={"subject": "user:7"}, headers=auth)
            assert other.status_code == 403
    finally:
        wire.server.stop()


def test_engram_extract_on_turns_on_the_background_with_the_configured_provider(tmp_path, monkeypatch):
    db = str(tmp_path / "memory.db")
    monkeypatch.setenv("ENGRAM_EXTRACT", "on")
    with pytest.raises(ConfigError, match="ENGRAM_EXTRACT=on needs an LLM provider: set ENGRAM_LLM"):
        Memory(db, embedder="hashing")
    wire = Wire("openai")
    try:
        monkeypatch.setenv("ENGRAM_LLM", f"openai:gpt-test@{wire.server.base_url}")
        monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
        wire.answer(json.dumps(GOOD))
        runner = CliRunner()
        chat = tmp_path / "chat.json"
        chat.write_text(json.dumps(CHAT), encoding="utf-8")
        ingest = runner.invoke(main, ["--db", db, "--embedder", "hashing", "ingest", str(chat), "--subject", SUBJECT])
        assert ingest.exit_code == 0, ingest.output
    finally:
        wire.server.stop()
    monkeypatch.setenv("ENGRAM_EXTRACT", "off")
    with Memory(db, embedder="hashing") as mem:
        assert mem.extraction is None and len(facts(mem)) == 2 and pending(mem, SUBJECT) == []
