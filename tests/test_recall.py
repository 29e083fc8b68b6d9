"""Hybrid recall on real SQLite files: meaning, fusion, context, recency, filters, min_score, explain.

The semantic tests use the real bundled all-MiniLM-L6-v2; the rest use the hashing embedder.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram.bench import suite as robustness
from engram.embed import get_embedder
from engram.embed.hashing import HashingEmbedder
from engram.core.memory import Memory
from engram.core import ranking
from engram.core.ranking import DAY
from engram.types import EPISODE, PREFERENCE

U = "user:42"
POSTGRES = "Team uses Postgres 16 for all services."
DISTRACTORS = [
    "Alice prefers dark mode in every editor.",
    "The CI pipeline runs on GitHub Actions.",
    "Lunch on Fridays is at the Thai place downstairs.",
    "Bob is learning Spanish on Tuesdays.",
    "The quarterly report is due on the first business day.",
    "Deploys go to AWS Lambda with Python 3.12.",
]
KEYS = {"vector", "keyword", "context", "entity", "time", "date", "question", "session", "focus", "recency",
        "diversity", "cosine", "overlap", "residual", "first_person", "personal"}  # personal: the bundled MiniLM's


@pytest.fixture(scope="module")
def minilm():
    return get_embedder("minilm")


@pytest.fixture
def semantic(tmp_path, minilm):
    mem = Memory(str(tmp_path / "semantic.db"), embedder=minilm)
    mem.remember_many(U, [POSTGRES, *DISTRACTORS], now=1000.0)
    yield mem
    mem.close()


@pytest.fixture
def mem(tmp_path):
    m = Memory(str(tmp_path / "hashing.db"), embedder=HashingEmbedder(256))
    yield m
    m.close()


def test_which_database_finds_postgres(semantic):
    hits = semantic.recall(U, "Which database does the team use?", k=3, now=2000.0)
    assert hits[0].text == POSTGRES


def test_meaning_without_shared_words_is_found_by_the_vector_signal(semantic):
    hits = semantic.recall(U, "What relational DB powers our backend?", k=1, now=2000.0, explain=True)
    assert hits[0].text == POSTGRES
    assert hits[0].components["vector"] > hits[0].components["keyword"]


def test_fusion_uses_both_signals(mem):
    mem.remember_many(U, ["The staging server runs Debian 12.", "Deploys happen every Thursday evening.",
                          "Maria's favourite fruit is mango."], now=0.0)
    hits = mem.recall(U, "which server runs Debian", k=3, now=0.0, explain=True)
    assert hits[0].text == "The staging server runs Debian 12."
    assert hits[0].components["keyword"] > 0 and hits[0].components["vector"] > 0
    assert hits[0].score > hits[1].score


def test_explain_components_sum_to_score(semantic):
    hits = semantic.recall(U, "database for the services", k=5, now=2000.0, explain=True)
    assert hits
    for hit in hits:
        assert set(hit.components) == KEYS
        assert hit.rank == pytest.approx(sum(hit.components[t] for t in ranking.TERMS))
    plain = semantic.recall(U, "database for the services", k=5, now=2000.0)
    assert [h.id for h in plain] == [h.id for h in hits] and not plain[0].components


class RecordingEmbedder(HashingEmbedder):
    """The hashing embedder, keeping every text it embeds."""

    def __init__(self) -> None:
        super().__init__(256)
        self.seen: list[str] = []

    def embed_batch(self, texts):
        self.seen += list(texts)
        return super().embed_batch(texts)


def test_the_query_is_embedded_without_the_names_the_entity_term_matches(tmp_path):
    embedder = RecordingEmbedder()
    m = Memory(str(tmp_path / "names.db"), embedder=embedder)
    try:
        m.remember_many(U, ['Alice said, "I paint landscapes."', 'Bob said, "Alice paints?"'], now=0.0)
        embedder.seen.clear()
        hits = m.recall(U, "What does Alice paint?", k=2, now=0.0, explain=True)
        # The rank embeds the query without the name; the relevance then embeds the whole query
        # and the words the hits share with it (its residual cosine, engram.core.ranking.residual).
        assert embedder.seen[0] == "What does paint?"
        # (the words while the hits are fetched, the whole query after: the order is not the point)
        assert sorted(embedder.seen[1:]) == ["What does Alice paint?", "alice", "paint"]
        assert hits[0].text.startswith("Alice said") and hits[0].components["entity"] == 1.0
        m.weights = dataclasses.replace(m.weights, entity=0.0)  # no entity term: the names stay
        embedder.seen.clear()
        m.query_cache.clear()  # the recall before embedded the whole query too
        m.recall(U, "What does Alice paint?", k=2, now=0.0)
        assert embedder.seen == ["What does Alice paint?"]  # once; the words are kept from before
    finally:
        m.close()


def test_a_date_in_the_query_prefers_memories_from_that_date(mem):
    july = datetime(2023, 7, 3, 15, tzinfo=timezone.utc).timestamp()
    mem.remember(U, "Cooked a mushroom risotto for dinner.", event_at=july, now=july)
    mem.remember(U, "Cooked a mushroom risotto for the guests.", event_at=july + 90 * DAY, now=july + 90 * DAY)
    hits = mem.recall(U, "What did I cook on 3 July, 2023?", k=2, now=july + 100 * DAY, explain=True)
    assert hits[0].text == "Cooked a mushroom risotto for dinner."
    assert hits[0].components["date"] == mem.weights.date and hits[1].components["date"] < 0.01
    undated = mem.recall(U, "What did I cook?", k=2, now=july + 100 * DAY, explain=True)
    assert all(h.components["date"] == 0.0 for h in undated)


def test_raising_recency_changes_which_memory_wins(mem):
    mem.remember(U, "The office coffee machine is broken again.", now=0.0)
    mem.remember(U, "The office coffee is fine now.", now=200 * DAY)
    query = "is the office coffee machine broken"
    newest = mem.recall(U, query, k=1, now=200 * DAY, explain=True)[0]  # the newer of two alike: newest wins
    assert newest.text == "The office coffee is fine now." and "newest" in newest.components
    mem.weights = dataclasses.replace(mem.weights, newest=0.0)  # recency alone
    assert mem.recall(U, query, k=1, now=200 * DAY)[0].text == "The office coffee machine is broken again."
    assert mem.recall(U, query, k=1, now=200 * DAY, recency=5.0)[0].text == "The office coffee is fine now."


def test_newest_wins_reads_the_stored_vectors_and_embeds_only_the_query(store_url, tmp_path):
    """On PostgreSQL the vectors stay on the server: newest wins reads the two it compares from the
    store (Store.item_vectors), embeds no stored item's text, and orders them as SQLite does."""
    query = "is the office coffee machine broken"
    orders = []
    for url in (store_url, str(tmp_path / "reference.db")):
        embedder = RecordingEmbedder()
        with Memory(url, embedder=embedder) as m:
            m.remember(U, "The office coffee machine is broken again.", now=0.0)
            m.remember(U, "The office coffee is fine now.", now=200 * DAY)
            embedder.seen.clear()
            hits = m.recall(U, query, k=2, now=200 * DAY, explain=True)
            # the query, and only its own words besides (the relevance's residual cosine): no stored text
            assert embedder.seen[0] == query and set(embedder.seen[1:]) <= set(query.split())
            assert "newest" in hits[0].components
            orders.append([h.text for h in hits])
    assert orders[0] == orders[1] == ["The office coffee is fine now.", "The office coffee machine is broken again."]


