"""Hybrid recall: gather keyword and vector candidates from a store, then rank them.

`Memory.recall` validates arguments and calls `search`. Steps, for one subject:
1. keyword candidates: the store's full-text search (SQLite FTS5 BM25, PostgreSQL ts_rank) over
   the query's content words, best `CANDIDATES`;
2. vector candidates: the query embedding against every vector of the subject (an exact NumPy
   scan of a cached float32 matrix), best `CANDIDATES`; every cosine feeds the z-score. Steps 1
   and 2 overlap: the embedding and scan run on a worker thread during the keyword search;
3. neighbours: `Store.vectors` lists a subject's items in write order, so the items just before
   and after a candidate, if they share its `session`, are its conversational context;
4. fusion (engram.core.ranking, pure): z-scored signals, context, named-entity match, time and date
   matches, questions yielding, session evidence, focus on the named person past the first places,
   recency (and, opt-in, session diversity).
Filters apply to candidates (the store filters keyword hits in SQL; vector hits are checked with
`Filter.accepts`); a neighbour lends context only if it passes the same filter.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from engram.core import vectors as nearest
from engram.core import names as people
from engram.core import ranking
from engram.embed.base import Embedder
from engram.store.base import Filter, SearchesVectors, Store
from engram.types import Hit, Item

_WORKERS = min(8, os.cpu_count() or 1)
#: An item's (previous, next) item in its subject's write order (None at either end, or unknown).
Around = Callable[[str], tuple[str | None, str | None]]


def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="engram-embed")


#: Query embeddings run here, overlapping the keyword search.
_EMBEDDING = _executor()


def _renew_after_fork() -> None:
    """A forked child inherits the pool but not its threads: give it a fresh pool."""
    global _EMBEDDING
    _EMBEDDING = _executor()


os.register_at_fork(after_in_child=_renew_after_fork)

CANDIDATES = 200  # keyword and vector candidates gathered per recall before fusion
SHORTLIST = 40  # candidates fetched from the store and fully ranked (more when k is larger)
FOCUS_SHORTLIST = 2  # with the focus term at work, k times this many are fetched


def search(store: Store, embedder: Embedder | None, subject: str, query: str, k: int, where: Filter,
           weights: ranking.Weights, now: float, min_score: float | None = None, *,
           exact_vectors: bool = False) -> list[Hit]:
    """The k best hits for `query` in one subject, with every score component.

    `exact_vectors` scans every vector even past the ANN crossover (benchmarks compare the two)."""
    n = max(CANDIDATES, k)
    if embedder is not None and isinstance(store, SearchesVectors) and not exact_vectors:
        return _search_in_store(store, store, embedder, subject, query, k, where, weights, now, min_score)
    ids: list[str] = []
    mentions = people.Mentions(query)
    pending: Future[nearest.VectorScores] | None = None
    if embedder is not None:
        ids, matrix = store.vectors(subject, embedder.identity)
        if ids:
            # With the entity term on, the names the subject's memories use (engram.core.names) go
            # to it, and leave the text that is embedded.
            if weights.entity:
                mentions = people.book(store, subject, embedder.identity, ids).read(query, CANDIDATES)
            # Embedding the query and scanning the vectors (onnxruntime and NumPy release the GIL)
            # run on another core while SQLite runs the keyword search on this one.
            pending = _EMBEDDING.submit(vector_scan, store, embedder, subject, ids, matrix, mentions.text, n,
                                        exact=exact_vectors or where.restrictive)
    try:
        keyword = dict(store.keyword(subject, ranking.keyword_terms(query), where, n))
    finally:
        cosines = pending.result() if pending is not None else nearest.ExactScores(np.zeros(0, dtype=np.float32))
    allowed = _allowed(store, subject, where, ids)
    cues = ranking.Signals(names=mentions.names, name_weights=mentions.weights, led=mentions.led,
                           asks_when=bool(weights.time) and ranking.asks_when(query),
                           dates=ranking.query_dates(query) if weights.date else ())
    hits = _rank(store, ids, cosines, keyword, n, allowed, where, weights, now, shortlist(k, mentions.names, weights),
                 cues)
    return ranking.top_k(hits, k, min_score)


def _search_in_store(store: Store, finder: SearchesVectors, embedder: Embedder, subject: str, query: str, k: int,
                     where: Filter, weights: ranking.Weights, now: float, min_score: float | None) -> list[Hit]:
    """`search` on a store that answers nearest-neighbour queries itself (PostgreSQL + pgvector):
    the query is embedded during the keyword search, then one call brings back the nearest ids,
    the subject's cosine statistics, and the cosines and write-order neighbours of every pool
    item; no vector matrix leaves the server. Fusion is the same as on the exact path."""
    n = max(CANDIDATES, k)
    mentions = people.Mentions(query)
    if weights.entity:  # as on the exact path: the names the subject's memories use (engram.core.names)
        book = people.book(store, subject, embedder.identity, finder.vector_ids(subject, embedder.identity))
        mentions = book.read(query, n)
    pending = _EMBEDDING.submit(embedder.embed_one, mentions.text)
    try:
        keyword = dict(store.keyword(subject, ranking.keyword_terms(query), where, n))
    finally:
        vector = pending.result()
    answer = finder.nearest(subject, embedder.identity, vector, n, list(dict.fromkeys([*keyword, *mentions.led])),
                           where if where.restrictive else None)
    cues = ranking.Signals(names=mentions.names, name_weights=mentions.weights, led=mentions.led,
                           asks_when=bool(weights.time) and ranking.asks_when(query),
                           dates=ranking.query_dates(query) if weights.date else ())
    keyword_z, keyword_floor = ranking.keyword_signal(keyword, answer.count, weights)
    signals = ranking.Signals(keyword=keyword_z, keyword_floor=keyword_floor)
    if answer.count:
        mean, std = answer.mean, max(answer.std, ranking.VECTOR_MIN_STD)
        signals = ranking.Signals(keyword=keyword_z, keyword_floor=keyword_floor,
                                  vector={i: (c - mean) / std for i, c in answer.cosines.items()},
                                  vector_floor=(answer.minimum - mean) / std)
    pool = list(dict.fromkeys([*answer.nearest, *keyword, *mentions.led]))

    def around(item_id: str) -> tuple[str | None, str | None]:
        return answer.around.get(item_id, (None, None))

    ranked = _prerank_around(pool, signals, answer.around, weights, mentions.led)
    items, found = _fetch(store, ranked, shortlist(k, mentions.names, weights), around, where)
    signals = dataclasses.replace(cues, keyword=signals.keyword, vector=signals.vector,
                                  keyword_floor=signals.keyword_floor, vector_floor=signals.vector_floor,
                                  neighbours=neighbours([it.id for it in items], around, found))
    return ranking.top_k(ranking.fuse(items, signals, now, weights), k, min_score)


def _prerank_around(pool: list[str], signals: ranking.Signals,
                    around: Mapping[str, tuple[str | None, str | None]], weights: ranking.Weights,
                    led: Mapping[str, float]) -> list[str]:
    """`_prerank` for a store's answer: each placed item's (previous, self, next) come from `around`."""
    placed = [i for i in pool if i in around]
    loose = [i for i in pool if i not in around]
    ranked: list[tuple[float, str]] = []
    if placed:
        window: list[list[str | None]] = [[around[i][0] for i in placed], list(placed),
                                          [around[i][1] for i in placed]]
        present = np.array([[j is not None for j in row] for row in window])
        vector_z = np.array([[signals.vector.get(j, signals.vector_floor) if j else 0.0 for j in row]
                             for row in window])
        keyword_z = np.array([[signals.keyword.get(j, signals.keyword_floor) if j else 0.0 for j in row]
                              for row in window])
        scores = ranking.prerank_scores(vector_z, keyword_z, present, weights)
        ranked = list(zip(scores.tolist(), placed))
    floor = weights.vector * signals.vector_floor
    ranked += [(floor + weights.keyword * signals.keyword.get(i, signals.keyword_floor), i) for i in loose]
    return [i for _, i in ranking.with_entity(ranked, led, weights)]


def shortlist(k: int, names: frozenset[str], weights: ranking.Weights) -> int:
    """How many candidates to fetch and fully rank: SHORTLIST, or k if larger; twice k when the
    focus term will lower memories past the first places, so the named person's can fill them."""
    if weights.focus and names and k > ranking.FOCUS_AFTER:
        return max(SHORTLIST, FOCUS_SHORTLIST * k)
    return max(SHORTLIST, k)


