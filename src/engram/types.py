"""Frozen dataclasses that cross Engram's boundaries: items in, items and hits out.

Times are UNIX seconds (float, UTC). Every verb that depends on "now" takes `now=`
(a float, a `datetime`, or None for the wall clock) so history can be replayed.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping

# Kinds of memory item: the ones Engram uses (`engram.validate.kind` refuses any other).
#: A time as every API takes it: UNIX seconds, a datetime (naive means UTC), ISO 8601 text, or
#: None (the clock). engram.validate.timestamp reads it.
TimeLike = float | int | datetime | str | None

FACT = "fact"
PREFERENCE = "preference"
EPISODE = "episode"
PROCEDURE = "procedure"
SUMMARY = "summary"
CONVERSATION = "conversation"
NOTE = "note"  # a research note citing a page (engram.core.notes)
STORE_ITEM = "store_item"  # a framework's keyed JSON value (engram.integrations.langgraph)
MEMORY_FILE = "memory_file"  # a file of a model's own memory tree (engram.integrations.anthropic_memory)
# One message of a conversation, kept whole (`Memory.add_messages`), and the passages recall
# searches it by (engram.core.passages); a passage's metadata names its message.
MESSAGE = "message"
PASSAGE = "passage"
KINDS = (FACT, PREFERENCE, EPISODE, PROCEDURE, SUMMARY, CONVERSATION, NOTE, STORE_ITEM, MEMORY_FILE, MESSAGE,
         PASSAGE)
# Kept byte for byte under a key (`Memory.admin.put`): never folded to one line, never cut to a sentence,
# never deduplicated, and a new version always replaces the current one of its key.
VERBATIM_KINDS = frozenset({CONVERSATION, STORE_ITEM, MEMORY_FILE})
# Logs may repeat themselves, and one note may cite two pages (each note is deduplicated per page
# by engram.core.notes); every other kind keeps one current copy of a text per subject.
UNDEDUPED_KINDS = frozenset({EPISODE, NOTE, MESSAGE, PASSAGE}) | VERBATIM_KINDS
# The metadata field holding the text a verbatim item's vector is made from (`Memory.admin.put(index=...)`).
EMBEDDED = "embedded"


def embedded_text(item: "Item") -> str | None:
    """The text recall embeds for an item: its text, or for a verbatim kind the `index` text it
    was put with (none: no vector; a saved conversation never has one). A message has no vector
    of its own: its passages do, each from its `embedded` text (the passage with its heading)."""
    if item.kind in (CONVERSATION, MESSAGE):
        return None
    if item.kind == PASSAGE:
        found = item.metadata.get(EMBEDDED)
        return found if isinstance(found, str) and found.strip() else item.text
    if item.kind in VERBATIM_KINDS:
        found = item.metadata.get(EMBEDDED)
        return found if isinstance(found, str) and found.strip() else None
    return item.text


def dedupe_key(kind: str, content_hash: str) -> str | None:
    """The value a store keeps unique among a subject's current items (None: no uniqueness)."""
    return None if kind in UNDEDUPED_KINDS else f"{kind}:{content_hash}"


@dataclass(frozen=True)
class Item:
    """One memory: a short text scoped by a subject, with its provenance and validity."""

    id: str
    subject: str
    text: str
    kind: str = FACT
    source: str = ""
    agent: str = ""
    key: str | None = None
    category: str | None = None
    session: str | None = None
    created_at: float = 0.0
    event_at: float = 0.0
    valid_from: float = 0.0
    valid_to: float | None = None
    superseded_by: str | None = None
    confidence: float = 1.0
    importance: float = 0.5
    access_count: int = 0
    last_accessed: float | None = None
    content_hash: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def current(self) -> bool:
        """True when the item has not been superseded or expired."""
        return self.valid_to is None

    def replace(self, **changes: Any) -> "Item":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; times as ISO 8601 strings next to the raw seconds."""
        out = dataclasses.asdict(self)
        out["metadata"] = dict(self.metadata)
        for name in ("created_at", "event_at", "valid_from", "valid_to", "last_accessed"):
            value = out[name]
            out[name] = iso(value) if value is not None else None
        return out


@dataclass(frozen=True)
class Hit:
    """A recalled item. `score` is its calibrated relevance, 0..1 (about the chance it is on-topic;
    its meaning does not depend on the store); `rank` the fused value that orders one recall's
    hits; `components` (with explain) the weighted terms that sum to `rank`, and the raw evidence
    the score is read from (`cosine`, `overlap`, `residual`, `first_person`; `personal` with the bundled MiniLM).
    docs/recall.md has the details.

    For a message (kind "message") `passage` is the part of it that matched and `passage_id` that
    passage's id (engram.core.collapse); `item.text` is the whole message."""

    item: Item
    score: float
    components: Mapping[str, float] = field(default_factory=dict)
    rank: float = 0.0
    passage: str | None = None
    passage_id: str | None = None

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def text(self) -> str:
        return self.item.text

    def to_dict(self) -> dict[str, Any]:
        out = self.item.to_dict()
        out["score"] = round(self.score, 6)
        if self.components:
            out["explain"] = {"rank": round(self.rank, 6), **{k: round(v, 6) for k, v in self.components.items()}}
        if self.passage is not None:
            out["passage"] = self.passage
            out["passage_id"] = self.passage_id
        return out


@dataclass(frozen=True)
class Saved:
    """The outcome of a write: `saved` with the new `id`, or not saved with a `reason`."""

    saved: bool
    id: str | None = None
    reason: str | None = None
    superseded: tuple[str, ...] = ()
    redacted: tuple[str, ...] = ()  # the kinds of secret redacted in place (a message: Memory.add_messages)

    def __bool__(self) -> bool:
        return self.saved

    def __repr__(self) -> str:
        # `redacted` shows only when something was: a fact's write (most writes) reads as before.
        extra = f", redacted={self.redacted!r}" if self.redacted else ""
        return (f"Saved(saved={self.saved!r}, id={self.id!r}, reason={self.reason!r}, "
                f"superseded={self.superseded!r}{extra})")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"saved": self.saved, "id": self.id, "reason": self.reason}
        if self.superseded:
            out["superseded"] = list(self.superseded)
        if self.redacted:
            out["redacted"] = list(self.redacted)
        return out


@dataclass(frozen=True)
class Episode:
    """What the agent did and how it went."""

    id: str
    subject: str
    action: str
    result: str = ""
    success: bool = True
    context: str = ""
    session: str | None = None
    category: str | None = None
    at: float = 0.0

    @classmethod
    def from_item(cls, item: Item) -> "Episode":
        meta = item.metadata
        return cls(
            id=item.id,
            subject=item.subject,
            action=str(meta.get("action", item.text)),
            result=str(meta.get("result", "")),
            success=bool(meta.get("success", True)),
            context=str(meta.get("context", "")),
            session=item.session,
            category=item.category,
            at=item.event_at,
        )


def iso(ts: float) -> str:
    """UNIX seconds as an ISO 8601 UTC string."""
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def dumps(value: Any) -> str:
    """Compact, key-sorted JSON, as stored in metadata columns."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
