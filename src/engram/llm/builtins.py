"""The built-in LLM provider plugins, declared in pyproject.toml under `engram.llms`.

Each takes (model or None, base_url or None) and returns a ready LLM; the SDK is imported only then.
"""

from __future__ import annotations

from engram.errors import ConfigError
from engram.llm.base import FLAVOURS, LLM


def anthropic(model: str | None, base_url: str | None) -> LLM:
    """`anthropic[:MODEL][@URL]`: Claude through the official SDK."""
    from engram.llm.anthropic import DEFAULT_MODEL, AnthropicLLM

    return AnthropicLLM(model or DEFAULT_MODEL, base_url=base_url)


def openai(model: str | None, base_url: str | None) -> LLM:
    """`openai[:MODEL][@URL]`: OpenAI or any compatible server (Ollama, vLLM, llama.cpp, LM Studio)."""
    from engram.llm.openai import DEFAULT_MODEL, OpenAILLM

    return OpenAILLM(model or DEFAULT_MODEL, base_url=base_url)


def scripted(model: str | None, base_url: str | None) -> LLM:
    """`scripted[:FLAVOUR]`: offline and deterministic; "scripted:openai" gives OpenAI-shaped messages."""
    from engram.llm.fake import ScriptedLLM, echo

    if model and model not in FLAVOURS:
        raise ConfigError(f"'scripted:{model}': the scripted flavour is one of {', '.join(FLAVOURS)}")
    return ScriptedLLM(rule=echo, flavour=model or "anthropic")
