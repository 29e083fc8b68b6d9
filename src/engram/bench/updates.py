"""Knowledge updates: when a fact changes, does recall put the new one first, and can `as_of` still find the old?

Data (written for Engram; engram/bench/data/updates_{train,dev,test}.jsonl, card in
engram/bench/data/UPDATES.md): one JSON object a line, either
- `{"type": "change", "id", "kind", "old", "old_at", "new", "new_at", "question", "as_of"}`: an
  everyday change (a job, a car, a city, a tool, a manager, a number ...), the new fact written
  about two months after the old one in everyday words, a question either answers, and a date
  between the two; or
- `{"type": "fact", "id", "text", "at"}`: an unrelated fact (a distractor).

Protocol: a split's facts go into one subject of a fresh store (`Memory.remember_many`, oldest
first, each date as `event_at` and write time: whatever the store supersedes on the way is what a
user would get); every question is asked on ASKED_DAY (k=10). Scores per change: `newest` (the
new fact ranks first), `as_of` (asked with `as_of` set between the two facts, the old fact ranks
first), `old_reachable` (the old fact is in the top 10, or, if superseded, in the new fact's
`history`). Train, dev and test are separate sets of changes and distractors: fit on train,
choose on dev, report test once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.bench.suite import DAY, _day, _rows, data_text, per_weights
from engram.errors import InvalidInput

if TYPE_CHECKING:
    from engram.core.memory import Memory
    from engram.embed.base import Embedder

K = 10
SUBJECT = "user:updates"
SPLITS = ("train", "dev", "test")
#: The questions are asked this many days after the first day of the data (2025-01-01).
ASKED_DAY = 120


@dataclass(frozen=True)
class Change:
    id: str
    kind: str
    old: str
    old_at: float
    new: str
    new_at: float
    question: str
    as_of: float


@dataclass(frozen=True)
class Fact:
    id: str
    text: str
    at: float


def load(split: str, folder: str | Path | None = None) -> tuple[list[Change], list[Fact]]:
    """A split's changes and distractor facts, from `folder` or the copy shipped with Engram."""
    if split not in SPLITS:
        raise InvalidInput(f"unknown updates split {split!r}: choose from {', '.join(SPLITS)}")
    name = f"updates_{split}.jsonl"
    try:
        rows = _rows(data_text(name, folder), name)
        changes = [Change(str(r["id"]), str(r["kind"]), str(r["old"]), _day(str(r["old_at"])), str(r["new"]),
                          _day(str(r["new_at"])), str(r["question"]), _day(str(r["as_of"])))
                   for r in rows if r["type"] == "change"]
        facts = [Fact(str(r["id"]), str(r["text"]), _day(str(r["at"]))) for r in rows if r["type"] == "fact"]
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"cannot read {name} from {folder or 'the package'}: {exc!r}") from exc
    for c in changes:
        if not c.old_at < c.as_of < c.new_at:
            raise InvalidInput(f"change {c.id}: as_of must fall between the old and the new fact")
    return changes, facts


def run(split: str = "dev", *, data: str | Path | None = None, embedder: Embedder | str | None = None,
        folder: str | Path | None = None, weights: Sequence[Mapping[str, float]] = ({},)) -> dict[str, Any]:
    """One split in a fresh store: newest / as_of / old_reachable top-1 for each of `weights`
    (overrides of the hybrid ranking, the store built once), keyed by their text ("default" for {})."""
    from engram.core.memory import Memory

    changes, facts = load(split, data)
    writes = [(f"{c.id}:old", c.old, c.old_at) for c in changes] + [(f"{c.id}:new", c.new, c.new_at) for c in changes]
    writes += [(f.id, f.text, f.at) for f in facts]
    writes.sort(key=lambda w: w[2])
    now = _day("2025-01-01") + ASKED_DAY * DAY
    out: dict[str, Any] = {"split": split, "changes": len(changes), "facts": len(facts), "k": K, "runs": {}}
    with tempfile.TemporaryDirectory(prefix="engram-updates-", dir=folder) as tmp:
        memory = Memory(str(Path(tmp) / "updates.db"), embedder=embedder or "minilm")
        try:
            saved = memory.remember_many(SUBJECT, [{"text": t, "event_at": at, "now": at} for _, t, at in writes])
            names: dict[str, str] = {}
            superseded = 0
            for (name, _, _), result in zip(writes, saved):
                if result.id is None:
                    raise InvalidInput(f"update fact {name} was not stored: {result.reason}")
                names[result.id] = name
                superseded += len(result.superseded or ())
            out["superseded_on_write"] = superseded
            out["runs"] = per_weights(memory, weights, lambda: _ask(memory, changes, names, now))
        finally:
            memory.close()
    return out


def _ask(memory: Memory, changes: Sequence[Change], names: Mapping[str, str], now: float) -> dict[str, Any]:
    ids = {name: item_id for item_id, name in names.items()}
    newest, as_of, reachable, misses = [], [], [], []
    for c in changes:
        latest = [names.get(h.id, "?") for h in memory.recall(SUBJECT, c.question, k=K, now=now)]
        before = [names.get(h.id, "?") for h in memory.recall(SUBJECT, c.question, k=K, now=now, as_of=c.as_of)]
        history = [names.get(it.id) for it in memory.history(ids[f"{c.id}:new"])]
        newest.append(latest[:1] == [f"{c.id}:new"])
        as_of.append(before[:1] == [f"{c.id}:old"])
        reachable.append(f"{c.id}:old" in latest or f"{c.id}:old" in history)
        if not (newest[-1] and as_of[-1]):
            misses.append({"id": c.id, "kind": c.kind, "newest": newest[-1], "as_of": as_of[-1], "top": latest[:3],
                           "as_of_top": before[:3]})
    n = len(changes)
    return {"newest_top1": round(sum(newest) / n, 4), "as_of_top1": round(sum(as_of) / n, 4),
            "old_reachable": round(sum(reachable) / n, 4), "newest_hits": sum(newest), "as_of_hits": sum(as_of),
            "n": n, "misses": misses}


def summary(result: Mapping[str, Any]) -> str:
    """One line per weights run: newest and as_of top-1 (hits of n), and the old fact's reachability."""
    lines = []
    for label, r in result["runs"].items():
        lines.append(f"updates {result['split']} [{label}]: newest top-1 {r['newest_top1']:.3f} "
                     f"({r['newest_hits']}/{r['n']}), as_of top-1 {r['as_of_top1']:.3f} ({r['as_of_hits']}/{r['n']}),"
                     f" old reachable {r['old_reachable']:.3f}")
    return "\n".join(lines)
