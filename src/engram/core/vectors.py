"""Vector similarity for one recall: an exact scan below the crossover, an ANN index above it.

`scores(...)` returns a `VectorScores` for one query over one subject's vectors (the store's
cached matrix, rows in write order). Recall needs four things from it: the `n` nearest rows,
the cosine at any row (pool items and their neighbours), and the mean / spread / minimum of
all cosines (for the z-score). Two ways to answer:

- `ExactScores`: one NumPy product over every row. Every number is exact. Used while the
  subject holds fewer than `engram.core.ann.EXACT_MAX_ITEMS` vectors, when no ANN library is installed,
  while an index is still being built or loaded, and whenever recall has a restrictive filter
  (an ANN's nearest rows could all be filtered out).
- `ApproximateScores`: the `n` nearest come from an HNSW index (`engram.core.ann`); cosines of any
  other row are computed from the matrix on demand; mean, spread and minimum are estimated
  from a fixed random sample of `SAMPLE` rows. `engram bench latency` measures how often the
  top 10 of a whole recall still equals the exact one.

An index is kept per store, subject and model, and made on a background thread the first time
a subject past the crossover is searched, so no recall waits: until it is ready, recall scans
exactly. After writes it takes the new rows incrementally at the next search.

Saved indexes (a store in a SQLite file, `engram.store.sqlite_ann.FileStore`): keys are item
rowids, and the index is saved next to the store (`engram.core.ann_files`). The background job
loads the saved index instead of building one, then catches it up with the store: rows whose
key is missing or whose vector digest differs are added, keys the store no longer holds are
removed (a file more than half out of date is rebuilt instead). So a stale, foreign or
half-written file is never trusted as it is. A process re-saves an index after building it,
after catching it up, once `SAVE_AFTER_CHANGES` rows changed or `SAVE_AFTER_SECONDS` passed
with a change, and when the Memory closes; a crash loses only the rows since the last save, which
the next load adds back from the store. Other stores (PostgreSQL's own HNSW answers its
recalls; a ScopedStore; ":memory:") keep the index in process memory only.

Forgetting: `Memory`'s forget verbs call `after_delete`, which removes the deleted rows from
this process's index at once (`engram.core.ann` overwrites their vectors before hiding them),
discards a build or load that started before the delete, and, under the folder's exclusive
lock, rewrites the subject's saved index from an index synced with the store after the delete
(loading it first if this process had none), or deletes its files when the subject fell below
the crossover. Every save syncs with the store under that lock first, so no process can write a
forgotten vector back.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
import weakref
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from engram.core import ann, ann_files
from engram.errors import EmbedderMismatch, NotFound, SchemaTooNew, StoreCorrupt, StoreError
from engram.store import sqlite_ann
from engram.store.rows import extends

#: Rows sampled to estimate the mean, spread and minimum cosine over a large subject.
SAMPLE = 4096
#: Rows handed to the index per call while building.
BUILD_CHUNK = 10_000
#: A saved index is saved again once this many rows changed since, or this long after a change.
SAVE_AFTER_CHANGES = 1_000
SAVE_AFTER_SECONDS = 300.0
#: A loaded index with more than this share of its rows out of date, or of tombstones (forgotten
#: rows' noise slots), is rebuilt from the store instead of caught up.
REBUILD_SHARE = 0.5
TOMBSTONE_SHARE = 0.2

log = logging.getLogger(__name__)


def cosines(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Each row's dot product with `vector` (cosines: both are unit length), on this thread.

    NumPy's own loop (einsum), not BLAS: as fast here (~1.8 ms for 10k x 384), and it leaves no
    BLAS worker threads spinning on the other core, where the keyword search runs meanwhile
    (with `matrix @ vector` a 10k recall took p50 26 ms instead of 18 on 2 cores)."""
    scores: np.ndarray = np.einsum("ij,j->i", matrix, vector)
    return scores