def test_conversation_context_finds_the_answer_to_a_question(mem):
    turns = ["Bob said, \"Which city did you move to last spring?\"",
             "Alice said, \"Lisbon! The light there is wonderful.\"",
             "Bob said, \"Nice. Did you see the football match yesterday?\"",
             "Alice said, \"No, I was busy painting all weekend.\""]
    mem.remember_many(U, turns, kind=EPISODE, session="s1", now=0.0)
    mem.remember_many(U, ["Alice said, \"My sister visited me.\"", "Bob said, \"Great!\""], kind=EPISODE,
                      session="s2", now=DAY)
    hits = {h.text: h for h in mem.recall(U, "Which city did Alice move to?", k=6, now=DAY, explain=True)}
    answer = hits["Alice said, \"Lisbon! The light there is wonderful.\""]
    assert answer.components["context"] > 0  # borrowed from the question just before it
    assert hits["Alice said, \"My sister visited me.\""].components["context"] <= answer.components["context"]


def test_context_never_crosses_sessions(mem):
    mem.remember(U, "Carol said, \"Which city did you move to?\"", kind=EPISODE, session="a", now=0.0)
    mem.remember(U, "Dan said, \"Nothing much happened today.\"", kind=EPISODE, session="b", now=0.0)
    hits = mem.recall(U, "Which city did you move to", k=2, now=0.0, explain=True)
    assert all(h.components["context"] == 0.0 for h in hits)


