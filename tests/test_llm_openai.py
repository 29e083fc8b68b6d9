"""OpenAILLM against a real HTTP server on 127.0.0.1 speaking Chat Completions."""

from __future__ import annotations

import base64
import logging
import struct

import pytest
from wire_servers import (  # noqa: F401 (openai_server_fixture provides `openai_server`)
    API_KEY,
    Response,
    WireServer,
    fake_vector,
    openai_completion,
    openai_error,
    openai_server_fixture,
    sdk_retry_waits,
)

from engram.errors import ConfigError, ProviderError
from engram.llm import ToolCall, get_llm
from engram.llm.openai import LOCAL_API_KEY, OpenAILLM

REMEMBER = {
    "name": "remember",
    "description": "Save one durable fact about the user.",
    "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
HELLO = [{"role": "user", "content": "Hello there"}]


def make(server: WireServer, attempts: int = 3, key: str = API_KEY, **kw) -> OpenAILLM:
    return OpenAILLM("gpt-test", api_key=key, base_url=server.base_url, max_retries=attempts - 1, **kw)


def test_text_reply_puts_system_first(openai_server):
    reply = make(openai_server).complete("Be brief.", HELLO, max_tokens=50)

    assert reply.text == "echo: Hello there"
    assert reply.stop_reason == "end_turn"
    assert reply.usage == {"input_tokens": 12, "output_tokens": 7}
    assert reply.raw_message == {"role": "assistant", "content": "echo: Hello there"}
    sent = openai_server.bodies()[0]
    assert sent["messages"] == [{"role": "system", "content": "Be brief."}, *HELLO]
    assert sent["max_tokens"] == 50 and sent["model"] == "gpt-test"  # local servers know max_tokens


def test_system_message_already_present_is_not_doubled(openai_server):
    messages = [{"role": "system", "content": "From the conversation."}, *HELLO]
    make(openai_server, max_tokens_param="max_completion_tokens").complete("Ignored.", messages)

    sent = openai_server.bodies()[0]
    assert sent["messages"] == messages
    assert sent["max_completion_tokens"] == 1024 and "max_tokens" not in sent


def test_function_call_round_trip(openai_server):
    llm = make(openai_server)
    openai_server.enqueue(
        Response(
            200,
            openai_completion(
                tool_calls=({"id": "call_1", "name": "remember", "arguments": {"text": "Uses Postgres 16."}},)
            ),
        )
    )
    messages = [{"role": "user", "content": "Remember: we use Postgres 16."}]

    reply = llm.complete("sys", messages, tools=[REMEMBER], tool_choice="any")

    assert reply.stop_reason == "tool_use" and reply.text == ""
    assert reply.tool_calls == (ToolCall("call_1", "remember", {"text": "Uses Postgres 16."}),)
    first = openai_server.bodies()[0]
    assert first["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "remember",
                "description": REMEMBER["description"],
                "parameters": REMEMBER["input_schema"],
            },
        }
    ]
    assert first["tool_choice"] == "required"

    messages += [reply.raw_message, llm.tool_result_message(reply.tool_calls[0], "saved")]
    final = llm.complete("sys", messages, tools=[REMEMBER])

    assert final.text == "echo: Remember: we use Postgres 16."  # the server accepted the conversation
    second = openai_server.bodies()[1]["messages"]
    assert second[2]["tool_calls"][0]["function"] == {
        "name": "remember",
        "arguments": '{"text": "Uses Postgres 16."}',
    }
    assert second[3] == {"role": "tool", "tool_call_id": "call_1", "content": "saved"}


def test_parallel_calls_get_one_tool_message_each(openai_server):
    llm = make(openai_server)
    calls = (
        {"id": "call_a", "name": "remember", "arguments": '{"text": "a"}'},
        {"id": "call_b", "name": "remember", "arguments": '{"text": "b"}'},
    )
    openai_server.enqueue(Response(200, openai_completion(tool_calls=calls)))
    reply = llm.complete("", HELLO, tools=[REMEMBER])

    results = llm.tool_result_messages([(c, "ok") for c in reply.tool_calls])
    llm.complete("", HELLO + [reply.raw_message, *results], tools=[REMEMBER])

    assert [m["tool_call_id"] for m in results] == ["call_a", "call_b"]
    assert len(openai_server.requests) == 2


def test_unanswered_call_is_a_400_without_retry(openai_server):
    llm = make(openai_server)
    openai_server.enqueue(
        Response(
            200, openai_completion(tool_calls=({"id": "call_1", "name": "remember", "arguments": "{}"},))
        )
    )
    reply = llm.complete("", HELLO, tools=[REMEMBER])

    with pytest.raises(ProviderError, match="HTTP 400 invalid_request_error.*did not have response messages"):
        llm.complete("", HELLO + [reply.raw_message, {"role": "user", "content": "and?"}], tools=[REMEMBER])
    assert len(openai_server.requests) == 2


