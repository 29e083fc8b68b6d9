"""Synthetic one-sentence facts about many people, with questions that name the person.

    from engram.bench.people import generate
    facts = generate(10_000, people=800, seed=1)             # zero true updates
    facts = generate(1_000, people=200, updates=100, seed=2)  # plus 100 true updates
    [(f.text, f.questions[0]) for f in facts[:2]]
    # [('Bruno Chen uses Emacs as a code editor.', 'What text editor does Bruno Chen prefer?'), ...]

Full names come from first- and last-name lists, so many people share a first name ("Bruno
Chen", "Bruno Sharma": two people). Each attribute (`ATTRIBUTES`) has several phrasings and
several questions (one line each of engram/bench/data/people_attributes.jsonl); it is *single-valued* (where someone lives, their employer, their editor)
or *multi-valued* (languages being learned, planned trips, allergies, hobbies). Without
updates every (person, attribute) pair is stated at most once, so a store of these facts has
nothing to supersede. With `updates=n`, n extra facts each change a single-valued attribute
stated earlier ("Bruno Chen moved to Lisbon." after "Bruno Chen lives in Oslo."); such a fact's
`updates` is the index of the fact it replaces. Deterministic for a given seed.

Used by the supersession precision test and `benchmarks/supersede_eval.py --people`, and by
recall measurements (questions paraphrase the fact and name the person).
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from importlib import resources

__all__ = ["ATTRIBUTES", "Attribute", "PersonFact", "generate", "names"]

FIRST = ("Bruno Hiro Kofi Omar Aisha Lena Mateo Priya Sven Yuki Amara Diego Elif Farah Grace Hana Ivan Jonas "
         "Keiko Liam Maya Nadia Oskar Paula Quentin Rosa Sami Tara Umar Vera Wei Ximena Yara Zane Ada Bilal "
         "Chloe Dmitri Esther Felix Gita Hugo Ines Jamal Kira Luca Mina Nico Olga Pablo").split()
LAST = ("Chen Sharma Haddad Tanaka Silva Okafor Novak Garcia Kowalski Nguyen Rossi Schmidt Petrov Mensah "
        "Larsen Dubois Yilmaz Costa Ivanova Kim Patel Moreau Jensen Santos Fischer Ali Tran Popescu Berg "
        "Hoffmann Nakamura Osei Ruiz Lindqvist Weber Murphy Abe Castro Horvat Bianchi").split()


ATTRIBUTES_FILE = "people_attributes.jsonl"


@dataclass(frozen=True)
class Attribute:
    """One thing a person can have: phrasings and questions use `{name}` and `{value}`
    (`update_phrasings` may also use `{old}`); `single` says whether a new value replaces the old."""

    name: str
    single: bool
    values: tuple[str, ...]
    phrasings: tuple[str, ...]
    questions: tuple[str, ...]
    update_phrasings: tuple[str, ...] = ()


def _attributes() -> tuple[Attribute, ...]:
    """The attribute table, one JSON object a line (engram/bench/data/people_attributes.jsonl)."""
    text = (resources.files("engram.bench") / "data" / ATTRIBUTES_FILE).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return tuple(Attribute(r["name"], bool(r["single"]), tuple(r["values"]), tuple(r["phrasings"]),
                           tuple(r["questions"]), tuple(r.get("update_phrasings", ()))) for r in rows)


#: Single-valued ones first (a new value replaces the old), then multi-valued ones (values accumulate).
ATTRIBUTES: tuple[Attribute, ...] = _attributes()


@dataclass(frozen=True)
class PersonFact:
    """One generated fact: who, which attribute, the value, the sentence and questions answering it.

    `updates` is the index (in the returned list) of the fact this one replaces, or None."""

    person: str
    attribute: str
    value: str
    text: str
    questions: tuple[str, ...]
    single: bool
    updates: int | None = None


def names(count: int, seed: int = 0) -> list[str]:
    """`count` distinct full names ("Bruno Chen"), shuffled; at most len(FIRST) * len(LAST)."""
    every = [f"{first} {last}" for first in FIRST for last in LAST]
    if not 0 < count <= len(every):
        raise ValueError(f"count must be from 1 to {len(every)}, not {count}")
    random.Random(seed).shuffle(every)
    return every[:count]


def generate(count: int, *, people: int = 800, updates: int = 0, seed: int = 0) -> list[PersonFact]:
    """`count` facts, each a new (person, attribute) pair, about `people` people; then `updates`
    true updates of single-valued attributes (placed after the fact they replace, in random order).

    Raises ValueError when `count` exceeds people x attributes or `updates` exceeds the
    updatable facts generated."""
    rng = random.Random(seed)
    who = names(people, seed)
    pairs = [(person, attribute) for person in who for attribute in ATTRIBUTES]
    if not 0 <= count <= len(pairs):
        raise ValueError(f"count must be from 0 to {len(pairs)} ({people} people x {len(ATTRIBUTES)} attributes)")
    chosen = rng.sample(pairs, count)
    facts = [_fact(rng, person, attribute) for person, attribute in chosen]
    updatable = [i for i, (_, attribute) in enumerate(chosen) if attribute.update_phrasings]
    if not 0 <= updates <= len(updatable):
        raise ValueError(f"updates must be from 0 to {len(updatable)} (single-valued facts generated)")
    placed: list[tuple[float, PersonFact, int | None]] = [(float(i), f, None) for i, f in enumerate(facts)]
    for old_index in rng.sample(updatable, updates):
        old = facts[old_index]
        attribute = next(a for a in ATTRIBUTES if a.name == old.attribute)
        value = rng.choice([v for v in attribute.values if v != old.value])
        text = rng.choice(attribute.update_phrasings).format(name=old.person, value=value, old=old.value)
        new = PersonFact(old.person, old.attribute, value, text, _questions(attribute, old.person), True)
        placed.append((rng.uniform(old_index + 0.01, count), new, old_index))
    placed.sort(key=lambda entry: entry[0])
    where = {int(key): position for position, (key, _, replaces) in enumerate(placed) if replaces is None}
    return [fact if replaces is None else dataclasses.replace(fact, updates=where[replaces])
            for _, fact, replaces in placed]


def _fact(rng: random.Random, person: str, attribute: Attribute) -> PersonFact:
    value = rng.choice(attribute.values)
    text = rng.choice(attribute.phrasings).format(name=person, value=value)
    return PersonFact(person, attribute.name, value, text, _questions(attribute, person), attribute.single)


def _questions(attribute: Attribute, person: str) -> tuple[str, ...]:
    return tuple(q.format(name=person) for q in attribute.questions)
