"""Anthropic Messages API through the official `anthropic` SDK (extra: `engramdb[anthropic]`)."""

from __future__ import annotations

import os
from typing import Any

from ..errors import ConfigError, require
from .base import ANTHROPIC, LLM, Reply, Request, ToolCall, neutral_tool
from .sdk import DEFAULT_MAX_RETRIES, call, checked

DEFAULT_MODEL = "claude-sonnet-4-5"


class AnthropicLLM(LLM):
    """Claude models. `api_key` defaults to $ANTHROPIC_API_KEY, `base_url` to the SDK's (or $ANTHROPIC_BASE_URL)."""

    flavour = ANTHROPIC

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        timeout: float = 120.0,
        max_retries: int = DEFAULT_MAX_RETRIES,
    ) -> None:
        sdk = require("anthropic", "anthropic")
        api_key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not api_key:
            raise ConfigError(
                "no Anthropic API key: set ANTHROPIC_API_KEY or pass api_key= "
                "(or choose another provider with ENGRAM_LLM, e.g. 'openai:gpt-4o-mini')"
            )
        self.model = model or DEFAULT_MODEL
        self.max_retries = max_retries
        self._sdk = sdk
        # The SDK retries (backoff with jitter, honouring retry-after): engram.llm.sdk.
        self._client = sdk.Anthropic(api_key=api_key, base_url=base_url, timeout=timeout,
                                      max_retries=max_retries)

    def send(self, request: Request) -> Reply:
        params: dict[str, Any] = {"model": self.model, "max_tokens": request.max_tokens,
                                  "messages": list(request.messages)}
        if request.system:
            params["system"] = request.system
        if request.tools:
            params["tools"] = [neutral_tool(t) for t in request.tools]
            params["tool_choice"] = {"type": request.tool_choice}
        what = f"anthropic model {self.model!r} at {self._client.base_url}"
        message = call(lambda: self._client.messages.create(**params), self._sdk, what, "ANTHROPIC_API_KEY",
                      self.max_retries + 1)
        return checked(parse_message, message, what)


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
