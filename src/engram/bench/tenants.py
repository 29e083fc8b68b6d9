"""Many tenants, many clients: S subjects x M items in one store, recalls to random subjects from
C threads sharing one `Memory` (as `engram serve` runs them), on SQLite or PostgreSQL.

- the store: `db` (kept), else a fresh database on the `server` given by `--store` (dropped
  afterwards), else a temporary SQLite file;
- filling: real embedded sentences while S x M <= `embed_limit`; past it, MiniLM-like vectors
  fitted to embedded facts (engram.bench.latency.minilm_like), written through `Store.put`;
- questions: drawn at random from >= 1,000 distinct generated questions (`questions()`), so no
  cache of query embeddings can serve them; every recall embeds its question (k=10);
- warm-up: the first `warmup` recalls (1,000 by default, and at least one per subject: every
  subject is asked once first, in a shuffled order) are not timed; RSS is read then ("warm") and
  after the timed recalls ("end"). A subject's first recall in a process also fills its caches
  (its name book, and on PostgreSQL its write order), so after the warm-up RSS shows what the
  bounded caches hold, not how many subjects happened to be asked yet.
- processes: with `processes` > 1 the clients are that many processes, each with its own `Memory`
  over the same store and `clients` threads, the embedder's threads set to its share of the cores
  (as `engram serve --workers N` runs them); each process does the whole warm-up (its own caches),
  the timed recalls are dealt out among them and start together; RSS is summed over them.
Result keys: store, subjects, items, clients, processes, recall_ms {p50, p95}, recalls_per_s,
rss_mb {warm, end}.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import random
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.bench.latency import NAMES, THINGS, WHEN, fill, minilm_like, sentences
from engram.bench.report import embedder_of, percentiles
from engram.bench.scratch import scratch_store, store_kind

if TYPE_CHECKING:
    from engram.core.memory import Memory

WARMUP = 1000
ASKS = ["What does {name} think about {thing} {when}?", "When did {name} mention {thing}?",
        "Who talked with {name} about {thing} {when}?"]


def questions() -> list[str]:
    """Every generated question (3 x 10 x 16 x 10 templates: 4,800 before dedupe), all distinct."""
    out = [ask.format(name=name, thing=thing, when=when) for ask in ASKS for name in NAMES for thing in THINGS
           for when in WHEN]
    return list(dict.fromkeys(out))


def current_rss_mb() -> float:
    """This process's resident set size now, in MiB (Linux /proc; 0.0 where unavailable)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def run(subjects: int, items: int, clients: int, *, server: str | None = None, db: str | None = None,
        embedder: str | None = None, embed_limit: int = 20_000, recalls: int = 4000, warmup: int = WARMUP,
        seed: int = 11, folder: str | None = None, echo: Callable[[str], None] | None = None,
        processes: int = 1) -> dict[str, Any]:
    """Fill the store, warm it up, then time `recalls` recalls spread over `clients` threads (in
    each of `processes` processes)."""
    from engram.core.memory import Memory

    asked = questions()
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="engram-tenants-", dir=folder)))
        url = db or stack.enter_context(scratch_store(server, tmp, "tenants"))
        mem = stack.enter_context(Memory(url, embedder=embedder or "minilm"))
        if mem.embedder is None:
            raise ValueError("the tenants bench embeds every question: pick an embedder, not 'none'")
        names = [f"tenant:{n}" for n in range(subjects)]
        if not db or not mem.store.subjects():
            _fill(mem, names, items, embed_limit, echo)
        rng = random.Random(seed)
        plan = _plan(rng, names, asked, warmup, recalls)
        warmup = len(plan) - recalls
        if processes > 1:
            mem.close()
            timings, elapsed, warm_rss, end_rss = _in_processes(url, embedder or "minilm", plan, warmup,
                                                                 clients, processes)
        else:
            _drive(mem, plan[:warmup], clients)
            warm_rss = current_rss_mb()
            started = time.perf_counter()
            timings = _drive(mem, plan[warmup:], clients)
            elapsed = time.perf_counter() - started
            end_rss = current_rss_mb()
        kind = store_kind(server) if not db else ("postgresql" if url.startswith("postgres") else "sqlite")
    spread = percentiles(timings)
    return {"store": kind, "subjects": subjects, "items": items, "clients": clients * processes,
            "processes": processes,
            "recall_ms": {"p50": spread["p50"], "p95": spread["p95"]},
            "recalls_per_s": round(len(timings) / elapsed, 1) if elapsed else 0.0,
            "rss_mb": {"warm": warm_rss, "end": end_rss}}