def test_filters_by_kind_source_and_time(mem):
    mem.remember(U, "Prefers tea over coffee in the morning.", kind=PREFERENCE, source="chat-1", now=0.0)
    mem.remember(U, "Drank coffee with the team in the morning.", source="chat-2", event_at=10 * DAY, now=10 * DAY)
    mem.remember(U, "Morning standup moved to 9:30.", source="chat-3", event_at=20 * DAY, now=20 * DAY)
    query = "morning coffee"
    assert [h.item.kind for h in mem.recall(U, query, kinds=[PREFERENCE], now=30 * DAY)] == [PREFERENCE]
    assert [h.item.source for h in mem.recall(U, query, source="chat-3", now=30 * DAY)] == ["chat-3"]
    window = mem.recall(U, query, since=5 * DAY, until=15 * DAY, now=30 * DAY)
    assert [h.text for h in window] == ["Drank coffee with the team in the morning."]


def test_a_restrictive_filter_still_finds_items_outside_the_nearest_candidates(tmp_path):
    with Memory(str(tmp_path / "many.db"), embedder=HashingEmbedder(64)) as m:
        m.remember_many(U, [f"Meeting notes about the budget, item {i}." for i in range(250)], source="bulk", now=0.0)
        m.remember(U, "Unrelated gardening tip: water tomatoes early.", source="garden", now=0.0)
        hits = m.recall(U, "budget meeting notes", source="garden", now=0.0)
    assert [h.text for h in hits] == ["Unrelated gardening tip: water tomatoes early."]


def test_validity_superseded_items_are_left_out_unless_asked_as_of(mem):
    mem.remember(U, "Works at Acme Corp as an engineer.", key="employer", now=0.0)
    mem.remember(U, "Works at Globex as a manager.", key="employer", now=10 * DAY)
    now_hits = mem.recall(U, "where does the user work", now=20 * DAY)
    assert [h.text for h in now_hits] == ["Works at Globex as a manager."]
    then = mem.recall(U, "where does the user work", as_of=5 * DAY, now=20 * DAY)
    assert [h.text for h in then] == ["Works at Acme Corp as an engineer."]


def test_min_score_drops_weak_matches(semantic):
    everything = semantic.recall(U, "Which database does the team use?", k=7, now=2000.0)
    assert len(everything) == 7
    strong = semantic.recall(U, "Which database does the team use?", k=7, now=2000.0, min_score=0.5)
    assert [h.text for h in strong] == [POSTGRES]
    assert semantic.recall(U, "Which database does the team use?", now=2000.0, min_score=1.01) == []


def test_k_larger_than_the_subject_returns_everything_once(mem):
    mem.remember_many(U, ["First note about apples.", "Second note about pears."], now=0.0)
    hits = mem.recall(U, "note", k=50, now=0.0)
    assert sorted(h.text for h in hits) == ["First note about apples.", "Second note about pears."]


def test_keyword_only_store_still_ranks(tmp_path):
    with Memory(str(tmp_path / "kw.db"), embedder="none") as m:
        m.remember_many(U, ["Uses Postgres 16 for billing.", "Uses Redis for caching."], now=0.0)
        hits = m.recall(U, "postgres billing", now=0.0, explain=True)
    assert hits[0].text == "Uses Postgres 16 for billing."
    assert hits[0].components["vector"] == 0.0


