"""The SQLite store's checkpoints run on their own thread (engram.store.sqlite_checkpoint): the
log is copied into the database file, a delete's scrub still truncates it, and the log starts over
instead of growing."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.store import sqlite_checkpoint
from engram.store.sqlite import SQLiteStore

U = "user:1"


def _facts(n: int, start: int = 0) -> list[str]:
    return [f"Fact number {i} about the billing service and its nightly job." for i in range(start, start + n)]


def _checkpointer(mem: Memory) -> sqlite_checkpoint.Checkpointer:
    assert isinstance(mem.store, SQLiteStore) and mem.store._checkpoints is not None
    return mem.store._checkpoints


def test_writes_past_the_threshold_reach_the_database_file_without_the_log(tmp_path: Path) -> None:
    """After enough changed rows the thread copies the log into the database: a copy of the
    database file alone (no -wal beside it) holds every item written before."""
    db = tmp_path / "m.db"
    with Memory(str(db), embedder=HashingEmbedder()) as mem:
        checkpoints = _checkpointer(mem)
        written = 0
        while checkpoints.runs == 0 and written < 5_000:
            mem.remember_many(U, _facts(50, written))
            written += 50
            checkpoints.wait()
        assert checkpoints.runs >= 1
        shutil.copy(db, tmp_path / "alone.db")  # the database file only: no -wal, no -shm
        con = sqlite3.connect(tmp_path / "alone.db")
        try:
            assert con.execute("SELECT count(*) FROM items WHERE subject = ?", (U,)).fetchone()[0] == written
        finally:
            con.close()


def test_the_log_starts_over_instead_of_growing(tmp_path: Path) -> None:
    """Many checkpoints' worth of single writes: the -wal file stays near one interval's pages,
    far below the backstop at which a write would checkpoint itself. (Each run is waited for, so
    how fast this machine's thread is does not decide it; the writer that keeps the lock from the
    thread is the next test.)"""
    db = tmp_path / "m.db"
    with Memory(str(db), embedder=HashingEmbedder()) as mem:
        checkpoints = _checkpointer(mem)
        largest = 0
        for text in _facts(1_500):
            mem.remember(U, text)
            checkpoints.wait()
            largest = max(largest, os.path.getsize(f"{db}-wal"))
        assert checkpoints.runs >= 5
        assert largest < sqlite_checkpoint.BACKSTOP_PAGES * 4096 / 2


def test_a_short_pass_kept_from_the_lock_is_finished_by_the_next_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose bulk pass cannot copy everything (a reader holds an older snapshot) and whose
    short pass cannot get the write lock leaves pages behind: the writer's next commit copies
    them, so the log is copied whole and starts over."""
    monkeypatch.setattr(sqlite_checkpoint, "PAGES", 10**9)  # runs started by this test only
    db = tmp_path / "m.db"
    with Memory(str(db), embedder=HashingEmbedder()) as mem:
        assert isinstance(mem.store, SQLiteStore)
        checkpoints = _checkpointer(mem)
        mem.remember_many(U, _facts(40))
        reader = sqlite3.connect(db, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM items").fetchone()  # a snapshot before the next writes
        mem.remember_many(U, _facts(40, 40))
        held, release = threading.Event(), threading.Event()

        def hold_the_write_lock() -> None:
            with mem.store._lock:
                held.set()
                release.wait()

        holder = threading.Thread(target=hold_the_write_lock)
        holder.start()
        held.wait()
        checkpoints._run()  # bulk pass stops at the reader's snapshot; the short pass finds the lock taken
        release.set()
        holder.join()
        reader.execute("COMMIT")
        reader.close()
        with open(f"{db}-shm", "rb", buffering=0) as shm:
            assert (sqlite_checkpoint.uncopied_pages(shm) or 0) > 10  # left behind
            mem.remember(U, "One more fact about the nightly job's retries.")
            assert sqlite_checkpoint.uncopied_pages(shm) == 0  # that commit copied the rest
            mem.remember(U, "And one about the billing service's owner.")
            pages = sqlite_checkpoint.uncopied_pages(shm)
            assert pages is not None and 0 < pages < 40  # the log started over, not grown


def test_a_forget_during_background_checkpoints_still_scrubs_the_log(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(str(db), embedder=HashingEmbedder()) as mem:
        mem.remember(U, "The vault code is kept in the blue folder on the shelf.")
        for start in range(0, 600, 50):
            mem.remember_many(U, _facts(50, start))
        assert mem.forget(U, "blue folder") == 1
        assert mem.leftovers is None
        assert os.path.getsize(f"{db}-wal") == 0  # truncated by the scrub
        assert b"blue folder" not in db.read_bytes()


def test_closing_stops_the_thread_and_its_connection(tmp_path: Path) -> None:
    mem = Memory(str(tmp_path / "m.db"), embedder=HashingEmbedder())
    checkpoints = _checkpointer(mem)
    for start in range(0, 300, 50):
        mem.remember_many(U, _facts(50, start))
    mem.close()
    assert checkpoints._db is None
    checkpoints.after_commit(10**9)  # a commit after close starts nothing
    assert checkpoints._thread is None or not checkpoints._thread.is_alive()


def test_the_pages_left_to_copy_are_read_from_the_wal_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`uncopied_pages` reads the -shm header as SQLite lays it out: the log's pages before a
    checkpoint (as the checkpoint itself counts them), none after it."""
    monkeypatch.setattr(sqlite_checkpoint, "PAGES", 10**9)  # no background checkpoint in this test
    db = tmp_path / "m.db"
    with Memory(str(db), embedder=HashingEmbedder()) as mem:
        assert isinstance(mem.store, SQLiteStore)
        mem.store.scrub()  # an empty log to start from
        mem.remember_many(U, _facts(40))
        with open(f"{db}-shm", "rb", buffering=0) as shm:
            before = sqlite_checkpoint.uncopied_pages(shm)
            con = sqlite3.connect(db)
            try:
                busy, pages, copied = con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                con.close()
            assert (busy, copied) == (0, pages) and before == pages > 10
            assert sqlite_checkpoint.uncopied_pages(shm) == 0
