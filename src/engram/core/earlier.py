"""A question about the past finds the version a current memory replaced.

When a write supersedes a fact ("Car is a 2012 Ford Focus." -> "Sold the Ford Focus and bought a
Toyota Corolla hybrid."), recall shows only the current version, so "What car did I have
before?" would never see the old one. A question about an earlier state (`ranking.asks_before`:
"before", "previous", "used to", "my old ..."), asked without `as_of`, is searched over every
version instead (`widened`), and `replaced_first` places first the version that the best current
hit which replaced one (within the hits) replaced; every other hit keeps its place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engram.core import ranking
from engram.store.base import Filter
from engram.types import Hit

#: A question searched over every version (about the past here; about the present in
#: engram.core.successors) is searched for at least this many hits, so that a replaced version
#: and its current one are both among them when k is small; the list is then cut to k.
WINDOW = 10
#: How far above the best hit the replaced version is placed (rank units), as in newest_lifts.
STEP = 1e-3


def asks_earlier(query: str, where: Filter) -> bool:
    """True for a question about an earlier state asked without `as_of` (which says itself what
    time is meant) and without already asking for every version."""
    return where.as_of is None and not where.include_superseded and ranking.asks_before(query)


def widened(where: Filter) -> Filter:
    """`where` with every version of a memory, superseded ones included."""
    return dataclasses.replace(where, include_superseded=True)


def replaced_first(hits: Sequence[Hit]) -> list[Hit]:
    """`hits` (every version, best first) with the version that the best current hit replaced
    placed first, when both are among them; otherwise unchanged."""
    hits = list(hits)
    replaced = {h.item.superseded_by: h for h in hits if h.item.superseded_by}
    successor = next((h for h in hits if h.item.current and h.id in replaced), None)
    if successor is None or not hits:
        return hits
    old = replaced[successor.id]
    rank = hits[0].rank + STEP
    components = {**old.components, "newest": rank - old.rank} if old.components else old.components
    return [dataclasses.replace(old, rank=rank, components=components), *(h for h in hits if h is not old)]
