"""One hit per message: recall ranks passages (engram.core.passages) and returns their messages.

A passage hit becomes a hit on its message (kind "message", the whole text) carrying the passage
that matched best (`Hit.passage`, `Hit.passage_id`) and the passage's place in `explain`
("passage", "passage_start", "passage_end"). A message is ranked by all of its passages that
were found, as a soft maximum over every passage it has (`message_rank`): one matching passage
out of twelve says less than the one passage of a short message, and several matching passages
say more than one. A passage is ranked without the terms that read a memory as one turn of
chit-chat (`TURN_TERMS`: the question penalty, a neighbour's context, the session's lift): its
neighbours are mostly its own message's other passages, which the soft maximum already counts,
and a working conversation's request ends in a question while stating what it is about. The
message's `explain` gives those terms as 0 and the soft maximum's part as "passages", so the
terms still sum to its rank. A user's standing instruction ("Always use APA style when I ask
about references") or stated preference ("I prefer step-by-step explanations with examples",
`engram.core.standing.standing`) gains STANDING ("standing"): it applies to every later request
on its topic, which rarely repeats its words. A message by the speaker the question names
("What did you recommend ...?": the assistant, "What did I mention ...?": the user;
`engram.language.framing.speaker`) gains SPEAKER ("speaker"). Hits on other kinds pass through unchanged.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from engram.core.standing import standing
from engram.store import Filter, Store
from engram.types import MESSAGE, PASSAGE, Hit, Item

WIDEN = 8  # passages asked for per message wanted: a message is ranked by all its passages found (message_rank)
MAX_WIDE = 400
#: At least this many passages are ranked (the vector and keyword candidates are 200 each): a
#: message's rank counts all of its passages found, so a small `k` ranks as many as a larger one.
MIN_WIDE = 200
#: The soft maximum's temperature, in rank units: how much a message's further passages count.
SPREAD = 2.0
#: Terms of a passage's rank that its message is ranked without (see the module's docstring).
TURN_TERMS = ("question", "context", "session")
#: What a user's standing instruction or stated preference gains, in rank units.
STANDING = 1.0
#: What a message by the speaker the question names gains, in rank units (as much as STANDING).
SPEAKER = 1.0


def wide(k: int) -> int:
    """How many passage hits to rank so that `k` distinct messages survive the collapse."""
    return min(MAX_WIDE, max(k * WIDEN, k + 20, MIN_WIDE))


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


def passage_rank(hit: Hit) -> float:
    """A passage hit's rank without its `TURN_TERMS`."""
    return hit.rank - sum(hit.components.get(term, 0.0) for term in TURN_TERMS)


def message_rank(ranks: Sequence[float], passages: int, spread: float = SPREAD) -> float:
    """A message's rank from the ranks of its passages that were found, out of its `passages`:
    best + spread * log(mean over all its passages of exp((rank - best) / spread)), a passage
    not found counting as nothing. One passage of one: its rank; one of n: n-fold less likely,
    spread * log(n) lower; n found near the best: about the best again."""
    best = max(ranks)
    share = sum(math.exp((r - best) / spread) for r in ranks) / max(passages, len(ranks))
    return best + spread * math.log(share)


def collapse(store: Store, hits: Sequence[Hit], k: int, speaker: str | None = None) -> list[Hit]:
    """The best `k` hits with each message's passages replaced by one hit on the message, ranked
    by `message_rank` (stable: equal ranks keep the passages' order); a message whose role is
    `speaker` (the one the question names) lifted by SPEAKER."""
    wanted = [str(h.item.metadata.get("message")) for h in hits if h.item.kind == PASSAGE]
    found = {it.id: it for it in store.get(list(dict.fromkeys(wanted)))} if wanted else {}
    groups: dict[str, list[Hit]] = {}  # message id (or a passing hit's own id) -> its hits, in order
    for hit in hits:
        if hit.item.kind != PASSAGE:
            groups.setdefault(hit.id, [hit])
            continue
        message = found.get(str(hit.item.metadata.get("message")))
        if message is not None:  # else forgotten since
            groups.setdefault(message.id, []).append(hit)
    # Each group's rank first (from its passages' ranks); a hit is made only for the k that are kept.
    scored: list[tuple[float, tuple[float, float], str, list[Hit], list[float]]] = []
    for key, group in groups.items():
        if group[0].item.kind != PASSAGE:
            scored.append((group[0].rank, (0.0, 0.0), key, group, []))
            continue
        ranks = [passage_rank(h) for h in group]
        lifts = (STANDING if standing(found[key]) else 0.0,
                 SPEAKER if speaker is not None and found[key].metadata.get("role") == speaker else 0.0)
        rank = message_rank(ranks, int(found[key].metadata.get("passages", len(group)))) + sum(lifts)
        scored.append((rank, lifts, key, group, ranks))
    scored.sort(key=lambda entry: -entry[0])  # stable: equal ranks keep the passages' order
    return [_message_hit(found[key], group, ranks, rank, lifts) if ranks else group[0]
            for rank, lifts, key, group, ranks in scored[:k]]


def _message_hit(message: Item, passages: list[Hit], ranks: list[float], rank: float,
                 lifts: tuple[float, float]) -> Hit:
    """One hit on `message` from its passage hits (`ranks`: their `passage_rank`s): the best passage's,
    at the message's `rank` (with the standing and speaker `lifts` in it)."""
    top = max(range(len(passages)), key=lambda i: ranks[i])
    hit = passages[top]
    meta = hit.item.metadata
    components: dict[str, float] = {}
    if hit.components:
        components = {**hit.components, **dict.fromkeys(TURN_TERMS, 0.0), "passages": rank - sum(lifts) - ranks[top],
                      "standing": lifts[0], "speaker": lifts[1],
                      "passage": float(meta.get("passage", 0)), "passage_start": float(meta.get("start", 0)),
                      "passage_end": float(meta.get("end", 0))}
    return dataclasses.replace(hit, item=message, rank=rank, components=components, passage=hit.item.text,
                               passage_id=hit.item.id)
