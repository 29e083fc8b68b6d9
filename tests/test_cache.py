"""engram.store.cache.BoundedCache: LRU by entries and by bytes, per-subject invalidation, counts."""

from engram.store.cache import BoundedCache


def test_least_recently_used_goes_first_by_entries_and_by_bytes():
    cache: BoundedCache[str] = BoundedCache(max_entries=2, max_bytes=100)
    cache.put("s", "a", "A", 10)
    cache.put("s", "b", "B", 10)
    assert cache.get("s", "a") == "A"  # a is now the most recent
    cache.put("s", "c", "C", 10)
    assert cache.peek("s", "b") is None and cache.peek("s", "a") == "A"
    cache.put("t", "big", "X", 95)  # past the byte bound: the older entries go
    assert cache.peek("t", "big") == "X" and cache.stats()["bytes"] <= 100
    cache.put("t", "huge", "Y", 101)  # larger than the whole bound: not kept
    assert cache.peek("t", "huge") is None


def test_peek_neither_counts_nor_refreshes():
    cache: BoundedCache[int] = BoundedCache(max_entries=2, max_bytes=100)
    cache.put("s", "a", 1, 1)
    cache.put("s", "b", 2, 1)
    assert cache.peek("s", "a") == 1  # does not make a the most recent
    cache.put("s", "c", 3, 1)
    assert cache.peek("s", "a") is None and cache.peek("s", "b") == 2
    assert cache.stats()["hits"] == 0 and cache.stats()["misses"] == 0


def test_invalidate_drops_one_subject_and_its_bytes():
    cache: BoundedCache[int] = BoundedCache(max_entries=10, max_bytes=100)
    cache.put("s", "a", 1, 30)
    cache.put("t", "a", 2, 20)
    cache.invalidate("s")
    assert cache.get("s", "a") is None and cache.get("t", "a") == 2
    assert cache.stats()["bytes"] == 20 and cache.stats()["entries"] == 1
    assert cache.stats()["hit_rate"] == 0.5
