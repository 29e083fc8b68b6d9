"""One definition of "items" (current items; history counted apart), one stats function counted
by the store in SQL on both backends, and preferences that say when they are missing."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from engram.agent.manager import memory_stats
from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.interfaces.cli import main
from engram.store.base import Filter

U = "user:42"
T0 = 1_780_000_000.0
DAY = 86_400.0


def _fill(mem: Memory) -> None:
    mem.store_fact(U, "db", "PostgreSQL 15", now=T0)
    mem.store_fact(U, "db", "PostgreSQL 16", now=T0 + DAY)  # supersedes: one current, one history
    mem.remember(U, "Deploys to AWS Lambda with Python 3.12.", now=T0 + 2 * DAY)
    mem.log_episode(U, "Fixed the flaky test", "ok", session="s1", category="debugging", now=T0 + 3 * DAY)
    mem.log_episode(U, "Tried a new linter", "failed", success=False, session="s1", category="tooling",
                    now=T0 + 4 * DAY)
    mem.remember("user:7", "Likes tea.", now=T0)


def test_items_are_current_items_and_history_is_counted_apart(memory: Memory) -> None:
    _fill(memory)
    memory.recall(U, "Lambda Python", k=1, now=T0 + 5 * DAY)
    stats = memory.stats(U)
    every = memory.store.find(U, Filter(include_superseded=True))
    assert stats["items"] == len(memory.items(U)) == sum(1 for it in every if it.current) == 4
    assert stats["history"] == sum(1 for it in every if not it.current) == 1
    assert stats["by_kind"] == {"episode": 2, "fact": 2}
    assert stats["per_subject"] == {U: {"items": 4, "history": 1}}
    assert stats["episodes"]["n"] == 2 and stats["episodes"]["success_rate"] == 0.5
    assert stats["episodes"]["by_category"]["tooling"] == {"n": 1, "succeeded": 0, "success_rate": 0.0}
    assert stats["sessions"] == 1 and stats["never_recalled"] == 3
    assert stats["most_recalled"][0]["text"].startswith("Deploys to AWS Lambda")
    assert stats["oldest"] is not None and stats["oldest"] < stats["newest"]
    assert memory.subjects() == {U: 4, "user:7": 1}
    whole = memory.stats()
    assert whole["items"] == 5 and whole["history"] == 1 and whole["subjects"] == 2
    assert whole["per_subject"]["user:7"] == {"items": 1, "history": 0}


def test_manager_stats_is_memory_stats(memory: Memory) -> None:
    _fill(memory)
    assert memory_stats(memory, U) == memory.stats(U)


def test_stats_reads_no_row_into_python(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting is done by the store: stats never fetches items (find/get) to count them."""
    _fill(memory)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("stats read rows instead of counting in SQL")

    monkeypatch.setattr(memory.store, "find", refuse)
    monkeypatch.setattr(memory.store, "get", refuse)
    assert memory.stats()["items"] == 5
    assert memory.stats(U)["history"] == 1


def test_cli_stats_items_agree_with_per_subject(tmp_path) -> None:
    db = str(tmp_path / "s.db")
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        mem.set_preference(U, "style", "concise")
        mem.set_preference(U, "style", "detailed")
        mem.remember(U, "Uses Postgres.")
    out = CliRunner().invoke(main, ["--db", db, "--embedder", "hashing:256", "stats", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["items"] == 2 and data["history"] == 1
    assert data["per_subject"] == {U: {"items": 2, "history": 1}}


def test_get_preference_of_a_missing_key_is_the_default(memory: Memory) -> None:
    assert memory.get_preference(U, "style") is None
    assert memory.get_preference(U, "style", "plain") == "plain"
    memory.set_preference(U, "style", "concise")
    assert memory.get_preference(U, "style") == "concise"


def test_every_surface_counts_the_same_items_with_a_saved_conversation(memory) -> None:
    from engram.kinds.working import Conversation

    subject = "user:counts"
    memory.remember(subject, "Team uses Postgres 16 for all services.")
    memory.remember(subject, "Works at Acme.", key="employer")
    memory.remember(subject, "Works at Globex.", key="employer")  # one current, one history
    conv = Conversation("You are helpful.", budget=1000)
    conv.add("user", "hello there")
    memory.save_conversation(subject, "s1", conv)
    listed = memory.items(subject)
    stats = memory.stats(subject)
    assert len(listed) == 2
    assert stats["items"] == sum(stats["by_kind"].values()) == len(listed)
    assert stats["per_subject"][subject] == {"items": 2, "history": 1}
    assert memory.subjects()[subject] == 2
    assert stats["conversations"] == 1 and "conversation" not in stats["by_kind"]
    assert len(memory.items(subject, include_superseded=True)) == stats["items"] + stats["history"]
