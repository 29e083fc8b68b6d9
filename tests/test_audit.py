"""Verifiable forgetting: `audit` finds every copy of a text, and finds none after forget."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

import engram.interfaces.cli
from engram.core.audit import audit
from engram.embed.hashing import HashingEmbedder
from engram.errors import InvalidInput
from engram.core.memory import Memory
from engram.kinds.working import Conversation
from engram.store import keyword


def marker() -> str:
    return "zq" + uuid.uuid4().hex[:12]


def cli():
    """The CLI group with the audit command (registered here if the lead has not wired it yet)."""
    if "audit" not in engram.interfaces.cli.main.commands:
        from engram.interfaces.commands import audit as audit_commands

        audit_commands.register(engram.interfaces.cli.main)
    return engram.interfaces.cli.main


def file_bytes(db: Path) -> bytes:
    """Our own scan, independent of engram.core.audit: every file SQLite keeps for the database."""
    return b"".join(Path(str(db) + s).read_bytes() for s in ("", "-wal", "-shm", "-journal")
                    if Path(str(db) + s).exists())


def fill(mem: Memory, subject: str, secret: str) -> None:
    """The secret in every kind of place: fact, episode metadata, history, summary, conversation."""
    mem.remember(subject, f"The vault code is {secret} for the team.", now=100.0)
    mem.log_episode(subject, "Opened the vault", f"used code {secret}", now=101.0)
    mem.set_preference(subject, "vault_word", f"{secret} please", now=102.0)
    mem.set_preference(subject, "vault_word", "something else entirely", now=103.0)  # secret now in history
    mem.remember(subject, f"Summary: the user shared vault code {secret} with the agent.", kind="summary", now=104.0)
    chat = Conversation("You are helpful.", budget=2000)
    chat.add_user(f"my code is {secret}")
    mem.save_conversation(subject, "s1", chat, now=105.0)
    for i in range(20):
        mem.remember(subject, f"Ordinary filler fact number {i} about nothing.", now=110.0 + i)


def test_audit_finds_every_copy_then_nothing_after_forget(memory):
    secret = marker()
    fill(memory, "user:1", secret)
    report = audit(memory, "user:1", secret)
    places = " ".join(report.where)
    assert "history:" in places and "(episode) text,metadata" in places and "(conversation) text" in places
    assert "(summary) text" in places and "vectors:" in places and "keyword:" in places
    assert report.found == len(report.where) >= 8
    assert memory.forget("user:1", secret) == 5
    after = audit(memory, "user:1", secret)
    assert (after.found, after.where) == (0, [])
    assert len(memory.items("user:1")) == 21  # 20 fillers and the current preference


def test_audit_is_case_insensitive_and_finds_phrases(memory):
    memory.remember("user:1", "The Deploy Target is AWS Frankfurt.")
    assert audit(memory, "user:1", "deploy target is aws").found >= 2  # row and keyword index
    assert audit(memory, "user:1", "not stored anywhere at all").found == 0


def test_forget_all_leaves_nothing_to_audit(memory):
    secret = marker()
    fill(memory, "user:7", secret)
    memory.remember("user:8", "Another subject's fact stays put.")
    memory.forget_all("user:7")
    assert audit(memory, "user:7", secret).found == 0
    assert audit(memory, "user:7", "Ordinary filler fact").found == 0
    assert [it.text for it in memory.items("user:8")] == ["Another subject's fact stays put."]


def test_audit_never_reports_another_subjects_text(memory):
    secret = marker()
    memory.remember("user:1", f"Private fact {secret} of user one.")
    theirs = audit(memory, "user:2", secret)
    absent = audit(memory, "user:2", marker())
    assert theirs.found == 0
    assert theirs.not_scanned == absent.not_scanned  # not even a hint that someone holds it


def test_forget_reaches_every_field_audit_scans(memory):
    secret = marker()
    memory.remember("user:1", "A fact whose provenance names the secret.", source=f"chat {secret}")
    memory.log_episode("user:1", "Did something in a named session", session=f"s-{secret}")
    assert audit(memory, "user:1", secret).where[0].endswith("(fact) source")
    assert len(memory.matches("user:1", secret)) == 2
    assert memory.forget("user:1", secret) == 2
    assert audit(memory, "user:1", secret).found == 0


def test_audit_finds_json_escaped_text_in_a_saved_conversation(memory):
    secret = marker()
    chat = Conversation("You are helpful.", budget=2000)
    chat.add_user(f'she said "{secret}" twice')
    memory.save_conversation("user:1", "s1", chat)
    assert any("(conversation) text" in p for p in audit(memory, "user:1", f'said "{secret}"').where)
    assert memory.forget("user:1", f'said "{secret}"') == 1  # matched as typed, though stored JSON-escaped
    assert audit(memory, "user:1", f'said "{secret}"').found == 0


def test_sqlite_raw_bytes_are_scanned_and_clean_after_forget(tmp_path):
    db = tmp_path / "m.db"
    secret = marker()
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        fill(mem, "user:1", secret)
        before = audit(mem, "user:1", secret.upper())
        assert any(p.startswith("file:") for p in before.where)
        assert secret.encode() in file_bytes(db)
        mem.forget("user:1", secret)
        assert audit(mem, "user:1", secret).found == 0
    raw = file_bytes(db).lower()
    assert secret.encode() not in raw
    assert b"vault code" not in raw


def test_keyword_entry_without_a_row_is_found(tmp_path):
    db = tmp_path / "m.db"
    secret = marker()
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        mem.remember("user:1", "An ordinary fact to make the index exist.")
        (term,) = keyword.TOKENISER.documents([secret])[0].terms
    raw = sqlite3.connect(db)
    raw.execute("INSERT INTO keyword_pending VALUES ('user:1', ?, 9999, 1, 3)", (term,))
    raw.commit()
    raw.close()
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        where = audit(mem, "user:1", secret).where
    assert f"keyword:{term} key 9999 (entry without a row)" in where


def test_audit_rejects_empty_text(memory):
    with pytest.raises(InvalidInput):
        audit(memory, "user:1", "  ")


def test_cli_audit_json_before_and_after_forget(tmp_path):
    db = str(tmp_path / "c.db")
    secret = marker()
    runner = CliRunner()
    main = cli()
    base = ["--db", db, "--embedder", "hashing"]
    assert runner.invoke(main, [*base, "remember", "user:1", f"The new band is called {secret} today."]).exit_code == 0
    found = json.loads(runner.invoke(main, [*base, "audit", "user:1", secret, "--json"]).output)
    assert found["found"] == len(found["where"]) >= 3
    assert runner.invoke(main, [*base, "forget", "user:1", secret, "--yes"]).exit_code == 0
    result = runner.invoke(main, [*base, "audit", "user:1", secret, "--json"])
    out = json.loads(result.output)
    assert (out["found"], out["where"]) == (0, [])
    assert secret.encode() not in file_bytes(Path(db)).lower()


def test_an_item_that_only_shares_the_texts_stems_is_no_copy(memory):
    kept = memory.remember("user:1", "I live in Setubal and take the ferry to work.").id
    gone = memory.remember("user:1", "My sister Ines is a nurse in Faro.").id
    assert f"keyword:{gone}" in audit(memory, "user:1", "Ines").where  # "ines" stems to "in"
    memory.forget_ids("user:1", [gone])
    assert (audit(memory, "user:1", "Ines").found, memory.get(kept).id) == (0, kept)
    assert f"keyword:{kept}" in audit(memory, "user:1", "ferry to work").where
