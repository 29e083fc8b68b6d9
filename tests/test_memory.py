"""Long-term facts through the Memory facade, on every backend."""

from __future__ import annotations

import pytest

from engram.errors import InvalidInput, InvalidSubject, NotFound
from engram.core import ranking
from engram.core.memory import Memory

U = "user:42"
DAY = 86400.0


def seed(mem: Memory) -> None:
    mem.remember(U, "Prefers answers with Python code, not pseudocode.", source="chat 2026-11-01", now=1000.0)
    mem.remember(U, "Deploys to AWS Lambda with Python 3.12.", source="chat 2026-11-01", now=2000.0)
    mem.remember(U, "Team uses Postgres 16 for all services.", source="chat 2026-11-02", now=3000.0)


def test_remember_returns_saved_with_id(memory):
    result = memory.remember(U, "  Team uses   Postgres 16\nfor all services. ", source="chat 1")
    assert result.saved and result.reason is None
    item = memory.get(result.id)
    assert item.text == "Team uses Postgres 16 for all services."  # whitespace folded
    assert item.source == "chat 1" and item.subject == U and item.kind == "fact"


def test_duplicate_is_not_saved_and_names_the_original(memory):
    first = memory.remember(U, "Team uses Postgres 16 for all services.")
    again = memory.remember(U, "team uses postgres 16 for ALL services.")
    assert not again.saved and again.reason == "duplicate" and again.id == first.id
    assert len(memory.items(U)) == 1


@pytest.mark.parametrize("text,reason", [
    ("short", "too short"),
    ("x" * 301, "too long"),
    ("   ", "empty"),
])
def test_length_rules_give_reasons(memory, text, reason):
    result = memory.remember(U, text)
    assert not result.saved and result.reason.startswith(reason)
    assert memory.items(U) == []


def test_secrets_are_refused(memory):
    result = memory.remember(U, "My key is sk-ant-api03-Xy7Qw2Lp9Rt4Vb8NfK2mZ")
    assert not result.saved and "secret" in result.reason
    assert memory.items(U) == []


@pytest.mark.parametrize("bad", [None, 42, b"bytes text here", ["a list"]])
def test_non_string_text_is_an_error(memory, bad):
    with pytest.raises(InvalidInput):
        memory.remember(U, bad)


def test_nul_bytes_are_an_error_and_change_nothing(memory):
    seed(memory)
    before = memory.items(U)
    with pytest.raises(InvalidInput, match="NUL"):
        memory.remember(U, "Contains a NUL \x00 byte in the middle")
    assert memory.items(U) == before


@pytest.mark.parametrize("subject", ["", "user", "user:", ":42", "user 42", "user:4 2", "ü:x", 42, None, "x" * 300])
def test_malformed_subjects_are_refused(memory, subject):
    with pytest.raises(InvalidSubject):
        memory.remember(subject, "A perfectly fine fact to store.")
    with pytest.raises(InvalidSubject):
        memory.recall(subject, "fine query")


def test_recall_ranks_by_keywords_with_recency_breaking_ties(memory):
    seed(memory)
    hits = memory.recall(U, "Which Python version do I deploy with?", k=2, now=5000.0)
    assert hits[0].text == "Deploys to AWS Lambda with Python 3.12."
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))


def test_recency_breaks_a_tie_only(store_url):
    # keyword-only, so the two texts tie exactly; no supersession, so both stay current
    memory = Memory(store_url, embedder="none", auto_supersede=False)
    memory.remember(U, "Uses vim for editing code files.", now=0.0)
    memory.remember(U, "Uses emacs for editing code files.", now=100 * DAY)
    hits = memory.recall(U, "editing code files", k=2, now=100 * DAY, explain=True)
    memory.close()
    assert hits[0].text == "Uses emacs for editing code files."
    assert hits[0].components["recency"] > hits[1].components["recency"]
    assert all(h.components["recency"] <= 0.01 for h in hits)


def test_recall_explain_components_sum_to_score(memory):
    seed(memory)
    for hit in memory.recall(U, "Python code", explain=True):
        assert set(hit.components) >= {"keyword", "vector", "recency"}
        assert hit.rank == pytest.approx(sum(hit.components[t] for t in ranking.TERMS))


@pytest.mark.parametrize("query", ['"', "NEAR(a b)", "python AND", "(unbalanced", "*", "'; DROP TABLE items; --",
                                   "col:python", "^start", "a OR OR b", "NOT"])
def test_fts_syntax_in_queries_is_just_text(memory, query):
    seed(memory)
    assert isinstance(memory.recall(U, query), list)
    assert len(memory.items(U)) == 3


def test_recall_bad_arguments(memory):
    with pytest.raises(InvalidInput):
        memory.recall(U, "   ")
    with pytest.raises(InvalidInput):
        memory.recall(U, "q" * 5000)
    for k in (0, -1, 1001, "3", 2.5, True):
        with pytest.raises(InvalidInput):
            memory.recall(U, "python", k=k)


def test_recall_filters_by_kind_and_time(memory):
    seed(memory)
    memory.remember(U, "Prefers Python type hints everywhere.", kind="preference", now=4000.0)
    prefs = memory.recall(U, "python", kinds=["preference"])
    assert [h.item.kind for h in prefs] == ["preference"]
    window = memory.recall(U, "python", since=1500.0, until=2500.0)
    assert [h.text for h in window] == ["Deploys to AWS Lambda with Python 3.12."]


