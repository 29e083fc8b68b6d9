"""Statements per recall on PostgreSQL, and each one's time: a warm 1-client profile.

    python benchmarks/pg_statements.py postgresql://user@host/db [recalls]

The store is one `engram bench tenants` built (300 subjects `tenant:0..299`, e.g. `engram bench
tenants --db URL --subjects 300 --items 300`). Every subject is asked once (warm-up: name books,
id lists), then `recalls` random (subject, question) pairs are timed while every
`psycopg.Cursor.execute` is counted and timed, by thread (the access-count flush runs on a timer
thread). Prints recall p50/p95 and, per statement, how many per recall, the median and mean
milliseconds. With PROFILE=1 also a cProfile of the timed recalls (client-side Python time).
"""

from __future__ import annotations

import collections
import os
import random
import re
import sys
import threading
import time

import psycopg

from engram.bench.tenants import questions
from engram.core.memory import Memory


def main() -> None:
    url = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    counts: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    on = [False]
    original = psycopg.Cursor.execute

    def execute(self, query, params=None, **kwargs):  # type: ignore[no-untyped-def]
        if not on[0]:
            return original(self, query, params, **kwargs)
        started = time.perf_counter()
        try:
            return original(self, query, params, **kwargs)
        finally:
            text = query if isinstance(query, str) else str(query)
            key = (threading.current_thread().name[:14], re.sub(r"\s+", " ", text)[:110])
            counts[key].append(time.perf_counter() - started)

    psycopg.Cursor.execute = execute  # type: ignore[method-assign]
    mem = Memory(url, embedder="minilm")
    rng = random.Random(5)
    asked = questions()
    names = [f"tenant:{i}" for i in range(300)]
    for subject in rng.sample(names, len(names)):
        mem.recall(subject, rng.choice(asked), k=10)
    plan = [(rng.choice(names), rng.choice(asked)) for _ in range(n)]
    profile = None
    if os.environ.get("PROFILE"):
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    on[0] = True
    times = []
    for subject, question in plan:
        started = time.perf_counter()
        mem.recall(subject, question, k=10)
        times.append((time.perf_counter() - started) * 1000)
    on[0] = False
    if profile is not None:
        import pstats

        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
    times.sort()
    print(f"recalls {n}: p50 {times[n // 2]:.2f} p95 {times[int(n * 0.95)]:.2f} ms; load {os.getloadavg()}")
    for (thread, text), taken in sorted(counts.items(), key=lambda kv: -sum(kv[1])):
        median = sorted(taken)[len(taken) // 2] * 1000
        print(f"{len(taken) / n:6.2f}/recall median {median:7.3f} mean {1000 * sum(taken) / len(taken):7.3f} ms"
              f" [{thread}] {text}")
    main_thread = sum(len(t) for (thread, _), t in counts.items() if thread == "MainThread")
    print(f"statements per recall (recall's own thread): {main_thread / n:.2f}")
    mem.close()


if __name__ == "__main__":
    main()
