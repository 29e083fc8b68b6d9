"""Episodic memory: keyed facts by category, episodes, preferences, saved conversations."""

from __future__ import annotations

import pytest

from engram.errors import InvalidInput, NotFound
from engram.kinds.working import Conversation

U = "user:42"


def test_store_and_get_fact_by_key_and_category(memory):
    memory.store_fact(U, "user_name", "Rahul", category="identity", source="turn-1")
    memory.store_fact(U, "user_role", "ML Engineer", category="identity")
    memory.store_fact(U, "db_technology", "PostgreSQL", category="tech_stack", confidence=0.9)
    fact = memory.get_fact(U, "db_technology")
    assert fact.metadata["value"] == "PostgreSQL" and fact.category == "tech_stack" and fact.confidence == 0.9
    assert sorted(f.key for f in memory.facts_by_category(U, "identity")) == ["user_name", "user_role"]
    assert memory.get_fact(U, "missing_key") is None


def test_new_value_for_a_key_supersedes_and_keeps_history(memory):
    first = memory.store_fact(U, "home_city", "Berlin", category="identity", now=100.0)
    second = memory.store_fact(U, "home_city", "Porto", category="identity", now=200.0)
    assert second.saved and second.superseded == (first.id,)
    assert memory.get_fact(U, "home_city").metadata["value"] == "Porto"
    assert [it.metadata["value"] for it in memory.history(second.id)] == ["Berlin", "Porto"]
    same = memory.store_fact(U, "home_city", "Porto", category="identity", now=300.0)
    assert not same.saved and same.reason == "duplicate"


def test_episodes_recent_and_success_only(memory):
    memory.log_episode(U, "Helped debug cosine similarity", "Fixed shape mismatch", session="s1", now=1.0)
    memory.log_episode(U, "Explained collaborative filtering", "User understood", session="s1", now=2.0)
    memory.log_episode(U, "Tried matrix factorization", "Memory error on large data", success=False,
                       session="s2", category="modelling", now=3.0)
    recent = memory.recent_episodes(U, 2)
    assert [e.action for e in recent] == ["Tried matrix factorization", "Explained collaborative filtering"]
    assert not recent[0].success and recent[0].result == "Memory error on large data"
    assert [e.action for e in memory.recent_episodes(U, 10, success_only=True)] == [
        "Explained collaborative filtering", "Helped debug cosine similarity"]
    assert [e.session for e in memory.recent_episodes(U, 10, session="s2")] == ["s2"]
    assert [e.category for e in memory.recent_episodes(U, 10, category="modelling")] == ["modelling"]


def test_identical_episodes_are_both_kept(memory):
    memory.log_episode(U, "Ran the nightly report", "ok")
    memory.log_episode(U, "Ran the nightly report", "ok")
    assert len(memory.recent_episodes(U, 10)) == 2


def test_episode_bad_input(memory):
    with pytest.raises(InvalidInput):
        memory.log_episode(U, "   ")
    with pytest.raises(InvalidInput):
        memory.log_episode(U, "did a thing", success="yes")
    assert memory.recent_episodes(U, 10) == []


def test_preferences_set_get_default_all(memory):
    memory.set_preference(U, "response_style", "concise with code examples")
    memory.set_preference(U, "explanation_depth", "intermediate")
    memory.set_preference(U, "explanation_depth", "expert")
    assert memory.get_preference(U, "explanation_depth") == "expert"
    assert memory.get_preference(U, "missing", default="none") == "none"
    assert memory.preferences(U) == {"response_style": "concise with code examples", "explanation_depth": "expert"}


def test_episodic_items_are_scoped_by_subject(memory):
    memory.set_preference(U, "style", "concise")
    memory.log_episode(U, "Did something for user 42")
    assert memory.preferences("user:7") == {}
    assert memory.recent_episodes("user:7", 5) == []


def test_forget_reaches_episodes_that_quote_the_text(memory):
    memory.remember(U, "Codename Bluebird is the new project.")
    memory.log_episode(U, "Summarised the Bluebird kickoff", "sent notes")
    assert memory.forget(U, "bluebird") == 2
    assert memory.recent_episodes(U, 5) == []


def test_conversation_save_and_resume(memory):
    conv = Conversation("You are helpful.", budget=2000)
    conv.add("user", "Hello there,   I use  Postgres.")
    conv.add("assistant", "Noted.")
    memory.save_conversation(U, "sess-1", conv)
    conv.add("user", "And Python 3.12.")
    memory.save_conversation(U, "sess-1", conv)
    resumed = Conversation.load(memory, U, "sess-1")
    assert resumed.to_dict() == conv.to_dict()
    with pytest.raises(NotFound):
        Conversation.load(memory, U, "nope")
    assert all(h.item.kind != "conversation" for h in memory.recall(U, "Postgres Python", k=10))


def test_a_secret_in_an_episodes_context_is_refused(memory):
    result = memory.log_episode(U, "Deployed the service", "ok",
                                context="used token ghp_4f8Kd93LmQz7XyP2vR6tW1nB5cH0jA9sE3uY")
    assert not result.saved and "secret" in result.reason
    assert memory.recent_episodes(U, 5) == []


def test_get_fact_reads_one_row_through_the_key_index(tmp_path):
    """A keyed read asks the store for the key (its current-key index), never every fact of the subject."""
    from engram import Memory
    from engram.store import open_store

    class Counting:  # the real store, with the rows each find returns counted
        def __init__(self, inner):
            self.inner, self.rows = inner, 0

        def find(self, *args, **kwargs):
            found = self.inner.find(*args, **kwargs)
            self.rows += len(found)
            return found

        def __getattr__(self, name):
            return getattr(self.inner, name)

    store = Counting(open_store(str(tmp_path / "m.db")))
    mem = Memory(store, embedder="none")
    for n in range(30):
        mem.store_fact(U, f"key_{n}", f"value {n}")
    store.rows = 0
    assert mem.get_fact(U, "key_7").metadata["value"] == "value 7"
    assert mem.get_preference(U, "missing", "none") == "none"
    assert store.rows == 1
    mem.close()


def test_mark_superseded_and_update_go_through_the_facade(memory):
    old = memory.remember(U, "The deploy target is Heroku.", now=100.0)
    new = memory.remember(U, "Deploys go to the staging cluster first.", now=200.0)
    assert memory.admin.mark_superseded([old.id], new.id) == [old.id]
    closed = memory.get(old.id)
    assert closed.superseded_by == new.id and closed.valid_to == 200.0
    assert memory.admin.mark_superseded([old.id], new.id) == []  # already history: left alone
    assert memory.admin.update([new.id], importance=0.9, metadata={"pinned": True}) == 1
    assert memory.get(new.id).importance == 0.9 and memory.get(new.id).metadata == {"pinned": True}
    with pytest.raises(InvalidInput, match="importance"):
        memory.admin.update([new.id], importance=1.5)
    other = memory.remember("user:other", "Someone else's note here.")
    assert memory.admin.mark_superseded([other.id], new.id) == []  # another subject is never closed


def test_a_conversation_saves_and_loads_itself(memory):
    conv = Conversation("You are helpful.", budget=2000)
    conv.add("user", "I moved to Porto.")
    first = conv.save(memory, U, "sess-2", expect="")
    conv.add("assistant", "Noted.")
    conv.save(memory, U, "sess-2", expect=first.id)
    assert Conversation.load(memory, U, "sess-2").to_dict() == conv.to_dict()
    assert memory.conversation_state(U, "sess-2") == conv.to_dict()
