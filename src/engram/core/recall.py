"""Hybrid recall: gather keyword and vector candidates from a store, then rank them.

`Memory.recall` validates arguments and calls `search`, one pipeline for one subject:
1. vector source (`vector_source`): a scan of the subject's cached float32 matrix in process
   (`ScannedVectors`: exact NumPy, or the ANN index past the crossover), the store's own
   nearest-neighbour search (`StoreVectors`: PostgreSQL + pgvector, no matrix leaves the server),
   or none without an embedder; the query is embedded (and scanned) on a worker thread while
2. keyword candidates come from the store's keyword index (BM25 per subject, engram.store.keyword,
   the same code on both backends) over the query's content words, best `CANDIDATES`;
3. the source's answer (`Vectors`): the nearest `CANDIDATES`, every cosine as a z-score over the
   subject, and each item's write-order neighbours (the items just before and after a candidate,
   if they share its `session`, are its conversational context);
4. prerank on the fetch-free part of the score, fetch the shortlist, and fuse
   (engram.core.ranking, pure).
Filters apply to candidates (the store filters keyword hits in SQL; vector hits are checked with
`Filter.accepts`); a neighbour lends context only if it passes the same filter. `steps` times
each step for `engram bench latency --steps` (`UNTIMED`, doing nothing, otherwise).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Protocol

import numpy as np

from engram.core import background
from engram.core import vectors as nearest
from engram.core import names as people
from engram.core import ranking
from engram.core.queries import QueryCache
from engram.core.steps import UNTIMED, Steps
from engram.embed.base import Embedder
from engram.language import framing
from engram.store.base import FetchesVectors, Filter, NearestAnswer, SearchesVectors, Spells, Store
from engram.store.rows import RowIds
from engram.types import PASSAGE, Hit, Item

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


class Vectors(Protocol):
    """One recall's vector evidence, whichever source gave it: the subject's cosine statistics
    (`count`), the nearest ids, each item's cosine z-score (`vector`, `floor` for an item without
    one) and its write-order neighbours."""

    count: int
    nearest: Sequence[str]
    vector: Mapping[str, float]
    floor: float
    query: np.ndarray | None  # the query's own vector (None without one)

    def placed(self, item_id: str) -> bool:
        """True for an item with a vector (so with a place in the subject's write order)."""

    def around(self, item_id: str) -> tuple[str | None, str | None]:
        """(previous, next) item in the subject's write order (None at either end, or unknown)."""

    def cosine(self, item_id: str) -> float:
        """The item's raw cosine similarity to the query (0.0 without a vector): the calibrated
        relevance reads it (engram.core.ranking.relevance)."""

    def window(self, placed: Sequence[str]) -> tuple[np.ndarray, list[list[str | None]]]:
        """For items with a vector: the 3 x m cosine z-scores of (previous, self, next) and those ids
        (None where there is no neighbour; its z-score is then any number: it is masked)."""

    def vector_of(self, item_id: str) -> np.ndarray | None:
        """The item's own stored vector, when this source holds it (None otherwise)."""


class VectorSource(Protocol):
    """Where recall's vector half comes from: an in-process scan of the subject's vectors
    (`ScannedVectors`), a store that answers nearest-neighbour queries itself (`StoreVectors`,
    PostgreSQL + pgvector), or nothing (`NoVectors`, without an embedder)."""

    def ids(self) -> Sequence[str]:
        """The subject's vector ids in write order (the name book is counted over them)."""

    def start(self, text: str, n: int) -> None:
        """Begin embedding `text` (and, for a scan, scanning) on a worker thread."""

    def finish(self, also: Sequence[str], n: int) -> Vectors:
        """The evidence once the worker is done: the n nearest, plus the cosines of `also`."""


def search(store: Store, embedder: Embedder | None, subject: str, query: str, k: int, where: Filter,
           weights: ranking.Weights, now: float, min_score: float | None = None, *,
           exact_vectors: bool = False, queries: QueryCache | None = None, steps: Steps = UNTIMED) -> list[Hit]:
    """The k best hits for `query` in one subject, with every score component.

    `exact_vectors` scans every vector even past the ANN crossover (benchmarks compare the two);
    `queries` keeps query embeddings for repeated queries (engram.core.queries); `steps` times
    each step (engram.core.steps)."""
    n = max(CANDIDATES, k)
    searched = framing.topic(query)  # what is asked about: the words and vector searched
    terms = ranking.keyword_terms(searched)
    source = vector_source(store, embedder, subject, where, exact_vectors=exact_vectors, queries=queries,
                           steps=steps)
    ids = source.ids()
    mentions = people.Mentions(searched)
    # With the entity term on, the names the subject's memories use (engram.core.names) go to it,
    # and leave the text that is embedded.
    if weights.entity and embedder is not None and len(ids):
        mentions = people.book(store, subject, embedder.identity, ids).read(searched, n)
    steps.lap("names")
    # Embedding the query (and scanning) on another core while the store runs the keyword search.
    source.start(respelt(store, embedder, subject, mentions.text, searched), n)
    whole = whole_ahead(embedder, query, mentions.text, queries)  # the relevance's vector, on the other worker
    ahead = words_ahead(embedder, terms) if len(ids) else None  # and its words'
    try:
        keyword = dict(store.keyword(subject, terms, where, n, known=known(embedder, terms)))
        steps.lap("keyword")
    finally:
        vectors = source.finish(list(dict.fromkeys([*keyword, *mentions.led])), n)
    steps.lap("wait")
    keyword_z, keyword_floor = ranking.keyword_signal(keyword, vectors.count, weights)
    signals = ranking.Signals(keyword=keyword_z, keyword_floor=keyword_floor, vector=vectors.vector,
                              vector_floor=vectors.floor, names=mentions.names, name_weights=mentions.weights,
                              led=mentions.led, asks_when=bool(weights.time) and ranking.asks_when(query),
                              dates=ranking.query_dates(query, now) if weights.date else (),
                              asks_before=bool(weights.newest) and ranking.asks_before(query))
    signals = dataclasses.replace(signals, terms=terms)
    pool = list(dict.fromkeys([*vectors.nearest, *keyword, *mentions.led]))
    ranked = prerank(pool, signals, vectors, weights)
    steps.lap("prerank")
    reader = Shortlist(store, embedder)
    items, found = _fetch(reader.get, store, ranked, shortlist(k, mentions.names, weights), vectors.around, where)
    steps.lap("fetch")
    signals = dataclasses.replace(signals, neighbours=neighbours([it.id for it in items], vectors.around, found),
                                  cosines={it.id: vectors.cosine(it.id) for it in items},
                                  item_vectors=ItemVectors(vectors, store, subject, embedder, items, reader),
                                  query=query, query_vector=whole_query(vectors.query, whole),
                                  word_vectors=word_vectors(embedder, vectors.query, ahead),
                                  personal=personal(embedder, vectors.query))
    steps.lap("words")
    hits = ranking.fuse(items, signals, now, weights, k=k, min_score=min_score)
    steps.lap("fuse")
    top = ranking.top_k(hits, k, min_score)
    steps.lap("top_k")
    return top


#: Vectors of single query words, kept across recalls (the same words come back again and again).
WORDS = QueryCache(4096)


def whole_ahead(embedder: Embedder | None, query: str, unnamed: str,
                queries: QueryCache | None) -> Future[np.ndarray] | None:
    """Begin embedding the query with the names it mentions (the relevance's residual cosine reads
    it) on a worker thread, beside the embedding of the query without them, when names were taken
    out of that one (`unnamed` differs from `query`: `vector_query`); else None (it is that one)."""
    if embedder is None or unnamed == query:
        return None
    return _EMBEDDING.submit(embed_query, embedder, query, queries)


def whole_query(vector: np.ndarray | None, whole: Future[np.ndarray] | None) -> np.ndarray | None:
    """The vector of the query with its names: the one `whole_ahead` began, else the one recall
    embedded (`vector`); None without a query vector."""
    if vector is None or whole is None:
        return vector
    return whole.result()


def personal(embedder: Embedder | None, query: np.ndarray | None) -> float | None:
    """How much closer the embedded query is to memories than to general knowledge, for the
    relevance (engram.core.background: the vector the hits' cosines were measured against); None
    without an embedder, a query vector, or a background made with this model."""
    found = background.for_embedder(embedder) if query is not None else None
    return found.personal(query) if found is not None and query is not None else None


def words_ahead(embedder: Embedder | None, terms: Sequence[str]) -> Future[object] | None:
    """Begin embedding the query's content words (`ranking.content_terms`) into `WORDS` on a worker
    thread, beside the query's own embedding and the keyword search: `word_vectors` reads the few
    that the scored hits share from there. None without an embedder, or with no words."""
    if embedder is None:
        return None
    words = list(dict.fromkeys(ranking.content_terms(terms)))
    return _EMBEDDING.submit(WORDS.embed_many, embedder, words) if words else None


def word_vectors(embedder: Embedder | None, query: np.ndarray | None,
                 ahead: Future[object] | None = None) -> ranking.WordVectors | None:
    """The vectors of query words that some hits share (`ranking.shared_terms`), each embedded
    alone, for the relevance's residual cosine, asked for by the fuse for the hits it scores; None
    without an embedder or query vector. `ahead` (`words_ahead`) is waited for first: the words it
    embedded come from `WORDS`."""
    if embedder is None or query is None:
        return None

    def read(words: Sequence[str]) -> dict[str, np.ndarray]:
        if ahead is not None:
            ahead.result()
        return dict(zip(words, WORDS.embed_many(embedder, list(words)))) if words else {}

    return read


def known(embedder: Embedder | None, terms: Sequence[str]) -> frozenset[str]:
    """The query's words (`terms`: `ranking.keyword_terms`) the embedding model knows as words: never taken for a misspelling of a
    term the subject holds ("steak" is not "speak"); none when the model has no vocabulary to ask."""
    if embedder is None or not embedder.has_vocabulary:
        return frozenset()
    return frozenset(w for w in terms if embedder.knows(w))


def respelt(store: Store, embedder: Embedder | None, subject: str, text: str, query: str) -> str:
    """`text` (the query as it is embedded) with each content word of `query` that neither the
    subject's keyword index holds nor the embedding model knows replaced by its near spelling
    in the subject, when the model knows that one ("feature flgas tool?" -> "feature flags
    tool?"; "commute", unknown to MiniLM, is not made "commite": engram.store.spelling)."""
    if embedder is None or not isinstance(store, Spells):
        return text
    unknown = [w for w in ranking.keyword_terms(query) if not embedder.knows(w)]
    fixes = {w: f for w, f in store.spellings(subject, unknown).items() if embedder.knows(f)} if unknown else {}
    if not fixes:
        return text
    return ranking.WORD.sub(lambda m: fixes.get(m.group(0).lower(), m.group(0)), text)


def vector_source(store: Store, embedder: Embedder | None, subject: str, where: Filter, *,
                  exact_vectors: bool = False, queries: QueryCache | None = None,
                  steps: Steps = UNTIMED) -> VectorSource:
    """The vector source for one recall: the store's own nearest-neighbour search when it has one
    (unless `exact_vectors`), else a scan of the subject's vectors; none without an embedder."""
    if embedder is None:
        return NoVectors()
    if isinstance(store, SearchesVectors) and not exact_vectors:
        return StoreVectors(store, embedder, subject, where, queries, steps)
    return ScannedVectors(store, embedder, subject, where, exact_vectors, queries, steps)


def prerank(pool: list[str], signals: ranking.Signals, vectors: Vectors, weights: ranking.Weights) -> list[str]:
    """Pool ids, best first, by the fetch-free part of the score (engram.core.ranking.prerank_scores):
    items with a vector in pool order, then keyword hits without one; ties keep that order."""
    placed = [i for i in pool if vectors.placed(i)]
    loose = [i for i in pool if not vectors.placed(i)]  # keyword hits without a vector
    scores = np.empty(len(placed) + len(loose), dtype=np.float64)
    if placed:
        vector_z, window = vectors.window(placed)
        present = np.array([[j is not None for j in row] for row in window])
        keyword, floor = signals.keyword, signals.keyword_floor
        keyword_z = np.array([[keyword.get(j, floor) if j is not None else 0.0 for j in row] for row in window])
        scores[: len(placed)] = ranking.prerank_scores(vector_z, keyword_z, present, weights)
    floor = weights.vector * signals.vector_floor
    scores[len(placed):] = [floor + weights.keyword * signals.keyword.get(i, signals.keyword_floor) for i in loose]
    order = [*placed, *loose]
    led = signals.led
    if led and weights.entity:  # the entity term of the named people's memories (ranking.with_entity)
        scores += weights.entity * np.array([led.get(i, 0.0) for i in order], dtype=np.float64)
    return [order[i] for i in np.argsort(-scores, kind="stable").tolist()]


class NoVectors:
    """No embedder: keyword evidence alone."""

    count = 0
    nearest: Sequence[str] = ()
    vector: Mapping[str, float] = {}
    floor = 0.0
    query: np.ndarray | None = None

    def ids(self) -> Sequence[str]:
        return ()

    def start(self, text: str, n: int) -> None:
        return None

    def finish(self, also: Sequence[str], n: int) -> Vectors:
        return self

    def placed(self, item_id: str) -> bool:
        return False

    def around(self, item_id: str) -> tuple[str | None, str | None]:
        return None, None

    def cosine(self, item_id: str) -> float:
        return 0.0

    def window(self, placed: Sequence[str]) -> tuple[np.ndarray, list[list[str | None]]]:
        return np.zeros((3, 0)), [[], [], []]

    def vector_of(self, item_id: str) -> np.ndarray | None:
        return None


class StoreVectors:
    """A store that answers nearest-neighbour queries itself (PostgreSQL + pgvector): the query is
    embedded during the keyword search, then one call brings back the nearest ids, the subject's
    cosine statistics, and the cosines and write-order neighbours of every pool item; no vector
    matrix leaves the server."""

    def __init__(self, finder: SearchesVectors, embedder: Embedder, subject: str, where: Filter,
                 queries: QueryCache | None, steps: Steps) -> None:
        self._finder, self._embedder, self._subject, self._where = finder, embedder, subject, where
        self._queries, self._steps = queries, steps
        self._pending: Future[np.ndarray] | None = None
        self._answer: NearestAnswer | None = None
        self.count = 0
        self.nearest: Sequence[str] = ()
        self.vector: Mapping[str, float] = {}
        self.floor = 0.0
        self.query: np.ndarray | None = None

    def ids(self) -> Sequence[str]:
        return self._finder.vector_ids(self._subject, self._embedder.identity)

    def start(self, text: str, n: int) -> None:
        self._pending = _EMBEDDING.submit(embed_query, self._embedder, text, self._queries, self._steps)

    def finish(self, also: Sequence[str], n: int) -> Vectors:
        assert self._pending is not None, "start() comes first"
        self.query = vector = self._pending.result()
        self._answer = answer = self._finder.nearest(self._subject, self._embedder.identity, vector, n, also,
                                                     self._where if self._where.restrictive else None)
        self.count, self.nearest = answer.count, answer.nearest
        if answer.count:
            mean, std = answer.mean, max(answer.std, ranking.VECTOR_MIN_STD)
            self.vector = {i: (c - mean) / std for i, c in answer.cosines.items()}
            self.floor = (answer.minimum - mean) / std
        return self

    def placed(self, item_id: str) -> bool:
        return self._answer is not None and item_id in self._answer.around

    def around(self, item_id: str) -> tuple[str | None, str | None]:
        return self._answer.around.get(item_id, (None, None)) if self._answer is not None else (None, None)

    def cosine(self, item_id: str) -> float:
        return float(self._answer.cosines.get(item_id, 0.0)) if self._answer is not None else 0.0

    def window(self, placed: Sequence[str]) -> tuple[np.ndarray, list[list[str | None]]]:
        window: list[list[str | None]] = [[self.around(i)[0] for i in placed], list(placed),
                                          [self.around(i)[1] for i in placed]]
        z = np.array([[self.vector.get(j, self.floor) if j else 0.0 for j in row] for row in window])
        return z, window

    def vector_of(self, item_id: str) -> np.ndarray | None:
        return None  # the vectors stay on the server (ItemVectors reads the few it needs from the store)


class ScannedVectors:
    """The subject's vectors scanned in process: the query embedding against a cached float32
    matrix (an exact NumPy scan, or the subject's ANN index past the crossover, engram.core.vectors),
    on a worker thread; every cosine feeds the z-score."""

    def __init__(self, store: Store, embedder: Embedder, subject: str, where: Filter, exact: bool,
                 queries: QueryCache | None, steps: Steps) -> None:
        self._store, self._embedder, self._subject, self._where = store, embedder, subject, where
        self._exact, self._queries, self._steps = exact, queries, steps
        self._ids, self._matrix = store.vectors(subject, embedder.identity)
        steps.lap("vectors")
        self._pending: Future[tuple[np.ndarray, nearest.VectorScores]] | None = None
        self._allowed: np.ndarray | None = None
        self.count = len(self._ids)
        self.nearest: Sequence[str] = ()
        self.vector: Mapping[str, float] = {}
        self.floor = 0.0
        self.query: np.ndarray | None = None

    def ids(self) -> Sequence[str]:
        return self._ids

    def start(self, text: str, n: int) -> None:
        if not len(self._ids):
            return
        self._pending = _EMBEDDING.submit(vector_scan, self._store, self._embedder, self._subject, self._ids,
                                          self._matrix, text, n, exact=self._exact or self._where.restrictive,
                                          queries=self._queries, steps=self._steps)
        self._allowed = _allowed(self._store, self._subject, self._where, self._ids)  # while the worker scans

    def finish(self, also: Sequence[str], n: int) -> Vectors:
        if self._pending is None:
            return self
        self.query, self._cosines = self._pending.result()
        cosines = self._cosines
        ids = self._ids
        self._rows, self._row_of = _shared(ids, positions(ids))
        mean, std = cosines.mean, max(cosines.std, ranking.VECTOR_MIN_STD)
        closest = cosines.nearest(n, self._allowed)
        self.nearest = [self._rows[i] for i in closest.tolist()]
        self.vector = self._z = _ZView(ids, cosines, mean, std, positions(ids))
        self.floor = (cosines.minimum - mean) / std
        return self

    def placed(self, item_id: str) -> bool:
        return self._pending is not None and self._row_of.get(item_id, self.count) < self.count

    def around(self, item_id: str) -> tuple[str | None, str | None]:
        i = self._row_of.get(item_id, self.count) if self._pending is not None else self.count
        if i >= self.count:
            return None, None
        return (self._rows[i - 1] if i > 0 else None), (self._rows[i + 1] if i < self.count - 1 else None)

    def cosine(self, item_id: str) -> float:
        if not self.placed(item_id):
            return 0.0
        return float(self._cosines.at(np.array([self._row_of[item_id]]))[0])

    def window(self, placed: Sequence[str]) -> tuple[np.ndarray, list[list[str | None]]]:
        n, rows = self.count, self._rows
        at = np.fromiter((self._row_of[i] for i in placed), dtype=np.int64, count=len(placed))
        window = np.stack([at - 1, at, at + 1])
        valid = (window >= 0) & (window < n)
        z = self._z.at(np.clip(window, 0, n - 1).ravel()).reshape(window.shape)
        ids = [[rows[r] if ok else None for r, ok in zip(line.tolist(), mask.tolist())]
               for line, mask in zip(window, valid)]
        return z, ids

    def vector_of(self, item_id: str) -> np.ndarray | None:
        if not self.placed(item_id):
            return None
        return np.asarray(self._matrix[self._row_of[item_id]], dtype=np.float64)


class ItemVectors:
    """The fetched items' own vectors, read only when newest wins asks for a few (a callable,
    `ranking.ItemVectors`): the source's (a scanned matrix), else the store's stored ones (a store
    that keeps its vectors on the server: those the shortlist fetch brought (`Shortlist`), else
    `Store.item_vectors`, one read), and only for an item with no stored vector under the
    embedder's model, its text embedded."""

    def __init__(self, vectors: Vectors, store: Store, subject: str, embedder: Embedder | None,
                 items: Sequence[Item], shortlist: Shortlist | None = None) -> None:
        self._vectors, self._store, self._subject, self._embedder = vectors, store, subject, embedder
        self._texts = {it.id: it.text for it in items}
        self._shortlist = shortlist

    def __call__(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        missing = []
        for item_id in ids:
            vector = self._vectors.vector_of(item_id)
            if vector is not None:
                found[item_id] = vector
            elif item_id in self._texts:
                missing.append(item_id)
        if not missing or self._embedder is None:
            return found
        read = self._shortlist.vectors if self._shortlist is not None else {}
        unread = [i for i in missing if self._shortlist is None or i not in self._shortlist.read]
        stored = {i: read[i] for i in missing if i in read}
        if unread:
            stored.update(self._store.item_vectors(self._subject, self._embedder.identity, unread))
        found.update((i, np.asarray(v, dtype=np.float64)) for i, v in stored.items())
        unstored = [i for i in missing if i not in stored]
        if unstored:
            embedded = self._embedder.embed([self._texts[i] for i in unstored])
            found.update((i, np.asarray(v, dtype=np.float64)) for i, v in zip(unstored, embedded))
        return found


class Shortlist:
    """Reads recall's shortlisted items (`get`). From a store that reads items with their stored
    vectors in one statement (`FetchesVectors`, PostgreSQL), it keeps those vectors (`vectors`,
    by id; `read`: every id read that way, with or without one), so `ItemVectors` asks the store
    for none of them again; any other store's items are read by `Store.get`."""

    def __init__(self, store: Store, embedder: Embedder | None) -> None:
        self._store = store
        self._model = embedder.identity if embedder is not None and isinstance(store, FetchesVectors) else None
        self.vectors: dict[str, np.ndarray] = {}
        self.read: set[str] = set()

    def get(self, ids: Sequence[str]) -> list[Item]:
        """The items of `ids` that exist, in that order (as `Store.get`)."""
        if self._model is None or not isinstance(self._store, FetchesVectors):
            return self._store.get(ids)
        items, vectors = self._store.get_with_vectors(ids, self._model)
        self.read.update(it.id for it in items)
        self.vectors.update(vectors)
        return items


def shortlist(k: int, names: frozenset[str], weights: ranking.Weights) -> int:
    """How many candidates to fetch and fully rank: SHORTLIST, or k if larger; twice k when the
    focus term will lower memories past the first places, so the named person's can fill them."""
    if weights.focus and names and k > ranking.FOCUS_AFTER:
        return max(SHORTLIST, FOCUS_SHORTLIST * k)
    return max(SHORTLIST, k)


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


def _shared(ids: Sequence[str], position: Mapping[str, int]) -> tuple[Sequence[str], Mapping[str, int]]:
    """A list to read ids by row and a plain id -> row map, for hot loops: a store snapshot's own
    (engram.store.rows; they may hold rows past len(ids), which callers leave out), else `ids`
    and `position` themselves."""
    return ids.shared() if isinstance(ids, RowIds) else (ids, position)


def _fetch(get: Callable[[Sequence[str]], list[Item]], store: Store, ranked: Sequence[str], size: int,
           around: Around, where: Filter) -> tuple[list[Item], dict[str, Item]]:
    """The first `size` ranked candidates that pass the filter (read by `get`: `Shortlist.get`),
    and every fetched item by id: those, and the write-order neighbours of each that has a session (the only ones whose
    neighbours lend context: see `neighbours`), fetched in a second read when there are any. A
    passage's neighbours are not read: its message is ranked without the context term
    (engram.core.collapse.TURN_TERMS), and its neighbours are mostly its own message's passages."""
    items: list[Item] = []
    found: dict[str, Item] = {}
    cursor = 0
    while len(items) < size and cursor < len(ranked):  # a filter may reject some: fetch more
        batch = ranked[cursor : cursor + size - len(items)]
        cursor += len(batch)
        got = {it.id: it for it in get(batch) if where.accepts(it)}
        wanted = [other for i in batch if i in got and got[i].session is not None and got[i].kind != PASSAGE
                  for other in around(i) if other is not None and other not in got and other not in found]
        if wanted:
            got.update((it.id, it) for it in store.get(list(dict.fromkeys(wanted))) if where.accepts(it))
        found.update(got)
        items += [got[i] for i in batch if i in got]
    return items[:size], found


def vector_scan(store: Store, embedder: Embedder, subject: str, ids: Sequence[str], matrix: np.ndarray, query: str,
                n: int, *, exact: bool = False, queries: QueryCache | None = None,
                steps: Steps = UNTIMED) -> tuple[np.ndarray, nearest.VectorScores]:
    """The query's vector and its cosines against a subject's (normalised) vectors: an exact scan,
    or the subject's ANN index past the crossover (engram.core.vectors)."""
    vector = embed_query(embedder, query, queries, steps)
    with steps.timed("scan"):
        return vector, nearest.scores(store, subject, embedder.identity, ids, matrix, vector, n, exact=exact)


def embed_query(embedder: Embedder, query: str, queries: QueryCache | None = None,
                steps: Steps = UNTIMED) -> np.ndarray:
    """The query's vector: from the query cache when one is given (engram.core.queries)."""
    with steps.timed("embed"):
        return queries.embed(embedder, query) if queries is not None else embedder.embed_one(query)


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