class ExactScores:
    """Every cosine, from one scan of the matrix; mean, spread and minimum worked out when first
    read (recall reads them; supersession, which only wants the nearest rows, never pays for them)."""

    def __init__(self, cosines: np.ndarray) -> None:
        self.cosines = cosines

    @functools.cached_property
    def mean(self) -> float:
        return float(self.cosines.mean(dtype=np.float64)) if len(self.cosines) else 0.0

    @functools.cached_property
    def std(self) -> float:
        return float(self.cosines.std(dtype=np.float64)) if len(self.cosines) else 0.0

    @functools.cached_property
    def minimum(self) -> float:
        return float(self.cosines.min()) if len(self.cosines) else 0.0

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


class _Rows(NamedTuple):
    """A subject's vectors as the store holds them at one version: ids, matrix, and each row's key."""

    ids: Sequence[str]
    matrix: np.ndarray
    keys: np.ndarray
    version: int | None  # None for a store that keeps no files


@dataclass
class _Entry:
    """One subject's index and how its keys map to the store's current rows."""

    home: Path | None = None  # the header file of the saved index, when the store keeps files
    index: ann.AnnIndex | None = None
    ids: list[str] | None = None  # a copy of the ids the index was last synced with
    seen: Sequence[str] | None = None  # the store's own list object at that sync
    keys: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # key of each row
    order: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # rows by ascending key
    sorted_keys: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # keys[order]
    next_key: int = 0  # the next key, for stores without rowids
    building: Future[Any] | None = None
    saving: Future[Any] | None = None
    generation: int = 0  # bumped by a delete: a build or load started before it is thrown away
    origin: str = ""  # "built" or "loaded" (from the saved file)
    caught_up: int = 0  # rows a loaded index took (added, replaced or removed) to match the store
    changes: int = 0  # rows added or removed since the last save
    saved_at: float = 0.0
    save_s: float = 0.0  # how long the last save took
    ready_s: float = 0.0  # how long the last load or build took, from reading the rows to serving
    lock: threading.Lock = field(default_factory=threading.Lock)

    def rows(self, found: np.ndarray) -> np.ndarray:
        """Row positions of the keys an index search returned (keys no longer held are dropped)."""
        sorted_keys = self.sorted_keys
        at = np.minimum(np.searchsorted(sorted_keys, found), max(len(sorted_keys) - 1, 0))
        hit = sorted_keys[at] == found if len(sorted_keys) else np.zeros(len(found), dtype=bool)
        picked: np.ndarray = self.order[at[hit]]
        return picked


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
    if not entry.lock.acquire(blocking=False):  # a sync, save or build is running: do not wait for it
        return ExactScores(cosines(matrix, vector))
    try:
        if entry.index is None:
            _start(entry, store, subject, model)
            return ExactScores(cosines(matrix, vector))
        if not _current(entry, ids) and not _sync(entry, store, subject, model, ids, matrix):
            return ExactScores(cosines(matrix, vector))
        rows = entry.rows(entry.index.search(vector, n)[0])
        due = _save_due(entry, store)
    finally:
        entry.lock.release()
    if due:
        _save_later(entry, store, subject, model)
    return ApproximateScores(matrix, vector, rows)


def _entry(store: Any, subject: str, model: str) -> _Entry:
    with _ENTRIES_LOCK:
        per_store = _ENTRIES.setdefault(store, {})
        entry = per_store.get((subject, model))
        if entry is None:
            folder = sqlite_ann.folder(store)
            home = ann_files.header(folder, subject, model) if folder is not None else None
            entry = per_store[(subject, model)] = _Entry(home=home)
        return entry


def _read(store: Any, subject: str, model: str) -> _Rows | None:
    """The subject's vectors and their keys at one version (None if writes kept moving it)."""
    if not isinstance(store, sqlite_ann.FileStore) or sqlite_ann.folder(store) is None:
        ids, matrix = store.vectors(subject, model)
        return _Rows(ids, matrix, np.arange(len(ids), dtype=np.int64), None)
    for _ in range(5):
        before = sqlite_ann.version(store, subject)
        ids, matrix = store.vectors(subject, model)
        keys = sqlite_ann.keys(store, subject, model)
        if sqlite_ann.version(store, subject) == before and len(keys) == len(ids):
            return _Rows(ids, matrix, keys, before)
    return None


