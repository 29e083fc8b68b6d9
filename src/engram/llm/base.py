"""The LLM contract: provider-neutral reply types and one abstract method, `complete`.

Messages stay in the provider's own shape (Anthropic Messages or OpenAI Chat Completions):
`LLM.flavour` tells the caller which one to build, `Reply.raw_message` is the assistant turn
ready to append, and `tool_result_messages` answers its tool calls in the same shape.

Tool definitions are given once, in the neutral (Anthropic/MCP) shape
`{"name", "description", "input_schema"}`; the OpenAI provider converts them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput

ANTHROPIC = "anthropic"
OPENAI = "openai"
FLAVOURS = (ANTHROPIC, OPENAI)

# Neutral stop reasons (Anthropic's vocabulary); OpenAI finish reasons are mapped onto these.
END_TURN = "end_turn"
TOOL_USE = "tool_use"
MAX_TOKENS = "max_tokens"
TOOL_CHOICES = ("auto", "any", "none")

# A model that keeps calling tools is looping: one user turn gets this many tool rounds by default.
DEFAULT_MAX_TOOL_ROUNDS = 8


@dataclass(frozen=True)
class ToolCall:
    """One tool call requested by the model. `parse_error` is set when its arguments were not a JSON object."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    parse_error: str = ""


@dataclass(frozen=True)
class Reply:
    """One assistant turn: text, tool calls, why it stopped, token usage, and the native message."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str = END_TURN
    usage: dict[str, int] = field(default_factory=dict)
    raw_message: dict[str, Any] = field(default_factory=dict)


class ToolRounds:
    """Counts the tool rounds of one user turn so an agent loop cannot run forever.

    Call `record(reply)` after each reply; once `exhausted`, call `complete(..., tool_choice="none")`
    so the model must answer in text (tools stay declared: both APIs reject tool blocks otherwise).
    """

    def __init__(self, limit: int = DEFAULT_MAX_TOOL_ROUNDS) -> None:
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise InvalidInput(f"tool round limit must be a positive integer, got {limit!r}")
        self.limit = limit
        self.used = 0

    def record(self, reply: Reply) -> None:
        """Count `reply` as a round if it asked for tools."""
        if reply.tool_calls:
            self.used += 1

    @property
    def exhausted(self) -> bool:
        return self.used >= self.limit

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


@dataclass(frozen=True)
class Request:
    """What the agent sent in one `complete` call, as a rule (or a test) sees it."""

    system: str
    messages: tuple[dict[str, Any], ...]
    tools: tuple[dict[str, Any], ...]
    max_tokens: int
    tool_choice: str

    @property
    def tool_names(self) -> tuple[str, ...]:
        return tuple(neutral_tool(t)["name"] for t in self.tools)

    @property
    def last_user_text(self) -> str:
        """Text of the newest user message that is not only tool results ("" if none)."""
        for message in reversed(self.messages):
            if message.get("role") == "user":
                text = _text_of(message.get("content"))
                if text:
                    return text
        return ""

    @property
    def tool_results(self) -> tuple[str, ...]:
        """Contents of the tool results sent since the last assistant turn, in order."""
        found: list[str] = []
        for message in reversed(self.messages):
            if message.get("role") == "assistant":
                break
            if message.get("role") == "tool":
                found.append(_text_of(message.get("content")))
            elif isinstance(message.get("content"), list):
                found.extend(
                    _text_of(b.get("content"))
                    for b in reversed(message["content"])
                    if isinstance(b, dict) and b.get("type") == "tool_result"
                )
        return tuple(reversed(found))


class LLM(ABC):
    """A chat model. Subclasses set `flavour` and `model` and implement `complete`."""

    flavour: str = ANTHROPIC
    model: str = "unnamed"

    def complete(
        self,
        system: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int = 1024,
        tool_choice: str = "auto",
    ) -> Reply:
        """Send one request; raise `ProviderError` when the provider fails after retries.

        `tool_choice` is "auto" (model decides), "any" (must call a tool) or "none" (text only).
        The arguments are checked here, then `send` (what a provider implements) gets them.
        """
        check_request(max_tokens, tool_choice)
        return self.send(Request(system, tuple(messages), tuple(tools or ()), max_tokens, tool_choice))

    @abstractmethod
    def send(self, request: Request) -> Reply:
        """Send one checked request to the provider and return its reply."""

    def tool_result_messages(
        self, results: Sequence[tuple[ToolCall, str]], *, is_error: bool = False
    ) -> list[dict[str, Any]]:
        """The messages answering one reply's tool calls, in this provider's shape, to append."""
        if self.flavour == OPENAI:
            return [
                {"role": "tool", "tool_call_id": call.id, "content": content} for call, content in results
            ]
        blocks = [_tool_result_block(call, content, is_error) for call, content in results]
        return [{"role": "user", "content": blocks}] if blocks else []

    def tool_result_message(self, call: ToolCall, content: str, *, is_error: bool = False) -> dict[str, Any]:
        """The message answering a single tool call (use `tool_result_messages` for several)."""
        return self.tool_result_messages([(call, content)], is_error=is_error)[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r})"


def _tool_result_block(call: ToolCall, content: str, is_error: bool) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


def check_request(max_tokens: int, tool_choice: str) -> None:
    """Reject arguments every provider would reject, before any network call."""
    if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
        raise InvalidInput(f"max_tokens must be a positive integer, got {max_tokens!r}")
    if tool_choice not in TOOL_CHOICES:
        raise InvalidInput(f"tool_choice must be one of {', '.join(TOOL_CHOICES)}; got {tool_choice!r}")


def neutral_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool definition in the neutral shape, accepting the OpenAI `function` shape too."""
    if tool.get("type") == "function" and isinstance(tool.get("function"), dict):
        fn = tool["function"]
        return {
            "name": fn.get("name", ""),
            "description": fn.get("description", ""),
            "input_schema": fn.get("parameters") or {"type": "object", "properties": {}},
        }
    if "name" not in tool:
        raise InvalidInput(f"tool definition has no name: {tool!r}")
    return tool


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""
