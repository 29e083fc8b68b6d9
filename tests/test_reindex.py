"""Switching embedders: a store refuses another model until `reindex` re-embeds every item."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from engram.interfaces.commands import reindex as reindex_command
from engram.embed.hashing import HashingEmbedder
from engram.errors import EmbedderMismatch, InvalidInput
from engram.core.memory import Memory
from engram.types import CONVERSATION

U = "user:7"
FACTS = ["Team uses Postgres 16 for all services.", "Alice prefers dark mode.", "Deploys run on Fridays."]


@pytest.fixture
def old_store(tmp_path):
    path = str(tmp_path / "memory.db")
    with Memory(path, embedder=HashingEmbedder(64)) as mem:
        mem.remember_many(U, FACTS)
        mem.remember("user:8", "Bob is learning Spanish.")
        mem.remember(U, "Works at Acme.", key="employer")
        mem.remember(U, "Works at Globex.", key="employer")  # the Acme version is superseded, still embedded
    return path


def test_another_embedder_is_refused_until_reindexed(old_store):
    with Memory(old_store, embedder=HashingEmbedder(128)) as other:
        with pytest.raises(EmbedderMismatch, match="reindex"):
            other.recall(U, "which database")
    calls = []
    mem = Memory.reindex(old_store, embedder=HashingEmbedder(128), batch_size=2,
                         progress=lambda done, total: calls.append((done, total)))
    try:
        assert mem.embedder.identity == "hashing:128"
        assert mem.store.vector_models() == {"hashing:128": 6}
        assert calls[-1] == (6, 6) and [d for d, _ in calls] == sorted(d for d, _ in calls)
        assert mem.recall(U, "which database", k=1)[0].text == FACTS[0]
    finally:
        mem.close()
    with Memory(old_store, embedder=HashingEmbedder(128)) as mem:  # the new model now works
        assert mem.recall(U, "which database", k=1)
    with Memory(old_store, embedder=HashingEmbedder(64)) as old, pytest.raises(EmbedderMismatch):
        old.remember(U, "Uses Redis for caching.")


def test_reindex_skips_saved_conversations(tmp_path):
    path = str(tmp_path / "conv.db")
    with Memory(path, embedder=HashingEmbedder(32)) as mem:
        mem.remember(U, "A fact worth keeping around.")
        mem.remember(U, json.dumps([{"role": "user", "content": "hi"}]), kind=CONVERSATION)
    with Memory.reindex(path, embedder=HashingEmbedder(48)) as mem:
        assert mem.store.vector_models() == {"hashing:48": 1}


def test_reindex_without_an_embedder_is_refused_and_keeps_the_old_model(old_store):
    with pytest.raises(InvalidInput, match="needs an embedder"):
        Memory.reindex(old_store, embedder="none")
    Memory(old_store, embedder=HashingEmbedder(64)).close()  # still the store's model


def test_engram_reindex_command_shows_progress_and_switches_model(old_store):
    @click.group()
    @click.option("--db")
    @click.option("--embedder")
    @click.pass_context
    def cli(ctx: click.Context, db: str, embedder: str) -> None:
        ctx.obj = {"db": db, "embedder": embedder, "agent": None}

    reindex_command.register(cli)
    runner = CliRunner()
    out = runner.invoke(cli, ["--db", old_store, "--embedder", "hashing:96", "reindex"])
    assert out.exit_code == 0, out.output
    assert "re-embedding" in out.output and "re-embedded 6 item(s) with hashing:96" in out.output
    again = runner.invoke(cli, ["--db", old_store, "--embedder", "hashing:200", "reindex", "--json"])
    assert json.loads(again.output.strip().splitlines()[-1]) == {"reindexed": 6, "embedder": "hashing:200"}
    Memory(old_store, embedder=HashingEmbedder(200)).close()
