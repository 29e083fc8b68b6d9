"""The embedded default backend: one SQLite file, WAL, BM25 by engram.store.keyword, vectors as float32 BLOBs.

Deleted text is overwritten (`secure_delete`), the keyword index's segments holding a deleted
item are rewritten without it in the same transaction, and the WAL is checkpointed and truncated
after every delete.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator, Mapping, Sequence, TypeVar

import numpy as np

from engram.errors import (NotAStore, ReadOnlyStore, StoreBusy, StoreCorrupt, StoreError,
                           StoreFull, StoreUnavailable, WriteConflict)
from engram.store import keyword as kw
from engram.store import spelling
from engram.store import migrations
from engram.store import sqlite_traces
from engram.store.base import Filter, Leftovers, Placement, Traces, Vectors
from engram.retry import retry
from engram.store.traces import count_in_file, raw_needles
from engram.store.cache import BoundedCache
from engram.store.relational import RelationalStore
from engram.store.rows import Rows
from engram.store.sqlite_checkpoint import BACKSTOP_PAGES, Checkpointer
from engram.store.sqlite_readers import Readers, snapshot
from engram.store.sql import (COLUMNS, SELECT_ITEMS, SQLITE, Execute, Runs, close_superseded, promote_staged, item_row,
                              rehash, row_item, sqlite_folded, where_clause)
from engram.store.conditions import SEARCHED_COLUMNS
from engram.text import fold
from engram.types import Item

T = TypeVar("T")
BUSY_TIMEOUT_MS = 5000
BUSY_RETRIES = 8
SQLITE_HEADER = b"SQLite format 3\x00"
KEYWORD = kw.Statements(ph="?", key="rowid",
                        by_keys="json_each(?) AS k CROSS JOIN items i ON i.rowid = k.value")


class SQLiteStore(RelationalStore):
    """A Store on one SQLite file (or ":memory:").

    `read_only=None` (the default) opens the file read-only when it cannot be written (file
    mode, owner, read-only file system); `True` always does, `False` never. A read-only store
    answers every read; every write raises `ReadOnlyStore` and nothing is changed.
    """

    keyword_sql = KEYWORD  # the keyword index's statements (audit reads the index with them)
    dialect = SQLITE

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool | None = None) -> None:
        self.path = str(path)
        self.url = self.path
        self._lock = threading.RLock()  # the store's own connection: writes, and reads inside them
        self._local = threading.local()  # `writing`: this thread is inside a write on that connection
        # Per-subject matrices, bounded (engram.store.cache); a version read per recall keeps them
        # fresh, and this store's own writes append to them in place (engram.store.rows).
        self._vector_cache: BoundedCache[Rows] = BoundedCache()
        self._vocabularies = spelling.Vocabularies()  # keyword terms per subject, for misspelt query words
        self._check_file()
        unwritable = _unwritable(self.path)
        self.read_only: bool = bool(unwritable) if read_only is None else read_only
        self._why_read_only = unwritable or "it was opened read-only"
        self._readers: Readers | None = None  # after the checks below (they read on the own connection)
        self._scrub_blocked = False  # the last checkpoint was held back by another connection's reader
        # Checkpoints on a thread of their own, not inside a write (engram.store.sqlite_checkpoint).
        self._checkpoints: Checkpointer | None = None
        self._db: sqlite3.Connection | None = self._connect()
        try:
            with self._translate():
                if self.read_only:
                    migrations.check(self)
                else:
                    migrations.apply(self)
                    self._db.execute("PRAGMA journal_mode = WAL")  # after the check: a foreign file stays as it was
                    with self.transaction() as db:  # the keyword index after a migration, or if stale
                        kw.ensure(db, KEYWORD)
                        rehash(db.execute, SQLITE)  # content hashes of an older rule, once
        except BaseException:
            self._db.close()
            raise
        # Reads on their own connections (engram.store.sqlite_readers); an in-memory database
        # exists only on its one connection.
        if self.path != ":memory:":
            self._readers = Readers(self._connect)
            if not self.read_only:
                self._checkpoints = Checkpointer(self._connect, self._lock, self.path)

    # -- connection -----------------------------------------------------------------------
    def _check_file(self) -> None:
        """A missing folder, or a file that is not SQLite at all, is refused before SQLite touches it."""
        if self.path == ":memory:":
            return
        file = Path(self.path)
        if not file.parent.is_dir():
            raise StoreUnavailable(f"cannot open {self.path}: folder {file.parent} does not exist: create it first")
        try:
            with open(file, "rb") as handle:
                head = handle.read(4096)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreUnavailable(f"cannot open {self.path}: {exc.strerror}") from exc
        if head and not head.startswith(SQLITE_HEADER) and _is_text(head):
            # A damaged store is binary (SQLite pages): text was never a store, so no salvage advice.
            raise NotAStore(f"{self.path} is not an Engram store (it is a text file, not a SQLite database):"
                            " left as it was; give --db the path of a store, or a new file name to create one")

    def _connect(self) -> sqlite3.Connection:
        try:
            if self.read_only:
                db = self._connect_read_only()
            else:
                db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                     check_same_thread=False)
            db.create_function("casefold", 1, _casefold, deterministic=True)
            db.create_function("engram_folded", len(SEARCHED_COLUMNS), sqlite_folded, deterministic=True)
            db.create_function("engram_scope", 1, migrations.scope_token, deterministic=True)
            pragmas = [f"busy_timeout = {BUSY_TIMEOUT_MS}", "foreign_keys = ON"]
            if not self.read_only:
                pragmas += ["synchronous = NORMAL", "secure_delete = ON", f"wal_autocheckpoint = {BACKSTOP_PAGES}"]
            for pragma in pragmas:
                db.execute(f"PRAGMA {pragma}")
        except sqlite3.DatabaseError as exc:
            raise _translate_error(exc, self.path) from exc
        return db

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection. In a folder where SQLite cannot create the WAL's shared-memory
        file (read-only file system), the file is opened as immutable: nothing can change it then."""
        if self.path == ":memory:" or not Path(self.path).exists():
            raise StoreUnavailable(f"cannot open {self.path} read-only: there is no store there")
        uri = Path(self.path).resolve().as_uri()
        for options in ("mode=ro", "mode=ro&immutable=1"):
            if "immutable" in options and os.path.getsize(self.path) and _wal_size(self.path):
                raise StoreUnavailable(
                    f"cannot open {self.path} read-only: its write-ahead log ({self.path}-wal) holds writes that"
                    " only a writable folder can apply; copy the store with its -wal file somewhere writable")
            db = sqlite3.connect(f"{uri}?{options}", uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                 isolation_level=None, check_same_thread=False)
            try:
                db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.OperationalError:
                db.close()
        raise StoreUnavailable(f"cannot open {self.path} read-only: SQLite could not read it")

    def close(self) -> None:
        """Checkpoint and truncate the WAL, then close."""
        if self._readers is not None:
            self._readers.close()
        if self._checkpoints is not None:
            self._checkpoints.close()
        with self._lock:
            if self._db is None:
                return
            try:
                if not self.read_only:
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError:
                pass  # another process may hold a read lock; its own close will checkpoint
            self._db.close()
            self._db = None

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
        if self.read_only:
            raise ReadOnlyStore(f"{self.path} is open read-only ({self._why_read_only}): nothing was written;"
                                " reads work, writes need a writable file")
        with self._lock, self._writing():
            db = self._db
            try:  # another process may hold the write lock: wait for it, with backoff (engram.retry)
                retry(lambda: db.execute("BEGIN IMMEDIATE"), tries=BUSY_RETRIES, cap=1.0,
                      again=lambda exc, _: isinstance(exc, sqlite3.OperationalError) and _is_busy(exc))
            except sqlite3.OperationalError as exc:
                raise _translate_error(exc, self.path) from exc
            try:
                yield self._db
                self._db.execute("COMMIT")
                if self._checkpoints is not None:
                    self._checkpoints.after_commit(self._db.total_changes)
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.DatabaseError):
                    raise _translate_error(exc, self.path) from exc
                raise

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """This store's own connection under its lock, for SQLite-only work such as an online
        backup (it reads a read-only or immutable store as the store itself does)."""
        if self._db is None:
            raise StoreUnavailable(f"store {self.path} is closed")
        with self._lock, self._writing():
            yield self._db

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Mark this thread as working on the store's own connection, so its reads use it too
        (and see its uncommitted writes)."""
        self._local.writing = getattr(self._local, "writing", 0) + 1
        try:
            yield
        finally:
            self._local.writing -= 1

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A connection to read with: one of the pool's, or the store's own under its lock (inside
        this thread's write, for an in-memory store, or when every pooled one is busy)."""
        if self._db is None:
            raise StoreUnavailable(f"store {self.path} is closed")
        if self._readers is not None and not getattr(self._local, "writing", 0):
            with self._readers.connection() as pooled:  # callers translate SQLite's errors
                if pooled is not None:
                    yield pooled
                    return
        with self._lock:
            if self._db is None:
                raise StoreUnavailable(f"store {self.path} is closed")
            yield self._db

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._reading() as db, self._translate():
            return db.execute(sql, params).fetchall()

    def _write(self, work: Callable[[Execute], T]) -> T:
        with self.transaction() as db:
            return work(db.execute)

    # -- Store protocol (the rest: engram.store.relational) --------------------------------
    def _put(self, runs: Runs, vectors: Vectors, model: str) -> list[Placement]:
        placements: list[Placement] = []
        by_id = {item.id: item for _, run in runs for item in run}
        with self._lock:
            with self.transaction() as db:
                grown = {item.subject for item in by_id.values() if vectors.get(item.id) is not None}
                before = self._versions(db, grown)
                indexed: list[tuple[int, str, str]] = []
                for old_ids, run in runs:
                    close_superseded(db.execute, old_ids, run[0], SQLITE)
                    placements.extend(self._insert(db, item, indexed) for item in run)
                kw.add(db, KEYWORD, indexed)
                # `_insert` indexes exactly the created items, in order: their rowids.
                key_of = {p.id: key for (key, _, _), p in zip(indexed, [p for p in placements if p.created])}
                added: dict[str, list[tuple[int, str, np.ndarray]]] = {}
                for placement in placements:
                    vector = vectors.get(placement.id)
                    if placement.created and vector is not None:
                        self._insert_vector(db, by_id[placement.id], vector, model)
                        added.setdefault(by_id[placement.id].subject, []).append(
                            (key_of[placement.id], placement.id, vector))
                after = self._versions(db, grown)
            self._grow_cache(model, before, after, added)
        return placements

    def _versions(self, db: sqlite3.Connection, subjects: set[str]) -> dict[str, int]:
        """The vector change counter of each subject (0 before its first vector), in the caller's transaction."""
        if not subjects:
            return {}
        marks = ", ".join("?" * len(subjects))
        found = dict(db.execute(f"SELECT subject, version FROM vector_versions WHERE subject IN ({marks})",
                                sorted(subjects)).fetchall())
        return {subject: int(found.get(subject, 0)) for subject in subjects}

    def _grow_cache(self, model: str, before: Mapping[str, int], after: Mapping[str, int],
                    added: Mapping[str, list[tuple[int, str, np.ndarray]]]) -> None:
        """After a committed write: append its vectors to the subjects' cached matrices in place
        (engram.store.rows), or drop an entry that cannot take them (a later read reloads it)."""
        for subject in before:
            entry = self._vector_cache.peek(subject, model)
            if entry is None:
                continue
            rows = added.get(subject, [])
            vectors = np.stack([np.asarray(v, dtype=np.float32) for _, _, v in rows]) if rows else None
            if entry.append(before[subject], after[subject], [k for k, _, _ in rows], [i for _, i, _ in rows],
                            vectors):
                self._vector_cache.put(subject, model, entry, entry.nbytes)
            else:
                self._vector_cache.drop(subject, model)

    def _insert(self, db: sqlite3.Connection, item: Item, indexed: list[tuple[int, str, str]]) -> Placement:
        """Insert one item; a created one is added to `indexed` as (rowid, subject, text)."""
        cols = ", ".join(COLUMNS) + ", dedupe, scope"
        marks = ", ".join("?" * (len(COLUMNS) + 2))
        row = (*item_row(item), migrations.scope_token(item.subject))
        cur = db.execute(f"INSERT OR IGNORE INTO items ({cols}) VALUES ({marks})", row)
        if cur.rowcount == 1:
            indexed.append((int(cur.lastrowid or 0), item.subject, item.text))
            return Placement(item.id, True)
        existing = db.execute(
            "SELECT id FROM items WHERE subject = ? AND dedupe = ? AND valid_to IS NULL",
            (item.subject, item_row(item)[-1]),
        ).fetchone()
        if existing is None:  # the ignore came from another constraint: say which
            if item.key is not None and db.execute(
                    "SELECT 1 FROM items WHERE subject = ? AND kind = ? AND key = ? AND valid_to IS NULL",
                    (item.subject, item.kind, item.key)).fetchone():
                raise WriteConflict(f"{self.path}: {item.subject} already has another current {item.kind} with key"
                                    f" {item.key!r} (another writer replaced it first); nothing was written")
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

    def set_vectors(self, vectors: Vectors, model: str) -> None:
        """Replace the vectors of existing items (used by reindex)."""
        items = self.get(list(vectors))
        with self.transaction() as db:
            for item in items:
                self._insert_vector(db, item, vectors[item.id], model)

    def _update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        values = [_column_value(k, v) for k, v in changes.items()]
        assignments = ", ".join(f"{k} = ?" for k in changes)
        with self.transaction() as db:
            total = 0
            for item_id in ids:
                total += db.execute(f"UPDATE items SET {assignments} WHERE id = ?", (*values, item_id)).rowcount
        return total

    def touch(self, accesses: Mapping[str, tuple[int, float]]) -> None:
        """Add recorded accesses (id -> (count, last time)) in one transaction."""
        if not accesses:
            return
        with self.transaction() as db:
            db.executemany("UPDATE items SET access_count = access_count + ?, last_accessed = ? WHERE id = ?",
                           [(int(n), float(at), item_id) for item_id, (n, at) in sorted(accesses.items())])

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

    def keyword(self, subject: str, terms: Sequence[str], where: Filter, limit: int, *,
                near: bool = True, known: Collection[str] = ()) -> list[tuple[str, float]]:
        """BM25 (engram.store.keyword) of the subject's items over `terms`, best `limit` passing the filter."""
        if not terms or self._db is None:
            return []
        clause, params = where_clause(subject, where, SQLITE)
        with self._reading() as db, self._translate():

            def accept(keys: list[int]) -> dict[int, str]:
                return dict(db.execute(KEYWORD.accepted(clause), (KEYWORD.keys_param(keys), *params)).fetchall())

            keys, scores = kw.score(db, KEYWORD, subject, terms, vocabularies=self._vocabularies if near else None,
                                    known=known)
            return kw.best(keys, scores, int(limit), accept)

    def spellings(self, subject: str, words: Sequence[str]) -> dict[str, str]:
        """Query words the subject's keyword index lacks, respelt (engram.store.keyword.spellings)."""
        if not words or self._db is None:
            return {}
        with self._reading() as db, self._translate():
            return kw.spellings(db, KEYWORD, subject, words, vocabularies=self._vocabularies)

    def vectors(self, subject: str, model: str) -> tuple[Sequence[str], np.ndarray]:
        """The subject's vectors under `model`, from the cache while its change counter has not
        moved; a write through this store appends to the cached rows in place (engram.store.rows)."""
        with self._reading() as db, self._translate():
            version = _version(db, subject)
            cached = self._vector_cache.get(subject, model)
            if cached is not None and cached.version == version:
                return cached.snapshot()
            with snapshot(db):  # the version and the rows from one snapshot
                version = _version(db, subject)
                rows = db.execute(
                    "SELECT i.id, v.item_rowid, v.vec FROM vectors v JOIN items i ON i.rowid = v.item_rowid"
                    " WHERE v.subject = ? AND v.model = ? ORDER BY v.item_rowid",
                    (subject, model),
                ).fetchall()
        matrix = (np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), -1)
                  if rows else np.zeros((0, 0), dtype=np.float32))
        entry = Rows(version, [r[0] for r in rows], [r[1] for r in rows], matrix)
        held = self._vector_cache.peek(subject, model)
        if held is None or held.version <= version:  # a writer may have grown a newer one meanwhile
            self._vector_cache.put(subject, model, entry, entry.nbytes)
        return entry.snapshot()

    def item_vectors(self, subject: str, model: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            # "+": read by id, then each vector by its key; on the (subject, model) index SQLite would
            # scan every vector of the subject (7 ms instead of 0.07 for 28 of 14,000).
            rows = self._read("SELECT i.id, v.vec FROM items i JOIN vectors v ON v.item_rowid = i.rowid"
                              f" WHERE i.id IN ({marks}) AND +v.subject = ? AND +v.model = ?", (*chunk, subject, model))
            found.update((r[0], np.frombuffer(r[1], dtype=np.float32)) for r in rows)
        return found

    def cache_stats(self) -> dict[str, Any]:
        """The vector cache's entries, bytes, bounds and hit rate."""
        return self._vector_cache.stats()

    def stage_vectors(self, vectors: Vectors, model: str) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO staged_vectors (item_rowid, subject, model, vec)"
                " SELECT rowid, subject, ?, ? FROM items WHERE id = ?",
                [(model, np.asarray(v, dtype=np.float32).tobytes(), item_id) for item_id, v in vectors.items()])

    def staged_ids(self, model: str) -> set[str]:
        return {r[0] for r in self._read("SELECT i.id FROM staged_vectors s JOIN items i ON i.rowid = s.item_rowid"
                                         " WHERE s.model = ?", (model,))}

    def promote_staged(self, model: str, settings: Mapping[str, str | None]) -> int:
        with self.transaction() as db:
            moved = promote_staged(db.execute, model, settings, SQLITE)
        self._vector_cache.invalidate()
        return moved

    def delete(self, subject: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        total = 0
        with self.transaction() as db:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ", ".join("?" * len(chunk))
                gone = db.execute(f"SELECT rowid, subject, text FROM items WHERE subject = ? AND id IN ({marks})",
                                  (subject, *chunk)).fetchall()
                kw.remove(db, KEYWORD, gone)
                total += db.execute(
                    f"DELETE FROM items WHERE subject = ? AND id IN ({marks})", (subject, *chunk)
                ).rowcount
        self.scrub()
        return total

    def scrub(self) -> None:
        """Copy the WAL into the database and truncate it, so no deleted page survives there."""
        if self.read_only:
            return  # nothing was deleted through this connection
        with self._lock, self._translate():
            if self._db is None:
                raise StoreUnavailable(f"store {self.path} is closed")
            if self._checkpoints is not None:
                self._checkpoints.wait()  # a background checkpoint running would make this one busy
            busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            # busy: another connection's read transaction still needs the log's old pages.
            self._scrub_blocked = bool(busy and busy[0])

    def leftovers(self, texts: Sequence[str]) -> Leftovers | None:
        """Copies of `texts` left in the store's files (database and -wal) when the last scrub was
        blocked by a reader: the checkpoint that overwrites them waits for that reader's snapshot."""
        if not self._scrub_blocked or self.path == ":memory:":
            return None
        needles = [n for text in dict.fromkeys(texts) for n in raw_needles(text)]
        found = {str(f): n for f in (Path(self.path), Path(self.path + "-wal")) if f.exists()
                 and (n := count_in_file(f, needles))}
        if not found:
            return None
        return Leftovers(sum(found.values()), ", ".join(found),
                         "until the other connection's read transaction ends; the next Engram command on this"
                         " store then removes them when it closes (`engram audit` lists them meanwhile)")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """A statement on the store's own connection (stats, the trace scan, saved ANN indexes, a
        per-connection PRAGMA); not part of the protocol."""
        with self.connection() as db, self._translate():
            return db.execute(sql, params).fetchall()

    # -- capabilities (engram.store.base) ---------------------------------------------------
    def traces(self, subject: str, text: str) -> Traces:
        """FTS5 entries, shadow tables and raw file bytes still holding `text` (engram.store.sqlite_traces)."""
        return sqlite_traces.scan(self, subject, text)

    def backup(self, target: Path) -> None:
        """Copy the file with SQLite's online backup API, in steps, so writers are not blocked throughout."""
        if self.path == ":memory:":
            raise StoreUnavailable("an in-memory store has no file to back up: export it instead")
        try:
            with self.connection() as source:
                _copy_file(source, target)
        except sqlite3.Error as exc:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(str(target) + suffix).unlink(missing_ok=True)
            raise (StoreFull if "full" in str(exc) else StoreError)(
                f"backup of {self.path} to {target} failed: {exc}") from exc


def _copy_file(src: sqlite3.Connection, target: Path) -> None:
    dst = sqlite3.connect(str(target))
    try:
        src.backup(dst, pages=1024)
        check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"the copy failed its integrity check: {check}")
        dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
    finally:
        dst.close()


