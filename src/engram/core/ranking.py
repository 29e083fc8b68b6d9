"""Ranking as pure functions: query terms, standardised signals, fusion, recency, explain.

No I/O here: `engram.core.recall` gathers candidates from the store and the embedder, and this
module turns their raw signals into one score per item.

Rank contract (a float, higher is better, comparable within one recall call only):

    rank = vector + keyword + context + entity + time + date + question + session + focus + recency
            + diversity

- vector  = w_vector  * z(cosine):  the item's cosine similarity to the query, as a z-score over
  every item of the subject (0 = an average item, 1 = one standard deviation more similar);
  with the entity term on, the query is embedded without the names it mentions (`vector_query`);
- keyword = w_keyword * z(BM25) * min(1, words / keyword_words): the same for its BM25 keyword
  score (unmatched items score 0), in full for memories of at least `keyword_words` (24) words
  and proportionally less for shorter ones (`length_share`); `keyword_cap` (off) bounds the
  best match's z-score (`keyword_signal`);
- context = w_context * (0.5 * own(previous) + 0.2 * own(next)), where own(x) is x's vector +
  keyword terms and previous/next are the items written just before/after it in the same
  session (conversation turns lend each other context: a question, then its answer);
- entity  = w_entity * weight(name) when the item's text starts with a name the query mentions
  (one the subject's memories use as a name, engram.core.names: "What does Melanie paint?" ->
  items starting "Melanie ..."), else 0; weight = log2(1 / share of the items the name leads),
  between 1 and names.ENTITY_MAX: a memory led by a person is usually about that person, one
  that only mentions them usually is not, and a rare name says more than a common one;
- time    = w_time when the query asks "When ..." and the item's text places something in time
  ("yesterday", "last week", "May", "2022": `states_time`, English), else 0;
- date    = w_date * date_match: when the query names a date (engram.language.dates, relative to `now`:
  "on 3 July, 2023", "2024-03-15", "15/03/2024", "last Tuesday", "two weeks ago", "in 2022"), 1 for an
  item whose own event time (`event_at`) falls in it, halving outside it every half of the span's
  width (half a day for a day, at most 7 days: `date_half_life`); else 0;
- question = -w_question when the item's text ends with a question mark (`is_question`): a memory
  that asks rarely holds the answer (its neighbour after it does, and borrows its score as context);
- session = w_session * z(best own + context + entity + time + date + question score among the
  candidates of the item's session), standardised over the candidates that have a session (0 for
  items without one);
- focus   = -w_focus for an item placed after the first FOCUS_AFTER (by the score so far) that does
  not lead with a name the query mentions (0 when it names no one): the first places keep the
  fused order, the rest prefer the named person's memories (lists: "What books has Alice read?");
- recency = w_recency * 0.5 ** (age / half_life), age from the item's event time to `now` (0..1);
- diversity = -w_diversity * (how many better-placed candidates of the same session precede the
  item): off by default (0); when raised, the order spreads across sessions (MMR-style);
- newest  = newest wins (`newest_lifts`, on by default): the best hit's closest neighbour by their own
  vectors (`Signals.item_vectors`) among the next hits within w_newest of its rank, when it is more
  than `newest_after_days` newer, alike beyond `newest_similar` deviations (or, most alike of the newer
  ones, read by the frames as the same matter: `frames.same_matter`) and about the same person,
  is lifted just above it; present only on the two hits it reorders.

This sum is `Hit.rank`, which orders one recall's hits; `Hit.score` is the calibrated relevance
(`relevance`, 0..1, from the hit's own evidence: its cosine, word overlap, residual cosine and
whether the question is in the first person), comparable across recalls.

So a rank is in "standard deviations above an average memory", roughly 0 to 10 for a strong
match; `min_score` filters on the relevance instead (0.5: on-topic). By default w_recency (0.01) is far below any
signal, so recency only breaks near-ties; raise it (1 to prefer, 3-5 to let recent memories win).
`explain=True` returns the eleven terms (twelve on a hit newest wins moved), which sum to the score. The weights were tuned on the
LoCoMo development split (docs/benchmarks.md), for the method, not for that data.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields

import numpy as np

from engram.core import frames
from engram.language import dates
from engram.language.framing import ASKING, ASKING_VERBS
from engram.language.stem import name_key
from engram.language.stopwords import STOP_WORDS
from engram.types import Hit, Item

DAY = 86400.0
WORD = re.compile(r"\w+", re.UNICODE)
#: Texts whose word set and word count are kept: a recall ranks ~40, so a server's working set is
#: full after a few hundred recalls and its memory stays flat from then on (~1 KB a text).
TEXT_CACHE = 16384
# How much of a neighbour's own score an item borrows as context.
PREVIOUS_SHARE = 0.5
NEXT_SHARE = 0.2
# Cosine spreads below this are treated as this (typical MiniLM subjects: 0.08-0.16), so two
# nearly equal memories in a tiny subject are not pulled a full standard deviation apart.
VECTOR_MIN_STD = 0.05
# Past this many places, memories not about a person the query names yield (the focus term).
FOCUS_AFTER = 10


# Capitalised at the start of a question, never an entity.
QUESTION_WORDS = frozenset(["whose", "would", "could", "should", "did", "does", "do", "is", "are", "was", "were",
                            "has", "have", "had", "can", "will", "might", "may", *ASKING_VERBS])


def question(query: str) -> str:
    """The query as a question: without an imperative lead ("Tell me when the club meets." ->
    " when the club meets."); the query itself when it has none or is nothing else."""
    lead = ASKING.match(query)
    rest = query[lead.end():] if lead else ""
    return rest if WORD.search(rest) else query


@dataclass(frozen=True)
class Weights:
    """How much each signal counts (see the score contract). `half_life_days` sets recency's decay."""

    keyword: float = 0.5
    vector: float = 1.0
    recency: float = 0.01
    half_life_days: float = 30.0
    context: float = 0.5
    session: float = 1.0
    entity: float = 1.0
    time: float = 1.0
    date: float = 4.0
    question: float = 1.5
    focus: float = 2.0
    diversity: float = 0.0
    keyword_cap: float = 0.0
    keyword_words: float = 24.0
    newest: float = 6.0
    newest_similar: float = 2.5
    newest_after_days: float = 30.0

    @classmethod
    def single(cls, signal: str, **others: float) -> Weights:
        """Only one of keyword/vector (for baselines): every other signal weighs 0 unless given."""
        zeros = {f.name: 0.0 for f in fields(cls) if f.name not in ("half_life_days", "recency")}
        return cls(**{**zeros, signal: 1.0, **others})


