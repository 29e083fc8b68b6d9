"""Read connections for one SQLite store, so threads read at once (WAL: readers never wait for
the writer, nor for each other).

The store keeps one connection for writes, used under its lock. Reads check a connection out
of a small pool (`READERS`, opened on first use, kept idle between reads, closed with the store)
and give it back; when every one is busy, or in a process forked from the one that opened them,
the read uses the store's own connection under its lock, as it did before the pool existed. A
pool rather than one connection per thread: a server with a thread per request would otherwise
leave a connection behind for every thread it ever ran.

Each read connection opens the same file with the same SQL functions and `query_only` set, so
a read can never write. In autocommit mode, each statement reads one committed snapshot; a
caller needing two statements to agree wraps them in `snapshot` (one read transaction).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: Read connections per store. One is enough for reads never to wait for a write transaction;
#: more did not buy throughput on a 2-core machine, because the rest of a recall holds Python's
#: GIL: `engram bench tenants` (1,000 subjects x 1,000 items, 4 client threads) made 78 recalls/s
#: with every read on the store's own connection, 74 with one reader and 58 with four.
READERS = 1


class Readers:
    """A bounded pool of read connections made by `open_`."""

    def __init__(self, open_: Callable[[], sqlite3.Connection], size: int = READERS) -> None:
        self._open = open_
        self.size = size
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._opened = 0
        self._pid = os.getpid()
        self._closed = False

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection | None]:
        """A read connection for the duration of the block, or None when none is free (the
        caller then reads through the store's own connection)."""
        db = self._checkout()
        try:
            yield db
        finally:
            if db is not None:
                self._checkin(db)

    def _checkout(self) -> sqlite3.Connection | None:
        with self._lock:
            if self._closed or os.getpid() != self._pid:
                return None
            if self._idle:
                return self._idle.pop()
            if self._opened >= self.size:
                return None
            self._opened += 1
        try:
            db = self._open()
            db.execute("PRAGMA query_only = ON")
            return db
        except BaseException:
            with self._lock:
                self._opened -= 1
            raise

    def _checkin(self, db: sqlite3.Connection) -> None:
        if db.in_transaction:  # a read left open by an error: end it, never keep a stale snapshot
            db.execute("ROLLBACK")
        with self._lock:
            if not self._closed:
                self._idle.append(db)
                return
        db.close()

    def close(self) -> None:
        """Close every idle connection; one still checked out is closed when it comes back."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()


@contextmanager
def snapshot(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction on an autocommit connection: every statement in it sees the same data
    (inside a transaction already open on it, that one)."""
    if db.in_transaction:
        yield db
        return
    db.execute("BEGIN")
    try:
        yield db
    finally:
        if db.in_transaction:
            db.execute("COMMIT")
