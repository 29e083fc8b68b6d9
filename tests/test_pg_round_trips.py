"""PostgreSQL recall in few round trips (docs/postgres.md, "PostgreSQL with 1 client"): how many
statements a warm recall runs, what the one-statement nearest search answers after other
connections write and delete, the shortlist's vectors read with its items, and access-count
updates that stay on their pages (HOT). All on a real server (tests/pg_server.py).
"""

from __future__ import annotations

import uuid

import numpy as np
import psycopg
from pg_server import fresh_database
from test_postgres_specific import _recorded

from engram.embed.hashing import HashingEmbedder
from engram.core.memory import Memory
from engram.store import pg_index, pg_nearest, spelling
from engram.store.base import Filter
from engram.store.postgres import PostgresStore
from engram.store.pg_schema import ITEMS_FILLFACTOR
from engram.types import Item
from engram.validate import content_hash

SUBJECT = "user:1"
MODEL = "test-model"


def make(text: str, subject: str = SUBJECT, session: str | None = None) -> Item:
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, created_at=1.0, event_at=1.0, valid_from=1.0,
                content_hash=content_hash(text), session=session)


def unit(rng: np.random.Generator, dim: int = 16) -> np.ndarray:
    v = rng.normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def fill(store: PostgresStore, n: int, rng: np.random.Generator, subject: str = SUBJECT, word: str = "fact") -> list[str]:
    items = [make(f"{word} {k} about {['rivers', 'maps', 'bread'][k % 3]}", subject) for k in range(n)]
    store.put(items, {it.id: unit(rng) for it in items}, model=MODEL)
    return [it.id for it in items]


def test_a_warm_recall_runs_five_statements(pg_server, monkeypatch):
    """Version read, keyword statistics and postings, their filter check, the nearest search
    (statistics, nearest, cosines and neighbours in one), the shortlist with its vectors."""
    mem, wire = _recorded(monkeypatch, fresh_database(pg_server))
    with mem:
        mem.remember_many(SUBJECT, [f"Bruno cooked recipe {n} with {['rice', 'beans', 'kale'][n % 3]}"
                                    for n in range(300)])
        mem.recall(SUBJECT, "what did Bruno cook with kale?", k=10)  # cold: the name book, the id list
        log = wire.during(lambda: mem.recall(SUBJECT, "recipe with beans", k=10))
    statements = [s for s, *_ in log]
    assert len(statements) == 5, statements
    assert sum("vector_send" in s for s in statements) == 1  # the shortlist's vectors, with its items
    assert sum("subject_versions" in s for s in statements) == 1


def test_nearest_after_other_connections_write_and_delete(pg_server):
    """One store answers, another (as another process would) writes and deletes: the first one's
    next answer equals a store opened afresh, neighbours and counts included."""
    url = fresh_database(pg_server)
    rng = np.random.default_rng(7)
    first, other = PostgresStore(url), PostgresStore(url)
    try:
        ids = fill(first, 40, rng)
        query = unit(rng)
        before = first.nearest(SUBJECT, MODEL, query, 10, ids[:3])
        assert before.count == 40 and len(before.nearest) == 10
        added = fill(other, 5, rng, word="note")
        other.delete(SUBJECT, [ids[1], ids[20]])
        for where in (None, Filter(kinds=("fact",))):
            seen = first.nearest(SUBJECT, MODEL, query, 10, [*ids[:3], added[0]], where)
            fresh = PostgresStore(url)
            try:
                assert seen == fresh.nearest(SUBJECT, MODEL, query, 10, [*ids[:3], added[0]], where)
            finally:
                fresh.close()
            assert seen.count == 43
            assert ids[1] not in seen.cosines and ids[1] not in {x for pair in seen.around.values() for x in pair}
            assert seen.around[ids[0]] == (None, ids[2])  # its old neighbour is gone
            assert seen.around[added[0]] == (ids[-1], added[1])  # written by the other store
        assert first.nearest("user:nobody", MODEL, query, 10, ["x"]).count == 0
    finally:
        first.close()
        other.close()


