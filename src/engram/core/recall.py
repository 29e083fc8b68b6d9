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
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from engram.core import vectors as nearest
from engram.core import names as people
from engram.core import ranking
from engram.core.queries import QueryCache
from engram.core.steps import Steps
from engram.embed.base import Embedder
from engram.store.base import Filter, SearchesVectors, Store
from engram.store.rows import RowIds
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
           exact_vectors: bool = False, queries: QueryCache | None = None, steps: Steps | None = None) -> list[Hit]:
    """The k best hits for `query` in one subject, with every score component.

    `exact_vectors` scans every vector even past the ANN crossover (benchmarks compare the two);
    `queries` keeps query embeddings for repeated queries (engram.core.queries); `steps` times
    each step (engram.core.steps)."""
    n = max(CANDIDATES, k)
    if embedder is not None and isinstance(store, SearchesVectors) and not exact_vectors:
        return _search_in_store(store, store, embedder, subject, query, k, where, weights, now, min_score,
                                queries, steps)
    ids: Sequence[str] = []
    mentions = people.Mentions(query)
    pending: Future[nearest.VectorScores] | None = None
    if embedder is not None:
        ids, matrix = store.vectors(subject, embedder.identity)
        if steps is not None:
            steps.lap("vectors")
        if ids:
            # With the entity term on, the names the subject's memories use (engram.core.names) go
            # to it, and leave the text that is embedded.
            if weights.entity:
                mentions = people.book(store, subject, embedder.identity, ids).read(query, CANDIDATES)
            if steps is not None:
                steps.lap("names")
            # Embedding the query and scanning the vectors (onnxruntime and NumPy release the GIL)
            # run on another core while SQLite runs the keyword search on this one.
            pending = _EMBEDDING.submit(vector_scan, store, embedder, subject, ids, matrix, mentions.text, n,
                                        exact=exact_vectors or where.restrictive, queries=queries, steps=steps)
    try:
        keyword = dict(store.keyword(subject, ranking.keyword_terms(query), where, n))
        if steps is not None:
            steps.lap("keyword")
        known = _Known.before_vectors(store, subject, query, ids, keyword, where, weights, mentions)
        if steps is not None:
            steps.lap("cues")
    finally:
        cosines = pending.result() if pending is not None else nearest.ExactScores(np.zeros(0, dtype=np.float32))
    if steps is not None:
        steps.lap("wait")
    hits = _rank(store, ids, cosines, known, n, where, weights, now, shortlist(k, mentions.names, weights), steps)
    top = ranking.top_k(hits, k, min_score)
    if steps is not None:
        steps.lap("top_k")
    return top


def _search_in_store(store: Store, finder: SearchesVectors, embedder: Embedder, subject: str, query: str, k: int,
                     where: Filter, weights: ranking.Weights, now: float, min_score: float | None,
                     queries: QueryCache | None = None, steps: Steps | None = None) -> list[Hit]:
    """`search` on a store that answers nearest-neighbour queries itself (PostgreSQL + pgvector):
    the query is embedded during the keyword search, then one call brings back the nearest ids,
    the subject's cosine statistics, and the cosines and write-order neighbours of every pool
    item; no vector matrix leaves the server. Fusion is the same as on the exact path."""
    n = max(CANDIDATES, k)
    mentions = people.Mentions(query)
    if weights.entity:  # as on the exact path: the names the subject's memories use (engram.core.names)
        book = people.book(store, subject, embedder.identity, finder.vector_ids(subject, embedder.identity))
        mentions = book.read(query, n)
    if steps is not None:
        steps.lap("names")
    pending = _EMBEDDING.submit(embed_query, embedder, mentions.text, queries, steps)
    try:
        keyword = dict(store.keyword(subject, ranking.keyword_terms(query), where, n))
        if steps is not None:
            steps.lap("keyword")
    finally:
        vector = pending.result()
    if steps is not None:
        steps.lap("wait")
    answer = finder.nearest(subject, embedder.identity, vector, n, list(dict.fromkeys([*keyword, *mentions.led])),
                           where if where.restrictive else None)
    if steps is not None:
        steps.lap("nearest")
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
    if steps is not None:
        steps.lap("prerank")
    items, found = _fetch(store, ranked, shortlist(k, mentions.names, weights), around, where)
    if steps is not None:
        steps.lap("fetch")
    signals = dataclasses.replace(cues, keyword=signals.keyword, vector=signals.vector,
                                  keyword_floor=signals.keyword_floor, vector_floor=signals.vector_floor,
                                  neighbours=neighbours([it.id for it in items], around, found))
    hits = ranking.fuse(items, signals, now, weights)
    if steps is not None:
        steps.lap("fuse")
    top = ranking.top_k(hits, k, min_score)
    if steps is not None:
        steps.lap("top_k")
    return top


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


