"""Concurrent writers on one store: write throughput and recall latency, SQLite vs PostgreSQL.

Each writer is its own process (as separate agents would be) remembering `n` facts into one job
subject; one reader process recalls in a loop while they write. The hashing embedder keeps the
embedding model out of the measurement: this times the store, not the model.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Event

JOB = "job:bench"


def _writer(url: str, index: int, n: int, start: Event, out: Queue[Any]) -> None:
    from engram.embed.hashing import HashingEmbedder
    from engram.core.memory import Memory

    with Memory(url, embedder=HashingEmbedder(64), agent=f"agent:w{index}") as mem:
        start.wait()
        t0 = time.perf_counter()
        for i in range(n):
            mem.remember(JOB, f"Writer {index} noted fact number {i} about the benchmark job.")
        out.put(("write", index, time.perf_counter() - t0))


def _reader(url: str, stop: Event, start: Event, out: Queue[Any]) -> None:
    from engram.embed.hashing import HashingEmbedder
    from engram.core.memory import Memory

    latencies = []
    with Memory(url, embedder=HashingEmbedder(64)) as mem:
        start.wait()
        i = 0
        while not stop.is_set():
            t0 = time.perf_counter()
            mem.recall(JOB, f"fact number {i % 97} benchmark", k=10)
            latencies.append((time.perf_counter() - t0) * 1000)
            i += 1
    out.put(("read", latencies))


PREFILL = 1000  # items already in the job before the race, so every recall has real work


def measure(url: str, writers: int, n: int) -> dict[str, float]:
    """Run `writers` processes of `n` writes each against `url`, with one concurrent reader."""
    from engram.embed.hashing import HashingEmbedder
    from engram.core.memory import Memory

    with Memory(url, embedder=HashingEmbedder(64)) as mem:  # schema and a realistic subject first
        mem.remember_many(JOB, [f"Earlier note {i} about the benchmark job and its fact number {i % 97}."
                                for i in range(PREFILL)])
    ctx = mp.get_context("spawn")
    out, start, stop = ctx.Queue(), ctx.Event(), ctx.Event()
    procs = [ctx.Process(target=_writer, args=(url, i, n, start, out)) for i in range(writers)]
    reader = ctx.Process(target=_reader, args=(url, stop, start, out))
    for p in (*procs, reader):
        p.start()
    time.sleep(1.0)  # let every process import and connect
    t0 = time.perf_counter()
    start.set()
    results = [out.get(timeout=1800) for _ in procs]
    wall = time.perf_counter() - t0
    stop.set()
    latencies = np.asarray(out.get(timeout=60)[1] or [0.0])
    for p in (*procs, reader):
        p.join(timeout=60)
    assert all(kind == "write" for kind, *_ in results)
    return {
        "writers": writers,
        "writes": writers * n,
        "writes_per_s": round(writers * n / wall, 1),
        "recall_p50_ms": round(float(np.percentile(latencies, 50)), 2),
        "recall_p95_ms": round(float(np.percentile(latencies, 95)), 2),
        "recalls": int(latencies.size),
        "items_before": PREFILL,
    }


def run(backends: dict[str, Callable[[], str]], writers: Sequence[int] = (1, 4, 16), n: int = 200) -> list[dict[str, Any]]:
    """Every backend (name -> factory of a fresh store URL) at every writer count."""
    rows = []
    for name, fresh_url in backends.items():
        for w in writers:
            rows.append({"backend": name, **measure(fresh_url(), w, n)})
    return rows


def fresh_postgres_database(base_url: str) -> str:
    """Create an empty database on the server at `base_url`; return its URL."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    from engram.errors import require

    psycopg = require("psycopg", "postgres")
    name = f"engram_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path="/" + name))
