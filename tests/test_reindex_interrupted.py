"""`engram reindex` killed with SIGKILL half-way loses no vector, says so, and resumes (both backends)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engram.core.memory import Memory
from engram.embed import get_embedder
from engram.embed.hashing import HashingEmbedder
from engram.errors import EmbedderMismatch
from engram.store import open_store

U = "user:7"
N = 400
SRC = str(Path(__file__).resolve().parent.parent / "src")


def _engram(url: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "engram.interfaces.cli", "--db", url, *args]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _staged(url: str, model: str) -> int:
    store = open_store(url)
    try:
        return len(store.staged_ids(model))  # type: ignore[attr-defined]
    finally:
        store.close()


def test_a_killed_reindex_keeps_the_old_vectors_refuses_the_new_model_and_resumes(store_url: str) -> None:
    facts = [f"Fact number {n}: the project code name {n} is topic {n % 17}." for n in range(N)]
    with Memory(store_url, embedder=HashingEmbedder(64)) as mem:
        mem.remember_many(U, facts)
        before = mem.stats()["vectors"]
    assert before == {"model": "hashing:64", "covered": N, "items": N}
    target = get_embedder("minilm").identity

    proc = subprocess.Popen(_engram(store_url, "--embedder", "minilm", "reindex", "--batch-size", "4", "--json"),
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _staged(store_url, target) < 20:  # some batches written, far from all
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "reindex staged nothing in 120 s"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 0 < _staged(store_url, target) < N

    # The store still searches the old model, and every item still has its vector.
    with Memory(store_url, embedder=HashingEmbedder(64)) as old:
        stats = old.stats()
        assert stats["vectors"] == {"model": "hashing:64", "covered": N, "items": N}
        assert stats["reindex_unfinished"] == target
        assert old.recall(U, facts[N - 1], k=1)[0].text == facts[N - 1]
    # The new model is refused with a word on what to do.
    with Memory(store_url, embedder="minilm") as new, pytest.raises(EmbedderMismatch, match="unfinished.*reindex.*again"):
        new.recall(U, "topic 3")

    done = subprocess.run(_engram(store_url, "--embedder", "minilm", "reindex", "--json"), env=_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"reindexed": N, "embedder": target}
    shown = subprocess.run(_engram(store_url, "--embedder", "minilm", "stats", "--json"), env=_env(),
                           capture_output=True, text=True, timeout=120)
    stats = json.loads(shown.stdout)
    assert stats["vectors"] == {"model": target, "covered": N, "items": N}
    assert stats["reindex_unfinished"] is None
    assert _staged(store_url, target) == 0
    with Memory(store_url, embedder="minilm") as new:
        assert new.store.vector_models() == {target: N}  # type: ignore[attr-defined]
        assert new.recall(U, "code name 123", k=3)
