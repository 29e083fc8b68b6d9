"""Newest first in a conversation: when the user gives a new value for something they said before.

A user who says "my Zotero library has 45 sources" and later "I've added 52 sources to my Zotero
library" changed a value, and a question about the present ("How many sources are in my Zotero
library?") should find the later message first. Conversation turns are events, so recall never
lets time alone reorder them (engram.core.ranking.newest_lifts leaves them be); this step reorders
them only when the words say one restates the other:

- the question asks about the present (`asks_present`): not about an earlier state
  (`ranking.asks_before`), not in the past tense or about a span ("did", "was", "ever", "between",
  "first" ending a clause: "at first?", not "my first sprint"), naming no time that is over
  (`names_past`: "last week", not "next Saturday", "this year" or the span a value runs for,
  "through August");
- it asks for a value (`asks_value`): it begins with "what", "which", "when", "how many", "how
  much" ... (after a lead such as "can you tell me"), and it is neither advice asked of the
  assistant ("What would you suggest ...", "... help me ...") nor a count over the conversation
  ("across my sessions", "how many different ...");
- a user's message among the first TOP hits, and users' messages said after it below it among
  the first DEEP;
- in each, the sentence sharing most of the question's content words (`best_sentence`) states
  values (`quantities`: a clock time, a date, a year, an amount of money, a percentage, a count),
  the later one a value of a kind the earlier one states but not that value ("April 20" ->
  "April 25", "3 interviews" -> "5 interviews", "65%" -> "78%"; a date never restates a count),
  of a kind the question asks for when its words name one (`asked_kinds`: "What time" a time,
  "How many" a count, "When"/"deadline" a date ...), and the two sentences share at least
  MIN_LIKENESS of their content words, DEEP_LIKENESS for a later message below the first TOP
  (`restates`).

No word saying that something changed ("now", "moved to") is needed: a user restating a value
often just states it ("I secured 5 interviews"). The kinds of value keep a new date from
restating a count, and the question's shape keeps the step away from advice and summaries.

Every such later message goes just above the best placed message it restates, or above a
higher hit said before it that states the same old value ("6-9 months" said twice), the
restatements in their own order; every other hit keeps its place. English only, like the rest of the question
cues.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence

from engram.core import ranking
from engram.language.dates import MONTHS
from engram.language.stem import stem
from engram.language.stopwords import STOP_WORDS
from engram.types import MESSAGE, Hit

#: Among how many of the first hits a restated message is looked for.
TOP = 5
#: Among how many of the first hits its restatements are looked for (in a long conversation the
#: newer message often ranks a little lower: more messages share its words).
DEEP = 7
#: How many hits recall must keep for this step (engram.core.memory collapses at least WINDOW + 1).
WINDOW = DEEP - 1
#: The least share of content words (Jaccard) the two sentences have in common: about one thing.
MIN_LIKENESS = 0.1
#: The same for a restatement below the first TOP hits: further down, more alike.
DEEP_LIKENESS = 0.2
#: How far apart the reordered hits are placed (rank units), as in newest_lifts.
STEP = 1e-3
#: Only this much of a message is read for its sentences (a long answer states its values early).
READ_CHARS = 6000

# A question in the past tense or about a span of time asks about history, not the present value.
_HISTORY = re.compile(r"\b(?:did|was|were|had|ever|between)\b|\bfirst\b(?=\s*(?:[?.!,;:]|$))", re.IGNORECASE)
# A question for a value: a question word opening the question or one of its sentences.
_ASKS_VALUE = re.compile(r"(?:^|[.!?;:]\s+)\W*(?:(?:by|on|at|in|for|until|till|from|to)\s+)?"
                         r"(?:what|which|when|where|who|how\s+(?:many|much|long|often|far|old|big|large|high|fast|soon))\b",
                         re.IGNORECASE)
# Advice asked of the assistant, or help with a task: not a value the user stated.
_ADVICE = re.compile(r"\b(?:can|could|would|will|do|did|should)\s+you\b|\bhelp\s+(?:me|us)\b", re.IGNORECASE)
# A count or a story over the whole conversation, not one value.
_AGGREGATE = re.compile(r"\b(?:across|different|various|evolv(?:e|es|ed|ing))\b", re.IGNORECASE)
# The span a value runs for ("the budget through August"): what the value covers, not when the question is set.
_SPAN = re.compile(r"\b(?:through|thru|until|till|up\s+to)\b[^,;?]*", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W\d_][\w'-]+", re.UNICODE)
_MONTH = "(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + ")"  # the date reader's month names
# The values a sentence states, by kind (the first alternative that matches names the kind).
_QUANTITY = re.compile(
    r"(?P<time>\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\b\d{1,2}:\d{2}\b)"
    rf"|(?P<date>\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b)"
    r"|(?P<year>\b(?:19|20)\d{2}\b)"
    r"|(?P<money>[$€£]\s?\d[\d,]*(?:\.\d+)?)"
    r"|(?P<percent>\d[\d,]*(?:\.\d+)?\s?(?:%|percent\b))"
    r"|(?P<count>\d[\d,]*(?:\.\d+)?)",
    re.IGNORECASE)
_MONTH_NAME = re.compile(_MONTH, re.IGNORECASE)
# The kinds of value a question asks for, by its words (a question naming none may take any kind).
_ASKED_KINDS = (
    (re.compile(r"\bwhat\s+time\b", re.IGNORECASE), frozenset({"time"})),
    (re.compile(r"\bhow\s+(?:many|long|often|far|old)\b|\bnumber\s+of\b", re.IGNORECASE), frozenset({"count", "percent"})),
    (re.compile(r"\b(?:cost|costs|price|budget|spend|spent|pay|paid|fee|fees|salary|charge)\b|[$€£]", re.IGNORECASE),
     frozenset({"money", "count"})),
    (re.compile(r"\b(?:percent(?:age)?|accuracy|coverage|rate)\b|%", re.IGNORECASE), frozenset({"percent", "count"})),
    (re.compile(r"\b(?:when|date|deadline|due)\b", re.IGNORECASE), frozenset({"date", "time", "year"})),
)


def asks_present(query: str) -> bool:
    """True for a question about how things are now ("How many sources are in my library?"), not
    about how they were or when ("How many did I have before?", "What happened first?")."""
    return not (ranking.asks_before(query) or _HISTORY.search(query))


def asks_value(query: str) -> bool:
    """True for a question for one value the user stated ("What is the deadline for my draft?",
    "Can you tell me how many sources I have?"); False for advice or help asked of the assistant
    ("What tools would you suggest?", "Can you help me plan my week?") and for counts over the
    conversation ("How many different features did I mention across my sessions?")."""
    asked = ranking.question(query)
    return bool(_ASKS_VALUE.search(asked)) and not _ADVICE.search(asked) and not _AGGREGATE.search(asked)


def names_past(query: str, now: float) -> bool:
    """True when the question names a time that is over by `now` ("on March 5", "last week"): it
    asks how things were then. A time still running or to come ("this year", "next Saturday")
    is part of what a question about the present asks, and so is the span a value runs for
    ("the budget through August", "until June": `_SPAN` is cut before the dates are read)."""
    return any(end <= now for _, end in ranking.query_dates(_SPAN.sub(" ", query), now))


def newest_first(hits: Sequence[Hit], query: str, now: float) -> list[Hit]:
    """`hits` (best first) with the later user messages that restate the value of one above them
    (among the first TOP; they among the first DEEP) placed just above that one (see the module's
    docstring); otherwise unchanged."""
    hits = list(hits)
    if len(hits) < 2 or not asks_present(query) or not asks_value(query) or names_past(query, now):
        return hits
    terms, kinds = _content(query), asked_kinds(query)
    top = hits[:DEEP]
    sentences = [best_sentence(h.item.text, terms) if _user_message(h) else None for h in top]
    for i, earlier_hit in enumerate(top[:TOP]):
        earlier = sentences[i]
        if earlier is None or not quantities(earlier):
            continue
        later = [h for j, (h, sentence) in enumerate(zip(top, sentences)) if j > i and sentence is not None
                 and _order(h) > _order(earlier_hit)
                 and restates(earlier, sentence, kinds, MIN_LIKENESS if j < TOP else DEEP_LIKENESS)]
        if later:
            return _placed_above(hits, later, _first_saying(top, sentences, i, earlier, kinds, later))
    return hits


def _first_saying(top: Sequence[Hit], sentences: Sequence[str | None], at: int, earlier: str,
                  kinds: frozenset[str] | None, later: Sequence[Hit]) -> int:
    """Where the restatements of hit `at` go: above the first hit that states the same value as
    it (of a kind the question asks for) and was said before them, when one ranks higher ("6-9
    months" said twice, "shortened to 5-7 months" later: above both); else above `at` itself."""
    replaced = {(kind, value) for kind, value in quantities(earlier) if kinds is None or kind in kinds}
    first = min(_order(h) for h in later)
    return next((j for j in range(at) if (sentence := sentences[j]) is not None and _order(top[j]) < first
                 and replaced & quantities(sentence)), at)


def _placed_above(hits: list[Hit], moved: list[Hit], at: int) -> list[Hit]:
    """`hits` with `moved` (in their order) from below place `at` moved to it, ranked between their
    new neighbours (the hit they displace keeps its rank, or takes STEP more when it was the best)."""
    displaced, n = hits[at], len(moved)
    if at == 0:
        placed = [_moved(h, displaced.rank + (n + 1 - j) * STEP) for j, h in enumerate(moved)]
        second = _moved(displaced, displaced.rank + STEP)
    else:
        above = hits[at - 1].rank
        placed = [_moved(h, above - (j + 1) * (above - displaced.rank) / (n + 1)) for j, h in enumerate(moved)]
        second = displaced
    rest = [h for h in hits[at + 1:] if all(h is not m for m in moved)]
    return [*hits[:at], *placed, second, *rest]


def asked_kinds(query: str) -> frozenset[str] | None:
    """The kinds of value (`quantities`) a question asks for: "What time ..." a time, "When ..." a
    date or a time, "How many ..." a count ...; None when its words name none."""
    for cue, kinds in _ASKED_KINDS:
        if cue.search(query):
            return kinds
    return None


def restates(earlier: str, later: str | None, kinds: frozenset[str] | None = None,
             likeness: float = MIN_LIKENESS) -> bool:
    """True when sentence `later` gives a new value of a kind sentence `earlier` states (a date for
    a date, a count for a count; one of `kinds` when given) and the two are about one thing: they
    share at least `likeness` of their content words."""
    if later is None:
        return False
    before, after = quantities(earlier), quantities(later)
    stated = {kind for kind, _ in before if kinds is None or kind in kinds}
    if not any(kind in stated and (kind, value) not in before for kind, value in after):
        return False
    a, b = _content(earlier), _content(later)
    return len(a & b) >= likeness * max(1, len(a | b))


def quantities(sentence: str) -> frozenset[tuple[str, str]]:
    """The values a sentence states as (kind, value): kind "time" ("3 PM", "16:30"), "date"
    ("April 22", "22nd of April": month and day), "year", "money", "percent" or "count"; value as
    written without spaces, separators or ordinal endings ("4:30pm", "apr22", "1200")."""
    out = set()
    for match in _QUANTITY.finditer(sentence):
        kind, text = match.lastgroup or "count", match.group(0).lower()
        if kind == "date":
            month = _MONTH_NAME.search(text)
            value = (month.group(0)[:3] if month else "") + re.sub(r"\D", "", text)
        else:
            value = re.sub(r"[^\d:.apm]", "", text) if kind == "time" else re.sub(r"[^\d.]", "", text)
        out.add((kind, value))
    return frozenset(out)


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
