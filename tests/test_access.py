"""Sharing between subjects: private by default, explicit grants, enforced under Memory."""

from __future__ import annotations

import pytest

from engram.embed.hashing import HashingEmbedder
from engram.errors import AccessDenied, InvalidInput
from engram.core.memory import Memory


@pytest.fixture
def open_as(store_url):
    opened: list[Memory] = []

    def open_(principal: str | None) -> Memory:
        mem = Memory(store_url, embedder=HashingEmbedder(64), principal=principal)
        opened.append(mem)
        return mem

    yield open_
    for mem in opened:
        mem.close()


def test_a_principal_reads_and_writes_its_own_subject(open_as):
    me = open_as("user:1")
    assert me.remember("user:1", "My own fact is mine to keep.").saved
    assert [h.text for h in me.recall("user:1", "own fact")] == ["My own fact is mine to keep."]


def test_other_subjects_are_private_by_default(open_as):
    owner = open_as("user:1")
    owner.remember("user:1", "A private fact of user one.")
    other = open_as("user:2")
    for call in (lambda: other.recall("user:1", "private fact"), lambda: other.items("user:1"),
                 lambda: other.matches("user:1", "private"), lambda: other.forget("user:1", "private"),
                 lambda: other.forget_all("user:1"), lambda: other.remember("user:1", "Injected by user two."),
                 lambda: other.preferences("user:1")):
        with pytest.raises(AccessDenied):
            call()
    item_id = owner.items("user:1")[0].id
    assert other.store.get([item_id]) == []
    assert "user:1" not in other.subjects()
    assert [it.text for it in owner.items("user:1")] == ["A private fact of user one."]


def test_read_grant_allows_reading_only(open_as):
    owner = open_as("job:report-42")
    owner.remember("job:report-42", "The survey compares results from 40 field trials.")
    owner.grant("job:report-42", "agent:writer", "read")
    writer = open_as("agent:writer")
    assert writer.recall("job:report-42", "field trials")[0].text.startswith("The survey")
    with pytest.raises(AccessDenied):
        writer.remember("job:report-42", "The writer tries to add a note.")
    with pytest.raises(AccessDenied):
        writer.forget("job:report-42", "survey")


def test_write_grant_lets_several_agents_share_a_job(open_as):
    owner = open_as("job:report-42")
    owner.grant("job:report-42", "agent:researcher-1", "write")
    owner.grant("job:report-42", "agent:researcher-2", "write")
    r1 = open_as("agent:researcher-1")
    r2 = open_as("agent:researcher-2")
    a = r1.remember("job:report-42", "The report defines its test conditions in section 2.", agent="agent:researcher-1")
    b = r2.remember("job:report-42", "The survey compares results from 40 field trials.", agent="agent:researcher-2")
    items = {it.id: it.agent for it in owner.items("job:report-42")}
    assert items == {a.id: "agent:researcher-1", b.id: "agent:researcher-2"}
    assert owner.grants("job:report-42") == {"agent:researcher-1": "write", "agent:researcher-2": "write"}


def test_revoke_takes_access_back(open_as):
    owner = open_as("user:1")
    owner.remember("user:1", "Shared for a while, then not.")
    owner.grant("user:1", "user:2", "read")
    other = open_as("user:2")
    assert other.items("user:1")
    owner.revoke("user:1", "user:2")
    with pytest.raises(AccessDenied):
        other.items("user:1")


def test_only_the_owner_can_grant(open_as):
    intruder = open_as("user:2")
    with pytest.raises(AccessDenied):
        intruder.grant("user:1", "user:2", "write")
    owner = open_as("user:1")
    with pytest.raises(InvalidInput):
        owner.grant("user:1", "user:2", "everything")
    assert owner.grants("user:1") == {}


def test_no_principal_means_a_local_admin(open_as):
    admin = open_as(None)
    admin.remember("user:1", "Written by the local admin process.")
    admin.remember("user:2", "Also written by the local admin.")
    assert set(admin.subjects()) == {"user:1", "user:2"}


def test_a_principal_recalls_through_the_stores_own_vector_search(open_as, backend):
    """Scoping keeps the store's capabilities: on PostgreSQL a principal's recall is answered by
    the server's nearest-neighbour search (no subject matrix pulled), and that search is checked."""
    from engram.store.base import SearchesVectors

    owner = open_as("user:1")
    owner.remember("user:1", "The team deploys on Fridays.")
    owner.grant("user:1", "agent:helper", "read")
    helper, stranger = open_as("agent:helper"), open_as("user:9")
    assert isinstance(helper.store, SearchesVectors) == (backend == "postgres")
    assert [h.text for h in helper.recall("user:1", "when do we deploy?")] == ["The team deploys on Fridays."]
    with pytest.raises(AccessDenied):
        stranger.recall("user:1", "when do we deploy?")
    if backend == "postgres":
        with pytest.raises(AccessDenied):
            stranger.store.nearest("user:1", stranger.embedder.identity, stranger.embedder.embed_one("x"), 5, [])
