"""The prompt never exceeds its budget silently: a long conversation is folded into its summary
until system text and turns fit, or a clear error says that even the newest exchange cannot."""

from __future__ import annotations

import pytest

from engram.agent.prompt import assemble
from engram.core.memory import Memory
from engram.errors import InvalidInput
from engram.kinds.working import Conversation
from engram.tokens import count_content, count_message, default_counter

SUBJECT = "user:42"
QUESTIONS = [
    "Which Python runtime should the Lambda use?", "Can you show the handler signature?",
    "How do I read an environment variable there?", "What about the timeout setting?",
    "Where do the logs go?", "How do I add a layer with numpy?", "Can it connect to Postgres?",
    "What is a cold start?", "How big can the deployment package be?", "How do I test it locally?",
]


def _conversation() -> Conversation:
    conv = Conversation("", 4000)
    for question in QUESTIONS:
        conv.add_user(question)
        conv.add_assistant("Here is a short answer about that, with one example and a caveat.")
    return conv


def _total(ctx_system: str, conv: Conversation) -> int:
    counter = default_counter()
    return count_content(ctx_system, counter) + sum(count_message(t, counter) for t in conv.turns)


def test_a_long_conversation_is_folded_into_the_budget(sqlite_memory: Memory) -> None:
    sqlite_memory.remember(SUBJECT, "Deploys to AWS Lambda with Python 3.12.")
    conv = _conversation()
    before = conv.tokens()
    assert before > 300  # the shape: a 334-token conversation, a 50-token budget
    ctx = assemble(sqlite_memory, SUBJECT, "How do I test it locally?", budget=50, conversation=conv)
    assert ctx.tokens <= 50
    assert _total(ctx.system, conv) == ctx.tokens  # what the caller sends is what was counted
    assert conv.turns[-1]["content"] == "Here is a short answer about that, with one example and a caveat."
    assert conv.turns[0]["role"] == "user" and conv.compactions == 1
    assert len(conv.turns) < 2 * len(QUESTIONS)


@pytest.mark.parametrize("budget", [50, 60, 120, 250, 400])
def test_every_budget_holds_with_a_conversation(sqlite_memory: Memory, budget: int) -> None:
    sqlite_memory.remember(SUBJECT, "Deploys to AWS Lambda with Python 3.12.")
    conv = _conversation()
    ctx = assemble(sqlite_memory, SUBJECT, "Where do the logs go?", system="Be brief.", budget=budget,
                   conversation=conv)
    assert ctx.tokens <= budget and _total(ctx.system, conv) <= budget


def test_a_newest_turn_larger_than_the_budget_is_an_error(sqlite_memory: Memory) -> None:
    conv = _conversation()
    conv.add_user("Please explain in detail " + "how Lambda scales and bills, " * 20)
    turns_before = conv.turns
    with pytest.raises(InvalidInput, match="newest exchange .* does not fit in a budget of 50"):
        assemble(sqlite_memory, SUBJECT, "scaling", budget=50, conversation=conv)
    assert conv.turns == turns_before and conv.summary == ""  # left as it was


def test_a_system_prompt_larger_than_the_budget_is_an_error(sqlite_memory: Memory) -> None:
    with pytest.raises(InvalidInput, match="more than the budget of 10"):
        assemble(sqlite_memory, SUBJECT, "anything", system="You are a careful assistant. " * 10, budget=10)
