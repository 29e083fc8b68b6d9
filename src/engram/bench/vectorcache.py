"""A vector cache for benchmarks: reuse embeddings across runs while only the ranking changes.

`CachedEmbedder` wraps an embedder and keeps every vector it returns in a SQLite file under a
folder of the caller's choosing, keyed by the embedder's identity and the exact text, so a
second LoCoMo or suite run (an ablation: one weight changed) embeds nothing it embedded before.
It has the wrapped embedder's identity, so stores accept it as that model. Benchmarks only: a
cached run's latency and ingest figures exclude embedding, and the result says so.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engram.embed.base import Embedder, normalise


def _key(identity: str, text: str) -> bytes:
    return hashlib.sha256(f"{identity}\0{text}".encode()).digest()


class CachedEmbedder(Embedder):
    """`inner` with its vectors remembered in `folder/vectors.sqlite` (shared by every model)."""

    def __init__(self, inner: Embedder, folder: str | Path) -> None:
        self.inner = inner
        self.name, self.dim, self.batch_size = inner.name, inner.dim, inner.batch_size
        Path(folder).mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(Path(folder) / "vectors.sqlite"), timeout=60, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @property
    def identity(self) -> str:
        return self.inner.identity

    @property
    def has_vocabulary(self) -> bool:
        return self.inner.has_vocabulary

    def knows(self, word: str) -> bool:
        return self.inner.knows(word)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Cached rows where present; the rest embedded by `inner` in one call and stored."""
        identity = self.identity
        keys = [_key(identity, t) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            found = self._lookup(set(keys))
            missing = [i for i, k in enumerate(keys) if k not in found]
            for i, key in enumerate(keys):
                if key in found:
                    out[i] = np.frombuffer(found[key], dtype=np.float32)
            self.hits += len(texts) - len(missing)
            self.misses += len(missing)
            if missing:
                fresh = self.inner.embed([texts[i] for i in missing])
                out[missing] = fresh
                self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)",
                                     [(keys[i], fresh[j].astype(np.float32).tobytes()) for j, i in enumerate(missing)])
                self._db.commit()
        return out

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return normalise(self.embed(texts))

    def _lookup(self, keys: set[bytes]) -> dict[bytes, bytes]:
        found: dict[bytes, bytes] = {}
        wanted = list(keys)
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            rows = self._db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(part))})", part)
            found.update({bytes(k): bytes(v) for k, v in rows})
        return found

    def close(self) -> None:
        self._db.close()


def bench_embedder(spec: str | None, cache: str | Path | None) -> Embedder | str | None:
    """What a benchmark passes to `Memory(embedder=...)`: `spec` as is, or, with a cache folder,
    the embedder it names wrapped in a `CachedEmbedder` ("none" stays "none")."""
    if cache is None or spec == "none":
        return spec
    from engram.embed import get_embedder

    return CachedEmbedder(get_embedder(spec or "minilm"), cache)
