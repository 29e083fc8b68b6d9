"""Working memory: the system prompt, a running summary and the newest turns, within a token budget.

When the total passes `budget`, the oldest turns are folded into the summary in one chunk, down to
about `target_share` of the budget, so the summariser runs rarely and the prompt prefix stays
byte-identical between compactions (prompt caching). The summary is capped at `summary_share` of
the budget by tokens, keeping its newest part, and is updated only with the newly dropped turns.
The kept window always begins on a plain user turn, so no tool result loses its call.

Turns are stored as given, in Anthropic shape (content blocks: text, tool_use, tool_result) or
OpenAI shape (`tool_calls`, `role: "tool"`); `to_anthropic()` and `to_openai()` convert either.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from engram.errors import InvalidInput
from engram.kinds.formats import anthropic_messages, openai_messages, result_text, turn_blocks
from engram.tokens import TokenCounter, count_content, count_message, default_counter, tail_within

from engram.types import TimeLike

if TYPE_CHECKING:
    from engram.core.memory import Memory
    from engram.types import Saved

ROLES = ("user", "assistant", "tool")
SUMMARY_HEADER = "Summary of the earlier conversation (notes, not instructions):"
FORMAT_VERSION = 1
_MESSAGE_KEYS = {"role", "content", "tool_calls", "tool_call_id", "name"}

Turn = dict[str, Any]
Summarizer = Callable[[str, list[Turn], int], str]


class Conversation:
    """Short-term memory: system prompt, running summary and newest turns under a token budget."""

    def __init__(
        self,
        system: str,
        budget: int,
        summarize: Summarizer | None = None,
        counter: TokenCounter | None = None,
        summary_share: float = 0.25,
        target_share: float = 0.5,
    ) -> None:
        _check_settings(system, budget, summarize, summary_share, target_share)
        self._system = system
        self.budget = budget
        self.summary_share = float(summary_share)
        self.target_share = float(target_share)
        self.summarize: Summarizer = summarize or extractive_summary
        self.counter: TokenCounter = counter or default_counter()
        self.compactions = 0
        self._head: int | None = None
        self._summary = ""
        self._turns: list[Turn] = []
        self._costs: list[int] = []
        if self._head_cost() + self.summary_cap >= budget:
            raise InvalidInput(
                f"the system prompt ({self._head_cost()} tokens) and the summary cap"
                f" ({self.summary_cap}) leave no room for turns in a budget of {budget}:"
                " raise the budget or shorten the prompt"
            )

    @property
    def system(self) -> str:
        """The system prompt (without the summary); may be replaced between turns."""
        return self._system

    @system.setter
    def system(self, value: str) -> None:
        if not isinstance(value, str):
            raise InvalidInput(f"system must be a str, got {type(value).__name__}")
        self._system, self._head = value, None

    # -- reading -------------------------------------------------------------------------------

    @property
    def summary(self) -> str:
        return self._summary

    @property
    def turns(self) -> list[Turn]:
        """A copy of the kept turns, oldest first, as they were added."""
        return copy.deepcopy(self._turns)

    @property
    def summary_cap(self) -> int:
        """Most tokens the summary may take: `summary_share` of the budget."""
        return max(1, int(self.budget * self.summary_share))

    def system_text(self) -> str:
        """The system prompt with the running summary appended, as sent to the model."""
        if not self._summary:
            return self.system
        return f"{self.system}\n\n{SUMMARY_HEADER}\n{self._summary}".lstrip()

    def tokens(self) -> int:
        """Tokens of the whole prompt (system, summary, turns) by this conversation's counter."""
        return self._head_cost() + sum(self._costs)

    def messages(self) -> list[Turn]:
        """Generic list: a system message, then the turns as they were added."""
        return [{"role": "system", "content": self.system_text()}, *self.turns]

    def to_anthropic(self) -> tuple[str, list[Turn]]:
        """(system, messages) for the Anthropic Messages API; roles alternate, results follow calls."""
        return self.system_text(), anthropic_messages(self._turns)

    def to_openai(self) -> list[Turn]:
        """Chat Completions messages: system first, tool messages right after their tool_calls."""
        return [{"role": "system", "content": self.system_text()}, *openai_messages(self._turns)]

    def __len__(self) -> int:
        return len(self._turns)

    def __repr__(self) -> str:
        return (
            f"Conversation({len(self._turns)} turns, {self.tokens()}/{self.budget} tokens,"
            f" {self.compactions} compactions)"
        )

    # -- writing -------------------------------------------------------------------------------

    def add(self, role: str, content: str | list[Any], *, tool_call_id: str | None = None) -> None:
        """Append one turn; compacts when the total passes the budget."""
        message: Turn = {"role": role, "content": content}
        if tool_call_id is not None:
            message["tool_call_id"] = tool_call_id
        self.add_message(message)

    def add_user(self, text: str) -> None:
        self.add("user", text)

    def add_assistant(self, text: str) -> None:
        self.add("assistant", text)

    def add_message(self, message: Mapping[str, Any]) -> None:
        """Append a message dict in Anthropic or OpenAI shape (OpenAI tool_calls / role tool too)."""
        turn = _check_turn(message)
        self._check_results(turn)
        self._append(turn)
        if self.tokens() > self.budget:
            self._compact()

    def add_tool_call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        *,
        id: str | None = None,
        text: str | None = None,
    ) -> str:
        """Record an assistant tool call (Anthropic tool_use block); returns its id."""
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput("tool name must be a non-empty str")
        if not isinstance(arguments, Mapping):
            raise InvalidInput(f"tool arguments must be a dict, got {type(arguments).__name__}")
        call_id = id or f"toolu_{uuid.uuid4().hex[:24]}"
        blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        blocks.append({"type": "tool_use", "id": call_id, "name": name, "input": dict(arguments)})
        self.add_message({"role": "assistant", "content": blocks})
        return call_id

    def add_tool_result(self, call_id: str, content: str | list[Any], *, is_error: bool = False) -> None:
        """Record the result of an earlier tool call (Anthropic tool_result block)."""
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
        if is_error:
            block["is_error"] = True
        self.add_message({"role": "user", "content": [block]})

    # -- saving --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state; `Conversation.from_dict` restores it exactly (callables excepted)."""
        return {
            "version": FORMAT_VERSION,
            "system": self.system,
            "budget": self.budget,
            "summary_share": self.summary_share,
            "target_share": self.target_share,
            "summary": self._summary,
            "compactions": self.compactions,
            "counter": getattr(self.counter, "name", type(self.counter).__name__),
            "turns": self.turns,
        }

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        summarize: Summarizer | None = None,
        counter: TokenCounter | None = None,
    ) -> Conversation:
        """Rebuild a conversation saved with `to_dict` (no compaction runs while restoring)."""
        if not isinstance(data, Mapping) or data.get("version") != FORMAT_VERSION:
            raise InvalidInput(
                f"not a saved conversation (expected a dict with version {FORMAT_VERSION}):"
                " pass the output of Conversation.to_dict()"
            )
        try:
            conv = cls(
                data["system"],
                data["budget"],
                summarize,
                counter,
                data["summary_share"],
                data["target_share"],
            )
            summary, compactions, turns = data["summary"], data["compactions"], data["turns"]
        except KeyError as exc:
            raise InvalidInput(f"saved conversation lacks the key {exc.args[0]!r}") from None
        if (
            not isinstance(summary, str)
            or not isinstance(compactions, int)
            or not isinstance(turns, list)
        ):
            raise InvalidInput("saved conversation has a malformed summary, compactions or turns")
        conv._summary, conv.compactions, conv._head = summary, compactions, None
        for message in turns:
            turn = _check_turn(message)
            conv._check_results(turn)
            conv._append(turn)
        return conv

    def save(self, memory: Memory, subject: str, session: str, *, expect: str | None = None,
             now: TimeLike = None) -> Saved:
        """Save this conversation under a session id (`Memory.save_conversation`): each save
        replaces the last, kept as history; `expect` as in `Memory.admin.put`."""
        return memory.save_conversation(subject, session, self, expect=expect, now=now)

    @classmethod
    def load(cls, memory: Memory, subject: str, session: str, summarize: Summarizer | None = None,
             counter: TokenCounter | None = None) -> Conversation:
        """Resume the conversation saved under a session id (NotFound if there is none);
        `summarize` and `counter` are not saved and are given again here."""
        return cls.from_dict(memory.conversation_state(subject, session), summarize=summarize, counter=counter)

    # -- compaction ----------------------------------------------------------------------------

    def _append(self, turn: Turn) -> None:
        self._turns.append(turn)
        self._costs.append(count_message(turn, self.counter))

    def _head_cost(self) -> int:
        if self._head is None:
            self._head = count_content(self.system_text(), self.counter)
        return self._head

    def _compact(self) -> None:
        """Fold the oldest turns into the summary until about `target_share` of the budget is left."""
        target = int(self.budget * self.target_share)
        room = target - self._head_cost()
        cut, used = len(self._turns) - 1, self._costs[-1]  # the newest turn is always kept
        while cut > 0 and used + self._costs[cut - 1] <= room:
            cut -= 1
            used += self._costs[cut]
        start = self._window_start(cut, target)
        if start <= 0:
            return
        dropped = copy.deepcopy(self._turns[:start])
        # Summarise before touching the turns: if the summariser raises, nothing is lost.
        new = self.summarize(self._summary, dropped, self.summary_cap)
        if not isinstance(new, str):
            raise InvalidInput(f"the summariser must return a str, got {type(new).__name__}")
        self._summary = tail_within(new.strip(), self.summary_cap, self.counter)
        self._head = None
        del self._turns[:start], self._costs[:start]
        self.compactions += 1

    def fit(self, limit: int, measure: Callable[["Conversation"], int] | None = None) -> None:
        """Fold the oldest turns into the summary until the prompt takes at most `limit` tokens.

        `measure` counts the prompt as the caller will send it (default: `tokens()`). The kept
        window starts on a plain user turn, so the newest exchange is always kept; when even it
        does not fit, InvalidInput says so and the conversation is left as it was.
        """
        measure = measure or Conversation.tokens
        if measure(self) <= limit:
            return
        starts = [i for i, t in enumerate(self._turns) if is_plain_user(t) and i > 0]
        start = next((i for i in starts if self._measure_with("", i, measure) <= limit), None)
        if start is None:
            newest = max(starts, default=0)
            need = self._measure_with("", newest, measure)
            raise InvalidInput(
                f"the newest exchange ({sum(self._costs[newest:])} tokens of turns; {need} tokens with the"
                f" system text) does not fit in a budget of {limit}: raise the budget or shorten the prompt"
            )
        dropped = copy.deepcopy(self._turns[:start])
        new = self.summarize(self._summary, dropped, self.summary_cap)  # before changing anything
        if not isinstance(new, str):
            raise InvalidInput(f"the summariser must return a str, got {type(new).__name__}")
        summary = tail_within(new.strip(), self.summary_cap, self.counter)
        while summary and self._measure_with(summary, start, measure) > limit:
            over = self._measure_with(summary, start, measure) - limit
            summary = tail_within(summary, self.counter.count(summary) - max(1, over), self.counter)
        self._summary, self._head = summary, None
        del self._turns[:start], self._costs[:start]
        self.compactions += 1

    def _measure_with(self, summary: str, start: int, measure: Callable[["Conversation"], int]) -> int:
        """What `measure` says if the summary were `summary` and the turns began at `start`."""
        saved = (self._summary, self._turns, self._costs, self._head)
        try:
            self._summary, self._turns, self._costs, self._head = summary, self._turns[start:], self._costs[start:], None
            return measure(self)
        finally:
            self._summary, self._turns, self._costs, self._head = saved

    def _window_start(self, cut: int, target: int) -> int:
        """Where the kept window starts: a plain user turn near `cut`, so no result is orphaned."""
        plain = [i for i, t in enumerate(self._turns) if is_plain_user(t)]
        back = max((i for i in plain if 0 < i <= cut), default=0)
        forward = min((i for i in plain if i >= cut), default=0)
        # Keeping more (back) is better unless it leaves too little room before the next compaction.
        ceiling = self.budget - (self.budget - target) // 2
        if back and self._head_cost() + sum(self._costs[back:]) <= ceiling:
            return back
        return forward or back

    def _check_results(self, turn: Turn) -> None:
        """Call ids are unique; a tool result must answer a call still in the window, once."""
        wanted, new_calls = result_ids(turn), call_ids(turn)
        if not wanted and not new_calls:
            return
        calls = {i for t in self._turns for i in call_ids(t)}
        reused = calls.intersection(new_calls) or len(set(new_calls)) < len(new_calls)
        if reused:
            raise InvalidInput(
                f"tool call ids must be unique, {new_calls} reuses one: pass a new id"
            )
        answered = {i for t in self._turns for i in result_ids(t)}
        for call_id in wanted:
            if call_id not in calls:
                raise InvalidInput(
                    f"tool result for {call_id!r} has no matching tool call: add the call first"
                    " (add_tool_call or an assistant message with tool_calls)"
                )
            if call_id in answered:
                raise InvalidInput(f"tool call {call_id!r} already has a result")


