"""`EngramSession`: an OpenAI Agents SDK `Session` kept in Engram (`pip install 'engramdb[openai-agents]'`).

    session = EngramSession("memory.db", "chat-42", subject="user:42", budget=8000)
    result = await Runner.run(agent, "Hi!", session=session)

The session is one working-memory `Conversation` (engram.kinds.working) saved under the session id
(`Memory.save_conversation`), so a long session stays within `budget` tokens: when the items pass
it, the oldest exchanges are folded into the conversation's running summary.

How SDK items map to turns (one item is one turn, the item itself kept exactly inside it):
- a message of role user, system or developer -> a user turn; an assistant message -> an
  assistant turn; their text is what the budget counts and the summary reads;
- a `function_call` -> an assistant turn with that tool call; a `function_call_output` -> a
  tool turn answering it (so a compaction never separates a call from its output);
- the session is a faithful store: an output whose call is not in the window (the SDK writes
  these when it resumes a run), a second output for one call, or a call id used again is kept
  as a plain assistant turn (the item unchanged); pairs are kept intact only where a model
  request is built from the conversation;
- any other item (reasoning, hosted tool calls, ...) -> an assistant turn (its text, if any).
The turn's first content block is {"type": "text", "text": <that text>, "item": <the SDK item>}.

After a compaction `get_items()` returns one system message holding the summary
({"role": "system", "content": "Summary of the earlier conversation ...: ..."}) followed by the
items still in the window, exactly as they were added; `get_items(limit=n)` the newest n of those.
`pop_item()` removes and returns the newest item still in the window (never the summary; None
when the window is empty). Concurrent writers to one session (threads or processes) never lose an
item: each change is saved only if no other save came first (`expect=`), else it is redone.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from engram import validate
from engram.errors import InvalidInput, WriteConflict, require
from engram.retry import retry
from engram.integrations import as_memory
from engram.kinds.working import Conversation, Summarizer, call_ids, result_ids
from engram.store import Filter
from engram.tokens import TokenCounter
from engram.types import CONVERSATION
from engram.core.async_memory import off_loop

require("agents", "openai-agents")

from agents.memory import SessionSettings  # noqa: E402 (after the check that names the extra to install)
from agents.memory.session_settings import coerce_session_settings  # noqa: E402

if TYPE_CHECKING:
    from agents.items import TResponseInputItem
    from agents.memory import Session

    from engram.core.memory import Memory

__all__ = ["EngramSession", "item_turn"]

DEFAULT_SUBJECT = "openai-agents:sessions"
TRIES = 20  # a change redone this often when other writers save the session first
T = TypeVar("T")


def _parts_text(content: Any) -> str:
    """The readable text of a message's content: a string, or the text of its parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") or p.get("refusal") or "" for p in content if isinstance(p, Mapping)]
        return "\n".join(t for t in texts if isinstance(t, str) and t)
    return ""


def item_turn(item: Any) -> dict[str, Any]:
    """The Conversation turn that carries one SDK input item (see the module docstring)."""
    if not isinstance(item, Mapping):
        raise InvalidInput(f"a session item must be a dict (an SDK input item), not {type(item).__name__}")
    raw = dict(item)
    kind, role = raw.get("type"), raw.get("role")
    turn: dict[str, Any]
    if kind == "function_call":
        if not raw.get("call_id") or not raw.get("name"):
            raise InvalidInput("a function_call item needs call_id and name")
        call = {"id": raw["call_id"], "type": "function",
                "function": {"name": raw["name"], "arguments": str(raw.get("arguments") or "")}}
        turn = {"role": "assistant", "tool_calls": [call]}
        text = ""
    elif kind == "function_call_output":
        if not raw.get("call_id"):
            raise InvalidInput("a function_call_output item needs the call_id of its call")
        turn = {"role": "tool", "tool_call_id": raw["call_id"]}
        output = raw.get("output")
        text = output if isinstance(output, str) else _parts_text(output)
    elif kind in (None, "message") and role in ("user", "system", "developer", "assistant"):
        turn = {"role": "assistant" if role == "assistant" else "user"}
        text = _parts_text(raw.get("content"))
    elif isinstance(kind, str) and kind:
        turn = {"role": "assistant"}
        text = "\n".join(_parts_text(raw.get(k)) for k in ("summary", "content") if raw.get(k)) or f"({kind})"
    else:
        raise InvalidInput(f"not an SDK input item: it has neither a known role nor a type (keys {sorted(raw)})")
    turn["content"] = [{"type": "text", "text": text, "item": raw}]
    return turn


def _unpaired(turn: dict[str, Any]) -> dict[str, Any]:
    """`turn` as a plain assistant turn (the same item and text, no tool pairing)."""
    return {"role": "assistant", "content": turn["content"]}


def _fitted(conv: Conversation, turn: dict[str, Any]) -> dict[str, Any]:
    """`turn`, unpaired when the conversation could not hold it as a call or a result."""
    calls = {i for t in conv.turns for i in call_ids(t)}
    answered = {i for t in conv.turns for i in result_ids(t)}
    if any(i in calls for i in call_ids(turn)):
        return _unpaired(turn)
    if any(i not in calls or i in answered for i in result_ids(turn)):
        return _unpaired(turn)
    return turn


def _item(turn: Mapping[str, Any]) -> Any:
    return turn["content"][0]["item"]


