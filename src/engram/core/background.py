"""The relevance's background: is a question about the asker's own life and work, or about the world?

Two fixed sets of sentences, written for this (benchmarks/relevance_data/DATA_CARD.md), embedded
once with the bundled MiniLM and shipped as `engram/data/relevance_background.npz`: `memories`,
the kind of things a memory holds (first-person notes, family, health, home, team and tooling
facts, chat-like turns), and `world`, general knowledge (history, science, geography, arts,
textbook computing). A question's `personal` evidence (`Background.personal`) is the mean of its
`TOP` best cosines to the memory sentences less the mean of its `TOP` best to the world ones:
"Which CI do we use?" is near team facts and far from textbooks, "Who invented chess?" the other
way round. It reads the question alone (one matrix-vector product), never the store or the other
candidates, so the score keeps its meaning in every store. The vectors are used only with the
model they were made with (its identity and file fingerprint are recorded with them); any other
embedder has no background and keeps the four-input score (`ranking.relevance`).
benchmarks/relevance_background.py rebuilds the file from the two text files (`--check`
compares a rebuild with the shipped one; tests/test_relevance.py does too).
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from engram.embed.base import Embedder

#: How many best cosines of each set are averaged.
TOP = 10
#: Where the sentences live (a source checkout; the package ships only their vectors).
TEXTS = Path(__file__).resolve().parents[3] / "benchmarks" / "relevance_data"
MEMORIES, WORLD = "background_memories.txt", "background_world.txt"
#: The shipped file, in engram/data.
SHIPPED = "relevance_background.npz"


@dataclass(frozen=True)
class Background:
    """The two sets' unit vectors (float32) and the model they were embedded with."""

    memories: np.ndarray
    world: np.ndarray
    identity: str
    fingerprint: str

    def personal(self, query: np.ndarray) -> float:
        """How much closer `query` (a unit vector of the same model) is to memories than to general
        knowledge: mean of its `TOP` best cosines to `memories` less the same over `world`."""
        q = np.asarray(query, dtype=np.float32)
        return _top_mean(self.memories @ q) - _top_mean(self.world @ q)


def _top_mean(cosines: np.ndarray) -> float:
    k = min(TOP, len(cosines))
    return float(np.partition(cosines, len(cosines) - k)[-k:].mean()) if k else 0.0


def sentences(name: str, folder: Path = TEXTS) -> list[str]:
    """The sentences of one set, one a line."""
    return [line.strip() for line in (folder / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def texts_hash(memories: Sequence[str], world: Sequence[str]) -> str:
    """sha256 of both sets' sentences: the shipped file records which sentences it embedded."""
    return hashlib.sha256("\n".join([*memories, "\x00", *world]).encode("utf-8")).hexdigest()


def build(embedder: Embedder, memories: Sequence[str], world: Sequence[str]) -> bytes:
    """The .npz file's bytes: both sets embedded by `embedder` (float16), its identity and
    fingerprint, and the sentences' hash."""
    out = io.BytesIO()
    np.savez_compressed(out, memories=embedder.embed(list(memories)).astype(np.float16),
                        world=embedder.embed(list(world)).astype(np.float16),
                        identity=np.array(embedder.identity), fingerprint=np.array(embedder.fingerprint() or ""),
                        texts=np.array(texts_hash(memories, world)))
    return out.getvalue()


def read(data: bytes) -> tuple[Background, str]:
    """The background in a built file, and the hash of the sentences it was built from."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        return (Background(memories=z["memories"].astype(np.float32), world=z["world"].astype(np.float32),
                           identity=str(z["identity"]), fingerprint=str(z["fingerprint"])), str(z["texts"]))


_LOCK = threading.Lock()
_SHIPPED: list[Background | None] = []  # read once, on the first recall that can use it


def shipped() -> Background | None:
    """The background shipped in the package (None if the file is absent)."""
    with _LOCK:
        if not _SHIPPED:
            path = resources.files("engram") / "data" / SHIPPED
            _SHIPPED.append(read(path.read_bytes())[0] if path.is_file() else None)
        return _SHIPPED[0]


def for_embedder(embedder: Embedder | None) -> Background | None:
    """The shipped background when `embedder` is the model it was made with (same identity and
    fingerprint), else None: another model's cosines mean something else."""
    if embedder is None:
        return None
    found = shipped()
    if found is None or embedder.identity != found.identity:
        return None
    return found if embedder.fingerprint() == found.fingerprint else None


def same(built: bytes, other: bytes) -> bool:
    """Whether two built files hold the same sentences' vectors from the same model (float16
    rounding and the model runtime's last bits aside)."""
    (a, a_texts), (b, b_texts) = read(built), read(other)
    return (a_texts == b_texts and a.identity == b.identity and a.fingerprint == b.fingerprint
            and a.memories.shape == b.memories.shape and a.world.shape == b.world.shape
            and bool(np.allclose(a.memories, b.memories, atol=2e-3)) and bool(np.allclose(a.world, b.world, atol=2e-3)))
