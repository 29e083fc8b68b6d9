"""ScriptedLLM, the tool-round guard and the provider registry (all offline)."""

from __future__ import annotations

import pytest
from wire_servers import API_KEY, validate_anthropic, validate_openai

from engram.errors import ConfigError, InvalidInput, ProviderError
from engram.llm import (
    LLM,
    Reply,
    Request,
    ScriptedLLM,
    ToolCall,
    ToolRounds,
    get_llm,
    providers,
    register,
)

REMEMBER = {
    "name": "remember",
    "description": "Save one durable fact about the user.",
    "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
SAVE = ToolCall("", "remember", {"text": "Team uses Postgres 16."})


def run_turn(
    llm: LLM, user_text: str, rounds: ToolRounds, handler=lambda call: "saved"
) -> tuple[Reply, list]:
    """A minimal agent loop, as an agent built on engram.llm would write it."""
    messages: list[dict] = [{"role": "user", "content": user_text}]
    while True:
        reply = llm.complete(
            "sys", messages, tools=[REMEMBER], tool_choice="none" if rounds.exhausted else "auto"
        )
        rounds.record(reply)
        messages.append(reply.raw_message)
        if not reply.tool_calls:
            return reply, messages
        messages += llm.tool_result_messages([(call, handler(call)) for call in reply.tool_calls])


@pytest.mark.parametrize("flavour", ["anthropic", "openai"])
def test_script_replays_and_messages_are_valid_on_the_wire(flavour):
    llm = ScriptedLLM([["Saving.", SAVE], "Saved it."], flavour=flavour)

    reply, messages = run_turn(llm, "Remember: we use Postgres 16.", ToolRounds())

    assert reply.text == "Saved it."
    assert len(llm.requests) == 2 and llm.requests[1].tool_results == ("saved",)
    # What ScriptedLLM produced is exactly what the real API accepts.
    body = {"model": "m", "max_tokens": 10, "messages": messages[:-1], "tools": [REMEMBER]}
    if flavour == "anthropic":
        validate_anthropic({"x-api-key": API_KEY, "anthropic-version": "2023-06-01"}, body, API_KEY)
    else:
        body["tools"] = [
            {"type": "function", "function": {"name": "remember", "parameters": REMEMBER["input_schema"]}}
        ]
        validate_openai({"authorization": f"Bearer {API_KEY}"}, body, API_KEY)


def test_tool_call_ids_are_deterministic_per_flavour():
    anthropic = ScriptedLLM([SAVE, SAVE]).complete("", [{"role": "user", "content": "x"}], tools=[REMEMBER])
    openai = ScriptedLLM([SAVE], flavour="openai").complete(
        "", [{"role": "user", "content": "x"}], tools=[REMEMBER]
    )

    assert anthropic.tool_calls[0].id == "toolu_scripted_1"
    assert anthropic.raw_message["content"] == [
        {
            "type": "tool_use",
            "id": "toolu_scripted_1",
            "name": "remember",
            "input": {"text": "Team uses Postgres 16."},
        }
    ]
    assert openai.raw_message == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_scripted_1",
                "type": "function",
                "function": {"name": "remember", "arguments": '{"text": "Team uses Postgres 16."}'},
            }
        ],
    }


def test_rule_sees_user_text_and_tool_results():
    def rule(request: Request):
        if request.tool_results:
            return f"Done: {request.tool_results[0]}"
        return ToolCall("", "remember", {"text": request.last_user_text})

    llm = ScriptedLLM(rule=rule)
    reply, _ = run_turn(
        llm, "I prefer tea.", ToolRounds(), handler=lambda call: f"kept '{call.arguments['text']}'"
    )

    assert reply.text == "Done: kept 'I prefer tea.'"
    assert llm.requests[1].last_user_text == "I prefer tea."


def test_tool_rounds_stop_a_model_that_keeps_calling_tools():
    llm = ScriptedLLM(rule=lambda r: "Giving up." if r.tool_choice == "none" else SAVE)
    rounds = ToolRounds(limit=3)

    reply, _ = run_turn(llm, "loop forever", rounds)

    assert reply.text == "Giving up."
    assert rounds.used == 3 and rounds.exhausted and rounds.remaining == 0
    assert [r.tool_choice for r in llm.requests] == ["auto", "auto", "auto", "none"]


@pytest.mark.parametrize("limit", [0, -1, 2.5, True])
def test_tool_round_limit_must_be_a_positive_int(limit):
    with pytest.raises(InvalidInput, match="tool round limit"):
        ToolRounds(limit)


@pytest.mark.parametrize("flavour", ["anthropic", "openai"])
def test_unanswered_tool_call_is_refused_like_the_real_api(flavour):
    llm = ScriptedLLM([SAVE, "never reached"], flavour=flavour)
    first = llm.complete("", [{"role": "user", "content": "x"}], tools=[REMEMBER])

    with pytest.raises(ProviderError, match="never answered"):
        llm.complete(
            "",
            [{"role": "user", "content": "x"}, first.raw_message, {"role": "user", "content": "y"}],
            tools=[REMEMBER],
        )


def test_script_mistakes_are_reported_clearly():
    hello = [{"role": "user", "content": "hi"}]
    with pytest.raises(ProviderError, match="did not offer"):
        ScriptedLLM([SAVE]).complete("", hello, tools=[])
    with pytest.raises(ProviderError, match="tool_choice='none'"):
        ScriptedLLM([SAVE]).complete("", hello, tools=[REMEMBER], tool_choice="none")
    once = ScriptedLLM(["one"])
    assert once.complete("", hello).text == "one"
    with pytest.raises(ProviderError, match="script is used up"):
        once.complete("", hello)
    with pytest.raises(InvalidInput, match="flavour"):
        ScriptedLLM(flavour="gemini")


def test_get_llm_scripted_specs():
    echo = get_llm("scripted")
    assert isinstance(echo, ScriptedLLM) and echo.flavour == "anthropic"
    assert echo.complete("", [{"role": "user", "content": "ping"}]).text == "You said: ping"
    assert get_llm("scripted:openai").flavour == "openai"
    with pytest.raises(ConfigError, match="anthropic, openai"):
        get_llm("scripted:gemini")


def test_get_llm_reads_the_environment(monkeypatch):
    for name in ("ENGRAM_LLM", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert get_llm() is None

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert type(get_llm()).__name__ == "OpenAILLM" and get_llm().model == "gpt-4o-mini"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")  # Anthropic wins when both are set
    assert type(get_llm()).__name__ == "AnthropicLLM" and get_llm().model == "claude-sonnet-4-5"
    monkeypatch.setenv("ENGRAM_LLM", "scripted:openai")
    assert isinstance(get_llm(), ScriptedLLM)


def test_unknown_provider_names_the_choices(monkeypatch):
    with pytest.raises(ConfigError, match=r"'gemini:pro'.*choose one of anthropic, openai, scripted"):
        get_llm("gemini:pro")
    monkeypatch.setenv("ENGRAM_LLM", "nonsense")
    with pytest.raises(ConfigError, match="ENGRAM_LLM='nonsense'"):
        get_llm()


def test_register_adds_a_provider():
    seen = []

    def factory(model, base_url):
        seen.append((model, base_url))
        return ScriptedLLM(["custom"], model=model or "default")

    register("mylocal", factory)
    llm = get_llm("mylocal:tiny@http://127.0.0.1:8080/v1")

    assert "mylocal" in providers()
    assert seen == [("tiny", "http://127.0.0.1:8080/v1")] and llm.model == "tiny"
    with pytest.raises(ConfigError, match="provider name"):
        register("no spaces", factory)