def _settings(value: Any) -> SessionSettings:
    """The SDK's SessionSettings from an instance or a dict of its fields (None: the defaults);
    the SDK's own TypeError for a field it does not know, InvalidInput for a bad limit."""
    if value is None:
        return SessionSettings()
    if not isinstance(value, (SessionSettings, Mapping)):
        raise InvalidInput(f"session_settings must be a SessionSettings or a dict such as {{'limit': 20}},"
                           f" not {type(value).__name__}")
    settings = coerce_session_settings(dict(value) if isinstance(value, Mapping) else value)
    if settings.limit is not None:
        validate.count(settings.limit, "session_settings.limit", 0, sys.maxsize)
    return settings


class EngramSession:
    """An OpenAI Agents SDK Session persisted as an Engram working-memory conversation."""

    def __init__(self, memory: "Memory | str | os.PathLike[str]", session_id: str, *,
                 subject: str = DEFAULT_SUBJECT, budget: int = 8000, summarize: Summarizer | None = None,
                 counter: TokenCounter | None = None,
                 session_settings: SessionSettings | Mapping[str, Any] | None = None) -> None:
        """`budget`: most tokens the session's items (and summary) take; `summarize`: the
        Conversation's summariser (default: the offline extractive one); `session_settings`: the
        SDK's SessionSettings or a dict of its fields (its `limit` is get_items' default)."""
        self.memory = as_memory(memory)
        if not isinstance(session_id, str) or not session_id.strip() or len(session_id) > 200:
            raise InvalidInput(f"session_id must be a non-empty string of at most 200 characters, not {session_id!r}")
        self.session_id = session_id
        self.subject = validate.subject(subject)
        self.budget = budget
        self.summarize = summarize
        self.counter = counter
        self.session_settings: SessionSettings | None = _settings(session_settings)
        self._closed = False
        Conversation("", budget, summarize, counter)  # the settings are checked now, not at the first write

    # -- the Session protocol ---------------------------------------------------------------
    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items, oldest first (after a compaction, the summary first); the newest `limit`."""
        return await off_loop(self.memory).run(self.items, limit)

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append items (compacting when the budget is passed) and save."""
        await off_loop(self.memory).run(self.add, items)

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the newest item in the window, or None."""
        return await off_loop(self.memory).run(self.pop)

    async def clear_session(self) -> None:
        """Forget the session: every saved version of it (verifiable with engram audit)."""
        await off_loop(self.memory).run(self.clear)

    # -- the same, synchronously ------------------------------------------------------------
    def conversation(self) -> Conversation:
        """The session as it is saved now (a new, empty one before the first item)."""
        return self._load()[1]

    def items(self, limit: int | None = None) -> list[Any]:
        self._check_open()
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        if limit is not None:
            validate.count(limit, "limit", 0, sys.maxsize)  # any count: the SDK asks for 2**31 - 1 to mean all
        conv = self.conversation()
        found = [_item(t) for t in conv.turns]
        if conv.summary:
            found.insert(0, {"role": "system", "content": conv.system_text()})
        return found if limit is None else found[max(0, len(found) - limit) :] if limit else []

    def add(self, items: Sequence[Any]) -> None:
        self._check_open()
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Sequence):
            raise InvalidInput(f"add_items takes a list of SDK input items, not {type(items).__name__}")
        turns = [item_turn(item) for item in items]  # every item checked before anything changes

        def change(conv: Conversation) -> None:
            for turn in turns:
                conv.add_message(_fitted(conv, turn))

        if turns:
            self._change(change)

    def pop(self) -> Any:
        self._check_open()
        popped: list[Any] = []

        def change(conv: Conversation) -> Conversation | None:
            popped.clear()
            if not len(conv):
                return None
            data = conv.to_dict()
            popped.append(_item(data["turns"].pop()))
            return Conversation.from_dict(data, summarize=self.summarize, counter=self.counter)

        self._change(change)
        return popped[0] if popped else None

    def clear(self) -> None:
        self._check_open()
        every = self.memory.items(self.subject, where=Filter(kinds=(CONVERSATION,), key=self.session_id,
                                                             include_superseded=True))
        if every:
            self.memory.forget_ids(self.subject, [it.id for it in every])

    def close(self) -> None:
        """Close the session: later calls raise RuntimeError (the Memory stays open: its owner closes it)."""
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{type(self).__name__} is closed")

    # -- loading and saving ------------------------------------------------------------------
    def _load(self) -> tuple[str, Conversation]:
        """(id of the save read, or "" for none; the conversation), with this session's budget."""
        found = self.memory.admin.current(self.subject, CONVERSATION, self.session_id)
        if found is None:
            return "", Conversation("", self.budget, self.summarize, self.counter)
        conv = Conversation.from_dict(json.loads(found.text), summarize=self.summarize, counter=self.counter)
        conv.budget = self.budget
        return found.id, conv

    def _change(self, change: Callable[[Conversation], Conversation | None]) -> None:
        """Load, change, save only if nobody saved in between (else redo); nothing to save: no write."""
        def once() -> None:
            read, conv = self._load()
            before = len(conv), conv.compactions
            changed = change(conv)
            conv = changed if changed is not None else conv
            if changed is None and (len(conv), conv.compactions) == before:
                return
            saved = self.memory.save_conversation(self.subject, self.session_id, conv, expect=read)
            if not saved.saved:
                raise InvalidInput(f"session {self.session_id!r} was not saved: {saved.reason}")

        retry(once, tries=TRIES, base=0.002, cap=0.2, again=lambda exc, _: isinstance(exc, WriteConflict))


if TYPE_CHECKING:  # mypy checks the class against the SDK's Session protocol
    def _conforms(session: EngramSession) -> Session:
        return session
