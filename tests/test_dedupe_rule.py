"""Deduplication ignores what a reader cannot see or does not mean: trailing punctuation and
invisible format characters (zero-width space, joiners, soft hyphen). Punctuation inside a text
still counts, and a store hashed by the earlier rule is rehashed once, keeping every item."""

from __future__ import annotations

import sqlite3

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.validate import content_hash, legacy_content_hash

U = "user:42"
BASE = "Team uses Postgres 16 for all services"


def test_trailing_punctuation_and_invisible_characters_do_not_make_a_new_fact(memory) -> None:
    first = memory.remember(U, BASE + "!")
    assert first.saved
    for copy in (BASE, BASE + ".", BASE + "!!", "Team uses Post\u200bgres 16 for all ser\u00advices.",
                 "\ufeffTeam uses Postgres 16 for all services"):
        again = memory.remember(U, copy)
        assert (again.saved, again.reason, again.id) == (False, "duplicate", first.id), copy
    assert len(memory.items(U)) == 1


def test_punctuation_inside_a_text_still_tells_facts_apart(memory) -> None:
    assert memory.remember(U, "The budget for the launch is 3.5k euros.").saved
    assert memory.remember(U, "The budget for the launch is 35k euros.").saved
    assert content_hash("Let's eat, grandma.") != content_hash("Lets eat grandma.")


def test_a_store_hashed_by_the_earlier_rule_is_rehashed_once_and_keeps_both_near_copies(tmp_path, monkeypatch) -> None:
    import engram.validate

    path = str(tmp_path / "memory.db")
    with monkeypatch.context() as old_rule:  # a store written by an Engram with the earlier rule
        old_rule.setattr(engram.validate, "content_hash", legacy_content_hash)
        with Memory(path, embedder=HashingEmbedder(64)) as mem:
            a = mem.remember(U, BASE + ".").id
            b = mem.remember(U, BASE + "!").id  # a new fact by the earlier rule
    assert a != b
    db = sqlite3.connect(path)
    db.execute("DELETE FROM settings WHERE key = 'content_hash.rule'")
    db.commit()
    db.close()
    with Memory(path, embedder=HashingEmbedder(64)) as mem:
        assert {it.id for it in mem.items(U)} == {a, b}  # both kept
        hashes = dict(mem.store.query("SELECT id, content_hash FROM items", ()))
        assert hashes[a] == hashes[b] == content_hash(BASE)
        again = mem.remember(U, BASE)
        assert (again.saved, again.id) == (False, a)  # the first keeps the dedupe key
        assert mem.store.setting("content_hash.rule") == "2"
