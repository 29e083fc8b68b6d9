"""Prompt assembly with stored conversations: the passage that matched goes in (not the whole
message), a tool result is labelled untrusted, and memory keeps its reserve of the budget when the
conversation alone would fill it."""

from __future__ import annotations

from engram.agent.prompt import MAX_PASSAGE_TOKENS, MEMORY_SHARE, assemble
from engram.kinds.working import Conversation
from engram.tokens import count_content, count_message, default_counter

SUBJECT = "user:42"
LONG = ("Here is the rollout plan for the new billing service.\n\n"
        + "\n\n".join(f"Phase {i}: move tenant group {i} after the nightly batch, watch the error budget for a "
                      f"day, then continue; the on-call for group {i} signs off in the channel." for i in range(1, 12))
        + "\n\n## Rollback\nIf invoices fail, switch the feature flag billing_v2 off; the old service keeps running "
          "until the end of the quarter.")


def test_the_matching_passage_goes_in_not_the_message(sqlite_memory):
    sqlite_memory.add_messages(SUBJECT, [
        {"role": "user", "content": "How do we roll out the billing service?", "id": "q1"},
        {"role": "assistant", "content": LONG, "id": "a1"},
        {"role": "tool", "content": "Status page: billing_v2 flag is currently off in every region.", "id": "t1"},
    ], at="2026-03-02T10:00:00Z")
    ctx = assemble(sqlite_memory, SUBJECT, "how do we roll back the billing feature flag?", budget=2000)
    lines = [e.text for e in ctx.included if e.section == "message"]
    assert lines, ctx.explain()
    plan = next(t for t in lines if "feature flag billing_v2 off" in t)
    assert plan.startswith("assistant, 2026-03-02: ")
    assert "Phase 1:" not in plan and len(plan) < len(LONG) // 3  # the passage, not 8,000 characters
    tool = [t for t in lines if "Status page" in t]
    assert tool and tool[0].startswith("tool output (untrusted, not the user's words), 2026-03-02: ")
    assert ctx.tokens <= 2000 and all(e.tokens <= MAX_PASSAGE_TOKENS + 30 for e in ctx.included)


def test_messages_of_the_current_session_stay_out(sqlite_memory):
    sqlite_memory.add_messages(SUBJECT, [{"role": "user", "content": "The billing flag is billing_v2."}],
                               session="now")
    ctx = assemble(sqlite_memory, SUBJECT, "billing flag", budget=2000, exclude_session="now")
    assert not [e for e in ctx.included if e.section == "message"]


def _long_conversation() -> Conversation:
    conv = Conversation("", 100_000)
    for i in range(30):
        conv.add_user(f"Question {i} about the deployment pipeline and its caching of build layers?")
        conv.add_assistant(f"Answer {i}: the pipeline caches layers per branch and evicts them after a week.")
    return conv


def _sent(system: str, conv: Conversation) -> int:
    counter = default_counter()
    return count_content(system, counter) + sum(count_message(t, counter) for t in conv.turns)


def test_memory_keeps_its_reserve_when_the_conversation_fills_the_budget(sqlite_memory):
    sqlite_memory.remember(SUBJECT, "Deploys the pipeline from GitLab runners in Frankfurt.")
    budget = 600
    conv = _long_conversation()
    assert conv.tokens() > 2 * budget
    ctx = assemble(sqlite_memory, SUBJECT, "where do the pipeline runners live?", budget=budget, conversation=conv)
    assert [e.text for e in ctx.included] == ["Deploys the pipeline from GitLab runners in Frankfurt."]
    assert ctx.tokens <= budget and _sent(ctx.system, conv) == ctx.tokens
    turns = ctx.tokens - count_content(ctx.system, default_counter())
    assert turns <= budget - min(int(budget * MEMORY_SHARE), ctx.room)  # the turns left the reserve free


def test_without_memories_the_conversation_keeps_the_whole_budget(sqlite_memory):
    budget = 600
    reserved, alone = _long_conversation(), _long_conversation()
    sqlite_memory.remember("user:other", "Deploys the pipeline from GitLab runners in Frankfurt.")
    assemble(sqlite_memory, SUBJECT, "where do the pipeline runners live?", budget=budget, conversation=alone,
             preferences=0, procedures=0, episodes=0)
    sqlite_memory.remember(SUBJECT, "Deploys the pipeline from GitLab runners in Frankfurt.")
    assemble(sqlite_memory, SUBJECT, "where do the pipeline runners live?", budget=budget, conversation=reserved)
    assert len(alone.turns) > len(reserved.turns)  # nothing to show: no turn folded for memory


def test_the_newest_exchange_comes_before_the_reserve(sqlite_memory):
    sqlite_memory.remember(SUBJECT, "Deploys the pipeline from GitLab runners in Frankfurt.")
    conv = Conversation("", 100_000)
    conv.add_user("Explain the whole pipeline again please, " + "with every stage and its cache, " * 14)
    budget = count_message(conv.turns[0], default_counter()) + 20  # the exchange fits, the reserve does not
    ctx = assemble(sqlite_memory, SUBJECT, "pipeline", budget=budget, conversation=conv)
    assert len(conv.turns) == 1 and ctx.tokens <= budget
