"""The query-embedding cache: bounded, never stale across embedders, answers unchanged."""

from __future__ import annotations

import threading

import numpy as np

from engram.core.memory import Memory
from engram.core.queries import QueryCache
from engram.embed import get_embedder
from engram.embed.hashing import HashingEmbedder

U = "user:1"


def test_the_cache_is_bounded_least_recently_used_out_first() -> None:
    embedder = HashingEmbedder(64)
    cache = QueryCache(3)
    for text in ("one", "two", "three"):
        cache.embed(embedder, text)
    cache.embed(embedder, "one")  # one is now the most recent
    cache.embed(embedder, "four")  # two, the least recent, goes
    assert cache.stats()["entries"] == 3
    before = cache.stats()["misses"]
    cache.embed(embedder, "one")
    cache.embed(embedder, "three")
    assert cache.stats()["misses"] == before  # both still held
    cache.embed(embedder, "two")
    assert cache.stats()["misses"] == before + 1  # dropped, embedded again
    assert cache.stats()["hits"] == 3 and cache.stats()["entries"] == 3


def test_a_cached_vector_is_the_embedders_own_and_read_only() -> None:
    embedder = get_embedder("minilm")  # the real model
    cache = QueryCache(8)
    first = cache.embed(embedder, "Which database do we use?")
    again = cache.embed(embedder, "Which database do we use?")
    assert again is first and not first.flags.writeable
    assert np.array_equal(first, embedder.embed_one("Which database do we use?"))


def test_another_embedder_never_gets_a_vector_of_the_first() -> None:
    small, large = HashingEmbedder(64), HashingEmbedder(128)
    twin = HashingEmbedder(64)  # same identity, another object: the cache starts over
    cache = QueryCache(8)
    a = cache.embed(small, "Where does Bob work?")
    b = cache.embed(large, "Where does Bob work?")
    assert a.shape == (64,) and b.shape == (128,)
    c = cache.embed(twin, "Where does Bob work?")
    assert c is not a and np.array_equal(c, a)
    assert cache.stats()["hits"] == 0 and cache.stats()["entries"] == 1


def test_off_means_every_query_is_embedded() -> None:
    cache = QueryCache(0)
    embedder = HashingEmbedder(64)
    cache.embed(embedder, "x")
    cache.embed(embedder, "x")
    assert cache.stats() == {"entries": 0, "max_entries": 0, "hits": 0, "misses": 0, "hit_rate": 0.0}


def test_threads_share_the_cache_safely() -> None:
    embedder = HashingEmbedder(64)
    cache = QueryCache(16)
    texts = [f"question {i % 24}" for i in range(600)]
    results: dict[str, list[np.ndarray]] = {}
    lock = threading.Lock()

    def ask(part: list[str]) -> None:
        for text in part:
            vector = cache.embed(embedder, text)
            with lock:
                results.setdefault(text, []).append(vector)

    workers = [threading.Thread(target=ask, args=(texts[i::4],)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert cache.stats()["entries"] <= 16 and cache.stats()["hits"] + cache.stats()["misses"] == 600
    for text, vectors in results.items():
        want = embedder.embed_one(text)
        assert all(np.array_equal(v, want) for v in vectors)


def test_recall_with_a_cache_hit_answers_as_without(store_url: str) -> None:
    texts = ["Team uses Postgres 16 for all services.", "Alice prefers dark mode in every editor.",
             "The CI pipeline runs on GitHub Actions.", "Deploys go to AWS Lambda with Python 3.12."]
    with Memory(store_url, embedder=HashingEmbedder(256)) as cached:
        cached.remember_many(U, texts, now=1000.0)
        first = cached.recall(U, "Which database does the team use?", k=4, now=2000.0, explain=True)
        hit = cached.recall(U, "Which database does the team use?", k=4, now=2000.0, explain=True)
        assert cached.stats()["query_cache"]["hits"] == 1
    with Memory(store_url, embedder=HashingEmbedder(256), query_cache=0) as uncached:
        plain = uncached.recall(U, "Which database does the team use?", k=4, now=2000.0, explain=True)
        assert uncached.stats()["query_cache"]["entries"] == 0
    assert [(h.id, h.score, h.components) for h in hit] == [(h.id, h.score, h.components) for h in first]
    assert [(h.id, h.score, h.components) for h in plain] == [(h.id, h.score, h.components) for h in first]
