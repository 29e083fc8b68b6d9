"""Supersession: decide, offline and explainably, when a new fact replaces an older one.

A false supersession hides a true fact from recall, so the rule is narrow and, in doubt, both
facts stay current. A fact is read clause by clause as *frames*: who it is about (the holder:
the user, the team, or a named person; a full name is one entity), a single-valued *slot* and
the slot's value. "Lives in Berlin" is (self, location, berlin); "Bruno Chen uses Emacs as a
code editor" is (bruno chen, choice:editor, emacs). A new fact supersedes a current one when

1. **same slot, new value**: both have the same slot for the same holder and the values
   differ ("Lives in Berlin" -> "Moved to Porto", "Prefers tabs for indentation" -> "Switched
   to spaces for indentation"); or
2. **negation**: the new fact says something no longer holds ("No longer uses npm", "Is no
   longer vegetarian", "Switched from Postgres to ...", "Left Acme") for the same holder, and
   its value fills the old fact's slot, or every content word of what it negates appears in
   the old fact, which is similar enough (cosine >= NEGATION_MIN_SIMILARITY).

Only single-valued slots supersede: where someone lives or works, team, job title, diet,
relationship status, car, commute, age, a favourite X, what is used or preferred *for a
purpose* (or in a known category such as "database" or "editor"), a count ("has 3 kids") and
attributes of things ("the deploy target is AWS"). Multi-valued predicates never do: a person's
states and activities ("is learning Swahili", "is allergic to gluten", "is planning a trip"),
likes, speaks, visited, has a ..., one of several hobbies. Every Decision carries the rule and a
one-line reason. Frames are read by `engram.core.frames`; which stored facts are checked on a write is
`engram.core.supersede_lookup`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engram.core.frames import Frame, bare, content_words, holders_match, read, same_value, sentence_holder
from engram.language.stem import stem
from engram.types import Item

__all__ = ["ATTRIBUTE_MIN_SIMILARITY", "NEGATION_MIN_SIMILARITY", "Decision", "detect", "read"]

#: Generic negations ("quit coffee") need this cosine with the old fact as well as word overlap.
NEGATION_MIN_SIMILARITY = 0.35
#: Attribute slots ("standup is at 9am") are the loosest frame, so they also need this cosine.
ATTRIBUTE_MIN_SIMILARITY = 0.45


@dataclass(frozen=True)
class Decision:
    """The new fact supersedes `old_id`, by `rule`, for `reason`."""

    old_id: str
    rule: str
    reason: str
    similarity: float


# -- deciding --------------------------------------------------------------------------------
def detect(new_text: str, candidates: Sequence[tuple[Item, float]]) -> list[Decision]:
    """Which current candidate facts `new_text` supersedes, and why. Pure: no I/O, no model."""
    new_frames = read(new_text)
    if not new_frames:
        return []
    # Without a negation only an old fact with one of the new slots can be superseded (`_decide`).
    slots = None if any(f.negates for f in new_frames) else {f.slot for f in new_frames if f.slot}
    decisions = []
    for item, similarity in candidates:
        if not item.current or item.text == new_text:
            continue
        if slots is not None and not any(f.slot in slots for f in read(item.text)):
            continue
        decision = _decide(new_frames, item, float(similarity))
        if decision is not None:
            decisions.append(decision)
    return decisions


def _decide(new_frames: Sequence[Frame], old: Item, similarity: float) -> Decision | None:
    old_frames = read(old.text)
    for new in new_frames:
        for negated in new.negates:
            decision = _negation(new, negated, old, old_frames, similarity)
            if decision:
                return decision
        for prior in old_frames:
            if prior.slot is None or new.slot is None or new.slot != prior.slot:
                continue
            if new.adds or not holders_match(new.holder, prior.holder) or same_value(new.value, prior.value):
                continue
            if new.slot.startswith("attr:") and similarity < ATTRIBUTE_MIN_SIMILARITY:
                continue
            return Decision(old.id, "same-slot", f"same {new.slot!r} for {new.holder}: {prior.value!r} -> "
                            f"{new.value!r}", similarity)
    return None


def _negation(new: Frame, negated: str, old: Item, old_frames: Sequence[Frame], similarity: float) -> Decision | None:
    """The new fact negates the old one: a switched-from value, or a negated statement's words."""
    for prior in old_frames:
        if prior.slot is None or not holders_match(new.holder, prior.holder):
            continue
        if prior.slot and prior.value and same_value(bare(negated), prior.value) and (
            new.slot is None or prior.slot.split(":")[0] == new.slot.split(":")[0]
        ):
            if new.slot is None:
                return Decision(old.id, "negation", f"says {prior.slot} {prior.value!r} no longer holds", similarity)
            return Decision(old.id, "replaced", f"{prior.slot} {prior.value!r} is replaced by {new.value!r}",
                            similarity)
    # Word overlap: an old fact we cannot frame ("Drinks coffee every morning") that holds every
    # content word of what the new one ends ("Quit coffee", "Switched from coffee to tea"). A move
    # "from Nairobi" ends where someone lived, not that they grew up there: only a switched-from
    # choice ends an unframed fact.
    if new.ceased or any(f.slot is None for f in old_frames) or (new.slot is not None and (
            old_frames or not new.slot.startswith("choice:"))):
        return None
    words = content_words(negated)
    if (words and words <= content_words(old.text) and similarity >= NEGATION_MIN_SIMILARITY
            and holders_match(new.holder, sentence_holder(old.text)) and _names_its_thing(new, negated, old.text)):
        if new.slot is not None:
            return Decision(old.id, "replaced", f"{negated!r} is replaced by {new.value!r}", similarity)
        return Decision(old.id, "negation", f"says {negated!r} no longer holds", similarity)
    return None


def _names_its_thing(new: Frame, negated: str, old_text: str) -> bool:
    """True unless the new fact names the thing whose value moved and the old fact does not: "Piano
    lessons moved from Monday to Thursday" ends nothing of "Book club meets on the first Monday"
    (the thing is the piano lessons; "Switched from Postgres to MySQL for the billing service" ends
    nothing of "The analytics service runs on Postgres"), while "Switched from coffee to tea" names
    none (its slot, "drink", is inferred) and may end "Drinks coffee every morning"; every word of
    the thing must be in the old fact (by stem: "in the mornings" names "every morning")."""
    if new.slot is None or not new.slot.startswith("choice:"):
        return True
    thing = content_words(new.slot.split(":", 1)[1]) - content_words(new.value) - content_words(negated)
    # content words are stemmed once, and the stemmer is not idempotent ("mornings" -> "morning",
    # "morning" -> "morn"): stemming both sides again lets the plural and the singular meet
    return {stem(w) for w in thing} <= {stem(w) for w in content_words(old_text)}