def test_subjects_never_leak(mem):
    mem.remember("user:1", "The secret project is called Falcon.", now=0.0)
    mem.remember("user:2", "Weekly sync is on Mondays.", now=0.0)
    assert all(h.item.subject == "user:2" for h in mem.recall("user:2", "secret project Falcon", now=0.0))


def test_a_memory_about_the_named_person_outranks_one_that_mentions_them(mem):
    mem.remember_many(U, ["Bob said, \"Carol adopted a grey cat named Miso.\"",
                          "Carol said, \"I adopted a grey cat named Miso.\""], now=1000.0)
    hits = mem.recall(U, "Which cat did Carol adopt?", k=2, now=2000.0, explain=True)
    assert hits[0].text.startswith("Carol said") and hits[0].components["entity"] > 0
    assert hits[1].components["entity"] == 0.0


def test_recall_takes_a_diversity_weight_and_rejects_a_bad_one(tmp_path):
    from engram.embed.hashing import HashingEmbedder
    from engram.errors import InvalidInput
    from engram.core.memory import Memory

    with Memory(str(tmp_path / "d.db"), embedder=HashingEmbedder(64)) as mem:
        for s in range(3):
            mem.remember_many("user:1", [f"Session {s} talk about hiking trails turn {t}." for t in range(4)],
                              kind="episode", session=f"s{s}", event_at=1000.0 * s)
        hits = mem.recall("user:1", "hiking trails", k=6, diversity=0.8, explain=True)
        assert all("diversity" in h.components for h in hits)
        with pytest.raises(InvalidInput):
            mem.recall("user:1", "hiking trails", diversity=-1)


def test_the_shortlist_doubles_only_when_the_focus_term_can_act():
    from engram.core import ranking
    from engram.core import recall

    names, weights = frozenset({"alice"}), ranking.Weights()
    assert recall.shortlist(5, names, weights) == recall.SHORTLIST
    assert recall.shortlist(50, frozenset(), weights) == 50
    assert recall.shortlist(50, names, weights) == recall.FOCUS_SHORTLIST * 50
    assert recall.shortlist(50, names, dataclasses.replace(weights, focus=0.0)) == 50


def test_an_answer_outranks_the_question_that_asked_it(mem):
    mem.remember_many(U, ["Bob said, \"Which city did Alice move to?\"", "Alice said, \"I moved to Lisbon.\""],
                      kind=EPISODE, session="s1", now=0.0)
    hits = mem.recall(U, "Which city did Alice move to?", k=2, now=0.0, explain=True)
    assert hits[0].text == "Alice said, \"I moved to Lisbon.\""
    assert hits[1].components["question"] == -mem.weights.question


# -- names come from the memory, and the case of a query word never decides the ranking -----------
TURNS = ['Melanie said, "I painted a sunrise over the lake last week."',
         'Caroline said, "I went to an LGBTQ support group yesterday."',
         'Melanie said, "My kids love the beach and camping."']
TURN_QUESTIONS = ["What did Melanie paint?", "When did Caroline go to the LGBTQ support group?",
                  "What do Melanie's kids like?"]


@pytest.fixture(scope="module")
def suite_memory(tmp_path_factory, minilm):
    """The robustness suite's facts plus a few conversation turns, in one subject (real MiniLM)."""
    facts, _ = robustness.load()
    mem = Memory(str(tmp_path_factory.mktemp("suite") / "suite.db"), embedder=minilm)
    mem.remember_many(U, [{"text": f.text, "event_at": f.at} for f in facts], now=2e9)
    mem.remember_many(U, TURNS, kind=EPISODE, session="s1", event_at=1.7e9, now=2e9)
    yield mem
    mem.close()


def _recased(question: str, pattern: list[int]) -> str:
    """Each word of `question` lower-cased (0), Capitalised (1) or UPPER (2), cycling `pattern`."""
    words = question.split(" ")
    change = (str.lower, str.capitalize, str.upper)
    return " ".join(change[pattern[i % len(pattern)]](w) for i, w in enumerate(words))