def _rank(store: Store, ids: list[str], cosines: nearest.VectorScores, keyword: dict[str, float], n: int,
          allowed: np.ndarray | None, where: Filter, weights: ranking.Weights, now: float,
          size: int, cues: ranking.Signals) -> list[Hit]:
    """Pool, prerank, fetch `size` candidates with their neighbours, fuse: every hit, best first.

    `cues` carries what fusion reads from the query text (names, "When", dates)."""
    position = positions(ids)
    signals, pool = _signals(ids, cosines, keyword, n, allowed, weights)
    pool = list(dict.fromkeys([*pool, *cues.led]))  # the named people's memories are candidates too
    ranked = _prerank(pool, signals, ids, position, weights, cues.led)
    last = len(ids) - 1

    def around(item_id: str) -> tuple[str | None, str | None]:
        i = position.get(item_id)
        if i is None:
            return None, None
        return (ids[i - 1] if i > 0 else None), (ids[i + 1] if i < last else None)

    items, found = _fetch(store, ranked, size, around, where)
    signals = dataclasses.replace(cues, keyword=signals.keyword, vector=signals.vector,
                                  keyword_floor=signals.keyword_floor, vector_floor=signals.vector_floor,
                                  neighbours=neighbours([it.id for it in items], around, found))
    return ranking.fuse(items, signals, now, weights)


