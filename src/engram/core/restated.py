"""Newest first in a conversation: when the user gives a new value for something they said before.

A user who says "my Zotero library has 45 sources" and later "I've added 52 sources to my Zotero
library" changed a value, and a question about the present ("How many sources are in my Zotero
library?") should find the later message first. Conversation turns are events, so recall never
lets time alone reorder them (engram.core.ranking.newest_lifts leaves them be); this step reorders
two of them only when the words say one restates the other:

- the question asks about the present: not about an earlier state (`ranking.asks_before`), not in
  the past tense or about a span ("did", "was", "ever", "between", "after", "first" ending a clause:
  "at first?", not "my first sprint"), naming no date;
- of the first TOP hits, a user's message and a later user's message after it among them;
- in each, the sentence sharing most of the question's content words (`best_sentence`) states a
  value (a number, a clock time, a date), the later one a value the earlier one does not, with a
  word saying that something changed (`frames.CHANGE`: "now", "new", "moved to", "increased",
  "rescheduled" ...), and the two sentences share at least MIN_LIKENESS of their content words.

The latest such message goes just above the hit it restates (the best placed of the TOP that has
a restatement); every other hit keeps its place. English only, like the rest of the question cues.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence

from engram.core import frames, ranking
from engram.language.stem import stem
from engram.language.stopwords import STOP_WORDS
from engram.types import MESSAGE, Hit

#: How many of the first hits are read for a message and its restatement.
TOP = 3
#: How many hits recall must keep for this step (engram.core.memory collapses at least WINDOW + 1).
WINDOW = TOP - 1
#: The least share of content words (Jaccard) the two sentences have in common: about one thing.
MIN_LIKENESS = 0.1
#: How far apart the two reordered hits are placed (rank units), as in newest_lifts.
STEP = 1e-3
#: Only this much of a message is read for its sentences (a long answer states its values early).
READ_CHARS = 6000

# A question in the past tense or about a span of time asks about history, not the present value.
_HISTORY = re.compile(r"\b(?:did|was|were|had|ever|between|after)\b|\bfirst\b(?=\s*(?:[?.!,;]|$))", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W\d_][\w'-]+", re.UNICODE)
_VALUE = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\d[\d,]*(?:\.\d+)?", re.IGNORECASE)


def asks_present(query: str) -> bool:
    """True for a question about how things are now ("How many sources are in my library?"), not
    about how they were or when ("How many did I have before?", "What happened first?")."""
    return not (ranking.asks_before(query) or _HISTORY.search(query))


def newest_first(hits: Sequence[Hit], query: str, now: float) -> list[Hit]:
    """`hits` (best first) with a later user message that restates the value of one above it, among
    the first TOP, placed just above that one (see the module's docstring); otherwise unchanged."""
    hits = list(hits)
    if len(hits) < 2 or not asks_present(query) or ranking.query_dates(query, now):
        return hits
    terms = _content(query)
    top = hits[:TOP]
    for i, earlier_hit in enumerate(top):
        if not _user_message(earlier_hit):
            continue
        earlier = best_sentence(earlier_hit.item.text, terms)
        if earlier is None or not _values(earlier):
            continue
        later = [h for h in top[i + 1:] if _user_message(h) and _order(h) > _order(earlier_hit)
                 and restates(earlier, best_sentence(h.item.text, terms))]
        if later:
            return _placed_above(hits, max(later, key=_order), i)
    return hits


def _placed_above(hits: list[Hit], latest: Hit, at: int) -> list[Hit]:
    """`hits` with `latest` moved to place `at`, ranked between its new neighbours (the hit it
    displaces keeps its rank, or takes STEP more when it was the best)."""
    displaced = hits[at]
    if at == 0:
        first, second = _moved(latest, displaced.rank + 2 * STEP), _moved(displaced, displaced.rank + STEP)
    else:
        first, second = _moved(latest, (displaced.rank + hits[at - 1].rank) / 2), displaced
    rest = [h for h in hits[at + 1:] if h is not latest]
    return [*hits[:at], first, second, *rest]


def restates(earlier: str, later: str | None) -> bool:
    """True when sentence `later` gives a new value for what sentence `earlier` is about."""
    if later is None or not frames.CHANGE.search(later.lower()):
        return False
    before, after = _values(earlier), _values(later)
    if not before or not after - before:
        return False
    a, b = _content(earlier), _content(later)
    return len(a & b) >= MIN_LIKENESS * max(1, len(a | b))


def best_sentence(text: str, terms: frozenset[str]) -> str | None:
    """The sentence of `text` with the most of `terms` among its content words (the first of equals);
    None when none has any."""
    best, shared = None, 0
    for sentence in _SENTENCE.split(text[:READ_CHARS]):
        n = len(_content(sentence) & terms)
        if n > shared:
            best, shared = sentence, n
    return best


@functools.lru_cache(maxsize=4096)
def _content(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in (m.lower() for m in _WORD.findall(text)) if w not in STOP_WORDS and len(w) > 2)


def _values(sentence: str) -> frozenset[str]:
    """The values a sentence states, as written without spaces or thousands separators."""
    return frozenset(re.sub(r"[\s,]", "", m.group(0).lower()) for m in _VALUE.finditer(sentence))


def _user_message(hit: Hit) -> bool:
    return hit.item.kind == MESSAGE and hit.item.metadata.get("role") == "user"


def _order(hit: Hit) -> tuple[float, float, int]:
    """Where a message stands in its conversation: its time, when it was written, its turn."""
    turn = hit.item.metadata.get("turn", 0)
    return hit.item.event_at, hit.item.created_at, turn if isinstance(turn, int) else 0


def _moved(hit: Hit, rank: float) -> Hit:
    if not hit.components:
        return dataclasses.replace(hit, rank=rank)
    components = {**hit.components, "newest": hit.components.get("newest", 0.0) + rank - hit.rank}
    return dataclasses.replace(hit, rank=rank, components=components)
