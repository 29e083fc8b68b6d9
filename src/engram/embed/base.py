"""The embedder contract: one abstract method, everything else built on it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np


class Embedder(ABC):
    """Turns texts into unit-length float32 vectors.

    Subclasses set `name` (stable model id) and `dim`, and implement `embed_batch`.
    The identity `name:dim` is stored with every vector; a store refuses another identity.
    """

    name: str = "unnamed"
    dim: int = 0
    batch_size: int = 32

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch: an array of shape (len(texts), dim), float32, rows L2-normalised."""

    @property
    def identity(self) -> str:
        return f"{self.name}:{self.dim}"

    def fingerprint(self) -> str | None:
        """What tells this model's exact weights apart beyond `identity` (a file hash), or None.
        A store records it next to the identity and refuses vectors from other weights."""
        return None

    @property
    def has_vocabulary(self) -> bool:
        """Whether `knows` answers from a vocabulary of the model's own (False: it cannot tell)."""
        return False

    def knows(self, word: str) -> bool:
        """Whether the model reads `word` as a word of its own vocabulary. Recall respells a query
        word the store does not hold only when the model does not know it either ("flgas", not
        "steak"); a model without a vocabulary to ask says True, so nothing is respelt for it."""
        return True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed any number of texts in batches of `batch_size`."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self.embed_batch(list(texts[i : i + self.batch_size]))
            for i in range(0, len(texts), self.batch_size)
        ]
        return normalise(np.vstack(parts))

    def embed_one(self, text: str) -> np.ndarray:
        row: np.ndarray = self.embed([text])[0]
        return row


def normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: np.ndarray = matrix / norms
    return unit