#: The vectors of the given items that can be had (by id): what newest wins compares.
ItemVectors = Callable[[Sequence[str]], Mapping[str, np.ndarray]]
#: The vectors of the given query words, each embedded alone (by word): what the relevance's residual takes out.
WordVectors = Callable[[Sequence[str]], Mapping[str, np.ndarray]]


@dataclass(frozen=True)
class Signals:
    """Standardised evidence for one query: z-scores by item id, plus each item's neighbours.

    Items missing from `keyword` / `vector` score `keyword_floor` / `vector_floor` (the z-score of
    an unmatched item). `neighbours[id]` = (previous id, next id) in the same session, or None.
    The relevance (`relevance_evidence`) reads `query`, the vector it was embedded as
    (`query_vector`, None without an embedder), the vectors of the query words the scored hits
    share with it (`word_vectors`, asked for those words) and how much closer the query is to
    memories than to general knowledge (`personal`: engram.core.background; None for a model
    without a shipped background).
    """

    keyword: Mapping[str, float] = field(default_factory=dict)
    vector: Mapping[str, float] = field(default_factory=dict)
    keyword_floor: float = 0.0
    vector_floor: float = 0.0
    neighbours: Mapping[str, tuple[str | None, str | None]] = field(default_factory=dict)
    names: frozenset[str] = frozenset()
    name_weights: Mapping[str, float] = field(default_factory=dict)
    led: Mapping[str, float] = field(default_factory=dict)
    asks_when: bool = False
    dates: tuple[tuple[float, float], ...] = ()
    terms: Sequence[str] = ()
    cosines: Mapping[str, float] = field(default_factory=dict)
    item_vectors: ItemVectors | None = None
    asks_before: bool = False
    query: str = ""
    query_vector: np.ndarray | None = None
    word_vectors: WordVectors | None = None
    personal: float | None = None


# A query word as the name book keys it: lower case, a possessive "'s" removed.
NAME_WORD = re.compile(r"[\w'’-]+", re.UNICODE)


def vector_query(query: str, names: frozenset[str]) -> str:
    """The text to embed for a query: `query` without the names the entity term matches
    ("What does Melanie paint?" -> "What does paint?"), or `query` itself if nothing else is left.
    `names` are lower-case phrases ("bruno chen"), matched case-insensitively.

    A small embedding model does not tell people apart ("Melanie's kids" ~ "Caroline's kids"),
    so a name in the query mostly pulls in memories that mention anyone; who a memory is about
    is the entity term's job, and the embedding is left with the topic."""
    if not names:
        return query
    matches = list(NAME_WORD.finditer(query))
    keys = [name_key(m.group(0)) for m in matches]
    longest = max(len(n.split(" ")) for n in names)
    cut: list[tuple[int, int]] = []
    i = 0
    while i < len(matches):
        for size in range(min(longest, len(matches) - i), 0, -1):
            if " ".join(keys[i : i + size]) in names:
                cut.append((matches[i].start(), matches[i + size - 1].end()))
                i += size
                break
        else:
            i += 1
    if not cut:
        return query
    pieces, last = [], 0
    for start, end in cut:
        pieces.append(query[last:start])
        last = end
    pieces.append(query[last:])
    stripped = " ".join("".join(pieces).split())
    return stripped if WORD.search(stripped) else query


WHEN = re.compile(r"\W*when\b", re.IGNORECASE)
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Words that place an event in time (English): "yesterday", "last week", "3 years ago", "May"; and years.
TIME_WORDS = frozenset(
    ["yesterday", "today", "tonight", "tomorrow", "ago", "recently", "morning", "night", *MONTHS,
     *(w + s for w in ("weekend", "week", "month", "year", *_DAYS) for s in ("", "s"))]
)
YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