@dataclass(frozen=True)
class _Known:
    """What a recall knows before the query's vector exists, worked out while the worker embeds
    it: the id -> row map, the keyword z-scores (also by row, sorted, for the prerank), which
    rows a restrictive filter allows, and the cues fusion reads from the query text."""

    position: Mapping[str, int]
    keyword_z: dict[str, float]
    keyword_floor: float
    hit_rows: np.ndarray
    hit_z: np.ndarray
    allowed: np.ndarray | None
    cues: ranking.Signals

    @classmethod
    def before_vectors(cls, store: Store, subject: str, query: str, ids: Sequence[str], keyword: dict[str, float],
                       where: Filter, weights: ranking.Weights, mentions: people.Mentions) -> _Known:
        position = positions(ids)
        keyword_z, keyword_floor = ranking.keyword_signal(keyword, len(ids), weights)
        n = len(ids)
        _, row_of = _shared(ids, position)
        hits = sorted((r, z) for i, z in keyword_z.items() if (r := row_of.get(i, n)) < n)
        cues = ranking.Signals(names=mentions.names, name_weights=mentions.weights, led=mentions.led,
                               asks_when=bool(weights.time) and ranking.asks_when(query),
                               dates=ranking.query_dates(query) if weights.date else ())
        return cls(position, keyword_z, keyword_floor, np.array([r for r, _ in hits], dtype=np.int64),
                   np.array([z for _, z in hits], dtype=np.float64), _allowed(store, subject, where, ids), cues)

    def keyword_at(self, rows: np.ndarray) -> np.ndarray:
        """The keyword z-score of the item at each of `rows` (the floor where it has none)."""
        if not len(self.hit_rows):
            return np.full(rows.shape, self.keyword_floor, dtype=np.float64)
        at = np.minimum(np.searchsorted(self.hit_rows, rows), len(self.hit_rows) - 1)
        found: np.ndarray = np.where(self.hit_rows[at] == rows, self.hit_z[at], self.keyword_floor)
        return found


def _rank(store: Store, ids: Sequence[str], cosines: nearest.VectorScores, known: _Known, n: int, where: Filter,
          weights: ranking.Weights, now: float, size: int, steps: Steps | None = None) -> list[Hit]:
    """Pool, prerank, fetch `size` candidates with their neighbours, fuse: every hit, best first.

    `known.cues` carries what fusion reads from the query text (names, "When", dates)."""
    position = known.position
    signals, pool = _signals(ids, cosines, known, n)
    pool = list(dict.fromkeys([*pool, *known.cues.led]))  # the named people's memories are candidates too
    ranked = _prerank(pool, signals, ids, known, weights)
    count, last = len(ids), len(ids) - 1
    rows, row_of = _shared(ids, position)
    if steps is not None:
        steps.lap("prerank")

    def around(item_id: str) -> tuple[str | None, str | None]:
        i = row_of.get(item_id, count)
        if i >= count:
            return None, None
        return (rows[i - 1] if i > 0 else None), (rows[i + 1] if i < last else None)

    items, found = _fetch(store, ranked, size, around, where)
    if steps is not None:
        steps.lap("fetch")
    signals = dataclasses.replace(known.cues, keyword=signals.keyword, vector=signals.vector,
                                  keyword_floor=signals.keyword_floor, vector_floor=signals.vector_floor,
                                  neighbours=neighbours([it.id for it in items], around, found))
    hits = ranking.fuse(items, signals, now, weights)
    if steps is not None:
        steps.lap("fuse")
    return hits


