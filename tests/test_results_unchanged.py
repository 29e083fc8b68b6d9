"""The speed work changes no result: the same store and questions give the same top 10, with the
same scores, as the code before it (tests/data/recall_golden.json, recorded by
tests/data/recall_golden.py), on both backends; and the fast paths (a cache grown in place by
writes, a repeated query's cached embedding, buffered access counts) answer exactly as a cold
Memory opened on the same store does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "data"))

import recall_golden as golden

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder


@pytest.fixture(scope="module")
def recorded() -> dict[str, dict[str, list[list[object]]]]:
    return golden.load()


def test_every_suite_question_ranks_as_before(store_url: str, backend: str, recorded) -> None:
    with Memory(store_url, embedder=HashingEmbedder(256)) as mem:
        golden.build(mem)
        now = golden.answers(mem)
    want = recorded[backend]
    assert set(now) == set(want)
    problems = {q: p for q in want if (p := golden.same_top(now[q], want[q])) is not None}
    assert not problems, f"{len(problems)} of {len(want)} questions changed, e.g. {list(problems.items())[:3]}"