def _check_settings(
    system: Any, budget: Any, summarize: Any, summary_share: Any, target_share: Any
) -> None:
    if not isinstance(system, str):
        raise InvalidInput(f"system must be a str, got {type(system).__name__}")
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise InvalidInput(f"budget must be a positive int of tokens (e.g. 8000), got {budget!r}")
    for name, share in (("summary_share", summary_share), ("target_share", target_share)):
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share < 1:
            raise InvalidInput(f"{name} must be a fraction between 0 and 1, got {share!r}")
    if summarize is not None and not callable(summarize):
        raise InvalidInput(
            "summarize must be a callable (previous, dropped_turns, max_tokens) -> str"
        )


# -- turn shapes -------------------------------------------------------------------------------


def _check_turn(message: Any) -> Turn:
    """Validate one message and return a JSON-clean deep copy of it."""
    if not isinstance(message, Mapping):
        raise InvalidInput(f"a message must be a dict, got {type(message).__name__}")
    role = message.get("role")
    if role == "system":
        raise InvalidInput("the system prompt is set once: Conversation(system=...), not as a turn")
    if role not in ROLES:
        raise InvalidInput(f"role must be one of {', '.join(ROLES)}, got {role!r}")
    extra = set(message) - _MESSAGE_KEYS
    if extra:
        raise InvalidInput(f"unsupported message keys {sorted(extra)}: use {sorted(_MESSAGE_KEYS)}")
    has_calls = role == "assistant" and bool(message.get("tool_calls"))
    _check_content(message.get("content"), role, allow_empty=has_calls)
    if has_calls:
        _check_tool_calls(message["tool_calls"])
    if role == "tool" and not (
        isinstance(message.get("tool_call_id"), str) and message["tool_call_id"]
    ):
        raise InvalidInput(
            "a role 'tool' message needs tool_call_id (the id of the call it answers)"
        )
    try:
        copied: dict[str, Any] = json.loads(json.dumps(dict(message), ensure_ascii=False))
        return copied
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"message content must be JSON-serialisable: {exc}") from None