def test_exact_answer_equals_the_write_order_path(pg_server, monkeypatch):
    """The one-statement answer's cosines and neighbours equal those of the path past the
    crossover (cached write order, cosines by row key), given the same nearest and statistics."""
    url = fresh_database(pg_server)
    rng = np.random.default_rng(3)
    store = PostgresStore(url)
    try:
        ids = fill(store, 120, rng)
        asks = [(unit(rng), [ids[int(i)] for i in rng.choice(len(ids), 15, replace=False)] + ["not-an-id"])
                for _ in range(5)]
        exact = [store.nearest(SUBJECT, MODEL, query, 30, also) for query, also in asks]
        answers = iter(exact)
        monkeypatch.setattr(pg_index, "EXACT_MAX_ROWS", 50)  # 120 vectors: past it
        monkeypatch.setattr(store._hnsw, "find", lambda conn, model: ("vectors_hnsw_test", 16))
        monkeypatch.setattr(pg_index, "indexed_top", lambda *args: (lambda a: ((a.mean, a.std, a.minimum),
                                                                               list(a.nearest)))(next(answers)))
        for (query, also), one in zip(asks, exact):
            assert store.nearest(SUBJECT, MODEL, query, 30, also) == one
            assert one.count == 120 and len(one.nearest) == 30 and len(one.around) >= 30
        assert next(answers, None) is None  # every answer went through the index path
    finally:
        store.close()


def test_all_rows_answer_equals_the_servers_pick(pg_server):
    """A small subject's cosines read in write order give the answer the server's own pick gives
    (nearest in the same order, ties by write order, cosines, neighbours, statistics)."""
    url = fresh_database(pg_server)
    rng = np.random.default_rng(13)
    store = PostgresStore(url)
    try:
        ids = fill(store, 90, rng)
        twin = make("a twin of the first vector")  # an exact tie: write order decides
        store.put([twin], {twin.id: store.item_vectors(SUBJECT, MODEL, [ids[0]])[ids[0]]}, model=MODEL)
        query = store.item_vectors(SUBJECT, MODEL, [ids[0]])[ids[0]]
        with psycopg.connect(url, autocommit=True) as conn:
            from pgvector.psycopg import register_vector

            register_vector(conn)
            for n, also in ((5, []), (45, ids[10:30] + ["not-an-id"]), (200, ids[::3])):
                picked = pg_nearest.exact_answer(conn, SUBJECT, MODEL, query, n, also, None, None)
                read = pg_nearest.exact_answer(conn, SUBJECT, MODEL, query, n, also, None, 91)
                assert read == picked and picked.count == 91
                assert picked.nearest[:2] == (ids[0], twin.id)
            empty = pg_nearest.exact_answer(conn, "user:nobody", MODEL, query, 5, [], None, 0)
            assert empty == pg_nearest.exact_answer(conn, "user:nobody", MODEL, query, 5, [], None, None)
            assert empty.count == 0
    finally:
        store.close()


def test_text_array_round_trips_any_id(pg_server):
    ids = ['plain', 'with "quotes"', "back\\slash", "comma,brace}{", "", "NULL", "ünïcode ✓"]
    with psycopg.connect(pg_server, autocommit=True) as conn:
        assert conn.execute("SELECT %s::text[]", (pg_nearest.text_array(ids),)).fetchone()[0] == ids


def test_the_answer_sends_rows_asked_about_only(pg_server):
    """Rows of the statement: the statistics, the nearest and asked ids, and their neighbours."""
    url = fresh_database(pg_server)
    rng = np.random.default_rng(5)
    store = PostgresStore(url)
    try:
        fill(store, 200, rng)
        query = unit(rng)
        with psycopg.connect(url, autocommit=True) as conn:
            from pgvector.psycopg import register_vector

            register_vector(conn)
            rows = conn.execute(pg_nearest.exact_sql(None), (query, SUBJECT, MODEL, 5, [])).fetchall()
        kinds = [r[0] for r in rows]
        assert kinds.count(pg_nearest.STATS) == 1 and kinds.count(pg_nearest.ASKED) == 5
        assert kinds.count(pg_nearest.SIDE) <= 10
    finally:
        store.close()


