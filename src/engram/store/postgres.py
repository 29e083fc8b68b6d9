"""The PostgreSQL backend: items in one table, BM25 by engram.store.keyword, vectors in pgvector.

Same behaviour as the SQLite store: partial unique indexes for dedupe and the current key,
one transaction per call, numbered migrations (run under an advisory lock so concurrent
openers take turns), and exact vector scans of a per-subject matrix cached until a change
counter in `subject_versions` moves (so writes by other processes are seen).

Forgetting: `delete` removes rows (vectors cascade, keyword segments are rewritten without them)
and then runs `VACUUM` on the tables so
dead tuples and their index entries are gone from everything a query can reach. What VACUUM
cannot reach (WAL segments not yet recycled, backups, replicas) is listed in docs/postgres.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from engram.errors import (
    StoreError,
    StoreUnavailable,
    WriteConflict,
    require,
)
from engram.store import keyword as kw
from engram.store import spelling
from engram.store import migrations
from engram.store.base import Filter, NearestAnswer, Placement, Traces, Vectors
from engram.store.cache import BoundedCache
from engram.store import pg_index
from engram.store import pg_nearest
from engram.store.pg_index import HnswIndexes
from engram.store.pg_schema import MIGRATIONS
from engram.store.pg_pool import POOL_TIMEOUT_S, Connections, check_writable, first_line, safe_url, translate
from engram.store.relational import RelationalStore
from engram.store.rows import Rows
from engram.store.conditions import SEARCHED_COLUMNS, folded_copy
from engram.store.sql import (COLUMNS, POSTGRES, SELECT_ITEMS, Execute, Runs, close_superseded, promote_staged,
                              item_row, rehash, row_item, where_clause)
from engram.types import Item, dumps

psycopg = require("psycopg", "postgres")
require("psycopg.sql", "postgres")
pgvector_psycopg = require("pgvector.psycopg", "postgres")

T = TypeVar("T")
MIGRATION_LOCK = 0x656E6772616D  # "engram": advisory lock key taken while migrating
#: What `traces` cannot see: the server's own files are not readable over a connection.
NOT_SCANNED = (
    "PostgreSQL server files: WAL segments, dead tuples in table/index pages not yet reused,"
    " temporary files (the server's files are not readable over a connection)",
    "PostgreSQL WAL archives, replicas and base backups (pg_basebackup, pg_dump files)",
)
KEYWORD = kw.Statements(ph="%s", key="seq", by_keys="unnest(%s::bigint[]) AS k(value) CROSS JOIN LATERAL"
                        " (SELECT * FROM items WHERE seq = k.value OFFSET 0) AS i")  # OFFSET 0: a key lookup each
SCRUBBED = "items, vectors, staged_vectors, keyword_postings, keyword_pending, keyword_subjects"  # the tables VACUUM visits after a delete
INSERT_ITEM = (
    f"INSERT INTO items ({', '.join(COLUMNS)}, dedupe, folded) VALUES"
    f" ({', '.join('%s::jsonb' if c == 'metadata' else '%s' for c in COLUMNS)}, %s, %s)"
    " ON CONFLICT DO NOTHING RETURNING seq"
)
UPSERT_VECTOR = (
    "INSERT INTO vectors (item_seq, item_id, subject, model, vec)"
    " SELECT seq, id, subject, %s, %s FROM items WHERE id = %s"
    " ON CONFLICT (item_seq) DO UPDATE SET model = EXCLUDED.model, vec = EXCLUDED.vec"
)
#: Items by id with each one's stored vector under a model (NULL without one), binary: `get_with_vectors`.
GET_WITH_VECTORS = (f"SELECT {', '.join('i.' + c for c in COLUMNS)}, vector_send(v.vec) FROM items i"
                    " LEFT JOIN vectors v ON v.item_seq = i.seq AND v.model = %s WHERE i.id = ANY(%s)")
BUMP = ("INSERT INTO subject_versions (subject, version) VALUES (%s, 1)"
        " ON CONFLICT (subject) DO UPDATE SET version = subject_versions.version + 1")

class PostgresStore(RelationalStore):
    """A Store on one PostgreSQL database (URL `postgresql://user:password@host:port/dbname`).

    Queries run on a pool of connections (psycopg_pool), so threads sharing one store run them
    concurrently: at most `pool_size` at once (ENGRAM_PG_POOL, default POOL_SIZE); a caller that
    waits longer than `pool_timeout` seconds for a free connection gets StoreBusy.
    """

    keyword_sql = KEYWORD  # the keyword index's statements (audit reads the index with them)
    dialect = POSTGRES

    def __init__(self, url: str, *, read_only: bool = False, pool_size: int | None = None,
                 pool_timeout: float = POOL_TIMEOUT_S) -> None:
        self.url = safe_url(url)
        self.read_only = read_only  # every transaction READ ONLY; writes raise ReadOnlyStore
        self._vector_cache: BoundedCache[Rows] = BoundedCache()
        self._vocabularies = spelling.Vocabularies()  # keyword terms per subject, for misspelt query words
        self._id_cache: BoundedCache[Rows] = BoundedCache()
        self._connections = Connections(url, self.url, read_only=read_only, configure=lambda c: configure_connection(c),
                                        pool_size=pool_size, pool_timeout=pool_timeout)
        self.pool_size = self._connections.pool_size
        self._hnsw = HnswIndexes()  # each model's HNSW index, once seen (engram.store.pg_index)
        conn = self._connections.connect()
        try:
            if read_only:
                self._check_schema(conn)
            else:
                self._migrate(conn)
        finally:
            conn.close()
        self._connections.start()

    def cache_stats(self) -> dict[str, Any]:
        """The vector cache's entries, bytes, bounds and hit rate, the id-list cache's (`ids`), and the pool's size."""
        return {**self._vector_cache.stats(), "ids": self._id_cache.stats(), "pool_size": self.pool_size}

    def close(self) -> None:
        """Close the pool's connections (PostgreSQL recycles its own WAL; see docs/postgres.md)."""
        self._connections.close()

    def _migrate(self, conn: Any) -> None:
        """Create the extension and bring the schema up to date, one opener at a time."""
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                self._ensure_vector(conn)
                exists = conn.execute("SELECT to_regclass('migrations')").fetchone()[0] is not None
                before = conn.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0] if exists else 0
                # A role without CREATE may use a database someone else set up: the table is created only when missing.
                migrations.run(conn.execute, MIGRATIONS, where=self.url,
                               upgrade="pip install -U 'engramdb[postgres]'", ph="%s", create_table=not exists)
                if before < len(MIGRATIONS):
                    _refold(conn, "folded IS NULL", [])
                kw.ensure(conn, KEYWORD)  # the keyword index after a migration, or if stale
                rehash(conn.execute, POSTGRES)  # content hashes of an older rule, once
        except psycopg.Error as exc:
            raise translate(exc, self.url, self._connections.dsn) from exc

    def _check_schema(self, conn: Any) -> None:
        """Read-only: the schema must exist and be this code's, since it cannot be created or upgraded."""
        try:
            found = conn.execute("SELECT to_regclass('migrations') IS NOT NULL").fetchone()[0]
            current = conn.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0] if found else 0
        except psycopg.Error as exc:
            raise translate(exc, self.url, self._connections.dsn) from exc
        migrations.check_version(current, len(MIGRATIONS), where=self.url, upgrade="pip install -U 'engramdb[postgres]'",
                                 reopen="open it once without read_only, to create or upgrade it")

    def _ensure_vector(self, conn: Any) -> None:
        if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
            return
        try:
            with conn.transaction():  # a savepoint: a refusal must not abort the migration's own message
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.errors.InsufficientPrivilege as exc:
            raise StoreUnavailable(
                f"{self.url}: the pgvector extension is not enabled in this database and this user may not"
                " enable it: ask a superuser to run `CREATE EXTENSION vector;` in it"
            ) from exc
        except (psycopg.errors.UndefinedFile, psycopg.errors.FeatureNotSupported) as exc:
            raise StoreUnavailable(
                f"{self.url}: the server has no pgvector extension ({first_line(exc)}): install it on the"
                " server (e.g. `apt install postgresql-16-pgvector`, or build it from"
                " github.com/pgvector/pgvector), then run `CREATE EXTENSION vector;`"
            ) from exc

    def _run(self, work: Callable[[Any], T], *, write: bool, transaction: bool | None = None) -> T:
        """Run `work(conn)` on a pooled connection (in one transaction when it writes, or when
        `transaction` says so: a read-only transaction on a read-only store), retrying when safe
        (engram.store.pg_pool)."""
        if write:
            check_writable(self.read_only, self.url)
        return self._connections.run(work, transaction=write if transaction is None else transaction)

    def _read(self, sql: str, params: Sequence[Any] = (), *, binary: bool = False) -> list[tuple[Any, ...]]:
        def work(conn: Any) -> list[tuple[Any, ...]]:
            with conn.cursor(binary=binary) as cur:
                rows: list[tuple[Any, ...]] = cur.execute(sql, params or None).fetchall()  # None: a literal % needs no escaping
                return rows

        return self._run(work, write=False)

    def _write(self, work: Callable[[Execute], T]) -> T:
        return self._run(lambda conn: work(conn.execute), write=True)

    # -- Store protocol (the rest: engram.store.relational) --------------------------------
    def _put(self, runs: Runs, vectors: Vectors, model: str) -> list[Placement]:
        by_id = {item.id: item for _, run in runs for item in run}

        def work(conn: Any) -> tuple[list[Placement], dict[str, int], dict[str, list[tuple[int, str, np.ndarray]]]]:
            placements: list[Placement] = []
            indexed: list[tuple[int, str, str]] = []
            for old_ids, run in runs:
                close_superseded(conn.execute, old_ids, run[0], POSTGRES)
                placements += self._insert(conn, run, indexed)
            wanted = [(model, _vector(vectors[p.id]), p.id) for p in placements
                      if p.created and vectors.get(p.id) is not None]
            versions: dict[str, int] = {}
            added: dict[str, list[tuple[int, str, np.ndarray]]] = {}
            if wanted:
                with conn.cursor() as cur:
                    cur.executemany(UPSERT_VECTOR, wanted)
                versions = _bump(conn, {by_id[i].subject for _, _, i in wanted})
                # `_insert` indexes exactly the created items, in order: their seqs.
                key_of = {p.id: key for (key, _, _), p in zip(indexed, [p for p in placements if p.created])}
                for _, vector, item_id in wanted:
                    added.setdefault(by_id[item_id].subject, []).append((key_of[item_id], item_id, vector))
            kw.add(conn, KEYWORD, indexed)
            return placements, versions, added

        placements, versions, added = self._run(work, write=True)
        self._grow_caches(model, versions, added)
        if vectors:
            self._index_if_large({item.subject for item in by_id.values()}, model)
        return placements

    def _grow_caches(self, model: str, versions: Mapping[str, int],
                     added: Mapping[str, list[tuple[int, str, np.ndarray]]]) -> None:
        """After a committed write that moved each subject's change counter to `versions[subject]`
        (by one): append its vectors to the cached matrix and id list in place (engram.store.rows),
        or drop an entry that cannot take them (a later read reloads it)."""
        for subject, version in versions.items():
            rows = added.get(subject, [])
            keys, ids = [k for k, _, _ in rows], [i for _, i, _ in rows]
            for cache, vectors in ((self._vector_cache, np.stack([v for _, _, v in rows]) if rows else None),
                                   (self._id_cache, None)):
                entry = cache.peek(subject, model)
                if entry is None:
                    continue
                if entry.append(version - 1, version, keys, ids, vectors):
                    cache.put(subject, model, entry, entry.nbytes)
                else:
                    cache.drop(subject, model)

    def _insert(self, conn: Any, items: Sequence[Item], indexed: list[tuple[int, str, str]]) -> list[Placement]:
        """Insert in one pipelined batch; an item that hit a unique index names the current duplicate.
        Created items are added to `indexed` as (seq, subject, text)."""
        rows = [(*item_row(item), _folded(item)) for item in items]
        created = []
        with conn.cursor() as cur:
            cur.executemany(INSERT_ITEM, rows, returning=True)
            for item in items:
                seq = cur.fetchone()
                created.append(seq is not None)
                if seq is not None:
                    indexed.append((int(seq[0]), item.subject, item.text))
                cur.nextset()
        return [Placement(item.id, True) if ok else self._existing(conn, item, row[-2])
                for item, row, ok in zip(items, rows, created)]

    def _existing(self, conn: Any, item: Item, dedupe: str | None) -> Placement:
        found = conn.execute(
            "SELECT id FROM items WHERE subject = %s AND dedupe = %s AND valid_to IS NULL", (item.subject, dedupe)
        ).fetchone()
        if found is None:  # the conflict was not a duplicate text: name what it was
            clash = conn.execute("SELECT 1 FROM items WHERE id = %s", (item.id,)).fetchone()
            if clash:
                raise StoreError(f"{self.url}: item {item.id} was not inserted: an item with id {item.id}"
                                 " already exists; nothing was written")
            raise WriteConflict(f"{self.url}: {item.subject} already has another current {item.kind} with key"
                                f" {item.key!r} (another writer replaced it first); nothing was written")
        return Placement(found[0], False)

    def set_vectors(self, vectors: Vectors, model: str) -> None:
        """Replace the vectors of existing items (used by reindex)."""

        def work(conn: Any) -> None:
            rows = [(model, _vector(v), item_id) for item_id, v in vectors.items()]
            with conn.cursor() as cur:
                cur.executemany(UPSERT_VECTOR, rows)
            subjects = conn.execute("SELECT DISTINCT subject FROM items WHERE id = ANY(%s)", (list(vectors),))
            _bump(conn, {r[0] for r in subjects.fetchall()})

        if vectors:
            self._run(work, write=True)
            self._index_if_large({r[0] for r in self._read(
                "SELECT DISTINCT subject FROM items WHERE id = ANY(%s)", (list(vectors),))}, model)

    def _update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        values = [dumps(dict(v)) if k == "metadata" else v for k, v in changes.items()]
        assignments = ", ".join(f"{k} = %s::jsonb" if k == "metadata" else f"{k} = %s" for k in changes)
        sql = f"UPDATE items SET {assignments} WHERE seq IN ({_LOCK_IN_ORDER})"

        def work(conn: Any) -> int:
            count: int = conn.execute(sql, (*values, list(ids))).rowcount
            if set(changes) & set(SEARCHED_COLUMNS):  # the folded copy follows the fields it is made of
                _refold(conn, "id = ANY(%s)", [list(ids)])
            return count

        return self._run(work, write=True)

    def touch(self, accesses: Mapping[str, tuple[int, float]]) -> None:
        """Add recorded accesses (id -> (count, last time)) in one statement, rows locked in seq
        order; each row found by its id once. The rows' pages keep room (migration 6), so the
        update is HOT: the new version stays on its page and no index gets an entry."""
        if not accesses:
            return
        ids = sorted(accesses)
        params = (ids, ids, [int(accesses[i][0]) for i in ids], [float(accesses[i][1]) for i in ids])
        self._run(lambda conn: conn.execute(TOUCH, params), write=True)

    def get(self, ids: Sequence[str]) -> list[Item]:
        if not ids:
            return []
        found = {r[0]: row_item(r) for r in self._read(f"{SELECT_ITEMS} WHERE i.id = ANY(%s)", (list(ids),))}
        return [found[i] for i in ids if i in found]

    def get_with_vectors(self, ids: Sequence[str], model: str) -> tuple[list[Item], dict[str, np.ndarray]]:
        """`get`, and each found item's stored vector under `model`, in one statement (FetchesVectors):
        the shortlist of a recall, whose few vectors the relevance may ask for next."""
        if not ids:
            return [], {}
        rows = self._read(GET_WITH_VECTORS, (model, list(ids)), binary=True)
        found = {r[0]: row_item(r) for r in rows}
        with_vector = [r for r in rows if r[-1] is not None]
        matrix = _matrix([r[-1] for r in with_vector], self.url, rows[0][1] if rows else "", model)
        return [found[i] for i in ids if i in found], {r[0]: v for r, v in zip(with_vector, matrix)}

    def keyword(self, subject: str, terms: Sequence[str], where: Filter, limit: int, *,
                near: bool = True, known: Collection[str] = ()) -> list[tuple[str, float]]:
        """BM25 (engram.store.keyword) of the subject's items over `terms`, best `limit` passing the filter."""
        if not terms:
            return []
        clause, params = where_clause(subject, where, POSTGRES)

        def work(conn: Any) -> list[tuple[str, float]]:
            keys, scores = kw.score(conn, KEYWORD, subject, terms, vocabularies=self._vocabularies if near else None,
                                    known=known)
            return kw.best(keys, scores, int(limit), lambda batch: dict(
                conn.execute(KEYWORD.accepted(clause), (KEYWORD.keys_param(batch), *params)).fetchall()))

        return self._run(work, write=False)

    def spellings(self, subject: str, words: Sequence[str]) -> dict[str, str]:
        """Query words the subject's keyword index lacks, respelt (engram.store.keyword.spellings)."""
        if not words:
            return {}
        return self._run(lambda conn: kw.spellings(conn, KEYWORD, subject, words, vocabularies=self._vocabularies),
                         write=False)

    def vectors(self, subject: str, model: str) -> tuple[Sequence[str], np.ndarray]:
        def work(conn: Any) -> tuple[Sequence[str], np.ndarray]:
            row = conn.execute("SELECT version FROM subject_versions WHERE subject = %s", (subject,)).fetchone()
            version = int(row[0]) if row else 0
            cached = self._vector_cache.get(subject, model)
            if cached is not None and cached.version == version:
                return cached.snapshot()
            with conn.cursor(binary=True) as cur:
                # vector_send gives each vector's wire bytes: one NumPy view for all rows, no per-row objects.
                rows = cur.execute(
                    "SELECT item_id, item_seq, vector_send(vec) FROM vectors WHERE subject = %s AND model = %s"
                    " ORDER BY item_seq",
                    (subject, model),
                ).fetchall()
            matrix = _matrix([r[2] for r in rows], self.url, subject, model)
            entry = Rows(version, [r[0] for r in rows], [r[1] for r in rows], matrix)
            self._vector_cache.put(subject, model, entry, entry.nbytes)
            return entry.snapshot()

        return self._run(work, write=False)

    def item_vectors(self, subject: str, model: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids:
            return {}
        rows = self._read("SELECT v.item_id, vector_send(v.vec) FROM items i JOIN vectors v ON v.item_seq = i.seq"
                          " WHERE i.id = ANY(%s) AND v.subject = %s AND v.model = %s",
                          (list(ids), subject, model), binary=True)
        matrix = _matrix([r[1] for r in rows], self.url, subject, model)
        return {r[0]: vector for r, vector in zip(rows, matrix)}

    # -- vector search in the server (SearchesVectors) ------------------------------------
    def vector_ids(self, subject: str, model: str) -> Sequence[str]:
        """The ids of the subject's vectors under `model`, in write order; the same object until
        the subject changes (engram.core.names syncs on it), never the vectors themselves. This
        store's own writes append to it in place (engram.store.rows)."""
        return self._write_order(subject, model).snapshot()[0]

    def _write_order(self, subject: str, model: str) -> Rows:
        """The subject's vector ids in write order with each row's key (item_seq), cached until the
        subject's version moves (one version read per call). After another client's write only the
        rows past the last one cached are read (with the subject's count, which shows any deletion)."""
        def work(conn: Any) -> Rows:
            row = conn.execute("SELECT version FROM subject_versions WHERE subject = %s", (subject,)).fetchone()
            version = int(row[0]) if row else 0
            cached = self._id_cache.get(subject, model)
            if cached is not None and cached.version == version:
                return cached
            if cached is not None:
                count, added, keys = conn.execute(
                    "SELECT (SELECT count(*) FROM vectors WHERE subject = %s AND model = %s),"
                    " array_agg(item_id ORDER BY item_seq), array_agg(item_seq ORDER BY item_seq) FROM vectors"
                    " WHERE subject = %s AND model = %s AND item_seq > %s",
                    (subject, model, subject, model, cached.last_key or 0)).fetchone()
                known = len(cached.snapshot()[0])
                # Nothing deleted: the cached order, extended by what others wrote since.
                if known + len(added or ()) == count and cached.append(cached.version, version, keys or [],
                                                                        added or [], None):
                    return cached
            rows = conn.execute("SELECT item_id, item_seq FROM vectors WHERE subject = %s AND model = %s"
                                " ORDER BY item_seq", (subject, model)).fetchall()
            entry = Rows(version, [r[0] for r in rows], [r[1] for r in rows], None)
            self._id_cache.put(subject, model, entry, entry.nbytes)
            return entry

        return self._run(work, write=False)

    def nearest(self, subject: str, model: str, vector: np.ndarray, n: int, also: Sequence[str],
                where: Filter | None = None) -> NearestAnswer:
        """The subject's n nearest vectors, cosine statistics, and cosines and neighbours of `also`.

        Up to EXACT_MAX_ROWS vectors (or with a filter): one statement (engram.store.pg_nearest)
        scans the subject's vectors in the server and returns every statistic exact, the nearest,
        and the cosines and write-order neighbours of the rows asked about. Past it, when the
        model's HNSW index exists: the nearest come from the index (iterative scan, so the subject
        filter still yields n rows), the statistics from the subject's SAMPLE rows of lowest random
        draw, and the neighbours from the cached id list (`_write_order`). Only the rows asked
        about and their neighbours' cosines cross the wire."""
        query = _vector(vector)
        # Which path: the subject's size as last seen (recall has just read its id list); a
        # subject this process has not seen yet is counted by that read.
        known = self._id_cache.peek(subject, model)
        size = len(known.snapshot()[0]) if known is not None else len(self.vector_ids(subject, model))
        if where is not None or size <= pg_index.EXACT_MAX_ROWS:
            return self._run(lambda conn: pg_nearest.exact_answer(conn, subject, model, query, n, also, where, size),
                             write=False)
        return self._indexed(subject, model, query, n, also)

    def _indexed(self, subject: str, model: str, query: np.ndarray, n: int, also: Sequence[str]) -> NearestAnswer:
        """Past the crossover: the nearest through the model's HNSW index (an exact answer when it
        does not exist), neighbours from the cached write order, cosines by row key."""
        order = self._write_order(subject, model)
        ids = order.snapshot()[0]
        if not ids:
            return NearestAnswer(0, 0.0, 0.0, 0.0, (), {}, {})
        last = len(ids) - 1

        def beside(row: int) -> tuple[str | None, str | None]:
            return (ids[row - 1] if row > 0 else None), (ids[row + 1] if row < last else None)

        def work(conn: Any) -> NearestAnswer:
            index = self._hnsw.find(conn, model) if len(ids) > pg_index.EXACT_MAX_ROWS else None
            if index is None:  # no index, or the subject is back under the crossover since last seen
                return pg_nearest.exact_answer(conn, subject, model, query, n, also, None)
            stats, top = pg_index.indexed_top(conn, self.url, subject, model, query, n, index)
            asked = list(dict.fromkeys([*top, *also]))
            rows = {i: row for i in asked if (row := ids.position(i)) is not None}
            around = {i: beside(row) for i, row in rows.items()}
            wanted = {*asked, *(side for pair in around.values() for side in pair if side is not None)}
            # By row key (primary-key lookups); an id the cached order does not know yet, by id.
            places = {i: row for i in wanted if (row := ids.position(i)) is not None}
            unknown = [i for i in wanted if i not in places]
            cosines = dict(conn.execute(
                "SELECT item_id, 1 - (vec <=> %s) FROM vectors WHERE subject = %s AND model = %s AND"
                f" (item_seq = ANY(%s::bigint[]){' OR item_id = ANY(%s)' if unknown else ''})",
                (query, subject, model, kw.int_array(sorted(order.key(row) for row in places.values())),
                 *([unknown] if unknown else [])),
            ).fetchall())
            around = {i: pair for i, pair in around.items() if i in cosines}  # a row deleted meanwhile is gone
            return NearestAnswer(len(ids), *stats, nearest=tuple(top), cosines=cosines, around=around)

        # One transaction, so the index path's SET LOCAL settings apply to it alone.
        return self._run(work, write=False, transaction=True)

    def index_vectors(self, model: str) -> bool:
        """Build the model's HNSW index (once; every subject's vectors of that model, one dimension).

        Called by the write that takes a subject past EXACT_MAX_ROWS. False (and recall stays
        exact) when the vectors have more than HNSW_MAX_DIM dimensions; StoreUnavailable saying
        what to grant when the user may not create indexes."""

        def work(conn: Any) -> bool:
            return self._hnsw.build(conn, model, MIGRATION_LOCK)

        try:
            return self._run(work, write=True)
        except StoreUnavailable as exc:
            if "must own" in str(exc):
                raise StoreUnavailable(
                    f"{self.url}: cannot build the HNSW index for {model} ({exc}); recall keeps scanning exactly."
                    " Have the owner of the vectors table build it once: open the store as that user and call"
                    f" index_vectors({model!r}) (see docs/production.md)") from exc
            raise

    def _index_if_large(self, subjects: set[str], model: str) -> None:
        """After a write: build the model's index when one of `subjects` has passed the crossover."""
        if not model or not self._hnsw.may_build(model) or not subjects:
            return
        rows = self._read("SELECT count(*) FROM vectors WHERE model = %s AND subject = ANY(%s)"
                          " GROUP BY subject HAVING count(*) > %s LIMIT 1", (model, sorted(subjects), pg_index.EXACT_MAX_ROWS))
        if rows:
            try:
                self.index_vectors(model)
            except StoreUnavailable as exc:  # the write itself is saved: say so, and keep recall exact
                self._hnsw.refused.add(model)
                logging.getLogger(__name__).warning("%s", exc)

    def stage_vectors(self, vectors: Vectors, model: str) -> None:
        def work(conn: Any) -> None:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO staged_vectors (item_seq, item_id, subject, model, vec)"
                    " SELECT seq, id, subject, %s, %s FROM items WHERE id = %s"
                    " ON CONFLICT (item_seq) DO UPDATE SET model = EXCLUDED.model, vec = EXCLUDED.vec",
                    [(model, _vector(v), item_id) for item_id, v in vectors.items()])

        if vectors:
            self._run(work, write=True)

    def staged_ids(self, model: str) -> set[str]:
        return {r[0] for r in self._read("SELECT item_id FROM staged_vectors WHERE model = %s", (model,))}

    def promote_staged(self, model: str, settings: Mapping[str, str | None]) -> int:
        def work(conn: Any) -> tuple[int, set[str]]:
            touched = {r[0] for r in conn.execute(
                "SELECT DISTINCT subject FROM staged_vectors UNION SELECT DISTINCT subject FROM vectors"
                " WHERE model <> %s", (model,)).fetchall()}
            moved = promote_staged(conn.execute, model, settings, POSTGRES)
            _bump(conn, touched)
            return moved, touched

        moved, touched = self._run(work, write=True)
        self._vector_cache.invalidate()
        self._id_cache.invalidate()
        self._index_if_large(touched, model)
        return moved

    def delete(self, subject: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0

        def work(conn: Any) -> int:
            gone = conn.execute(f"SELECT seq, subject, text FROM items WHERE subject = %s AND seq IN ({_LOCK_IN_ORDER})",
                                (subject, list(ids))).fetchall()
            kw.remove(conn, KEYWORD, gone)
            count: int = conn.execute(
                f"DELETE FROM items WHERE subject = %s AND seq IN ({_LOCK_IN_ORDER})", (subject, list(ids))
            ).rowcount
            if count:
                _bump(conn, {subject})
            return int(count)

        total = self._run(work, write=True)
        if total:
            self.scrub()
        return total

    def scrub(self, full: bool = False) -> None:
        """VACUUM the tables so deleted rows and their index entries are gone (see docs/postgres.md).

        `full=True` rewrites tables and indexes into new files (VACUUM FULL: it locks them while it
        runs), which also drops deleted terms left in the keyword index's B-tree pages, then asks for a
        CHECKPOINT.
        """
        if self.read_only:
            return  # nothing was deleted through this connection
        self._run(lambda conn: conn.execute(f"VACUUM {'FULL ' if full else ''}{SCRUBBED}"), write=False)
        if full:
            try:
                self._run(lambda conn: conn.execute("CHECKPOINT"), write=False)
            except StoreError:
                pass  # needs superuser or pg_checkpoint; the server's own checkpoint follows within minutes

    def traces(self, subject: str, text: str) -> Traces:
        """Keyword-index entries still holding the text (engram.store.keyword), read from the index."""
        return Traces(kw.places(self.query, KEYWORD, subject, text), list(NOT_SCANNED))

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """A read-only query (for stats and the trace scan), in a READ ONLY transaction."""

        def work(conn: Any) -> list[tuple[Any, ...]]:
            if not self.read_only:  # a read-only connection's transactions are READ ONLY already
                conn.execute("SET TRANSACTION READ ONLY")
            rows: list[tuple[Any, ...]] = conn.execute(sql, params or None).fetchall()
            return rows

        return self._run(work, write=not self.read_only)


# Rows named by id, locked in one order so two concurrent writers cannot deadlock on them.
_LOCK_IN_ORDER = "SELECT seq FROM items WHERE id = ANY(%s) ORDER BY seq FOR UPDATE"
#: `touch`: the rows locked in seq order (as _LOCK_IN_ORDER), then updated by seq (primary key).
TOUCH = (f"WITH locked AS ({_LOCK_IN_ORDER.replace('SELECT seq', 'SELECT seq, id')})"
         " UPDATE items i SET access_count = i.access_count + a.n, last_accessed = a.at"
         " FROM locked l JOIN unnest(%s::text[], %s::int[], %s::float8[]) AS a(id, n, at) ON a.id = l.id"
         " WHERE i.seq = l.seq")


def configure_connection(conn: Any) -> None:
    """What every pooled connection gets when it opens: pgvector's types."""
    pgvector_psycopg.register_vector(conn)


def _bump(conn: Any, subjects: set[str]) -> dict[str, int]:
    """Move the change counter of each subject (sorted: writers take the row locks in one order);
    returns each one's new value (the row lock is held to commit: value - 1 was the last one seen)."""
    return {subject: int(conn.execute(BUMP + " RETURNING version", (subject,)).fetchone()[0])
            for subject in sorted(subjects)}


def _folded(item: Item) -> str:
    """The folded copy of an item's searched fields (engram.text.fold, computed here, not in SQL)."""
    return folded_copy({c: getattr(item, c) for c in SEARCHED_COLUMNS})


def _refold(conn: Any, condition: str, params: Sequence[Any]) -> None:
    """Recompute the folded copy of the rows matching `condition` (after an update, or a migration)."""
    columns = ", ".join("metadata::text" if c == "metadata" else c for c in SEARCHED_COLUMNS)
    with conn.cursor() as cur:
        rows = cur.execute(f"SELECT seq, {columns} FROM items WHERE {condition}", params or None).fetchall()
        values = [(folded_copy(_searched_row(r[1:])), r[0]) for r in rows]
        if values:
            cur.executemany("UPDATE items SET folded = %s WHERE seq = %s", values)


def _searched_row(row: Sequence[Any]) -> dict[str, Any]:
    """A row of SEARCHED_COLUMNS as values for folded_copy (metadata parsed, so Engram's JSON is rebuilt)."""
    import json

    values = dict(zip(SEARCHED_COLUMNS, row))
    values["metadata"] = json.loads(values["metadata"] or "{}")
    return values


def _vector(value: np.ndarray) -> np.ndarray:
    return np.asarray(value, dtype=np.float32)


def _matrix(blobs: Sequence[bytes], url: str, subject: str, model: str) -> np.ndarray:
    """Rows of pgvector's binary format (int16 dim, int16 unused, dim big-endian float32) as one matrix."""
    if not blobs:
        return np.zeros((0, 0), dtype=np.float32)
    dim = int.from_bytes(blobs[0][:2], "big")
    if any(len(b) != 4 + 4 * dim for b in blobs):
        raise StoreError(f"{url}: vectors of {subject} under {model} differ in dimension: run `engram reindex`")
    flat = np.frombuffer(b"".join(bytes(b[4:]) for b in blobs), dtype=">f4")
    return flat.astype(np.float32).reshape(len(blobs), dim)


if TYPE_CHECKING:  # mypy checks the backend against the protocol and every capability it claims
    from engram.store import base

    def _conforms(s: PostgresStore) -> tuple[base.Store, base.VectorAdmin, base.Scrubbable, base.TraceScanner,
                                             base.SearchesVectors, base.CacheReport, base.ReadsTexts, base.Spells,
                                             base.FetchesVectors]:
        return s, s, s, s, s, s, s, s, s
