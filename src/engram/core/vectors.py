"""Vector similarity for one recall: an exact scan below the crossover, an ANN index above it.

`scores(...)` returns a `VectorScores` for one query over one subject's vectors (the store's
cached matrix, rows in write order). Recall needs four things from it: the `n` nearest rows,
the cosine at any row (pool items and their neighbours), and the mean / spread / minimum of
all cosines (for the z-score). Two ways to answer:

- `ExactScores`: one NumPy product over every row. Every number is exact. Used while the
  subject holds fewer than `engram.core.ann.EXACT_MAX_ITEMS` vectors, when no ANN library is installed,
  while an index is still being built, and whenever recall has a restrictive filter (an ANN's
  nearest rows could all be filtered out).
- `ApproximateScores`: the `n` nearest come from an HNSW index (`engram.core.ann`); cosines of any
  other row are computed from the matrix on demand; mean, spread and minimum are estimated
  from a fixed random sample of `SAMPLE` rows. `engram bench latency` measures how often the
  top 10 of a whole recall still equals the exact one.

Indexes live in this process only (keyed by store, subject and model) and are built on a
background thread the first time a subject passes the crossover, so no recall ever waits for
a build: until it is ready, recall scans exactly. After writes the index takes the new rows
incrementally at the next recall. `Memory`'s forget verbs call `after_delete`, which drops the
deleted rows from this process's indexes at once (`engram.core.ann` overwrites their vectors before
hiding them) and discards a build that started before the delete; other processes drop them at
their next recall. Nothing is written to disk, so forgetting has no index file to reach.
"""

from __future__ import annotations

import functools
import os
import threading
import weakref
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engram.core import ann
from engram.store.rows import extends

#: Rows sampled to estimate the mean, spread and minimum cosine over a large subject.
SAMPLE = 4096
#: Rows handed to the index per call while building.
BUILD_CHUNK = 10_000


def cosines(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Each row's dot product with `vector` (cosines: both are unit length), on this thread.

    NumPy's own loop (einsum), not BLAS: as fast here (~1.8 ms for 10k x 384), and it leaves no
    BLAS worker threads spinning on the other core, where the keyword search runs meanwhile
    (with `matrix @ vector` a 10k recall took p50 26 ms instead of 18 on 2 cores)."""
    scores: np.ndarray = np.einsum("ij,j->i", matrix, vector)
    return scores


class ExactScores:
    """Every cosine, from one scan of the matrix."""

    def __init__(self, cosines: np.ndarray) -> None:
        self.cosines = cosines
        self.mean = float(cosines.mean(dtype=np.float64)) if len(cosines) else 0.0
        self.std = float(cosines.std(dtype=np.float64)) if len(cosines) else 0.0
        self.minimum = float(cosines.min()) if len(cosines) else 0.0

    def at(self, rows: np.ndarray) -> np.ndarray:
        """Cosines at row positions."""
        picked: np.ndarray = self.cosines[rows]
        return picked

    def nearest(self, n: int, allowed: np.ndarray | None = None) -> np.ndarray:
        """Positions of the n most similar rows (unordered), among `allowed` rows if given."""
        scores = self.cosines if allowed is None else np.where(allowed, self.cosines, -np.inf)
        n = min(n, len(scores))
        if n <= 0:
            return np.zeros(0, dtype=np.int64)
        found = np.argpartition(-scores, n - 1)[:n]
        return found if allowed is None else found[allowed[found]]


class ApproximateScores:
    """The nearest rows from an ANN index; other cosines on demand; statistics from a sample."""

    def __init__(self, matrix: np.ndarray, vector: np.ndarray, nearest_rows: np.ndarray) -> None:
        self._matrix, self._vector, self._nearest = matrix, vector, nearest_rows

    @functools.cached_property
    def _statistics(self) -> tuple[float, float, float]:
        """Mean, spread and minimum over the fixed sample: worked out when first read (recall
        reads them; supersession, which only wants the nearest rows, never pays for them)."""
        sampled = cosines(self._matrix[_sample(len(self._matrix))], self._vector)
        return (float(sampled.mean(dtype=np.float64)), float(sampled.std(dtype=np.float64)),
                float(sampled.min()))

    @property
    def mean(self) -> float:
        return self._statistics[0]

    @property
    def std(self) -> float:
        return self._statistics[1]

    @property
    def minimum(self) -> float:
        return self._statistics[2]

    def at(self, rows: np.ndarray) -> np.ndarray:
        """Cosines at row positions, computed from their vectors."""
        rows = np.asarray(rows, dtype=np.int64)
        return cosines(self._matrix[rows], self._vector)

    def nearest(self, n: int, allowed: np.ndarray | None = None) -> np.ndarray:
        """The index's nearest rows (it was asked for at least n); `allowed` is never passed here."""
        if allowed is not None:
            raise ValueError("approximate scores take no filter: recall scans exactly when it filters")
        return self._nearest[:n]


VectorScores = ExactScores | ApproximateScores


@dataclass
class _Entry:
    """One subject's index and how its keys map to the store's current rows."""

    index: Any = None
    ids: Sequence[str] | None = None  # the store's id list the index was last synced with
    keys: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # key of each row
    row_of_key: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    next_key: int = 0
    building: Future[Any] | None = None
    generation: int = 0  # bumped by a delete: a build started before it is thrown away
    lock: threading.Lock = field(default_factory=threading.Lock)


_BUILDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-ann-build")
_ENTRIES: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], _Entry]] = weakref.WeakKeyDictionary()
_ENTRIES_LOCK = threading.Lock()


