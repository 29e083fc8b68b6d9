"""Subject isolation, as a property over every verb and both backends.

Whatever is written under subject A is never returned, counted, exported, audited, forgotten
or superseded through subject B, whatever the texts (B may even hold the very same words).
"""

from __future__ import annotations

import io
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram import validate
from engram.core.audit import audit
from engram.core.portable import export
from engram.store.base import Filter
from engram.core.supersede_lookup import Batch
from engram.types import Item

WORDS = ["lives", "in", "Berlin", "Porto", "uses", "Postgres", "Redis", "for", "caching", "prefers", "tea",
         "works", "at", "Acme", "the", "team", "deploys", "on", "Fridays", "moved", "to", "no", "longer"]
phrase = st.lists(st.sampled_from(WORDS), min_size=3, max_size=8).map(" ".join)
writes = st.lists(st.tuples(st.sampled_from(["fact", "episode", "preference", "keyed", "summary"]), phrase),
                  min_size=1, max_size=6)


def write(mem, subject: str, kind: str, text: str, tag: str, n: int) -> list[str]:
    body = f"{text} {tag}"
    if kind == "episode":
        return [mem.log_episode(subject, body, f"result {tag}").id]
    if kind == "preference":
        return [mem.set_preference(subject, f"pref_{n % 2}", body).id]
    if kind == "keyed":
        return [mem.store_fact(subject, f"key_{n % 2}", body, category="shared").id]
    saved = mem.remember(subject, body, kind=kind)
    return [saved.id] if saved.id else []


def all_ids(mem, subject: str) -> set[str]:
    return {it.id for it in mem.store.find(subject, Filter(include_superseded=True))}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a_writes=writes, b_writes=writes, query=phrase)
def test_nothing_crosses_subjects(memory, a_writes, b_writes, query):
    run = uuid.uuid4().hex[:8]
    a, b = f"user:a{run}", f"user:b{run}"
    a_tag, b_tag = f"zqa{run}", f"zqb{run}"
    for n, (kind, text) in enumerate(a_writes):
        write(memory, a, kind, text, a_tag, n)
    for n, (kind, text) in enumerate(b_writes):
        write(memory, b, kind, text, b_tag, n)
    a_ids, b_ids = all_ids(memory, a), all_ids(memory, b)
    a_before = sorted(memory.store.find(a, Filter(include_superseded=True)), key=lambda it: it.id)
    assert a_ids and b_ids and not a_ids & b_ids

    # reads under B see only B
    for text in [query, *(t for _, t in a_writes), a_tag]:
        assert not {h.id for h in memory.recall(b, text, k=50)} & a_ids
    assert not {it.id for it in memory.items(b, include_superseded=True)} & a_ids
    assert memory.matches(b, a_tag) == []
    stats = memory.stats(b)
    assert memory.subjects()[b] == stats["items"]
    assert stats["items"] + stats["history"] == len(b_ids)
    assert not {e.id for e in memory.recent_episodes(b, 100)} & a_ids
    assert not {it.id for it in memory.facts_by_category(b, "shared")} & a_ids
    for n in range(2):
        if memory.get_preference(b, f"pref_{n}", "") :
            assert a_tag not in memory.get_preference(b, f"pref_{n}")
        fact = memory.get_fact(b, f"key_{n}")
        assert fact is None or fact.id in b_ids
    for item_id in b_ids:
        assert {it.subject for it in memory.history(item_id)} == {b}

    # export and audit under B
    out = io.StringIO()
    export(memory, out, subjects=[b])
    assert a_tag not in out.getvalue() and not any(i in out.getvalue() for i in a_ids)
    assert audit(memory, b, a_tag).found == 0

    # supersession of a new B fact never closes an A item
    new = Item(id=uuid.uuid4().hex, subject=b, text=f"{query} {b_tag} moved to Porto", created_at=1e10,
               event_at=1e10, valid_from=1e10, content_hash=validate.content_hash(query))
    assert not set(Batch(memory.store, memory.embedder, [new], {}).facts(new)) & a_ids

    # writes under B never touch A
    assert memory.forget(b, a_tag) == 0
    assert memory.forget_ids(b, sorted(a_ids)) == 0
    memory.forget_all(b)
    assert sorted(memory.store.find(a, Filter(include_superseded=True)), key=lambda it: it.id) == a_before
    assert audit(memory, a, a_tag).found > 0