def _signals(ids: list[str], cosines: nearest.VectorScores, keyword: dict[str, float], n: int,
             allowed: np.ndarray | None, weights: ranking.Weights) -> tuple[ranking.Signals, list[str]]:
    """z-scored signals and the candidate pool: the n nearest vectors plus every keyword hit."""
    keyword_z, keyword_floor = ranking.keyword_signal(keyword, len(ids), weights)
    if not len(ids):
        return ranking.Signals(keyword=keyword_z, keyword_floor=keyword_floor), list(keyword)
    mean, std = cosines.mean, max(cosines.std, ranking.VECTOR_MIN_STD)
    closest = cosines.nearest(n, allowed)
    pool = list(dict.fromkeys([*(ids[i] for i in closest), *keyword]))
    return ranking.Signals(keyword=keyword_z, vector=_ZView(ids, cosines, mean, std), keyword_floor=keyword_floor,
                           vector_floor=(cosines.minimum - mean) / std), pool


class _ZView(Mapping[str, float]):
    """Read-only id -> cosine z-score over the whole subject, computed on demand (no O(n) copy)."""

    def __init__(self, ids: list[str], cosines: nearest.VectorScores, mean: float, std: float) -> None:
        self._ids, self._pos = ids, positions(ids)
        self._cosines, self._mean, self._std = cosines, mean, std

    def at(self, index: np.ndarray) -> np.ndarray:
        """z-scores at write-order positions."""
        return (self._cosines.at(index).astype(np.float64) - self._mean) / self._std

    def __getitem__(self, key: str) -> float:
        return float((self._cosines.at(np.array([self._pos[key]]))[0] - self._mean) / self._std)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def _allowed(store: Store, subject: str, where: Filter, ids: list[str]) -> np.ndarray | None:
    """For a restrictive filter, which vectors may be candidates (None: any current item may)."""
    if not len(ids) or not where.restrictive:
        return None
    passing = {it.id for it in store.find(subject, where)}
    return np.fromiter((i in passing for i in ids), dtype=bool, count=len(ids))


