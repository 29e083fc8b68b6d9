"""Forgetting reaches what was derived from a kept message: its passages, the facts extracted from
it (engram.core.extraction) and the session summaries that cover it, on every surface (the verb,
`Memory.forget`, `engram forget`); a fact another kept message also supports is kept, and says so.
The facts come from a real extraction run with a scripted model (engram.llm.ScriptedLLM)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from engram.agent.manager import summarize_session
from engram.core.audit import audit
from engram.core.extraction import MARK
from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.interfaces.cli import main
from engram.llm import ScriptedLLM
from engram.types import FACT, MESSAGE, PASSAGE, SUMMARY
from engram.verbs import Call, get_verb

S = "user:42"
CHAT = [
    {"role": "user", "id": "u1", "content": "We are moving the orders service from MySQL to Cockroach in March."},
    {"role": "assistant", "id": "a1", "content": "Good plan: rehearse the cut-over on staging first."},
    {"role": "user", "id": "u2", "content": "Also, I live in Setubal and commute by ferry every day."},
    {"role": "user", "id": "u3", "content": "Right: every day I take the ferry, from Setubal to Troia."},
]
MIGRATION = "Is migrating the orders service to Cockroach in March."
FERRY = "Commutes by ferry from Setubal."
FACTS = {"facts": [
    {"text": MIGRATION, "about": "orders service", "messages": [1, 2]},
    {"text": FERRY, "about": "commute", "messages": [3, 4]},
]}


def kept_chat(mem: Memory, answer: dict[str, Any] = FACTS) -> dict[str, str]:
    """The chat kept and extracted in one batch; the message ids by the caller's id."""
    saved = mem.add_messages(S, CHAT, session="week-1")
    report = mem.extract(S, llm=ScriptedLLM([json.dumps(answer)]))
    assert [f.saved for f in report.facts] == [True] * len(answer["facts"]), report.to_dict()
    return {m["id"]: s.id for m, s in zip(CHAT, saved) if s.id}


def fact(mem: Memory, text: str) -> Any:
    found = [it for it in mem.items(S, kinds=[FACT], include_superseded=True) if it.text == text]
    assert len(found) <= 1
    return found[0] if found else None


def forget_verb(mem: Memory, **args: Any) -> dict[str, Any]:
    verb = get_verb("forget")
    reply = verb.handler(Call(mem, verb.arguments("rest", {"subject": S, **args}), "rest", subject=S))
    assert isinstance(reply, dict)
    return reply


def nothing_left(mem: Memory, *texts: str) -> None:
    for text in texts:
        report = audit(mem, S, text)
        assert (report.found, report.where) == (0, []), text


def test_forgetting_a_message_forgets_the_fact_extracted_from_it_alone(memory: Memory) -> None:
    ids = kept_chat(memory)
    migration = fact(memory, MIGRATION)
    assert migration.metadata["messages"] == [ids["u1"], ids["a1"]]
    assert audit(memory, S, "Cockroach").found > 0

    preview = forget_verb(memory, ids=[ids["u1"], ids["a1"]])
    assert [m["id"] for m in preview["memories"]] == [ids["u1"], ids["a1"]]
    assert [(d["memory"]["id"], d["memory"]["kind"]) for d in preview["derived"]] == [(migration.id, FACT)]
    assert "extracted from" in preview["derived"][0]["why"] and ids["u1"] in preview["derived"][0]["why"]
    assert "kept" not in preview
    assert preview["would_forget"] == 2 + preview["passages"] + 1 and preview["passages"] == 2
    assert fact(memory, MIGRATION) is not None  # a preview deletes nothing

    done = forget_verb(memory, ids=[ids["u1"], ids["a1"]], confirm=True)
    assert done == {"forgotten": preview["would_forget"], "derived": 1}
    assert fact(memory, MIGRATION) is None and fact(memory, FERRY) is not None
    assert [it.metadata["message_id"] for it in memory.items(S, kinds=[MESSAGE])] == ["u3", "u2"]
    nothing_left(memory, "Cockroach", "rehearse the cut-over", "orders service")