def test_shortlist_vectors_are_the_stored_ones(pg_server):
    """get_with_vectors: the items of `get`, in its order, and each one's vector as item_vectors
    reads it; an item without a vector under the model has none."""
    url = fresh_database(pg_server)
    rng = np.random.default_rng(11)
    store = PostgresStore(url)
    try:
        ids = fill(store, 30, rng)
        bare = make("no vector here")
        store.put([bare])
        asked = [ids[4], bare.id, "missing", ids[0]]
        items, vectors = store.get_with_vectors(asked, MODEL)
        assert items == store.get(asked)
        stored = store.item_vectors(SUBJECT, MODEL, asked)
        assert set(vectors) == set(stored) == {ids[4], ids[0]}
        assert all(np.array_equal(vectors[i], stored[i]) and vectors[i].dtype == np.float32 for i in vectors)
        assert store.get_with_vectors(ids[:2], "another-model")[1] == {}
    finally:
        store.close()


def test_access_count_updates_stay_on_their_pages(pg_server):
    """items leave room on each page (migration 6): touched rows keep their page (HOT updates)."""
    url = fresh_database(pg_server)
    store = PostgresStore(url)
    try:
        items = [make(f"memory number {k}: " + "words " * 40) for k in range(400)]
        store.put(items)
        with psycopg.connect(url, autocommit=True) as conn:
            options = conn.execute("SELECT reloptions FROM pg_class WHERE relname = 'items'").fetchone()[0]
            assert f"fillfactor={ITEMS_FILLFACTOR}" in options

            def pages() -> dict[str, int]:
                return {i: int(c.strip("()").split(",")[0]) for i, c in
                        conn.execute("SELECT id, ctid::text FROM items").fetchall()}

            start = pages()
            touched = [it.id for it in items[::7]]
            for at in (10.0, 20.0):
                store.touch(dict.fromkeys(touched, (2, at)))
            assert {i: pages()[i] for i in touched} == {i: start[i] for i in touched}
            counts = dict(conn.execute("SELECT id, access_count FROM items WHERE id = ANY(%s)", (touched,)))
        assert set(counts.values()) == {4}
    finally:
        store.close()


def test_vocabularies_are_kept_for_many_subjects():
    """A server answering hundreds of subjects reads each one's vocabulary once (was 64 kept)."""
    held = spelling.Vocabularies()
    reads: list[str] = []
    for _ in range(2):
        for n in range(300):
            held.get(f"user:{n}", (10, 100), lambda n=n: reads.append(f"user:{n}") or {"river": 3})
    assert len(reads) == 300


def test_recall_on_postgres_equals_sqlite_with_sessions(pg_server, tmp_path):
    """The shortlist read with its vectors (and its session neighbours read after it) ranks as on SQLite."""
    texts = [f"At the market {who} bought {what} for the {when} dinner"
             for who in ("Ana", "Bruno", "Chen") for what in ("rice", "kale", "beans", "bread")
             for when in ("Monday", "Friday")]
    results = []
    for url in (fresh_database(pg_server), str(tmp_path / "same.db")):
        with Memory(url, embedder=HashingEmbedder(64)) as mem:
            for k, text in enumerate(texts):
                mem.remember(SUBJECT, text, session=f"s{k // 4}", now=1000.0 + k)
            results.append([[(h.text, h.score) for h in mem.recall(SUBJECT, q, k=5, now=2000.0)]
                            for q in ("What did Bruno buy?", "kale for Friday dinner", "bread")])
    pg, lite = results
    assert all(len(r) == 5 for r in pg)
    assert [[t for t, _ in r] for r in pg] == [[t for t, _ in r] for r in lite]  # float32 in the server: scores within 1e-6
    assert np.allclose([[s for _, s in r] for r in pg], [[s for _, s in r] for r in lite], atol=1e-6, rtol=0)
