"""EngramStore against LangGraph's BaseStore contract, with the real langgraph package.

The contract tests run on EngramStore (SQLite and PostgreSQL) and on LangGraph's own
InMemoryStore: what passes on both tests the contract, not Engram. The installed langgraph
ships no store conformance suite, so these are written from BaseStore's documented behaviour
(docs/langgraph.md lists them). Both stores embed with the real MiniLM model.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Annotated, TypedDict

import pytest
from threads import run_in_threads
from langchain_core.messages import SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, ListNamespacesOp, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore

from engram import InvalidInput, Memory
from engram.integrations.langgraph import EngramStore, namespace_of, subject_for
from engram.store import Filter
from engram.types import STORE_ITEM

STORES = ["engram-sqlite", "engram-postgres", "inmemory"]


def _memory(kind: str, request: pytest.FixtureRequest, tmp_path, embedder) -> Memory:
    if kind == "engram-sqlite":
        return Memory(str(tmp_path / "memory.db"), embedder=embedder)
    from pg_server import fresh_database

    return Memory(fresh_database(request.getfixturevalue("pg_server")), embedder=embedder)


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path, minilm):
    if request.param == "inmemory":
        yield InMemoryStore(index={"dims": minilm.dim, "fields": ["text"],
                                   "embed": lambda texts: minilm.embed(texts).tolist()})
        return
    mem = _memory(request.param, request, tmp_path, minilm)
    yield EngramStore(mem, index={"fields": ["text"]})
    mem.close()


@pytest.fixture
def engram_store(tmp_path, minilm):
    mem = Memory(str(tmp_path / "memory.db"), embedder=minilm)
    yield EngramStore(mem, index={"fields": ["text"]})
    mem.close()


# -- the contract: every store -------------------------------------------------------------------
def test_put_then_get_returns_the_value_with_its_namespace_key_and_times(store: BaseStore):
    value = {"text": "Likes green tea.\nAnd long walks.", "n": 3, "tags": ["a", "b"], "nested": {"x": None}}
    store.put(("users", "42"), "prefs", value)
    item = store.get(("users", "42"), "prefs")
    assert item is not None
    assert (item.value, item.key, item.namespace) == (value, "prefs", ("users", "42"))
    assert isinstance(item.created_at, datetime) and item.updated_at >= item.created_at


def test_get_of_a_missing_key_or_namespace_is_none(store: BaseStore):
    store.put(("users", "42"), "prefs", {"text": "x"})
    assert store.get(("users", "42"), "other") is None
    assert store.get(("nobody", "here"), "prefs") is None


def test_a_put_replaces_the_value_of_its_key(store: BaseStore):
    store.put(("docs",), "d1", {"text": "first"})
    store.put(("docs",), "d1", {"text": "second"})
    assert store.get(("docs",), "d1").value == {"text": "second"}
    assert [it.value for it in store.search(("docs",))] == [{"text": "second"}]


def test_delete_removes_the_item_and_a_missing_key_is_no_error(store: BaseStore):
    store.put(("docs",), "d1", {"text": "first"})
    store.delete(("docs",), "d1")
    store.delete(("docs",), "never-there")
    assert store.get(("docs",), "d1") is None
    assert store.search(("docs",)) == []


def test_search_covers_the_prefix_and_everything_under_it(store: BaseStore):
    store.put(("a", "b"), "1", {"text": "one"})
    store.put(("a", "b", "c"), "2", {"text": "two"})
    store.put(("a", "x"), "3", {"text": "three"})
    store.put(("z",), "4", {"text": "four"})
    assert {it.key for it in store.search(("a", "b"))} == {"1", "2"}
    assert {it.key for it in store.search(("a",))} == {"1", "2", "3"}
    assert {it.key for it in store.search(())} == {"1", "2", "3", "4"}
    assert store.search(("nothing",)) == []
    assert {it.namespace for it in store.search(("a", "b"))} == {("a", "b"), ("a", "b", "c")}


def test_search_filters_on_values_exactly_nested_and_with_operators(store: BaseStore):
    for i, (colour, size) in enumerate([("red", 1), ("red", 5), ("blue", 5), ("green", 9)]):
        store.put(("items",), f"k{i}", {"text": f"item {i}", "colour": colour, "size": size, "meta": {"shop": i % 2}})
    keys = lambda **kw: {it.key for it in store.search(("items",), limit=100, **kw)}  # noqa: E731
    assert keys(filter={"colour": "red"}) == {"k0", "k1"}
    assert keys(filter={"colour": "red", "size": 5}) == {"k1"}
    assert keys(filter={"meta": {"shop": 1}}) == {"k1", "k3"}
    assert keys(filter={"size": {"$gt": 4}}) == {"k1", "k2", "k3"}
    assert keys(filter={"size": {"$gte": 5, "$lt": 9}}) == {"k1", "k2"}
    assert keys(filter={"size": {"$lte": 1}}) == {"k0"}
    assert keys(filter={"colour": {"$ne": "red"}}) == {"k2", "k3"}
    assert keys(filter={"colour": {"$eq": "blue"}}) == {"k2"}
    assert keys(filter={"colour": "purple"}) == set()


def test_search_pages_with_limit_and_offset(store: BaseStore):
    for i in range(7):
        store.put(("pages",), f"k{i}", {"text": f"page {i}"})
    pages = [store.search(("pages",), limit=3, offset=o) for o in (0, 3, 6)]
    assert [len(p) for p in pages] == [3, 3, 1]
    assert {it.key for p in pages for it in p} == {f"k{i}" for i in range(7)}
    assert store.search(("pages",), limit=3, offset=9) == []
    assert len(store.search(("pages",))) == 7  # the default limit is 10


def test_a_query_ranks_the_indexed_field_by_meaning(store: BaseStore):
    store.put(("memories", "u1"), "m1", {"text": "The user's dog is a border collie named Rex."})
    store.put(("memories", "u1"), "m2", {"text": "Prefers aisle seats on long flights."})
    store.put(("memories", "u1"), "m3", {"text": "Works as a backend engineer on payments."})
    found = store.search(("memories",), query="what pet does the user have?", limit=3)
    assert found[0].key == "m1"
    assert found[0].score is not None and found[0].score >= (found[1].score or 0)
    assert store.search(("memories",), query="seat on a plane", limit=1)[0].key == "m2"


def test_a_query_with_a_filter_and_paging(store: BaseStore):
    texts = ["Has a cat called Miso.", "Has a parrot.", "Drinks espresso.", "Owns a hamster."]
    for i, text in enumerate(texts):
        store.put(("m",), f"k{i}", {"text": text, "private": i % 2 == 0})
    found = store.search(("m",), query="pets", filter={"private": True}, limit=10)
    assert {it.key for it in found} == {"k0", "k2"}
    first, second = (store.search(("m",), query="pets", limit=2, offset=o) for o in (0, 2))
    assert len(first) == len(second) == 2 and not {it.key for it in first} & {it.key for it in second}


def test_an_unindexed_item_is_still_found_by_get_and_search(store: BaseStore):
    store.put(("docs",), "secretless", {"text": "a note kept out of the index"}, index=False)
    store.put(("docs",), "indexed", {"text": "a note about the weather"})
    assert store.get(("docs",), "secretless").value == {"text": "a note kept out of the index"}
    assert {it.key for it in store.search(("docs",))} == {"secretless", "indexed"}
    assert {it.key for it in store.search(("docs",), query="weather", limit=10)} == {"secretless", "indexed"}


def test_put_with_index_fields_of_its_own(store: BaseStore):
    store.put(("docs",), "a", {"title": "Trip to Lisbon", "text": "unrelated words"}, index=["title"])
    store.put(("docs",), "b", {"title": "Quarterly taxes", "text": "more unrelated words"}, index=["title"])
    assert store.search(("docs",), query="holiday in Portugal", limit=1)[0].key == "a"


def test_list_namespaces_with_prefix_suffix_wildcards_depth_and_paging(store: BaseStore):
    for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"), ("x",)]:
        store.put(ns, "k", {"text": "x"})
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a",), suffix=("i",)) == [("a", "b", "d", "i")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("x",)]
    every = store.list_namespaces()
    assert len(every) == 6 and every == sorted(every)
    assert store.list_namespaces(limit=2, offset=1) == every[1:3]
    assert store.list_namespaces(prefix=("nope",)) == []


@pytest.mark.parametrize("namespace", [("",), ("a.b",), ("ok", ""), ("langgraph", "x"), ()])
def test_invalid_namespaces_are_refused_on_put(store: BaseStore, namespace):
    with pytest.raises(InvalidNamespaceError):
        store.put(namespace, "k", {"text": "x"})
    assert store.search(()) == []


def test_invalid_labels_are_refused_on_reads_too(store: BaseStore):
    with pytest.raises(InvalidNamespaceError):
        store.get(("a.b",), "k")
    with pytest.raises(InvalidNamespaceError):
        store.search(("a.b",))
    with pytest.raises(InvalidNamespaceError):
        store.list_namespaces(prefix=("",))


def test_batch_returns_one_result_per_operation_in_order(store: BaseStore):
    store.put(("b",), "old", {"text": "old"})
    results = store.batch([
        PutOp(("b",), "new", {"text": "new"}),
        GetOp(("b",), "old"),
        SearchOp(("b",), filter={"text": "old"}),
        ListNamespacesOp(),
        PutOp(("b",), "old", None),
    ])
    assert results[0] is None and results[4] is None
    assert results[1].value == {"text": "old"}
    assert [it.key for it in results[2]] == ["old"]
    assert results[3] == [("b",)]
    assert store.get(("b",), "old") is None and store.get(("b",), "new").value == {"text": "new"}


def test_the_async_methods_match_the_sync_ones(store: BaseStore):
    async def run() -> None:
        await store.aput(("as", "1"), "k", {"text": "async value"})
        assert (await store.aget(("as", "1"), "k")).value == {"text": "async value"}
        assert [it.key for it in await store.asearch(("as",))] == ["k"]
        assert await store.alist_namespaces(prefix=("as",)) == [("as", "1")]
        together = await asyncio.gather(*(store.aput(("as", "1"), f"k{i}", {"text": str(i)}) for i in range(5)))
        assert together == [None] * 5
        results = await store.abatch([GetOp(("as", "1"), "k3"), SearchOp(("as",), limit=100)])
        assert results[0].value == {"text": "3"} and len(results[1]) == 6
        await store.adelete(("as", "1"), "k")
        assert await store.aget(("as", "1"), "k") is None

    asyncio.run(run())


def test_long_values_with_newlines_round_trip_exactly(store: BaseStore):
    value = {"text": "line\n" * 20_000, "unicode": "naïve café 東京 🙂", "float": 0.1, "big": 2**60}
    store.put(("long",), "k", value)
    assert store.get(("long",), "k").value == value


# -- EngramStore only: Engram's guarantees ------------------------------------------------------
def test_an_item_is_one_store_item_kept_verbatim_under_the_namespace_subject(engram_store: EngramStore):
    value = {"b": 1, "a": "two\nlines"}
    engram_store.put(("users", "42"), "prefs", value)
    subject = subject_for(("users", "42"))
    assert subject == "langgraph:users/42" and namespace_of(subject) == ("users", "42")
    [item] = engram_store.memory.items(subject, kinds=[STORE_ITEM])
    assert item.text == json.dumps(value, ensure_ascii=False) and item.key == "prefs"


def test_labels_with_any_characters_map_to_a_subject_and_back(engram_store: EngramStore):
    namespace = ("user name with spaces", "a/b~c", "東京", "e@x:y")
    engram_store.put(namespace, "k", {"text": "x"})
    assert engram_store.list_namespaces() == [namespace]
    assert engram_store.get(namespace, "k").value == {"text": "x"}


def test_a_too_long_namespace_is_refused_with_the_reason(engram_store: EngramStore):
    with pytest.raises(InvalidNamespaceError, match="too long"):
        engram_store.put(("x" * 300,), "k", {"text": "x"})


def test_a_secret_is_refused_and_the_stored_value_stays(engram_store: EngramStore):
    engram_store.put(("u",), "k", {"text": "fine"})
    with pytest.raises(InvalidInput, match="looks like a secret"):
        engram_store.put(("u",), "k", {"text": "my key is sk-ant-api03-" + "a1B2c3D4e5" * 6})
    assert engram_store.get(("u",), "k").value == {"text": "fine"}


@pytest.mark.parametrize("value, problem", [
    ({"when": datetime(2026, 1, 1)}, "datetime, which is not JSON"),
    ({"n": float("nan")}, "NaN"),
    ({1: "int key"}, "JSON object keys are strings"),
    ({"deep": [{"s": {1, 2}}]}, r"value\.deep\[0\]\.s is a set"),
    (["not", "a", "mapping"], "must be a mapping"),
])
def test_values_that_are_not_json_are_refused_and_nothing_is_lost(engram_store: EngramStore, value, problem):
    engram_store.put(("u",), "k", {"text": "kept"})
    with pytest.raises(InvalidInput, match=problem):
        engram_store.put(("u",), "k", value)
    assert engram_store.get(("u",), "k").value == {"text": "kept"}


@pytest.mark.slow  # a 5 MB and a 20 MB value (~25 s here)
def test_a_huge_value_is_kept_and_one_past_the_limit_is_refused(engram_store: EngramStore):
    huge = {"text": "y" * 5_000_000}
    engram_store.put(("u",), "huge", huge)
    assert engram_store.get(("u",), "huge").value == huge
    with pytest.raises(InvalidInput, match="too long"):
        engram_store.put(("u",), "huge", {"text": "z" * 20_000_001})
    assert engram_store.get(("u",), "huge").value == huge


def test_a_put_keeps_history_and_the_first_created_at(engram_store: EngramStore):
    engram_store.put(("h",), "k", {"text": "v1"})
    created = engram_store.get(("h",), "k").created_at
    engram_store.put(("h",), "k", {"text": "v2"})
    item = engram_store.get(("h",), "k")
    assert item.created_at == created and item.updated_at >= created
    current = engram_store.memory.admin.current(subject_for(("h",)), STORE_ITEM, "k")
    assert [json.loads(v.text) for v in engram_store.memory.history(current.id)] == [{"text": "v1"}, {"text": "v2"}]


def test_without_history_the_old_version_is_forgotten(tmp_path):
    with Memory(str(tmp_path / "m.db"), embedder="hashing") as mem:
        store = EngramStore(mem, keep_history=False)
        store.put(("h",), "k", {"text": "v1"})
        store.put(("h",), "k", {"text": "v2"})
        subject = subject_for(("h",))
        assert [it.text for it in mem.items(subject, include_superseded=True)] == ['{"text": "v2"}']


def test_delete_forgets_every_version(engram_store: EngramStore):
    for i in range(3):
        engram_store.put(("d",), "k", {"text": f"v{i}"})
    engram_store.delete(("d",), "k")
    subject = subject_for(("d",))
    assert engram_store.memory.items(subject, where=Filter(include_superseded=True)) == []
    assert engram_store.memory.matches(subject, "v1") == []


def test_memory_recall_finds_what_the_graph_stored(engram_store: EngramStore):
    engram_store.put(("memories", "u1"), "m1", {"text": "Allergic to peanuts."})
    hits = engram_store.memory.recall(subject_for(("memories", "u1")), "food allergy", k=1)
    assert json.loads(hits[0].text) == {"text": "Allergic to peanuts."}


def test_concurrent_writers_lose_nothing(engram_store: EngramStore):
    """Real threads: four writers on one key and on keys of their own."""

    def write(n: int) -> None:
        for i in range(5):
            engram_store.put(("c",), "shared", {"text": f"writer {n} step {i}"})
            engram_store.put(("c",), f"own-{n}-{i}", {"text": f"writer {n} step {i}"})

    assert run_in_threads(write) == []
    assert len(engram_store.search(("c",), limit=100)) == 21
    versions = engram_store.memory.items(subject_for(("c",)), where=Filter(key="shared", include_superseded=True))
    assert len(versions) == 20


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def test_ttl_hides_expired_items_refreshes_on_read_and_sweeps(tmp_path):
    clock = Clock()
    with Memory(str(tmp_path / "m.db"), embedder="hashing") as mem:
        store = EngramStore(mem, clock=clock, ttl={"default_ttl": 10, "refresh_on_read": True})
        store.put(("t",), "short", {"text": "x"}, ttl=1)
        store.put(("t",), "default", {"text": "y"})
        store.put(("t",), "forever", {"text": "z"}, ttl=None)
        clock.now += 30
        assert store.get(("t",), "short") is not None  # a read refreshes: one more minute from now
        clock.now += 50
        assert store.get(("t",), "short", refresh_ttl=False) is not None
        clock.now += 20
        assert store.get(("t",), "short") is None
        assert {it.key for it in store.search(("t",))} == {"default", "forever"}
        clock.now += 600
        assert {it.key for it in store.search(("t",))} == {"forever"}
        assert store.sweep_ttl() == 2
        assert [it.key for it in mem.items(subject_for(("t",)), include_superseded=True)] == ["forever"]


def test_inmemorystore_refuses_a_ttl_it_does_not_support():
    with pytest.raises(NotImplementedError):
        InMemoryStore().put(("t",), "k", {"text": "x"}, ttl=5)


def _letters(texts):
    """A small embedder of the caller's own: letter counts (what LangGraph's tests pass as index['embed'])."""
    return [[float(t.lower().count(c)) for c in "abcdefghijklmnopqrstuvwxyz"] for t in texts]


def _cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / ((sum(x * x for x in a) ** 0.5) * (sum(y * y for y in b) ** 0.5))


@pytest.mark.parametrize("distance", ["cosine", "inner_product", "l2"])
def test_search_scores_are_the_similarity_of_the_callers_embedder_across_namespaces(tmp_path, distance):
    texts = {("pets", "alice"): "Alice has a dog named Rex.", ("notes", "a"): "The meeting is on Monday.",
             ("notes", "b"): "Buy milk and eggs.", ("notes", "c"): "The dog park opens at nine."}
    with Memory(str(tmp_path / "m.db"), embedder="none") as mem:
        store = EngramStore(mem, index={"dims": 26, "embed": _letters, "fields": ["text"],
                                        "distance_type": distance})
        for (ns, key), text in texts.items():
            store.put((ns,), key, {"text": text})
        found = store.search((), query="what is the dog's name?", limit=10)
    q = _letters(["what is the dog's name?"])[0]
    for hit in found:
        v = _letters([hit.value["text"]])[0]
        want = {"cosine": _cosine(q, v), "inner_product": sum(x * y for x, y in zip(q, v)),
                "l2": -sum((x - y) ** 2 for x, y in zip(q, v)) ** 0.5}[distance]
        assert hit.score == pytest.approx(want)
    assert [h.score for h in found] == sorted((h.score for h in found), reverse=True)
    assert len(found) == 4


def test_each_hit_carries_engrams_calibrated_relevance_beside_langgraphs_score(tmp_path, minilm):
    texts = {("pets", "alice"): "Alice has a dog named Rex.", ("notes", "a"): "The meeting is on Monday.",
             ("notes", "b"): "Buy milk and eggs."}
    with Memory(str(tmp_path / "m.db"), embedder=minilm) as mem:
        store = EngramStore(mem, index={"dims": 26, "embed": _letters, "fields": ["text"], "distance_type": "l2"})
        for (ns, key), text in texts.items():
            store.put((ns,), key, {"text": text})
        found = {h.key: h for h in store.search((), query="what is the name of Alice's dog?", limit=10)}
        unranked = store.search((), limit=10)
        for ns, key in texts:
            hits = mem.recall(subject_for((ns,)), "what is the name of Alice's dog?", k=5)
            assert found[key].relevance == pytest.approx({h.item.key: h.score for h in hits}.get(key))
    assert all(h.score < 0 for h in found.values())  # LangGraph's l2 score: minus the distance
    assert found["alice"].relevance > 0.5 > found["b"].relevance  # on-topic, off-topic
    assert found["alice"].dict()["relevance"] == found["alice"].relevance
    assert [h.relevance for h in unranked] == [None] * 3  # no query, no relevance


def test_without_an_index_the_score_is_the_relevance(engram_store: EngramStore):
    engram_store.put(("pets",), "alice", {"text": "Alice has a dog named Rex."})
    engram_store.put(("notes",), "b", {"text": "Buy milk and eggs."})
    plain = EngramStore(engram_store.memory)
    found = plain.search((), query="Alice's dog")
    assert found[0].key == "alice"
    assert found[0].score == found[0].relevance and 0.0 < found[0].score <= 1.0


def test_a_provider_string_for_embed_is_refused(tmp_path):
    with Memory(str(tmp_path / "m.db"), embedder="none") as mem:
        with pytest.raises(InvalidInput, match="network"):
            EngramStore(mem, index={"dims": 3, "embed": "openai:text-embedding-3-small"})


def test_dotted_filter_keys_reach_nested_fields(tmp_path):
    with Memory(str(tmp_path / "m.db"), embedder="none") as mem:
        store = EngramStore(mem)
        store.put(("u",), "1", {"info": {"city": "Porto", "age": 30}})
        store.put(("u",), "2", {"info": {"city": "Lyon", "age": 40}})
        assert [h.key for h in store.search(("u",), filter={"info.city": "Porto"})] == ["1"]
        assert [h.key for h in store.search(("u",), filter={"info.age": {"$gt": 35}})] == ["2"]


def test_namespaces_whose_items_all_expired_are_not_listed(tmp_path):
    now = [1000.0]
    with Memory(str(tmp_path / "m.db"), embedder="none") as mem:
        store = EngramStore(mem, clock=lambda: now[0])
        store.put(("short",), "k", {"text": "x"}, ttl=1)
        store.put(("long",), "k", {"text": "y"}, ttl=10)
        assert store.list_namespaces() == [("long",), ("short",)]
        now[0] += 120
        assert store.list_namespaces() == [("long",)]


def test_the_async_store_sweeps_ttl_with_coroutines(tmp_path):
    from engram.integrations.langgraph import AsyncEngramStore

    now = [1000.0]

    async def run() -> tuple[int, bool, list[str]]:
        with Memory(str(tmp_path / "m.db"), embedder="none") as mem:
            store = AsyncEngramStore(mem, clock=lambda: now[0])
            await store.aput(("t",), "gone", {"text": "x"}, ttl=1)
            await store.aput(("t",), "kept", {"text": "y"})
            now[0] += 120
            swept = await store.sweep_ttl()
            task = await store.start_ttl_sweeper(sweep_interval_minutes=1)
            assert not task.done()
            stopped = await store.stop_ttl_sweeper(timeout=5)
            return swept, stopped, [it.key for it in await store.asearch(("t",))]

    assert asyncio.run(run()) == (1, True, ["kept"])


def test_a_path_opens_its_own_memory(tmp_path):
    store = EngramStore(str(tmp_path / "m.db"))
    store.put(("p",), "k", {"text": "x"})
    assert store.get(("p",), "k").value == {"text": "x"}
    store.memory.close()


# -- a real graph -------------------------------------------------------------------------------
class State(TypedDict):
    messages: Annotated[list, add_messages]
    recalled: list[str]


def _memory_graph(store: BaseStore, model):
    """A LangGraph agent with long-term memory: it recalls from the store before the model speaks,
    and a `save_memory` tool call from the model writes to the store."""
    def agent(state: State, config: RunnableConfig, *, store: BaseStore) -> dict:
        namespace = ("memories", config["configurable"]["user_id"])
        found = store.search(namespace, query=state["messages"][-1].content, limit=3)
        recalled = [it.value["text"] for it in found]
        system = SystemMessage("Known about the user:\n" + "\n".join(recalled))
        return {"messages": [model.invoke([system, *state["messages"]])], "recalled": recalled}

    def save(state: State, config: RunnableConfig, *, store: BaseStore) -> dict:
        namespace = ("memories", config["configurable"]["user_id"])
        results = []
        for call in state["messages"][-1].tool_calls:
            store.put(namespace, call["id"], {"text": call["args"]["text"]})
            results.append(ToolMessage("saved", tool_call_id=call["id"]))
        return {"messages": results}

    def route(state: State) -> str:
        return "save" if state["messages"][-1].tool_calls else END

    builder = StateGraph(State)
    builder.add_node("agent", agent)
    builder.add_node("save", save)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", route, ["save", END])
    builder.add_edge("save", "agent")
    return builder.compile(checkpointer=InMemorySaver(), store=store)


@pytest.mark.parametrize("which", ["engram", "inmemory"])
def test_a_state_graph_saves_in_one_thread_and_finds_it_in_another(which, engram_store, minilm):
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage

    store = engram_store if which == "engram" else InMemoryStore(
        index={"dims": minilm.dim, "fields": ["text"], "embed": lambda texts: minilm.embed(texts).tolist()})
    model = GenericFakeChatModel(messages=iter([
        AIMessage("", tool_calls=[{"id": "call_1", "name": "save_memory",
                                   "args": {"text": "The user's dog is a border collie named Rex."}}]),
        AIMessage("Noted: Rex the border collie."),
        AIMessage("Your dog is Rex."),
        AIMessage("Hello!"),
    ]))
    graph = _memory_graph(store, model)
    first = graph.invoke({"messages": [HumanMessage("My dog Rex is a border collie.")]},
                         {"configurable": {"thread_id": "t1", "user_id": "u1"}})
    assert first["messages"][-1].content == "Noted: Rex the border collie."
    second = graph.invoke({"messages": [HumanMessage("What is my dog's name?")]},
                          {"configurable": {"thread_id": "t2", "user_id": "u1"}})
    assert second["recalled"] == ["The user's dog is a border collie named Rex."]
    assert len(second["messages"]) == 2  # a new thread: its own messages only
    assert graph.invoke({"messages": [HumanMessage("Hi")]}, {"configurable": {"thread_id": "t3", "user_id": "u2"}}
                        )["recalled"] == []  # another user's namespace holds nothing
    if which == "engram":
        [item] = engram_store.memory.items(subject_for(("memories", "u1")), kinds=[STORE_ITEM])
        assert json.loads(item.text) == {"text": "The user's dog is a border collie named Rex."}


def test_an_export_and_import_carries_the_store_with_its_index(tmp_path):
    from engram.core.portable import export, import_

    with Memory(str(tmp_path / "a.db"), embedder="hashing") as mem:
        store = EngramStore(mem, index={"fields": ["text"]})
        store.put(("m", "u"), "big", {"text": "a long note\n" * 50_000})
        store.put(("m", "u"), "dog", {"text": "The dog is called Rex."})
        export(mem, tmp_path / "out.jsonl")
    with Memory(str(tmp_path / "b.db"), embedder="hashing") as mem:
        import_(mem, tmp_path / "out.jsonl")
        copy = EngramStore(mem, index={"fields": ["text"]})
        assert copy.get(("m", "u"), "big").value == {"text": "a long note\n" * 50_000}
        assert copy.search(("m",), query="dog Rex", limit=1)[0].key == "dog"