# Words that ask about an earlier state (English): "Where did I live before?", "my old school";
# "old" only after an owner or "the" ("Mia's old school", "the old office"; not "How old is Sam?",
# "which old code ...").
BEFORE = re.compile(r"\b(?:before|previous(?:ly)?|former(?:ly)?|earlier|originally|prior|in the past|used to"
                    r"|did(?:n't| not)? \w+ use to)\b"
                    r"|\b(?:my|our|your|his|her|their|the|\w+['’]s)\s+old\b", re.IGNORECASE)


def asks_before(query: str) -> bool:
    """True for a question about how things were ("What was my previous job?", "What car did I
    have before?", "Mia's old school", "what did I use to drive"; not "How old is Sam?"): newest
    wins then stays out."""
    return bool(BEFORE.search(query))


def asks_when(query: str) -> bool:
    """True for a question that asks for a time ("When did Melanie paint a sunrise?", "Remind me
    when the book club meets.")."""
    return bool(WHEN.match(question(query)))


def states_time(text: str) -> bool:
    """True when a text places something in time ("I went there last week", "in May 2022")."""
    return not TIME_WORDS.isdisjoint(WORD.findall(text.lower())) or bool(YEAR.search(text))


# How fast the date term fades for memories outside the named day / week / month / year.
#: Outside a span the date term halves every half-life, which is as wide as the date is precise: half
#: the span's width ("on 4 March": half a day; "two weeks ago", a week: 3.5 days; "in April": 7),
#: never under DATE_HALF_LIFE_MIN_DAYS nor over DATE_HALF_LIFE_DAYS. A day named to the day says a
#: day off is another day; a month named says a week off is near.
DATE_HALF_LIFE_DAYS = 7.0
DATE_HALF_LIFE_MIN_DAYS = 0.5


def query_dates(query: str, now: float) -> tuple[tuple[float, float], ...]:
    """The time spans a query names, as UTC [start, end) seconds, read relative to `now`
    (engram.language.dates: "2024-03-15", "15/03/2024", "in April", "last Tuesday", "two weeks ago",
    "between March 3 and March 10", "the week before August 3, 2023", "the Sunday before October 25",
    "two weeks before 11 August", "since May 3" (to `now`), "by 7 November" (from 0.0, the epoch) ...);
    () when it names none."""
    return dates.spans(query, now)


def date_match(event_at: float, spans: Sequence[tuple[float, float]]) -> float:
    """1.0 for a memory whose event time falls in one of `spans`, halving every `date_half_life`
    of that span outside it (the best over the spans); 0.0 without spans."""
    best = 0.0
    for start, end in spans:
        outside = max(0.0, start - event_at, event_at - end) / DAY
        best = max(best, math.pow(0.5, outside / date_half_life(start, end)))
    return best


def date_half_life(start: float, end: float) -> float:
    """Days over which the date term halves outside the span [start, end): half its width, between
    DATE_HALF_LIFE_MIN_DAYS and DATE_HALF_LIFE_DAYS."""
    return min(DATE_HALF_LIFE_DAYS, max(DATE_HALF_LIFE_MIN_DAYS, (end - start) / DAY / 2))


# A text whose last sentence is a question: "?" optionally followed by closing quotes or brackets.
QUESTION_END = re.compile(r"\?[\"'”’)\]]*\s*$")


def is_question(text: str) -> bool:
    """True when a memory ends with a question ("..., what about you?\""): it asks, it rarely answers."""
    return bool(QUESTION_END.search(text))


def lead_name(text: str, names: Collection[str]) -> str | None:
    """The longest of `names` (lower-case phrases of up to three words) a text starts with, its
    grammatical subject usually, or None. "Bruno Chen uses Emacs." leads with "bruno chen" (and
    with "bruno"), not with "bruno sharma"."""
    if not names:
        return None
    words = [name_key(w) for w in NAME_WORD.findall(text[:120])[:3]]
    return next((" ".join(words[:size]) for size in range(len(words), 0, -1) if " ".join(words[:size]) in names),
                None)


def leads_with(text: str, names: Collection[str]) -> bool:
    """True when a text starts with one of `names` (`lead_name`)."""
    return lead_name(text, names) is not None


def entity_match(text: str, signals: Signals) -> float:
    """How strongly a text is about a person the query names: the weight of the name it leads
    with (`Signals.name_weights`, 1 when not given), 0 when it leads with none."""
    name = lead_name(text, signals.names)
    return 0.0 if name is None else signals.name_weights.get(name, 1.0)


def keyword_terms(query: str, limit: int = 32) -> list[str]:
    """The distinct content words of a query, lowercased, stop words and an imperative lead
    ("tell me", `question`) removed (kept if nothing else)."""
    words = [w.lower() for w in WORD.findall(question(query))]
    content = [w for w in words if w not in STOP_WORDS] or words
    return list(dict.fromkeys(content))[:limit]


def recency(event_at: float, now: float, half_life_days: float) -> float:
    """1.0 for an item from `now`, 0.5 one half-life earlier; future items count as now."""
    if half_life_days <= 0:
        return 0.0
    age_days = max(0.0, now - event_at) / DAY
    return math.pow(0.5, age_days / half_life_days)