def _start(entry: _Entry, store: Any, subject: str, model: str, threads: int = 1) -> None:
    """Load (or else build) the index on the background thread, at most one job per subject at a
    time, with `threads` threads (one by default: recall keeps the other cores meanwhile)."""
    if entry.building is not None and not entry.building.done():
        return
    generation = entry.generation

    def job() -> None:
        started = time.perf_counter()
        rows = _read(store, subject, model)
        if rows is None or len(rows.ids) <= ann.EXACT_MAX_ITEMS:
            return
        index, caught = _load(entry.home, model, rows, threads) if entry.home is not None else (None, 0)
        origin = "built" if index is None else "loaded"
        if index is None:
            index = _build(model, rows, threads)
        with entry.lock:
            if entry.generation != generation:  # rows were deleted meanwhile: never serve them
                return
            _install(entry, index, rows, origin, caught)
            entry.ready_s = round(time.perf_counter() - started, 2)
        if entry.changes and _saves(entry, store):
            _save(entry, store, subject, model)

    entry.building = _BUILDER.submit(_logged, job)


def _logged(job: Any) -> None:
    """Run a background job; its failure is logged (recall goes on scanning exactly), never raised."""
    try:
        job()
    except Exception as exc:  # noqa: BLE001 - a background job must not die silently or kill the pool
        log.warning("ANN index job failed: %s", exc)


def _build(model: str, rows: _Rows, threads: int) -> ann.AnnIndex:
    index = ann.AnnIndex(model, int(rows.matrix.shape[1]))
    for start in range(0, len(rows.ids), BUILD_CHUNK):  # bounded copies of the (read-only) matrix
        index.add(rows.keys[start : start + BUILD_CHUNK], rows.matrix[start : start + BUILD_CHUNK], threads=threads)
    return index


def _open(home: Path, model: str, dim: int) -> ann.AnnIndex | None:
    """The saved index, or None when there is no usable file (missing, damaged, another format or
    model: it is rebuilt, and the new save replaces the file)."""
    try:
        return ann.AnnIndex.load(home, model=model, dim=dim)
    except NotFound:
        return None
    except (StoreCorrupt, SchemaTooNew, EmbedderMismatch) as exc:
        log.warning("rebuilding the ANN index: %s", exc)
        return None


def _catch_up(index: ann.AnnIndex, rows: _Rows, threads: int = 1) -> int | None:
    """Bring a loaded index to `rows`: add each row whose key it lacks or whose vector digest
    differs, remove each key the store no longer holds. Returns how many rows that took, or None
    (nothing changed) when more than REBUILD_SHARE of them would, or the index holds more than
    TOMBSTONE_SHARE tombstones: a rebuild is then cheaper, and drops them."""
    if index.tombstones > TOMBSTONE_SHARE * max(len(index), 1):
        return None
    saved, digests = index.digests()
    held = np.isin(rows.keys, saved)
    same = np.zeros(len(rows.keys), dtype=bool)
    same[held] = digests[np.searchsorted(saved, rows.keys[held])] == ann.digest(rows.matrix)[held]  # no matrix copy
    fresh = np.flatnonzero(~same)
    gone = saved[~np.isin(saved, rows.keys)]
    if len(fresh) + len(gone) > REBUILD_SHARE * max(len(rows.keys), 1):
        return None
    index.remove(gone)
    for start in range(0, len(fresh), BUILD_CHUNK):
        chunk = fresh[start : start + BUILD_CHUNK]
        index.add(rows.keys[chunk], rows.matrix[chunk], threads=threads)
    return int(len(fresh) + len(gone))


