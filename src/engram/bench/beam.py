"""BEAM evidence recall over whole conversations ("Beyond a Million Tokens", Tavakoli et al. 2025).

Protocol (docs/benchmarks.md):
- one store per chat (a folder `<n>/` with `chat.json` and `probing_questions.json`; `limit` takes
  the first chats in the numeric order of their folder names), in a temporary folder;
- every message through `Memory.add_messages`, one call per batch, at the batch's time (the
  `time_anchor` one of its messages carries; "March-15-2024"), session "batch <n>", the caller's id
  the message's id; the generator's marker " ->-> b,n" at the end of user messages is stripped;
- each question is asked raw, at the last batch's time; `hybrid` is `Memory.recall`, `bm25` the
  keyword signal alone through the same collapse, `dense` plain cosine between the question's
  vector and the same passage vectors, a message scored by its best passage;
- message-level R@k: the fraction of a question's evidence messages (`source_chat_ids`, nested
  lists and dict values flattened) among the top k distinct messages; abstention questions have no
  evidence and are not scored; `newest_first` (knowledge updates): an updated message is in the top
  10 and ranks above every original one;
- `ingest_per_s` is passages written per second through the verb (embedding included);
  `embedder_batch_per_s` the same embedder on a sample of the same passages in one batch call, in
  the same run.

The data folder is an argument and is never copied.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.bench.report import percentiles
from engram.bench.suite import weighted
from engram.errors import InvalidInput
from engram.types import PASSAGE, embedded_text

if TYPE_CHECKING:
    from engram.core.memory import Memory
    from engram.embed.base import Embedder

KS = (1, 5, 10, 25, 50)
BY_ABILITY_KS = (5, 10)
RETRIEVERS = ("hybrid", "bm25", "dense")
SUBJECT = "user:beam"
BASELINE_SAMPLE = 256  # passages per chat the embedder is timed on alone
_MARKER = re.compile(r"\s*->->\s*\d+\s*,\s*\d+\s*$")
DAY = 86400.0


@dataclass(frozen=True)
class Question:
    ability: str
    text: str
    evidence: tuple[str, ...]
    updated: tuple[str, ...] = ()
    original: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chat:
    name: str
    batches: tuple[tuple[float, tuple[dict[str, Any], ...]], ...]  # (time, messages)
    questions: tuple[Question, ...]

    @property
    def last_time(self) -> float:
        return self.batches[-1][0]


def anchor_time(raw: str) -> float:
    """"March-15-2024" as UNIX seconds (UTC midnight)."""
    try:
        return datetime.strptime(raw.strip(), "%B-%d-%Y").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        raise InvalidInput(f"time_anchor {raw!r} is not like March-15-2024") from None


def flatten(value: Any) -> list[str]:
    """Message ids in a list, a dict of lists, or nested lists, as strings."""
    if isinstance(value, Mapping):
        return [i for v in value.values() for i in flatten(v)]
    if isinstance(value, (list, tuple)):
        return [i for v in value for i in flatten(v)]
    if isinstance(value, bool) or value is None:
        return []
    return [str(value)]


def load(folder: str | Path, limit: int | None = None) -> list[Chat]:
    """The chats of a BEAM folder in numeric order of their folder names (the first `limit`)."""
    import json

    root = Path(folder)
    names = sorted((p for p in root.iterdir() if p.is_dir() and p.name.isdigit()), key=lambda p: int(p.name))
    if not names:
        raise InvalidInput(f"{root} has no numbered chat folders (<n>/chat.json)")
    chats = []
    for path in names[:limit]:
        for needed in ("chat.json", "probing_questions.json"):
            if not (path / needed).is_file():
                raise InvalidInput(f"{path} has no {needed}")
        raw = json.loads((path / "chat.json").read_text(encoding="utf-8"))
        questions = json.loads((path / "probing_questions.json").read_text(encoding="utf-8"))
        chats.append(Chat(path.name, _batches(raw), _questions(questions)))
    return chats


def _batches(raw: Sequence[Mapping[str, Any]]) -> tuple[tuple[float, tuple[dict[str, Any], ...]], ...]:
    out: list[tuple[float, tuple[dict[str, Any], ...]]] = []
    last = 0.0
    for batch in raw:
        messages = [m for turn in batch["turns"] for m in turn]
        anchors = [m["time_anchor"] for m in messages if m.get("time_anchor")]
        at = anchor_time(batch.get("time_anchor") or anchors[0]) if (batch.get("time_anchor") or anchors) \
            else last + DAY
        last = at
        out.append((at, tuple({"role": m["role"], "id": m["id"],
                               "content": _MARKER.sub("", m["content"]) if m["role"] == "user" else m["content"]}
                              for m in messages)))
    return tuple(out)


def _questions(raw: Mapping[str, Sequence[Mapping[str, Any]]]) -> tuple[Question, ...]:
    out = []
    for ability, questions in raw.items():
        for q in questions:
            ids = q.get("source_chat_ids")
            if ids is None:
                continue
            evidence = tuple(dict.fromkeys(flatten(ids)))
            if not evidence:
                continue
            updated = tuple(flatten(ids.get("updated_info", []))) if isinstance(ids, Mapping) else ()
            original = tuple(flatten(ids.get("original_info", []))) if isinstance(ids, Mapping) else ()
            out.append(Question(ability, str(q["question"]), evidence, updated, original))
    return tuple(out)


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    return len(set(ranked[:k]) & set(evidence)) / len(evidence)


def newest_first(ranked: Sequence[str], q: Question) -> bool | None:
    """An updated message in the top 10, above every original one (None: not a knowledge update)."""
    if not q.updated:
        return None
    top = list(ranked[:10])
    new = [top.index(i) for i in q.updated if i in top]
    old = [ranked.index(i) for i in q.original if i in ranked]
    return bool(new) and (not old or min(new) < min(old))


class Engine:
    """One chat's store and the three ways of asking it."""

    def __init__(self, path: str, embedder: Embedder | str | None) -> None:
        from engram.core.memory import Memory

        self.memory: Memory = Memory(path, embedder=embedder or "minilm")
        self.by_item: dict[str, str] = {}  # message item id -> BEAM message id
        self.of_passage: dict[str, str] = {}  # passage id -> message item id
        self.refused = self.redacted = self.passages = 0
        self.ingest_s = 0.0

    def ingest(self, chat: Chat) -> None:
        for number, (at, messages) in enumerate(chat.batches, 1):
            started = time.perf_counter()
            saved = self.memory.add_messages(SUBJECT, list(messages), session=f"batch {number}", at=at, now=at)
            self.ingest_s += time.perf_counter() - started
            for message, result in zip(messages, saved):
                if not result.saved or result.id is None:
                    self.refused += 1
                    continue
                self.by_item[result.id] = str(message["id"])
                self.redacted += bool(result.redacted)
        for item in self.memory.items(SUBJECT, kinds=[PASSAGE]):
            self.of_passage[item.id] = str(item.metadata["message"])
        self.passages = len(self.of_passage)

    def embedder_rate(self, sample: int = BASELINE_SAMPLE) -> tuple[int, float]:
        """(passages, seconds) of the embedder alone on up to `sample` of this chat's passage texts,
        taken evenly across the chat (the newest alone are not its average: chat 1's last 256
        passages are a fifth shorter than its mean, and the model a fifth faster on them)."""
        embedder = getattr(self.memory.embedder, "inner", self.memory.embedder)  # a vector cache: the model itself
        assert embedder is not None
        every = [t for it in self.memory.items(SUBJECT, kinds=[PASSAGE]) if (t := embedded_text(it)) is not None]
        texts = every[:: max(1, len(every) // sample)][:sample]
        started = time.perf_counter()
        embedder.embed(texts)
        return len(texts), time.perf_counter() - started

    def search(self, mode: str, question: str, k: int, now: float) -> list[str]:
        """The BEAM ids of the top `k` messages, best first."""
        if mode == "hybrid":
            hits = self.memory.recall(SUBJECT, question, k=k, now=now)
            return [self.by_item[h.id] for h in hits if h.id in self.by_item]
        if mode == "dense":
            return self._dense(question, k)
        from engram.core import collapse, ranking
        from engram.core.recall import search

        mem = self.memory
        weights = ranking.Weights.single("keyword", recency=mem.weights.recency,
                                         half_life_days=mem.weights.half_life_days)
        hits = search(mem.store, mem.embedder, SUBJECT, question, collapse.wide(k), collapse.searched(mem._filter()),
                      weights, now)
        return [self.by_item[h.id] for h in collapse.collapse(mem.store, hits, k) if h.id in self.by_item]

    def _dense(self, question: str, k: int) -> list[str]:
        embedder = self.memory.embedder
        assert embedder is not None
        ids, matrix = self.memory.admin.vectors(SUBJECT)
        if not len(ids):
            return []
        scores = matrix @ np.asarray(embedder.embed([question])[0], dtype=np.float32)
        out: list[str] = []
        for row in np.argsort(-scores):
            message = self.by_item.get(self.of_passage.get(ids[int(row)], ""))
            if message is not None and message not in out:
                out.append(message)
                if len(out) == k:
                    break
        return out

    def close(self) -> None:
        self.memory.close()


def run(data: str | Path, retrievers: Sequence[str] = ("hybrid",), *, limit: int | None = None,
        embedder: Embedder | str | None = None, folder: str | None = None,
        echo: Callable[[str], None] | None = None, weights: Mapping[str, float] | None = None) -> dict[str, dict[str, Any]]:
    """Ingest each chat once and score every retriever in `retrievers` on it: {retriever: result}.
    `weights` override the hybrid ranking's (an ablation, as `engram bench locomo --weights`)."""
    for name in retrievers:
        if name not in RETRIEVERS:
            raise InvalidInput(f"unknown retriever {name!r}: choose one of {', '.join(RETRIEVERS)}")
    chats = load(data, limit)
    rows: dict[str, list[tuple[Question, list[str]]]] = {r: [] for r in retrievers}
    latencies: dict[str, list[float]] = {r: [] for r in retrievers}
    totals = {"messages": 0, "refused": 0, "redacted": 0, "passages": 0, "ingest_s": 0.0, "base_n": 0,
              "base_s": 0.0}
    model = None
    cached = type(embedder).__name__ == "CachedEmbedder"
    with tempfile.TemporaryDirectory(prefix="engram-beam-", dir=folder) as tmp:
        for chat in chats:
            engine = Engine(str(Path(tmp) / f"chat-{chat.name}.db"), embedder)
            try:
                engine.ingest(chat)
                n, seconds = engine.embedder_rate()
                model = engine.memory.embedder.identity if engine.memory.embedder else None
                totals["messages"] += sum(len(m) for _, m in chat.batches)
                for name, value in (("refused", engine.refused), ("redacted", engine.redacted),
                                    ("passages", engine.passages), ("ingest_s", engine.ingest_s),
                                    ("base_n", n), ("base_s", seconds)):
                    totals[name] += value
                with weighted(engine.memory, weights or {}):
                    for q in chat.questions:
                        for name in retrievers:
                            started = time.perf_counter()
                            ranked = engine.search(name, q.text, max(KS), chat.last_time)
                            latencies[name].append((time.perf_counter() - started) * 1000)
                            rows[name].append((q, ranked))
            finally:
                engine.close()
            if echo is not None:
                echo(f"chat {chat.name}: {sum(len(m) for _, m in chat.batches)} messages, {engine.passages} passages")
    return {name: {**(out := _result(rows[name], latencies[name], totals, name, model, len(chats))),
                   "config": {**out["config"], "vector_cache": cached}} for name in retrievers}


def _result(rows: Sequence[tuple[Question, list[str]]], latencies: Sequence[float], totals: Mapping[str, Any],
            retriever: str, model: str | None, chats: int) -> dict[str, Any]:
    from engram.core.collapse import WIDEN
    from engram.core.passages import MAX_CODE, TARGET

    def mean(values: Iterable[float]) -> float:
        got = list(values)
        return round(sum(got) / len(got), 4) if got else 0.0

    abilities = sorted({q.ability for q, _ in rows})
    fresh = [ok for q, ranked in rows if (ok := newest_first(ranked, q)) is not None]
    return {
        "overall": {f"R@{k}": mean(recall_at(r, q.evidence, k) for q, r in rows) for k in KS},
        "by_ability": {a: {**{f"R@{k}": mean(recall_at(r, q.evidence, k) for q, r in rows if q.ability == a)
                              for k in BY_ABILITY_KS}, "n": sum(1 for q, _ in rows if q.ability == a)}
                       for a in abilities},
        "newest_first": mean(1.0 if ok else 0.0 for ok in fresh),
        "messages": totals["messages"],
        "refused": totals["refused"],
        "redacted": totals["redacted"],
        "ingest_per_s": round(totals["passages"] / totals["ingest_s"], 1) if totals["ingest_s"] else 0.0,
        "embedder_batch_per_s": round(totals["base_n"] / totals["base_s"], 1) if totals["base_s"] else 0.0,
        "latency_ms": percentiles(latencies),
        "config": {"retriever": retriever, "embedder": model, "chats": chats, "questions": len(rows),
                   "passages": totals["passages"], "passage_target_chars": TARGET, "code_block_chars": MAX_CODE,
                   "widen": WIDEN, "knowledge_updates": len(fresh)},
    }
