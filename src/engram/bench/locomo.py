"""LoCoMo evidence recall: replay each conversation into its own store, ask its questions, score.

Protocol (Maharana et al., ACL 2024; see docs/benchmarks.md):
- one store per conversation, in a temporary folder; every turn is written through the public
  API (`Memory.remember_many`, one call per session) as one memory with the text
  `<speaker> said, "<text>"` (+ ` and shared <blip_caption>`), kind `episode`, the session's
  time as `event_at`, `session` = the session number;
- each question is asked raw, at the time of the last session;
- R@k = the fraction of a question's evidence turns (dia ids) among the top k results, averaged
  per category and overall; session R@10 = the fraction of its evidence sessions among the
  sessions of the top 10; tokens per query = tokens of the top 10 texts (o200k_base).

The data file is an argument and is never copied: it is CC BY-NC 4.0.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.bench.baselines import Retriever, make_retriever
from engram.bench.report import percentiles
from engram.errors import InvalidInput

if TYPE_CHECKING:
    from engram.embed.base import Embedder

KS = (1, 5, 10, 25, 50)
SESSION_K = 10
TOKENS_K = 10
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


@dataclass(frozen=True)
class Turn:
    """One utterance: its dia id ("D3:7"), session number, speaker, indexed text and time."""

    dia_id: str
    session: int
    speaker: str
    text: str
    at: float


@dataclass(frozen=True)
class Question:
    text: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True)
class Conversation:
    id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    @property
    def last_time(self) -> float:
        return max(t.at for t in self.turns)

    def sessions(self) -> list[list[Turn]]:
        """Turns grouped by session, in order."""
        groups: dict[int, list[Turn]] = {}
        for turn in self.turns:
            groups.setdefault(turn.session, []).append(turn)
        return [groups[n] for n in sorted(groups)]


def turn_text(turn: dict[str, Any]) -> str:
    """The protocol's memory text for one turn."""
    text = f'{turn["speaker"]} said, "{turn["text"]}"'
    if turn.get("blip_caption"):
        text += f' and shared {turn["blip_caption"]}'
    return text


def session_time(raw: str) -> float:
    """'1:56 pm on 8 May, 2023' as UNIX seconds (read as UTC)."""
    return datetime.strptime(raw.strip(), DATE_FORMAT).replace(tzinfo=timezone.utc).timestamp()


def evidence_ids(raw: Iterable[str], known: set[str]) -> tuple[str, ...]:
    """Normalised evidence ids ("D8:6; D9:17" splits in two); ids of missing turns are dropped."""
    found = [f"D{int(a)}:{int(b)}" for text in raw for a, b in EVIDENCE.findall(str(text))]
    return tuple(d for d in dict.fromkeys(found) if d in known)


def load(path: str | Path) -> list[Conversation]:
    """Conversations from a LoCoMo-format JSON file (a list of samples)."""
    try:
        samples = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"cannot read LoCoMo data from {path}: {exc}") from exc
    if not isinstance(samples, list) or not samples:
        raise InvalidInput(f"{path} is not LoCoMo data: expected a non-empty JSON list of samples")
    return [_conversation(sample, i) for i, sample in enumerate(samples)]


def _conversation(sample: dict[str, Any], index: int) -> Conversation:
    conv = sample.get("conversation") or {}
    turns: list[Turn] = []
    n = 1
    while f"session_{n}" in conv:
        at = session_time(conv[f"session_{n}_date_time"])
        turns += [Turn(t["dia_id"], n, t["speaker"], turn_text(t), at) for t in conv[f"session_{n}"]]
        n += 1
    if not turns:
        raise InvalidInput(f"sample {index} has no session_1: is this a LoCoMo file?")
    known = {t.dia_id for t in turns}
    questions = tuple(
        Question(q["question"], evidence_ids(q.get("evidence", []), known), int(q.get("category", 0)))
        for q in sample.get("qa", [])
    )
    return Conversation(str(sample.get("sample_id", index)), tuple(turns), questions)


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """The fraction of `evidence` among the first k of `ranked`."""
    top = set(ranked[:k])
    return sum(1 for e in evidence if e in top) / len(evidence)


def session_of(dia_id: str) -> str:
    return dia_id.split(":", 1)[0]


def score_question(ranked: Sequence[str], evidence: Sequence[str]) -> dict[str, float]:
    """R@k for every k in KS and session-level R@10 for one question."""
    out = {f"R@{k}": recall_at(ranked, evidence, k) for k in KS}
    out["session_R@10"] = recall_at([session_of(d) for d in ranked[:SESSION_K]],
                                     list(dict.fromkeys(session_of(e) for e in evidence)), SESSION_K)
    return out