def _load(home: Path, model: str, rows: _Rows, threads: int = 1, *, lock: bool = True) -> tuple[ann.AnnIndex | None, int]:
    """The saved index caught up with `rows` and how many rows that took, or (None, 0). The
    folder's shared lock is held while the files are read (not during the catch-up), unless
    the caller holds the exclusive one (`lock=False`)."""
    if lock:
        with ann_files.locked(home.parent, exclusive=False):
            index = _open(home, model, int(rows.matrix.shape[1]))
    else:
        index = _open(home, model, int(rows.matrix.shape[1]))
    caught = _catch_up(index, rows, threads) if index is not None else None
    return (index, caught) if index is not None and caught is not None else (None, 0)


def _install(entry: _Entry, index: ann.AnnIndex, rows: _Rows, origin: str, caught: int) -> None:
    """Make `index` the entry's, synced with `rows` (the caller holds the entry's lock)."""
    entry.index, entry.origin, entry.caught_up = index, origin, caught
    entry.changes = caught if origin == "loaded" else len(rows.ids)
    entry.next_key = int(rows.keys.max()) + 1 if len(rows.keys) else 0
    _set_rows(entry, rows.ids, rows.keys)


def _set_rows(entry: _Entry, ids: Sequence[str], keys: np.ndarray, *, appended: bool = False) -> None:
    """Record the rows the index is synced with. After an append whose keys all follow the old
    ones (the usual write) this costs what was appended, not the subject's size."""
    old = entry.ids
    if appended and old is not None and entry.order is not None and _ascending_after(entry, keys, len(old)):
        old.extend(ids[len(old):])
        entry.order = np.arange(len(keys))
        entry.seen, entry.keys, entry.sorted_keys = ids, keys, keys
        return
    entry.ids, entry.seen, entry.keys = list(ids), ids, keys
    ascending = len(keys) < 2 or bool((keys[1:] > keys[:-1]).all())
    entry.order = np.arange(len(keys)) if ascending else np.argsort(keys, kind="stable")
    entry.sorted_keys = keys if ascending else keys[entry.order]


def _ascending_after(entry: _Entry, keys: np.ndarray, start: int) -> bool:
    """True when the rows before `start` were in key order and the keys from `start` on follow them."""
    before = entry.sorted_keys
    if before is not entry.keys or len(before) != start:  # the old rows were not in key order
        return False
    tail = keys[start:]
    return len(tail) == 0 or ((start == 0 or tail[0] > before[-1]) and bool((tail[1:] > tail[:-1]).all()))


def _current(entry: _Entry, ids: Sequence[str]) -> bool:
    """True when `ids` is the list the index was synced with, unchanged (no write since)."""
    old = entry.ids
    return (entry.seen is ids and old is not None and len(ids) == len(old)
            and (not ids or (ids[0] == old[0] and ids[-1] == old[-1])))


def _sync(entry: _Entry, store: Any, subject: str, model: str, ids: Sequence[str], matrix: np.ndarray) -> bool:
    """Bring the index up to the store's rows: add appended rows, drop deleted ones.

    False when the rows changed in a way that needs a rebuild (which has been started), or an
    appended row is already gone again (the next search syncs with the newer rows)."""
    assert entry.index is not None
    old = entry.ids or []
    # Rows were only appended: O(1) for two snapshots of a store's cached rows (`seen` is the
    # snapshot `old` was copied from), a comparison of the ids otherwise.
    if extends(entry.seen if entry.seen is not None else old, ids):
        added = np.arange(len(old), len(ids))
        survivors, gone = entry.keys, np.zeros(0, dtype=np.int64)
    else:
        current = set(ids)
        gone = np.fromiter((k for i, k in zip(old, entry.keys) if i not in current), dtype=np.int64)
        kept = {i: k for i, k in zip(old, entry.keys) if i in current}
        survivors = np.fromiter((kept[i] for i in ids if i in kept), dtype=np.int64)
        added = np.fromiter((r for r, i in enumerate(ids) if i not in kept), dtype=np.int64)
        if len(survivors) + len(added) != len(ids) or (len(added) and added[0] != len(survivors)):
            # Rows were inserted before surviving ones (not write order): rebuild from scratch.
            entry.index, entry.ids = None, None
            _start(entry, store, subject, model)
            return False
    if entry.home is not None:
        new_keys = sqlite_ann.keys_of(store, [ids[r] for r in added.tolist()])
        if (new_keys < 0).any():
            return False
    else:
        new_keys = np.arange(entry.next_key, entry.next_key + len(added), dtype=np.int64)
    if len(gone):
        entry.index.remove(gone)
    if len(added):
        entry.index.add(new_keys, matrix[added])
    entry.next_key = max(entry.next_key, int(new_keys.max()) + 1 if len(new_keys) else 0)
    entry.changes += len(gone) + len(added)
    _set_rows(entry, ids, np.concatenate([survivors, new_keys]), appended=survivors is entry.keys)
    return True


