"""AnthropicLLM against a real HTTP server on 127.0.0.1 speaking the Messages API."""

from __future__ import annotations

import socket
from email.utils import formatdate

import pytest
from wire_servers import (  # noqa: F401 (anthropic_server_fixture provides `anthropic_server`)
    API_KEY,
    Response,
    WireServer,
    anthropic_error,
    anthropic_message,
    anthropic_server_fixture,
)

from engram.errors import ConfigError, InvalidInput, ProviderError
from engram.llm import RetryPolicy, ToolCall
from engram.llm.anthropic import AnthropicLLM
from engram.llm.retry import is_retryable, retry_after_seconds

REMEMBER = {
    "name": "remember",
    "description": "Save one durable fact about the user.",
    "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
HELLO = [{"role": "user", "content": "Hello there"}]


def make(server: WireServer, sleeps: list[float], attempts: int = 3, key: str = API_KEY) -> AnthropicLLM:
    # random=1.0 makes full jitter deterministic: the wait is the backoff ceiling.
    policy = RetryPolicy(max_attempts=attempts, base_delay=0.5, sleep=sleeps.append, random=lambda: 1.0)
    return AnthropicLLM("claude-test", api_key=key, base_url=server.base_url, retry=policy)


def test_text_reply_sends_system_and_parses_usage(anthropic_server):
    reply = make(anthropic_server, []).complete("Be brief.", HELLO, max_tokens=50)

    assert reply.text == "echo: Hello there"
    assert reply.tool_calls == ()
    assert reply.stop_reason == "end_turn"
    assert reply.usage == {"input_tokens": 12, "output_tokens": 7}
    assert reply.raw_message == {
        "role": "assistant",
        "content": [{"type": "text", "text": "echo: Hello there"}],
    }
    sent = anthropic_server.bodies()[0]
    assert sent["system"] == "Be brief." and sent["max_tokens"] == 50 and sent["model"] == "claude-test"
    assert "tools" not in sent


def test_tool_use_round_trip(anthropic_server):
    llm = make(anthropic_server, [])
    anthropic_server.enqueue(
        Response(
            200,
            anthropic_message(
                "Saving that.",
                tool_calls=({"id": "toolu_01", "name": "remember", "input": {"text": "Uses Postgres 16."}},),
            ),
        )
    )
    messages = [{"role": "user", "content": "Remember: we use Postgres 16."}]

    reply = llm.complete("sys", messages, tools=[REMEMBER])

    assert reply.stop_reason == "tool_use"
    assert reply.text == "Saving that."
    assert reply.tool_calls == (ToolCall("toolu_01", "remember", {"text": "Uses Postgres 16."}),)
    first = anthropic_server.bodies()[0]
    assert first["tools"] == [REMEMBER] and first["tool_choice"] == {"type": "auto"}

    messages += [reply.raw_message, llm.tool_result_message(reply.tool_calls[0], "saved")]
    final = llm.complete("sys", messages, tools=[REMEMBER])

    assert final.text == "echo: Remember: we use Postgres 16."  # the server accepted the conversation
    second = anthropic_server.bodies()[1]["messages"]
    assert second[1]["content"][1] == {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "remember",
        "input": {"text": "Uses Postgres 16."},
    }
    assert second[2] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "saved"}],
    }


def test_parallel_tool_results_go_in_one_user_message(anthropic_server):
    llm = make(anthropic_server, [])
    calls = (
        {"id": "toolu_a", "name": "remember", "input": {"text": "a"}},
        {"id": "toolu_b", "name": "remember", "input": {"text": "b"}},
    )
    anthropic_server.enqueue(Response(200, anthropic_message(tool_calls=calls)))
    reply = llm.complete("", HELLO, tools=[REMEMBER])

    results = llm.tool_result_messages([(c, "ok") for c in reply.tool_calls])
    llm.complete("", HELLO + [reply.raw_message, *results], tools=[REMEMBER])

    assert len(results) == 1
    assert [b["tool_use_id"] for b in anthropic_server.bodies()[1]["messages"][2]["content"]] == [
        "toolu_a",
        "toolu_b",
    ]


def test_openai_shaped_tools_are_converted(anthropic_server):
    function = {
        "type": "function",
        "function": {
            "name": "remember",
            "description": "Save a fact.",
            "parameters": REMEMBER["input_schema"],
        },
    }
    make(anthropic_server, []).complete("", HELLO, tools=[function], tool_choice="none")

    sent = anthropic_server.bodies()[0]
    assert sent["tools"] == [
        {"name": "remember", "description": "Save a fact.", "input_schema": REMEMBER["input_schema"]}
    ]
    assert sent["tool_choice"] == {"type": "none"}


def test_unanswered_tool_use_is_a_400_without_retry(anthropic_server):
    sleeps: list[float] = []
    llm = make(anthropic_server, sleeps)
    anthropic_server.enqueue(
        Response(
            200,
            anthropic_message(tool_calls=({"id": "toolu_01", "name": "remember", "input": {"text": "x"}},)),
        )
    )
    reply = llm.complete("", HELLO, tools=[REMEMBER])

    with pytest.raises(ProviderError, match="HTTP 400 invalid_request_error.*without `tool_result`"):
        llm.complete("", HELLO + [reply.raw_message, {"role": "user", "content": "and?"}], tools=[REMEMBER])
    assert len(anthropic_server.requests) == 2 and sleeps == []


