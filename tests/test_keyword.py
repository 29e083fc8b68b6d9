"""The keyword index (engram.store.keyword): FTS5's tokens, FTS5's BM25, the same scores on both
backends, per-subject statistics, segments that stay few, forgetting that leaves no term, and a
rebuild when the index is missing or stale."""

from __future__ import annotations

import random
import sqlite3
import uuid
from pathlib import Path

import pytest

from engram.store import Filter, keyword, open_store
from engram.store.sqlite import SQLiteStore
from engram.types import Item
from engram.validate import content_hash

SUBJECT = "user:1"
WORDS = ("run runs running runner ran easily fairly generalization happiness relational conditional "
         "Postgres postgres POSTGRES databases database's team's k8s x86_64 3.12 2023 v2 naïve café "
         "Hauptstraße straße STRASSE İstanbul ıstanbul ΣΊΣΥΦΟΣ σίσυφος Ελληνικά Москва ёлка "
         "東京タワー 北京 한국어 العربية עברית हिन्दी ０１２ＡＢＣ ｆｕｌｌ ⅻ x² ½ e\u0301te\u0301 "
         "o\u0308l ångström Œuvre ﬁne ǅemal ß ŉ \ue000private 🙂emoji a-b a'b a_b").split()


def make(text: str, subject: str = SUBJECT, **fields: object) -> Item:
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, created_at=1000.0, event_at=1000.0,
                valid_from=1000.0, content_hash=content_hash(text), **fields)  # type: ignore[arg-type]


def vocabulary(n: int, seed: int = 3) -> list[str]:
    """Varied texts: the words above, random words from many scripts, combining marks,
    long tokens past porter's 64-byte limit, digits, punctuation."""
    rng = random.Random(seed)
    ranges = [(0x41, 0x7A), (0xC0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x530, 0x58F), (0x5D0, 0x5EA),
              (0x600, 0x6FF), (0x900, 0x97F), (0x1E00, 0x1EFF), (0x3040, 0x30FF), (0x4E00, 0x4FFF),
              (0xAC00, 0xAD00), (0xFF01, 0xFF5E), (0x2150, 0x218F), (0x300, 0x36F), (0x1D400, 0x1D7FF)]
    texts = []
    for i in range(n):
        parts = [rng.choice(WORDS) for _ in range(rng.randint(1, 8))]
        lo, hi = rng.choice(ranges)
        parts.append("".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 9))))
        if i % 17 == 0:
            parts.append("a" * 70 + "ing")
        if i % 5 == 0:
            parts.append(" ".join(rng.choice(WORDS).lower() + rng.choice(["s", "ed", "ing", "ly", "ness", ""])
                                  for _ in range(3)))
        texts.append(rng.choice([" ", ", ", "! ", "\n", " - "]).join(parts))
    return texts


def fts5_documents(texts: list[str]) -> list[tuple[int, dict[str, int]]]:
    """What FTS5 itself indexes for each text (an ordinary FTS5 table read through fts5vocab)."""
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE f USING fts5(text, tokenize='{keyword.TOKENIZE}')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, instance)")
    db.executemany("INSERT INTO f(rowid, text) VALUES (?, ?)", enumerate(texts))
    out: list[tuple[int, dict[str, int]]] = [(0, {}) for _ in texts]
    for doc, term, n in db.execute("SELECT doc, term, count(*) FROM v GROUP BY doc, term"):
        out[doc][1][term] = n
    return [(sum(terms.values()), terms) for _, terms in out]


def test_tokeniser_gives_fts5s_own_tokens_over_a_varied_vocabulary():
    texts = vocabulary(3000) + WORDS
    mine = keyword.Tokeniser().documents(texts)
    assert [(d.length, dict(d.terms)) for d in mine] == fts5_documents(texts)
    assert any(t.isascii() for t in texts) and any(not t.isascii() for t in texts)  # both paths ran


def test_tokeniser_query_words_match_fts5():
    tokeniser = keyword.Tokeniser()
    got = tokeniser.words(WORDS)
    assert got == [tuple(sorted(terms)) for _, terms in fts5_documents(list(WORDS))]
    assert tokeniser.words(["Running"]) == [("run",)] and tokeniser.words(["!!"]) == [()]


def fts5_scores(texts: list[str], query_words: list[str]) -> dict[int, float]:
    """FTS5's bm25() of each matching row, the query words ORed (as phrases)."""
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE f USING fts5(text, tokenize='{keyword.TOKENIZE}')")
    db.executemany("INSERT INTO f(rowid, text) VALUES (?, ?)", enumerate(texts))
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in query_words)
    return {r: -s for r, s in db.execute("SELECT rowid, bm25(f) FROM f WHERE f MATCH ?", (match,))}


QUERIES = [["postgres"], ["running", "database"], ["café", "straße"], ["team", "runs", "happiness"],
           ["istanbul"], ["σίσυφος"], ["2023", "k8s"], ["run", "running"]]


