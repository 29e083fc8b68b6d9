"""The fixed store and questions behind tests/test_results_unchanged.py, and the recorded answers.

`build(mem)` fills one subject the way users do: the robustness suite's facts (engram/bench/data)
written with `remember_many`, then synthetic session turns and the last suite facts written one
`remember` at a time, with recalls in between (so the write path updates caches a recall warmed).
`answers(mem)` asks every suite question (k=10, at a fixed time): its top 10 as (text, rank value).

`recall_golden.json` holds the answers of the ranking as issue 13 left it (weighted names, the
keyword length rule), recorded by that branch's code before the speed work was merged into it
(hashing embedder, both backends), re-recorded when misspelt query words started to stand for their
nearest keyword term (engram.store.spelling: 17 of 321 suite questions moved, each with a word
the store does not hold), and when an imperative lead left the keyword query ("Show me ...":
2 questions moved), and when a question about the past started to search every version
(engram.core.earlier: 3 "before"/"old" questions moved), and when the date term's half-life followed the
precision of the date (the 4 questions that name a date moved), and when "this quarter" became a date (1 moved), and when a question about the present started to
search every version and put a replaced fact's successor in its place (engram.core.successors:
with the hashing embedder 162 of the 321 top-10 lists moved, 55 within the top 3 and 6 at the top: a
loosely matching replaced version now brings its successor, and its words count in the keyword statistics); regenerate it only for a
deliberate ranking change:

    python tests/data/recall_golden.py            # SQLite and a private PostgreSQL (tests/pg_server.py)
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

SUBJECT = "user:golden"
T0 = 1_735_689_600.0  # 2025-01-01
DAY = 86_400.0
GOLDEN = Path(__file__).with_name("recall_golden.json")
NAMES = ["Alice", "Bob", "Maria", "Chen", "Priya", "Omar", "Sam"]
TOPICS = ["the deploy", "the Berlin trip", "Postgres 16", "the quarterly report", "dark mode", "the dentist",
          "Spanish lessons", "the new laptop"]


def facts() -> list[dict[str, Any]]:
    lines = resources.files("engram.bench").joinpath("data/suite_facts.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def questions() -> list[str]:
    lines = resources.files("engram.bench").joinpath("data/suite_questions.jsonl").read_text().splitlines()
    return [json.loads(line)["question"] for line in lines if line.strip()]


def turns(n: int = 160) -> list[tuple[str, str]]:
    """(text, session) of n synthetic conversation turns, eight per session."""
    out = []
    for i in range(n):
        who, topic = NAMES[i % len(NAMES)], TOPICS[(i * 3) % len(TOPICS)]
        out.append((f"{who} said, \"I keep thinking about {topic}, part {i}.\"", f"s{i // 8}"))
    return out


def build(mem: Any) -> None:
    """Fill SUBJECT: most suite facts in one batch, then turns and the rest one at a time."""
    suite = facts()
    head, tail = suite[:180], suite[180:]
    mem.remember_many(SUBJECT, [{"text": f["text"], "event_at": T0 + i * DAY} for i, f in enumerate(head)],
                      now=T0 + 200 * DAY)
    asked = questions()
    for i, (text, session) in enumerate(turns()):
        mem.remember(SUBJECT, text, session=session, now=T0 + 201 * DAY + i * 60)
        if i % 20 == 0:
            mem.recall(SUBJECT, asked[i % len(asked)], now=T0 + 201 * DAY + i * 60)
    for i, f in enumerate(tail):
        mem.remember(SUBJECT, f["text"], now=T0 + 210 * DAY + i * 60)
        if i % 10 == 0:
            mem.recall(SUBJECT, asked[(7 * i) % len(asked)], now=T0 + 210 * DAY + i * 60)


def answers(mem: Any) -> dict[str, list[list[Any]]]:
    """Each suite question's top 10 as [text, score], asked the day after the last write."""
    return {q: [[h.item.text, h.rank] for h in mem.recall(SUBJECT, q, k=10, now=T0 + 220 * DAY)]
            for q in dict.fromkeys(questions())}


def record(url: str) -> dict[str, list[list[Any]]]:
    from engram.core.memory import Memory
    from engram.embed.hashing import HashingEmbedder

    with Memory(url, embedder=HashingEmbedder(256)) as mem:
        build(mem)
        return answers(mem)


def compact(recorded: dict[str, Any]) -> str:
    """The answers as JSON with each text written once: {"texts": [...], backend: {question: [[text
    number, score], ...]}}, a line per question."""
    texts = sorted({t for per in recorded.values() for top in per.values() for t, _ in top})
    number = {t: i for i, t in enumerate(texts)}
    lines = ['{"texts": ' + json.dumps(texts, ensure_ascii=False)]
    for backend, per in sorted(recorded.items()):
        rows = [json.dumps(q, ensure_ascii=False) + ": " + json.dumps([[number[t], s] for t, s in top])
                for q, top in per.items()]
        lines.append(f', "{backend}": {{\n' + ",\n".join(rows) + "}")
    return "\n".join(lines) + "}\n"


# How close a score must be to the recorded one. Not 1e-9: float32 cosines differ in their last
# bits from one CPU to another (SIMD width), and a near-tie at the shortlist's cut can then let a
# different turn of the same kind in, which moves its session's evidence, and so a score, by ~1e-4
# (seen on a CI machine: 3.139743 against 3.139367). A changed ranking moves scores far more.
TOLERANCE = 1e-3


def same_top(got: list[list[object]], want: list[list[object]]) -> str | None:
    """None when two top-10 lists agree: the same texts, each at the same score (to TOLERANCE,
    relative), in the same order except among items whose scores tie to that precision. Else what
    differs."""
    if len(got) != len(want):
        return f"{len(got)} hits, recorded {len(want)}"
    for place, ((_, a), (_, b)) in enumerate(zip(got, want)):
        if not math.isclose(float(a), float(b), rel_tol=TOLERANCE, abs_tol=TOLERANCE):  # type: ignore[arg-type]
            return f"place {place + 1}: score {a}, recorded {b}"
    scores = {str(t): float(s) for t, s in want}  # type: ignore[arg-type]
    for text, score in got:
        if str(text) not in scores or not math.isclose(float(score), scores[str(text)], rel_tol=TOLERANCE,  # type: ignore[arg-type]
                                                       abs_tol=TOLERANCE):
            return f"{text!r} is not in the recorded top 10 at its score"
    return None


def load() -> dict[str, dict[str, list[list[Any]]]]:
    """The recorded answers as {backend: {question: [[text, score], ...]}}."""
    raw = json.loads(GOLDEN.read_text())
    texts = raw.pop("texts")
    return {backend: {q: [[texts[i], s] for i, s in top] for q, top in per.items()} for backend, per in raw.items()}


def kept(new: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """The new answers, except that a question whose recorded answer still agrees (`same_top`) keeps
    it: a re-recording then rewrites only the questions that moved, not every score's last bits."""
    return {backend: {q: old[backend][q] if q in old.get(backend, {}) and same_top(top, old[backend][q]) is None
                      else top for q, top in per.items()} for backend, per in new.items()}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from pg_server import fresh_database, postgres_for_tests

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out["sqlite"] = record(str(Path(tmp) / "golden.db"))
    with postgres_for_tests() as base:
        out["postgres"] = record(fresh_database(base))
    GOLDEN.write_text(compact(kept(out, load() if GOLDEN.exists() else {})))
    print(f"wrote {GOLDEN}: {sum(len(v) for v in out.values())} questions")


if __name__ == "__main__":
    main()
