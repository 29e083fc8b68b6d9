"""Access counts that recall records, kept in memory and written later in one transaction.

Recall never writes: `Memory.recall` adds its hits here (one more access each, and the time of
the last one) and returns. The counts reach the store (`Store.touch`, one transaction) at the
latest FLUSH_AFTER_S seconds later, on a timer thread; earlier with the next write through the
same Memory (`remember`, `update`, `forget`, ...), with `Memory.admin.flush_accesses()`, and before
anything that reads them (`Memory.stats`, importance scoring, pruning, consolidation). `close()`
writes what is left and raises if it cannot, so counts are never dropped silently (a Memory
never closed writes them at interpreter exit, logging what fails). A flush
that fails (the store is locked by another writer for longer than its retries) keeps the
counts for the next one. A forked child starts with none (its parent writes its own).
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import weakref
from collections.abc import Sequence

from engram.errors import StoreError
from engram.store import Store

#: Buffered counts are written at most this many seconds after the first of them was recorded.
FLUSH_AFTER_S = 5.0

_log = logging.getLogger(__name__)
_ALL: weakref.WeakSet[AccessLog] = weakref.WeakSet()


class AccessLog:
    """Accesses recorded since the last flush: item id -> (count, time of the last access)."""

    def __init__(self, store: Store, flush_after: float | None = None) -> None:
        self._store = store
        self._flush_after = FLUSH_AFTER_S if flush_after is None else flush_after
        self._pending: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()
        self._flushing = threading.Lock()  # one flush at a time, so counts reach the store in order
        self._timer: threading.Timer | None = None
        self._closed = False
        _ALL.add(self)

    def __len__(self) -> int:
        """How many items have accesses not yet written."""
        return len(self._pending)

    def record(self, ids: Sequence[str], at: float) -> None:
        """One access to each id at time `at` (no I/O; a timer writes them within FLUSH_AFTER_S)."""
        if not ids:
            return
        with self._lock:
            if self._closed:
                return
            for item_id in ids:
                count, _ = self._pending.get(item_id, (0, at))
                self._pending[item_id] = (count + 1, at)
            if self._timer is None:
                self._timer = threading.Timer(self._flush_after, self._flush_quietly)
                self._timer.daemon = True
                self._timer.start()

    def flush(self) -> int:
        """Write every buffered access now, in one transaction; returns how many items were updated.
        On an error the accesses stay buffered and the error is raised."""
        with self._flushing:
            with self._lock:
                taken, self._pending = self._pending, {}
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            if not taken:
                return 0
            try:
                self._store.touch(taken)
            except BaseException:
                self._give_back(taken)
                raise
            return len(taken)

    def _give_back(self, taken: dict[str, tuple[int, float]]) -> None:
        """Put accesses that could not be written back in front of any recorded since."""
        with self._lock:
            for item_id, (count, at) in self._pending.items():
                before = taken.get(item_id, (0, at))[0]
                taken[item_id] = (before + count, at)
            self._pending = taken

    def flush_quietly(self) -> None:
        """`flush`, logging instead of raising (for writes that must not fail for a count):
        what could not be written stays buffered for the next flush."""
        try:
            self.flush()
        except StoreError as exc:  # the store said why; the counts are kept
            _log.warning("access counts not written yet (%d items kept for the next flush): %s", len(self), exc)

    def _flush_quietly(self) -> None:
        with self._lock:
            self._timer = None
        self.flush_quietly()
        with self._lock:  # what failed to flush is tried again after another interval
            if self._pending and self._timer is None and not self._closed:
                self._timer = threading.Timer(self._flush_after, self._flush_quietly)
                self._timer.daemon = True
                self._timer.start()

    def close(self) -> None:
        """Write what is left and stop recording; raises the store's error if the counts cannot be written."""
        try:
            self.flush()
        finally:
            with self._lock:
                self._closed = True
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None


def _flush_at_exit() -> None:
    """At interpreter exit, write what Memories that were never closed still hold (logged if it fails)."""
    for log in list(_ALL):
        if not log._closed:
            log.flush_quietly()


atexit.register(_flush_at_exit)


def _forget_after_fork() -> None:
    """A forked child holds a copy of its parent's buffered counts: the parent writes them, not it."""
    for log in list(_ALL):
        log._pending = {}
        log._timer = None
        log._lock = threading.Lock()
        log._flushing = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)