def _reset_after_fork() -> None:
    """A forked child has none of the parent's threads (a lock may be held by one): start clean."""
    global _BUILDER, _ENTRIES, _ENTRIES_LOCK
    _BUILDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-ann-build")
    _ENTRIES, _ENTRIES_LOCK = weakref.WeakKeyDictionary(), threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def scores(store: Any, subject: str, model: str, ids: Sequence[str], matrix: np.ndarray, vector: np.ndarray,
           n: int, *, exact: bool = False) -> VectorScores:
    """Cosines of `vector` against a subject's rows: exact, or from its ANN index when one is ready."""
    if exact or len(ids) <= ann.EXACT_MAX_ITEMS or not ann.available():
        return ExactScores(cosines(matrix, vector))
    entry = _entry(store, subject, model)
    if not entry.lock.acquire(blocking=False):  # a sync or build is running: do not wait for it
        return ExactScores(cosines(matrix, vector))
    try:
        if entry.index is None:
            _start_build(entry, model, ids, matrix)
            return ExactScores(cosines(matrix, vector))
        if entry.ids is not ids and not _sync(entry, model, ids, matrix):
            return ExactScores(cosines(matrix, vector))
        rows = entry.row_of_key[entry.index.search(vector, n)[0]]
        return ApproximateScores(matrix, vector, rows[rows >= 0])
    finally:
        entry.lock.release()


def _entry(store: Any, subject: str, model: str) -> _Entry:
    with _ENTRIES_LOCK:
        per_store = _ENTRIES.setdefault(store, {})
        return per_store.setdefault((subject, model), _Entry())


def _start_build(entry: _Entry, model: str, ids: Sequence[str], matrix: np.ndarray, threads: int = 1) -> None:
    """Build the index on the background thread (at most one build per subject at a time), with
    `threads` threads (one by default: recall keeps the other cores meanwhile)."""
    if entry.building is not None and not entry.building.done():
        return

    generation = entry.generation

    def build() -> None:
        index = ann.AnnIndex(model, int(matrix.shape[1]))
        keys = np.arange(len(ids), dtype=np.int64)
        for start in range(0, len(ids), BUILD_CHUNK):  # bounded copies of the (read-only) matrix
            index.add(keys[start : start + BUILD_CHUNK], matrix[start : start + BUILD_CHUNK], threads=threads)
        with entry.lock:
            if entry.generation != generation:  # rows were deleted meanwhile: never serve them
                return
            entry.index, entry.ids, entry.keys, entry.next_key = index, ids, keys, len(ids)
            entry.row_of_key = keys.copy()

    entry.building = _BUILDER.submit(build)


