"""Where one recall's time goes: `engram bench latency --steps`.

Each question is recalled (k=10, query cache off) with `Memory._steps` set, so recall charges
its own steps (engram.core.steps): `validate` (arguments), `vectors` (the store's cached matrix:
one version read), `names` (the subject's name book), `keyword` (the store's BM25 search, SQL
included), `cues` (what needs no vector: keyword z-scores, a restrictive filter's rows, the
question's "When" and dates, done while the worker embeds), `wait` (for the worker thread: query embedding and vector scan, when they outlast the
keyword search), `prerank` (z-scores, pool, the fetch-free score), `fetch` (SQL and Item objects
of the shortlist and its neighbours), `fuse` (every ranking term), `top_k`, `hits` (Hit objects,
the access record); on the worker: `embed` and `scan`. `layer` is each recall's time minus its
own query embedding: what the memory layer costs.

`fetch` is split by timing `Store.get` of the same ids against the same SQL through
`Store.query` (`fetch_sql`, and `fetch_objects` = the rest). Each ranking term's share of `fuse`
(`terms`) is fuse with every term minus fuse with that term's weight at 0, over the same fetched
items and signals (terms that cost nothing when off show ~0).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engram.bench.report import embedder_of, percentiles

if TYPE_CHECKING:
    from engram.core.memory import Memory

#: Ranking terms whose cost `terms` reports (each turned off in turn).
TERMS = ("entity", "time", "date", "question", "session", "focus", "context", "recency")


def recall_steps(mem: Memory, subject: str, queries: Sequence[str], rounds: int) -> dict[str, Any]:
    """p50 ms of every step of `Memory.recall` (k=10) over the queries, and of the layer's own cost."""
    from engram.core.steps import UNTIMED, Steps

    cache_size = mem.query_cache.size
    mem.query_cache.size = 0  # every question embedded: no cache hit hides the embedding
    samples: dict[str, list[float]] = {}
    try:
        for q in queries:  # warm-up
            mem.recall(subject, q, k=10)
        for _ in range(rounds):
            for q in queries:
                steps = Steps()
                mem._steps = steps
                t0 = time.perf_counter()
                mem.recall(subject, q, k=10)
                total = (time.perf_counter() - t0) * 1000.0
                mem._steps = UNTIMED
                for name, ms in steps.ms.items():
                    samples.setdefault(name, []).append(ms)
                samples.setdefault("recall", []).append(total)
                samples.setdefault("layer", []).append(total - steps.ms.get("embed", 0.0))
    finally:
        mem._steps = UNTIMED
        mem.query_cache.size = cache_size
    out: dict[str, Any] = {name: percentiles(values)["p50"] for name, values in samples.items()}
    out.update(_fetch_split(mem, subject, queries, rounds))
    out["terms"] = _term_costs(mem, subject, queries, rounds)
    return out


def _around(mem: Memory, subject: str) -> Any:
    """The subject's write-order neighbours, as recall reads them: id -> (previous, next)."""
    from engram.core.recall import positions

    ids, _ = mem.store.vectors(subject, embedder_of(mem).identity)
    position = positions(ids)
    last = len(ids) - 1

    def around(item_id: str) -> tuple[str | None, str | None]:
        i = position.get(item_id)
        if i is None:
            return None, None
        return (ids[i - 1] if i > 0 else None), (ids[i + 1] if i < last else None)

    return around


def _shortlist(mem: Memory, subject: str, query: str, around: Any) -> list[str]:
    """What a recall of `query` fetches: its best 40 and their write-order neighbours."""
    from engram.core.recall import SHORTLIST

    out: dict[str, None] = {}
    for hit in mem.recall(subject, query, k=SHORTLIST):
        out.setdefault(hit.id)
        for other in around(hit.id):
            if other is not None:
                out.setdefault(other)
    return list(out)


def _fetch_split(mem: Memory, subject: str, queries: Sequence[str], rounds: int) -> dict[str, float]:
    """`Store.get` of a shortlist against the same SQL alone: p50 ms of each, and their difference."""
    from engram.store.sql import SELECT_ITEMS
    from engram.store.sqlite import SQLiteStore

    if not isinstance(mem.store, SQLiteStore):
        return {}
    around = _around(mem, subject)
    lists = [_shortlist(mem, subject, q, around) for q in queries]
    whole: list[float] = []
    sql_only: list[float] = []
    for _ in range(rounds):
        for ids in lists:
            marks = ", ".join("?" * len(ids))
            t0 = time.perf_counter()
            mem.store.query(f"{SELECT_ITEMS} WHERE i.id IN ({marks})", ids)
            t1 = time.perf_counter()
            mem.store.get(ids)
            t2 = time.perf_counter()
            sql_only.append((t1 - t0) * 1000.0)
            whole.append((t2 - t1) * 1000.0)
    sql, get = percentiles(sql_only)["p50"], percentiles(whole)["p50"]
    return {"fetch_sql": sql, "fetch_get": get, "fetch_objects": round(max(0.0, get - sql), 2)}


def _term_costs(mem: Memory, subject: str, queries: Sequence[str], rounds: int) -> dict[str, float]:
    """p50 ms that each ranking term adds to fusion, over each question's own candidates."""
    from engram.core import ranking
    from engram.core.names import book
    from engram.core.recall import neighbours

    embedder = embedder_of(mem)
    ids, _ = mem.store.vectors(subject, embedder.identity)
    around = _around(mem, subject)
    names_book = book(mem.store, subject, embedder.identity, ids)
    cases = []
    now = time.time()
    for q in queries:
        hits = mem.recall(subject, q, k=40, explain=True)
        items = [h.item for h in hits]
        found = {it.id: it for it in items}
        names = names_book.mentioned(q)
        signals = ranking.Signals(
            keyword={h.id: h.components["keyword"] for h in hits}, vector={h.id: h.components["vector"] for h in hits},
            names=names, asks_when=ranking.asks_when(q), dates=ranking.query_dates(q, now),
            neighbours=neighbours([it.id for it in items], around, found))
        cases.append((items, signals))
    weights = mem.weights
    variants = {"all": weights, **{t: dataclasses.replace(weights, **{t: 0.0}) for t in TERMS}}
    samples: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for items, signals in cases:
            for name, w in variants.items():
                t0 = time.perf_counter()
                ranking.fuse(items, signals, now, w)
                samples[name].append((time.perf_counter() - t0) * 1000.0)
    every = percentiles(samples["all"])["p50"]
    out = {"fuse_all": every}
    out.update({t: round(max(0.0, every - percentiles(samples[t])["p50"]), 3) for t in TERMS})
    return out