def _prerank(pool: list[str], signals: ranking.Signals, ids: list[str], position: Mapping[str, int],
             weights: ranking.Weights, led: Mapping[str, float]) -> list[str]:
    """Pool ids, best first, by the fetch-free part of the score (engram.core.ranking.prerank_scores)."""
    placed = [i for i in pool if i in position]
    loose = [i for i in pool if i not in position]  # keyword hits without a vector
    ranked: list[tuple[float, str]] = []
    if placed and isinstance(signals.vector, _ZView):
        at = np.array([position[i] for i in placed])
        # Each pool item with its two write-order neighbours: rows (previous, self, next).
        window = np.stack([at - 1, at, at + 1])
        valid = (window >= 0) & (window < len(ids))
        window = np.clip(window, 0, len(ids) - 1)
        vector_z = signals.vector.at(window.ravel()).reshape(window.shape)
        keyword_z = np.array([signals.keyword.get(ids[j], signals.keyword_floor) for j in window.ravel()])
        scores = ranking.prerank_scores(vector_z, keyword_z.reshape(window.shape), valid, weights)
        ranked = list(zip(scores.tolist(), placed))
    floor = weights.vector * signals.vector_floor
    ranked += [(floor + weights.keyword * signals.keyword.get(i, signals.keyword_floor), i) for i in loose]
    return [i for _, i in ranking.with_entity(ranked, led, weights)]


def _fetch(store: Store, ranked: Sequence[str], size: int, around: Around,
           where: Filter) -> tuple[list[Item], dict[str, Item]]:
    """The first `size` ranked candidates that pass the filter, and every fetched item by id."""
    items: list[Item] = []
    found: dict[str, Item] = {}
    cursor = 0
    while len(items) < size and cursor < len(ranked):  # a filter may reject some: fetch more
        batch = ranked[cursor : cursor + size - len(items)]
        cursor += len(batch)
        got = {it.id: it for it in store.get(_with_neighbours(batch, around)) if where.accepts(it)}
        found.update(got)
        items += [got[i] for i in batch if i in got]
    return items[:size], found


def vector_scan(store: Store, embedder: Embedder, subject: str, ids: list[str], matrix: np.ndarray, query: str,
                n: int, *, exact: bool = False) -> nearest.VectorScores:
    """The query's cosines against a subject's (normalised) vectors: an exact scan, or the
    subject's ANN index past the crossover (engram.core.vectors)."""
    vector = embedder.embed_one(query)
    return nearest.scores(store, subject, embedder.identity, ids, matrix, vector, n, exact=exact)


_POSITIONS: dict[int, tuple[list[str], dict[str, int]]] = {}


def positions(ids: list[str]) -> dict[str, int]:
    """Each id's index in `ids`, cached while the store hands back the same (cached) list."""
    cached = _POSITIONS.get(id(ids))
    if cached is not None and cached[0] is ids:
        return cached[1]
    if len(_POSITIONS) >= 16:  # a few subjects' maps; the store's own cache bounds the rest
        _POSITIONS.pop(next(iter(_POSITIONS)))
    mapping = {item_id: i for i, item_id in enumerate(ids)}
    _POSITIONS[id(ids)] = (ids, mapping)
    return mapping


def _with_neighbours(pool: Sequence[str], around: Around) -> list[str]:
    """The pool plus the items written just before and after each pool item."""
    out = dict.fromkeys(pool)
    for item_id in pool:
        before, after = around(item_id)
        if before is not None:
            out.setdefault(before)
        if after is not None:
            out.setdefault(after)
    return list(out)


def neighbours(pool: Sequence[str], around: Around,
               found: Mapping[str, Item]) -> dict[str, tuple[str | None, str | None]]:
    """(previous, next) item of the same session for each pool item that has a session."""
    out: dict[str, tuple[str | None, str | None]] = {}
    for item_id in pool:
        item = found.get(item_id)
        if item is None or item.session is None:
            continue
        previous, following = around(item_id)
        before = _same_session(previous, item, found)
        after = _same_session(following, item, found)
        if before or after:
            out[item_id] = (before, after)
    return out


def _same_session(other: str | None, item: Item, found: Mapping[str, Item]) -> str | None:
    neighbour = found.get(other) if other else None
    return other if neighbour is not None and neighbour.session == item.session else None
