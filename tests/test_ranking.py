"""Ranking is pure: z-scores, fusion, context, session evidence, recency, the score contract."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import numpy as np
import pytest

from engram.core import frames, names, ranking
from engram.core.ranking import DAY, Signals, Weights
from engram.types import Item

KEYS = {"vector", "keyword", "context", "entity", "time", "date", "question", "session", "focus", "recency",
        "diversity", "cosine", "overlap", "residual", "first_person"}


def item(name: str, *, at: float = 0.0, session: str | None = None) -> Item:
    return Item(id=name, subject="user:1", text=f"text of {name}", event_at=at, session=session)


def test_standardise_counts_unlisted_items_as_zero():
    z, floor = ranking.standardise({"a": 3.0, "b": 1.0}, population=4)  # values 3, 1, 0, 0
    values = np.array([3.0, 1.0, 0.0, 0.0])
    expected = (values - values.mean()) / values.std()
    assert z["a"] == pytest.approx(expected[0]) and z["b"] == pytest.approx(expected[1])
    assert floor == pytest.approx(expected[2])


def test_standardise_of_a_flat_population_is_zero():
    assert ranking.standardise({"a": 2.0, "b": 2.0}) == ({"a": 0.0, "b": 0.0}, 0.0)
    assert ranking.standardise({}) == ({}, 0.0)
    z, _, _ = ranking.standardise_array(np.ones(5))
    assert not z.any()


def test_a_near_flat_cosine_spread_is_not_blown_up():
    z, _, std = ranking.standardise_array(np.array([0.50, 0.51]), min_std=ranking.VECTOR_MIN_STD)
    assert std == ranking.VECTOR_MIN_STD and abs(z[1] - z[0]) == pytest.approx(0.2)


def test_fuse_components_follow_the_contract_and_sum_to_the_score():
    items = [item("a"), item("b")]
    signals = Signals(vector={"a": 2.0, "b": 0.5}, keyword={"a": 1.0})
    weights = Weights(vector=1.0, keyword=0.5, recency=0.0, session=0.0, keyword_words=0.0)
    hits = ranking.fuse(items, signals, now=0.0, weights=weights)
    assert [h.id for h in hits] == ["a", "b"]
    assert set(hits[0].components) == KEYS
    assert hits[0].components["vector"] == pytest.approx(2.0)
    assert hits[0].components["keyword"] == pytest.approx(0.5)
    for hit in hits:
        assert hit.rank == pytest.approx(sum(hit.components[t] for t in ranking.TERMS))


def test_context_lets_an_answer_borrow_from_its_question():
    # b matches nothing itself, but the turn before it (a) matches strongly; c has no neighbours.
    items = [item("a", session="s1"), item("b", session="s1"), item("c")]
    signals = Signals(vector={"a": 3.0, "b": 0.2, "c": 0.4}, neighbours={"b": ("a", None)})
    hits = {h.id: h for h in ranking.fuse(items, signals, 0.0, Weights(session=0.0, recency=0.0))}
    assert hits["b"].components["context"] == pytest.approx(Weights().context * ranking.PREVIOUS_SHARE * 3.0)
    assert hits["b"].rank > hits["c"].rank
    assert hits["c"].components["context"] == 0.0


def test_session_evidence_lifts_the_turns_of_a_matching_session():
    items = [item("a", session="s1"), item("b", session="s1"), item("c", session="s2"), item("d", session="s2")]
    signals = Signals(vector={"a": 3.0, "b": 0.5, "c": 0.6, "d": 0.1})
    on = {h.id: h for h in ranking.fuse(items, signals, 0.0, Weights(recency=0.0, context=0.0))}
    off = {h.id: h for h in ranking.fuse(items, signals, 0.0, Weights(recency=0.0, context=0.0, session=0.0))}
    assert off["c"].rank > off["b"].rank  # on its own, c beats b
    assert on["b"].rank > on["c"].rank  # b's session holds the best match
    assert on["a"].components["session"] == on["b"].components["session"] > 0


def test_items_without_a_session_get_no_session_term():
    items = [item("a"), item("b")]
    hits = ranking.fuse(items, Signals(vector={"a": 1.0, "b": -1.0}), 0.0)
    assert all(h.components["session"] == 0.0 for h in hits)


def test_recency_breaks_ties_by_default_and_reorders_when_raised():
    old, new = item("old", at=0.0), item("new", at=300 * DAY)
    signals = Signals(vector={"old": 1.2, "new": 1.0})
    now = 300 * DAY
    default = ranking.fuse([old, new], signals, now)
    assert [h.id for h in default] == ["old", "new"]  # the better match wins
    raised = ranking.fuse([old, new], signals, now, Weights(recency=2.0))
    assert [h.id for h in raised] == ["new", "old"]
    tie = ranking.fuse([old, new], Signals(vector={"old": 1.0, "new": 1.0}), now)
    assert tie[0].id == "new"


def test_recency_halves_every_half_life():
    assert ranking.recency(0.0, 10 * DAY, 10) == pytest.approx(0.5)
    assert ranking.recency(5 * DAY, 0.0, 10) == 1.0  # a future event counts as now
    assert ranking.recency(0.0, DAY, 0) == 0.0


def test_prerank_scores_only_lift_with_neighbours():
    # Three candidates in a row: values in rows (previous, self, next).
    vector = np.array([[0.0, 3.0, -1.0], [3.0, -1.0, -2.0], [-1.0, -2.0, 0.0]])
    present = np.array([[False, True, True], [True, True, True], [True, True, False]])
    scores = ranking.prerank_scores(vector, np.zeros_like(vector), present, Weights(keyword=0.0))
    assert (scores >= vector[1]).all()
    assert scores[0] == pytest.approx(3.0)  # no previous item; next (-1) is below average: no lift
    assert scores[1] == pytest.approx(-1.0 + Weights().context * ranking.PREVIOUS_SHARE * 3.0)
    assert scores[2] == pytest.approx(-2.0)


def test_single_signal_weights():
    w = Weights.single("keyword", recency=0.5)
    assert (w.keyword, w.vector, w.context, w.session, w.recency) == (1.0, 0.0, 0.0, 0.0, 0.5)


def test_top_k_and_min_score():
    signals = Signals(vector={"a": 2.0, "b": -1.0}, cosines={"a": 0.8, "b": 0.1}, terms=("a",))
    hits = ranking.fuse([item("a"), item("b")], signals, 0.0)
    assert [h.id for h in ranking.top_k(hits, 1)] == ["a"]
    assert [h.id for h in ranking.top_k(hits, 5, min_score=ranking.ON_TOPIC)] == ["a"]  # the relevance, 0..1
    assert all(0.0 < h.score < 1.0 for h in hits)


@pytest.mark.parametrize(("query", "terms", "when"), [
    ("Tell me where I work.", ["work"], False),
    ("Show me an example of a Lambda handler", ["example", "lambda", "handler"], False),
    ("Can you tell me when the book club meets?", ["book", "club", "meets"], True),
    ("Remind me when the dentist is", ["dentist"], True),
    ("please give us the deploy steps", ["deploy", "steps"], False),
    ("Tell me about our internal CLI.", ["internal", "cli"], False),
    ("Show tickets?", ["show", "tickets"], False),  # no "me" / "us": not a lead
    ("Tell me.", ["tell"], False),  # nothing else: kept
])
def test_an_imperative_lead_is_read_as_a_question(query: str, terms: list[str], when: bool):
    assert ranking.keyword_terms(query) == terms
    assert ranking.asks_when(query) is when
    assert "show" in ranking.QUESTION_WORDS and "remind" in names.NOT_NAMES  # the one table of question cues


def test_keyword_terms_drop_stop_words_but_never_everything():
    assert ranking.keyword_terms("Which database does the team use?") == ["database", "team", "use"]
    assert ranking.keyword_terms("what is it") == ["what", "is", "it"]


def _book(*texts: str) -> names.SubjectNames:
    book = names.SubjectNames()
    book.add(*((str(n), text) for n, text in enumerate(texts)))
    return book


def test_speakers_of_stored_turns_are_names():
    assert names.read_text('Melanie said, "I painted a sunrise."') == names.Naming(
        "melanie", True, frozenset({"said", "painted", "sunrise"}))
    book = _book('Melanie said, "Hi!"', "Bob: see you at 5", 'Caroline asked, "Where?"')
    assert book.names() == {"melanie", "bob", "caroline"}
    assert book.mentioned("What do Melanie's kids like?") == {"melanie"}
    assert book.mentioned("would caroline pursue writing?") == {"caroline"}


def test_capital_letters_alone_make_no_name():
    book = _book("The CI pipeline runs on GitHub Actions.", "Deploys go to AWS Lambda with Python 3.12.",
                 "Team uses Postgres 16 for all services.", "Alice prefers dark mode in every editor.",
                 "Visual Studio Code is the editor; the code is on GitHub.", "New York is where the new office is.")
    assert book.names() == frozenset()
    for query in ("Which CI do we use?", "Show me an example of a Lambda handler in Python",
                  "Does the Team use Postgres?", "What does Alice prefer?", "Is VS Code used?"):
        assert book.mentioned(query) == frozenset()


def test_a_full_name_is_one_entity_and_its_first_name_a_name_too():
    book = _book("Bruno Chen uses Emacs as a code editor.", "Bruno Sharma uses Sublime Text as a code editor.")
    assert book.names() == {"bruno chen", "bruno sharma", "bruno"}
    assert book.mentioned("What text editor does Bruno Chen prefer?") == {"bruno chen"}
    assert book.mentioned("what text editor does BRUNO CHEN prefer") == {"bruno chen"}
    assert book.mentioned("What does Bruno use?") == {"bruno"}
    chen = Item(id="c", subject="user:1", text="Bruno Chen uses Emacs as a code editor.")
    sharma = Item(id="s", subject="user:1", text="Bruno Sharma uses Sublime Text as a code editor.")
    assert ranking.leads_with(chen.text, frozenset({"bruno chen"}))
    assert not ranking.leads_with(sharma.text, frozenset({"bruno chen"}))
    assert ranking.leads_with(sharma.text, frozenset({"bruno"}))


def test_a_forgotten_item_takes_its_names_with_it(tmp_path):
    from engram.core.memory import Memory

    with Memory(str(tmp_path / "n.db"), embedder="hashing") as mem:
        hi, bye, plain = (mem.remember("user:1", t, kind="episode").id
                          for t in ('Melanie said, "Hi!"', 'Melanie said, "Bye!"', 'Bob: see you'))
        model = mem.embedder.identity

        def book() -> names.SubjectNames:
            return names.book(mem.store, "user:1", model, mem.admin.vectors("user:1")[0])

        assert book().names() == {"melanie", "bob"}
        assert set(book().led(frozenset({"melanie"}), 10)) == {hi, bye}
        mem.forget_ids("user:1", [hi])
        assert book().names() == {"melanie", "bob"}
        assert set(book().led(frozenset({"melanie"}), 10)) == {bye}  # a forgotten item is no longer led
        mem.forget_ids("user:1", [bye, plain])
        assert book().names() == frozenset()
        mem.remember("user:1", 'Ana said, "Hello"', kind="episode")  # written after: read as a delta
        assert book().names() == {"ana"}
        assert mem.stats()["cache"]["names"]["entries"] == 1


def test_a_word_the_subject_writes_in_lower_case_is_not_part_of_a_name():
    book = _book("Grace Hopper wrote the first compiler.", "Her grace under pressure was noted.")
    assert "grace hopper" not in book.names()


def test_an_item_that_leads_with_a_named_entity_gets_the_entity_term():
    alice = Item(id="a", subject="user:1", text="Alice said, \"I love hiking.\"")
    bob = Item(id="b", subject="user:1", text="Bob said, \"Alice loves hiking.\"")
    signals = Signals(vector={"a": 1.0, "b": 1.0}, names=_book(alice.text, bob.text).mentioned("What does Alice love?"))
    hits = {h.id: h for h in ranking.fuse([alice, bob], signals, 0.0, Weights(recency=0.0))}
    assert hits["a"].components["entity"] == Weights().entity and hits["b"].components["entity"] == 0.0
    assert hits["a"].rank > hits["b"].rank


def test_the_vector_query_leaves_the_names_to_the_entity_term():
    assert ranking.vector_query("What do Melanie's kids like?", frozenset({"melanie"})) == "What do kids like?"
    assert ranking.vector_query("what does bruno chen use?", frozenset({"bruno chen"})) == "what does use?"
    assert ranking.vector_query("Which database does the team use?", frozenset()) == "Which database does the team use?"
    assert ranking.vector_query("Alice?", frozenset({"alice"})) == "Alice?"  # nothing else left: keep it


def test_a_when_question_lifts_memories_that_state_a_time():
    assert ranking.asks_when("When did Melanie paint a sunrise?") and not ranking.asks_when("What did Melanie paint?")
    dated = Item(id="a", subject="user:1", text="I painted a sunrise last year.")
    plain = Item(id="b", subject="user:1", text="I painted a sunrise.")
    signals = Signals(vector={"a": 1.0, "b": 1.0}, asks_when=True)
    hits = {h.id: h for h in ranking.fuse([dated, plain], signals, 0.0, Weights(recency=0.0))}
    assert hits["a"].components["time"] == Weights().time and hits["b"].components["time"] == 0.0
    assert hits["a"].rank > hits["b"].rank
    other = ranking.fuse([dated, plain], Signals(vector={"a": 1.0, "b": 1.0}), 0.0, Weights(recency=0.0))
    assert all(h.components["time"] == 0.0 for h in other)


def test_query_dates_read_a_day_a_month_or_a_year():
    def day(text: str) -> float:
        return datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=timezone.utc).timestamp()

    now = day("2024-01-10")
    assert ranking.query_dates("What did Gina find on 1 February, 2023?", now) == ((day("2023-02-01"), day("2023-02-02")),)
    assert ranking.query_dates("Which painting, October 13th, 2023?", now) == ((day("2023-10-13"), day("2023-10-14")),)
    assert ranking.query_dates("What happened in December 2023?", now) == ((day("2023-12-01"), day("2024-01-01")),)
    assert ranking.query_dates("Beach trips in 2022?", now) == ((day("2022-01-01"), day("2023-01-01")),)
    assert ranking.query_dates("On 31 February, 2023?", now) == ()  # no such day
    # No year: the latest May by `now`.
    assert ranking.query_dates("What did Melanie paint in May?", now) == ((day("2023-05-01"), day("2023-06-01")),)
    assert ranking.query_dates("What did Melanie paint?", now) == ()


def test_the_date_term_prefers_memories_from_the_named_date():
    spans = ranking.query_dates("What did I cook on 3 July, 2023?", 0.0)
    start = spans[0][0]
    assert ranking.date_match(start + 3600, spans) == 1.0
    # A day named to the day: half a day past its end is half as likely.
    assert ranking.date_match(start + DAY + ranking.DATE_HALF_LIFE_MIN_DAYS * DAY, spans) == pytest.approx(0.5)
    assert ranking.date_match(start, ()) == 0.0
    that_day = Item(id="a", subject="user:1", text="I cooked risotto.", event_at=start + 3600)
    later = Item(id="b", subject="user:1", text="I cooked risotto.", event_at=start + 60 * DAY)
    hits = ranking.fuse([later, that_day], Signals(vector={"a": 1.0, "b": 1.0}, dates=spans), 0.0, Weights(recency=0.0))
    assert [h.id for h in hits] == ["a", "b"]
    assert hits[0].components["date"] == Weights().date and hits[1].components["date"] < 0.01


def test_diversity_spreads_the_order_across_sessions_and_stays_truthful():
    items = [item("a1", session="s1"), item("a2", session="s1"), item("b1", session="s2")]
    signals = Signals(vector={"a1": 3.0, "a2": 2.9, "b1": 2.5})
    plain = ranking.fuse(items, signals, 0.0, Weights(recency=0.0, session=0.0))
    spread = ranking.fuse(items, signals, 0.0, Weights(recency=0.0, session=0.0, diversity=1.0))
    assert [h.id for h in plain] == ["a1", "a2", "b1"]
    assert [h.id for h in spread] == ["a1", "b1", "a2"]
    assert spread[2].components["diversity"] == -1.0
    for hit in spread:
        assert hit.rank == pytest.approx(sum(hit.components[t] for t in ranking.TERMS))
    assert [h.rank for h in spread] == sorted((h.rank for h in spread), reverse=True)


def test_a_memory_that_asks_yields_to_one_that_tells():
    assert ranking.is_question('Bob said, "How was your trip?"') and ranking.is_question("Is it Tuesday? ")
    assert not ranking.is_question('Alice said, "Lisbon? Yes, I moved there."')
    assert not ranking.is_question('Bob said, "Guess what?" and shared a photo of a cat')
    asks = Item(id="a", subject="user:1", text='Bob said, "Where did you move to?"')
    tells = Item(id="b", subject="user:1", text='Alice said, "I moved to Lisbon."')
    hits = ranking.fuse([asks, tells], Signals(vector={"a": 1.2, "b": 1.0}), 0.0, Weights(recency=0.0))
    assert [h.id for h in hits] == ["b", "a"]
    assert hits[1].components["question"] == -Weights().question and hits[0].components["question"] == 0.0
    plain = ranking.fuse([asks, tells], Signals(vector={"a": 1.2, "b": 1.0}), 0.0, Weights(recency=0.0, question=0.0))
    assert [h.id for h in plain] == ["a", "b"]


def test_focus_keeps_the_first_places_and_fills_the_rest_with_the_named_person():
    n = ranking.FOCUS_AFTER + 4
    others = [Item(id=f"o{i}", subject="user:1", text=f"Bob said, \"note {i}\"") for i in range(n)]
    alice = [Item(id=f"a{i}", subject="user:1", text=f"Alice said, \"note {i}\"") for i in range(2)]
    vector = {it.id: 5.0 - 0.1 * i for i, it in enumerate(others)} | {"a0": 3.0, "a1": 2.9}
    signals = Signals(vector=vector, names=frozenset({"alice"}))
    weights = Weights(recency=0.0, session=0.0, entity=0.0)
    plain = ranking.fuse([*others, *alice], signals, 0.0, dataclasses.replace(weights, focus=0.0))
    focused = ranking.fuse([*others, *alice], signals, 0.0, weights)
    head = ranking.FOCUS_AFTER
    assert [h.id for h in focused[:head]] == [h.id for h in plain[:head]]
    assert [h.id for h in focused[head:head + 2]] == ["a0", "a1"] and [h.id for h in plain[-2:]] == ["a0", "a1"]
    assert all(h.components["focus"] == -Weights().focus for h in focused[head + 2:])
    for hit in focused:
        assert hit.rank == pytest.approx(sum(hit.components[t] for t in ranking.TERMS))
    assert [h.rank for h in focused] == sorted((h.rank for h in focused), reverse=True)
    unnamed = ranking.fuse([*others, *alice], dataclasses.replace(signals, names=frozenset()), 0.0, weights)
    assert all(h.components["focus"] == 0.0 for h in unnamed)


def test_a_rare_name_weighs_more_than_a_conversations_speakers():
    turns = [f'{who} said, "Turn {i}."' for i, who in enumerate(["Melanie", "Caroline"] * 20)]
    people = [f"{first} {last} lives in Oslo." for first in ("Bruno", "Hiro", "Kofi", "Omar") for last in
              ("Chen", "Sharma", "Haddad", "Tanaka", "Silva")]
    conversation, crowd = _book(*turns), _book(*people)
    assert conversation.weights(frozenset({"melanie", "caroline"})) == {"melanie": 1.0, "caroline": 1.0}
    full, first = crowd.weights(frozenset({"bruno chen"}))["bruno chen"], crowd.weights(frozenset({"bruno"}))["bruno"]
    # log2(1 / share): one item in 20 is log2(20), five in 20 is 2; never above ENTITY_MAX.
    assert full == pytest.approx(min(names.ENTITY_MAX, np.log2(20))) and first == pytest.approx(min(names.ENTITY_MAX, 2.0))
    assert full >= first >= 1.0


def test_the_items_led_by_a_named_person_are_known_without_reading_them():
    book = _book("Bruno Chen uses Emacs.", "Bruno Sharma uses Vim.", "Bruno Chen drinks tea.", "Dana said, \"hi\"")
    weight = book.weights(frozenset({"bruno chen"}))["bruno chen"]
    assert book.led(frozenset({"bruno chen"}), 10) == {"0": weight, "2": weight}
    assert set(book.led(frozenset({"bruno"}), 10)) == {"0", "1", "2"}
    assert book.led(frozenset({"bruno"}), 2) == {}  # a name leading more than the limit adds none
    assert book.led(frozenset({"dana"}), 10) == {"3": book.weights(frozenset({"dana"}))["dana"]}


def test_the_entity_term_uses_the_weight_of_the_longest_name_an_item_leads_with():
    chen = Item(id="c", subject="user:1", text="Bruno Chen uses Emacs.")
    sharma = Item(id="s", subject="user:1", text="Bruno Sharma uses Vim.")
    assert ranking.lead_name(chen.text, {"bruno", "bruno chen"}) == "bruno chen"
    signals = Signals(vector={"c": 0.0, "s": 0.0}, names=frozenset({"bruno chen", "bruno"}),
                      name_weights={"bruno chen": 4.0, "bruno": 2.0})
    hits = {h.id: h for h in ranking.fuse([chen, sharma], signals, 0.0, Weights(recency=0.0))}
    assert hits["c"].components["entity"] == 4.0 * Weights().entity
    assert hits["s"].components["entity"] == 2.0 * Weights().entity


def test_the_keyword_cap_widens_the_spread_and_keeps_the_order():
    scores = {"a": 9.0, "b": 3.0}  # two matches among 200 items: z-scores near 12 and 4
    z, floor = ranking.standardise(scores, 200)
    capped, capped_floor = ranking.keyword_signal(scores, 200, Weights(keyword_cap=3.0))
    assert max(z.values()) > 3.0 and capped["a"] == pytest.approx(3.0)
    assert capped["b"] / capped["a"] == pytest.approx(z["b"] / z["a"]) and capped_floor / floor == pytest.approx(3.0 / z["a"])
    assert ranking.keyword_signal(scores, 200, Weights(keyword_cap=0.0)) == (z, floor)  # 0: no cap
    assert ranking.keyword_signal(scores, 2, Weights(keyword_cap=3.0)) == ranking.standardise(scores, 2)  # under it


def test_a_short_memory_keeps_a_share_of_its_keyword_evidence():
    short = Item(id="s", subject="user:1", text="Uses Vim.")  # 2 words
    long = Item(id="l", subject="user:1", text=" ".join(["word"] * 30))
    signals = Signals(keyword={"s": 2.0, "l": 2.0})
    hits = {h.id: h for h in ranking.fuse([short, long], signals, 0.0, Weights(recency=0.0, keyword_words=24.0))}
    assert hits["l"].components["keyword"] == pytest.approx(2.0 * Weights().keyword)
    assert hits["s"].components["keyword"] == pytest.approx(2.0 * Weights().keyword * 2 / 24)
    assert ranking.length_share("Uses Vim.", 0.0) == 1.0  # 0: every memory keeps all of it


@pytest.mark.parametrize("query, before", [
    ("What was my previous job?", True), ("What car did I have before?", True), ("Mia's old school", True),
    ("What did I use to drive?", True), ("Where did we use to live?", True), ("What I used to eat", True),
    ("How old is Sam?", False), ("Where do I work now?", False), ("Where was our old flat?", True),
    ("Is the old office still open?", True), ("Which old code does everyone avoid?", False),
    # "use X to", "use to talk": what something is for, in the present
    ("What queue do services use to talk to each other?", False), ("What tools do we use to deploy?", False),
])
def test_asks_before_reads_questions_about_an_earlier_state(query, before):
    assert ranking.asks_before(query) is before


def lookup(vectors: dict[str, np.ndarray]) -> ranking.ItemVectors:
    return lambda ids: {i: vectors[i] for i in ids if i in vectors}


def test_newest_wins_between_the_best_hit_and_its_closest_newer_neighbour_only():
    old = Item(id="old", subject="user:1", text="Works at Acme as an engineer.", event_at=0.0)
    new = Item(id="new", subject="user:1", text="Joined Globex as a manager.", event_at=60 * DAY)
    stable = Item(id="stable", subject="user:1", text="Has worked remotely for years.", event_at=-300 * DAY)
    others = [Item(id=f"x{i}", subject="user:1", text=f"Other memory {i}.", event_at=90 * DAY) for i in range(6)]
    rng = np.random.default_rng(0)
    base = rng.normal(size=16)
    vectors = {"old": base, "new": base + 0.3 * rng.normal(size=16), "stable": rng.normal(size=16),
               **{o.id: rng.normal(size=16) for o in others}}
    signals = Signals(vector={"old": 4.0, "new": 1.8, "stable": 3.5, **{o.id: 0.0 for o in others}},
                      cosines={"old": 0.7, "new": 0.35, "stable": 0.6}, terms=("work",), item_vectors=lookup(vectors))
    items = [old, new, stable, *others]
    weights = Weights(recency=0.0, session=0.0)
    on = ranking.fuse(items, signals, 90 * DAY, weights)
    off = ranking.fuse(items, signals, 90 * DAY, dataclasses.replace(weights, newest=0.0))
    assert [h.id for h in off][:3] == ["old", "stable", "new"]
    assert [h.id for h in on][:3] == ["new", "old", "stable"]  # the newer version of the best hit, then it
    for hit in on:
        assert hit.rank == pytest.approx(sum(v for k, v in hit.components.items() if k in (*ranking.TERMS, "newest")))
    # A newer memory that is not like the best hit never moves, even where the words read one matter
    # (a job, then another: the frames' employer slot):
    unlike = dataclasses.replace(signals, item_vectors=lookup({**vectors, "new": -base}))
    assert ranking.fuse(items, unlike, 90 * DAY, weights)[0].id == "old"
    # nor one further behind than the margin, one about someone else, nor without vectors.
    far = dataclasses.replace(signals, vector={**signals.vector, "new": 4.0 - weights.newest - 0.5})
    assert ranking.fuse(items, far, 90 * DAY, weights)[0].id == "old"
    assert ranking.newest_lifts(items, [4.0, 3.0, 3.5, *[0.0] * 6], [0.9] * 9, 6.0, [1.0, 0.0, *[0.0] * 7],
                                lookup(vectors), 2.5) == {}
    assert ranking.fuse(items, dataclasses.replace(signals, item_vectors=None), 90 * DAY, weights)[0].id == "old"
    # nor one written within `newest_after_days` of it (two sides of one story, not a change),
    soon = [old, dataclasses.replace(new, event_at=weights.newest_after_days * DAY - DAY), stable, *others]
    assert ranking.fuse(soon, signals, 90 * DAY, weights)[0].id == "old"
    # nor conversation turns (a later turn about the same thing is another event),
    turns = [dataclasses.replace(old, session="s1"), dataclasses.replace(new, session="s2"), stable, *others]
    assert ranking.fuse(turns, signals, 90 * DAY, weights)[0].id == "old"
    # and an older one never: the lift is for the newer of the two.
    older = [dataclasses.replace(old, event_at=60 * DAY), dataclasses.replace(new, event_at=0.0), stable, *others]
    assert ranking.fuse(older, signals, 90 * DAY, weights)[0].id == "old"


def test_newest_wins_when_the_words_say_one_matter_though_the_likeness_does_not_stand_out():
    """An older memory as alike as the newer one (Evernote beside Sublime Text) keeps the newer one
    from standing out; naming two editors says it is the same matter, and the newer one comes first.
    Another matter at the same likeness stays where it was."""
    old = Item(id="old", subject="user:1", text="I write code in Sublime Text.", event_at=0.0)
    new = Item(id="new", subject="user:1", text="Set up Zed last weekend, it's my editor now.", event_at=60 * DAY)
    rival = Item(id="rival", subject="user:1", text="For notes I use Evernote.", event_at=-100 * DAY)
    others = [Item(id=f"x{i}", subject="user:1", text=f"Other memory {i}.", event_at=90 * DAY) for i in range(6)]
    rng = np.random.default_rng(1)
    base = rng.normal(size=16)
    vectors = {"old": base, "new": base + 0.9 * rng.normal(size=16), "rival": base + 0.9 * rng.normal(size=16),
               **{o.id: rng.normal(size=16) for o in others}}
    signals = Signals(vector={"old": 4.0, "new": 2.0, "rival": 2.5, **{o.id: 0.0 for o in others}},
                      cosines={"old": 0.7, "new": 0.35, "rival": 0.4}, terms=("code", "editor"),
                      item_vectors=lookup(vectors))
    weights = Weights(recency=0.0, session=0.0)
    assert frames.same_matter(old.text, new.text) and not frames.same_matter(old.text, rival.text)
    hits = ranking.fuse([old, new, rival, *others], signals, 90 * DAY, weights)
    assert [h.id for h in hits][:2] == ["new", "old"] and "newest" in hits[0].components
    desk = dataclasses.replace(new, text="Set up the standing desk last weekend.")
    assert not frames.same_matter(old.text, desk.text)
    # the same vectors with another matter's words: nothing moves (likeness alone does not stand out)
    assert ranking.fuse([old, desk, rival, *others], signals, 90 * DAY, weights)[0].id == "old"


def test_matters_reads_slots_and_the_categories_of_named_things_only():
    assert "category:editor" in frames.matters("Switched from VS Code to Neovim last month.")
    assert "category:database" in frames.matters("The team uses Postgres 16 for all backend services.")
    # a category word that does not begin a name, or only starts the sentence, names nothing
    assert frames.matters("Favourite editor font is Fira Code.") == {"favourite:editor font"}
    assert frames.matters("Code reviews happen on Tuesdays.") == frozenset()
    assert frames.same_matter("Lives in Berlin.", "Moved to Porto last month.")  # one slot
    assert not frames.same_matter("Lives in Berlin.", "Uses Postgres 16.")


def test_shared_terms_finds_every_form_same_word_accepts() -> None:
    """shared_terms looks forms up by prefix; it finds exactly the terms that some word of the
    text is a form of by _same_word, tried word by word."""
    rng = np.random.default_rng(7)

    def word(longest: int) -> str:
        return "".join(rng.choice(list("abcd"), size=int(rng.integers(1, longest + 1))))

    for _ in range(3000):
        text = " ".join(word(8) for _ in range(int(rng.integers(0, 25))))
        terms = [word(7) for _ in range(6)]
        words = {w.lower() for w in ranking.WORD.findall(text)}
        expected = [t for t in ranking.content_terms(terms)
                    if t in words or any(ranking._same_word(t, w) for w in words)]
        assert ranking.shared_terms(terms, text) == expected
    assert ranking.shared_terms(["paint", "use", "car"], "Painting; uses cars carpets") == ["paint", "use", "car"]
    assert ranking.shared_terms(["car"], "carpets") == []


def test_the_date_terms_half_life_follows_the_precision_of_the_date():
    now = datetime(2024, 6, 20, tzinfo=timezone.utc).timestamp()
    one_day = ranking.query_dates("What did I do on 4 June 2024?", now)
    a_week = ranking.query_dates("What did I do two weeks ago?", now)
    a_month = ranking.query_dates("What did I do in April 2024?", now)
    assert [ranking.date_half_life(*s[0]) for s in (one_day, a_week, a_month)] == [
        ranking.DATE_HALF_LIFE_MIN_DAYS, 3.5, ranking.DATE_HALF_LIFE_DAYS]
    # Two days after a named day is far (1/16); two days after a named month is near (> 0.8).
    assert ranking.date_match(one_day[0][1] + 2 * DAY, one_day) == pytest.approx(1 / 16)
    assert ranking.date_match(a_month[0][1] + 2 * DAY, a_month) > 0.8


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k, min_score", [(1, None), (5, None), (10, 0.5), (3, 0.9), (40, None)])
def test_fuse_with_k_keeps_exactly_what_top_k_of_every_hit_keeps(seed, k, min_score):
    """Asked for k hits, fuse scores only what can be among them: the same hits, ranks and scores
    as scoring every item and then keeping `top_k`, newest wins included."""
    rng = np.random.default_rng(seed)
    words = ["car", "drive", "berlin", "moved", "team", "editor"]
    items = [Item(id=f"i{n}", subject="user:1", text=" ".join(rng.choice(words, size=3)) + f" note {n}",
                  event_at=float(rng.integers(0, 400)) * DAY) for n in range(30)]
    vectors = {it.id: rng.normal(size=8) for it in items}
    word_vectors = {w: rng.normal(size=8) for w in words}
    asked: list[list[str]] = []

    def read_words(wanted):
        asked.append(list(wanted))
        return {w: word_vectors[w] for w in wanted}

    signals = Signals(vector={it.id: float(rng.normal()) for it in items},
                      keyword={it.id: float(rng.normal()) for it in items[::3]},
                      cosines={it.id: float(rng.uniform(0.1, 0.7)) for it in items},
                      terms=("car", "moved", "editor"), query="which car do I drive now", query_vector=rng.normal(size=8),
                      word_vectors=read_words, item_vectors=lambda ids: {i: vectors[i] for i in ids})
    weights = Weights(newest=6.0, newest_similar=-5.0)  # newest wins moves a hit in most seeds
    every = ranking.top_k(ranking.fuse(items, signals, 400 * DAY, weights), k, min_score)
    few = ranking.top_k(ranking.fuse(items, signals, 400 * DAY, weights, k=k, min_score=min_score), k, min_score)
    assert [(h.id, h.rank, h.score, h.components) for h in few] == [(h.id, h.rank, h.score, h.components) for h in every]