def keyword_signal(scores: Mapping[str, float], population: int, weights: Weights) -> tuple[dict[str, float], float]:
    """BM25 scores as z-scores over the subject (`standardise`), and an unmatched item's z-score.

    With `weights.keyword_cap` > 0 the spread is widened when needed so the best match sits at
    most that many standard deviations above the mean: when few items match, a z-score grows like
    sqrt(items / matches) (one match among 200 sits 14 deviations up) whatever the match is worth,
    and one shared word would outweigh every other signal. The order of matches, and their
    ratios, are kept (clipping every z-score at the cap instead cost LoCoMo 0.03 R@10)."""
    z, floor = standardise(scores, population)
    cap = weights.keyword_cap
    if cap <= 0 or not z:
        return z, floor
    top = max(z.values())
    if top <= cap:
        return z, floor
    shrink = cap / top  # the same as a spread top / cap times wider
    return {key: value * shrink for key, value in z.items()}, floor * shrink


def standardise(scores: Mapping[str, float], population: int = 0) -> tuple[dict[str, float], float]:
    """z-scores of `scores` over a population of `population` items, the unlisted ones scoring 0.

    Returns the z-scores by id and the z-score of an unlisted item. A flat population gives 0s.
    """
    values = np.fromiter(scores.values(), dtype=np.float64, count=len(scores))
    n = max(population, len(values))
    if n == 0:
        return {}, 0.0
    mean = values.sum() / n
    var = max(0.0, float((values**2).sum()) / n - mean**2)
    std = math.sqrt(var)
    if std < 1e-9:
        return dict.fromkeys(scores, 0.0), 0.0
    return {key: float((value - mean) / std) for key, value in scores.items()}, float(-mean / std)


