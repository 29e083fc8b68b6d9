"""Embedders and the one registry that builds them from a spec string.

A spec is `NAME` or `NAME:ARG`: "minilm" (the default), "hashing" / "hashing:512",
"openai:text-embedding-3-small". Names come from package entry points in the group
`engram.embedders` (engram.plugins): the built-ins (engram.embed.builtins) are declared that way
in pyproject.toml, as a third-party package declares its own; `register()` adds one in code.
Heavy imports (onnxruntime, openai) happen only when an embedder first needs them.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from engram.embed.base import Embedder, normalise
from engram.embed.hashing import HashingEmbedder
from engram.embed.local import MiniLMEmbedder
from engram.embed.openai_http import OpenAICompatibleEmbedder
from engram.errors import ConfigError
from engram.plugins import EMBEDDERS, Plugins

#: Builds an embedder from the part of the spec after the first colon (None when absent).
Factory = Callable[[str | None], Embedder]

DEFAULT_SPEC = "minilm"
PLUGINS: Plugins[Factory] = Plugins(EMBEDDERS, "embedder")


def register(name: str, factory: Factory, *, replace: bool = False) -> None:
    """Make `get_embedder("name[:arg]")` call `factory(arg)`; `replace=True` overrides a name."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if not key or ":" in key:
        raise ConfigError(f"embedder name must be a non-empty word without ':', got {name!r}")
    PLUGINS.register(key, factory, replace=replace)


def available() -> list[str]:
    """Embedder names (registered and installed), sorted."""
    return PLUGINS.names()


def get_embedder(spec: str | None = None) -> Embedder:
    """Build the embedder named by `spec`, else $ENGRAM_EMBEDDER, else all-MiniLM-L6-v2."""
    origin = "spec"
    if spec is None:
        spec, origin = os.environ.get("ENGRAM_EMBEDDER") or DEFAULT_SPEC, "ENGRAM_EMBEDDER"
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"embedder {origin} must be one of {_choices()}, got {spec!r}")
    name, _, arg = spec.strip().partition(":")
    factory = PLUGINS.get(name.strip())
    if factory is None:
        raise ConfigError(f"unknown embedder {spec!r} (from {origin}): choose one of {_choices()}")
    return factory(arg.strip() or None)


def _choices() -> str:
    examples = {"hashing": "hashing[:DIM]", "openai": "openai:MODEL"}
    return ", ".join(examples.get(name, name) for name in available())


__all__ = [
    "DEFAULT_SPEC",
    "Embedder",
    "Factory",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "OpenAICompatibleEmbedder",
    "available",
    "get_embedder",
    "normalise",
    "register",
]
