"""The built-in embedder plugins, declared in pyproject.toml under `engram.embedders`.

Each takes the part of the spec after the first colon (None when absent) and returns an Embedder.
"""

from __future__ import annotations

import os

from engram.embed.base import Embedder
from engram.errors import ConfigError


def minilm(arg: str | None) -> Embedder:
    """`minilm`: all-MiniLM-L6-v2, int8 ONNX, bundled (the default)."""
    from engram.embed.local import MiniLMEmbedder

    if arg is not None:
        raise ConfigError(f"'minilm' takes no argument, got 'minilm:{arg}'")
    return MiniLMEmbedder()


def hashing(arg: str | None) -> Embedder:
    """`hashing[:DIM]`: deterministic feature hashing, no model (tests, offline fallback)."""
    from engram.embed.hashing import HashingEmbedder

    if arg is None:
        return HashingEmbedder()
    try:
        dim = int(arg)
    except ValueError:
        raise ConfigError(f"'hashing:{arg}': the part after ':' must be a dimension, e.g. hashing:512") from None
    return HashingEmbedder(dim)


def openai(arg: str | None) -> Embedder:
    """`openai:MODEL`: any OpenAI-compatible /v1/embeddings server (ENGRAM_EMBED_BASE_URL, ..._API_KEY)."""
    from engram.embed.openai_http import OpenAICompatibleEmbedder

    if arg is None:
        raise ConfigError("'openai' needs a model: e.g. openai:text-embedding-3-small")
    env = os.environ
    return OpenAICompatibleEmbedder(
        arg,
        base_url=env.get("ENGRAM_EMBED_BASE_URL") or env.get("OPENAI_BASE_URL") or None,
        api_key=env.get("ENGRAM_EMBED_API_KEY") or env.get("OPENAI_API_KEY") or None,
    )