def _plan(rng: random.Random, names: list[str], asked: list[str], warmup: int,
          recalls: int) -> list[tuple[str, str]]:
    """(subject, question) pairs: the warm-up asks every subject once (in a shuffled order) and
    then random subjects up to `warmup` recalls, so each subject's caches have had their first
    fill when RSS is read "warm"; the timed recalls ask random subjects."""
    first = rng.sample(names, len(names)) if warmup else []
    subjects = first + [rng.choice(names) for _ in range(max(0, warmup - len(first)) + recalls)]
    return [(subject, rng.choice(asked)) for subject in subjects]


def _fill(mem: Memory, names: list[str], items: int, embed_limit: int, echo: Callable[[str], None] | None) -> None:
    """Real embedded sentences while the store is small; fitted vectors past `embed_limit` items."""
    embedded = len(names) * items <= embed_limit
    vectors = None if embedded else minilm_like(mem.embedder)
    now = time.time()
    for n, subject in enumerate(names):
        if vectors is None:
            mem.remember_many(subject, sentences(items, seed=n), now=now)
        else:
            fill(mem.store, subject, items, embedder_of(mem).identity, n, now, vectors)
        if echo and (n + 1) % max(1, len(names) // 10) == 0:
            echo(f"filled {n + 1}/{len(names)} subjects")


def _drive(mem: Memory, plan: list[tuple[str, str]], clients: int) -> list[float]:
    """Run the planned recalls on `clients` threads sharing `mem`; each recall's milliseconds.
    Any error stops the bench: a many-clients run must have none."""
    timings: list[float] = []
    errors: list[BaseException] = []
    cursor = iter(range(len(plan)))
    lock = threading.Lock()

    def client() -> None:
        while not errors:
            with lock:
                index = next(cursor, None)
            if index is None:
                return
            subject, question = plan[index]
            try:
                t0 = time.perf_counter()
                mem.recall(subject, question, k=10)
                took = (time.perf_counter() - t0) * 1000
            except BaseException as exc:  # noqa: BLE001 - re-raised below, in the caller's thread
                errors.append(exc)
                return
            with lock:
                timings.append(took)

    threads = [threading.Thread(target=client, name=f"engram-bench-client-{i}") for i in range(max(1, clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return timings


def _in_processes(url: str, embedder: str, plan: list[tuple[str, str]], warmup: int, clients: int,
                  processes: int) -> tuple[list[float], float, float, float]:
    """Run the plan in `processes` spawned processes: timings, elapsed seconds (first start to last
    finish) and RSS warm and end, summed over the processes."""
    from engram.interfaces.workers import threads_per_worker

    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(processes)
    results: Any = context.Queue()
    threads = os.environ.get("ENGRAM_EMBED_THREADS") or str(threads_per_worker(processes))
    timed = plan[warmup:]
    workers = [context.Process(target=_process_client, name=f"engram-bench-process-{n}",
                               args=(url, embedder, threads, plan[:warmup], timed[n::processes], clients,
                                     ready, results))
               for n in range(processes)]
    for worker in workers:
        worker.start()
    reports: list[dict[str, Any]] = []
    try:
        while len(reports) < processes:
            try:
                reports.append(results.get(timeout=5))
            except queue.Empty:
                if any(w.exitcode not in (None, 0) for w in workers):
                    raise RuntimeError("a bench process died: "
                                       f"exit codes {[w.exitcode for w in workers]}") from None
    finally:
        for worker in workers:
            worker.join(60)
    failed = [r["error"] for r in reports if "error" in r]
    if failed:
        raise RuntimeError(f"a bench process failed: {failed[0]}")
    timings = [t for r in reports for t in r["timings"]]
    elapsed = max(r["end"] for r in reports) - min(r["start"] for r in reports)
    return (timings, elapsed, round(sum(r["warm"] for r in reports), 1),
            round(sum(r["end_rss"] for r in reports), 1))


def _process_client(url: str, embedder: str, threads: str, warm: list[tuple[str, str]],
                    timed: list[tuple[str, str]], clients: int, ready: Any, results: Any) -> None:
    """One bench process: its own Memory, the warm-up, then (with the others) its timed share."""
    os.environ["ENGRAM_EMBED_THREADS"] = threads  # read when the embedder loads its model
    from engram.core.memory import Memory

    try:
        with Memory(url, embedder=embedder) as mem:
            _drive(mem, warm, clients)
            warm_rss = current_rss_mb()
            ready.wait()
            start = time.monotonic()
            timings = _drive(mem, timed, clients)
            end = time.monotonic()
            results.put({"timings": timings, "start": start, "end": end, "warm": warm_rss,
                         "end_rss": current_rss_mb()})
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
        ready.abort()
        results.put({"error": f"{type(exc).__name__}: {exc}"})
