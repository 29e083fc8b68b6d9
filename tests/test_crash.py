"""Crash safety: SIGKILL a writing process at random moments; nothing acknowledged is lost.

A forked child opens the store and writes in a loop (single facts, batches, superseding
preferences), appending each id to an acknowledgement file only after the call returned.
The parent kills it with SIGKILL after a random delay, 100 times over one SQLite file, and
after every kill checks `PRAGMA integrity_check`, that every acknowledged id is stored, and
that each preference key still has exactly one current value.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from engram.embed.hashing import HashingEmbedder
from engram.core.memory import Memory
from engram.store import keyword
from engram.store.base import Filter
from engram.store.sqlite import SQLiteStore

RUNS = 100
SEED = int(os.environ.get("ENGRAM_CRASH_SEED", "20261102"))


def writer(db: Path, acks: Path, run: int) -> None:
    """The child: write forever, acknowledging each returned id (os.write: no buffering to lose)."""
    fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    mem = Memory(str(db), embedder=HashingEmbedder(64))
    i = 0
    while True:
        i += 1
        if i % 7 == 0:
            saved = mem.remember_many("user:1", [f"Batch fact {run}-{i}-{j} for the crash test." for j in range(5)])
        elif i % 5 == 0:
            saved = [mem.set_preference("user:1", f"pref_{i % 3}", f"value {run}-{i}")]
        else:
            saved = [mem.remember("user:1", f"Crash test fact number {run}-{i} stays.")]
        os.write(fd, "".join(f"{s.id}\n" for s in saved if s.saved).encode())


def kill_during_writes(db: Path, acks: Path, run: int, delay: float) -> None:
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        try:
            writer(db, acks, run)
        finally:
            os._exit(0)
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def check(db: Path, acked: list[str]) -> None:
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert keyword.stale_subjects(raw, SQLiteStore.keyword_sql) == []  # the keyword index agrees with the items
    finally:
        raw.close()
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        stored = {it.id for it in mem.store.get(acked)}
        assert len(stored) == len(set(acked)), f"lost {len(set(acked) - stored)} acknowledged write(s)"
        current = mem.store.find("user:1", Filter(kinds=("preference",)))
        keys = [it.key for it in current]
        assert len(keys) == len(set(keys)), "a preference key has two current values"


@pytest.mark.slow
def test_sigkill_never_loses_an_acknowledged_write(tmp_path):
    rng = random.Random(SEED)
    db, acks = tmp_path / "crash.db", tmp_path / "acks.txt"
    total = 0
    for run in range(RUNS):
        kill_during_writes(db, acks, run, rng.uniform(0.01, 0.25))
        acked = acks.read_text().split()
        check(db, acked)
        total = len(acked)
    # Each child acknowledged writes before it died; otherwise the test proved nothing.
    assert total > RUNS * 5, f"only {total} writes were acknowledged in {RUNS} runs"
