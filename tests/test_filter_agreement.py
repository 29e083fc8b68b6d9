"""One filter, three readings: the Python check and the SQL of both backends agree.

Random items go into a real store (SQLite file, real PostgreSQL); for a random Filter the store's
answer must be exactly the items `Filter.accepts` passes. The metadata rule is documented in
engram.store.conditions: same JSON type and value, numbers by value, true is not 1.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram.errors import InvalidInput
from engram.store import Filter
from engram.types import Item
from engram.validate import content_hash

KINDS = ("fact", "episode", "note", "preference")
WORDS = ("Straße", "STRASSE", "tea", "Tea \"quoted\"", "café", "a\\b", "x")
SCALARS = (True, False, 1, 0, 1.0, 2.5, "1", "true", None)
STORED = (*SCALARS, [1], {"a": 1})
TIMES = (0.0, 10.0, 20.0, 30.0)
KEYS = ("n", "x.y")


@st.composite
def items(draw: st.DrawFn, subject: str) -> Item:
    at = draw(st.sampled_from(TIMES))
    valid_from = draw(st.sampled_from(TIMES))
    ended = draw(st.none() | st.sampled_from(TIMES).filter(lambda t: t > valid_from))
    text = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))) + " " + uuid.uuid4().hex[:6]
    return Item(
        id=uuid.uuid4().hex, subject=subject, text=text, kind=draw(st.sampled_from(KINDS)),
        source=draw(st.sampled_from(("", "chat", "Tea"))), agent=draw(st.sampled_from(("", "planner"))),
        key=draw(st.none() | st.sampled_from(("k1", "k2"))), category=draw(st.none() | st.sampled_from(("c1", "tea"))),
        session=draw(st.none() | st.sampled_from(("s1", "s2"))), created_at=at, event_at=at,
        valid_from=valid_from, valid_to=ended, superseded_by=None if ended is None else "someone",
        content_hash=content_hash(text),
        metadata=draw(st.dictionaries(st.sampled_from(KEYS), st.sampled_from(STORED), max_size=3)),
    )


def _current_key(item: Item) -> object:
    # A subject holds one current item per (kind, key): the store refuses a second one.
    return (item.kind, item.key) if item.key is not None and item.valid_to is None else item.id


def sometimes(values: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    """Mostly None: a filter with every field set rarely passes anything."""
    return st.one_of(*[st.none()] * 5, values)


filters = st.builds(
    Filter,
    kinds=sometimes(st.lists(st.sampled_from(KINDS), max_size=2).map(tuple)),
    exclude_kinds=sometimes(st.sampled_from(KINDS)).map(lambda k: () if k is None else (k,)),
    key=sometimes(st.sampled_from(("k1", "k2"))),
    category=sometimes(st.sampled_from(("c1", "tea"))),
    session=sometimes(st.sampled_from(("s1", "s2"))),
    source=sometimes(st.sampled_from(("", "chat"))),
    agent=sometimes(st.sampled_from(("", "planner"))),
    since=sometimes(st.sampled_from(TIMES)),
    until=sometimes(st.sampled_from(TIMES)),
    as_of=sometimes(st.sampled_from((5.0, 15.0, 25.0))),
    include_superseded=st.booleans(),
    contains=sometimes(st.sampled_from(("tea", "strasse", "ß", "\"quoted\"", "a\\b", "1", "true", "TEA"))),
    metadata=st.dictionaries(st.sampled_from(KEYS), st.sampled_from(SCALARS), max_size=2),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), where=filters)
def test_store_and_python_agree_on_random_items_and_filters(store, data: st.DataObject, where: Filter) -> None:
    subject = "user:" + uuid.uuid4().hex[:8]
    batch = data.draw(st.lists(items(subject), min_size=1, max_size=6, unique_by=_current_key))
    store.put(batch)
    expected = {it.id for it in batch if where.accepts(it)}
    assert {it.id for it in store.find(subject, where)} == expected
    terms = ["tea", "x"]  # the keyword path reads the same WHERE clause
    assert {i for i, _ in store.keyword(subject, terms, where, 100)} <= expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), metadata=st.dictionaries(st.sampled_from(KEYS), st.sampled_from(SCALARS), min_size=1, max_size=1))
def test_store_and_python_agree_on_metadata_filters(store, data: st.DataObject, metadata: dict[str, object]) -> None:
    subject = "user:" + uuid.uuid4().hex[:8]
    batch = data.draw(st.lists(items(subject), min_size=3, max_size=8, unique_by=_current_key))
    store.put(batch)
    where = Filter(metadata=metadata, include_superseded=True)
    assert {it.id for it in store.find(subject, where)} == {it.id for it in batch if where.accepts(it)}


def test_true_never_matches_a_stored_one(store) -> None:
    subject = "user:" + uuid.uuid4().hex[:8]
    one = Item(id=uuid.uuid4().hex, subject=subject, text="one", content_hash=content_hash("one"), metadata={"n": 1})
    yes = Item(id=uuid.uuid4().hex, subject=subject, text="yes", content_hash=content_hash("yes"), metadata={"n": True})
    fl = Item(id=uuid.uuid4().hex, subject=subject, text="fl", content_hash=content_hash("fl"), metadata={"n": 1.0})
    store.put([one, yes, fl])
    assert {it.id for it in store.find(subject, Filter(metadata={"n": True}))} == {yes.id}
    assert {it.id for it in store.find(subject, Filter(metadata={"n": 1}))} == {one.id, fl.id}
    assert {it.id for it in store.find(subject, Filter(metadata={"n": "1"}))} == set()
    assert not Filter(metadata={"n": True}).accepts(one) and Filter(metadata={"n": 1}).accepts(fl)


@pytest.mark.parametrize("value", [[1], {"a": 1}, 2**70, float("nan")])
def test_objects_arrays_and_huge_numbers_are_refused_as_filter_values(value: object) -> None:
    with pytest.raises(InvalidInput, match="JSON scalar"):
        Filter(metadata={"n": value})
