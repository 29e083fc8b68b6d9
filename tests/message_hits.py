"""Hits of conversation messages built by hand, for the steps that reorder a recall's hits."""

from __future__ import annotations

from engram.types import MESSAGE, Hit, Item


def message_hit(text: str, rank: float, at: float, role: str = "user") -> Hit:
    """A hit on a message of session "s" said at `at` by `role`, ranked `rank` (its vector term)."""
    item = Item(id=f"m{at:g}", subject="user:1", text=text, kind=MESSAGE, event_at=at, created_at=at,
                session="s", metadata={"role": role, "turn": 0})
    return Hit(item=item, score=1.0, rank=rank, components={"vector": rank})
