"""A question a replaced fact answers finds the fact that replaced it.

When a write supersedes a fact ("Uses VS Code as the main editor." -> "Switched from VS Code to
Neovim last month."), recall keeps the old version out, and the new one must then be found on
its own words, which often read little like the question ("Which editor do I use?"). A question
about the present, asked without `as_of`, is therefore searched over every version
(`engram.core.earlier.widened`, for at least `earlier.WINDOW` hits), and `inherit` puts each replaced version's current successor
(following `superseded_by` to the end) in the replaced one's place, unless the successor already
ranks higher; the replaced version itself stays out, as always. The successor carries the
replaced version's rank and relevance (it answers what that one answered) and its `explain` says
so (`replaced`: 1). Supersession is narrow on purpose (engram.core.supersede), so this moves only
facts the write path read as one replacing another.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engram.store import Store
from engram.types import Hit, Item

#: How many replacements are followed from a replaced version to its current successor.
MAX_CHAIN = 8


def inherit(store: Store, hits: Sequence[Hit]) -> list[Hit]:
    """`hits` (every version, best first) with each replaced version replaced by its current
    successor, at its place, when the successor is not already higher (the current version stands
    where the old one would have, had the write path not read the change); every current hit keeps
    its place and each memory appears once."""
    if all(h.item.current for h in hits):
        return list(hits)
    successors = _successors(store, [h.item for h in hits if not h.item.current])
    own = {h.id: h for h in hits if h.item.current}
    out: list[Hit] = []
    placed: set[str] = set()
    for hit in hits:
        if hit.item.current:
            if hit.id not in placed:
                out.append(hit)
                placed.add(hit.id)
            continue
        successor = successors.get(hit.id)
        if successor is None or successor.id in placed:
            continue
        mine = own.get(successor.id)
        components = {**hit.components, "replaced": 1.0} if hit.components else hit.components
        score = max(hit.score, mine.score) if mine is not None else hit.score
        out.append(dataclasses.replace(mine or hit, item=successor, rank=hit.rank, score=score, components=components))
        placed.add(successor.id)
    return out


def _successors(store: Store, replaced: Sequence[Item]) -> dict[str, Item]:
    """The current successor of each replaced item (by id), where its chain ends in one within
    MAX_CHAIN steps (a chain that ends in a forgotten item has none)."""
    pointer = {it.id: it.superseded_by for it in replaced if it.superseded_by}  # start -> the next version
    out: dict[str, Item] = {}
    for _ in range(MAX_CHAIN):
        if not pointer:
            break
        got = {it.id: it for it in store.get(sorted(set(pointer.values())))}
        later: dict[str, str] = {}
        for start, at in pointer.items():
            item = got.get(at)
            if item is not None and item.current:
                out[start] = item
            elif item is not None and item.superseded_by:
                later[start] = item.superseded_by
        pointer = later
    return out