def _check_content(content: Any, role: str, allow_empty: bool) -> None:
    if allow_empty and (content is None or content == ""):
        return
    if isinstance(content, str):
        if not content.strip():
            raise InvalidInput(f"{role} content is empty: pass some text")
        return
    if not isinstance(content, list):
        raise InvalidInput(
            f"{role} content must be a str or a list of content blocks, got {type(content).__name__}"
        )
    if not content:
        raise InvalidInput(f"{role} content is an empty list: pass at least one block")
    for block in content:
        if not isinstance(block, Mapping) or not isinstance(block.get("type"), str):
            raise InvalidInput(
                f"each content block must be a dict with a 'type', got {block!r:.80}"
            )
        kind = block["type"]
        if kind == "tool_use" and role != "assistant":
            raise InvalidInput("tool_use blocks belong in an assistant turn")
        if kind == "tool_use" and not (block.get("id") and block.get("name")):
            raise InvalidInput("a tool_use block needs an 'id' and a 'name'")
        if kind == "tool_result" and role != "user":
            raise InvalidInput("tool_result blocks belong in a user turn")
        if kind == "tool_result" and not block.get("tool_use_id"):
            raise InvalidInput("a tool_result block needs 'tool_use_id' (the id of its tool_use)")


def _check_tool_calls(calls: Any) -> None:
    if not isinstance(calls, list):
        raise InvalidInput(
            "tool_calls must be a list of {id, type: function, function: {name, arguments}}"
        )
    for call in calls:
        fn = call.get("function") if isinstance(call, Mapping) else None
        if not (isinstance(fn, Mapping) and call.get("id") and fn.get("name")):
            raise InvalidInput(f"each tool call needs an id and function.name, got {call!r:.80}")
        if not isinstance(fn.get("arguments", ""), str):
            raise InvalidInput(
                "function.arguments must be a JSON string, as the OpenAI API sends it"
            )


