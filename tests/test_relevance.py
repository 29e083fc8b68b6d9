"""The calibrated relevance (Hit.score): one `min_score` keeps on-topic answers and drops the top
hit of an off-topic question, whatever the store's size (1, 30 or 1,000 facts), on the real
MiniLM embedder. The score is read from the hit's own evidence (cosine, word overlap, residual
cosine, first person and, with the bundled MiniLM, how near the question is to memories rather than
general knowledge), never from the other candidates, so a lone perfect match scores as high
as it does in a full store."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from engram.bench.people import generate
from engram.core import background, ranking
from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.embed.local import MiniLMEmbedder

U = "user:calibrated"
# Questions about nothing a personal or team memory holds.
OFF_TOPIC = ["How do volcanoes form?", "Who wrote War and Peace?",
             "How many moons does Jupiter have?", "When did the Roman empire fall?", "What is quantum entanglement?",
             "Who painted the Mona Lisa?", "How are diamonds made?", "How far away is the Moon?",
             "What is the chemical formula of table salt?", "How do submarines dive?", "Who directed Jurassic Park?"]
# Suite facts and a plain question each (engram/bench/data): the 30-fact store.
ON_TOPIC_SUITE = {"w01": "Which CI do we use?", "w02": "Which database do our backend services run on?",
                  "w03": "What is the frontend written in?"}


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def suite_facts() -> list[dict[str, str]]:
    path = resources.files("engram.bench") / "data" / "suite_facts.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def answer_score(mem: Memory, question: str, answer: str) -> float:
    """The relevance of `answer` among the hits of `question` (it must be recalled)."""
    hits = {h.text: h.score for h in mem.recall(U, question, k=10)}
    assert answer in hits, f"{answer!r} not recalled for {question!r}"
    return hits[answer]


def off_topic_top(mem: Memory) -> list[tuple[float, str, str]]:
    return [(hits[0].score, q, hits[0].text) for q in OFF_TOPIC if (hits := mem.recall(U, q, k=1))]


def separates(on: list[float], off: list[tuple[float, str, str]]) -> None:
    assert all(0.0 <= s <= 1.0 for s in on) and all(0.0 <= s <= 1.0 for s, _, _ in off)
    assert min(on) >= ranking.ON_TOPIC, f"an on-topic answer scored {min(on):.3f}"
    worst = max(off)
    assert worst[0] < ranking.ON_TOPIC, f"off-topic {worst[1]!r} -> {worst[2]!r} scored {worst[0]:.3f}"


@pytest.mark.slow
def test_one_threshold_separates_in_stores_of_1_30_and_1000_facts(tmp_path, minilm) -> None:
    facts = {f["id"]: f["text"] for f in suite_facts()}
    # 1 fact: the only, perfect match must not score low because nothing else is there to compare.
    with Memory(str(tmp_path / "one.db"), embedder=minilm) as mem:
        mem.remember(U, facts["w02"])
        separates([answer_score(mem, ON_TOPIC_SUITE["w02"], facts["w02"])], off_topic_top(mem))
    # 30 facts of the suite.
    thirty = [facts[i] for i in ON_TOPIC_SUITE] + [t for i, t in facts.items() if i not in ON_TOPIC_SUITE][:27]
    with Memory(str(tmp_path / "thirty.db"), embedder=minilm) as mem:
        mem.remember_many(U, thirty)
        separates([answer_score(mem, q, facts[i]) for i, q in ON_TOPIC_SUITE.items()], off_topic_top(mem))
    # 1,000 facts about 200 people, asked by name.
    people = generate(1000, people=200, seed=1)
    with Memory(str(tmp_path / "thousand.db"), embedder=minilm) as mem:
        mem.remember_many(U, [p.text for p in people])
        on = [answer_score(mem, p.questions[0], p.text) for p in people[:40:2]]
        separates(on, off_topic_top(mem))


def test_a_lone_perfect_match_scores_as_high_as_in_a_full_store(tmp_path, minilm) -> None:
    fact = "The team uses Postgres 16 for all backend services."
    question = "Which database do the backend services use?"
    with Memory(str(tmp_path / "alone.db"), embedder=minilm) as alone:
        alone.remember(U, fact)
        lone = answer_score(alone, question, fact)
    with Memory(str(tmp_path / "full.db"), embedder=minilm) as full:
        full.remember_many(U, [fact, *[f["text"] for f in suite_facts()[3:60]]])
        crowded = answer_score(full, question, fact)
    assert lone == pytest.approx(crowded, abs=1e-6) and lone > ranking.ON_TOPIC


@pytest.mark.slow
def test_a_shared_topic_word_alone_does_not_make_a_hit_on_topic(tmp_path, minilm) -> None:
    """Off-topic questions that share their one topic word with a memory stay below the threshold,
    while the memory's own questions, sharing the same word, pass it: the residual cosine tells
    them apart (the words the two share taken out of the query)."""
    cases = {"I booked a holiday in Peru for the second half of October.":
             ("When is my holiday in Peru?", "What is the capital of Peru?"),
             "Drives a 2019 Toyota Corolla hybrid.": ("What car do I drive?", "Who founded Toyota?"),
             "Bruno Chen uses Emacs as a code editor.": ("What text editor does Bruno Chen prefer?", "Who invented Emacs?")}
    with Memory(str(tmp_path / "shared.db"), embedder=minilm) as mem:
        for n, (fact, (on, off)) in enumerate(cases.items()):
            subject = f"user:shared{n}"
            mem.remember(subject, fact)
            answer, top = mem.recall(subject, on, k=1, explain=True)[0], mem.recall(subject, off, k=1, explain=True)[0]
            assert answer.score >= ranking.ON_TOPIC > top.score, (fact, answer.score, top.score)
            assert top.components["overlap"] > 0 and top.components["residual"] < top.components["cosine"]


def test_the_residual_takes_the_shared_words_out_of_the_query() -> None:
    rng = np.random.default_rng(0)
    word, rest = rng.normal(size=8), rng.normal(size=8)
    query, memory = word + 0.1 * rest, word
    assert ranking.residual(query, memory, []) == pytest.approx(ranking.cosine(query, memory))
    assert abs(ranking.residual(query, memory, [word])) < 1e-9  # all they share is the word
    assert ranking.residual(query, memory + rest, [word]) > 0.9  # the rest of the question is in it too


def test_first_person_and_overlap_terms() -> None:
    assert ranking.first_person("Where do I keep the spare key?") and ranking.first_person("Which CI do we use?")
    assert not ranking.first_person("Who invented chess?")
    assert not ranking.first_person("Tell me about the French Revolution.")  # an imperative lead is not the asker
    assert ranking.first_person("Tell me where I work.")
    assert ranking.overlap(ranking.keyword_terms("What's the plot of Hamlet?"), "Sven's hobby is chess.") == 0.0


def test_relevance_grows_with_each_piece_of_evidence() -> None:
    base = ranking.relevance(0.3, 0.5, 0.1, False)
    assert 0.0 < base < 1.0
    assert ranking.relevance(0.3, 0.5, 0.3, False) > base and ranking.relevance(0.3, 0.5, 0.1, True) > base
    assert ranking.relevance(0.5, 0.5, 0.1, False) > base and ranking.relevance(0.3, 1.0, 0.1, False) > base


def test_the_shipped_background_is_what_its_sentences_make(minilm) -> None:
    """engram/data/relevance_background.npz is the two sets of sentences embedded by this MiniLM
    (benchmarks/relevance_background.py rebuilds it)."""
    memories, world = background.sentences(background.MEMORIES), background.sentences(background.WORLD)
    assert len(memories) >= 300 and len(world) >= 100
    shipped = (resources.files("engram") / "data" / background.SHIPPED).read_bytes()
    assert background.same(background.build(minilm, memories, world), shipped)
    assert background.for_embedder(minilm) is background.shipped()


def test_personal_tells_the_askers_life_from_the_world(tmp_path, minilm) -> None:
    """The fifth input: a question about the asker's life or team is nearer the memory sentences
    than the general-knowledge ones, a question about the world the other way round; it lifts
    the score of every hit of the former and is in `explain`."""
    found = background.for_embedder(minilm)
    assert found is not None
    mine = [found.personal(v) for v in minilm.embed(["Which CI do we use?", "When is my dentist appointment?",
                                                      "What does my sister do for a living?"])]
    world = [found.personal(v) for v in minilm.embed(["Who invented chess?", "What is the capital of Peru?",
                                                       "How does a hash table work?"])]
    assert min(mine) > 0 > max(world), (mine, world)
    assert ranking.relevance(0.3, 0.5, 0.1, False, 0.05) > ranking.relevance(0.3, 0.5, 0.1, False, -0.05)
    with Memory(str(tmp_path / "p.db"), embedder=minilm) as mem:
        mem.remember(U, "The CI pipeline runs on GitHub Actions.")
        hit = mem.recall(U, "Which CI do we use?", k=1, explain=True)[0]
        assert hit.components["personal"] == pytest.approx(mine[0], abs=1e-4)
        assert hit.score == pytest.approx(ranking.relevance(hit.components["cosine"], hit.components["overlap"],
                                                            hit.components["residual"], True, mine[0]), abs=1e-6)


def test_another_model_has_no_background_and_keeps_the_four_inputs(tmp_path) -> None:
    hashing = HashingEmbedder()
    assert background.for_embedder(hashing) is None and background.for_embedder(None) is None
    with Memory(str(tmp_path / "h.db"), embedder=hashing) as mem:
        mem.remember(U, "The CI pipeline runs on GitHub Actions.")
        hit = mem.recall(U, "Which CI do we use?", k=1, explain=True)[0]
    assert "personal" not in hit.components
    c = hit.components
    assert hit.score == pytest.approx(ranking.relevance(c["cosine"], c["overlap"], c["residual"], True), abs=1e-9)