_SUITE_QUESTIONS = [q.text for q in robustness.load()[1]] + TURN_QUESTIONS


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from(_SUITE_QUESTIONS), pattern=st.lists(st.integers(0, 2), min_size=1, max_size=6))
def test_the_case_of_a_query_never_changes_the_ranking(suite_memory, question, pattern):
    def ranking_of(query: str) -> list[str]:
        return [h.id for h in suite_memory.recall(U, query, k=10, now=2e9)]

    expected = ranking_of(question)
    for variant in (*robustness.variants(question), _recased(question, pattern)):
        assert ranking_of(variant) == expected, variant


def test_product_names_and_acronyms_stay_in_the_embedded_query(semantic):
    for query, answer in (("Show me an example of a Lambda handler in Python", DISTRACTORS[5]),
                          ("which CI do we use?", DISTRACTORS[1]), ("Which CI do we use?", DISTRACTORS[1]),
                          ("What DB do we run?", POSTGRES), ("what db do we run?", POSTGRES)):
        assert semantic.recall(U, query, k=1, now=2000.0)[0].text == answer, query


# Issue 13's new user: twelve facts about a team, asked about with acronyms in any case.
TEAM = ["The CI pipeline runs on GitHub Actions.", POSTGRES, "The frontend is written in React with TypeScript.",
        "Runs a half marathon every spring.", "Deploys go to AWS Lambda with Python 3.12.",
        "Alice prefers dark mode in every editor.", "Code review needs two approvals before merging.",
        "The on-call rotation changes every Monday.", "Secrets are kept in HashiCorp Vault.",
        "Lunch on Fridays is at the Thai place downstairs.", "Logs are shipped to Grafana Loki.",
        "Bob is learning Spanish on Tuesdays."]


def test_acronyms_rank_their_fact_first_whatever_the_case(tmp_path, minilm):
    from engram.core import names

    with Memory(str(tmp_path / "team.db"), embedder=minilm) as team:
        team.remember_many(U, TEAM, now=1000.0)
        ids, _ = team.admin.vectors(U)
        book = names.book(team.store, U, minilm.identity, ids)
        for query, answer in (("which CI do we use?", TEAM[0]), ("What DB do we run?", POSTGRES),
                              ("How is the UI built?", TEAM[2]),
                              ("Show me an example of a Lambda handler in Python", TEAM[4])):
            assert book.read(query, 200).text == query  # embedded whole
            for variant in (*robustness.variants(query), query.upper(), query.title()):
                hits = team.recall(U, variant, k=3, now=2000.0)
                assert hits[0].text == answer, variant
                assert [h.id for h in hits] == [h.id for h in team.recall(U, query, k=3, now=2000.0)], variant


def test_speakers_are_names_and_a_full_name_is_one_entity(suite_memory):
    # Two speakers' turns and one full name among 220 facts: each is rare, so it weighs more than 1.
    hit = suite_memory.recall(U, "what did melanie paint?", k=1, now=2e9, explain=True)[0]
    assert hit.text == TURNS[0] and hit.components["entity"] > suite_memory.weights.entity
    hit = suite_memory.recall(U, "where does yuki tanaka work from", k=1, now=2e9, explain=True)[0]
    assert hit.text.startswith("Yuki Tanaka") and hit.components["entity"] > suite_memory.weights.entity
    # A capitalised word the memories never use as a name gets no entity term.
    hit = suite_memory.recall(U, "Which CI do we use?", k=1, now=2e9, explain=True)[0]
    assert hit.components["entity"] == 0.0


def test_names_follow_writes_and_forgetting(memory):
    memory.remember(U, "Bruno Chen uses Emacs as a code editor.")
    assert memory.recall(U, "what does bruno chen use?", k=1, explain=True)[0].components["entity"] == 1.0
    memory.remember(U, "Bruno Sharma uses Sublime Text as a code editor.")
    hits = memory.recall(U, "What editor does Bruno Sharma use?", k=2, explain=True)
    assert hits[0].text.startswith("Bruno Sharma") and hits[1].components["entity"] == 0.0
    memory.remember(U, "Dana Park drinks green tea.")
    assert memory.recall(U, "what does dana park drink?", k=1, explain=True)[0].components["entity"] > 1.0
    assert memory.forget(U, "Dana Park") == 1
    hits = memory.recall(U, "what does dana park drink?", k=3, explain=True)
    assert [h.components["entity"] for h in hits] == [0.0, 0.0]


