"""The SQLite store's checkpoints, run on a thread of their own instead of inside a write.

SQLite copies the write-ahead log back into the database (a checkpoint, with two fsyncs) from
inside the commit that takes the log past `wal_autocheckpoint` pages, so that one write waits for
it: at 10k items a single write's COMMIT took 0.28 ms on average and up to 7.6 ms at load 1.5
(34 ms at load 5), against 0.1 ms for the others. Instead, after a commit that leaves `PAGES`
pages of the log not yet copied (SQLite's own default, 1,000; read from the wal-index header in
the -shm file as https://www.sqlite.org/walformat.html lays it out, or, where it cannot be read,
every `ROWS` rows the store's connection changed), a `Checkpointer` thread runs a passive
checkpoint on a connection of its own: it blocks neither the writer nor a reader, and writes go
on meanwhile. Then it copies the pages those writes added in a short second pass holding the
store's write lock (waiting `LOCK_WAIT_S` for it at most), so the log is copied whole and the
next write starts it over from its beginning instead of letting it grow. A writer writing without
pause can keep that lock from the thread (Python's locks do not queue their waiters): then the
writer's next commit copies the few pages left itself, so the log starts over all the same. The
connections keep
SQLite's own checkpoint as a backstop, at `BACKSTOP_PAGES`, for a log that grows faster than the
thread copies it. `wait()` lets the scrub after a delete (which truncates the log) and close run
theirs once the thread's is done.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

#: Pages in the log not yet copied into the database at which a background checkpoint starts.
PAGES = 1000
#: Without a readable wal-index: rows changed through the store's connection (`total_changes`)
#: between background checkpoints (a one-fact write changes about as many rows as it writes pages).
ROWS = 700
#: Pages in the log at which a connection checkpoints in its own commit, as SQLite does by default
#: at 1,000 (PRAGMA wal_autocheckpoint): only when the thread falls behind.
BACKSTOP_PAGES = 4000
#: How long the last short pass waits for the store's write lock (a write holds it for about a
#: millisecond) before it is left for next time.
LOCK_WAIT_S = 0.05

log = logging.getLogger(__name__)

_WAL_INDEX_VERSION = 3007000  # the wal-index header's iVersion


def uncopied_pages(shm: BinaryIO) -> int | None:
    """Pages in the log not yet copied into the database: mxFrame (byte 16 of the wal-index header)
    minus nBackfill (byte 96), both in the machine's byte order; None when the header is not one
    SQLite wrote (another version, not initialised). Read without a lock: a torn read only moves
    one checkpoint."""
    shm.seek(0)
    head = shm.read(100)
    if len(head) < 100 or int.from_bytes(head[0:4], sys.byteorder) != _WAL_INDEX_VERSION or head[12] != 1:
        return None
    return int.from_bytes(head[16:20], sys.byteorder) - int.from_bytes(head[96:100], sys.byteorder)


class Checkpointer:
    """Passive checkpoints of one SQLite file on a background thread, one at a time."""

    def __init__(self, open_: Callable[[], sqlite3.Connection], write_lock: Any, path: str) -> None:
        self._open = open_
        self._shm_path = Path(f"{path}-shm")
        self._shm: BinaryIO | None = None
        self._write_lock = write_lock  # the store's: held by every write transaction
        self._state = threading.Lock()
        self._thread: threading.Thread | None = None
        self._db: sqlite3.Connection | None = None
        self._mark = 0  # the writer's total_changes when the last checkpoint was started
        self._pid = os.getpid()
        self._closed = False
        self._unfinished = False  # the last run's short pass did not get the write lock
        self.runs = 0  # checkpoints finished (for tests and `engram bench writes`)

    def after_commit(self, total_changes: int) -> None:
        """Called after each commit with the writing connection's `total_changes`: start a
        checkpoint when `PAGES` pages are left to copy (or `ROWS` rows changed since the last
        one) and none is running; copy what a finished run had to leave (the caller holds the
        store's write lock)."""
        if self._unfinished:
            self._finish()
            return
        pages = self._uncopied()
        if (total_changes - self._mark < ROWS) if pages is None else (pages < PAGES):
            return
        with self._state:
            if self._closed or os.getpid() != self._pid or (self._thread is not None and self._thread.is_alive()):
                return
            self._mark = total_changes
            self._thread = threading.Thread(target=self._run, name="engram-checkpoint", daemon=True)
            self._thread.start()

    def _uncopied(self) -> int | None:
        try:
            if self._shm is None:
                self._shm = open(self._shm_path, "rb", buffering=0)  # noqa: SIM115 (closed by close())
            return uncopied_pages(self._shm)
        except OSError:
            return None

    def _run(self) -> None:
        try:
            if self._db is None:
                self._db = self._open()
            db = self._db
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()  # the bulk, beside the writes
            # Bounded: a scrub holds the lock while it waits for this thread, and then this pass is skipped.
            if self._write_lock.acquire(timeout=LOCK_WAIT_S):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()  # what came meanwhile
                finally:
                    self._write_lock.release()
            else:
                self._unfinished = True  # the writer's next commit copies the rest
            self.runs += 1
        except sqlite3.Error as exc:  # the next run, or the backstop, checkpoints instead
            log.debug("background checkpoint failed: %s", exc)

    def _finish(self) -> None:
        """The short pass a run could not take the write lock for, run by the writer holding it
        once that run is over: the pages written during its bulk pass."""
        with self._state:
            if self._thread is not None and self._thread.is_alive():
                return  # still in its bulk pass: the writer's next commit looks again
            self._unfinished = False
            db = self._db
        if db is None or os.getpid() != self._pid:
            return
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as exc:
            log.debug("finishing a background checkpoint failed: %s", exc)

    def wait(self) -> None:
        """Return once no checkpoint of this thread is running (the caller holds the store's
        write lock, so no commit starts another meanwhile)."""
        thread = self._thread
        if thread is not None:
            thread.join()

    def close(self) -> None:
        """Wait for a running checkpoint, start no more, close the connection."""
        with self._state:
            self._closed = True
        self.wait()
        if self._db is not None and os.getpid() == self._pid:
            self._db.close()
        self._db = None
        if self._shm is not None:
            self._shm.close()
            self._shm = None