@functools.lru_cache(maxsize=8)
def _sample(size: int) -> np.ndarray:
    """A fixed random sample of row positions (the same for a given size; the last few kept)."""
    rng = np.random.default_rng(size)
    rows = np.sort(rng.choice(size, size=min(SAMPLE, size), replace=False))
    rows.flags.writeable = False  # shared by every caller of this size
    return rows


# -- saving --------------------------------------------------------------------------------
def _saves(entry: _Entry, store: Any) -> bool:
    """True when this entry's index is kept in a file this process may write."""
    return entry.home is not None and isinstance(store, sqlite_ann.FileStore) and not store.read_only


def _save_due(entry: _Entry, store: Any) -> bool:
    if not entry.changes or not _saves(entry, store) or (entry.saving is not None and not entry.saving.done()):
        return False
    return entry.changes >= SAVE_AFTER_CHANGES or time.monotonic() - entry.saved_at >= SAVE_AFTER_SECONDS


def _save_later(entry: _Entry, store: Any, subject: str, model: str) -> None:
    entry.saving = _BUILDER.submit(_logged, lambda: _save(entry, store, subject, model))


def _save(entry: _Entry, store: Any, subject: str, model: str) -> None:
    """Save the entry's index, synced with the store first, under the folder's exclusive lock."""
    assert entry.home is not None
    with ann_files.locked(entry.home.parent, exclusive=True):
        _save_locked(entry, store, subject, model)


def _save_locked(entry: _Entry, store: Any, subject: str, model: str) -> bool:
    """The save itself (the caller holds the exclusive lock). False if the store kept changing."""
    assert entry.home is not None
    for _ in range(5):
        before = sqlite_ann.version(store, subject)
        ids, matrix = store.vectors(subject, model)
        with entry.lock:
            if entry.index is None:
                return True
            if not _current(entry, ids) and not _sync(entry, store, subject, model, ids, matrix):
                continue
            if sqlite_ann.version(store, subject) != before:
                continue
            entry.index.stamp = str(before)
            started = time.perf_counter()
            entry.index.save(entry.home)
            entry.save_s = round(time.perf_counter() - started, 2)
            entry.changes, entry.saved_at = 0, time.monotonic()
            return True
    return False


# -- deleting and closing ------------------------------------------------------------------
def after_delete(store: Any, subject: str) -> None:
    """Called once items of `subject` are deleted: drop their vectors from this process's index
    now, not at the next recall; discard any build or load that started before the delete; and
    rewrite (or delete) the subject's saved index files so none holds a deleted vector."""
    folder = sqlite_ann.folder(store)
    with _ENTRIES_LOCK:
        held = {model: e for (name, model), e in _ENTRIES.get(store, {}).items() if name == subject}
    if folder is None:
        for model, entry in held.items():
            with entry.lock:
                entry.generation += 1
                if entry.index is not None:
                    ids, matrix = store.vectors(subject, model)
                    if len(ids) <= ann.EXACT_MAX_ITEMS or not _sync(entry, store, subject, model, ids, matrix):
                        entry.index, entry.ids = None, None
        return
    files = ann_files.headers(folder, subject)
    if not held and not files:
        return
    try:
        with ann_files.locked(folder, exclusive=True):
            saved = [_model_of(path) for path in ann_files.headers(folder, subject)]
            for model in dict.fromkeys([*held, *(m for m in saved if m is not None)]):
                _scrub(store, subject, model)
            for path in ann_files.headers(folder, subject):  # a header no model could be read from
                if _model_of(path) is None:
                    ann.delete_files(path)
    except OSError as exc:
        raise StoreError(f"the items were forgotten, but the ANN index files in {folder} could not be"
                         f" rewritten ({exc}): delete that folder by hand (it is rebuilt from the store)") from exc


