"""Retrievers the LoCoMo harness compares: Engram's hybrid recall, its single signals, word overlap.

Every retriever ingests one conversation into its own store and answers `search(question, k, now)`
with `(dia_id, text)` pairs, best first. Engram's are written through the public `Memory` API;
`overlap` reimplements the reference article's FactMemory (word overlap, recency tie-break,
newest 500 facts, 10-300 characters) in our own code, for comparison.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engram.core import ranking
from engram.errors import InvalidInput
from engram.types import EPISODE

if TYPE_CHECKING:
    from engram.bench.locomo import Conversation
    from engram.embed.base import Embedder

SUBJECT = "user:locomo"
RETRIEVERS = ("hybrid", "bm25", "dense", "overlap")


class Retriever(Protocol):
    def ingest(self, conv: Conversation) -> None: ...

    def search(self, question: str, k: int, now: float) -> list[tuple[str, str]]: ...

    def config(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


def make_retriever(name: str, path: Path | str, embedder: Embedder | str | None,
                   weights: Mapping[str, float] | None = None) -> Retriever:
    """A fresh retriever of kind `name` whose store lives at `path` (a SQLite file or a postgresql://
    URL); `weights` overrides terms of the hybrid ranking's `Weights` (ablations: {"entity": 0.0})."""
    if name == "overlap":
        return OverlapRetriever()
    if name not in RETRIEVERS:
        raise InvalidInput(f"unknown retriever {name!r}: choose one of {', '.join(RETRIEVERS)}")
    return EngramRetriever(name, path, embedder, weights)


def parse_weights(text: str | None) -> dict[str, float]:
    """"entity=0,time=0.5" as {"entity": 0.0, "time": 0.5}; names must be fields of `Weights`."""
    known = {f.name for f in dataclasses.fields(ranking.Weights)}
    out: dict[str, float] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if name.strip() not in known or not math.isfinite(number) or number < 0:
            raise InvalidInput(f"--weights takes name=value pairs with names from {sorted(known)} and values >= 0,"
                               f" got {part.strip()!r}")
        out[name.strip()] = number
    return out


class EngramRetriever:
    """Engram's recall (`hybrid`, the default) or one of its signals alone (`bm25`, `dense`)."""

    def __init__(self, mode: str, path: Path | str, embedder: Embedder | str | None,
                 weights: Mapping[str, float] | None = None) -> None:
        from engram.core.memory import Memory

        self.mode = mode
        self.memory = Memory(str(path), embedder="none" if mode == "bm25" else (embedder or "minilm"))
        self.dia: dict[str, str] = {}
        base = self.memory.weights
        self.weights = {
            "hybrid": base,
            "bm25": ranking.Weights.single("keyword", recency=base.recency, half_life_days=base.half_life_days),
            "dense": ranking.Weights.single("vector", recency=base.recency, half_life_days=base.half_life_days),
        }[mode]
        self._base = base
        if weights:
            self.reweigh(weights)

    def reweigh(self, weights: Mapping[str, float]) -> None:
        """Search the same store with hybrid's weights overridden by `weights` (ablations; the
        single-signal baselines keep theirs)."""
        if self.mode == "hybrid":
            self.weights = self.memory.weights = dataclasses.replace(self._base, **weights)

    def ingest(self, conv: Conversation) -> None:
        for turns in conv.sessions():
            first = turns[0]
            saved = self.memory.remember_many(
                SUBJECT, [{"text": t.text, "source": t.dia_id} for t in turns], kind=EPISODE,
                session=f"session {first.session}", event_at=first.at, now=first.at,
            )
            for turn, result in zip(turns, saved):
                if result.id is None:
                    raise InvalidInput(f"turn {turn.dia_id} was not stored: {result.reason}")
                self.dia[result.id] = turn.dia_id

    def remember_facts(self, facts: Sequence[tuple[str, str, float]]) -> None:
        """Store plain facts `(name, text, event time)` (no session); `search` answers with the names."""
        saved = self.memory.remember_many(SUBJECT, [{"text": text, "event_at": at, "now": at} for _, text, at in facts])
        for (name, _, _), result in zip(facts, saved):
            if result.id is None:
                raise InvalidInput(f"fact {name} was not stored: {result.reason}")
            self.dia[result.id] = name

    def search(self, question: str, k: int, now: float) -> list[tuple[str, str]]:
        if self.mode == "hybrid":  # exactly what users call
            hits = self.memory.recall(SUBJECT, question, k=k, now=now)
        else:
            from engram.core.recall import search

            where = self.memory._filter()
            hits = search(self.memory.store, self.memory.embedder, SUBJECT, question, k, where, self.weights, now)
        return [(self.dia[h.id], h.text) for h in hits]

    def config(self) -> dict[str, Any]:
        from engram.bench.vectorcache import CachedEmbedder
        from engram.core.recall import CANDIDATES, SHORTLIST

        embedder = self.memory.embedder
        return {
            "embedder": embedder.identity if embedder else None,
            "vector_cache": isinstance(embedder, CachedEmbedder),
            "weights": dataclasses.asdict(self.weights),
            "candidates": CANDIDATES,
            "shortlist": SHORTLIST,
            "store": "postgresql" if str(self.memory.store.url).startswith("postgres") else "sqlite",
        }

    def close(self) -> None:
        self.memory.close()


# -- the reference article's FactMemory, reimplemented -------------------------------------
_OVERLAP_WORD = re.compile(r"[a-z0-9]+")
_OVERLAP_STOP = frozenset(
    ["the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "is", "are", "what", "which", "my", "me", "i", "do", "with"]
)
OVERLAP_WINDOW = 500  # the reference scores only the newest 500 facts


def overlap_words(text: str) -> set[str]:
    """Lowercase words minus a few stop words, with a crude plural fold (the reference's `words`)."""
    out = set()
    for w in _OVERLAP_WORD.findall(text.lower()):
        if w in _OVERLAP_STOP:
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return out


class OverlapRetriever:
    """Word overlap + 0.1 / (1 + age in days), newest 500 facts, texts of 10-300 characters only."""

    def __init__(self) -> None:
        self.facts: list[tuple[float, str, str, set[str]]] = []  # (created, dia_id, text, words)
        self.rejected = 0

    def ingest(self, conv: Conversation) -> None:
        for turn in conv.turns:
            text = " ".join(turn.text.split())
            if not 10 <= len(text) <= 300:
                self.rejected += 1
                continue
            self.facts.append((turn.at, turn.dia_id, text, overlap_words(text)))

    def search(self, question: str, k: int, now: float) -> list[tuple[str, str]]:
        q = overlap_words(question)
        newest = sorted(self.facts, key=lambda f: f[0], reverse=True)[:OVERLAP_WINDOW]
        scored = []
        for created, dia, text, words in newest:
            shared = len(q & words)
            if shared:
                scored.append((shared + 0.1 / (1 + max(0.0, now - created) / 86400), dia, text))
        scored.sort(key=lambda s: s[0], reverse=True)
        return [(dia, text) for _, dia, text in scored[:k]]

    def config(self) -> dict[str, Any]:
        return {"embedder": None, "window": OVERLAP_WINDOW, "rejected_turns": self.rejected}

    def close(self) -> None:
        self.facts.clear()
