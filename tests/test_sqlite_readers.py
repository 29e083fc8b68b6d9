"""SQLite reads on their own connections (engram.store.sqlite_readers): threads read while one
writes, every read sees what was committed before it, a read inside a write sees that write, the
pool stays bounded, and closing the store closes every connection."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from pathlib import Path

import numpy as np
import pytest

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.errors import StoreUnavailable
from engram.store.base import Filter
from engram.store.sqlite import SQLiteStore
from engram.store.sqlite_readers import READERS, Readers
from engram.types import Item
from engram.validate import content_hash
from threads import run_in_threads

U = "user:1"


def _item(n: int, subject: str = U) -> Item:
    text = f"Fact number {n} about the billing service."
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, created_at=1000.0 + n, event_at=1000.0 + n,
                valid_from=1000.0 + n, content_hash=content_hash(text))


def test_reads_use_pooled_connections_not_the_writer(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    store.put([_item(1)])
    assert store._readers is not None
    assert store.find(U) and store._readers._opened == 1  # the read checked one out and gave it back
    store.find(U)
    assert store._readers._opened == 1 and len(store._readers._idle) == 1
    store.close()


def test_a_read_connection_cannot_write(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    assert store._readers is not None
    with store._readers.connection() as db:
        assert db is not None
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db.execute("DELETE FROM items")
    store.close()


def test_a_read_inside_a_write_sees_that_write(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    with store.transaction() as db:
        db.execute("INSERT INTO settings (key, value) VALUES ('k', 'uncommitted')")
        assert store.setting("k") == "uncommitted"  # the writer's own connection, inside its transaction
    assert store.setting("k") == "uncommitted"
    store.close()


def test_readers_run_while_a_writer_holds_its_transaction(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    store.put([_item(1)])
    inside, release = threading.Event(), threading.Event()

    def write() -> None:
        with store.transaction() as db:
            db.execute("INSERT INTO settings (key, value) VALUES ('k', 'v')")
            inside.set()
            release.wait(10)

    writer = threading.Thread(target=write)
    writer.start()
    assert inside.wait(10)
    seen: list[int] = []
    reader = threading.Thread(target=lambda: seen.append(len(store.find(U))))
    reader.start()
    reader.join(5)
    finished_during_write = not reader.is_alive()
    release.set()
    writer.join(10)
    reader.join(10)
    assert finished_during_write, "a read waited for the writer's transaction"
    assert seen == [1]
    assert store.setting("k") == "v"
    store.close()


def test_concurrent_reads_and_writes_see_every_committed_item(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    rng = np.random.default_rng(0)
    written: list[int] = []

    def work(index: int) -> None:
        if index == 0:
            for n in range(60):
                item = _item(n)
                store.put([item], vectors={item.id: rng.standard_normal(8).astype(np.float32)}, model="m")
                written.append(n)
            return
        for _ in range(200):
            before = len(written)
            ids, matrix = store.vectors(U, "m")
            assert len(ids) == matrix.shape[0] >= before
            assert len(store.find(U, Filter())) >= before
            assert len(store.keyword(U, ["billing"], Filter(), 100)) >= before

    assert run_in_threads(work, 4) == []
    ids, matrix = store.vectors(U, "m")
    assert len(ids) == 60 and matrix.shape == (60, 8)
    assert store._readers is not None and store._readers._opened <= READERS
    store.close()


def test_the_pool_is_bounded_and_a_busy_pool_falls_back_to_the_store_connection(tmp_path: Path) -> None:
    opened: list[sqlite3.Connection] = []

    def open_() -> sqlite3.Connection:
        db = sqlite3.connect(tmp_path / "x.db", check_same_thread=False)
        opened.append(db)
        return db

    pool = Readers(open_, size=2)
    with pool.connection() as a, pool.connection() as b, pool.connection() as c:
        assert a is not None and b is not None and c is None
    assert len(opened) == 2
    with pool.connection() as again:
        assert again in opened  # reused, not a new one
    pool.close()
    with pool.connection() as after:
        assert after is None


def test_a_store_read_while_the_pool_is_busy_still_answers(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    store.put([_item(1)])
    assert store._readers is not None
    held = [store._readers._checkout() for _ in range(READERS)]
    assert all(db is not None for db in held)
    assert len(store.find(U)) == 1  # through the store's own connection
    for db in held:
        assert db is not None
        store._readers._checkin(db)
    store.close()


def test_closing_the_store_closes_its_read_connections(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "m.db")
    store.put([_item(1)])
    assert store._readers is not None
    with store._readers.connection() as db:
        assert db is not None
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("SELECT 1")
    with pytest.raises(StoreUnavailable, match="closed"):
        store.find(U)
    assert not (tmp_path / "m.db-wal").exists() or (tmp_path / "m.db-wal").stat().st_size == 0


def test_an_in_memory_store_reads_on_its_one_connection() -> None:
    store = SQLiteStore(":memory:")
    store.put([_item(1)])
    assert store._readers is None and len(store.find(U)) == 1
    store.close()


def test_threads_recall_through_one_memory_with_a_writer(tmp_path: Path) -> None:
    with Memory(str(tmp_path / "m.db"), embedder=HashingEmbedder(256)) as mem:
        mem.remember_many(U, [f"Works on project number {n} in the billing team." for n in range(40)])

        def work(index: int) -> None:
            for n in range(15):
                if index == 0:
                    mem.remember(U, f"Visited office number {n} last spring.")
                else:
                    assert mem.recall(U, "which project in billing?", k=5)

        assert run_in_threads(work, 4) == []
        assert sum("office" in m.text for m in mem.items(U)) == 15
