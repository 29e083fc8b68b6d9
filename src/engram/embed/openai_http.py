"""Embeddings from any server speaking OpenAI's `/v1/embeddings`: OpenAI, Ollama, vLLM, llama.cpp.

Uses the official `openai` SDK (extra `openai`), which retries 429, 5xx and dropped connections
with backoff; once its retries are spent we raise EmbedderError naming the server, the model,
the status and what to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engram.embed.base import Embedder, normalise
from engram.errors import ConfigError, EmbedderError, InvalidInput, require

# What to check, by HTTP status, once the SDK has given up.
_HINTS = {
    401: "check the API key (ENGRAM_EMBED_API_KEY or OPENAI_API_KEY)",
    403: "check the API key's permissions",
    404: "check the model name and base URL (Ollama: `ollama pull MODEL`; URL ends in /v1)",
    429: "the server is rate limiting: retry later or lower the batch size",
}
_DEFAULT_HINT = "check that the server is up and serves this embedding model"


class OpenAICompatibleEmbedder(Embedder):
    """An embedding model behind an OpenAI-compatible HTTP API; `name` is the model id."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        dim: int | None = None,
        *,
        batch_size: int = 64,
        max_retries: int = 4,
        timeout: float = 60.0,
    ) -> None:
        openai = require("openai", "openai")
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(
                "OpenAI-compatible embedder needs a model name, e.g. 'text-embedding-3-small'"
            )
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0):
            raise ConfigError(f"embedding dim must be a positive int or None, got {dim!r}")
        if batch_size <= 0:
            raise ConfigError(f"batch_size must be positive, got {batch_size!r}")
        self.name = model.strip()
        self.batch_size = batch_size
        self._dim = dim
        self._errors = openai
        # Local servers (Ollama, vLLM) ignore the key, but the SDK insists on one.
        if api_key is None and base_url is not None:
            api_key = "unused"
        try:
            self._client = openai.OpenAI(
                api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout
            )
        except openai.OpenAIError as exc:
            raise ConfigError(
                "no API key for the OpenAI embedder: set ENGRAM_EMBED_API_KEY (or OPENAI_API_KEY), "
                "or set ENGRAM_EMBED_BASE_URL to a local server such as http://127.0.0.1:11434/v1"
            ) from exc
        self.base_url = str(self._client.base_url)

    @property
    def dim(self) -> int:  # type: ignore[override]  # learnt from the server when not given
        if self._dim is None:
            self.embed_batch(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """POST one batch to /embeddings and return its rows in input order, normalised."""
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        response = self._request([_payload_text(t) for t in texts])
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(texts):
            raise EmbedderError(
                f"{self.base_url} returned {len(rows)} embeddings for {len(texts)} texts "
                f"(model {self.name}): the server does not follow the OpenAI wire format"
            )
        matrix = np.asarray([row.embedding for row in rows], dtype=np.float32)
        self._check_dim(matrix.shape[1])
        return normalise(matrix)

    def _request(self, texts: list[str]) -> Any:
        errors = self._errors
        try:
            # "float" because not every compatible server decodes the SDK's base64 default.
            return self._client.embeddings.create(
                model=self.name, input=texts, encoding_format="float"
            )
        except errors.APIStatusError as exc:
            hint = _HINTS.get(exc.status_code, _DEFAULT_HINT)
            raise EmbedderError(
                f"embedding request to {self.base_url} (model {self.name}) failed with HTTP "
                f"{exc.status_code} after retries: {exc.message}; {hint}"
            ) from exc
        except errors.APIConnectionError as exc:
            raise EmbedderError(
                f"cannot reach the embedding server at {self.base_url} (model {self.name}) "
                f"after retries: {exc}; {_DEFAULT_HINT}"
            ) from exc
        except errors.OpenAIError as exc:
            raise EmbedderError(
                f"embedding request to {self.base_url} (model {self.name}) failed: {exc}"
            ) from exc

    def _check_dim(self, got: int) -> None:
        if self._dim is None:
            self._dim = got
        elif got != self._dim:
            raise EmbedderError(
                f"model {self.name} at {self.base_url} returned {got}-d vectors, expected "
                f"{self._dim}: fix the dim setting or the model name"
            )


def _payload_text(text: str) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"can only embed str, got {type(text).__name__}: {text!r:.80}")
    # OpenAI answers 400 to an empty string; a space embeds as "nothing" everywhere.
    return text if text.strip() else " "