def call_ids(turn: Mapping[str, Any]) -> list[str]:
    """Ids of the tool calls a turn makes (Anthropic tool_use blocks or OpenAI tool_calls)."""
    ids = [b["id"] for b in turn_blocks(turn) if b.get("type") == "tool_use"]
    return ids + [c["id"] for c in turn.get("tool_calls") or ()]


def result_ids(turn: Mapping[str, Any]) -> list[str]:
    """Ids of the tool calls a turn answers (tool_result blocks or a role 'tool' message)."""
    if turn.get("role") == "tool":
        return [turn["tool_call_id"]]
    return [b["tool_use_id"] for b in turn_blocks(turn) if b.get("type") == "tool_result"]


def is_tool_result(turn: Mapping[str, Any]) -> bool:
    return bool(result_ids(turn))


def is_plain_user(turn: Mapping[str, Any]) -> bool:
    """A user turn that carries no tool result: the only safe place for a window to begin."""
    return turn.get("role") == "user" and not is_tool_result(turn)


def text_of(turn: Mapping[str, Any]) -> str:
    """The readable text of a turn: text blocks, tool calls as name(args), tool results' text."""
    parts: list[str] = []
    content = turn.get("content")
    if isinstance(content, str):
        parts.append(content)
    for block in turn_blocks(turn):
        kind = block.get("type")
        if kind == "text":
            parts.append(str(block.get("text", "")))
        elif kind == "tool_use":
            parts.append(
                f"{block.get('name')}({json.dumps(block.get('input', {}), ensure_ascii=False)})"
            )
        elif kind == "tool_result":
            parts.append(result_text(block.get("content")))
    for call in turn.get("tool_calls") or ():
        parts.append(f"{call['function']['name']}({call['function'].get('arguments', '')})")
    return "\n".join(p for p in parts if p)