def _signals(ids: Sequence[str], cosines: nearest.VectorScores, known: _Known,
             n: int) -> tuple[ranking.Signals, list[str]]:
    """z-scored signals and the candidate pool: the n nearest vectors plus every keyword hit."""
    keyword_z, keyword_floor = known.keyword_z, known.keyword_floor
    if not len(ids):
        return ranking.Signals(keyword=keyword_z, keyword_floor=keyword_floor), list(keyword_z)
    mean, std = cosines.mean, max(cosines.std, ranking.VECTOR_MIN_STD)
    closest = cosines.nearest(n, known.allowed)
    rows = ids.shared()[0] if isinstance(ids, RowIds) else ids  # rows below len(ids): this snapshot's
    pool = list(dict.fromkeys([*(rows[i] for i in closest.tolist()), *keyword_z]))
    return ranking.Signals(keyword=keyword_z, vector=_ZView(ids, cosines, mean, std, known.position),
                           keyword_floor=keyword_floor, vector_floor=(cosines.minimum - mean) / std), pool


class _ZView(Mapping[str, float]):
    """Read-only id -> cosine z-score over the whole subject, computed on demand (no O(n) copy)."""

    def __init__(self, ids: Sequence[str], cosines: nearest.VectorScores, mean: float, std: float,
                 position: Mapping[str, int] | None = None) -> None:
        self._ids, self._pos = ids, positions(ids) if position is None else position
        self._cosines, self._mean, self._std = cosines, mean, std

    def at(self, index: np.ndarray) -> np.ndarray:
        """z-scores at write-order positions."""
        return (self._cosines.at(index).astype(np.float64) - self._mean) / self._std

    def __getitem__(self, key: str) -> float:
        return float((self._cosines.at(np.array([self._pos[key]]))[0] - self._mean) / self._std)

    def get(self, key: str, default: float | None = None) -> float | None:  # type: ignore[override]  # Mapping.get, without a KeyError per miss
        row = self._pos.get(key)
        if row is None:
            return default
        return float((self._cosines.at(np.array([row]))[0] - self._mean) / self._std)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def _allowed(store: Store, subject: str, where: Filter, ids: Sequence[str]) -> np.ndarray | None:
    """For a restrictive filter, which vectors may be candidates (None: any current item may)."""
    if not len(ids) or not where.restrictive:
        return None
    passing = {it.id for it in store.find(subject, where)}
    return np.fromiter((i in passing for i in ids), dtype=bool, count=len(ids))


def _prerank(pool: list[str], signals: ranking.Signals, ids: Sequence[str], known: _Known,
             weights: ranking.Weights) -> list[str]:
    """Pool ids, best first, by the fetch-free part of the score (engram.core.ranking.prerank_scores):
    items with a vector in pool order, then keyword hits without one; ties keep that order."""
    n = len(ids)
    _, row_of = _shared(ids, known.position)
    rows = np.fromiter((row_of.get(i, n) for i in pool), dtype=np.int64, count=len(pool))
    has_row = rows < n
    placed = np.flatnonzero(has_row) if isinstance(signals.vector, _ZView) else np.zeros(0, dtype=np.int64)
    loose = np.flatnonzero(~has_row)  # keyword hits without a vector
    scores = np.empty(len(placed) + len(loose), dtype=np.float64)
    if len(placed):
        at = rows[placed]
        # Each pool item with its two write-order neighbours: rows (previous, self, next).
        window = np.stack([at - 1, at, at + 1])
        valid = (window >= 0) & (window < n)
        window = np.clip(window, 0, n - 1)
        vector_z = signals.vector.at(window.ravel()).reshape(window.shape)  # type: ignore[attr-defined]  # a _ZView
        keyword_z = known.keyword_at(window.ravel()).reshape(window.shape)
        scores[: len(placed)] = ranking.prerank_scores(vector_z, keyword_z, valid, weights)
    floor = weights.vector * signals.vector_floor
    scores[len(placed):] = [floor + weights.keyword * signals.keyword.get(pool[i], signals.keyword_floor)
                            for i in loose.tolist()]
    order = np.concatenate([placed, loose])
    led = known.cues.led
    if led and weights.entity:  # the entity term of the named people's memories (ranking.with_entity)
        scores += weights.entity * np.array([led.get(pool[i], 0.0) for i in order.tolist()], dtype=np.float64)
    order = order[np.argsort(-scores, kind="stable")]
    return [pool[i] for i in order.tolist()]