def test_subjects_are_isolated(memory):
    seed(memory)
    memory.remember("user:7", "Team uses MySQL 8 for everything.")
    assert all(h.item.subject == U for h in memory.recall(U, "team uses", k=10))
    assert [it.text for it in memory.items("user:7")] == ["Team uses MySQL 8 for everything."]
    assert memory.forget("user:7", "team") == 1
    assert len(memory.items(U)) == 3


def test_matches_previews_and_forget_deletes(memory):
    seed(memory)
    preview = memory.matches(U, "PYTHON")
    assert len(preview) == 2 and len(memory.items(U)) == 3  # preview deletes nothing
    assert memory.forget(U, "python") == 2
    assert [it.text for it in memory.items(U)] == ["Team uses Postgres 16 for all services."]
    assert all("Python" not in h.text for h in memory.recall(U, "python lambda"))


def test_forget_empty_pattern_is_an_error(memory):
    seed(memory)
    with pytest.raises(InvalidInput, match="forget_all"):
        memory.forget(U, "  ")
    assert len(memory.items(U)) == 3


def test_forget_by_id_and_forget_all(memory):
    seed(memory)
    first = memory.items(U)[0]
    assert memory.forget_ids(U, [first.id]) == 1
    with pytest.raises(NotFound):
        memory.get(first.id)
    assert memory.forget_all(U) == 2
    assert memory.items(U) == [] and U not in memory.subjects()


def test_forget_by_id_of_another_subject_does_nothing(memory):
    seed(memory)
    target = memory.items(U)[0]
    assert memory.forget_ids("user:7", [target.id]) == 0
    assert memory.get(target.id) == target


def test_remember_many_reports_each_text(memory):
    results = memory.remember_many(U, ["First fact in the batch.", "short", "First fact in the batch.",
                                       "Second fact in the batch."])
    assert [r.saved for r in results] == [True, False, False, True]
    assert results[1].reason.startswith("too short") and results[2].reason == "duplicate"


def test_a_new_memory_on_the_same_store_recalls(store_url):
    from engram.embed.hashing import HashingEmbedder

    with Memory(store_url, embedder=HashingEmbedder(256)) as first:
        seed(first)
    with Memory(store_url, embedder=HashingEmbedder(256)) as second:
        assert second.recall(U, "which database", k=1)[0].text == "Team uses Postgres 16 for all services."


def test_agent_is_recorded(store_url):
    from engram.embed.hashing import HashingEmbedder

    with Memory(store_url, embedder=HashingEmbedder(256), agent="researcher-2") as mem:
        saved = mem.remember("job:report-42", "The survey compares results from 40 field trials.")
        assert mem.get(saved.id).agent == "researcher-2"


def test_stats_counts_by_kind(memory):
    seed(memory)
    memory.set_preference(U, "style", "concise")
    memory.set_preference(U, "style", "detailed")
    stats = memory.stats(U)
    assert stats["by_kind"] == {"fact": 3, "preference": 1} and stats["history"] == 1


def test_remember_can_supersede_named_items_atomically(memory):
    old = memory.remember(U, "Lives in Berlin with two cats.", now=100.0)
    new = memory.remember(U, "Moved to Porto last spring.", supersedes=[old.id], now=200.0)
    assert new.saved and new.superseded == (old.id,)
    assert [it.text for it in memory.items(U)] == ["Moved to Porto last spring."]
    assert [h.text for h in memory.recall(U, "Berlin cats", as_of=150.0)] == ["Lives in Berlin with two cats."]
    assert [it.id for it in memory.history(new.id)] == [old.id, new.id]


def test_superseding_an_unknown_or_foreign_item_changes_nothing(memory):
    other = memory.remember("user:7", "Someone else's fact stays current.")
    with pytest.raises(NotFound):
        memory.remember(U, "Tries to replace another subject's fact.", supersedes=[other.id])
    with pytest.raises(NotFound):
        memory.remember(U, "Tries to replace a missing fact here.", supersedes=["nope"])
    assert memory.items(U) == [] and memory.get(other.id).current


def test_remember_many_takes_per_entry_options(memory):
    results = memory.remember_many(U, [
        {"text": "First turn of the session, said by Ana.", "source": "D1:1"},
        {"text": "Second turn of the session, said by Bo.", "source": "D1:2", "metadata": {"speaker": "Bo"}},
        "A plain text entry with the shared source.",
    ], source="session 1", event_at=500.0)
    items = {memory.get(r.id).source: memory.get(r.id) for r in results}
    assert set(items) == {"D1:1", "D1:2", "session 1"}
    assert items["D1:2"].metadata == {"speaker": "Bo"} and items["D1:1"].event_at == 500.0
    with pytest.raises(InvalidInput, match="'text'"):
        memory.remember_many(U, [{"source": "no text here"}])
    with pytest.raises(InvalidInput):
        memory.remember_many(U, "a single string is not a list")


def test_forget_deletes_the_same_rows_on_every_backend(memory):
    memory.remember("user:1", "Lives at Hauptstraße 5")
    memory.remember("user:1", "Visited the Ｔｏｋｙｏ office")
    memory.remember("user:1", "Likes cafe au lait")
    assert {it.text for it in memory.matches("user:1", "STRASSE")} == {"Lives at Hauptstraße 5"}
    assert memory.forget("user:1", "tokyo") == 1
    assert memory.matches("user:1", "café") == []  # accents are significant
    assert len(memory.matches("user:1", "CAFE")) == 1