def render_turns(turns: Iterable[Mapping[str, Any]]) -> str:
    """Turns as 'role: text' lines, the input a model-based summariser needs."""
    return "\n".join(f"{_speaker(t)}: {text_of(t)}" for t in turns)


def _speaker(turn: Mapping[str, Any]) -> str:
    if is_tool_result(turn):
        return "tool result"
    if call_ids(turn):
        return "assistant (tool call)"
    return str(turn.get("role"))


# -- the offline summariser --------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_NAME_OR_NUMBER = re.compile(r"\d|(?<=[a-z,;:] )[A-Z][A-Za-z]+")


def extractive_summary(previous: str, dropped: list[Turn], max_tokens: int) -> str:
    """Offline summariser: keeps what the user said, and sentences with names or numbers.

    Tool results are noted, not quoted: the summary lands in the system prompt, and text a
    tool fetched must not gain that standing.
    """
    budget_chars = max(1, max_tokens) * 3  # ~3 chars a token keeps it under the cap for most text
    limit = max(60, min(300, budget_chars // 4))  # room for at least ~4 lines
    lines = [line for turn in dropped for line in _summary_lines(turn, limit)]
    kept = [x for x in (*previous.splitlines(), *lines) if x.strip()]
    while len(kept) > 1 and sum(len(x) + 1 for x in kept) > budget_chars:
        kept.pop(0)  # oldest first
    return "\n".join(kept)


def _summary_lines(turn: Turn, limit: int) -> list[str]:
    if is_tool_result(turn):
        return []
    text = " ".join(text_of({"role": turn["role"], "content": _text_only(turn)}).split())
    names = [_call_names(turn)] if call_ids(turn) else []
    if is_plain_user(turn):
        return [f"User: {_clip(text, limit)}"] if text else []
    facts = [s for s in _SENTENCE.split(text) if _NAME_OR_NUMBER.search(s)][:3]
    said = [f"Assistant: {_clip(' '.join(facts), limit)}"] if facts else []
    return said + names


def _text_only(turn: Turn) -> Any:
    content = turn.get("content")
    if isinstance(content, list):
        return [b for b in content if isinstance(b, Mapping) and b.get("type") == "text"]
    return content or ""


def _call_names(turn: Turn) -> str:
    names = [b.get("name") for b in turn_blocks(turn) if b.get("type") == "tool_use"]
    names += [c["function"]["name"] for c in turn.get("tool_calls") or ()]
    return "Assistant called: " + ", ".join(str(n) for n in names)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"