def _shared(ids: Sequence[str], position: Mapping[str, int]) -> tuple[Sequence[str], Mapping[str, int]]:
    """A list to read ids by row and a plain id -> row map, for hot loops: a store snapshot's own
    (engram.store.rows; they may hold rows past len(ids), which callers leave out), else `ids`
    and `position` themselves."""
    return ids.shared() if isinstance(ids, RowIds) else (ids, position)


def _fetch(store: Store, ranked: Sequence[str], size: int, around: Around,
           where: Filter) -> tuple[list[Item], dict[str, Item]]:
    """The first `size` ranked candidates that pass the filter, and every fetched item by id:
    those, and the write-order neighbours of each that has a session (the only ones whose
    neighbours lend context: see `neighbours`), fetched in a second read when there are any."""
    items: list[Item] = []
    found: dict[str, Item] = {}
    cursor = 0
    while len(items) < size and cursor < len(ranked):  # a filter may reject some: fetch more
        batch = ranked[cursor : cursor + size - len(items)]
        cursor += len(batch)
        got = {it.id: it for it in store.get(batch) if where.accepts(it)}
        wanted = [other for i in batch if i in got and got[i].session is not None for other in around(i)
                  if other is not None and other not in got and other not in found]
        if wanted:
            got.update((it.id, it) for it in store.get(list(dict.fromkeys(wanted))) if where.accepts(it))
        found.update(got)
        items += [got[i] for i in batch if i in got]
    return items[:size], found


def vector_scan(store: Store, embedder: Embedder, subject: str, ids: Sequence[str], matrix: np.ndarray, query: str,
                n: int, *, exact: bool = False, queries: QueryCache | None = None,
                steps: Steps | None = None) -> nearest.VectorScores:
    """The query's cosines against a subject's (normalised) vectors: an exact scan, or the
    subject's ANN index past the crossover (engram.core.vectors)."""
    vector = embed_query(embedder, query, queries, steps)
    started = time.perf_counter() if steps is not None else 0.0
    found = nearest.scores(store, subject, embedder.identity, ids, matrix, vector, n, exact=exact)
    if steps is not None:
        steps.add("scan", (time.perf_counter() - started) * 1000.0)
    return found


def embed_query(embedder: Embedder, query: str, queries: QueryCache | None = None,
                steps: Steps | None = None) -> np.ndarray:
    """The query's vector: from the query cache when one is given (engram.core.queries)."""
    started = time.perf_counter() if steps is not None else 0.0
    vector = queries.embed(embedder, query) if queries is not None else embedder.embed_one(query)
    if steps is not None:
        steps.add("embed", (time.perf_counter() - started) * 1000.0)
    return vector


_POSITIONS: dict[int, tuple[Sequence[str], dict[str, int]]] = {}


def positions(ids: Sequence[str]) -> Mapping[str, int]:
    """Each id's index in `ids`: a cached store snapshot's own map (engram.store.rows), else a map
    cached while the store hands back the same list."""
    if isinstance(ids, RowIds):
        return ids.positions()
    cached = _POSITIONS.get(id(ids))
    if cached is not None and cached[0] is ids:
        return cached[1]
    if len(_POSITIONS) >= 16:  # a few subjects' maps; the store's own cache bounds the rest
        _POSITIONS.pop(next(iter(_POSITIONS)))
    mapping = {item_id: i for i, item_id in enumerate(ids)}
    _POSITIONS[id(ids)] = (ids, mapping)
    return mapping


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