def test_a_named_persons_memory_is_found_however_few_words_it_shares_with_the_question(memory):
    facts = ["{} starts the day with espresso.", "{} lives in Lisbon.", "{} works at Globex.", "{} drives a Honda Civic.",
             "{} plays the cello.", "{} is allergic to peanuts."]
    people = [f"{f} {s}" for f in ("Gita", "Hana", "Liam", "Omar", "Sven", "Yuki")
              for s in ("Larsen", "Abe", "Chen", "Costa", "Silva", "Novak")]
    crowd = [facts[i % len(facts)].format(p) for i, p in enumerate(people) if p != "Gita Abe"]
    memory.remember_many(U, [*crowd, "Gita Abe drinks hot chocolate every morning.", "Gita Abe lives in Oslo."])
    hits = memory.recall(U, "How does Gita Abe start the day?", k=2, explain=True)
    # "... starts the day with espresso." shares three words and the topic with the question;
    # Gita Abe's memories share only the name, and the name is what the question is about.
    assert {h.text for h in hits} == {"Gita Abe drinks hot chocolate every morning.", "Gita Abe lives in Oslo."}
    assert hits[0].components["entity"] > memory.weights.entity  # one person among 36 weighs more than 1


@pytest.mark.slow
def test_the_suite_runs_and_its_figures_are_sane(tmp_path):
    result = robustness.run(("hybrid", "bm25", "dense"), folder=tmp_path)
    assert result["facts"] >= 200 and result["questions"] >= 300
    runs = result["retrievers"]
    for name, res in runs.items():
        o = res["overall"]
        assert 0.0 <= o["top1"] <= o["top3"] <= 1.0 and o["top1"] <= o["mrr"] <= 1.0, name
        assert set(res["by_group"]) == {"work", "personal", "preferences", "changed"}
    # Meaning beats words alone, and the case of a query never moves the top 3.
    assert runs["hybrid"]["overall"]["mrr"] > runs["bm25"]["overall"]["mrr"] > 0.5
    assert runs["hybrid"]["case_stable"] == 1.0


UPDATE_DISTRACTORS = [
    "I'm allergic to penicillin.", "My birthday is on 14 March.", "I support Arsenal.",
    "We keep the spare key under the blue pot.", "My passport expires in 2029.", "I can't stand coriander.",
    "The boiler was serviced in October.", "My dad is a retired plumber.", "I'm saving for a trip to Japan.",
    "My blood type is O positive.", "The project codename is Falcon.", "I prefer window seats on planes.",
    "I studied history at Durham.", "I listen to podcasts while cooking.", "My shoe size is 9.",
    "I'm short-sighted and wear contacts.", "The car insurance renews in August.", "I grew up in Cork.",
]


@pytest.fixture
def changed(tmp_path, minilm):
    """A store where a fact changed two months after it was written (in words the supersession
    rules do not read as a change), among unrelated facts written in between."""
    m = Memory(str(tmp_path / "changed.db"), embedder=minilm)
    writes = [("My longest run so far is 10 kilometres.", 0.0), *((t, (3 + 4 * i) * DAY)
              for i, t in enumerate(UPDATE_DISTRACTORS)), ("Ran my first half marathon on Sunday, 21 km!", 60 * DAY)]
    saved = m.remember_many(U, [{"text": t, "event_at": at, "now": at} for t, at in writes])
    assert not any(s.superseded for s in saved)  # both stay current: ranking decides
    yield m
    m.close()


def test_the_newer_of_two_facts_about_the_same_thing_ranks_first_by_default(changed):
    question = "What is the longest distance I've run?"
    hits = changed.recall(U, question, k=3, now=120 * DAY, explain=True)
    assert hits[0].text == "Ran my first half marathon on Sunday, 21 km!"
    assert hits[1].text == "My longest run so far is 10 kilometres."  # the old one stays, next
    assert "newest" in hits[0].components
    off = dataclasses.replace(changed.weights, newest=0.0)
    changed.weights = off
    assert changed.recall(U, question, k=1, now=120 * DAY)[0].text == "My longest run so far is 10 kilometres."