def test_malformed_arguments_become_a_parse_error_not_a_crash(openai_server):
    # Small local models do emit broken JSON; the agent answers with an error tool result.
    openai_server.enqueue(
        Response(
            200,
            openai_completion(
                tool_calls=({"id": "call_1", "name": "remember", "arguments": '{"text": "unterminated'},),
                finish_reason="stop",
            ),
        )
    )
    reply = make(openai_server).complete("", HELLO, tools=[REMEMBER])

    call = reply.tool_calls[0]
    assert call.arguments == {} and "not valid JSON" in call.parse_error
    assert reply.stop_reason == "tool_use"  # some servers say "stop" even when calling tools


def test_length_finish_reason_maps_to_max_tokens(openai_server):
    openai_server.enqueue(Response(200, openai_completion("cut", finish_reason="length")))
    assert make(openai_server).complete("", HELLO).stop_reason == "max_tokens"


def test_rate_limit_honours_retry_after_ms(openai_server, caplog):
    openai_server.enqueue(
        Response(
            429,
            openai_error("Rate limit reached", "requests", "rate_limit_exceeded"),
            {"retry-after-ms": "250", "retry-after": "1"},
        )
    )
    with caplog.at_level(logging.INFO, logger="openai"):
        reply = make(openai_server).complete("", HELLO)

    assert reply.text == "echo: Hello there"
    assert sdk_retry_waits(caplog) == [0.25]  # retry-after-ms wins over retry-after, exactly
    assert len(openai_server.requests) == 2


def test_persistent_503_gives_provider_error_after_all_attempts(openai_server, caplog):
    overloaded = Response(503, openai_error("The server is overloaded", "server_error"), {"retry-after-ms": "10"})
    openai_server.enqueue(*[overloaded] * 4)

    with caplog.at_level(logging.INFO, logger="openai"), pytest.raises(
        ProviderError, match="failed after 4 attempts: HTTP 503 server_error: The server is overloaded"
    ):
        make(openai_server, attempts=4).complete("", HELLO)
    assert len(openai_server.requests) == 4 and sdk_retry_waits(caplog) == [0.01, 0.01, 0.01]


def test_wrong_api_key_fails_at_once(openai_server):
    with pytest.raises(ProviderError, match=r"HTTP 401.*Incorrect API key.*check \$OPENAI_API_KEY"):
        make(openai_server, key="sk-wrong").complete("", HELLO)
    assert len(openai_server.requests) == 1


def test_unknown_model_404_names_the_next_step(openai_server):
    openai_server.enqueue(Response(404, openai_error("model 'llama9' not found", "not_found_error")))
    with pytest.raises(
        ProviderError, match="model 'llama9' not found; check the model name and the base URL"
    ):
        make(openai_server).complete("", HELLO)


def test_unparseable_body_fails_at_once(openai_server):
    openai_server.enqueue(Response(200, b"<html>proxy error</html>"))
    with pytest.raises(ProviderError, match="unreadable response"):
        make(openai_server).complete("", HELLO)
    assert len(openai_server.requests) == 1


def test_local_server_needs_no_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = WireServer("openai", api_key=LOCAL_API_KEY).start()
    try:
        llm = get_llm(f"openai:llama3.2@{server.base_url}")
        reply = llm.complete("", HELLO)
    finally:
        server.stop()
    assert isinstance(llm, OpenAILLM) and llm.model == "llama3.2"
    assert reply.text == "echo: Hello there"
    assert server.requests[0].headers["authorization"] == f"Bearer {LOCAL_API_KEY}"


def test_missing_key_without_base_url_is_a_config_error(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY.*localhost:11434"):
        OpenAILLM("gpt-test")


@pytest.mark.parametrize("encoding", [None, "float", "base64"])
def test_embeddings_route_serves_the_sdk(openai_server, encoding):
    openai = pytest.importorskip("openai")
    client = openai.OpenAI(api_key=API_KEY, base_url=openai_server.base_url, max_retries=0)
    extra = {"encoding_format": encoding} if encoding else {}
    result = client.embeddings.create(model="emb", input=["alpha beta", "gamma"], dimensions=16, **extra)

    vectors = [d.embedding for d in result.data]
    if encoding == "base64":  # asked for explicitly, the SDK hands back the packed float32 string
        vectors = [list(struct.unpack("<16f", base64.b64decode(v))) for v in vectors]
    assert len(vectors) == 2 and len(vectors[0]) == 16
    assert vectors[0] == pytest.approx(fake_vector("alpha beta", 16), abs=1e-6)