def test_a_fact_another_kept_message_supports_is_kept_and_the_reason_given(memory: Memory) -> None:
    ids = kept_chat(memory)
    ferry = fact(memory, FERRY)

    preview = forget_verb(memory, ids=[ids["u2"]])
    assert "derived" not in preview
    assert [k["memory"]["id"] for k in preview["kept"]] == [ferry.id]
    assert ids["u3"] in preview["kept"][0]["why"] and "kept" in preview["kept"][0]["why"]

    done = forget_verb(memory, ids=[ids["u2"]], confirm=True)
    assert done["forgotten"] == preview["would_forget"] == 2 and "derived" not in done
    assert [k["memory"]["id"] for k in done["kept"]] == [ferry.id]
    assert fact(memory, FERRY) is not None
    nothing_left(memory, "I live in Setubal")

    # the last message that supports it goes: so does the fact
    assert memory.forget_ids(S, [ids["u3"]]) == 3
    assert fact(memory, FERRY) is None
    nothing_left(memory, "ferry", "Setubal")


def test_a_phrase_only_the_message_holds_reaches_the_fact(memory: Memory) -> None:
    kept_chat(memory)
    reach = memory.forget_plan(S, "We are moving the orders")
    assert [it.kind for it in reach.asked] == [MESSAGE]
    assert [d.item.text for d in reach.derived] == [MIGRATION]
    assert memory.forget(S, "We are moving the orders") == len(reach.ids) == 3
    nothing_left(memory, "Cockroach")
    assert fact(memory, FERRY) is not None


