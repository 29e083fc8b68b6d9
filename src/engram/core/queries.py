"""A bounded LRU of query embeddings, for agents that ask the same thing again.

One per `Memory` (`query_cache` entries, ENGRAM_QUERY_CACHE, 1024 by default, 0 for none), keyed
by the embedder's identity and the exact text embedded, and bound to the one embedder object it
was filled by: asked with another, it empties first, so a vector never outlives its model.
Thread-safe; the vectors it hands out are read-only. Hits and misses are counted for
`Memory.stats()["query_cache"]`. Benchmarks run with it off (or with questions that never
repeat) and report its hit rate apart.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

import numpy as np
from cachetools import LRUCache

from engram.embed.base import Embedder


class QueryCache:
    """text -> query vector for one embedder, at most `size` entries, least recently used out first."""

    def __init__(self, size: int) -> None:
        self.size = max(0, int(size))
        self._vectors: LRUCache[tuple[str, str], np.ndarray] = LRUCache(maxsize=max(self.size, 1))
        self._owner: weakref.ref[Embedder] | None = None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def embed(self, embedder: Embedder, text: str) -> np.ndarray:
        """`embedder.embed_one(text)`, from the cache when this embedder embedded this text before."""
        return self.embed_many(embedder, [text])[0]

    def embed_many(self, embedder: Embedder, texts: Sequence[str]) -> list[np.ndarray]:
        """`embed` for several texts, the ones not cached embedded in one batch (every one of
        them when the cache is off)."""
        if self.size <= 0:
            return [np.asarray(v, dtype=np.float32) for v in embedder.embed(list(texts))]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            if self._owner is None or self._owner() is not embedder:
                self._vectors.clear()
                self._owner = weakref.ref(embedder)
            for text in texts:
                vector = self._vectors.get((embedder.identity, text))
                if vector is not None:
                    found[text] = vector
            self.hits += len(found)
            missing = [t for t in dict.fromkeys(texts) if t not in found]
            self.misses += len(missing)
        if missing:
            for text, raw in zip(missing, embedder.embed(missing)):
                vector = np.array(raw, dtype=np.float32)
                vector.flags.writeable = False
                found[text] = vector
            with self._lock:
                if self._owner is not None and self._owner() is embedder:
                    self._vectors.update(((embedder.identity, t), found[t]) for t in missing)
        return [found[t] for t in texts]

    def clear(self) -> None:
        """Drop every vector (and the hit counts)."""
        with self._lock:
            self._vectors.clear()
            self.hits = self.misses = 0

    def stats(self) -> dict[str, float | int]:
        """Entries, bound, hits, misses and hit rate (hits / lookups; 0 before the first)."""
        with self._lock:
            lookups = self.hits + self.misses
            return {"entries": len(self._vectors), "max_entries": self.size, "hits": self.hits,
                    "misses": self.misses, "hit_rate": round(self.hits / lookups, 4) if lookups else 0.0}