def standardise_array(values: np.ndarray, min_std: float = 0.0) -> tuple[np.ndarray, float, float]:
    """z-scores of a whole array (e.g. every cosine of a subject), with its mean and std.

    The std is at least `min_std` (when positive), so a near-flat population stays near 0."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return values, 0.0, 1.0
    mean, std = float(values.mean()), max(float(values.std()), min_std)
    if std < 1e-9:
        return np.zeros_like(values), mean, 1.0
    return (values - mean) / std, mean, std


def prerank_scores(vector_z: np.ndarray, keyword_z: np.ndarray, present: np.ndarray,
                   weights: Weights = Weights()) -> np.ndarray:
    """Own + context score of candidates before items are fetched.

    Inputs are 3 x n: rows (previous item, candidate, next item) in write order; `present` says
    which neighbours exist. Sessions are not known yet, so neighbours only lift (never lower)
    a score: no turn is dropped from the shortlist for a neighbour it may turn out not to have.
    """
    own = weights.vector * vector_z + weights.keyword * keyword_z
    lift = np.where(present, np.maximum(own, 0.0), 0.0)
    scores: np.ndarray = own[1] + weights.context * (PREVIOUS_SHARE * lift[0] + NEXT_SHARE * lift[2])
    return scores


def with_entity(ranked: list[tuple[float, str]], led: Mapping[str, float], weights: Weights) -> list[tuple[float, str]]:
    """Preranked (score, id) pairs with the entity term added for the items in `led`, best first."""
    if led and weights.entity:
        ranked = [(score + weights.entity * led.get(i, 0.0), i) for score, i in ranked]
    return sorted(ranked, key=lambda pair: pair[0], reverse=True)


# The terms whose sum, best in a session, is that session's evidence.
SESSION_EVIDENCE = ("vector", "keyword", "context", "entity", "time", "date", "question")


def fuse(items: Iterable[Item], signals: Signals, now: float, weights: Weights = Weights(), *,
         k: int | None = None, min_score: float | None = None) -> list[Hit]:
    """One Hit per item, best first; `components` holds the weighted terms of the contract.

    With `k`, only the hits `top_k(hits, k, min_score)` would keep: the relevance (the costly part:
    shared words, their vectors, residual cosines) is read in rank order until k hits reach
    `min_score`, and for the hits newest wins compares; the ranks of the others say they cannot be
    among the k, so they are not scored."""
    items = list(items)

    def own(item_id: str | None) -> float:
        if item_id is None:
            return 0.0
        return (weights.vector * signals.vector.get(item_id, signals.vector_floor)
                + weights.keyword * signals.keyword.get(item_id, signals.keyword_floor))

    parts = []
    for item in items:
        before, after = signals.neighbours.get(item.id, (None, None))
        context = weights.context * (PREVIOUS_SHARE * own(before) + NEXT_SHARE * own(after))
        parts.append({
            "vector": weights.vector * signals.vector.get(item.id, signals.vector_floor),
            "keyword": weights.keyword * signals.keyword.get(item.id, signals.keyword_floor)
                       * length_share(item.text, weights.keyword_words),
            "context": context,
            "entity": weights.entity * entity_match(item.text, signals) if signals.names else 0.0,
            "time": weights.time * float(states_time(item.text)) if signals.asks_when else 0.0,
            "date": weights.date * date_match(item.event_at, signals.dates) if signals.dates else 0.0,
            "question": -weights.question if weights.question and is_question(item.text) else 0.0,
            "session": 0.0,
            "focus": 0.0,
            "recency": weights.recency * recency(item.event_at, now, weights.half_life_days),
            "diversity": 0.0,
        })
    if weights.session:
        for part, boost in zip(parts, session_terms(items, [sum(p[t] for t in SESSION_EVIDENCE) for p in parts])):
            part["session"] = weights.session * boost
    if weights.diversity:
        for part, seen in zip(parts, session_repeats(items, [sum(p.values()) for p in parts], weights.diversity)):
            part["diversity"] = -weights.diversity * seen
    if weights.focus and signals.names:
        for i in focus_tail(items, [sum(p.values()) for p in parts], signals.names):
            parts[i]["focus"] = -weights.focus
    ranks = [sum(p.values()) for p in parts]
    newest = bool(weights.newest) and not signals.asks_before and not signals.dates  # the query's own time rules
    evidence = _scored(items, ranks, signals, k, min_score, newest)
    scores = [relevance(*evidence[i]) if i in evidence else 0.0 for i in range(len(items))]
    if newest:
        lifts = newest_lifts(items, ranks, scores, weights.newest, [p["entity"] for p in parts], signals.item_vectors,
                             weights.newest_similar, weights.newest_after_days)
        for i, lift in lifts.items():
            parts[i]["newest"] = lift
    hits = [Hit(item=items[i], score=scores[i], rank=sum(parts[i].values()),
                components={**parts[i], "cosine": c, "overlap": o, "residual": r, "first_person": float(p),
                            **({} if m is None else {"personal": m})})
            for i, (c, o, r, p, m) in evidence.items()]
    return sorted(hits, key=lambda h: _placing(h.rank, h.item))


def _scored(items: Sequence[Item], ranks: Sequence[float], signals: Signals, k: int | None, min_score: float | None,
            newest: bool) -> dict[int, tuple[float, float, float, bool, float | None]]:
    """The relevance evidence of the items `fuse` returns, by index: every item without `k`; else the
    hits newest wins may compare (the best and its window, in its own order) and the items in rank
    order, read a batch at a time, until k of them reach `min_score`. Newest wins moves hits of that
    window only, and only up, so no item left unscored can be among the k."""
    if k is None:
        return dict(enumerate(relevance_evidence(items, signals)))
    order = sorted(range(len(items)), key=lambda i: _placing(ranks[i], items[i]))
    first = sorted(range(len(items)), key=lambda i: -ranks[i])[:1 + NEWEST_WINDOW] if newest else []
    out: dict[int, tuple[float, float, float, bool, float | None]] = {}
    end, size, extra = 0, max(k, 1 + NEWEST_WINDOW), first
    while True:
        stop = min(len(order), end + size)
        todo = [i for i in dict.fromkeys([*extra, *order[end:stop]]) if i not in out]
        if todo:
            out.update(zip(todo, relevance_evidence([items[i] for i in todo], signals)))
        end, size, extra = stop, size * 2, []
        if end >= len(order) or sum(1 for i in order[:end] if min_score is None or relevance(*out[i]) >= min_score) >= k:
            return out


#: The weighted terms of the rank value (Hit.components also holds the relevance's evidence:
#: `cosine`, `overlap`, `residual`, `first_person` and, with the bundled MiniLM, `personal`).
TERMS = ("vector", "keyword", "context", "entity", "time", "date", "question", "session", "focus", "recency",
         "diversity")
#: The calibrated relevance's logistic: weights of the raw cosine, the word overlap, the residual
#: cosine and the first person, and the intercept, fitted once on labelled on-topic answers and
#: off-topic top hits (benchmarks/relevance_fit.py on benchmarks/relevance_data; docs/recall.md).
#: These four-input constants serve a model without a shipped background (any but the bundled MiniLM).
RELEVANCE_COSINE, RELEVANCE_OVERLAP, RELEVANCE_RESIDUAL, RELEVANCE_PERSON, RELEVANCE_BIAS = 3.2, 5.8, 12.9, 4.8, -6.9
#: The same logistic with the fifth input, `personal` (engram.core.background), for the model the
#: background was embedded with: weights of cosine, overlap, residual, first person and personal,
#: and the intercept (benchmarks/relevance_fit.py --personal).
BACKGROUND_RELEVANCE = (3.0, 5.3, 11.3, 4.1, 9.9, -6.7)
#: The relevance at which a hit is as likely on-topic as not: `min_score` for "only what answers".
ON_TOPIC = 0.5
#: Words that put a question in the first person: one about the asker's own life or work, which is
#: what memories hold ("Which CI do we use?"); a question about the world has none ("Who invented chess?").
FIRST_PERSON = frozenset(["i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"])


def relevance(cosine: float, share: float, residual: float, person: bool, personal: float | None = None) -> float:
    """A hit's calibrated relevance in 0..1, from its own evidence only (`relevance_evidence`), so
    its meaning does not depend on the store's size or on the other candidates: about the chance
    that the hit is on-topic. With `personal` (the bundled MiniLM's background, else None) the
    five-input constants (`BACKGROUND_RELEVANCE`), without it the four-input ones."""
    if personal is None:
        logit = (RELEVANCE_COSINE * cosine + RELEVANCE_OVERLAP * share + RELEVANCE_RESIDUAL * residual
                 + RELEVANCE_PERSON * person + RELEVANCE_BIAS)
    else:
        c, o, r, p, m, bias = BACKGROUND_RELEVANCE
        logit = c * cosine + o * share + r * residual + p * person + m * personal + bias
    return 1.0 / (1.0 + math.exp(-logit))


def relevance_evidence(items: Sequence[Item], signals: Signals) -> list[tuple[float, float, float, bool, float | None]]:
    """(cosine, overlap, residual, first person, personal) of each item, the relevance's inputs: its
    raw cosine to the query, the share of the query's content words it contains (`overlap`), its
    cosine once the words they share are taken out of the query (`residual`: equal to the cosine
    when they share none), whether the query is in the first person (`first_person`) and how much
    closer the query is to memories than to general knowledge (`Signals.personal`, the same for
    every item; None without a shipped background)."""
    person = first_person(signals.query)
    shared = [shared_terms(signals.terms, item.text) for item in items]
    asked = list(dict.fromkeys(w for found in shared for w in found))
    words = signals.word_vectors(asked) if signals.word_vectors is not None and asked else {}
    wanted = [item.id for item, found in zip(items, shared) if found and all(w in words for w in found)]
    own = signals.item_vectors(wanted) if wanted and signals.query_vector is not None and signals.item_vectors else {}
    counted = len(content_terms(signals.terms))
    # The items sharing one set of words with the query, whose vectors are known: their residuals
    # come from one matrix product against the query without those words.
    groups: dict[tuple[str, ...], list[int]] = {}
    if signals.query_vector is not None:
        for i, (item, found) in enumerate(zip(items, shared)):
            if found and own.get(item.id) is not None:
                groups.setdefault(tuple(found), []).append(i)
    residuals: dict[int, float] = {}
    for key, members in groups.items():
        assert signals.query_vector is not None
        rest = without(signals.query_vector, [words[w] for w in key])
        residuals.update(zip(members, _cosines_to(rest, [own[items[i].id] for i in members])))
    out = []
    for i, (item, found) in enumerate(zip(items, shared)):
        cos = signals.cosines.get(item.id, 0.0)
        share = len(found) / counted if found else 0.0
        out.append((cos, share, residuals.get(i, cos), person, signals.personal))
    return out


def first_person(query: str) -> bool:
    """True when the question (without an imperative lead: "Tell me ...", `question`) has a first-
    person word (`FIRST_PERSON`): "Where do I keep the spare key?", "Which CI do we use?"."""
    return any(w.lower() in FIRST_PERSON for w in WORD.findall(question(query)))


def residual(query: np.ndarray, item: np.ndarray, words: Sequence[np.ndarray]) -> float:
    """The cosine of `item` to `query` once the directions of `words` (the vectors of the words they
    share) are taken out of the query: what the rest of the question has in common with the memory.
    With MiniLM, "What is the capital of Peru?" and "I booked a holiday in Peru ..." share Peru and
    little else (cosine 0.49, residual 0.06); "What car do I drive?" and "Drives a 2019 Toyota
    Corolla hybrid." also share the car (cosine 0.43, residual 0.28)."""
    return _cosines_to(without(query, words), [item])[0]


def without(query: np.ndarray, words: Sequence[np.ndarray]) -> np.ndarray:
    """`query` with the directions of `words` taken out (`residual`)."""
    q = np.asarray(query, dtype=np.float64)
    for w in _orthonormal(words):
        q = q - float(q @ w) * w
    return q


def _cosines_to(q: np.ndarray, vectors: Sequence[np.ndarray]) -> list[float]:
    """The cosine of `q` to every one of `vectors` (0 where a norm is ~0), each its own dot product:
    the same to the last bit whichever other vectors are asked with it (a matrix product's rounding
    depends on its shape)."""
    q = np.asarray(q, dtype=np.float64)
    q_norm = float(np.linalg.norm(q))
    out = []
    for v in vectors:
        v = np.asarray(v, dtype=np.float64)
        n = float(np.linalg.norm(v)) * q_norm
        out.append(float(np.dot(v, q)) / n if n > 1e-9 else 0.0)
    return out


def _orthonormal(vectors: Sequence[np.ndarray]) -> list[np.ndarray]:
    """An orthonormal basis of the span of `vectors` (Gram-Schmidt; near-dependent ones dropped)."""
    basis: list[np.ndarray] = []
    for v in vectors:
        u = np.asarray(v, dtype=np.float64)
        for b in basis:
            u = u - float(u @ b) * b
        norm = float(np.linalg.norm(u))
        if norm > 1e-6:
            basis.append(u / norm)
    return basis


def content_terms(terms: Sequence[str]) -> list[str]:
    """The terms that count for overlap: two letters or more (not the "s" of "What's")."""
    return [t for t in terms if len(t) > 1]


def shared_terms(terms: Sequence[str], text: str) -> list[str]:
    """The content terms (`content_terms`) a text contains, in the same or another form (`_same_word`)."""
    return list(_shared_terms(tuple(terms), text))


@functools.lru_cache(maxsize=TEXT_CACHE)
def _shared_terms(terms: tuple[str, ...], text: str) -> tuple[str, ...]:
    words = _word_set(text)
    return tuple(t for t in content_terms(terms) if t in words or _has_form(t, words, _sorted_words(text)))


def overlap(terms: Sequence[str], text: str) -> float:
    """The share of the query's content words (`keyword_terms`, `content_terms`) that a text
    contains, in the same or another form (`_same_word`); 0.0 without terms."""
    counted = content_terms(terms)
    return len(shared_terms(terms, text)) / len(counted) if counted else 0.0


def _same_word(a: str, b: str) -> bool:
    """Two forms of one word, roughly: one begins the other, and the shorter has four letters or
    more ("paint", "painting") or the longer adds at most two ("use", "uses")."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 3 and long.startswith(short) and (len(short) >= 4 or len(long) - len(short) <= 2)


@functools.lru_cache(maxsize=TEXT_CACHE)
def _word_set(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in WORD.findall(text))


@functools.lru_cache(maxsize=TEXT_CACHE)
def _sorted_words(text: str) -> tuple[str, ...]:
    return tuple(sorted(_word_set(text)))


@functools.lru_cache(maxsize=TEXT_CACHE)
def _shorter_forms(term: str) -> frozenset[str]:
    """The shorter forms of `term` that `_same_word` accepts: its prefixes of three letters or more
    (of three only when the term has five letters or fewer)."""
    return frozenset(term[:cut] for cut in range(3 if len(term) <= 5 else 4, len(term)))


def _has_form(term: str, words: frozenset[str], ordered: Sequence[str]) -> bool:
    """True when some word of a text (`words`, and the same `ordered`) is another form of `term`
    (`_same_word`): found by its prefixes and by the words it begins, not by trying every word."""
    n = len(term)
    if n < 3:
        return False
    if not words.isdisjoint(_shorter_forms(term)):
        return True
    at = bisect.bisect_left(ordered, term)  # the longer forms term begins sort together from here
    while at < len(ordered) and ordered[at].startswith(term):
        if n >= 4 or len(ordered[at]) - n <= 2:
            return True
        at += 1
    return False


def newest_lifts(items: Sequence[Item], ranks: Sequence[float], scores: Sequence[float],
                 margin: float, about: Sequence[float] | None = None, vectors: ItemVectors | None = None,
                 similar: float = 0.0, after_days: float = 0.0) -> dict[int, float]:
    """Newest wins between two memories about the same thing: of the next NEWEST_WINDOW hits
    after the best one, the one most like it (the highest cosine of their own `vectors`) among
    those within `margin` of its rank is placed first, the best hit second, when it is newer by
    more than `after_days` (by event time), its cosine to the best hit stands at least `similar`
    standard deviations above those of the other hits of the window (leave-one-out, the spread at
    least VECTOR_MIN_STD) or, failing that, the window's hit most like it among the newer ones
    is one the frames read as the same matter (`_same_matter`), it is about the same person (`about`, each hit's entity term, equal to
    the best one's; and not another named holder, `same_holder`) and both are at least
    NEWEST_FLOOR relevant. Conversation turns (items with a session) never move nor are moved
    over: a later turn about the same thing is another event, not a change. Every other hit
    keeps its rank. Time decides only between the best
    answer and its closest neighbour, so a stable fact is never placed under a newer memory on
    another matter, one merely near it, or one about someone else. Without vectors nothing moves;
    they are asked for only when some hit of the window could move."""
    if not items or vectors is None:
        return {}
    order = sorted(range(len(items)), key=lambda i: -ranks[i])
    best, window = order[0], order[1 : 1 + NEWEST_WINDOW]
    near = [i for i in window if ranks[i] >= ranks[best] - margin]
    movable = {i for i in near if items[i].session is None
               and items[i].event_at > items[best].event_at + after_days * DAY and scores[i] >= NEWEST_FLOOR
               and (about is None or about[i] == about[best])}
    if scores[best] < NEWEST_FLOOR or items[best].session is not None or not movable:
        return {}
    found = vectors([items[i].id for i in (best, *window)])
    anchor = found.get(items[best].id)
    if anchor is None:
        return {}
    likeness = {i: cosine(anchor, v) for i in window if (v := found.get(items[i].id)) is not None}
    near = [i for i in near if i in likeness]
    if not near:
        return {}
    alike = max(near, key=lambda i: likeness[i])
    rest = np.fromiter((c for i, c in likeness.items() if i != alike), dtype=np.float64)
    mean, spread = (float(rest.mean()), max(float(rest.std()), VECTOR_MIN_STD)) if rest.size else (0.0, VECTOR_MIN_STD)
    closest: int | None = alike
    if alike not in movable or (likeness[alike] - mean) / spread < similar:
        closest = _same_matter(items, best, window, movable, likeness)
    if closest is None or not same_holder(items[best].text, items[closest].text):
        return {}
    top = ranks[best]
    return {closest: top + 2 * NEWEST_STEP - ranks[closest], best: NEWEST_STEP}


def _same_matter(items: Sequence[Item], best: int, window: Sequence[int], movable: Collection[int],
                 likeness: Mapping[int, float]) -> int | None:
    """Of the hits of `window` that may move and that the frames read as the best hit's matter
    (`frames.same_matter`: one slot, or things of one known category), the one most like it, when
    its likeness stands NEWEST_MATTER_SIMILAR deviations above the rest of the window; else None.
    What the words say stands in for standing out by likeness alone."""
    newer = [i for i in window if i in movable and i in likeness and frames.same_matter(items[best].text, items[i].text)]
    if not newer:
        return None
    closest = max(newer, key=lambda i: likeness[i])
    rest = np.fromiter((c for i, c in likeness.items() if i != closest), dtype=np.float64)
    if rest.size and (likeness[closest] - float(rest.mean())) / max(float(rest.std()), VECTOR_MIN_STD) < NEWEST_MATTER_SIMILAR:
        return None
    return closest


def same_holder(a: str, b: str) -> bool:
    """False only when two memories are about two different named people ("Ana drives ..." and
    "Tom drives ...", engram.core.frames.sentence_holder); one about the user, or with no named
    holder, may be about anyone ("My manager is Karen" and "Karen moved ..., I report to Tomasz")."""
    first, second = frames.sentence_holder(a), frames.sentence_holder(b)
    return first == second or bool({first, second} & {"self", "team"})


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The cosine similarity of two vectors (0.0 when either is all zeros)."""
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b)) / norm if norm > 0 else 0.0


