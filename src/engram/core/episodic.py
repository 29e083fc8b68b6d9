"""Episodic verbs of `Memory`: categorised facts with keys, episodes, preferences, conversations.

All of them are memory items in the same store, scoped by subject, so recall, forget, audit
and export treat them like any other memory:
- a keyed fact is a `fact` item with `key` and `category`; storing a new value for the key
  supersedes the old one (kept as history);
- an episode is an `episode` item whose metadata holds action, result, success and context;
- a preference is a `preference` item keyed by its name;
- a saved conversation is a `conversation` item keyed by its session id (never recalled).

Why here, in core, and not in `engram.kinds`: these verbs are thin, validated writes and keyed
reads over item kinds the core's own types define (`engram.types`); they need nothing above the
core, and `Memory` must expose them (`mem.store_fact(...)`) while core may not import kinds. They
are plain functions over the `Memory` facade (its verbs only, never its store), bound on `Memory`
as methods: composition by delegation, no mixin. Working memory's `Conversation` lives in
`engram.kinds.working` and saves and loads itself through `save_conversation` and
`conversation_state` (its state as a dict), so core never imports kinds.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol

from engram import validate
from engram.errors import InvalidInput, NotFound
from engram.store.base import Filter
from engram.types import CONVERSATION, EPISODE, FACT, PREFERENCE, Episode, Item, Saved, TimeLike

if TYPE_CHECKING:
    from engram.core.memory import Memory


class Saveable(Protocol):
    """What `save_conversation` needs of a conversation: its state as a JSON-ready dict."""

    def to_dict(self) -> dict[str, Any]: ...


def _key(value: Any, what: str = "key") -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise InvalidInput(f"{what} must be a non-empty string of at most 200 characters, not {value!r}")
    return validate.raw_text(value.strip(), what)


# -- categorised facts ------------------------------------------------------------------------
def store_fact(mem: Memory, subject: str, key: str, value: str, *, category: str = "general",
               confidence: float = 1.0, source: str = "", now: TimeLike = None) -> Saved:
    """Set the fact `key` of a subject (e.g. key 'db_technology', value 'PostgreSQL')."""
    key = _key(key)
    value = validate.clean_text(value, "value")
    if not value:
        raise InvalidInput(f"value for fact {key!r} is empty")
    text = f"{key.replace('_', ' ')}: {value}"
    return mem.remember(subject, text, kind=FACT, key=key, category=_key(category, "category"),
                        confidence=confidence, source=source, metadata={"value": value}, now=now)


def get_fact(mem: Memory, subject: str, key: str) -> Item | None:
    """The current fact with that key, or None (one lookup in the current-key index)."""
    return mem.admin.current(subject, FACT, _key(key))


def facts_by_category(mem: Memory, subject: str, category: str) -> list[Item]:
    """Current keyed facts of one category, newest first."""
    return mem.items(subject, where=Filter(kinds=(FACT,), category=_key(category, "category")))


# -- episodes ---------------------------------------------------------------------------------
def log_episode(mem: Memory, subject: str, action: str, result: str = "", *, success: bool = True,
                context: str = "", session: str | None = None, category: str | None = None,
                source: str = "", now: TimeLike = None) -> Saved:
    """Record what the agent did and how it went."""
    action = validate.clean_text(action, "action")
    result = validate.clean_text(result, "result")
    context = validate.clean_text(context, "context")
    if not action:
        raise InvalidInput("action is empty: say what the agent did")
    if not isinstance(success, bool):
        raise InvalidInput(f"success must be True or False, not {success!r}")
    text = f"{action} -> {result}" if result else action
    meta = {"action": action, "result": result, "success": success, "context": context}
    return mem.remember(subject, text, kind=EPISODE, session=session, category=category,
                        source=source, metadata=meta, now=now)


def recent_episodes(mem: Memory, subject: str, n: int = 10, *, success_only: bool = False,
                    session: str | None = None, category: str | None = None) -> list[Episode]:
    """The newest n episodes, optionally only successful ones, of one session or category."""
    validate.count(n, "n", 1, 100_000)
    where = Filter(kinds=(EPISODE,), session=session, category=category,
                   metadata={"success": True} if success_only else {})
    return [Episode.from_item(it) for it in mem.items(subject, where=where, limit=n)]


# -- preferences ------------------------------------------------------------------------------
def set_preference(mem: Memory, subject: str, key: str, value: str, *, source: str = "",
                   now: TimeLike = None) -> Saved:
    """Set a preference; a new value supersedes the old one."""
    key = _key(key)
    value = validate.clean_text(value, "value")
    if not value:
        raise InvalidInput(f"value for preference {key!r} is empty")
    return mem.remember(subject, f"{key.replace('_', ' ')}: {value}", kind=PREFERENCE, key=key,
                        source=source, metadata={"value": value}, now=now)


def get_preference(mem: Memory, subject: str, key: str, default: str | None = None) -> str | None:
    """The current value of a preference, or `default`."""
    found = mem.admin.current(subject, PREFERENCE, _key(key))
    return str(found.metadata.get("value", found.text)) if found else default


def preferences(mem: Memory, subject: str) -> dict[str, str]:
    """Every current preference of a subject."""
    found = mem.items(subject, where=Filter(kinds=(PREFERENCE,)), newest_first=False)
    return {it.key or it.id: str(it.metadata.get("value", it.text)) for it in found}


# -- conversations ----------------------------------------------------------------------------
def save_conversation(mem: Memory, subject: str, session: str, conversation: Saveable, *,
                      expect: str | None = None, now: TimeLike = None) -> Saved:
    """Store a working-memory Conversation under a session id (replacing an earlier save, kept as
    history). `expect`: the id of the save it was loaded from ("" for a new session); if another
    save is current now, WriteConflict and nothing is written (see `Memory.admin.put`)."""
    data = json.dumps(conversation.to_dict(), ensure_ascii=False, sort_keys=True)
    return mem.admin.put(subject, _key(session, "session"), data, kind=CONVERSATION, session=session, expect=expect,
                   now=now)


def conversation_state(mem: Memory, subject: str, session: str) -> dict[str, Any]:
    """The state saved under a session id, as `to_dict` gave it (`Conversation.load` rebuilds the
    conversation from it); NotFound when nothing is saved there."""
    found = mem.admin.current(subject, CONVERSATION, _key(session, "session"))
    if found is None:
        raise NotFound(f"no saved conversation {session!r} for {subject}")
    state: dict[str, Any] = json.loads(found.text)
    return state
