"""Ranking as pure functions: query terms, signal normalisation, fusion, recency, explain.

No I/O here: `Memory.recall` gathers candidates from the store and the embedder, and this
module turns their raw signals into one score per item.

Score contract: a float, higher is better, comparable within one recall call only.
    score = w_keyword * keyword + w_vector * vector + w_recency * recency
where `keyword` is BM25 divided by the best BM25 among the candidates (0..1), `vector` is the
cosine similarity clipped at 0 (0..1), and `recency` is 0.5 ** (age / half_life) (0..1) with
age measured from the item's event time to `now`. By default w_recency is small, so recency
only breaks near-ties; raise it to prefer recent memories. `explain=True` returns each term.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from engram.types import Hit, Item

DAY = 86400.0
WORD = re.compile(r"\w+", re.UNICODE)

# Function words that carry no topic: dropping them from keyword queries lifts BM25 recall.
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves""".split()
)


@dataclass(frozen=True)
class Weights:
    """How much each signal counts. `half_life_days` sets how fast recency decays."""

    keyword: float = 1.0
    vector: float = 1.0
    recency: float = 0.01
    half_life_days: float = 30.0


def keyword_terms(query: str, limit: int = 32) -> list[str]:
    """The distinct content words of a query, lowercased, stop words removed (kept if nothing else)."""
    words = [w.lower() for w in WORD.findall(query)]
    content = [w for w in words if w not in STOP_WORDS] or words
    return list(dict.fromkeys(content))[:limit]


def recency(event_at: float, now: float, half_life_days: float) -> float:
    """1.0 for an item from `now`, 0.5 one half-life earlier; future items count as now."""
    if half_life_days <= 0:
        return 0.0
    age_days = max(0.0, now - event_at) / DAY
    return math.pow(0.5, age_days / half_life_days)


def normalise_max(scores: Mapping[str, float]) -> dict[str, float]:
    """Scores divided by the best one, so the top candidate gets 1.0."""
    top = max(scores.values(), default=0.0)
    if top <= 0:
        return {key: 0.0 for key in scores}
    return {key: max(0.0, value) / top for key, value in scores.items()}


def fuse(
    items: Iterable[Item],
    keyword: Mapping[str, float],
    vector: Mapping[str, float],
    now: float,
    weights: Weights = Weights(),
) -> list[Hit]:
    """One Hit per item, best first; `components` holds every weighted term."""
    kw = normalise_max(keyword)
    hits = []
    for item in items:
        parts = {
            "keyword": weights.keyword * kw.get(item.id, 0.0),
            "vector": weights.vector * max(0.0, vector.get(item.id, 0.0)),
            "recency": weights.recency * recency(item.event_at, now, weights.half_life_days),
        }
        hits.append(Hit(item=item, score=sum(parts.values()), components=parts))
    return sorted(hits, key=lambda h: (-h.score, -h.item.event_at, h.item.id))


def top_k(hits: Sequence[Hit], k: int, min_score: float | None = None) -> list[Hit]:
    """The best k hits at or above `min_score`."""
    kept = [h for h in hits if min_score is None or h.score >= min_score]
    return list(kept[:k])
