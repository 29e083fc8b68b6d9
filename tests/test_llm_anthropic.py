"""AnthropicLLM against a real HTTP server on 127.0.0.1 speaking the Messages API."""

from __future__ import annotations

import logging
import socket

import pytest
from wire_servers import (  # noqa: F401 (anthropic_server_fixture provides `anthropic_server`)
    API_KEY,
    Response,
    WireServer,
    anthropic_error,
    anthropic_message,
    anthropic_server_fixture,
    sdk_retry_waits,
)

from engram.errors import ConfigError, InvalidInput, ProviderError
from engram.llm import ToolCall
from engram.llm.anthropic import AnthropicLLM

REMEMBER = {
    "name": "remember",
    "description": "Save one durable fact about the user.",
    "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
HELLO = [{"role": "user", "content": "Hello there"}]


def make(server: WireServer, attempts: int = 3, key: str = API_KEY) -> AnthropicLLM:
    return AnthropicLLM("claude-test", api_key=key, base_url=server.base_url, max_retries=attempts - 1)


QUICK = {"retry-after-ms": "10"}  # the server's own hint keeps the SDK's waits short in tests


def test_text_reply_sends_system_and_parses_usage(anthropic_server):
    reply = make(anthropic_server).complete("Be brief.", HELLO, max_tokens=50)

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
    llm = make(anthropic_server)
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
    llm = make(anthropic_server)
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
    make(anthropic_server).complete("", HELLO, tools=[function], tool_choice="none")

    sent = anthropic_server.bodies()[0]
    assert sent["tools"] == [
        {"name": "remember", "description": "Save a fact.", "input_schema": REMEMBER["input_schema"]}
    ]
    assert sent["tool_choice"] == {"type": "none"}


def test_unanswered_tool_use_is_a_400_without_retry(anthropic_server):
    llm = make(anthropic_server)
    anthropic_server.enqueue(
        Response(
            200,
            anthropic_message(tool_calls=({"id": "toolu_01", "name": "remember", "input": {"text": "x"}},)),
        )
    )
    reply = llm.complete("", HELLO, tools=[REMEMBER])

    with pytest.raises(ProviderError, match="HTTP 400 invalid_request_error.*without `tool_result`"):
        llm.complete("", HELLO + [reply.raw_message, {"role": "user", "content": "and?"}], tools=[REMEMBER])
    assert len(anthropic_server.requests) == 2


def test_rate_limit_honours_retry_after(anthropic_server, caplog):
    anthropic_server.enqueue(
        Response(
            429, anthropic_error("rate_limit_error", "Number of requests exceeded"), {"retry-after": "0.3"}
        )
    )
    with caplog.at_level(logging.INFO, logger="anthropic"):
        reply = make(anthropic_server).complete("", HELLO)

    assert reply.text == "echo: Hello there"
    assert sdk_retry_waits(caplog) == [0.3]  # the server's wait, exactly
    assert len(anthropic_server.requests) == 2


def test_overloaded_529_retries_with_backoff(anthropic_server, caplog):
    anthropic_server.enqueue(
        Response(529, anthropic_error("overloaded_error", "Overloaded")),
        Response(529, anthropic_error("overloaded_error", "Overloaded")),
    )
    with caplog.at_level(logging.INFO, logger="anthropic"):
        reply = make(anthropic_server, attempts=4).complete("", HELLO)

    assert reply.text == "echo: Hello there"
    first, second = sdk_retry_waits(caplog)  # 0.5 s then 1 s, less up to a quarter of jitter
    assert 0.375 <= first <= 0.5 and 0.75 <= second <= 1.0
    assert len(anthropic_server.requests) == 3


def test_persistent_500_gives_provider_error_after_all_attempts(anthropic_server):
    anthropic_server.enqueue(*[Response(500, anthropic_error("api_error", "Internal server error"), QUICK)] * 5)

    with pytest.raises(
        ProviderError,
        match=r"model 'claude-test' at http://127\.0\.0\.1:\d+ failed after 3 attempts: HTTP 500 api_error",
    ):
        make(anthropic_server, attempts=3).complete("", HELLO)
    assert len(anthropic_server.requests) == 3


def test_wrong_api_key_fails_at_once_with_a_hint(anthropic_server):
    with pytest.raises(
        ProviderError, match=r"HTTP 401 authentication_error: invalid x-api-key; check \$ANTHROPIC_API_KEY"
    ) as info:
        make(anthropic_server, key="wrong").complete("", HELLO)
    assert len(anthropic_server.requests) == 1
    assert info.value.__cause__ is not None  # the SDK error stays reachable for debugging


def test_unparseable_body_fails_at_once(anthropic_server):
    anthropic_server.enqueue(Response(200, b"{not json"))
    with pytest.raises(ProviderError, match="unreadable response"):
        make(anthropic_server).complete("", HELLO)
    assert len(anthropic_server.requests) == 1


def test_wrong_shape_body_is_a_provider_error(anthropic_server):
    anthropic_server.enqueue(Response(200, {"unexpected": True}))
    with pytest.raises(ProviderError, match="unexpected shape"):
        make(anthropic_server).complete("", HELLO)


def test_x_should_retry_false_overrides_status(anthropic_server):
    anthropic_server.enqueue(Response(503, anthropic_error("api_error", "down"), {"x-should-retry": "false"}))
    with pytest.raises(ProviderError, match="HTTP 503"):
        make(anthropic_server).complete("", HELLO)
    assert len(anthropic_server.requests) == 1


def test_connection_refused_is_retried_then_reported(caplog):
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    llm = AnthropicLLM("claude-test", api_key=API_KEY, base_url=f"http://127.0.0.1:{port}", max_retries=2)

    with caplog.at_level(logging.INFO, logger="anthropic"), pytest.raises(
            ProviderError, match="after 3 attempts: could not reach the server"):
        llm.complete("", HELLO)
    assert len(sdk_retry_waits(caplog)) == 2


def test_bad_arguments_fail_before_any_request(anthropic_server):
    llm = make(anthropic_server)
    with pytest.raises(InvalidInput, match="max_tokens"):
        llm.complete("", HELLO, max_tokens=0)
    with pytest.raises(InvalidInput, match="tool_choice"):
        llm.complete("", HELLO, tools=[REMEMBER], tool_choice="sometimes")
    assert anthropic_server.requests == []


def test_missing_api_key_is_a_config_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        AnthropicLLM("claude-test")