def _mean(rows: Sequence[dict[str, float]]) -> dict[str, Any]:
    keys = [f"R@{k}" for k in KS] + ["session_R@10"]
    out: dict[str, Any] = {key: round(float(np.mean([r[key] for r in rows])), 4) for key in keys}
    out["n"] = len(rows)
    return out


def ask(engine: Retriever, conv: Conversation) -> Iterator[tuple[Question, list[tuple[str, str]], float]]:
    """Each question of `conv` that has evidence, asked raw at the time of the last session:
    (question, the top max(KS) (dia id, text) pairs, milliseconds the search took)."""
    now = conv.last_time
    for q in conv.questions:
        if q.evidence:
            t0 = time.perf_counter()
            ranked = engine.search(q.text, max(KS), now)
            yield q, ranked, (time.perf_counter() - t0) * 1000


def run(
    path: str | Path,
    retriever: str = "hybrid",
    *,
    embedder: Embedder | str | None = None,
    limit: int | None = None,
    folder: str | Path | None = None,
    echo: Callable[[str], None] | None = None,
    weights: Mapping[str, float] | None = None,
    store: str | None = None,
    detail: bool = False,
) -> dict[str, Any]:
    """Run the benchmark with one retriever; the JSON-ready result (see the module docstring).

    `weights` overrides terms of the hybrid ranking (ablations: {"entity": 0.0}); `store`: a
    postgresql:// URL to run on PostgreSQL instead, one fresh database per conversation (created
    on that server and dropped afterwards); `detail` adds every question's scores (`questions`,
    in file order: paired comparisons of two runs)."""
    from engram.bench.scratch import check_server, scratch_store, store_kind

    check_server(store)
    conversations = load(path)[:limit] if limit else load(path)
    from engram.tokens import TiktokenCounter

    counter = TiktokenCounter("o200k_base")
    scored: list[tuple[int, dict[str, float]]] = []
    latencies: list[float] = []
    tokens: list[int] = []
    ingest_s = 0.0
    turns = 0
    rejected = 0
    with tempfile.TemporaryDirectory(prefix="engram-locomo-", dir=folder) as tmp:
        for conv in conversations:
            with scratch_store(store, Path(tmp), _safe(conv.id)) as url:
                engine: Retriever = make_retriever(retriever, url, embedder, weights)
                try:
                    t0 = time.perf_counter()
                    engine.ingest(conv)
                    ingest_s += time.perf_counter() - t0
                    turns += len(conv.turns)
                    for q, ranked, ms in ask(engine, conv):
                        latencies.append(ms)
                        scored.append((q.category, score_question([d for d, _ in ranked], q.evidence)))
                        tokens.append(sum(counter.count(text) for _, text in ranked[:TOKENS_K]))
                finally:
                    rejected += int(engine.config().get("rejected_turns", 0))
                    engine.close()
            if echo:
                echo(f"{conv.id}: {len(conv.turns)} turns, {len(conv.questions)} questions")
    result = _result(path, retriever, engine, conversations, scored, latencies, tokens, turns, ingest_s)
    result["config"]["store"] = store_kind(store)
    if "rejected_turns" in result["config"]:
        result["config"]["rejected_turns"] = rejected
    if detail:
        result["questions"] = [{"category": CATEGORIES.get(c, str(c)), **{k: round(v, 4) for k, v in row.items()}}
                               for c, row in scored]
    return result


def _result(path: str | Path, retriever: str, engine: Retriever, conversations: Sequence[Conversation],
            scored: list[tuple[int, dict[str, float]]], latencies: list[float], tokens: list[int],
            turns: int, ingest_s: float) -> dict[str, Any]:
    by_category = {}
    for number, name in CATEGORIES.items():
        rows = [r for c, r in scored if c == number]
        if rows:
            by_category[name] = _mean(rows)
    return {
        "n": len(scored),
        "overall": _mean([r for _, r in scored]),
        "by_category": by_category,
        "latency_ms": percentiles(latencies),
        "ingest_per_s": round(turns / ingest_s, 1) if ingest_s else 0.0,
        "tokens_per_query": round(float(np.mean(tokens)), 1) if tokens else 0.0,
        "config": {
            "retriever": retriever,
            **engine.config(),
            "data": Path(path).name,
            "data_sha256": _sha256(path)[:16],
            "conversations": len(conversations),
            "turns": turns,
            "questions_skipped_no_evidence": sum(len(c.questions) for c in conversations) - len(scored),
            "tokens_at_k": TOKENS_K,
            "token_encoding": "o200k_base",
        },
    }


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "conversation"


def _sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
