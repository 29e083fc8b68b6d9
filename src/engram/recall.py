"""Hybrid recall: gather keyword and vector candidates from a store, then rank them.

`Memory.recall` validates arguments and calls `search`; ranking itself is pure (engram.ranking).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from engram import ranking
from engram.embed.base import Embedder
from engram.store.base import Filter, Store
from engram.types import Hit

CANDIDATES = 100  # keyword and vector candidates gathered per recall before fusion


def search(store: Store, embedder: Embedder | None, subject: str, query: str, k: int, where: Filter,
           weights: ranking.Weights, now: float, min_score: float | None = None) -> list[Hit]:
    """The k best hits for `query` in one subject, with every score component."""
    n = max(CANDIDATES, k)
    keyword = dict(store.keyword(subject, ranking.keyword_terms(query), where, n))
    vector = vector_candidates(store, embedder, subject, query, n)
    items = [it for it in store.get(list(dict.fromkeys([*keyword, *vector]))) if where.accepts(it)]
    return ranking.top_k(ranking.fuse(items, keyword, vector, now, weights), k, min_score)


def vector_candidates(store: Store, embedder: Embedder | None, subject: str, query: str, n: int) -> dict[str, float]:
    """The n items of a subject whose vectors are closest to the query's (cosine)."""
    if embedder is None:
        return {}
    ids, matrix = store.vectors(subject, embedder.identity)
    if not ids:
        return {}
    scores = matrix @ embedder.embed_one(query)
    return top_scores(ids, scores, n)


def top_scores(ids: Sequence[str], scores: np.ndarray, n: int) -> dict[str, float]:
    """The n highest scores by id (unordered)."""
    n = min(n, len(ids))
    top = np.argpartition(-scores, n - 1)[:n]
    return {ids[i]: float(scores[i]) for i in top}
