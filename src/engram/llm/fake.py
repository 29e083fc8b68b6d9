"""ScriptedLLM: a deterministic, offline LLM for tests, demos and teaching.

It replays a script of replies, then (optionally) answers with a rule: a function of the
request. Replies come back in the chosen flavour's native shape, and every request is checked
the way the real APIs check it (a tool call must be answered by the next message), so an agent
that passes against ScriptedLLM sends well-formed conversations to a real provider too.

    llm = ScriptedLLM([ToolCall("", "remember", {"text": "Team uses Postgres 16."}), "Saved."])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..errors import InvalidInput, ProviderError
from .base import (
    ANTHROPIC,
    END_TURN,
    FLAVOURS,
    LLM,
    OPENAI,
    TOOL_USE,
    Reply,
    Request,
    ToolCall,
)

# A script entry: text, a tool call, several of them (text and calls), or a ready Reply.
Step = str | ToolCall | Sequence[str | ToolCall] | Reply


Rule = Callable[[Request], Step]


class ScriptedLLM(LLM):
    """Replays `script`, then asks `rule(request)`; raises ProviderError when both run out."""

    def __init__(
        self,
        script: Iterable[Step] = (),
        rule: Rule | None = None,
        *,
        flavour: str = ANTHROPIC,
        model: str = "scripted",
    ) -> None:
        if flavour not in FLAVOURS:
            raise InvalidInput(f"flavour must be one of {', '.join(FLAVOURS)}; got {flavour!r}")
        self.flavour = flavour
        self.model = model
        self.script = list(script)
        self.rule = rule
        self.requests: list[Request] = []
        self._calls = 0

    def send(self, request: Request) -> Reply:
        check_messages(self.flavour, list(request.messages))
        self.requests.append(request)
        step = self._next_step(request)
        reply = self._reply(step)
        _check_tools(reply, request, len(self.requests))
        return reply

    def _next_step(self, request: Request) -> Step:
        if self.script:
            return self.script.pop(0)
        if self.rule is not None:
            return self.rule(request)
        raise ProviderError(
            f"ScriptedLLM has no reply for request {len(self.requests)}: the script is used up "
            "and there is no rule; add replies to the script or pass rule="
        )

    def _reply(self, step: Step) -> Reply:
        if isinstance(step, Reply):
            return step if step.raw_message else self._build(step.text, step.tool_calls, step.stop_reason)
        parts = [step] if isinstance(step, (str, ToolCall)) else list(step)
        if not all(isinstance(p, (str, ToolCall)) for p in parts):
            raise InvalidInput(f"a script step is text, a ToolCall, a list of those or a Reply; got {step!r}")
        text = "".join(p for p in parts if isinstance(p, str))
        calls = tuple(self._with_id(p) for p in parts if isinstance(p, ToolCall))
        return self._build(text, calls, TOOL_USE if calls else END_TURN)

    def _with_id(self, call: ToolCall) -> ToolCall:
        if call.id:
            return call
        self._calls += 1
        prefix = "toolu_scripted_" if self.flavour == ANTHROPIC else "call_scripted_"
        return ToolCall(f"{prefix}{self._calls}", call.name, dict(call.arguments), call.parse_error)

    def _build(self, text: str, calls: tuple[ToolCall, ...], stop_reason: str) -> Reply:
        if self.flavour == OPENAI:
            raw: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                raw["tool_calls"] = [_function_call(c) for c in calls]
        else:
            blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            blocks += [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": dict(c.arguments)} for c in calls
            ]
            raw = {"role": "assistant", "content": blocks}
        usage = {"input_tokens": 0, "output_tokens": 0}
        return Reply(text, calls, stop_reason, usage, raw)


def echo(request: Request) -> str:
    """A rule that repeats the user's last message (what `get_llm("scripted")` uses)."""
    return f"You said: {request.last_user_text}" if request.last_user_text else "Hello."


def check_messages(flavour: str, messages: Sequence[dict[str, Any]]) -> None:
    """Raise ProviderError where the real API would answer 400: unanswered or unknown tool calls."""
    pending: set[str] = set()
    for i, message in enumerate(messages):
        answered = _answered_ids(flavour, message)
        if answered - pending:
            raise ProviderError(
                f"message {i} answers tool call(s) {sorted(answered - pending)} "
                "that the previous assistant message did not make"
            )
        pending -= answered
        # Anthropic wants every result in the next message; OpenAI one `tool` message per call.
        if pending and (not answered or flavour == ANTHROPIC):
            raise ProviderError(
                f"message {i}: tool call(s) {sorted(pending)} were never answered; "
                "append tool_result_messages(...) right after the assistant turn"
            )
        if message.get("role") == "assistant":
            pending = _call_ids(flavour, message)


def _call_ids(flavour: str, message: dict[str, Any]) -> set[str]:
    if flavour == OPENAI:
        return {tc.get("id", "") for tc in message.get("tool_calls") or []}
    content = message.get("content")
    return (
        {b.get("id", "") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"}
        if isinstance(content, list)
        else set()
    )


def _answered_ids(flavour: str, message: dict[str, Any]) -> set[str]:
    if flavour == OPENAI:
        return {message.get("tool_call_id", "")} if message.get("role") == "tool" else set()
    content = message.get("content")
    return (
        {b.get("tool_use_id", "") for b in content if isinstance(b, dict) and b.get("type") == "tool_result"}
        if isinstance(content, list) and message.get("role") == "user"
        else set()
    )


def _check_tools(reply: Reply, request: Request, number: int) -> None:
    if not reply.tool_calls:
        return
    if request.tool_choice == "none":
        raise ProviderError(f"ScriptedLLM reply {number} calls tools but the request said tool_choice='none'")
    unknown = [c.name for c in reply.tool_calls if c.name not in request.tool_names]
    if unknown:
        raise ProviderError(
            f"ScriptedLLM reply {number} calls tool(s) {unknown} that the request did not "
            f"offer (offered: {list(request.tool_names)})"
        )


def _function_call(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
    }
