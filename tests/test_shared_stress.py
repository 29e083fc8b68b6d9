"""Many processes on one SQLite file: every acknowledged write is present, no error reaches callers."""

from __future__ import annotations

import multiprocessing as mp

import pytest

from engram.embed.hashing import HashingEmbedder
from engram.core.memory import Memory

JOB = "job:stress"


def worker(path: str, n: int, index: int, queue: "mp.Queue[tuple[int, list[str], list[str]]]") -> None:
    ids: list[str] = []
    errors: list[str] = []
    with Memory(path, embedder=HashingEmbedder(64), agent=f"agent:w{index}") as mem:
        for i in range(n):
            try:
                saved = mem.remember(JOB, f"Worker {index} observation number {i} about the shared job.",
                                     source=f"agent:w{index} step {i}")
                assert saved.saved, saved.reason
                ids.append(saved.id)
                if i % 10 == 0:
                    mem.recall(JOB, f"observation {i} shared job", k=5)
            except Exception as exc:  # noqa: BLE001 - the test reports every error a caller would have seen
                errors.append(f"{type(exc).__name__}: {exc}")
    queue.put((index, ids, errors))


def run_workers(path: str, processes: int, n: int) -> tuple[list[str], list[str]]:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(path, n, i, queue)) for i in range(processes)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=600) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    ids = [i for _, got, _ in results for i in got]
    errors = [e for _, _, errs in results for e in errs]
    return ids, errors


def check_all_present(path: str, ids: list[str], writers: int) -> None:
    with Memory(path, embedder=HashingEmbedder(64)) as mem:
        stored = mem.items(JOB)
        assert {it.id for it in stored} == set(ids)
        assert {it.agent for it in stored} == {f"agent:w{i}" for i in range(writers)}


def test_four_processes_share_one_file(tmp_path):
    path = str(tmp_path / "shared.db")
    Memory(path, embedder=HashingEmbedder(64)).close()
    ids, errors = run_workers(path, 4, 100)
    assert errors == []
    assert len(ids) == 400
    check_all_present(path, ids, 4)


@pytest.mark.slow
def test_eight_processes_thousand_writes_each(tmp_path):
    path = str(tmp_path / "shared.db")
    Memory(path, embedder=HashingEmbedder(64)).close()
    ids, errors = run_workers(path, 8, 1000)
    assert errors == []
    assert len(ids) == 8000
    check_all_present(path, ids, 8)
