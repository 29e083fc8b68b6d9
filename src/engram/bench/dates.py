"""Dates in questions: among look-alike episodes on different days, does the one on the named date rank first?

Data (written for Engram; engram/bench/data/dates_{train,dev,test}.jsonl, card in
engram/bench/data/DATES.md): one JSON object a line, either
- `{"type": "now", "at"}`: when the split's questions are asked (ISO, UTC);
- `{"type": "episode", "id", "text", "at"}`: something the user did, at that time: the same few
  activities recur on many days in nearly the same words (the gym, dinner at the parents', a call);
- `{"type": "question", "id", "question", "answers"}`: a question that names a date the way people
  write one ("on 4 March", "2025-02-26", "11/02/2025", "last Friday", "the day before yesterday",
  "about three weeks ago", "in January") and the episode(s) on that date that answer it.

Protocol: a split's episodes go into one subject of a fresh store (`Memory.remember_many`, kind
`episode`, each time as `event_at` and write time); every question is asked at the split's `now`
(k=10). Scores: `top1` (an answer ranks first) and `top3`. Train, dev and test hold different
activities, dates and phrasings: fit on train, choose on dev, report test once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.bench.suite import _rows, data_text, per_weights
from engram.errors import InvalidInput
from engram.validate import timestamp

if TYPE_CHECKING:
    from engram.embed.base import Embedder

K = 10
SUBJECT = "user:dates"
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class Episode:
    id: str
    text: str
    at: float


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Split:
    name: str
    now: float
    episodes: tuple[Episode, ...]
    questions: tuple[Question, ...]


def load(split: str, folder: str | Path | None = None) -> Split:
    """A split's `now`, episodes and questions, from `folder` or the copy shipped with Engram."""
    if split not in SPLITS:
        raise InvalidInput(f"unknown dates split {split!r}: choose from {', '.join(SPLITS)}")
    name = f"dates_{split}.jsonl"
    try:
        rows = _rows(data_text(name, folder), name)
        now = next(timestamp(str(r["at"])) for r in rows if r["type"] == "now")
        episodes = tuple(Episode(str(r["id"]), str(r["text"]), timestamp(str(r["at"])))
                         for r in rows if r["type"] == "episode")
        questions = tuple(Question(str(r["id"]), str(r["question"]), tuple(str(a) for a in r["answers"]))
                          for r in rows if r["type"] == "question")
    except (OSError, KeyError, TypeError, ValueError, StopIteration) as exc:
        raise InvalidInput(f"cannot read {name} from {folder or 'the package'}: {exc!r}") from exc
    known = {e.id for e in episodes}
    for q in questions:
        if not q.answers or set(q.answers) - known:
            raise InvalidInput(f"dates question {q.id} names unknown answers {sorted(set(q.answers) - known)}")
    return Split(split, now, episodes, questions)


def run(split: str = "dev", *, data: str | Path | None = None, embedder: Embedder | str | None = None,
        folder: str | Path | None = None, weights: Sequence[Mapping[str, float]] = ({},)) -> dict[str, Any]:
    """One split in a fresh store: top-1 / top-3 for each of `weights` (overrides of the hybrid
    ranking, the store built once), keyed by their text ("default" for {})."""
    from engram.core.memory import Memory

    loaded = load(split, data)
    episodes = sorted(loaded.episodes, key=lambda e: e.at)
    out: dict[str, Any] = {"split": split, "episodes": len(episodes), "questions": len(loaded.questions), "k": K,
                           "runs": {}}
    with tempfile.TemporaryDirectory(prefix="engram-dates-", dir=folder) as tmp:
        memory = Memory(str(Path(tmp) / "dates.db"), embedder=embedder or "minilm")
        try:
            saved = memory.remember_many(SUBJECT, [{"text": e.text, "kind": "episode", "event_at": e.at, "now": e.at}
                                                   for e in episodes])
            names: dict[str, str] = {}
            for episode, result in zip(episodes, saved):
                if result.id is None or result.id in names:
                    raise InvalidInput(f"dates episode {episode.id} was not stored on its own: {result.reason}")
                names[result.id] = episode.id
            out["runs"] = per_weights(memory, weights, lambda: _ask(memory, loaded, names))
        finally:
            memory.close()
    return out


def _ask(memory: Any, split: Split, names: Mapping[str, str]) -> dict[str, Any]:
    top1, top3, misses = [], [], []
    for q in split.questions:
        ranked = [names.get(h.id, "?") for h in memory.recall(SUBJECT, q.text, k=K, now=split.now)]
        top1.append(ranked[:1] != [] and ranked[0] in q.answers)
        top3.append(any(r in q.answers for r in ranked[:3]))
        if not top1[-1]:
            misses.append({"id": q.id, "question": q.text, "answers": list(q.answers), "top": ranked[:3]})
    n = len(split.questions)
    return {"top1": round(sum(top1) / n, 4), "top3": round(sum(top3) / n, 4), "top1_hits": sum(top1), "n": n,
            "misses": misses}


def summary(result: Mapping[str, Any]) -> str:
    """One line per run: the split, top-1 and top-3, and the questions missed."""
    lines = []
    for label, run_ in result["runs"].items():
        lines.append(f"{result['split']} [{label}]: top-1 {run_['top1_hits']}/{run_['n']} ({run_['top1']:.3f}), "
                     f"top-3 {run_['top3']:.3f}")
        lines += [f"  missed {m['id']}: {m['question']!r} -> {m['top']}" for m in run_["misses"]]
    return "\n".join(lines)
