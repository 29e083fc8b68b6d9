"""Access counts: recall records them without writing; they reach the store with the next write,
on a timer, before stats read them, and at close (never dropped silently), on both backends."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from engram.core import accesses
from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.errors import ConfigError, StoreBusy
from engram.store import open_store

U = "user:1"


def _counts(url: str) -> dict[str, tuple[int, float | None]]:
    """Each item's (access_count, last_accessed) as another connection sees it."""
    store = open_store(url)
    try:
        return {it.text: (it.access_count, it.last_accessed) for it in store.find(U)}
    finally:
        store.close()


def _filled(url: str) -> Memory:
    mem = Memory(url, embedder=HashingEmbedder(256))
    mem.remember(U, "The team stores everything in a Postgres database.")
    mem.remember(U, "Deploys to AWS Lambda every Friday.")
    return mem


def test_recall_writes_nothing_and_close_writes_every_count(store_url: str) -> None:
    mem = _filled(store_url)
    for at in (1000.0, 2000.0, 3000.0):
        assert mem.recall(U, "Which database?", k=1, now=at)[0].text.startswith("The team stores")
    assert all(n == 0 for n, _ in _counts(store_url).values())  # nothing written by recall
    mem.close()
    counts = _counts(store_url)
    assert counts["The team stores everything in a Postgres database."] == (3, 3000.0)
    assert counts["Deploys to AWS Lambda every Friday."] == (0, None)


def test_the_next_write_takes_the_counts_along(store_url: str) -> None:
    with _filled(store_url) as mem:
        mem.recall(U, "Which database?", k=2, now=1000.0)
        assert mem.stats(U)["never_recalled"] == 0  # stats write what they report first
        mem.recall(U, "When do deploys happen?", k=1, now=2000.0)
        mem.remember(U, "Prefers short answers.")
        counts = _counts(store_url)
        assert counts["Deploys to AWS Lambda every Friday."] == (2, 2000.0)
        assert counts["The team stores everything in a Postgres database."] == (1, 1000.0)
        assert counts["Prefers short answers."] == (0, None)


def test_a_timer_writes_counts_when_nothing_else_does(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accesses, "FLUSH_AFTER_S", 0.05)
    with _filled(store_url) as mem:
        mem.recall(U, "Which database?", k=1, now=1000.0)
        deadline = time.monotonic() + 30
        while _counts(store_url)["The team stores everything in a Postgres database."][0] == 0:
            assert time.monotonic() < deadline, "the timer never wrote the access count"
            time.sleep(0.05)
        assert len(mem._accesses) == 0


def test_recall_succeeds_while_another_connection_holds_the_write_lock(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import engram.store.sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 50)  # a write attempt would fail fast, loudly
    monkeypatch.setattr(sqlite_store, "BUSY_RETRIES", 1)
    path = str(tmp_path / "locked.db")
    mem = _filled(path)
    mem.recall(U, "Which database?", k=1, now=500.0)  # warm: caches filled before the lock
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the write lock throughout
    try:
        for at in (1000.0, 2000.0):
            hits = mem.recall(U, "Which database?", k=2, now=at)
            assert hits[0].text.startswith("The team stores")
        with pytest.raises(StoreBusy):  # proof the lock is real: a write cannot get it
            mem.remember(U, "Uses MySQL for billing.")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    mem.close()
    assert _counts(path)["The team stores everything in a Postgres database."] == (3, 2000.0)


def test_counts_that_cannot_be_written_at_close_raise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import engram.store.sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr(sqlite_store, "BUSY_RETRIES", 1)
    path = str(tmp_path / "locked.db")
    mem = _filled(path)
    mem.recall(U, "Which database?", k=1, now=1000.0)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreBusy):
            mem.close()  # the count cannot be written: said, not dropped silently
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert mem.store._db is None  # the store is closed all the same


def test_counts_set_by_update_are_not_added_to_by_earlier_recalls(store_url: str) -> None:
    with _filled(store_url) as mem:
        hit = mem.recall(U, "Which database?", k=1, now=1000.0)[0]
        mem.admin.update([hit.id], access_count=7)
    assert _counts(store_url)[hit.text][0] == 7


def test_a_read_only_memory_records_no_counts(store_url: str) -> None:
    _filled(store_url).close()
    with Memory(store_url, embedder=HashingEmbedder(256), read_only=True) as mem:
        mem.recall(U, "Which database?", k=2)
        assert len(mem._accesses) == 0
    assert all(n == 0 for n, _ in _counts(store_url).values())


def test_access_counts_off_records_none(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _filled(store_url).close()
    with Memory(store_url, embedder=HashingEmbedder(256), access_counts=False) as mem:
        assert mem.recall(U, "Which database?", k=2)
        assert len(mem._accesses) == 0
        mem.remember(U, "Uses Terraform for every environment.")  # a write flushes nothing either
    assert all(n == 0 for n, _ in _counts(store_url).values())
    monkeypatch.setenv("ENGRAM_ACCESS_COUNTS", "off")
    with Memory(store_url, embedder=HashingEmbedder(256)) as mem:
        mem.recall(U, "Which database?", k=2)
        assert len(mem._accesses) == 0
    monkeypatch.setenv("ENGRAM_ACCESS_COUNTS", "sometimes")
    with pytest.raises(ConfigError, match="ENGRAM_ACCESS_COUNTS"):
        Memory(store_url, embedder=HashingEmbedder(256))
    with pytest.raises(ConfigError, match="access_counts must be True or False"):
        Memory(store_url, embedder=HashingEmbedder(256), access_counts="no")  # type: ignore[arg-type]
