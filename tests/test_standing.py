"""A user's standing instruction in a conversation comes with the questions it applies to
(engram.core.standing), on every backend, with the real model."""

from __future__ import annotations

import pytest

from engram.core import standing
from engram.core.memory import Memory

APA = "Always use APA 7th edition citation style when I ask about formatting references."
EMOJI = "Never use emojis when I ask about writing cover letters."
QUESTION = "How should I list the sources I used in my paper?"


def chat() -> list[dict[str, object]]:
    """Two standing instructions among many messages on the question's topic that outrank them."""
    messages: list[dict[str, object]] = [{"role": "user", "content": APA, "id": "apa"},
                                         {"role": "assistant", "content": "Understood, APA it is.", "id": "ok"},
                                         {"role": "user", "content": EMOJI, "id": "emoji"}]
    for n in range(12):
        messages.append({"role": "user", "id": f"q{n}",
                         "content": f"I have {n + 20} sources for chapter {n} of my paper; how do I list the sources "
                                    f"I used for it, by author or by date?"})
        messages.append({"role": "assistant", "id": f"a{n}",
                         "content": f"For chapter {n}, list the sources you used in your paper alphabetically."})
    return messages


@pytest.fixture
def real(store_url: str, minilm):
    mem = Memory(store_url, embedder=minilm)
    mem.add_messages("user:1", chat(), session="s1", at="2024-03-15T09:00:00Z")
    yield mem
    mem.close()


def ids(hits) -> list[str]:
    return [h.item.metadata.get("message_id") for h in hits]


def test_only_a_users_instruction_is_marked_on_its_message_and_passages(real):
    marked = {it.metadata.get("message_id") or it.metadata.get("message")
              for it in real.items("user:1", kinds=["message", "passage"]) if it.metadata.get(standing.MARK)}
    messages = {it.id: it.metadata["message_id"] for it in real.items("user:1", kinds=["message"])}
    assert {messages.get(m, m) for m in marked} == {"apa", "emoji"}
    assert standing.instructs("  Please always answer in British English.") and not standing.instructs(
        "I always answer emails in the morning.")


def test_the_instruction_a_question_falls_under_is_placed_third(real, monkeypatch):
    placed = real.recall("user:1", QUESTION, k=10, explain=True)
    assert ids(placed).index("apa") == standing.PLACE - 1 and "emoji" not in ids(placed)
    hit = placed[standing.PLACE - 1]
    assert hit.components["standing_place"] == pytest.approx(hit.rank)
    assert hit.passage == APA and 0.0 <= hit.score <= 1.0
    ranks = [h.rank for h in placed]
    assert ranks == sorted(ranks, reverse=True)
    # a single best answer stays the best answer; a filter without messages finds none
    assert "apa" not in ids(real.recall("user:1", QUESTION, k=standing.PLACE - 1))
    assert real.recall("user:1", QUESTION, k=10, kinds=["fact"]) == []
    # on its own rank it is far down: the chapter messages say more about sources and papers
    monkeypatch.setattr(standing, "PLACE_COSINE", 2.0)
    assert "apa" not in ids(real.recall("user:1", QUESTION, k=10))


def test_no_instruction_is_placed_for_a_question_none_applies_to(real):
    hits = real.recall("user:1", "How many chapters does my paper have?", k=10, explain=True)
    assert not any("standing_place" in h.components for h in hits)


def test_a_forgotten_instruction_is_never_placed(real):
    assert "apa" in ids(real.recall("user:1", QUESTION, k=10))
    apa = next(it for it in real.items("user:1", kinds=["message"]) if it.metadata["message_id"] == "apa")
    real.forget_ids("user:1", [apa.id])
    assert "apa" not in ids(real.recall("user:1", QUESTION, k=10))


def test_two_equally_close_instructions_place_neither(store_url: str, minilm):
    mem = Memory(store_url, embedder=minilm)
    try:
        twin = APA.replace("APA 7th edition", "APA 7th-edition")
        mem.add_messages("user:2", [{"role": "user", "content": APA, "id": "a"},
                                    {"role": "user", "content": twin, "id": "b"},
                                    *chat()[3:]], session="s1", at="2024-03-15T09:00:00Z")
        hits = mem.recall("user:2", QUESTION, k=10, explain=True)
        assert not any("standing_place" in h.components for h in hits)
    finally:
        mem.close()


def test_the_marked_ids_follow_writes_and_forgetting(real):
    model = real.embedder.identity
    before = standing.marked_ids(real.store, "user:1", model)
    assert len(before) == 2  # APA and the emojis, one passage each
    real.add_messages("user:1", [{"role": "user", "content": "From now on, answer in bullet points.", "id": "bullets"}],
                      session="s2")
    after = standing.marked_ids(real.store, "user:1", model)  # read from the new items only
    assert after[:2] == before and len(after) == 3
    bullets = next(it for it in real.items("user:1", kinds=["message"]) if it.metadata["message_id"] == "bullets")
    real.forget_ids("user:1", [bullets.id])
    assert set(standing.marked_ids(real.store, "user:1", model)) == set(before)  # looked up again


def test_an_instruction_is_compared_by_what_it_applies_to(store_url, minilm):
    assert standing.condition(APA) == "formatting references"
    assert standing.condition("Always include tree diagrams if I ask for help with dependent events!") == \
        "help with dependent events"
    assert standing.condition("Never use emojis.") is None
    mem = Memory(store_url, embedder=minilm)
    try:
        # What it asks for (diagrams, tables) is far from the question; what it applies to is not.
        mem.add_messages("user:1", [
            {"role": "user", "id": "odds", "content": "Always include visual aids like tree diagrams and tables when I"
                                                      " ask about dependent event probability problems."},
            {"role": "user", "id": "cv", "content": "Always keep it to one page when I ask about my résumé."},
            *({"role": "user", "id": f"d{n}", "content": f"Problem {n}: two draws from a deck of {n + 20} cards without"
                                                           " replacement are dependent events; how likely are two hearts?"}
              for n in range(30)),  # on the question's topic: they outrank the instruction on their own
        ], at="2024-03-15T09:00:00Z")
        question = "How likely are two dependent events, like two draws from a deck without replacement?"
        hits = mem.recall("user:1", question, k=5, explain=True)
        placed = hits[standing.PLACE - 1]
        assert ids(hits)[standing.PLACE - 1] == "odds" and "standing_place" in placed.components
        asked, applies_to = minilm.embed([question, "dependent event probability problems"])
        assert placed.components["cosine"] == pytest.approx(float(asked @ applies_to), abs=1e-4)
    finally:
        mem.close()
