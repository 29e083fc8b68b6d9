"""Token counting: real tiktoken counts offline, block-aware message counts, summary tails."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram.errors import InvalidInput
from engram.tokens import (
    CLAUDE_MARGIN,
    CLAUDE_NEW_TOKENIZER_MARGIN,
    IMAGE_TOKENS,
    MESSAGE_OVERHEAD,
    CharsCounter,
    TiktokenCounter,
    TokenCounter,
    count_content,
    count_message,
    counter_for_model,
    default_counter,
    tail_within,
)

CODE = "def f(xs):\n    return {k: v for k, v in xs.items() if v is not None}  # keep set values\n"
JSON = '{"id":"a1b2","score":0.8731,"tags":["db","pg16"],"ok":true,"n":[1,2,3,4,5,6,7,8]}'
CHINESE = "长期记忆保存用户的偏好、约束和决定，并在相关时召回。"
RUSSIAN = "Долговременная память хранит предпочтения пользователя и решения команды."


@pytest.fixture(scope="module")
def cl100k() -> TiktokenCounter:
    return TiktokenCounter("cl100k_base")


@pytest.fixture(scope="module")
def o200k() -> TiktokenCounter:
    return TiktokenCounter("o200k_base")


def test_known_tiktoken_values(cl100k: TiktokenCounter, o200k: TiktokenCounter) -> None:
    assert cl100k.encode("hello world") == [15339, 1917]
    assert cl100k.count("hello world") == 2
    # The example in tiktoken's own README.
    assert cl100k.encode("tiktoken is great!") == [83, 1609, 5963, 374, 2294, 0]
    assert o200k.count("hello world") == 2
    assert o200k.encode("hello world") != cl100k.encode("hello world")


def test_special_token_text_is_counted_not_rejected(o200k: TiktokenCounter) -> None:
    # User text may contain the literal string; it must count as ordinary text, not raise.
    assert o200k.count("<|endoftext|>") > 1


def test_tokenizer_differs_from_four_chars_rule(o200k: TiktokenCounter) -> None:
    chars = CharsCounter()
    for text in (CHINESE, JSON):
        # The 4-chars rule undercounts these by a wide margin.
        assert o200k.count(text) > 1.3 * chars.count(text), text
    for text in (CODE, RUSSIAN):
        assert o200k.count(text) != chars.count(text), text


def test_margin_scales_and_rounds_up(o200k: TiktokenCounter) -> None:
    text = "Team uses Postgres 16 for all services."
    exact = o200k.count(text)
    assert TiktokenCounter("o200k_base", margin=1.5).count(text) == math.ceil(exact * 1.5)
    assert TiktokenCounter("o200k_base", margin=1.5).name == "o200k_base*1.5"


@pytest.mark.parametrize(
    "kwargs", [{"encoding": "p50k"}, {"margin": 0}, {"margin": -1}, {"margin": "2"}]
)
def test_bad_counter_arguments(kwargs: dict) -> None:
    with pytest.raises(InvalidInput):
        TiktokenCounter(**kwargs)


def test_default_counter_is_shared_and_a_protocol() -> None:
    assert default_counter() is default_counter()
    assert isinstance(default_counter(), TokenCounter)
    assert isinstance(CharsCounter(), TokenCounter)
    assert default_counter().margin == CLAUDE_MARGIN


@pytest.mark.parametrize(
    "model, encoding, margin",
    [
        ("gpt-4o-mini", "o200k_base", 1.0),
        ("gpt-4-turbo", "cl100k_base", 1.0),
        ("claude-3-5-sonnet-20241022", "o200k_base", CLAUDE_MARGIN),
        ("claude-sonnet-4-5-20250929", "o200k_base", CLAUDE_MARGIN),
        ("claude-opus-4-7", "o200k_base", CLAUDE_NEW_TOKENIZER_MARGIN),
        ("claude-next", "o200k_base", CLAUDE_NEW_TOKENIZER_MARGIN),
    ],
)
def test_counter_for_model(model: str, encoding: str, margin: float) -> None:
    counter = counter_for_model(model)
    assert (counter.encoding, counter.margin) == (encoding, margin)


def test_count_content_strings_and_blocks(o200k: TiktokenCounter) -> None:
    text = "Which database do we use?"
    assert count_content(text, o200k) == o200k.count(text) + MESSAGE_OVERHEAD
    assert count_content([{"type": "text", "text": text}], o200k) == count_content(text, o200k)
    assert count_content(None, o200k) == MESSAGE_OVERHEAD
    use = {"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "postgres version"}}
    assert count_content([use], o200k) > count_content([{**use, "input": {}}], o200k)
    result = {
        "type": "tool_result",
        "tool_use_id": "t1",
        "content": [{"type": "text", "text": text}],
    }
    assert count_content([result], o200k) >= count_content(text, o200k)
    image = {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"},
    }
    assert count_content([image], o200k) == IMAGE_TOKENS + MESSAGE_OVERHEAD


def test_count_message_includes_openai_tool_calls(o200k: TiktokenCounter) -> None:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "search", "arguments": '{"q": "pg"}'},
    }
    bare = {"role": "assistant", "content": None}
    assert count_message({**bare, "tool_calls": [call]}, o200k) > count_message(bare, o200k)
    tool = {"role": "tool", "tool_call_id": "call_1", "content": "16.2"}
    assert count_message(tool, o200k) > count_content("16.2", o200k)


def test_tail_within_keeps_newest_part(o200k: TiktokenCounter) -> None:
    text = " ".join(f"fact{i} is recorded." for i in range(200))
    tail = tail_within(text, 30, o200k)
    assert o200k.count(tail) <= 30
    assert text.endswith(tail) and tail.endswith("fact199 is recorded.")
    assert not tail.startswith(("act", "ct", "t1"))  # starts on a word boundary
    assert tail_within("short", 30, o200k) == "short"
    assert tail_within(text, 0, o200k) == ""


@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=0, max_size=400), cap=st.integers(min_value=0, max_value=60))
def test_tail_within_property(text: str, cap: int) -> None:
    for counter in (default_counter(), CharsCounter()):
        tail = tail_within(text, cap, counter)
        assert counter.count(tail) <= cap
        assert tail in text


def test_long_unbroken_runs_are_counted_in_bounded_slices():
    from engram.tokens import TiktokenCounter

    counter = TiktokenCounter("o200k_base")
    blob = "x" * 9000
    n = counter.count(blob)
    # Exact BPE of one 9,000-character pre-token takes seconds in pure Python; slices cost
    # at most one extra token per 256 characters.
    assert 9000 / 256 <= n <= 9000 / 2
    assert counter.count("hello world " + "ab" * 2000) > counter.count("hello world")
