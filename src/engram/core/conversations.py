"""Whole conversations as memory: message lists in the shapes APIs use, and the items a message
becomes (`Memory.add_messages`).

    messages_of([{"role": "user", "content": "We moved the API to Go."}])   # [Message(role='user', ...)]

Shapes read: OpenAI Chat Completions (`{"role", "content", "name", "tool_calls", "tool_call_id"}`,
content a string or a list of parts), OpenAI Responses input/output items (`{"type": "message"}`,
`function_call`, `function_call_output`), Anthropic Messages (content blocks `text`, `tool_use`,
`tool_result`), each as a bare list or inside a request (`{"messages": [...]}` with an optional
`system`, `{"input": [...]}`), and Engram's own `Conversation.to_dict()` (`{"version", "turns"}`).
A message may carry `id` (the caller's id, kept as metadata "message_id") and a time (`at`,
`timestamp`, `created_at` or `time`).

Each message becomes one item of kind "message" holding its content whole and verbatim (secrets
redacted in place), with metadata "role", "name", "message_id", "turn" (its place in the list given, which orders
messages of one time), and one item of kind "passage"
per passage (engram.core.passages) that recall searches. Nothing is refused for its length up to
MAX_MESSAGE_CHARS, nor for a secret or an instruction: a tool result (role "tool") is kept but
marked untrusted ("trust": "untrusted"); a user's standing instruction ("Always ...") is marked
"standing" (engram.core.standing), and when the instruction filter reads it as an instruction
to the assistant it is marked ("screen": "instruction") and gets no passages, so recall never
brings it back.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram import validate
from engram.core import passages, standing
from engram.errors import InvalidInput
from engram.types import MESSAGE, PASSAGE, Item

MAX_MESSAGE_CHARS = validate.MAX_VERBATIM_CHARS  # 20 million characters: far above any real message
ROLES = ("user", "assistant", "tool", "system")
_ROLE_NAMES = {"human": "user", "ai": "assistant", "model": "assistant", "bot": "assistant",
               "developer": "system", "function": "tool", "tool_result": "tool"}
UNTRUSTED = frozenset({"tool"})  # what came from a tool or a fetched page, not from the people talking
_TIME_FIELDS = ("at", "timestamp", "created_at", "time")
BATCH_CHARS = 2_000_000  # messages are written in transactions of about this much text


@dataclass(frozen=True)
class Message:
    """One message as said: its role, its text, and what the caller gave with it."""

    role: str
    content: str
    message_id: str | None = None
    name: str | None = None
    at: float | None = None


@dataclass(frozen=True)
class Planned:
    """The items one message becomes: the message itself first, then its passages."""

    message: Item
    passages: tuple[Item, ...]
    redacted: tuple[str, ...]

    @property
    def items(self) -> list[Item]:
        return [self.message, *self.passages]


# -- reading the shapes -----------------------------------------------------------------------
def messages_of(data: Any) -> list[Message]:
    """The messages of a list or request in any shape above (or `Message`s); InvalidInput naming the bad entry."""
    if isinstance(data, Mapping):
        if "turns" in data and "version" in data:  # Conversation.to_dict()
            return messages_of(data["turns"])
        for field in ("messages", "input", "output"):
            if isinstance(data.get(field), list):
                system = data.get("system") or data.get("instructions")
                head = [Message("system", _text(system, "system"))] if system else []
                return head + messages_of(data[field])
        return messages_of([data])
    if isinstance(data, (str, bytes)) or not isinstance(data, Sequence):
        raise InvalidInput(f"messages must be a list of message objects, not {type(data).__name__}")
    out: list[Message] = []
    for n, entry in enumerate(data):
        if isinstance(entry, Message):
            out.append(entry)
            continue
        if not isinstance(entry, Mapping):
            raise InvalidInput(f"message {n}: must be an object with 'role' and 'content', not {type(entry).__name__}")
        try:
            out.extend(_read(entry))
        except InvalidInput as exc:
            raise InvalidInput(f"message {n}: {exc}") from None
    return out


def _read(entry: Mapping[str, Any]) -> list[Message]:
    kind = entry.get("type")
    ident, name, at = _id(entry), _name(entry.get("name")), _time(entry)
    if kind == "function_call":  # Responses: a tool call the assistant made
        call = f"{entry.get('name', 'tool')}({entry.get('arguments', '')})"
        return [Message("assistant", call, ident or _id(entry, "call_id"), name, at)]
    if kind == "function_call_output":  # Responses: the tool's answer
        return [Message("tool", _text(entry.get("output", ""), "output"), ident or _id(entry, "call_id"), None, at)]
    if kind not in (None, "message"):
        raise InvalidInput(f"unknown item type {kind!r}: expected a message, function_call or function_call_output")
    if "role" not in entry:
        raise InvalidInput("has no 'role' (user, assistant, tool or system)")
    role = _role(entry["role"])
    content = entry.get("content")
    results = [b for b in content if isinstance(b, Mapping) and b.get("type") == "tool_result"] \
        if isinstance(content, list) else []
    out = [Message("tool", _text(b.get("content", ""), "tool_result"), _id(b, "tool_use_id"), None, at)
           for b in results]
    text = _text([b for b in content if b not in results] if isinstance(content, list) else content, "content")
    calls = entry.get("tool_calls")
    if isinstance(calls, list):  # OpenAI Chat: the assistant's tool calls
        text = "\n".join([text, *(_call(c) for c in calls if isinstance(c, Mapping))]).strip()
    if text or not results:
        out.append(Message(role, text, ident or _id(entry, "tool_call_id"), name, at))
    return out


def _role(value: Any) -> str:
    role = _ROLE_NAMES.get(str(value).lower(), str(value).lower()) if isinstance(value, str) else ""
    if role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}, not {value!r}")
    return role


def _text(content: Any, what: str) -> str:
    """The text of a string or a list of content parts (text parts joined; others named)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return validate.raw_text(content, what)
    if isinstance(content, list):
        return "\n".join(t for t in (_part(p, what) for p in content) if t)
    if isinstance(content, Mapping):
        return _part(content, what)
    raise InvalidInput(f"{what} must be text or a list of content parts, not {type(content).__name__}")


