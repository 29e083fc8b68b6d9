"""The embedded default backend: one SQLite file, WAL, FTS5 BM25, vectors as float32 BLOBs.

Deleted text is overwritten (`secure_delete`), the FTS5 index is merged so no stale term
survives in old segments, and the WAL is checkpointed and truncated after every delete.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from engram.errors import (
    StoreBusy,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreUnavailable,
)
from engram.store import migrations
from engram.store.base import Filter, Placement
from engram.store.cache import BoundedCache
from engram.store.sql import (
    COLUMNS,
    SELECT_ITEMS,
    SQLITE,
    UPDATABLE,
    find_query,
    item_row,
    row_item,
    supersede_runs,
    where,
)
from engram.text import fold
from engram.types import Item

BUSY_TIMEOUT_MS = 5000
BUSY_RETRIES = 8


class SQLiteStore:
    """A Store on one SQLite file (or ":memory:")."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self.url = self.path
        self._lock = threading.RLock()
        # Per-subject matrices, bounded (engram.store.cache); a version read per recall keeps them fresh.
        self._vector_cache: BoundedCache[tuple[int, list[str], np.ndarray]] = BoundedCache()
        self._db = self._connect()
        with self._translate():
            migrations.apply(self)

    # -- connection -----------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreUnavailable(f"cannot open {self.path}: folder {parent} does not exist")
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
            db.create_function("casefold", 1, _casefold, deterministic=True)
            db.create_function("engram_scope", 1, migrations.scope_token, deterministic=True)
            for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "secure_delete = ON",
                           "foreign_keys = ON", f"busy_timeout = {BUSY_TIMEOUT_MS}"):
                db.execute(f"PRAGMA {pragma}")
        except sqlite3.DatabaseError as exc:
            raise _translate_error(exc, self.path) from exc
        return db

    def close(self) -> None:
        """Checkpoint and truncate the WAL, then close."""
        with self._lock:
            if self._db is None:
                return
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError:
                pass  # another process may hold a read lock; its own close will checkpoint
            self._db.close()
            self._db = None  # type: ignore[assignment]

    def __enter__(self) -> "SQLiteStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @contextmanager
    def _translate(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise _translate_error(exc, self.path) from exc

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE), retried with backoff while the file is locked."""
        if self._db is None:
            raise StoreUnavailable(f"store {self.path} is closed")
        with self._lock:
            for attempt in range(BUSY_RETRIES):
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as exc:
                    if not _is_busy(exc) or attempt == BUSY_RETRIES - 1:
                        raise _translate_error(exc, self.path) from exc
                    time.sleep(min(1.0, 0.01 * 2**attempt) * (0.5 + random.random()))
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.DatabaseError):
                    raise _translate_error(exc, self.path) from exc
                raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self._db is None:
            raise StoreUnavailable(f"store {self.path} is closed")
        with self._lock, self._translate():
            return self._db.execute(sql, params).fetchall()

    # -- Store protocol -------------------------------------------------------------------
    def put(
        self,
        items: Sequence[Item],
        vectors: Mapping[str, np.ndarray] | None = None,
        supersede: Mapping[str, str] | None = None,
        model: str | None = None,
    ) -> list[Placement]:
        placements: list[Placement] = []
        by_id = {item.id: item for item in items}
        runs = supersede_runs(items, supersede)
        with self.transaction() as db:
            for old_ids, run in runs:
                for old_id in old_ids:
                    db.execute(
                        "UPDATE items SET valid_to = ?, superseded_by = ? WHERE id = ? AND valid_to IS NULL",
                        (run[0].valid_from, run[0].id, old_id),
                    )
                placements.extend(self._insert(db, item) for item in run)
            for placement in placements:
                vector = (vectors or {}).get(placement.id)
                if placement.created and vector is not None:
                    self._insert_vector(db, by_id[placement.id], vector, model or "")
        return placements

    def _insert(self, db: sqlite3.Connection, item: Item) -> Placement:
        cols = ", ".join(COLUMNS) + ", dedupe, scope"
        marks = ", ".join("?" * (len(COLUMNS) + 2))
        row = (*item_row(item), migrations.scope_token(item.subject))
        cur = db.execute(f"INSERT OR IGNORE INTO items ({cols}) VALUES ({marks})", row)
        if cur.rowcount == 1:
            return Placement(item.id, True)
        existing = db.execute(
            "SELECT id FROM items WHERE subject = ? AND dedupe = ? AND valid_to IS NULL",
            (item.subject, item_row(item)[-1]),
        ).fetchone()
        if existing is None:  # the ignore came from another constraint: say which
            db.execute(f"INSERT INTO items ({cols}) VALUES ({marks})", row)
            raise StoreError(f"item {item.id} was not inserted")
        return Placement(existing[0], False)

    def _insert_vector(self, db: sqlite3.Connection, item: Item, vector: np.ndarray, model: str) -> None:
        blob = np.asarray(vector, dtype=np.float32).tobytes()
        db.execute(
            "INSERT OR REPLACE INTO vectors (item_rowid, subject, model, vec)"
            " SELECT rowid, subject, ?, ? FROM items WHERE id = ?",
            (model, blob, item.id),
        )

    def set_vectors(self, vectors: Mapping[str, np.ndarray], model: str) -> None:
        """Replace the vectors of existing items (used by reindex)."""
        items = self.get(list(vectors))
        with self.transaction() as db:
            for item in items:
                self._insert_vector(db, item, vectors[item.id], model)

    def update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        bad = set(changes) - UPDATABLE
        if bad:
            raise StoreError(f"cannot update {sorted(bad)}: updatable fields are {sorted(UPDATABLE)}")
        if not ids or not changes:
            return 0
        values = [_column_value(k, v) for k, v in changes.items()]
        assignments = ", ".join(f"{k} = ?" for k in changes)
        with self.transaction() as db:
            total = 0
            for item_id in ids:
                total += db.execute(f"UPDATE items SET {assignments} WHERE id = ?", (*values, item_id)).rowcount
        return total

    def touch(self, ids: Sequence[str], now: float) -> None:
        """Count one access to each item."""
        if not ids:
            return
        marks = ", ".join("?" * len(ids))
        with self.transaction() as db:
            db.execute(
                f"UPDATE items SET access_count = access_count + 1, last_accessed = ? WHERE id IN ({marks})",
                (now, *ids),
            )

    def get(self, ids: Sequence[str]) -> list[Item]:
        if not ids:
            return []
        found: dict[str, Item] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            for row in self._read(f"{SELECT_ITEMS} WHERE i.id IN ({marks})", chunk):
                found[row[0]] = row_item(row)
        return [found[i] for i in ids if i in found]

    def find(self, subject: str, where_: Filter = Filter(), limit: int | None = None,
             newest_first: bool = True) -> list[Item]:
        sql, params = find_query(subject, where_, SQLITE, limit, newest_first)
        return [row_item(r) for r in self._read(sql, params)]

    def keyword(self, subject: str, terms: Sequence[str], where_: Filter, limit: int) -> list[tuple[str, float]]:
        if not terms:
            return []
        # The scope column (one token per subject) cuts the match to the subject's rows before
        # BM25 ranks them; its weight is 0, so only the text scores. The subject test stays below.
        # In a store that holds one subject it would cut nothing and costs ~25%: left out there.
        match = "text : (" + " OR ".join(_quote_term(t) for t in terms) + ")"
        if not self._only_subject(subject):
            match = f"scope : {migrations.scope_token(subject)} AND {match}"
        clause, params = where(subject, where_, SQLITE)
        sql = (
            "SELECT i.id, -bm25(items_fts, 1.0, 0.0) AS score FROM items_fts JOIN items i ON i.rowid = items_fts.rowid"
            f" WHERE items_fts MATCH ? AND {clause} ORDER BY score DESC LIMIT ?"
        )
        return [(r[0], float(r[1])) for r in self._read(sql, [match, *params, int(limit)])]

    def _only_subject(self, subject: str) -> bool:
        """True when every item of the store belongs to `subject` (two index lookups)."""
        row = self._read("SELECT (SELECT min(subject) FROM items), (SELECT max(subject) FROM items)")
        return row[0][0] == subject == row[0][1]

    def vectors(self, subject: str, model: str) -> tuple[list[str], np.ndarray]:
        row = self._read("SELECT version FROM vector_versions WHERE subject = ?", (subject,))
        version = row[0][0] if row else 0
        cached = self._vector_cache.get(subject, model)
        if cached and cached[0] == version:
            return cached[1], cached[2]
        rows = self._read(
            "SELECT i.id, v.vec FROM vectors v JOIN items i ON i.rowid = v.item_rowid"
            " WHERE v.subject = ? AND v.model = ? ORDER BY v.item_rowid",
            (subject, model),
        )
        ids = [r[0] for r in rows]
        matrix = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
                  if rows else np.zeros((0, 0), dtype=np.float32))
        self._vector_cache.put(subject, model, (version, ids, matrix), matrix.nbytes + 80 * len(ids))
        return ids, matrix

    def cache_stats(self) -> dict[str, float | int]:
        """The vector cache's entries, bytes, bounds and hit rate."""
        return self._vector_cache.stats()

    def vector_models(self) -> dict[str, int]:
        """How many vectors each model identity holds."""
        return {m: n for m, n in self._read("SELECT model, count(*) FROM vectors GROUP BY model")}

    def delete(self, subject: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        total = 0
        with self.transaction() as db:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ", ".join("?" * len(chunk))
                total += db.execute(
                    f"DELETE FROM items WHERE subject = ? AND id IN ({marks})", (subject, *chunk)
                ).rowcount
            # Merge FTS5 segments so deleted terms leave the index itself, not just get masked.
            db.execute("INSERT INTO items_fts(items_fts) VALUES ('optimize')")
        self.scrub()
        return total

    def scrub(self) -> None:
        """Copy the WAL into the database and truncate it, so no deleted page survives there."""
        with self._lock, self._translate():
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def setting(self, key: str, value: str | None = None, *, delete: bool = False) -> str | None:
        if delete:
            with self.transaction() as db:
                db.execute("DELETE FROM settings WHERE key = ?", (key,))
            return None
        if value is not None:
            with self.transaction() as db:
                db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))
            return value
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def settings(self, prefix: str) -> dict[str, str]:
        """Every setting whose key starts with `prefix`."""
        rows = self._read("SELECT key, value FROM settings WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
        return dict(rows)

    def subjects(self) -> dict[str, int]:
        return dict(self._read("SELECT subject, count(*) FROM items GROUP BY subject ORDER BY subject"))


    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """A read-only query (for migrations, stats and audit)."""
        return self._read(sql, params)


def _casefold(value: Any) -> Any:
    """SQL `casefold(x)`: Engram's one text rule (engram.text.fold), the same as PostgreSQL's folded copy."""
    return fold(value) if isinstance(value, str) else value


def _column_value(key: str, value: Any) -> Any:
    if key == "metadata":
        from engram.types import dumps

        return dumps(dict(value))
    return value


def _quote_term(term: str) -> str:
    """One user word as an FTS5 string literal: no operator, column filter or syntax error."""
    return '"' + term.replace('"', '""') + '"'


def _is_busy(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def _space_exhausted(path: str) -> bool:
    """True when the file's disk is (nearly) full or the process's file-size limit is reached."""
    import resource
    import shutil

    try:
        if shutil.disk_usage(Path(path).resolve().parent).free < 1 << 20:
            return True
        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        sizes = [os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p)]
        return limit != resource.RLIM_INFINITY and max(sizes, default=0) + (1 << 16) >= limit
    except OSError:
        return False


def _translate_error(exc: sqlite3.Error, path: str) -> StoreError:
    text = str(exc)
    if _is_busy(exc):
        return StoreBusy(f"{path} stayed locked by another writer after retries: {text}")
    if "disk is full" in text or "database or disk is full" in text or (
            "disk I/O error" in text and _space_exhausted(path)):
        return StoreFull(f"{path}: the disk is full; nothing was written ({text})")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreCorrupt(
            f"{path} is damaged ({text}); restore a backup, or salvage it with "
            f"`sqlite3 {path} .recover | sqlite3 recovered.db`"
        )
    if "unable to open" in text:
        return StoreUnavailable(f"cannot open {path}: {text}")
    if "disk I/O error" in text:
        return StoreError(f"{path}: disk I/O error; nothing was written: check free space and the disk ({text})")
    return StoreError(f"{path}: {text}")
