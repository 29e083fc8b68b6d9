"""Turns in a provider's shape: Anthropic content blocks or OpenAI `tool_calls` / `role: "tool"`.

`Conversation` (engram.kinds.working) stores turns as given, in either shape; this module reads
their blocks and converts a list of turns for the Anthropic Messages API (`anthropic_messages`:
roles alternate, results follow their calls) or OpenAI Chat Completions (`openai_messages`: tool
messages right after their `tool_calls`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from typing import Any

Turn = dict[str, Any]


def anthropic_messages(turns: Iterable[Turn]) -> list[Turn]:
    """The turns as Anthropic Messages API messages."""
    return _merge_anthropic([_to_anthropic(t) for t in turns])


def openai_messages(turns: Iterable[Turn]) -> list[Turn]:
    """The turns as Chat Completions messages (without the system message)."""
    return _merge_openai([m for t in turns for m in _to_openai(t)])


def turn_blocks(turn: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = turn.get("content")
    return [b for b in content if isinstance(b, Mapping)] if isinstance(content, list) else []


def result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, Mapping))
    return "" if content is None else json.dumps(content, ensure_ascii=False)


# -- export: Anthropic -------------------------------------------------------------------------


def _to_anthropic(turn: Turn) -> Turn:
    role = turn["role"]
    if role == "tool":
        block = {
            "type": "tool_result",
            "tool_use_id": turn["tool_call_id"],
            "content": turn["content"],
        }
        return {"role": "user", "content": [copy.deepcopy(block)]}
    content = copy.deepcopy(turn.get("content"))
    if role == "assistant" and turn.get("tool_calls"):
        blocks = _as_blocks(content)
        for call in turn["tool_calls"]:
            fn = call["function"]
            blocks.append(
                {"type": "tool_use", "id": call["id"], "name": fn["name"], "input": _parse_args(fn)}
            )
        return {"role": "assistant", "content": blocks}
    return {"role": role, "content": content}


def _parse_args(fn: Mapping[str, Any]) -> dict[str, Any]:
    raw = fn.get("arguments") or "{}"
    try:
        value = json.loads(raw)
    except ValueError:
        return {"arguments": raw}  # the model sent invalid JSON: keep it visible, not lost
    return value if isinstance(value, dict) else {"arguments": value}


def _as_blocks(content: Any) -> list[dict[str, Any]]:
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content)


def _merge_anthropic(messages: list[Turn]) -> list[Turn]:
    """Join consecutive same-role messages; tool results first in a user message, as the API wants."""
    out: list[Turn] = []
    for message in messages:
        if out and out[-1]["role"] == message["role"]:
            blocks = _as_blocks(out[-1]["content"]) + _as_blocks(message["content"])
            if message["role"] == "user":
                blocks.sort(key=lambda b: b.get("type") != "tool_result")  # stable
            out[-1] = {"role": message["role"], "content": blocks}
        else:
            out.append(message)
    return out


# -- export: OpenAI ----------------------------------------------------------------------------


def _to_openai(turn: Turn) -> list[Turn]:
    role, content = turn["role"], turn.get("content")
    if role == "tool" or turn.get("tool_calls") or not isinstance(content, list):
        return [copy.deepcopy(turn)]
    blocks = turn_blocks(turn)
    if role == "assistant":
        text = "\n".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")
        calls = [
            {
                "id": b["id"],
                "type": "function",
                "function": {
                    "name": b["name"],
                    "arguments": json.dumps(b.get("input", {}), ensure_ascii=False),
                },
            }
            for b in blocks
            if b.get("type") == "tool_use"
        ]
        message: Turn = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = calls
        return [message] if text or calls else []
    out: list[Turn] = [
        {"role": "tool", "tool_call_id": b["tool_use_id"], "content": _tool_text(b)}
        for b in blocks
        if b.get("type") == "tool_result"
    ]
    parts = [p for p in (_openai_part(b) for b in blocks if b.get("type") != "tool_result") if p]
    if parts:
        out.append({"role": "user", "content": parts})
    return out


def _tool_text(block: Mapping[str, Any]) -> str:
    text = result_text(block.get("content"))
    return f"Error: {text}" if block.get("is_error") else text


def _openai_part(block: Mapping[str, Any]) -> dict[str, Any] | None:
    kind = block.get("type")
    if kind in ("text", "image_url"):
        return copy.deepcopy(dict(block))
    source = block.get("source") or {}
    if kind == "image" and source.get("type") == "base64":
        url = f"data:{source.get('media_type')};base64,{source.get('data')}"
        return {"type": "image_url", "image_url": {"url": url}}
    return None  # thinking and other provider-specific blocks have no OpenAI form


def _merge_openai(messages: list[Turn]) -> list[Turn]:
    """Join an assistant tool_calls message with the assistant messages right after it (parallel
    calls recorded one by one), so its tool results follow it directly."""
    out: list[Turn] = []
    for message in messages:
        prev = out[-1] if out else None
        if prev is not None and prev.get("tool_calls") and message["role"] == "assistant":
            texts = [c for c in (prev.get("content"), message.get("content")) if c]
            merged: Turn = {"role": "assistant", "content": "\n".join(map(_plain, texts)) or None}
            calls = (prev.get("tool_calls") or []) + (message.get("tool_calls") or [])
            if calls:
                merged["tool_calls"] = calls
            out[-1] = merged
        else:
            out.append(message)
    return out


def _plain(content: Any) -> str:
    return content if isinstance(content, str) else result_text(content)