def corpus(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 14))) + f" item {i}" for i in range(n)]


@pytest.fixture
def small_pending(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny pending and fan-out limits, so a few hundred items exercise flushes and merges."""
    monkeypatch.setattr(keyword, "PENDING_MAX", 50)
    monkeypatch.setattr(keyword, "FANOUT", 3)


@pytest.mark.usefixtures("small_pending")
def test_scores_equal_fts5_bm25_on_a_single_subject_store(store):
    texts = corpus(400)
    items = [make(t) for t in texts]
    for start in range(0, len(items), 37):  # several writes: pending rows and segments both in use
        store.put(items[start : start + 37])
    index = {it.id: i for i, it in enumerate(items)}
    for words in QUERIES:
        want = fts5_scores(texts, words)
        got = store.keyword(SUBJECT, words, Filter(), 1000)
        assert len(got) == len(want) > 0, words
        for item_id, score in got:
            assert score == pytest.approx(want[index[item_id]], abs=1e-6), words
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)


def fill(store: object, items: list[Item], newer: Item) -> None:
    """Three subjects, written in batches, with a deletion and a supersession."""
    for start in range(0, len(items), 50):
        store.put(items[start : start + 50])  # type: ignore[attr-defined]
    store.delete("user:1", [it.id for it in items if it.subject == "user:1"][:25])  # type: ignore[attr-defined]
    old = next(it for it in items if it.subject == "user:2")
    store.put([newer], supersede={old.id: newer.id})  # type: ignore[attr-defined]


@pytest.mark.usefixtures("small_pending")
def test_sqlite_and_postgresql_give_the_same_scores(tmp_path: Path, pg_server: str):
    from pg_server import fresh_database

    rng = random.Random(5)
    items = [make(t, subject=rng.choice(["user:1", "user:2", "team:x"])) for t in corpus(600, 5)]
    newer = make("Postgres runs the happiness database now", subject="user:2")
    results = []
    for url in (str(tmp_path / "k.db"), fresh_database(pg_server)):
        with open_store(url) as store:
            fill(store, items, newer)
            results.append({(subject, tuple(words), history): store.keyword(
                subject, words, Filter(include_superseded=history), 1000)
                for subject in ("user:1", "user:2", "team:x") for words in QUERIES for history in (False, True)})
    sqlite, postgres = results
    assert sqlite.keys() == postgres.keys()
    assert sum(len(v) for v in sqlite.values()) > 500
    for key, hits in sqlite.items():
        other = postgres[key]
        assert [i for i, _ in hits] == [i for i, _ in other], key
        assert max((abs(a - b) for (_, a), (_, b) in zip(hits, other)), default=0.0) < 1e-6


def test_statistics_are_per_subject(store):
    mine = [make(t) for t in corpus(60)]
    store.put(mine)
    before = store.keyword(SUBJECT, ["postgres", "team"], Filter(), 100)
    store.put([make(f"postgres team postgres {i}", subject="user:other") for i in range(200)])
    assert store.keyword(SUBJECT, ["postgres", "team"], Filter(), 100) == before


@pytest.mark.usefixtures("small_pending")
def test_segments_stay_few_and_score_as_a_rebuild(tmp_path: Path):
    path = tmp_path / "s.db"
    with SQLiteStore(path) as store:
        for text in corpus(500, seed=2):
            store.put([make(text)])
        worst = store.query("SELECT max(n) FROM (SELECT count(*) AS n FROM keyword_postings GROUP BY term)")[0][0]
        assert worst <= (keyword.FANOUT - 1) * 8  # at most FANOUT - 1 segments on each of a few levels
        before = {tuple(w): store.keyword(SUBJECT, w, Filter(), 1000) for w in QUERIES}
        with store.transaction() as db:
            keyword.rebuild(db, store.keyword_sql, None)
        assert store.query("SELECT count(*) FROM keyword_pending")[0][0] == 0
        after = {tuple(w): store.keyword(SUBJECT, w, Filter(), 1000) for w in QUERIES}
    assert before.keys() == after.keys()
    for key, hits in before.items():
        assert [i for i, _ in hits] == [i for i, _ in after[key]]
        assert all(abs(a - b) < 1e-9 for (_, a), (_, b) in zip(hits, after[key]))


def test_filters_limits_and_history(store):
    old, new = make("Postgres 15 runs the billing database"), make("Postgres 16 runs the billing database")
    store.put([old, make("Postgres notes", kind="preference")])
    store.put([new], supersede={old.id: new.id})
    assert [i for i, _ in store.keyword(SUBJECT, ["postgres"], Filter(kinds=("fact",)), 10)] == [new.id]
    assert {i for i, _ in store.keyword(SUBJECT, ["postgres"], Filter(include_superseded=True), 10)} >= {old.id}
    assert len(store.keyword(SUBJECT, ["postgres"], Filter(), 1)) == 1
    assert store.keyword(SUBJECT, ["!!", "--"], Filter(), 10) == []
    assert store.keyword("user:nobody", ["postgres"], Filter(), 10) == []


@pytest.mark.parametrize("flushed", [False, True])
def test_forgetting_leaves_no_term_of_the_item(tmp_path: Path, flushed: bool, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(keyword, "PENDING_MAX", 1 if flushed else 10_000)
    path = tmp_path / "f.db"
    secret = "zephyrquokka"
    with SQLiteStore(path) as store:
        keep = [make(t) for t in corpus(30)]
        gone = make(f"The {secret} vaultcodes are hidden here")
        store.put(keep)
        store.put([gone])
        only_gone = set(keyword.TOKENISER.documents([gone.text])[0].terms).difference(
            *(keyword.TOKENISER.documents([it.text])[0].terms for it in keep))
        assert {"zephyrquokka", "vaultcod", "hidden"} <= only_gone
        in_segments = {r[0] for r in store.query("SELECT term FROM keyword_postings")}
        assert only_gone <= in_segments if flushed else not in_segments
        store.keyword(SUBJECT, [secret], Filter(), 5)  # the query word enters the tokeniser's cache too
        store.delete(SUBJECT, [gone.id])
        assert secret not in keyword.TOKENISER._stems and secret not in keyword.TOKENISER._words
        left = {r[0] for r in store.query("SELECT term FROM keyword_postings UNION SELECT term FROM keyword_pending")}
        assert not only_gone & left
        rowid = store.query("SELECT max(rowid) FROM items")[0][0]
        posted = keyword.entries(store.query, store.keyword_sql, SUBJECT, gone.text)
        assert all(k <= rowid for keys in posted.values() for k in keys)  # nothing points at the gone row
    raw = path.read_bytes() + (path.with_name("f.db-wal").read_bytes() if path.with_name("f.db-wal").exists() else b"")
    assert b"zephyrquokka" not in raw and b"vaultcod" not in raw


@pytest.mark.parametrize("flushed", [False, True])
def test_forgetting_reaches_the_keyword_tables_on_every_backend(store, flushed: bool, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(keyword, "PENDING_MAX", 1 if flushed else 10_000)
    keep = [make(t) for t in corpus(30)]
    gone = make("The zephyrquokka vaultcodes are hidden here")
    store.put(keep)
    store.put([gone])
    only_gone = set(keyword.TOKENISER.documents([gone.text])[0].terms).difference(
        *(keyword.TOKENISER.documents([it.text])[0].terms for it in keep))
    tables = "SELECT term FROM keyword_postings UNION SELECT term FROM keyword_pending"
    assert only_gone and only_gone <= {r[0] for r in store.query(tables)}
    before = store.keyword(SUBJECT, ["hidden", "postgres"], Filter(), 100)
    store.delete(SUBJECT, [gone.id])
    assert not only_gone & {r[0] for r in store.query(tables)}
    assert store.query(f"SELECT docs FROM keyword_subjects WHERE subject = '{SUBJECT}'")[0][0] == 30
    after = store.keyword(SUBJECT, ["hidden", "postgres"], Filter(), 100)
    assert gone.id in {i for i, _ in before} and gone.id not in {i for i, _ in after}


def test_keyword_tables_are_gone_for_a_forgotten_subject(store):
    a = make("Only this subject says xylophonic things", subject="user:gone")
    store.put([a])
    store.delete("user:gone", [a.id])
    for table in ("keyword_subjects", "keyword_pending", "keyword_postings"):
        assert store.query(f"SELECT count(*) FROM {table} WHERE subject = 'user:gone'")[0][0] == 0


def test_a_missing_or_stale_index_is_rebuilt_on_open(store_url: str):
    with open_store(store_url) as store:
        store.put([make(t) for t in corpus(120)])
        want = {tuple(w): store.keyword(SUBJECT, w, Filter(), 1000) for w in QUERIES}
    wipes = ["DELETE FROM keyword_postings", "DELETE FROM keyword_pending", "DELETE FROM keyword_subjects"]
    for damage in (wipes, ["UPDATE settings SET value = 'old' WHERE key = 'keyword.index'"],
                   ["UPDATE keyword_subjects SET docs = docs + 1"]):
        _raw(store_url, damage)
        with open_store(store_url) as store:
            got = {tuple(w): store.keyword(SUBJECT, w, Filter(), 1000) for w in QUERIES}
        assert {k: [i for i, _ in v] for k, v in got.items()} == {k: [i for i, _ in v] for k, v in want.items()}


def _raw(url: str, statements: list[str]) -> None:
    """Change a store's tables behind Engram's back."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)
        return
    db = sqlite3.connect(url)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()