#: The least relevance of the two memories newest_lifts reorders (0.5 is on-topic: a question
#: that reads like the old fact often shares few words with the new one).
NEWEST_FLOOR = 0.1
#: How far (standard deviations, as `newest_similar`) a memory the frames read as the best hit's
#: matter must stand above the rest of the window by likeness: alike, if not outstanding.
NEWEST_MATTER_SIMILAR = 0.5
#: How many hits after the best one newest_lifts looks at: the ones within the margin may move,
#: and all of them are the population of the likeness z-score.
NEWEST_WINDOW = 8
#: How far apart newest_lifts places the near-equals it reorders (in rank units).
NEWEST_STEP = 1e-3


def length_share(text: str, words: float) -> float:
    """How much of its keyword evidence a memory keeps: all of it from `words` words up (0: always
    all), proportionally less below. A short fact's embedding says what it means, and a word it
    shares with the question adds little; a long turn's embedding averages several things, and a
    rare word in it is what BM25 finds best."""
    if words <= 0:
        return 1.0
    return min(1.0, word_count(text) / words)


@functools.lru_cache(maxsize=TEXT_CACHE)
def word_count(text: str) -> int:
    """Words in a text (cached: the same memories are ranked again and again)."""
    return len(WORD.findall(text))


def _placing(score: float, item: Item) -> tuple[float, float, str]:
    """Sort key of a hit: best score first, then the newest, then by id (a total order)."""
    return (-score, -item.event_at, item.id)