def test_rate_limit_honours_retry_after(anthropic_server):
    sleeps: list[float] = []
    anthropic_server.enqueue(
        Response(
            429, anthropic_error("rate_limit_error", "Number of requests exceeded"), {"retry-after": "7"}
        )
    )
    reply = make(anthropic_server, sleeps).complete("", HELLO)

    assert reply.text == "echo: Hello there"
    assert sleeps == [7.0]
    assert len(anthropic_server.requests) == 2


def test_overloaded_529_retries_with_backoff(anthropic_server):
    sleeps: list[float] = []
    anthropic_server.enqueue(
        Response(529, anthropic_error("overloaded_error", "Overloaded")),
        Response(529, anthropic_error("overloaded_error", "Overloaded")),
    )
    reply = make(anthropic_server, sleeps, attempts=4).complete("", HELLO)

    assert reply.text == "echo: Hello there"
    assert sleeps == [0.5, 1.0]  # base * 2**n, jitter pinned to its ceiling
    assert len(anthropic_server.requests) == 3


def test_persistent_500_gives_provider_error_after_all_attempts(anthropic_server):
    sleeps: list[float] = []
    anthropic_server.enqueue(*[Response(500, anthropic_error("api_error", "Internal server error"))] * 5)

    with pytest.raises(
        ProviderError,
        match=r"model 'claude-test' at http://127\.0\.0\.1:\d+ failed after 3 attempts: HTTP 500 api_error",
    ):
        make(anthropic_server, sleeps, attempts=3).complete("", HELLO)
    assert len(anthropic_server.requests) == 3 and len(sleeps) == 2


def test_wrong_api_key_fails_at_once_with_a_hint(anthropic_server):
    sleeps: list[float] = []
    with pytest.raises(
        ProviderError, match=r"HTTP 401 authentication_error: invalid x-api-key; check \$ANTHROPIC_API_KEY"
    ) as info:
        make(anthropic_server, sleeps, key="wrong").complete("", HELLO)
    assert len(anthropic_server.requests) == 1 and sleeps == []
    assert info.value.__cause__ is not None  # the SDK error stays reachable for debugging


def test_unparseable_body_fails_at_once(anthropic_server):
    anthropic_server.enqueue(Response(200, b"{not json"))
    with pytest.raises(ProviderError, match="unreadable response"):
        make(anthropic_server, []).complete("", HELLO)
    assert len(anthropic_server.requests) == 1


def test_wrong_shape_body_is_a_provider_error(anthropic_server):
    anthropic_server.enqueue(Response(200, {"unexpected": True}))
    with pytest.raises(ProviderError, match="unexpected shape"):
        make(anthropic_server, []).complete("", HELLO)


def test_retry_after_beyond_the_cap_fails_without_waiting(anthropic_server):
    sleeps: list[float] = []
    anthropic_server.enqueue(
        Response(429, anthropic_error("rate_limit_error", "slow down"), {"retry-after": "3600"})
    )
    with pytest.raises(ProviderError, match="asked to wait 3600s"):
        make(anthropic_server, sleeps).complete("", HELLO)
    assert sleeps == []


def test_x_should_retry_false_overrides_status(anthropic_server):
    anthropic_server.enqueue(Response(503, anthropic_error("api_error", "down"), {"x-should-retry": "false"}))
    with pytest.raises(ProviderError, match="HTTP 503"):
        make(anthropic_server, []).complete("", HELLO)
    assert len(anthropic_server.requests) == 1


def test_connection_refused_is_retried_then_reported():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    sleeps: list[float] = []
    policy = RetryPolicy(max_attempts=3, sleep=sleeps.append, random=lambda: 0.0)
    llm = AnthropicLLM("claude-test", api_key=API_KEY, base_url=f"http://127.0.0.1:{port}", retry=policy)

    with pytest.raises(ProviderError, match="after 3 attempts: could not reach the server"):
        llm.complete("", HELLO)
    assert sleeps == [0.0, 0.0]


def test_bad_arguments_fail_before_any_request(anthropic_server):
    llm = make(anthropic_server, [])
    with pytest.raises(InvalidInput, match="max_tokens"):
        llm.complete("", HELLO, max_tokens=0)
    with pytest.raises(InvalidInput, match="tool_choice"):
        llm.complete("", HELLO, tools=[REMEMBER], tool_choice="sometimes")
    assert anthropic_server.requests == []


def test_missing_api_key_is_a_config_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        AnthropicLLM("claude-test")


def test_retry_after_header_forms():
    assert retry_after_seconds({"retry-after": "2.5"}) == 2.5
    assert retry_after_seconds({"Retry-After-Ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_seconds({"retry-after": formatdate(1_000_030, usegmt=True)}, now=1_000_000) == 30.0
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_which_statuses_are_retried():
    assert [
        s for s in (400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 529) if is_retryable(s, {}, None)
    ] == [408, 409, 429, 500, 502, 503, 529]
    assert is_retryable(400, {}, "overloaded_error")
    assert is_retryable(400, {"x-should-retry": "true"}, None)


def test_full_jitter_stays_under_the_capped_ceiling():
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, random=lambda: 0.999)
    waits = [policy.backoff(n) for n in range(1, 7)]
    assert waits == pytest.approx([0.999, 1.998, 3.996, 4.995, 4.995, 4.995])
