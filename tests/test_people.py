"""The "many people" fact generator (engram.bench.people): shape, determinism, updates."""

from __future__ import annotations

import pytest

from engram.bench.people import ATTRIBUTES, generate, names


def test_each_person_and_attribute_is_stated_once_without_updates() -> None:
    facts = generate(2_000, people=300, seed=3)
    assert len(facts) == 2_000
    assert len({(f.person, f.attribute) for f in facts}) == 2_000
    assert len({f.person for f in facts}) > 250
    assert all(f.updates is None for f in facts)
    assert all(f.person in f.text and f.questions and all(f.person in q for q in f.questions) for f in facts)
    assert {f.attribute for f in facts} == {a.name for a in ATTRIBUTES}
    assert any(a.single for a in ATTRIBUTES) and any(not a.single for a in ATTRIBUTES)


def test_it_is_deterministic_for_a_seed() -> None:
    assert generate(300, people=50, seed=9) == generate(300, people=50, seed=9)
    assert generate(300, people=50, seed=9) != generate(300, people=50, seed=10)


def test_updates_follow_the_single_valued_fact_they_replace() -> None:
    facts = generate(500, people=40, updates=60, seed=4)
    updates = [(i, f) for i, f in enumerate(facts) if f.updates is not None]
    assert len(facts) == 560 and len(updates) == 60
    for position, new in updates:
        old = facts[new.updates]
        assert new.updates < position and old.updates is None
        assert (old.person, old.attribute) == (new.person, new.attribute)
        assert new.single and old.value != new.value and new.value in new.text


def test_full_names_share_first_names_but_not_whole_names() -> None:
    people = names(500, seed=1)
    assert len(set(people)) == 500
    assert len({p.split()[0] for p in people}) < 100


def test_impossible_requests_are_refused() -> None:
    with pytest.raises(ValueError):
        generate(10 * len(ATTRIBUTES) + 1, people=10)
    with pytest.raises(ValueError):
        names(0)
