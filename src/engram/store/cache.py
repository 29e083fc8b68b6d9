"""One bounded, thread-safe cache for per-subject data (both backends use it for vector matrices).

Entries are keyed by `(subject, name)` and carry a size in bytes; the least recently used are
dropped first once either bound (entries or bytes) is passed. `invalidate(subject)` drops every
entry of one subject. A writer that changed an entry in place (engram.store.rows) puts it again
with its new size. Hits and misses are counted for `engram stats`.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Generic, TypeVar

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
        self._entries: OrderedDict[tuple[str, str], tuple[V, int]] = OrderedDict()
        self._bytes = 0
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
            self._entries.move_to_end((subject, name))
            self.hits += 1
            return found[0]

    def peek(self, subject: str, name: str) -> V | None:
        """The value or None, without counting a lookup or refreshing its place (for writers)."""
        with self._lock:
            found = self._entries.get((subject, name))
            return None if found is None else found[0]

    def drop(self, subject: str, name: str) -> None:
        """Drop one entry, if held."""
        with self._lock:
            old = self._entries.pop((subject, name), None)
            if old is not None:
                self._bytes -= old[1]

    def put(self, subject: str, name: str, value: V, size: int) -> None:
        """Keep `value` (of `size` bytes); one larger than the whole bound is not kept."""
        with self._lock:
            old = self._entries.pop((subject, name), None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes or self.max_entries <= 0:
                return
            self._entries[(subject, name)] = (value, size)
            self._bytes += size
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped

    def invalidate(self, subject: str | None = None) -> None:
        """Drop every entry of `subject` (of every subject when None)."""
        with self._lock:
            for key in [k for k in self._entries if subject is None or k[0] == subject]:
                self._bytes -= self._entries.pop(key)[1]

    def stats(self) -> dict[str, float | int]:
        """Entries, bytes, bounds and hit rate (hits / lookups; 0 before the first lookup)."""
        with self._lock:
            lookups = self.hits + self.misses
            return {"entries": len(self._entries), "bytes": self._bytes, "max_entries": self.max_entries,
                    "max_bytes": self.max_bytes, "hits": self.hits, "misses": self.misses,
                    "hit_rate": round(self.hits / lookups, 4) if lookups else 0.0}
