"""A deterministic, dependency-free embedder: hashed bag of words plus character trigrams.

For tests and as an explicit fallback where no model can be installed. It matches words and
spellings, not meaning ("database" is not near "Postgres"), so it is never chosen silently:
ask for it with `get_embedder("hashing")` or ENGRAM_EMBEDDER=hashing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from engram.embed.base import Embedder, normalise
from engram.errors import ConfigError, InvalidInput

_WORD = re.compile(r"\w+", re.UNICODE)
NGRAM = 3
# Whole words carry more meaning than fragments; trigrams add robustness to inflection and typos.
WORD_WEIGHT = 1.0
NGRAM_WEIGHT = 0.5


class HashingEmbedder(Embedder):
    """Signed feature hashing of words and character trigrams, stable across processes."""

    name = "hashing"

    def __init__(self, dim: int = 256) -> None:
        if not isinstance(dim, int) or isinstance(dim, bool) or not 8 <= dim <= 65536:
            raise ConfigError(f"hashing embedder dim must be an int in 8..65536, got {dim!r}")
        self.dim = dim

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text: hashed features, L2-normalised (empty text gives a zero row)."""
        matrix = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            if not isinstance(text, str):
                raise InvalidInput(f"can only embed str, got {type(text).__name__}: {text!r:.80}")
            for feature, weight in features(text):
                index, sign = _slot(feature, self.dim)
                matrix[row, index] += sign * weight
        return normalise(matrix)


def features(text: str) -> list[tuple[str, float]]:
    """The weighted features of a text: lowercase words and their boundary-marked trigrams."""
    out: list[tuple[str, float]] = []
    for word in _WORD.findall(text.lower()):
        out.append(("w:" + word, WORD_WEIGHT))
        marked = f"<{word}>"
        out.extend(
            ("c:" + marked[i : i + NGRAM], NGRAM_WEIGHT) for i in range(len(marked) - NGRAM + 1)
        )
    return out


@lru_cache(maxsize=65536)
def _slot(feature: str, dim: int) -> tuple[int, float]:
    # blake2b, not hash(): Python salts str hashes per process and vectors are stored on disk.
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return (value >> 1) % dim, (1.0 if value & 1 else -1.0)
