"""Episodic verbs on `Memory`: categorised facts with keys, episodes, preferences, conversations.

All of them are memory items in the same store, scoped by subject, so recall, forget, audit
and export treat them like any other memory:
- a keyed fact is a `fact` item with `key` and `category`; storing a new value for the key
  supersedes the old one (kept as history);
- an episode is an `episode` item whose metadata holds action, result, success and context;
- a preference is a `preference` item keyed by its name;
- a saved conversation is a `conversation` item keyed by its session id (never recalled).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.errors import InvalidInput, NotFound
from engram.store.base import Filter
from engram.types import CONVERSATION, EPISODE, FACT, PREFERENCE, Episode, Item, Saved

if TYPE_CHECKING:
    from engram.kinds.working import Conversation


def _key(value: Any, what: str = "key") -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise InvalidInput(f"{what} must be a non-empty string of at most 200 characters, not {value!r}")
    return validate.raw_text(value.strip(), what)


class EpisodicVerbs:
    """Mixed into Memory; relies on its remember/items/store."""

    # -- categorised facts ----------------------------------------------------------------
    def store_fact(self, subject: str, key: str, value: str, *, category: str = "general",
                   confidence: float = 1.0, source: str = "", now: Any = None) -> Saved:
        """Set the fact `key` of a subject (e.g. key 'db_technology', value 'PostgreSQL')."""
        key = _key(key)
        value = validate.clean_text(value, "value")
        if not value:
            raise InvalidInput(f"value for fact {key!r} is empty")
        text = f"{key.replace('_', ' ')}: {value}"
        return self.remember(subject, text, kind=FACT, key=key, category=_key(category, "category"),  # type: ignore[attr-defined]
                             confidence=confidence, source=source, metadata={"value": value}, now=now)

    def get_fact(self, subject: str, key: str) -> Item | None:
        """The current fact with that key, or None."""
        found = self.items(subject, kinds=[FACT], limit=None)  # type: ignore[attr-defined]
        key = _key(key)
        return next((it for it in found if it.key == key), None)

    def facts_by_category(self, subject: str, category: str) -> list[Item]:
        """Current keyed facts of one category, newest first."""
        return self.store.find(validate.subject(subject), Filter(kinds=(FACT,), category=_key(category, "category")))  # type: ignore[attr-defined]

    # -- episodes -------------------------------------------------------------------------
    def log_episode(self, subject: str, action: str, result: str = "", *, success: bool = True,
                    context: str = "", session: str | None = None, category: str | None = None,
                    source: str = "", now: Any = None) -> Saved:
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
        return self.remember(subject, text, kind=EPISODE, session=session, category=category,  # type: ignore[attr-defined]
                             source=source, metadata=meta, now=now)

    def recent_episodes(self, subject: str, n: int = 10, *, success_only: bool = False,
                        session: str | None = None, category: str | None = None) -> list[Episode]:
        """The newest n episodes, optionally only successful ones, of one session or category."""
        validate.count(n, "n", 1, 100_000)
        where = Filter(kinds=(EPISODE,), session=session, category=category,
                       metadata={"success": True} if success_only else {})
        return [Episode.from_item(it) for it in self.store.find(validate.subject(subject), where, limit=n)]  # type: ignore[attr-defined]

    # -- preferences ----------------------------------------------------------------------
    def set_preference(self, subject: str, key: str, value: str, *, source: str = "", now: Any = None) -> Saved:
        """Set a preference; a new value supersedes the old one."""
        key = _key(key)
        value = validate.clean_text(value, "value")
        if not value:
            raise InvalidInput(f"value for preference {key!r} is empty")
        return self.remember(subject, f"{key.replace('_', ' ')}: {value}", kind=PREFERENCE, key=key,  # type: ignore[attr-defined]
                             source=source, metadata={"value": value}, now=now)

    def get_preference(self, subject: str, key: str, default: str | None = None) -> str | None:
        """The current value of a preference, or `default` (None unless given) when it is not set."""
        found = self.store.find(validate.subject(subject), Filter(kinds=(PREFERENCE,), key=_key(key)), limit=1)  # type: ignore[attr-defined]
        return str(found[0].metadata.get("value", found[0].text)) if found else default

    def preferences(self, subject: str) -> dict[str, str]:
        """Every current preference of a subject."""
        found = self.store.find(validate.subject(subject), Filter(kinds=(PREFERENCE,)), newest_first=False)  # type: ignore[attr-defined]
        return {it.key or it.id: str(it.metadata.get("value", it.text)) for it in found}

    # -- conversations --------------------------------------------------------------------
    def save_conversation(self, subject: str, session: str, conversation: "Conversation", *, now: Any = None) -> Saved:
        """Store a working-memory Conversation under a session id (replacing an earlier save)."""
        data = json.dumps(conversation.to_dict(), ensure_ascii=False, sort_keys=True)
        return self.remember(subject, data, kind=CONVERSATION, key=_key(session, "session"),  # type: ignore[attr-defined]
                             session=session, now=now)

    def load_conversation(self, subject: str, session: str, **options: Any) -> "Conversation":
        """Resume a saved Conversation; `options` (summarize=, counter=) are not saved and pass through."""
        from engram.kinds.working import Conversation

        found = self.store.find(validate.subject(subject), Filter(kinds=(CONVERSATION,), key=_key(session, "session")), limit=1)  # type: ignore[attr-defined]
        if not found:
            raise NotFound(f"no saved conversation {session!r} for {subject}")
        return Conversation.from_dict(json.loads(found[0].text), **options)