def _is_text(head: bytes) -> bool:
    """True when the bytes read as text (UTF-8, no NUL), as a note, a JSONL export or a config would."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # only a character cut at the end of the sample
    return True


def _version(db: sqlite3.Connection, subject: str) -> int:
    """The subject's vector change counter (0 before its first vector)."""
    row = db.execute("SELECT version FROM vector_versions WHERE subject = ?", (subject,)).fetchone()
    return int(row[0]) if row else 0


def _wal_size(path: str) -> int:
    try:
        return os.path.getsize(path + "-wal")
    except OSError:
        return 0


def _unwritable(path: str) -> str | None:
    """Why an existing store file cannot be written (its mode, owner or file system), or None."""
    if path == ":memory:" or not os.path.exists(path):
        return None
    if not os.access(path, os.W_OK):
        return "the file cannot be written"
    if not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK | os.X_OK):
        return "its folder cannot be written"  # SQLite's WAL needs files next to the store
    return None


def _casefold(value: Any) -> Any:
    """SQL `casefold(x)`: Engram's one text rule (engram.text.fold), the same as PostgreSQL's folded copy."""
    return fold(value) if isinstance(value, str) else value


def _column_value(key: str, value: Any) -> Any:
    if key == "metadata":
        from engram.types import dumps

        return dumps(dict(value))
    return value


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
    if "readonly database" in text:
        return ReadOnlyStore(f"{path} cannot be written ({text}): nothing was written; open it with --read-only"
                             " (Memory(..., read_only=True)) to read it")
    if "unable to open" in text:
        return StoreUnavailable(f"cannot open {path}: {text}")
    if "disk I/O error" in text:
        return StoreError(f"{path}: disk I/O error; nothing was written: check free space and the disk ({text})")
    return StoreError(f"{path}: {text}")


if TYPE_CHECKING:  # mypy checks the backend against the protocol and every capability it claims
    from engram.store import base

    def _conforms(s: SQLiteStore) -> tuple[base.Store, base.VectorAdmin, base.Scrubbable, base.TraceScanner,
                                           base.FileBackup, base.CacheReport, base.ReadsTexts, base.ScrubStatus,
                                           base.Spells]:
        return s, s, s, s, s, s, s, s, s