def test_the_cli_preview_lists_derived_facts_and_audit_finds_nothing_after(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        kept_chat(mem)
    runner = CliRunner()

    def run(*args: str) -> dict[str, Any]:
        result = runner.invoke(main, ["--db", db, "--embedder", "hashing:256", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return dict(json.loads(result.output))

    preview = run("forget", S, "moving the orders service", "--json")
    assert [d["memory"]["text"] for d in preview["derived"]] == [MIGRATION]
    text = runner.invoke(main, ["--db", db, "--embedder", "hashing:256", "forget", S, "moving the orders service"])
    assert f"derived   {fact_id(db)[:8]}" in text.output and "extracted from message" in text.output
    assert run("audit", S, "Cockroach", "--json")["found"] > 0
    assert run("forget", S, "moving the orders service", "--yes", "--json") == {"forgotten": 3, "derived": 1}
    assert run("audit", S, "Cockroach", "--json")["found"] == 0
    assert b"ockroach" not in b"".join(Path(db + s).read_bytes() for s in ("", "-wal") if Path(db + s).exists())


def fact_id(db: str) -> str:
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        return str(fact(mem, MIGRATION).id)


def test_forgetting_an_extracted_fact_keeps_its_messages_and_extraction_does_not_bring_it_back(
        memory: Memory) -> None:
    ids = kept_chat(memory)
    migration = fact(memory, MIGRATION)
    done = forget_verb(memory, ids=[migration.id], confirm=True)
    assert done == {"forgotten": 1}
    kept = {it.id: it for it in memory.items(S, kinds=[MESSAGE])}
    assert set(kept) == set(ids.values()) and all(MARK in it.metadata for it in kept.values())
    assert memory.extract(S, llm=ScriptedLLM([])).batches == []  # nothing pending: no call, no fact back
    assert fact(memory, MIGRATION) is None


def test_a_duplicate_fact_from_a_second_message_counts_as_its_support(memory: Memory) -> None:
    ids = kept_chat(memory, {"facts": [{"text": FERRY, "messages": [3]}]})
    more = memory.add_messages(S, [{"role": "user", "id": "u4", "content": "The ferry from Setubal is my commute."}],
                               session="week-2")
    again = memory.extract(S, llm=ScriptedLLM([json.dumps({"facts": [{"text": FERRY, "messages": [1]}]})]))
    assert [(f.saved, f.reason) for f in again.facts] == [(False, "duplicate")]
    ferry = fact(memory, FERRY)
    assert ferry.metadata["messages"] == [ids["u2"], more[0].id]
    assert memory.forget_plan(S, ids=[ids["u2"]]).kept[0].item.id == ferry.id
    memory.forget_ids(S, [ids["u2"]])
    assert fact(memory, FERRY) is not None
    memory.forget_ids(S, [more[0].id])
    assert fact(memory, FERRY) is None


def test_a_session_summary_covering_a_forgotten_message_is_forgotten(memory: Memory) -> None:
    ids = kept_chat(memory)
    summary = summarize_session(memory, S, "week-1")
    assert MIGRATION.rstrip(".") in summary.text and ids["u1"] in summary.covers
    preview = forget_verb(memory, ids=[ids["u1"]])
    derived = {d["memory"]["kind"]: d["why"] for d in preview["derived"]}
    assert set(derived) == {FACT, SUMMARY} and "summar" in derived[SUMMARY]
    forget_verb(memory, ids=[ids["u1"]], confirm=True)
    assert memory.items(S, kinds=[SUMMARY], include_superseded=True) == []
    nothing_left(memory, "Cockroach")


def test_forget_by_phrase_takes_every_passage_of_the_message(memory: Memory) -> None:
    paragraph = "A paragraph about the build pipeline and its caching layers. " * 12
    long = f"{paragraph}\n\nThe deploy token rotates on Mondays.\n\n{paragraph.replace('build', 'test')}"
    saved = memory.add_messages(S, [{"role": "user", "content": long}])
    parts = memory.items(S, kinds=[PASSAGE])
    assert len(parts) >= 2 and sum("rotates on Mondays" in p.text for p in parts) < len(parts)
    assert memory.forget(S, "rotates on Mondays") == 1 + len(parts)
    assert memory.items(S, kinds=[PASSAGE]) == [] and memory.items(S, kinds=[MESSAGE]) == []
    assert saved[0].id
    nothing_left(memory, "caching layers", "rotates on Mondays")


def test_a_message_forgotten_while_the_model_answers_leaves_no_fact(memory: Memory) -> None:
    ids = {m["id"]: s.id for m, s in zip(CHAT, memory.add_messages(S, CHAT, session="week-1")) if s.id}

    def answer_after_a_forget(request: Any) -> str:
        memory.forget_ids(S, [ids["u2"], ids["u3"]])  # the user forgets while the call is out
        return json.dumps(FACTS)

    report = memory.extract(S, llm=ScriptedLLM(rule=answer_after_a_forget))
    assert [f.text for f in report.facts if f.saved] == [MIGRATION, FERRY]
    assert fact(memory, FERRY) is None and fact(memory, MIGRATION) is not None
    nothing_left(memory, "Setubal")


def test_over_rest_the_replies_match_the_published_schema(tmp_path: Path) -> None:
    from jsonschema import Draft202012Validator
    from starlette.testclient import TestClient

    from engram import __version__
    from engram.interfaces.rest import create_app, openapi_document
    from engram.safety.keys import KeyRing

    db = str(tmp_path / "server.db")
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        ids = kept_chat(mem)
        token = KeyRing(mem.store).create([S])[0]
    document = openapi_document(__version__)
    reply = document["paths"]["/v1/forget"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    check = Draft202012Validator({**reply, "components": document["components"]})  # its $refs, resolved in place
    with TestClient(create_app(lambda: Memory(db, embedder=HashingEmbedder(256)))) as client:
        def forget(**body: Any) -> dict[str, Any]:
            answer = client.post("/v1/forget", headers={"Authorization": f"Bearer {token}"}, json={"subject": S, **body})
            assert answer.status_code == 200, answer.text
            data = dict(answer.json())
            assert not list(check.iter_errors(data)), data
            return data

        preview = forget(ids=[ids["u1"], ids["u2"]])
        assert [d["memory"]["text"] for d in preview["derived"]] == [MIGRATION]
        assert [k["memory"]["text"] for k in preview["kept"]] == [FERRY]
        done = forget(ids=[ids["u1"], ids["u2"]], confirm=True)
        assert done["forgotten"] == preview["would_forget"] and done["derived"] == 1
    assert not check.is_valid({"forgotten": 1, "derived": "one"}) and not check.is_valid({"forgotten": 1, "kept": [{}]})


def test_the_agents_tool_says_what_goes_with_the_message(memory: Memory) -> None:
    from engram.agent.tools import RENDER

    kept_chat(memory)
    call = Call(memory, {"match": "We are moving the orders", "confirm": False}, "tool", subject=S)
    text = RENDER["forget"](forget_verb(memory, match="We are moving the orders"), call)
    assert "1 memory would be deleted" in text and MIGRATION in text and "derived from them" in text
