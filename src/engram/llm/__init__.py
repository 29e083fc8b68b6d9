"""LLM providers and the one registry that picks them.

    get_llm("anthropic:claude-sonnet-4-5")
    get_llm("openai:gpt-4o-mini")
    get_llm("openai:llama3.2@http://localhost:11434/v1")   # Ollama, vLLM, llama.cpp, LM Studio
    get_llm("scripted")                                     # offline, deterministic
    get_llm()   # $ENGRAM_LLM, else Anthropic if $ANTHROPIC_API_KEY, else OpenAI if $OPENAI_API_KEY, else None

A spec is `NAME[:MODEL][@BASE_URL]`. Names come from package entry points in the group
`engram.llms` (engram.plugins): the built-ins (engram.llm.builtins) are declared that way in
pyproject.toml, as a third-party package declares its own; `register()` adds one in code.
Providers import their SDK only when chosen.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from ..errors import ConfigError
from .anthropic import AnthropicLLM
from .base import DEFAULT_MAX_TOOL_ROUNDS, LLM, Reply, ToolCall, ToolRounds
from .base import Request
from .fake import ScriptedLLM
from .openai import OpenAILLM
from ..plugins import LLMS, Plugins

# A factory takes (model or None, base_url or None) and returns a ready LLM.
Factory = Callable[[str | None, str | None], LLM]

ENV_VAR = "ENGRAM_LLM"
_SPEC = re.compile(r"^(?P<name>[A-Za-z][\w.-]*)(?::(?P<model>[^@]*))?(?:@(?P<url>https?://\S+))?$")
PLUGINS: Plugins[Factory] = Plugins(LLMS, "LLM provider")


def register(name: str, factory: Factory) -> None:
    """Make `factory` available as `get_llm("NAME[:MODEL][@URL]")`; replaces a provider of that name."""
    if not re.fullmatch(r"[A-Za-z][\w.-]*", name or ""):
        raise ConfigError(f"provider name must be a word like 'myllm', got {name!r}")
    PLUGINS.register(name, factory, replace=True)


def providers() -> list[str]:
    """Provider names (registered and installed), sorted."""
    return PLUGINS.names()


def get_llm(spec: str | None = None) -> LLM | None:
    """The LLM named by `spec` (or $ENGRAM_LLM, or the first API key found); None if nothing is configured."""
    source = "argument"
    if not spec:
        spec, source = os.environ.get(ENV_VAR, "").strip(), ENV_VAR
    if not spec:
        if os.environ.get("ANTHROPIC_API_KEY"):
            spec = "anthropic"
        elif os.environ.get("OPENAI_API_KEY"):
            spec = "openai"
        else:
            return None
    match = _SPEC.match(spec.strip())
    factory = PLUGINS.get(match["name"]) if match else None
    if match is None or factory is None:
        where = f"{ENV_VAR}={spec!r}" if source == ENV_VAR else repr(spec)
        raise ConfigError(
            f"unknown LLM provider in {where}: choose one of {', '.join(providers())} "
            "as NAME[:MODEL][@BASE_URL], e.g. 'anthropic:claude-sonnet-4-5' or "
            "'openai:llama3.2@http://localhost:11434/v1'"
        )
    return factory(match["model"] or None, match["url"])


__all__ = [
    "DEFAULT_MAX_TOOL_ROUNDS",
    "LLM",
    "AnthropicLLM",
    "OpenAILLM",
    "Reply",
    "Request",
    "ScriptedLLM",
    "ToolCall",
    "ToolRounds",
    "get_llm",
    "providers",
    "register",
]
