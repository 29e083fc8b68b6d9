"""One bounded, thread-safe cache for per-subject data (both backends use it for vector matrices).

The eviction is `cachetools.LRUCache` (sized in bytes); this class adds the entry bound, the lock,
per-subject invalidation and the hit counts.

Entries are keyed by `(subject, name)` and carry a size in bytes; the least recently used are
dropped first once either bound (entries or bytes) is passed. `invalidate(subject)` drops every
entry of one subject. A writer that changed an entry in place (engram.store.rows) puts it again
with its new size. Hits and misses are counted for `engram stats`.
"""

from __future__ import annotations

import os
import threading
from typing import Generic, TypeVar

from cachetools import Cache, LRUCache

V = TypeVar("V")

#: Default bounds: at most this many entries, and this many megabytes (ENGRAM_CACHE_MB overrides).
MAX_ENTRIES = 1024
MAX_MB = 256


def default_bytes() -> int:
    """The byte bound: ENGRAM_CACHE_MB if set (a positive number), else MAX_MB."""
    raw = os.environ.get("ENGRAM_CACHE_MB", "")
    try:
        mb = float(raw) if raw else MAX_MB
    except ValueError:
        mb = MAX_MB
    return int(max(mb, 0.0) * (1 << 20))


class BoundedCache(Generic[V]):
    """An LRU map `(subject, name) -> value` bounded by entry count and total bytes."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int | None = None) -> None:
        self.max_entries = max_entries
        self.max_bytes = default_bytes() if max_bytes is None else max_bytes
        self._entries: LRUCache[tuple[str, str], tuple[V, int]] = LRUCache(
            maxsize=max(self.max_bytes, 1), getsizeof=lambda entry: entry[1])
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, subject: str, name: str) -> V | None:
        """The value, or None (a miss)."""
        with self._lock:
            found = self._entries.get((subject, name))
            if found is None:
                self.misses += 1
                return None
            self.hits += 1  # `get` refreshed its place
            return found[0]

    def peek(self, subject: str, name: str) -> V | None:
        """The value or None, without counting a lookup or refreshing its place (for writers)."""
        with self._lock:
            if (subject, name) not in self._entries:
                return None
            return Cache.__getitem__(self._entries, (subject, name))[0]  # Cache's own: no LRU refresh

    def drop(self, subject: str, name: str) -> None:
        """Drop one entry, if held."""
        with self._lock:
            self._entries.pop((subject, name), None)

    def put(self, subject: str, name: str, value: V, size: int) -> None:
        """Keep `value` (of `size` bytes); one larger than the whole bound is not kept."""
        with self._lock:
            self._entries.pop((subject, name), None)
            if size > self.max_bytes or self.max_entries <= 0:
                return
            self._entries[(subject, name)] = (value, size)  # evicts by bytes
            while len(self._entries) > self.max_entries:
                self._entries.popitem()  # the least recently used

    def invalidate(self, subject: str | None = None) -> None:
        """Drop every entry of `subject` (of every subject when None)."""
        with self._lock:
            for key in [k for k in self._entries if subject is None or k[0] == subject]:
                del self._entries[key]

    def stats(self) -> dict[str, float | int]:
        """Entries, bytes, bounds and hit rate (hits / lookups; 0 before the first lookup)."""
        with self._lock:
            lookups = self.hits + self.misses
            return {"entries": len(self._entries), "bytes": int(self._entries.currsize), "max_entries": self.max_entries,
                    "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses,
                    "hit_rate": round(self.hits / lookups, 4) if lookups else 0.0}