def _model_of(path: Path) -> str | None:
    try:
        model = ann.read_header(path)[0]["model"]
    except (NotFound, StoreCorrupt, SchemaTooNew):
        return None
    return str(model)


def _scrub(store: Any, subject: str, model: str) -> None:
    """One model's saved index after a delete: synced and saved again, or deleted (lock held)."""
    entry = _entry(store, subject, model)
    assert entry.home is not None
    try:
        with entry.lock:
            entry.generation += 1
            rows = _read(store, subject, model)
            keep = rows is not None and len(rows.ids) > ann.EXACT_MAX_ITEMS and ann.available()
            if keep and rows is not None and entry.index is None and entry.home.exists():
                index, caught = _load(entry.home, model, rows, lock=False)
                if index is not None:
                    _install(entry, index, rows, "loaded", caught)
            if keep and rows is not None and entry.index is not None \
                    and not (_current(entry, rows.ids) or _sync(entry, store, subject, model, rows.ids, rows.matrix)):
                entry.index, entry.ids = None, None
            if not keep:
                entry.index, entry.ids = None, None
            if entry.index is None:
                ann.delete_files(entry.home)
                return
        if not _save_locked(entry, store, subject, model):
            raise StoreError("the store kept changing while its index was rewritten")
    except (OSError, StoreError) as exc:
        try:
            ann.delete_files(entry.home)
        except OSError as again:
            raise StoreError(f"the items were forgotten, but the ANN index file {entry.home} could be neither"
                             f" rewritten ({exc}) nor deleted ({again}): delete {entry.home.parent} by hand"
                             " (it is rebuilt from the store)") from again
        with entry.lock:
            entry.index, entry.ids = None, None


def forget_store(store: Any) -> None:
    """Save what changed and drop every index of a store (on close)."""
    with _ENTRIES_LOCK:
        entries = list(_ENTRIES.get(store, {}).items())
    for (subject, model), entry in entries:
        if entry.index is not None and entry.changes and _saves(entry, store):
            try:
                _save(entry, store, subject, model)
            except (OSError, StoreError) as exc:
                log.warning("could not save the ANN index of %s: %s", entry.home, exc)
    with _ENTRIES_LOCK:
        _ENTRIES.pop(store, None)


def prepare(store: Any, subject: str, model: str) -> bool:
    """Load or build (or bring up to date) a subject's index now and wait for it: for benchmarks
    and tests, which must not time a background job. True if the subject has an index."""
    ids, matrix = store.vectors(subject, model)
    if len(ids) <= ann.EXACT_MAX_ITEMS or not ann.available():
        return False
    entry = _entry(store, subject, model)
    with entry.lock:
        if entry.index is None:
            _start(entry, store, subject, model, threads=os.cpu_count() or 1)
        building = entry.building
    if building is not None:
        building.result()
    with entry.lock:
        return entry.index is not None and (_current(entry, ids) or _sync(entry, store, subject, model, ids, matrix))


def status(store: Any, subject: str, model: str) -> dict[str, Any]:
    """What this process holds for a subject's index: for benchmarks, tests and stats."""
    entry = _entry(store, subject, model)
    with entry.lock:
        index = entry.index
        return {"ready": index is not None, "origin": entry.origin, "caught_up": entry.caught_up,
                "live": len(index) if index is not None else 0,
                "tombstones": index.tombstones if index is not None else 0, "unsaved": entry.changes,
                "save_s": entry.save_s, "ready_s": entry.ready_s,
                "file": str(entry.home) if entry.home is not None else None}