def test_as_of_a_day_between_the_two_finds_the_old_fact(changed):
    hits = changed.recall(U, "What is the longest distance I've run?", k=3, now=120 * DAY, as_of=30 * DAY)
    assert hits[0].text == "My longest run so far is 10 kilometres."
    assert all("half marathon" not in h.text for h in hits)


def test_a_stable_fact_is_not_buried_by_a_newer_memory_on_another_matter(changed):
    _ = changed.remember(U, "Picked up a new bike helmet from the shop.", event_at=100 * DAY, now=100 * DAY)
    hits = changed.recall(U, "What am I allergic to?", k=3, now=120 * DAY, explain=True)
    assert hits[0].text == "I'm allergic to penicillin."
    assert all("newest" not in h.components for h in hits)


@pytest.fixture
def replaced(tmp_path, minilm):
    """A store where a write superseded a fact (the old version is no longer current)."""
    m = Memory(str(tmp_path / "replaced.db"), embedder=minilm)
    writes = [("Car is a 2012 Ford Focus.", 0.0), *((t, (3 + 4 * i) * DAY) for i, t in enumerate(UPDATE_DISTRACTORS)),
              ("Sold the Ford Focus and bought a Toyota Corolla hybrid.", 90 * DAY)]
    saved = m.remember_many(U, [{"text": t, "event_at": at, "now": at} for t, at in writes])
    assert saved[-1].superseded == (saved[0].id,)  # the write path read it as a change
    yield m
    m.close()


@pytest.mark.parametrize("question", ["What car did I have before?", "What did I use to drive?", "What was my old car?"])
def test_a_question_about_the_past_finds_the_version_a_current_fact_replaced(replaced, question):
    hits = replaced.recall(U, question, k=3, now=120 * DAY, explain=True)
    assert hits[0].text == "Car is a 2012 Ford Focus." and not hits[0].item.current
    assert hits[0].rank == pytest.approx(sum(v for k, v in hits[0].components.items() if k in (*ranking.TERMS, "newest")))
    assert any(h.text.startswith("Sold the Ford Focus") for h in hits[1:])  # the current one stays, below
    assert len(replaced.recall(U, question, k=1, now=120 * DAY)) == 1  # searched wider, cut to k


def test_a_question_about_the_present_sees_only_current_versions(replaced):
    assert replaced.recall(U, "What car do I drive?", k=1, now=120 * DAY)[0].text.startswith("Sold the Ford Focus")
    for question in ("What car do I drive?", "How old is my car?"):  # "old" here is an age, not the past
        assert all(h.item.current for h in replaced.recall(U, question, k=10, now=120 * DAY)), question
    replaced.weights = dataclasses.replace(replaced.weights, newest=0.0)  # off with newest wins
    assert all(h.item.current for h in replaced.recall(U, "What car did I have before?", k=10, now=120 * DAY))


@pytest.fixture
def chained(tmp_path, minilm):
    """Two replacements of one fact (editor: VS Code -> Neovim -> Helix), the last worded unlike
    the question, among unrelated facts."""
    m = Memory(str(tmp_path / "chained.db"), embedder=minilm)
    writes = [("Uses VS Code as the main editor.", 0.0), *((t, (3 + 4 * i) * DAY) for i, t in enumerate(UPDATE_DISTRACTORS)),
              ("Switched from VS Code to Neovim last month.", 90 * DAY),
              ("Switched from Neovim to Helix after the conference.", 150 * DAY)]
    saved = m.remember_many(U, [{"text": t, "event_at": at, "now": at} for t, at in writes])
    assert saved[-2].superseded == (saved[0].id,) and saved[-1].superseded == (saved[-2].id,)
    yield m
    m.close()