def focus_tail(items: Sequence[Item], scores: Sequence[float], names: frozenset[str]) -> list[int]:
    """Indices of the items placed after the first FOCUS_AFTER (by score) that do not lead with
    one of `names`. Lowering only these keeps the first FOCUS_AFTER places as they were."""
    order = sorted(range(len(items)), key=lambda i: _placing(scores[i], items[i]))
    return [i for i in order[FOCUS_AFTER:] if not leads_with(items[i].text, names)]


def session_repeats(items: Sequence[Item], scores: Sequence[float], penalty: float) -> list[int]:
    """For each item, how many better-placed items of its session precede it once every repeat
    costs `penalty` (a greedy, MMR-style pass: the final order spreads across sessions).

    Penalties only grow as items are placed, so a lazy max-heap gives the greedy order and the
    resulting scores (score - penalty * repeats) are non-increasing in that order."""
    counts: dict[str, int] = {}
    repeats = [0] * len(items)
    heap = [(-score, i, 0) for i, score in enumerate(scores)]
    heapq.heapify(heap)
    while heap:
        neg, i, seen = heapq.heappop(heap)
        session = items[i].session
        now_seen = counts.get(session, 0) if session is not None else 0
        if now_seen != seen:  # stale: re-queue with the current penalty
            heapq.heappush(heap, (neg + penalty * (now_seen - seen), i, now_seen))
            continue
        repeats[i] = seen
        if session is not None:
            counts[session] = seen + 1
    return repeats


def session_terms(items: Sequence[Item], scores: Sequence[float]) -> list[float]:
    """Each item's session evidence: the best score in its session, standardised over the items
    that have a session (0 for items without one): a session that matches well lifts its turns."""
    best: dict[str, float] = {}
    for item, score in zip(items, scores):
        if item.session is not None:
            best[item.session] = max(score, best.get(item.session, -math.inf))
    grouped = [best[item.session] for item in items if item.session is not None]
    if len(grouped) < 2:
        return [0.0] * len(items)
    values = np.asarray(grouped)
    mean, std = float(values.mean()), float(values.std())
    if std < 1e-9:
        return [0.0] * len(items)
    return [(best[item.session] - mean) / std if item.session is not None else 0.0 for item in items]


def top_k(hits: Sequence[Hit], k: int, min_score: float | None = None) -> list[Hit]:
    """The best k hits whose relevance (Hit.score) is at or above `min_score`."""
    kept = [h for h in hits if min_score is None or h.score >= min_score]
    return list(kept[:k])