def _part(part: Any, what: str) -> str:
    if isinstance(part, str):
        return validate.raw_text(part, what)
    if not isinstance(part, Mapping):
        raise InvalidInput(f"a content part must be an object or a string, not {type(part).__name__}")
    kind = part.get("type", "text")
    if "text" in part and isinstance(part["text"], str):
        return validate.raw_text(part["text"], what)
    if kind == "tool_use":  # Anthropic: a tool call the assistant made
        return f"{part.get('name', 'tool')}({json.dumps(part.get('input', {}), ensure_ascii=False)})"
    if kind == "tool_result":
        return _text(part.get("content", ""), what)
    return f"[{kind}]"  # an image, a file, audio: named, not kept


def _call(call: Mapping[str, Any]) -> str:
    fn = call.get("function") if isinstance(call.get("function"), Mapping) else call
    assert isinstance(fn, Mapping)
    return f"{fn.get('name', 'tool')}({fn.get('arguments', '')})"


def _id(entry: Mapping[str, Any], field: str = "id") -> str | None:
    value = entry.get(field, entry.get("message_id") if field == "id" else None)
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, str)) and str(value).strip() and len(str(value)) <= 200:
        return str(value)
    raise InvalidInput(f"{field} must be a string or a number of at most 200 characters, not {value!r}")


def _name(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise InvalidInput(f"name must be a non-empty string of at most 200 characters, not {value!r}")
    return validate.clean_text(value, "name")


def _time(entry: Mapping[str, Any]) -> float | None:
    for field in _TIME_FIELDS:
        if entry.get(field) is not None:
            return validate.timestamp(entry[field], field)
    return None


# -- the items a message becomes --------------------------------------------------------------
def plan(subject: str, messages: Sequence[Message], *, session: str | None, at: float | None, now: float,
         source: str, agent: str, redact: bool, screen: bool) -> list[Planned]:
    """The items of every message, checked before anything is written (InvalidInput otherwise).

    `redact`: secrets are replaced in place; `screen`: a tool result that reads as an instruction
    is marked and gets no passages."""
    from engram.safety.instructions import check_instruction
    from engram.safety.screen import redactions

    for n, message in enumerate(messages):
        if len(message.content) > MAX_MESSAGE_CHARS:
            raise InvalidInput(f"message {n} is {len(message.content):,} characters; a message may have at most "
                               f"{MAX_MESSAGE_CHARS:,}: split the file, nothing was stored")
    out = []
    for turn, message in enumerate(messages):
        content, redacted = redactions(message.content) if redact else (message.content, ())
        happened = message.at if message.at is not None else at if at is not None else now
        meta: dict[str, Any] = {"role": message.role, "turn": turn}
        if message.name:
            meta["name"] = message.name
        if message.message_id is not None:
            meta["message_id"] = message.message_id
        if message.role in UNTRUSTED:
            meta["trust"] = "untrusted"
        if message.role == "user" and standing.instructs(content):
            meta[standing.MARK] = True  # recall places the one a question falls under (engram.core.standing)
        spans = passages.split(content)
        if screen and message.role in UNTRUSTED and any(check_instruction(p.text(content), origin="tool")
                                                              for p in spans):
            meta["screen"] = "instruction"
            spans = []
        if redacted:
            meta["redacted"] = list(redacted)
        item = Item(id=uuid.uuid4().hex, subject=subject, text=content, kind=MESSAGE, source=source, agent=agent,
                    session=session, created_at=now, event_at=happened, valid_from=now,
                    content_hash=validate.content_hash(content[:100_000]), metadata={**meta, "passages": len(spans)})
        shared = {k: v for k, v in meta.items() if k in ("role", "name", "message_id", "trust", standing.MARK)}
        parts = tuple(
            Item(id=uuid.uuid4().hex, subject=subject, text=text, kind=PASSAGE, source=source, agent=agent,
                 session=session, created_at=now, event_at=happened, valid_from=now,
                 content_hash=validate.content_hash(text),
                 metadata={**shared, "message": item.id, "passage": i, "start": p.start, "end": p.end})
            for i, p in enumerate(spans) if (text := p.text(content)).strip())
        out.append(Planned(item, parts, redacted))
    return out


def chunks(planned: Sequence[Planned]) -> Iterator[list[Planned]]:
    """The planned messages in write batches of about BATCH_CHARS characters."""
    batch: list[Planned] = []
    size = 0
    for p in planned:
        if batch and size + len(p.message.text) > BATCH_CHARS:
            yield batch
            batch, size = [], 0
        batch.append(p)
        size += len(p.message.text)
    if batch:
        yield batch

