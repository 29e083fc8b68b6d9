"""One hit per message: recall ranks passages (engram.core.passages) and returns their messages.

A passage hit becomes a hit on its message (kind "message", the whole text) carrying the passage
that matched (`Hit.passage`, `Hit.passage_id`) and the passage's place in `explain`
("passage", "passage_start", "passage_end"); a message's later passages are dropped, so the
message scores as its best passage. Hits on other kinds pass through unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engram.store import Filter, Store
from engram.types import MESSAGE, PASSAGE, Hit

WIDEN = 4  # passages asked for per message wanted: a message's passages often rank together
MAX_WIDE = 400


def wide(k: int) -> int:
    """How many passage hits to rank so that `k` distinct messages survive the collapse."""
    return min(MAX_WIDE, max(k * WIDEN, k + 20))


def has_passages(hits: Sequence[Hit]) -> bool:
    """True when some hits are passages: the subject holds conversations, so recall asks wider."""
    return any(h.item.kind == PASSAGE for h in hits)


def searched(where: Filter) -> Filter:
    """The filter recall searches with: messages are found through their passages, so a message
    is never a candidate itself and asking for kind "message" searches its passages."""
    if where.kinds is not None and MESSAGE in where.kinds:
        kinds = tuple(dict.fromkeys(PASSAGE if k == MESSAGE else k for k in where.kinds))
        return dataclasses.replace(where, kinds=kinds)
    if where.kinds is None:
        return dataclasses.replace(where, exclude_kinds=tuple(dict.fromkeys([*where.exclude_kinds, MESSAGE])))
    return where


def collapse(store: Store, hits: Sequence[Hit], k: int) -> list[Hit]:
    """The first `k` hits with each passage replaced by its message, one hit per message."""
    wanted = [str(h.item.metadata.get("message")) for h in hits if h.item.kind == PASSAGE]
    found = {it.id: it for it in store.get(list(dict.fromkeys(wanted)))} if wanted else {}
    out: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        if len(out) >= k:
            break
        if hit.item.kind != PASSAGE:
            if hit.id not in seen:
                seen.add(hit.id)
                out.append(hit)
            continue
        meta = hit.item.metadata
        message = found.get(str(meta.get("message")))
        if message is None or message.id in seen:  # forgotten since, or already in
            continue
        seen.add(message.id)
        place = {"passage": float(meta.get("passage", 0)), "passage_start": float(meta.get("start", 0)),
                 "passage_end": float(meta.get("end", 0))}
        components = {**hit.components, **place} if hit.components else {}
        out.append(dataclasses.replace(hit, item=message, components=components, passage=hit.item.text,
                                       passage_id=hit.item.id))
    return out
