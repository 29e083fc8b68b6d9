"""LangGraph store operations on EngramStore against LangGraph's InMemoryStore, in one run.

Both stores get the same items and the same embedder (hashing by default: this times the
stores, not the model). Each operation's median time is reported with its ratio to
InMemoryStore's: what persistence, the write check, history and hybrid recall cost per call.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

OPERATIONS = ("put", "get", "search_filter", "search_query", "list_namespaces")


def _timed(call: Callable[[int], Any], n: int) -> float:
    """Median seconds of `call(i)` over n calls."""
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        call(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _measure(store: Any, items: int, rounds: int) -> dict[str, float]:
    namespace = ("bench", "user")
    text = "The user mentioned detail number {} about their travel plans and their dog."
    out = {"put": _timed(lambda i: store.put(namespace, f"k{i}", {"text": text.format(i), "n": i}), items)}
    out["get"] = _timed(lambda i: store.get(namespace, f"k{i % items}"), rounds)
    out["search_filter"] = _timed(lambda i: store.search(("bench",), filter={"n": i % items}), rounds)
    out["search_query"] = _timed(lambda i: store.search(("bench",), query=f"detail {i} travel dog", limit=5), rounds)
    out["list_namespaces"] = _timed(lambda i: store.list_namespaces(prefix=("bench",)), rounds)
    return out


def run(items: int = 200, rounds: int = 50, embedder: str = "hashing", folder: str | None = None) -> list[dict[str, Any]]:
    """One row per operation: median µs on each store and EngramStore's ratio to InMemoryStore."""
    from langgraph.store.memory import InMemoryStore

    from engram.core.memory import Memory
    from engram.embed import get_embedder
    from engram.integrations.langgraph import EngramStore

    model = get_embedder(embedder)
    baseline = InMemoryStore(index={"dims": model.dim, "fields": ["text"],
                                    "embed": lambda texts: model.embed(texts).tolist()})
    path = os.path.join(folder or tempfile.mkdtemp(prefix="engram-store-bench-"), "store.db")
    with Memory(path, embedder=model) as mem:
        engram = _measure(EngramStore(mem, index={"fields": ["text"]}), items, rounds)
    memory = _measure(baseline, items, rounds)
    return [{"operation": op, "engram_us": round(engram[op] * 1e6, 1), "inmemory_us": round(memory[op] * 1e6, 1),
             "ratio": round(engram[op] / memory[op], 1) if memory[op] else None} for op in OPERATIONS]
