"""Recall past the ANN crossover (engram.core.vectors): same answers as the exact scan, writes picked
up, forgotten items never returned, filters fall back to the exact scan.

Real stores on both backends, real Voyager indexes and the bundled MiniLM model; the crossover
is lowered so a few hundred memories pass it. No timing assertions.
"""

from __future__ import annotations

import time

import pytest

from engram.core import ann
from engram.core import vectors as nearest
from engram.core import recall
from engram.bench.latency import QUESTIONS, sentences
from engram.embed import get_embedder
from engram.core.memory import Memory
from engram.store.base import Filter, SearchesVectors

SUBJECT = "user:ann"
CROSSOVER = 200


@pytest.fixture(scope="module")
def minilm():
    return get_embedder(None)


@pytest.fixture
def big(store_url: str, minilm, monkeypatch: pytest.MonkeyPatch):
    """A Memory whose subject holds 600 real embedded facts, past a crossover lowered to 200."""
    monkeypatch.setattr(ann, "EXACT_MAX_ITEMS", CROSSOVER)
    mem = Memory(store_url, embedder=minilm)
    mem.remember_many(SUBJECT, sentences(600, seed=11))
    yield mem
    mem.close()


def top(mem: Memory, query: str, *, exact: bool = False) -> list[str]:
    hits = recall.search(mem.store, mem.embedder, SUBJECT, query, 10, mem._filter(), mem.weights, time.time(),
                         exact_vectors=exact)
    return [h.id for h in hits]


def test_below_the_crossover_recall_scans_exactly(store_url: str, minilm) -> None:
    with Memory(store_url, embedder=minilm) as mem:
        mem.remember_many(SUBJECT, sentences(50, seed=2))
        ids, matrix = mem.store.vectors(SUBJECT, minilm.identity)
        got = nearest.scores(mem.store, SUBJECT, minilm.identity, ids, matrix, minilm.embed_one("team"), 20)
        assert isinstance(got, nearest.ExactScores)
        assert not nearest.prepare(mem.store, SUBJECT, minilm.identity)


def test_the_first_recall_past_the_crossover_does_not_wait_for_the_build(big: Memory) -> None:
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    vector = big.embedder.embed_one("Which database does the team use?")
    first = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, vector, 50)
    assert isinstance(first, nearest.ExactScores)  # the index builds in the background meanwhile
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    later = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, vector, 50)
    assert isinstance(later, nearest.ApproximateScores)
    assert set(later.nearest(10).tolist()) == set(first.nearest(10).tolist())


def test_ann_recall_gives_the_exact_top_10(big: Memory) -> None:
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    used = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, big.embedder.embed_one("team"), 200)
    assert isinstance(used, nearest.ApproximateScores)  # so the comparison below is ANN against exact
    overlap = []
    for question in QUESTIONS:
        approximate, exact = top(big, question), top(big, question, exact=True)
        overlap.append(len(set(approximate) & set(exact)) / len(exact))
    assert sum(overlap) / len(overlap) >= 0.95, overlap


def test_new_memories_reach_the_index(big: Memory) -> None:
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    saved = big.remember(SUBJECT, "The lighthouse keeper collects antique brass telescopes.")
    hits = big.recall(SUBJECT, "Who collects antique telescopes?", k=3)
    assert hits[0].id == saved.id
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    vector = big.embedder.embed_one("antique brass telescopes")
    scores = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, vector, 5)
    assert isinstance(scores, nearest.ApproximateScores)
    assert ids[int(scores.nearest(1)[0])] == saved.id


def test_forgotten_memories_leave_the_index(big: Memory) -> None:
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    question = "Which database does the team use?"
    first = big.recall(SUBJECT, question, k=5)
    doomed = {h.id for h in first[:3]}
    assert big.forget_ids(SUBJECT, sorted(doomed)) == 3
    entry = nearest._entry(big.store, SUBJECT, big.embedder.identity)
    assert len(entry.index) == 597 and entry.index.tombstones == 3  # at once, before any recall
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    scores = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix,
                            big.embedder.embed_one(question), 200)
    assert isinstance(scores, nearest.ApproximateScores)
    assert not doomed & {ids[int(i)] for i in scores.nearest(200)}
    assert not doomed & {h.id for h in big.recall(SUBJECT, question, k=50)}
    assert len(entry.index) == len(ids) == 597


def test_a_restrictive_filter_scans_exactly(big: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a filter that rejects some items the vector side is an exact scan among the passing
    items: the in-process index is bypassed (SQLite), or the server scans exactly under the
    filter instead of using its HNSW index (PostgreSQL). Either way the hits equal the exact path's."""
    question = "Which database does the team use?"
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    calls: list[object] = []
    if isinstance(big.store, SearchesVectors):
        real_nearest = big.store.nearest

        def spy_server(*args, **kwargs):
            calls.append(kwargs.get("where", args[5] if len(args) > 5 else None))
            return real_nearest(*args, **kwargs)

        monkeypatch.setattr(big.store, "nearest", spy_server)
    else:
        real = nearest.scores

        def spy(*args, **kwargs):
            result = real(*args, **kwargs)
            calls.append(type(result))
            return result

        monkeypatch.setattr(nearest, "scores", spy)
    filtered = big.recall(SUBJECT, question, k=5, kinds=["fact"])
    big.recall(SUBJECT, question, k=5)
    if isinstance(big.store, SearchesVectors):
        assert len(calls) == 2 and isinstance(calls[0], Filter) and calls[0].restrictive and calls[1] is None
    else:
        assert calls == [nearest.ExactScores, nearest.ApproximateScores]
    where = big._filter(kinds=["fact"])
    exact = recall.search(big.store, big.embedder, SUBJECT, question, 5, where, big.weights, time.time(),
                          exact_vectors=True)
    assert [h.id for h in filtered] == [h.id for h in exact]
