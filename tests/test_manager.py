"""Memory manager: session summaries, consolidation, importance, pruning, stats; and their CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from engram.agent import manager
from engram.agent.manager import consolidate, importance, memory_stats, prune, score_importance, summarize_session
from engram.errors import InvalidInput, NotFound
from engram.llm import ScriptedLLM
from engram.core.memory import Memory
from engram.types import SUMMARY, Item, iso

U = "user:42"
DAY = 86400.0
T0 = 1_793_700_000.0


def _session(memory: Memory) -> None:
    memory.log_episode(U, "Helped debug a cosine similarity bug", "Fixed a shape mismatch", session="s1",
                       category="debugging", now=T0)
    memory.log_episode(U, "Tried matrix factorisation on the full data", "Ran out of memory", success=False,
                       session="s1", category="modelling", now=T0 + 60)
    memory.remember(U, "Team uses Postgres 16 for all services.", session="s1", now=T0 + 120)
    memory.log_episode(U, "Explained collaborative filtering", "User understood", session="s2", now=T0 + DAY)


@pytest.fixture
def mem(sqlite_memory: Memory) -> Memory:
    """SQLite only: the tests taking `memory` run on every backend and cover backend parity."""
    return sqlite_memory


# -- summaries ---------------------------------------------------------------------------------
def test_offline_summary_covers_the_session_and_marks_failures(memory):
    _session(memory)
    result = summarize_session(memory, U, "s1", now=T0 + DAY)
    assert result.saved and result.method == "extractive" and len(result.covers) == 3
    assert "2 episode(s), 1 succeeded" in result.text
    assert "Ran out of memory (failed)" in result.text and "Postgres 16" in result.text
    assert "collaborative" not in result.text  # another session
    stored = memory.get(result.saved.id)
    assert stored.kind == SUMMARY and stored.session == "s1" and stored.key == "session:s1"
    assert stored.event_at == T0 + 120  # dated like the session, not like the summarising run
    assert sorted(stored.metadata["covers"]) == sorted(result.covers)


def test_summary_is_recalled_and_forgotten_with_what_it_quotes(mem):
    _session(mem)
    summarize_session(mem, U, "s1", now=T0 + DAY)
    hits = mem.recall(U, "what happened in the session about cosine similarity", k=5, kinds=[SUMMARY])
    assert hits and hits[0].item.key == "session:s1"
    mem.forget(U, "Postgres")  # the summary quotes the fact, so it goes too
    assert mem.items(U, kinds=[SUMMARY]) == []


def test_llm_summary_uses_one_call_and_redacts(mem):
    _session(mem)
    llm = ScriptedLLM(["The user debugged a cosine bug; key sk-ant-api03-Xy7Qw2Lp9Rt4Vb8NfK2mZZ was shared."])
    result = summarize_session(mem, U, "s1", llm=llm, now=T0 + DAY)
    assert len(llm.requests) == 1 and "Helped debug a cosine similarity bug" in llm.requests[0].last_user_text
    assert result.method == "llm:scripted" and result.saved
    assert "sk-ant-api03" not in result.text and "cosine bug" in result.text


def test_resummarising_supersedes_the_old_summary(mem):
    _session(mem)
    first = summarize_session(mem, U, "s1", now=T0 + DAY)
    mem.log_episode(U, "Added an index to the orders table", "Query 40x faster", session="s1", now=T0 + 200)
    second = summarize_session(mem, U, "s1", now=T0 + 2 * DAY)
    assert second.saved.superseded == (first.saved.id,)
    assert [it.id for it in mem.items(U, kinds=[SUMMARY])] == [second.saved.id]


def test_summary_of_an_unknown_session_is_not_found(mem):
    with pytest.raises(NotFound, match="no memories in session 'nope'"):
        summarize_session(mem, U, "nope")
    with pytest.raises(InvalidInput, match="session"):
        summarize_session(mem, U, "  ")


# -- consolidation -----------------------------------------------------------------------------
def test_consolidate_previews_then_supersedes_keeping_history(memory):
    old = memory.remember(U, "Team uses Postgres 16 for all services.", now=T0)
    new = memory.remember(U, "Team uses Postgres 16 for all of its services.", now=T0 + DAY)
    other = memory.remember(U, "Works in the Europe/Lisbon time zone.", now=T0)
    memory.recall(U, "Postgres all services", k=1, now=T0)  # an access to carry over
    plan = consolidate(memory, U, now=T0 + 2 * DAY)
    assert [(m.keep.id, [d.id for d in m.drop]) for m in plan] == [(new.id, [old.id])]
    assert plan[0].similarity[0] >= manager.DEFAULT_THRESHOLD
    assert len(memory.items(U)) == 3  # the preview changed nothing
    consolidate(memory, U, dry_run=False, now=T0 + 2 * DAY)
    current = {it.id: it for it in memory.items(U)}
    assert set(current) == {new.id, other.id}
    assert current[new.id].access_count == 1 and current[new.id].metadata["merged"] == [old.id]
    assert [it.id for it in memory.history(new.id)] == [old.id, new.id]
    assert memory.get(old.id).superseded_by == new.id
    assert consolidate(memory, U, now=T0 + 3 * DAY) == []  # nothing left to merge


def test_consolidate_never_merges_across_kinds_or_keys(mem):
    mem.remember(U, "Team uses Postgres 16 for all services.", now=T0)
    mem.remember(U, "Team uses Postgres 16 for all of its services.", kind="summary", now=T0 + 1)
    mem.set_preference(U, "db_style", "Team uses Postgres 16 for all services", now=T0)
    mem.set_preference(U, "db_choice", "Team uses Postgres 16 for all of its services", now=T0 + 1)
    assert consolidate(mem, U, now=T0 + DAY) == []


def test_consolidate_with_the_default_model_merges_paraphrases_only(tmp_path):
    with Memory(str(tmp_path / "m.db")) as mem:  # the real all-MiniLM-L6-v2
        mem.remember(U, "Team uses Postgres 16 for all services.", now=T0)
        keep = mem.remember(U, "The team uses Postgres 16 for every service.", now=T0 + DAY)
        mem.remember(U, "Is building a recommendation system for an e-commerce shop.", now=T0)
        mem.remember(U, "Building a recommender for an online store.", now=T0 + DAY)  # related, 0.77
        merges = consolidate(mem, U)
    assert [m.keep.id for m in merges] == [keep.id] and len(merges[0].drop) == 1


def test_consolidate_rejects_bad_threshold_and_missing_embedder(mem, tmp_path):
    with pytest.raises(InvalidInput, match="threshold"):
        consolidate(mem, U, threshold=1.5)
    with Memory(str(tmp_path / "plain.db"), embedder="none") as plain:
        with pytest.raises(InvalidInput, match="embedder"):
            consolidate(plain, U)


# -- importance --------------------------------------------------------------------------------
def _item(**fields) -> Item:
    base = {"id": "x", "subject": U, "text": "Team uses Postgres 16.", "created_at": T0, "event_at": T0}
    return Item(**{**base, **fields})


def test_importance_formula_terms():
    now = T0
    fact = importance(_item(), now)
    assert fact == pytest.approx((0.5 + 0.15) * 1.0)  # prior + fresh (written now), full trust
    assert importance(_item(kind="preference"), now) > fact > importance(_item(kind="episode"), now)
    assert importance(_item(access_count=20, last_accessed=now), now) == pytest.approx(0.85)
    assert importance(_item(metadata={"explicit": True}), now) == pytest.approx(0.8)
    assert importance(_item(confidence=0.0), now) == pytest.approx(fact / 2)
    assert importance(_item(), now + 30 * DAY) == pytest.approx(0.5 + 0.075)  # one half-life later
    assert importance(_item(metadata={"pinned": True}, confidence=0.1), now) == 1.0
    failed = _item(kind="episode", metadata={"success": False})
    assert importance(failed, now) > importance(_item(kind="episode", metadata={"success": True}), now)


def test_score_importance_stores_the_scores(mem):
    a = mem.remember(U, "Team uses Postgres 16 for all services.", now=T0)
    b = mem.remember(U, "Works in the Europe/Lisbon time zone.", now=T0 - 90 * DAY)
    mem.recall(U, "Postgres", k=1, now=T0)
    scores = score_importance(mem, U, now=T0)
    assert scores[a.id] > scores[b.id]
    assert mem.get(a.id).importance == scores[a.id] and mem.get(b.id).importance == scores[b.id]


# -- pruning -----------------------------------------------------------------------------------
def _aged(memory: Memory) -> dict[str, str]:
    ids = {
        "old": memory.remember(U, "Was evaluating Redis for caching last year.", now=T0 - 400 * DAY).id,
        "old_used": memory.remember(U, "Deploys to AWS Lambda with Python 3.12.", now=T0 - 400 * DAY).id,
        "new": memory.remember(U, "Team uses Postgres 16 for all services.", now=T0).id,
        "pref": memory.set_preference(U, "response_style", "concise", now=T0 - 400 * DAY).id,
        "pinned": memory.remember(U, "Name is Rahul, call him by first name.", metadata={"pinned": True},
                                  now=T0 - 400 * DAY).id,
    }
    memory.recall(U, "Lambda Python deploy", k=1, now=T0 - DAY)
    return ids


def test_prune_previews_then_deletes_everywhere(memory):
    ids = _aged(memory)
    plan = prune(memory, U, older_than_days=365, unused_days=180, now=T0)
    assert [c.item.id for c in plan.candidates] == [ids["old"]] and plan.deleted == 0
    assert "never recalled" in plan.candidates[0].reason and "400 days old" in plan.candidates[0].reason
    assert len(memory.items(U)) == 5  # preview only
    done = prune(memory, U, older_than_days=365, unused_days=180, dry_run=False, now=T0)
    assert done.deleted == 1 and not done.dry_run
    assert memory.matches(U, "Redis") == []
    assert all("Redis" not in h.text for h in memory.recall(U, "Redis caching", k=5, now=T0))


def test_prune_by_importance_spares_pinned_and_preferences(mem):
    ids = _aged(mem)
    plan = prune(mem, U, below_importance=0.6, now=T0)
    gone = {c.item.id for c in plan.candidates}
    assert ids["old"] in gone and ids["pinned"] not in gone and ids["pref"] not in gone
    assert ids["new"] not in gone  # fresh: 0.65
    with_prefs = prune(mem, U, below_importance=0.9, kinds=["fact", "preference"], now=T0)
    assert ids["pref"] in {c.item.id for c in with_prefs.candidates}


def test_prune_history_only_when_asked(mem):
    first = mem.store_fact(U, "home_city", "Berlin", now=T0 - 400 * DAY)
    mem.store_fact(U, "home_city", "Porto", now=T0 - 300 * DAY)
    assert first.id not in {c.item.id for c in prune(mem, U, older_than_days=350, now=T0).candidates}
    plan = prune(mem, U, older_than_days=350, include_superseded=True, now=T0)
    assert [c.item.id for c in plan.candidates] == [first.id]


def test_prune_needs_a_criterion_and_valid_numbers(mem):
    with pytest.raises(InvalidInput, match="say what to prune"):
        prune(mem, U)
    with pytest.raises(InvalidInput, match="below_importance"):
        prune(mem, U, below_importance=2)
    with pytest.raises(InvalidInput, match="older_than_days"):
        prune(mem, U, older_than_days=-1)


# -- stats -------------------------------------------------------------------------------------
def test_stats_counts_sessions_success_and_access(memory):
    _session(memory)
    summarize_session(memory, U, "s1", now=T0 + DAY)
    memory.recall(U, "Postgres", k=1, now=T0 + DAY)
    stats = memory_stats(memory, U)
    assert stats["by_kind"] == {"episode": 3, "fact": 1, "summary": 1}
    assert stats["sessions"] == 2 and stats["sessions_summarised"] == 1
    assert stats["episodes"]["n"] == 3 and stats["episodes"]["success_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert stats["episodes"]["by_category"]["modelling"] == {"n": 1, "succeeded": 0, "success_rate": 0.0}
    assert stats["oldest"] == iso(T0) and stats["never_recalled"] == stats["items"] - 1
    assert stats["most_recalled"][0]["text"].startswith("Team uses Postgres")


# -- CLI ---------------------------------------------------------------------------------------
@pytest.fixture
def cli_main():
    from engram.interfaces.cli import main
    from engram.interfaces.commands import manage

    if "prune" not in main.commands:  # until the lead lists the module in EXTRA_COMMANDS
        manage.register(main)
    return main


def test_cli_consolidate_and_prune_preview_then_apply(cli_main, tmp_path):
    db = str(tmp_path / "cli.db")
    with Memory(db, embedder="hashing") as mem:
        mem.remember(U, "Team uses Postgres 16 for all services.", now=T0)
        mem.remember(U, "Team uses Postgres 16 for all of its services.", now=T0 + DAY)
        mem.remember(U, "Was evaluating Redis for caching last year.", now=T0 - 400 * DAY)
    run = CliRunner().invoke
    base = ["--db", db, "--embedder", "hashing"]
    preview = json.loads(run(cli_main, [*base, "consolidate", U, "--json"]).output)
    assert preview["would_merge"] == 1 and "merged" not in preview
    applied = json.loads(run(cli_main, [*base, "consolidate", U, "--yes", "--json"]).output)
    assert applied["merged"] == 1
    pr = json.loads(run(cli_main, [*base, "prune", U, "--older-than", "365", "--json"]).output)
    assert pr["would_prune"] == 1 and pr["items"][0]["text"].startswith("Was evaluating Redis")
    done = run(cli_main, [*base, "prune", U, "--older-than", "365", "--yes", "--json"])
    assert json.loads(done.output) == {"pruned": 1}
    bad = run(cli_main, [*base, "prune", U])
    assert bad.exit_code == 1 and "error: say what to prune" in bad.output


def test_cli_summarize_and_importance(cli_main, tmp_path):
    db = str(tmp_path / "cli.db")
    with Memory(db, embedder="hashing") as mem:
        _session(mem)
    base = ["--db", db, "--embedder", "hashing"]
    out = json.loads(CliRunner().invoke(cli_main, [*base, "summarize", U, "s1", "--json"]).output)
    assert out["saved"] and out["method"] == "extractive" and out["covers"] == 3
    scored = json.loads(CliRunner().invoke(cli_main, [*base, "importance", U, "--json"]).output)
    assert scored["scored"] == 5 and all(0 <= v <= 1 for v in scored["importance"].values())
