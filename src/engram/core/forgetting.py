"""What a forget reaches: the items asked for, and every copy derived from a message among them.

    reach = plan(store, "user:42", mem.matches("user:42", "moving the orders"))
    reach.derived   # [Reached(item=<the fact extracted from that message>, why="extracted from message ...")]
    store.delete("user:42", reach.ids)

Every way to forget (`Memory.forget`, `Memory.forget_ids`, the `forget` verb on REST, MCP, the
CLI and the agent's tool) deletes `plan(...).ids`, so they all reach the same copies:

- a **message** (engram.core.conversations) takes its **passages** (its search index) with it; a
  passage named alone stands for its message (it is a piece of the message's text);
- a **fact extracted from a forgotten message** (engram.core.extraction: metadata "messages") is
  forgotten too, unless a user message it also cites is kept: then it is kept (`kept`, with the
  reason), since a true fact is never hidden because one of its sources went (an assistant's
  message alone supports no fact, as in extraction);
- a **session summary** (engram.agent.manager.summarize_session: metadata "covers") that covers a
  forgotten message, passage or extracted fact is forgotten: it may restate them in words no
  phrase matches. Summarising the session again rebuilds it from what is kept.

Nothing is derived the other way: forgetting an extracted fact leaves its messages (still marked
extracted, so extraction does not bring the fact back), and forgetting a summary leaves what it covers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engram.core.extraction import EXTRACTED_FROM, MARK
from engram.store import Filter, Store
from engram.types import MESSAGE, PASSAGE, SUMMARY, Item

USER = "user"  # the role whose kept message still supports an extracted fact
COVERS = "covers"  # a session summary's metadata: the ids of the items it summarises


@dataclass(frozen=True)
class Reached:
    """An item a forget reaches (or keeps) without having been asked for, and why."""

    item: Item
    why: str


@dataclass(frozen=True)
class Plan:
    """What forgetting `asked` deletes: those items, the passages of its messages, the copies
    derived from them; and the derived items it keeps, with the reason."""

    subject: str
    asked: tuple[Item, ...]
    passages: tuple[Item, ...]
    derived: tuple[Reached, ...]
    kept: tuple[Reached, ...]

    @property
    def ids(self) -> list[str]:
        """Every id to delete: what was asked for, the passages, the derived copies."""
        return [*(it.id for it in self.asked), *(it.id for it in self.passages), *(r.item.id for r in self.derived)]

    def __len__(self) -> int:
        return len(self.ids)


def plan(store: Store, subject: str, items: Iterable[Item]) -> Plan:
    """What forgetting `items` (of `subject`; others are left out) reaches, read from the store;
    nothing is deleted."""
    mine = [it for it in items if it.subject == subject]
    asked = _unique(it for it in mine if it.kind != PASSAGE)
    named_parts = [it for it in mine if it.kind == PASSAGE]
    missing = sorted({str(p.metadata.get("message")) for p in named_parts} - {it.id for it in asked})
    asked += [it for it in _get(store, missing) if it.subject == subject and it.kind == MESSAGE]
    gone = {it.id for it in asked}
    messages = {it.id for it in asked if it.kind == MESSAGE}
    parts = _unique([*named_parts, *_passages(store, subject, sorted(messages))])
    parts = [p for p in parts if p.id not in gone]
    gone.update(p.id for p in parts)
    derived, kept = _extracted(store, subject, messages, gone) if messages else ([], [])
    gone.update(r.item.id for r in derived)
    reached = messages | {p.id for p in parts} | {r.item.id for r in derived}
    derived += _summaries(store, subject, reached, gone) if reached else []
    return Plan(subject, tuple(asked), tuple(parts), tuple(derived), tuple(kept))


def _unique(items: Iterable[Item]) -> list[Item]:
    seen: dict[str, Item] = {}
    for item in items:
        seen.setdefault(item.id, item)
    return list(seen.values())


def _get(store: Store, ids: Sequence[str]) -> list[Item]:
    return store.get(list(ids)) if ids else []


def _passages(store: Store, subject: str, messages: Sequence[str]) -> list[Item]:
    return [p for mid in messages
            for p in store.find(subject, Filter(kinds=(PASSAGE,), metadata={"message": mid}, include_superseded=True))]


def _extracted(store: Store, subject: str, messages: set[str], gone: set[str]) -> tuple[list[Reached], list[Reached]]:
    """The facts extracted from the forgotten `messages`: (forgotten, kept because a user message
    they also cite is kept). An assistant's message alone supports no fact (engram.core.extraction)."""
    facts = [it for it in store.find(subject, Filter(metadata={MARK: True}, include_superseded=True))
             if it.id not in gone and set(_ids(it, EXTRACTED_FROM)) & messages]
    others = {m for it in facts for m in _ids(it, EXTRACTED_FROM) if m not in messages}
    alive = {it.id for it in _get(store, sorted(others))
             if it.subject == subject and it.kind == MESSAGE and it.metadata.get("role") == USER}
    derived, kept = [], []
    for item in facts:
        cited = _ids(item, EXTRACTED_FROM)
        support = [m for m in cited if m in alive]
        if support:
            kept.append(Reached(item, f"also extracted from the user's message{_s(support)} "
                                      f"{', '.join(support)}, which {_is(support)} kept"))
        else:
            lost = [m for m in cited if m in messages]
            derived.append(Reached(item, f"extracted from message{_s(lost)} {', '.join(lost)}, "
                                         f"which {_is(lost)} forgotten"))
    return derived, kept


def _summaries(store: Store, subject: str, reached: set[str], gone: set[str]) -> list[Reached]:
    """The session summaries covering a forgotten message, passage or extracted fact."""
    out = []
    for item in store.find(subject, Filter(kinds=(SUMMARY,), include_superseded=True)):
        covered = [i for i in _ids(item, COVERS) if i in reached]
        if covered and item.id not in gone:
            session = item.session or item.metadata.get("session")
            out.append(Reached(item, f"summary of session {session}: it covers {len(covered)} forgotten "
                                     "item(s); summarise the session again to rebuild it from what is kept"))
    return out


def _ids(item: Item, key: str) -> list[str]:
    value = item.metadata.get(key)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _s(ids: Sequence[str]) -> str:
    return "s" if len(ids) > 1 else ""


def _is(ids: Sequence[str]) -> str:
    return "are" if len(ids) > 1 else "is"
