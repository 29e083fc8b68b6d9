"""Anthropic Messages API through the official `anthropic` SDK (extra: `engramdb[anthropic]`)."""

from __future__ import annotations

from typing import Any

from .base import ANTHROPIC, Reply, Request, ToolCall, neutral_tool
from .sdk import SdkLLM

DEFAULT_MODEL = "claude-sonnet-4-5"


class AnthropicLLM(SdkLLM):
    """Claude models. `api_key` defaults to $ANTHROPIC_API_KEY, `base_url` to $ANTHROPIC_BASE_URL or the SDK's."""

    flavour = ANTHROPIC
    package = "anthropic"
    default_model = DEFAULT_MODEL
    key_var, url_var = "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"
    no_key = ("no Anthropic API key: set ANTHROPIC_API_KEY or pass api_key= "
              "(or choose another provider with ENGRAM_LLM, e.g. 'openai:gpt-4o-mini')")

    def _connect(self, **options: Any) -> Any:
        return self._sdk.Anthropic(**options)

    def send(self, request: Request) -> Reply:
        params: dict[str, Any] = {"model": self.model, "max_tokens": request.max_tokens,
                                  "messages": list(request.messages)}
        if request.system:
            params["system"] = request.system
        if request.tools:
            params["tools"] = [neutral_tool(t) for t in request.tools]
            params["tool_choice"] = {"type": request.tool_choice}
        return self._ask(self._client.messages.create, params, parse_message)


def parse_message(message: Any) -> Reply:
    """A provider-neutral Reply from an SDK `Message`."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    blocks: list[dict[str, Any]] = []
    for block in message.content:
        if block.type == "text":
            texts.append(block.text)
            if block.text:  # the API rejects empty text blocks sent back
                blocks.append({"type": "text", "text": block.text})
        elif block.type == "tool_use":
            args = block.input if isinstance(block.input, dict) else {}
            error = "" if isinstance(block.input, dict) else f"tool input is not an object: {block.input!r}"
            calls.append(ToolCall(block.id, block.name, dict(args), error))
            blocks.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
        else:  # thinking and server-tool blocks must go back verbatim
            blocks.append(block.model_dump(exclude_none=True))
    usage = message.usage
    return Reply(
        text="".join(texts),
        tool_calls=tuple(calls),
        stop_reason=message.stop_reason or "end_turn",
        usage={"input_tokens": usage.input_tokens or 0, "output_tokens": usage.output_tokens or 0},
        raw_message={"role": "assistant", "content": blocks},
    )
