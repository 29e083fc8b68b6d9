"""The Store contract: one suite, run on every backend (see conftest `backend`)."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from engram.errors import StoreError
from engram.store import Filter
from engram.store.base import SearchesVectors
from engram.types import Item
from engram.validate import content_hash

SUBJECT = "user:1"


def make(text: str, subject: str = SUBJECT, **fields) -> Item:
    at = fields.pop("at", 1000.0)
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, created_at=at, event_at=at, valid_from=at,
                content_hash=content_hash(text), **fields)


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_put_then_get_round_trips_every_field(store):
    item = make("Team uses Postgres 16 for all services.", source="chat 1", agent="planner", key="db",
                category="stack", session="s1", confidence=0.8, importance=0.9,
                metadata={"value": "Postgres", "n": 3, "nested": {"ok": True}})
    [placed] = store.put([item])
    assert placed.created and placed.id == item.id
    assert store.get([item.id]) == [item]


def test_get_keeps_requested_order_and_skips_missing(store):
    a, b = make("first memory item here"), make("second memory item here")
    store.put([a, b])
    assert [it.id for it in store.get([b.id, "missing", a.id])] == [b.id, a.id]


def test_duplicate_text_in_same_subject_is_not_inserted(store):
    a = make("Prefers tea over coffee.")
    b = make("prefers  TEA over coffee.")
    store.put([a])
    [placed] = store.put([b])
    assert not placed.created and placed.id == a.id
    assert len(store.find(SUBJECT)) == 1


def test_same_text_in_other_subject_is_separate(store):
    store.put([make("Prefers tea over coffee.")])
    [placed] = store.put([make("Prefers tea over coffee.", subject="user:2")])
    assert placed.created
    assert store.subjects() == {"user:1": 1, "user:2": 1}


def test_episodes_are_not_deduplicated(store):
    store.put([make("Ran the nightly report", kind="episode"), make("Ran the nightly report", kind="episode")])
    assert len(store.find(SUBJECT, Filter(kinds=("episode",)))) == 2


def test_supersede_closes_the_old_version(store):
    old = make("Lives in Berlin, Germany.", key="home", at=100.0)
    new = make("Lives in Porto, Portugal.", key="home", at=200.0)
    store.put([old])
    store.put([new], supersede={old.id: new.id})
    assert [it.id for it in store.find(SUBJECT)] == [new.id]
    [closed] = store.get([old.id])
    assert closed.valid_to == 200.0 and closed.superseded_by == new.id
    assert [it.id for it in store.find(SUBJECT, Filter(as_of=150.0))] == [old.id]
    assert len(store.find(SUBJECT, Filter(include_superseded=True))) == 2


def test_find_filters(store):
    items = [
        make("An old fact about tea drinking", at=10.0, kind="fact", source="a", agent="x", category="food"),
        make("A newer fact about coffee beans", at=20.0, kind="fact", source="b", agent="y"),
        make("A preference for dark mode UI", at=30.0, kind="preference", session="s9"),
        make("Debugged the nightly pipeline", at=40.0, kind="episode", metadata={"success": True}),
        make("Failed to deploy the lambda", at=50.0, kind="episode", metadata={"success": False}),
    ]
    store.put(items)

    def texts(**kw):
        return [it.text for it in store.find(SUBJECT, Filter(**kw))]

    assert texts(kinds=("preference",)) == ["A preference for dark mode UI"]
    assert len(texts(exclude_kinds=("episode",))) == 3
    assert texts(source="b") == ["A newer fact about coffee beans"]
    assert texts(agent="x") == ["An old fact about tea drinking"]
    assert texts(category="food") == ["An old fact about tea drinking"]
    assert texts(session="s9") == ["A preference for dark mode UI"]
    assert texts(since=20.0, until=40.0) == ["A preference for dark mode UI", "A newer fact about coffee beans"]
    assert texts(metadata={"success": True}) == ["Debugged the nightly pipeline"]
    assert texts(contains="COFFEE") == ["A newer fact about coffee beans"]
    assert texts(kinds=()) == []
    assert len(store.find(SUBJECT, limit=2)) == 2
    assert [it.event_at for it in store.find(SUBJECT, newest_first=False)] == [10.0, 20.0, 30.0, 40.0, 50.0]


def test_contains_is_literal_not_a_pattern(store):
    store.put([make("Uses 100% of the quota_limit daily"), make("Uses 100 units of the quotaXlimit daily")])
    assert [it.text for it in store.find(SUBJECT, Filter(contains="100%"))] == ["Uses 100% of the quota_limit daily"]
    assert len(store.find(SUBJECT, Filter(contains="quota_limit"))) == 1


def test_contains_folds_non_ascii_case(store):
    store.put([make("Wohnt in MÜNCHEN seit 2020.")])
    assert len(store.find(SUBJECT, Filter(contains="münchen"))) == 1


def test_keyword_ranks_matches_and_respects_subject_and_filter(store):
    store.put([
        make("Team uses Postgres 16 for all services."),
        make("Deploys to AWS Lambda with Python 3.12."),
        make("Prefers answers with Python code, not pseudocode.", kind="preference"),
        make("Postgres is also used at home.", subject="user:2"),
    ])
    found = store.keyword(SUBJECT, ["postgres"], Filter(), 10)
    assert len(found) == 1 and all(score >= 0 for _, score in found)
    assert store.get([found[0][0]])[0].text.startswith("Team uses Postgres")
    python = store.keyword(SUBJECT, ["python"], Filter(kinds=("fact",)), 10)
    assert [store.get([i])[0].text for i, _ in python] == ["Deploys to AWS Lambda with Python 3.12."]


@pytest.mark.parametrize("term", ['"', "*", "NEAR", "AND", "OR", "NOT", "(", ")", "a:b", "^x", "-", "'; DROP TABLE items; --"])
def test_keyword_terms_with_query_syntax_never_error(store, term):
    store.put([make("A fact with AND and NOT words (and parentheses)")])
    assert isinstance(store.keyword(SUBJECT, [term], Filter(), 5), list)
    assert len(store.find(SUBJECT)) == 1


def test_vectors_are_returned_per_subject_and_model(store):
    a, b, c = make("vector item number one"), make("vector item number two"), make("other subject item", subject="user:2")
    store.put([a, b], {a.id: unit(1, 0, 0), b.id: unit(0, 1, 0)}, model="m:3")
    store.put([c], {c.id: unit(0, 0, 1)}, model="m:3")
    ids, matrix = store.vectors(SUBJECT, "m:3")
    assert sorted(ids) == sorted([a.id, b.id]) and matrix.shape == (2, 3) and matrix.dtype == np.float32
    np.testing.assert_allclose(matrix[ids.index(b.id)], unit(0, 1, 0))
    assert store.vectors(SUBJECT, "other:3")[0] == []


def test_item_vectors_are_the_stored_vectors_of_the_ids_asked(store):
    a, b, c = make("stored vector one"), make("stored vector two"), make("stored vector three")
    other = make("a vector of another subject", subject="user:2")
    elsewhere = make("a vector of another model")
    bare = make("an item without a vector")
    vectors = {a.id: unit(1, 2, 3), b.id: unit(0, 1, 0), c.id: unit(3, 0, 1)}
    store.put([a, b, c], vectors, model="m:3")
    store.put([other], {other.id: unit(0, 0, 1)}, model="m:3")
    store.put([elsewhere], {elsewhere.id: unit(1, 1, 0)}, model="n:3")
    store.put([bare])
    asked = [c.id, "unknown", a.id, other.id, elsewhere.id, bare.id]
    found = store.item_vectors(SUBJECT, "m:3", asked)
    assert set(found) == {a.id, c.id}
    for item_id, vector in found.items():
        assert vector.dtype == np.float32
        np.testing.assert_array_equal(vector, vectors[item_id])
    assert set(store.item_vectors(SUBJECT, "n:3", asked)) == {elsewhere.id}
    assert set(store.item_vectors("user:2", "m:3", asked)) == {other.id}
    assert store.item_vectors(SUBJECT, "m:3", []) == {}


def test_a_scoped_store_reads_item_vectors_of_its_own_subject_only(store):
    from engram.errors import AccessDenied
    from engram.safety.access import scoped

    mine, theirs = make("my stored vector"), make("their stored vector", subject="user:2")
    store.put([mine], {mine.id: unit(1, 0)}, model="m:2")
    store.put([theirs], {theirs.id: unit(0, 1)}, model="m:2")
    seen = scoped(store, SUBJECT)
    assert set(seen.item_vectors(SUBJECT, "m:2", [mine.id, theirs.id])) == {mine.id}
    with pytest.raises(AccessDenied):
        seen.item_vectors("user:2", "m:2", [theirs.id])


def test_vectors_cache_sees_new_writes(store):
    a, b = make("first vector item here"), make("second vector item here")
    store.put([a], {a.id: unit(1, 0)}, model="m:2")
    assert len(store.vectors(SUBJECT, "m:2")[0]) == 1
    store.put([b], {b.id: unit(0, 1)}, model="m:2")
    assert len(store.vectors(SUBJECT, "m:2")[0]) == 2
    store.delete(SUBJECT, [a.id])
    assert store.vectors(SUBJECT, "m:2")[0] == [b.id]


def test_delete_removes_row_keyword_entry_and_vector(store):
    a = make("Secret project codename Bluebird")
    store.put([a], {a.id: unit(1, 1)}, model="m:2")
    assert store.delete(SUBJECT, [a.id]) == 1
    assert store.get([a.id]) == []
    assert store.keyword(SUBJECT, ["bluebird"], Filter(include_superseded=True), 5) == []
    assert store.vectors(SUBJECT, "m:2")[0] == []


def test_delete_never_crosses_subjects(store):
    a = make("Belongs to user one only", subject="user:1")
    store.put([a])
    assert store.delete("user:2", [a.id]) == 0
    assert store.get([a.id]) == [a]


def test_update_sets_allowed_fields_only(store):
    a = make("An item whose importance changes")
    store.put([a])
    assert store.update([a.id], {"importance": 0.9, "metadata": {"k": "v"}}) == 1
    [got] = store.get([a.id])
    assert got.importance == 0.9 and got.metadata == {"k": "v"}
    with pytest.raises(StoreError):
        store.update([a.id], {"text": "rewritten"})
    assert store.get([a.id])[0].text == a.text


def test_settings_round_trip(store):
    assert store.setting("embedder") is None
    store.setting("embedder", "m:3")
    assert store.setting("embedder") == "m:3"
    store.setting("embedder", delete=True)
    assert store.setting("embedder") is None


def test_failed_put_writes_nothing(store):
    good = make("A perfectly good item to keep")
    store.put([good])
    clash = make("Another item that will clash")
    broken = clash.replace(id=good.id)  # same primary id: the whole batch must roll back
    with pytest.raises(StoreError):
        store.put([make("Would be written first in the batch"), broken])
    assert [it.id for it in store.find(SUBJECT)] == [good.id]


def test_reopen_keeps_everything(store_url):
    from engram.store import open_store

    with_store = open_store(store_url)
    item = make("Survives a close and reopen of the store")
    with_store.put([item], {item.id: unit(1, 2, 3)}, model="m:3")
    with_store.close()
    again = open_store(store_url)
    try:
        assert again.get([item.id]) == [item]
        assert again.vectors(SUBJECT, "m:3")[0] == [item.id]
    finally:
        again.close()


def test_a_second_store_on_the_same_url_sees_new_vectors(store, store_url):
    from engram.store import open_store

    other = open_store(store_url)
    try:
        a, b = make("seen by both connections"), make("written later by the other")
        store.put([a], {a.id: unit(1, 0)}, model="m:2")
        assert other.vectors(SUBJECT, "m:2")[0] == [a.id]
        store.put([b], {b.id: unit(0, 1)}, model="m:2")
        assert sorted(other.vectors(SUBJECT, "m:2")[0]) == sorted([a.id, b.id])
    finally:
        other.close()


def test_a_write_grows_the_cached_vectors_in_place(store, store_url):
    from engram.store import open_store

    a, b, c = make("grown item one"), make("grown item two"), make("grown item three")
    store.put([a], {a.id: unit(1, 0, 0)}, model="m:3")
    old_ids, old_matrix = store.vectors(SUBJECT, "m:3")
    finder = store if isinstance(store, SearchesVectors) else None
    if finder is not None:  # PostgreSQL's own id list (the name book's) grows in place too
        assert list(finder.vector_ids(SUBJECT, "m:3")) == [a.id]
    misses = store.cache_stats()["misses"]
    store.put([b], {b.id: unit(0, 1, 0)}, model="m:3")
    store.put([c, make("no vector here")], {c.id: unit(1, 1, 1)}, model="m:3")
    ids, matrix = store.vectors(SUBJECT, "m:3")
    assert store.cache_stats()["misses"] == misses  # appended to the cached rows: nothing reloaded
    assert list(ids) == [a.id, b.id, c.id] and ids.index(c.id) == 2 and c.id in ids
    assert store.vectors(SUBJECT, "m:3")[0] is ids  # the same snapshot until the subject changes
    if finder is not None:
        assert list(finder.vector_ids(SUBJECT, "m:3")) == [a.id, b.id, c.id]
    fresh = open_store(store_url)
    try:
        fresh_ids, fresh_matrix = fresh.vectors(SUBJECT, "m:3")
        assert list(fresh_ids) == list(ids)
        assert np.array_equal(fresh_matrix, matrix) and matrix.dtype == fresh_matrix.dtype == np.float32
    finally:
        fresh.close()
    assert list(old_ids) == [a.id] and old_matrix.shape == (1, 3)  # an earlier snapshot never changes
    assert not matrix.flags.writeable


def test_a_write_after_another_writers_reloads_the_cache(store, store_url):
    from engram.store import open_store

    a, b, c = make("mine first"), make("theirs in between"), make("mine after theirs")
    store.put([a], {a.id: unit(1, 0)}, model="m:2")
    store.vectors(SUBJECT, "m:2")
    other = open_store(store_url)
    try:
        other.put([b], {b.id: unit(0, 1)}, model="m:2")
    finally:
        other.close()
    store.put([c], {c.id: unit(1, 1)}, model="m:2")  # the cache missed b: it must not just append c
    ids, matrix = store.vectors(SUBJECT, "m:2")
    assert list(ids) == [a.id, b.id, c.id]
    np.testing.assert_allclose(matrix[1], unit(0, 1))


def test_access_counts_do_not_reload_the_vector_cache(store):
    a = make("an item that gets recalled often")
    store.put([a], {a.id: unit(1, 0)}, model="m:2")
    _, first = store.vectors(SUBJECT, "m:2")
    store.touch({a.id: (1, 5000.0)})
    _, again = store.vectors(SUBJECT, "m:2")
    assert again is first  # the cached matrix: no vector changed
    assert store.get([a.id])[0].access_count == 1


def test_find_by_content_hash(store):
    a, b = make("Prefers tea over coffee."), make("Prefers coffee over tea.")
    store.put([a, b])
    assert [it.id for it in store.find(SUBJECT, Filter(content_hash=a.content_hash))] == [a.id]
    assert Filter(content_hash=b.content_hash).accepts(b) and not Filter(content_hash=b.content_hash).accepts(a)


# -- the protocol, exactly ---------------------------------------------------------------------
def _protocol_methods(protocol: type) -> list[str]:
    return [name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")]


def test_backends_match_the_protocol_signatures_exactly(store):
    """Same parameter names, kinds and defaults as the Protocol, so any keyword call works."""
    import inspect

    from engram.store.base import Scrubbable, Store, TraceScanner, VectorAdmin

    for protocol in (Store, VectorAdmin, Scrubbable, TraceScanner):
        assert isinstance(store, protocol), f"{type(store).__name__} lacks {protocol.__name__}"
        for name in _protocol_methods(protocol):
            wanted = list(inspect.signature(getattr(protocol, name)).parameters.values())[1:]
            got = list(inspect.signature(getattr(store, name)).parameters.values())
            shared = got[: len(wanted)]
            assert [(p.name, p.kind, p.default) for p in shared] == [(p.name, p.kind, p.default) for p in wanted], name
            # Extra parameters are allowed only when optional (PostgreSQL's scrub(full=False)).
            assert all(p.default is not inspect.Parameter.empty for p in got[len(wanted):]), name


def test_find_and_keyword_take_the_filter_by_keyword(store):
    item = make("Team uses Postgres 16 for all services.", key="db")
    store.put([item])
    assert [it.id for it in store.find(SUBJECT, where=Filter(key="db"))] == [item.id]
    assert [i for i, _ in store.keyword(SUBJECT, ["postgres"], where=Filter(), limit=5)] == [item.id]


def test_a_scoped_store_offers_no_backend_capability(store):
    from engram.safety.access import ScopedStore
    from engram.store.base import FileBackup, Scrubbable, TraceScanner, VectorAdmin

    scoped = ScopedStore(store, SUBJECT)
    assert not any(isinstance(scoped, cap) for cap in (VectorAdmin, Scrubbable, TraceScanner, FileBackup))


def test_vector_cache_is_bounded_and_counts_hits(store_url, monkeypatch):
    from engram.store import open_store

    monkeypatch.setenv("ENGRAM_CACHE_MB", "0.01")  # ~10 kB: room for a few small matrices only
    bounded = open_store(store_url)
    try:
        for n in range(20):
            item = make(f"fact of subject {n}", subject=f"user:{n}")
            bounded.put([item], {item.id: unit(*range(1, 513))}, model="m:32")  # 2 kB each
            bounded.vectors(f"user:{n}", "m:32")
        bounded.vectors("user:19", "m:32")  # the most recent: still cached
        stats = bounded.cache_stats()
        assert stats["bytes"] <= stats["max_bytes"] == int(0.01 * (1 << 20))
        assert 0 < stats["entries"] < 20
        assert stats["hits"] >= 1 and stats["misses"] == 20 and 0 < stats["hit_rate"] < 1
    finally:
        bounded.close()


def test_bounded_cache_drops_least_recently_used_and_invalidates_a_subject():
    from engram.store.cache import BoundedCache

    cache: BoundedCache[str] = BoundedCache(max_entries=2, max_bytes=100)
    cache.put("a", "m", "A", 10)
    cache.put("b", "m", "B", 10)
    assert cache.get("a", "m") == "A"  # a is now the most recent
    cache.put("c", "m", "C", 10)
    assert cache.get("b", "m") is None and cache.get("c", "m") == "C"
    cache.put("d", "m", "D", 95)  # past the byte bound: the older entries go
    assert cache.stats()["bytes"] <= 100 and cache.get("d", "m") == "D"
    cache.put("huge", "m", "H", 101)
    assert cache.get("huge", "m") is None
    cache.invalidate("d")
    assert cache.get("d", "m") is None and cache.stats()["entries"] == 0


# One text rule (engram.text.fold) on every backend: (stored text, needle, should match).
TEXT_RULE = [
    ("Wohnt in der Hauptstraße 5", "strasse", True),  # ß folds to ss
    ("Wohnt in der HAUPTSTRASSE 5", "straße", True),
    ("İstanbul trip planned", "i̇stanbul", True),  # İ folds to i + combining dot above
    ("İstanbul trip planned", "istanbul", False),  # ... which is not a plain i: accents are significant
    ("ıssız ada", "ISSIZ", False),  # dotless ı is its own letter
    ("ΟΔΥΣΣΕΥΣ sailed", "οδυσσευς", True),  # capital sigma folds to σ ...
    ("Οδυσσεύς sailed", "ΟΔΥΣΣΕΎΣ", True),  # ... and final ς does too
    ("Ｔｏｋｙｏ office", "tokyo", True),  # full-width letters fold to ASCII
    ("Café au lait", "cafe\u0301", True),  # composed é equals e + combining acute
    ("Cafe\u0301 noir", "CAFÉ", True),
    ("Café au lait", "cafe au", False),  # but é is not e
]


@pytest.mark.parametrize("text, needle, found", TEXT_RULE)
def test_one_text_rule_for_contains_on_every_backend(store, text, needle, found):
    item = make(text, metadata={"note": text})
    other = make("nothing to see here")
    store.put([item, other])
    hits = [it.id for it in store.find(SUBJECT, Filter(contains=needle, include_superseded=True))]
    assert hits == ([item.id] if found else [])
    assert Filter(contains=needle).accepts(item) is found  # the same rule in Python


def test_text_rule_reaches_metadata_after_an_update(store):
    item = make("a plain fact")
    store.put([item])
    store.update([item.id], {"metadata": {"city": "Straße"}})
    assert [it.id for it in store.find(SUBJECT, Filter(contains="STRASSE"))] == [item.id]
    store.update([item.id], {"metadata": {}})
    assert store.find(SUBJECT, Filter(contains="strasse")) == []


def test_dedupe_folds_like_matches():
    from engram.validate import content_hash as h

    assert h("Hauptstraße") == h("HAUPTSTRASSE") and h("Café") == h("cafe\u0301") and h("Ｔｏｋｙｏ") == h("tokyo")
    assert h("Café") != h("cafe")
