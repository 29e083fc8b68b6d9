"""OpenAI Chat Completions through the official `openai` SDK (extra: `engramdb[openai]`).

Any server speaking the same API works through `base_url`: Ollama, vLLM, llama.cpp's
llama-server, LM Studio. Local servers need no key; a placeholder is sent.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import ProviderError
from .base import END_TURN, MAX_TOKENS, OPENAI, TOOL_USE, Reply, Request, ToolCall, neutral_tool
from .sdk import DEFAULT_MAX_RETRIES, SdkLLM

DEFAULT_MODEL = "gpt-4o-mini"
LOCAL_API_KEY = "not-needed"
_STOP_REASONS = {
    "stop": END_TURN,
    "tool_calls": TOOL_USE,
    "function_call": TOOL_USE,
    "length": MAX_TOKENS,
    "content_filter": "refusal",
}
_TOOL_CHOICES = {"auto": "auto", "any": "required", "none": "none"}


class OpenAILLM(SdkLLM):
    """GPT models or any OpenAI-compatible server. `api_key` defaults to $OPENAI_API_KEY, `base_url` to $OPENAI_BASE_URL."""

    flavour = OPENAI
    package = "openai"
    default_model = DEFAULT_MODEL
    key_var, url_var = "OPENAI_API_KEY", "OPENAI_BASE_URL"
    keyless = LOCAL_API_KEY
    no_key = ("no OpenAI API key: set OPENAI_API_KEY or pass api_key=; for a local server (Ollama, vLLM,"
              " llama.cpp, LM Studio) give its URL, e.g. 'openai:llama3@http://localhost:11434/v1'")

    def __init__(self, model: str = DEFAULT_MODEL, api_key: str | None = None, base_url: str | None = None, *,
                 timeout: float = 120.0, max_retries: int = DEFAULT_MAX_RETRIES, max_tokens_param: str | None = None,
                 ) -> None:
        super().__init__(model, api_key, base_url, timeout=timeout, max_retries=max_retries)
        # OpenAI deprecated `max_tokens` (reasoning models reject it); many local servers know only it.
        self.max_tokens_param = max_tokens_param or ("max_tokens" if self.base_url else "max_completion_tokens")

    def _connect(self, **options: Any) -> Any:
        return self._sdk.OpenAI(**options)

    def send(self, request: Request) -> Reply:
        params: dict[str, Any] = {
            "model": self.model,
            "messages": with_system(request.system, list(request.messages)),
            self.max_tokens_param: request.max_tokens,
        }
        if request.tools:
            params["tools"] = [function_tool(t) for t in request.tools]
            params["tool_choice"] = _TOOL_CHOICES[request.tool_choice]
        return self._ask(self._client.chat.completions.create, params, parse_completion)


def with_system(system: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages with the system prompt first, unless the caller already put one there."""
    if not system or (messages and messages[0].get("role") in ("system", "developer")):
        return messages
    return [{"role": "system", "content": system}, *messages]


def function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A neutral tool definition in Chat Completions `function` shape."""
    if tool.get("type") == "function":
        return tool
    spec = neutral_tool(tool)
    function = {
        "name": spec["name"],
        "parameters": spec.get("input_schema") or {"type": "object", "properties": {}},
    }
    if spec.get("description"):
        function["description"] = spec["description"]
    return {"type": "function", "function": function}


def parse_completion(completion: Any) -> Reply:
    """A provider-neutral Reply from an SDK `ChatCompletion`."""
    if not completion.choices:
        raise ProviderError("openai returned a completion with no choices; check the server's logs")
    choice = completion.choices[0]
    message = choice.message
    calls = tuple(_tool_call(tc) for tc in (message.tool_calls or []) if getattr(tc, "function", None))
    raw: dict[str, Any] = {"role": "assistant", "content": message.content}
    if calls:
        raw["tool_calls"] = [
            {
                "id": tc.id,
                "type": "function",
                "function": {"name": tc.function.name, "arguments": tc.function.arguments},
            }
            for tc in message.tool_calls
            if getattr(tc, "function", None)
        ]
    usage = completion.usage
    reason = choice.finish_reason or END_TURN
    return Reply(
        text=message.content or getattr(message, "refusal", None) or "",
        tool_calls=calls,
        # Some local servers say "stop" even when they return tool calls.
        stop_reason=TOOL_USE if calls else _STOP_REASONS.get(reason, reason),
        usage={
            "input_tokens": getattr(usage, "prompt_tokens", 0) or 0,
            "output_tokens": getattr(usage, "completion_tokens", 0) or 0,
        },
        raw_message=raw,
    )


def _tool_call(tc: Any) -> ToolCall:
    text = tc.function.arguments or "{}"
    try:
        args = json.loads(text)
    except json.JSONDecodeError as exc:
        return ToolCall(
            tc.id, tc.function.name, {}, f"arguments are not valid JSON ({exc.msg}): {text[:200]}"
        )
    if not isinstance(args, dict):
        return ToolCall(tc.id, tc.function.name, {}, f"arguments are not a JSON object: {text[:200]}")
    return ToolCall(tc.id, tc.function.name, args)