def test_a_question_a_replaced_fact_answers_finds_its_current_successor(chained):
    from engram.core import successors

    hits = chained.recall(U, "Which editor do I use?", k=3, now=200 * DAY, explain=True)
    assert hits[0].text == "Switched from Neovim to Helix after the conference."  # the end of the chain
    assert hits[0].components["replaced"] == 1.0  # ranked in the place of a version it replaced
    assert all(h.item.current for h in hits) and len({h.id for h in hits}) == len(hits)  # each once, no old one
    assert len(chained.recall(U, "Which editor do I use?", k=1, now=200 * DAY)) == 1
    # as_of still finds what held then, and the past finds the replaced version
    assert chained.recall(U, "Which editor do I use?", k=1, now=200 * DAY, as_of=30 * DAY)[0].text.startswith("Uses VS Code")
    assert not chained.recall(U, "Which editor did I use before?", k=1, now=200 * DAY)[0].item.current
    # without the step (newest wins off) the successor is only found on its own words
    chained.weights = dataclasses.replace(chained.weights, newest=0.0)
    off = chained.recall(U, "Which editor do I use?", k=3, now=200 * DAY, explain=True)
    assert all("replaced" not in h.components for h in off)
    assert successors.inherit(chained.store, []) == []


def test_a_forgotten_successor_brings_back_nothing(chained):
    helix = chained.recall(U, "Which editor do I use?", k=1, now=200 * DAY)[0]
    chained.forget_ids(U, [helix.id])
    hits = chained.recall(U, "Which editor do I use?", k=10, now=200 * DAY, explain=True)
    assert all(h.item.current for h in hits)  # the replaced versions stay out
    assert all("Helix" not in h.text and "replaced" not in h.components for h in hits)


def test_a_successor_already_placed_higher_keeps_its_place(replaced):
    hits = replaced.recall(U, "Sold the Ford Focus and bought a Toyota", k=5, now=120 * DAY, explain=True)
    assert hits[0].text.startswith("Sold the Ford Focus") and "replaced" not in hits[0].components
    assert [h.id for h in hits].count(hits[0].id) == 1


def test_another_persons_newer_fact_does_not_lift_over_the_asked_persons(tmp_path, minilm):
    with Memory(str(tmp_path / "people.db"), embedder=minilm) as m:
        writes = [("Ana drives a red Ford Fiesta.", 0.0), *((t, (3 + 4 * i) * DAY)
                  for i, t in enumerate(UPDATE_DISTRACTORS)), ("Tom drives a silver Skoda estate.", 60 * DAY)]
        m.remember_many(U, [{"text": t, "event_at": at, "now": at} for t, at in writes])
        hits = m.recall(U, "What car does Ana drive?", k=3, now=120 * DAY, explain=True)
        assert hits[0].text == "Ana drives a red Ford Fiesta."
        assert all("newest" not in h.components for h in hits)
        # the same pair about one person is a change, and the newer one comes first
        m.remember(U, "Ana drives a silver Skoda estate.", event_at=61 * DAY, now=61 * DAY)
        assert m.recall(U, "What car does Ana drive?", k=1, now=120 * DAY)[0].text == "Ana drives a silver Skoda estate."


def test_recall_searches_the_topic_and_reads_the_whole_question_for_the_relevance(tmp_path):
    embedder = RecordingEmbedder()
    m = Memory(str(tmp_path / "framing.db"), embedder=embedder)
    try:
        m.remember_many(U, ["Deployed the budget tracker to Render in March."], now=0.0)
        embedder.seen.clear()
        asked = "Can you list the order in which I brought up my budget tracker's deployment across our sessions?"
        m.recall(U, asked, k=1, now=0.0)
        assert embedder.seen[0] == "my budget tracker's deployment?"  # what is searched: the topic
        assert asked in embedder.seen[1:]  # the relevance still reads the question as asked
    finally:
        m.close()


def test_a_requests_framing_does_not_find_memories_that_share_its_words(tmp_path, minilm):
    m = Memory(str(tmp_path / "framing-minilm.db"), embedder=minilm)
    try:
        m.remember_many(U, ["Moved the budget tracker's database from SQLite to Postgres.",
                            "Placed an order for three summary binders for our sessions with the accountant."],
                        now=0.0)
        hits = m.recall(U, "Can you give me a summary of the order in which I brought up changes to my budget"
                           " tracker across our sessions? Mention only three items.", k=2, now=0.0)
        assert hits[0].text.startswith("Moved the budget tracker")
    finally:
        m.close()