def _sync(entry: _Entry, model: str, ids: Sequence[str], matrix: np.ndarray) -> bool:
    """Bring the index up to the store's rows: add appended rows, drop deleted ones.

    False when the rows changed in a way that needs a rebuild (which has been started)."""
    old = entry.ids or []
    if extends(old, ids):  # rows were only appended (O(1) for two snapshots of a store's cached rows)
        added = np.arange(len(old), len(ids))
        survivors = entry.keys
    else:
        current = set(ids)
        gone = np.fromiter((k for i, k in zip(old, entry.keys) if i not in current), dtype=np.int64)
        if len(gone):
            entry.index.remove(gone)
        kept = {i: k for i, k in zip(old, entry.keys) if i in current}
        survivors = np.fromiter((kept[i] for i in ids if i in kept), dtype=np.int64)
        added = np.fromiter((r for r, i in enumerate(ids) if i not in kept), dtype=np.int64)
        if len(survivors) + len(added) != len(ids) or (len(added) and added[0] != len(survivors)):
            # Rows were inserted before surviving ones (not write order): rebuild from scratch.
            entry.index, entry.ids = None, None
            _start_build(entry, model, ids, matrix)
            return False
    new_keys = np.arange(entry.next_key, entry.next_key + len(added), dtype=np.int64)
    if len(added):
        entry.index.add(new_keys, matrix[added])
    appended = survivors is entry.keys
    entry.keys = np.concatenate([survivors, new_keys])
    entry.next_key += len(added)
    if appended:  # old keys keep their rows; the new ones follow (no O(n) rebuild per write)
        entry.row_of_key = np.concatenate([entry.row_of_key, np.arange(len(survivors), len(entry.keys))])
    else:
        entry.row_of_key = np.full(entry.next_key, -1, dtype=np.int64)
        entry.row_of_key[entry.keys] = np.arange(len(entry.keys))
    entry.ids = ids
    return True


@functools.lru_cache(maxsize=8)
def _sample(size: int) -> np.ndarray:
    """A fixed random sample of row positions (the same for a given size; the last few kept)."""
    rng = np.random.default_rng(size)
    rows = np.sort(rng.choice(size, size=min(SAMPLE, size), replace=False))
    rows.flags.writeable = False  # shared by every caller of this size
    return rows


def forget_store(store: Any) -> None:
    """Drop every index of a store (on close)."""
    with _ENTRIES_LOCK:
        _ENTRIES.pop(store, None)


def after_delete(store: Any, subject: str) -> None:
    """Called once items of `subject` are deleted: drop their vectors from this process's indexes
    now, not at the next recall, and discard any build that started before the delete."""
    with _ENTRIES_LOCK:
        entries = [(model, e) for (name, model), e in _ENTRIES.get(store, {}).items() if name == subject]
    for model, entry in entries:
        with entry.lock:
            entry.generation += 1
            if entry.index is not None:
                ids, matrix = store.vectors(subject, model)
                if len(ids) <= ann.EXACT_MAX_ITEMS or not _sync(entry, model, ids, matrix):
                    entry.index, entry.ids = None, None


def prepare(store: Any, subject: str, model: str) -> bool:
    """Build (or bring up to date) a subject's index now and wait for it: for benchmarks and
    tests, which must not time a background build. True if the subject has an index."""
    ids, matrix = store.vectors(subject, model)
    if len(ids) <= ann.EXACT_MAX_ITEMS or not ann.available():
        return False
    entry = _entry(store, subject, model)
    with entry.lock:
        if entry.index is None:
            _start_build(entry, model, ids, matrix, threads=os.cpu_count() or 1)
        building = entry.building
    if building is not None:
        building.result()
    with entry.lock:
        return entry.index is not None and (entry.ids is ids or _sync(entry, model, ids, matrix))
