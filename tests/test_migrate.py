"""`engram migrate`: a lossless, verified copy between backends."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from engram.interfaces.cli import main
from engram.embed.hashing import HashingEmbedder
from engram.errors import InvalidInput
from engram.core.memory import Memory
from engram.store.copy import checksum, migrate
from engram.store import open_store


def fill(mem: Memory) -> None:
    mem.remember("user:1", "Team uses Postgres 16 for all services.", source="chat 1", now=100.0)
    mem.store_fact("user:1", "home_city", "Berlin", category="identity", now=100.0)
    mem.store_fact("user:1", "home_city", "Porto", category="identity", now=200.0)
    mem.log_episode("user:1", "Helped debug a query", "fixed", session="s1", now=150.0)
    mem.set_preference("user:2", "style", "concise")
    mem.grant("user:1", "agent:helper", "read")


def test_sqlite_to_backend_copy_is_exact(tmp_path, store_url):
    src_path = str(tmp_path / "src.db")
    with Memory(src_path, embedder=HashingEmbedder(64)) as mem:
        fill(mem)
    src, dst = open_store(src_path), open_store(store_url)
    try:
        report = migrate(src, dst)
        assert report.items == 5 and report.vectors == 5
        assert checksum(dst) == checksum(src)
        assert dst.settings("grant:") == {"grant:user:1|agent:helper": "read"}
    finally:
        src.close()
        dst.close()
    with Memory(store_url, embedder=HashingEmbedder(64)) as copy:
        current = copy.get_fact("user:1", "home_city")
        assert current.metadata["value"] == "Porto"
        assert [it.metadata["value"] for it in copy.history(current.id)] == ["Berlin", "Porto"]
        assert copy.recall("user:1", "which database", k=1)[0].text.startswith("Team uses Postgres")


def test_migrating_into_a_non_empty_store_is_refused(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    for path in (a, b):
        with Memory(path, embedder=HashingEmbedder(64)) as mem:
            mem.remember("user:1", f"A fact that lives in {path[-4:]} already.")
    src, dst = open_store(a), open_store(b)
    try:
        with pytest.raises(InvalidInput, match="not empty"):
            migrate(src, dst)
        assert sum(dst.subjects().values()) == 1
    finally:
        src.close()
        dst.close()


def test_cli_migrate(tmp_path):
    src, dst = str(tmp_path / "src.db"), str(tmp_path / "dst.db")
    with Memory(src, embedder=HashingEmbedder(64)) as mem:
        fill(mem)
    result = CliRunner().invoke(main, ["migrate", src, dst, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.strip().splitlines()[-1])["items"] == 5
