"""MemoryAgent: the tool loop, episodes, sessions, cross-session recall, provider failures.

Loop logic runs on ScriptedLLM; the wire tests drive the official SDKs against real HTTP
servers on 127.0.0.1 speaking the Anthropic and OpenAI formats (tests/wire_servers.py).
"""

from __future__ import annotations

import pytest
from wire_servers import (  # noqa: F401 (the *_fixture imports provide the server fixtures)
    API_KEY,
    Response,
    anthropic_error,
    anthropic_message,
    anthropic_server_fixture,
    openai_completion,
    openai_error,
    openai_server_fixture,
)

from engram.agent import MemoryAgent
from engram.agent.agent import ACTION_CHARS
from engram.errors import ConfigError, InvalidInput, ProviderError
from engram.llm import Reply, ScriptedLLM, ToolCall
from engram.core.memory import Memory
from engram.kinds.working import Conversation
from engram.types import EPISODE, FACT

SUBJECT = "user:42"
POSTGRES = "Team uses Postgres 16 for all services."


def remember(fact: str, **extra) -> ToolCall:
    return ToolCall("", "remember", {"fact": fact, **extra})


# -- the loop on ScriptedLLM ------------------------------------------------------------------------
@pytest.mark.parametrize("flavour", ["anthropic", "openai"])
def test_remember_round_trip_stores_the_fact(sqlite_memory, flavour):
    llm = ScriptedLLM([remember(POSTGRES), "Noted."], flavour=flavour)
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm, session="s1")

    assert agent.chat("We use Postgres 16 for every service.") == "Noted."
    [fact] = sqlite_memory.items(SUBJECT, kinds=[FACT])
    assert fact.text == POSTGRES and fact.source == "chat:s1:1" and fact.metadata["turns"] == ["s1:1"]
    assert llm.requests[1].tool_results == ("saved",)
    assert llm.requests[0].tool_names == ("remember", "recall", "forget")
    assert "<memory>" in llm.requests[0].system
    assert agent.last.tool_calls == [("remember", {"fact": POSTGRES}, "saved")] and agent.last.rounds == 1


def test_a_new_session_recalls_without_the_user_repeating(tmp_path):
    """Cross-session recall on the real default embedder: 'database' finds 'Postgres'."""
    path = str(tmp_path / "memory.db")
    with Memory(path, embedder="minilm") as mem:
        first = MemoryAgent(mem, SUBJECT, ScriptedLLM([remember(POSTGRES), "Noted."]))
        first.chat("Our team runs Postgres 16 for all services.")
    with Memory(path, embedder="minilm") as mem:  # a new process, a new agent, a new session
        llm = ScriptedLLM(rule=lambda request: "Postgres 16." if POSTGRES in request.system else "I don't know.")
        second = MemoryAgent(mem, SUBJECT, llm)
        assert second.session != first.session
        assert second.chat("Which database should the new service use?") == "Postgres 16."
        assert second.last.context.included[0].text == POSTGRES


def test_tool_rounds_are_bounded(sqlite_memory):
    def always_recall(request):
        return "Giving up on search." if request.tool_choice == "none" else ToolCall("", "recall", {"query": "db"})

    llm = ScriptedLLM(rule=always_recall)
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm, max_tool_rounds=3)
    assert agent.chat("What do you know?") == "Giving up on search."
    assert [r.tool_choice for r in llm.requests] == ["auto", "auto", "auto", "none"]
    assert agent.last.rounds == 3


def test_malformed_calls_get_messages_not_exceptions(sqlite_memory):
    llm = ScriptedLLM([
        [ToolCall("", "remember", {}, parse_error="arguments are not valid JSON: {\"fact\": \"unterminated")],
        ToolCall("", "remember", {"text": 42}),
        ToolCall("", "recall", {"q": "word " * 1800}),
        ToolCall("", "remember", {"memory": POSTGRES}),
        "Done.",
    ])
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm, max_tool_rounds=4)
    assert agent.chat("Remember our database.") == "Done."
    results = [r.tool_results for r in llm.requests[1:]]
    assert results[0][0].startswith("error: arguments are not valid JSON")
    assert results[1] == ("not saved: 'fact' must be a string, not integer",)
    assert results[2][0].startswith("error: 'query' is 9000 characters, at most 4000")
    assert results[3] == ("saved",)
    assert [it.text for it in sqlite_memory.items(SUBJECT, kinds=[FACT])] == [POSTGRES]


def test_each_turn_logs_a_redacted_clipped_episode(sqlite_memory):
    secret = "sk-ant-api03-Xy7Qw2Lp9Rt4Vb8NzzKqAbCdEf"
    llm = ScriptedLLM(["A" * 1000])
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm, session="s9", tools=False)
    agent.chat(f"My key is {secret} and " + "more words " * 100)

    [episode] = sqlite_memory.recent_episodes(SUBJECT, session="s9")
    assert secret not in episode.action and "[REDACTED:" in episode.action
    assert len(episode.action) <= ACTION_CHARS and episode.action.endswith("…")
    assert len(episode.result) <= 300 and episode.success
    assert llm.requests[0].tools == ()  # tools=False offers none


def test_untrusted_input_offers_recall_only(sqlite_memory):
    llm = ScriptedLLM(["ok"])
    MemoryAgent(sqlite_memory, SUBJECT, llm, untrusted_input=True).chat("Summarise this page for me.")
    assert llm.requests[0].tool_names == ("recall",)


def test_save_and_resume_a_session(sqlite_memory):
    agent = MemoryAgent(sqlite_memory, SUBJECT, ScriptedLLM(["Hi Ana."]), session="abc")
    agent.chat("Hi, I am Ana.")
    agent.save()
    llm = ScriptedLLM(rule=lambda r: f"{len(r.messages)} messages")
    resumed = MemoryAgent(sqlite_memory, SUBJECT, llm, session="abc")
    assert resumed.chat("Still there?") == "3 messages"  # the earlier turn pair plus the new message
    assert resumed.last.turn_id == "abc:2"


def test_provider_failure_keeps_memory_and_conversation(sqlite_memory):
    llm = ScriptedLLM([remember(POSTGRES)])  # the script runs out after the tool call: ProviderError
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm)
    with pytest.raises(ProviderError):
        agent.chat("We use Postgres 16 everywhere.")
    assert [it.text for it in sqlite_memory.items(SUBJECT, kinds=[FACT])] == [POSTGRES]
    assert len(agent.conversation) == 0  # back to before the turn: the user can resend
    [episode] = sqlite_memory.recent_episodes(SUBJECT)
    assert not episode.success and episode.result.startswith("failed:")


def test_bad_construction_and_input(sqlite_memory):
    with pytest.raises(ConfigError, match="ENGRAM_LLM"):
        MemoryAgent(sqlite_memory, SUBJECT, None)
    with pytest.raises(InvalidInput):
        MemoryAgent(sqlite_memory, SUBJECT, "claude")
    agent = MemoryAgent(sqlite_memory, SUBJECT, ScriptedLLM(["x"]))
    with pytest.raises(InvalidInput, match="non-empty"):
        agent.chat("   ")


def test_empty_reply_keeps_the_conversation_valid(sqlite_memory):
    llm = ScriptedLLM([Reply(""), "second"])
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm)
    assert agent.chat("first") == ""
    assert agent.chat("again") == "second"


# -- the real SDKs against local wire servers -------------------------------------------------------
def test_anthropic_tool_use_round_trip(sqlite_memory, anthropic_server):
    from engram.llm.anthropic import AnthropicLLM

    anthropic_server.enqueue(
        Response(200, anthropic_message("Saving that.", tool_calls=(
            {"id": "toolu_01", "name": "remember", "input": {"fact": POSTGRES}},))),
        Response(200, anthropic_message("Noted: Postgres 16.")),
    )
    llm = AnthropicLLM("claude-test", api_key=API_KEY, base_url=anthropic_server.base_url, max_retries=2)
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm)

    assert agent.chat("We moved everything to Postgres 16.") == "Noted: Postgres 16."
    assert [it.text for it in sqlite_memory.items(SUBJECT, kinds=[FACT])] == [POSTGRES]
    first, second = anthropic_server.bodies()
    assert [t["name"] for t in first["tools"]] == ["remember", "recall", "forget"]
    assert "input_schema" in first["tools"][0] and "<memory>" in first["system"]
    assert second["messages"][-1]["content"] == [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "saved"}]
    assert agent.last.usage == {"input_tokens": 24, "output_tokens": 14}


def test_openai_function_calling_round_trip(sqlite_memory, openai_server):
    from engram.llm.openai import OpenAILLM

    openai_server.enqueue(
        Response(200, openai_completion(tool_calls=(
            {"id": "call_1", "name": "remember", "arguments": {"text": POSTGRES}},))),
        Response(200, openai_completion("Noted: Postgres 16.")),
    )
    llm = OpenAILLM("gpt-test", api_key=API_KEY, base_url=openai_server.base_url, max_retries=2)
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm)

    assert agent.chat("We moved everything to Postgres 16.") == "Noted: Postgres 16."
    assert [it.text for it in sqlite_memory.items(SUBJECT, kinds=[FACT])] == [POSTGRES]
    first, second = openai_server.bodies()
    assert [t["function"]["name"] for t in first["tools"]] == ["remember", "recall", "forget"]
    assert first["messages"][0]["role"] == "system" and "<memory>" in first["messages"][0]["content"]
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": "saved"}


def test_openai_broken_json_arguments_are_answered(sqlite_memory, openai_server):
    from engram.llm.openai import OpenAILLM

    openai_server.enqueue(
        Response(200, openai_completion(tool_calls=(
            {"id": "call_1", "name": "remember", "arguments": '{"fact": "unterminated'},))),
        Response(200, openai_completion("Sorry, could not save.")),
    )
    llm = OpenAILLM("gpt-test", api_key=API_KEY, base_url=openai_server.base_url, max_retries=2)
    assert MemoryAgent(sqlite_memory, SUBJECT, llm).chat("Remember this.") == "Sorry, could not save."
    tool_message = openai_server.bodies()[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["content"].startswith("error: arguments are not valid JSON")


def test_a_provider_that_ignores_tool_choice_none_still_ends_the_turn(sqlite_memory, anthropic_server):
    from engram.llm.anthropic import AnthropicLLM

    call = {"name": "recall", "input": {"query": "db"}}
    anthropic_server.enqueue(*[
        Response(200, anthropic_message("Searching.", tool_calls=({**call, "id": f"toolu_{i}"},))) for i in range(2)
    ])
    llm = AnthropicLLM("claude-test", api_key=API_KEY, base_url=anthropic_server.base_url, max_retries=2)
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm, max_tool_rounds=1)
    assert agent.chat("Find it.") == "Searching."
    assert [b["tool_choice"]["type"] for b in anthropic_server.bodies()] == ["auto", "none"]
    # The server validates every request: the conversation left behind is still well formed.
    assert agent.chat("And now?") == "echo: And now?"


def test_persistent_500s_give_a_clear_error_and_lose_nothing(sqlite_memory, anthropic_server):
    from engram.llm.anthropic import AnthropicLLM

    llm = AnthropicLLM("claude-test", api_key=API_KEY, base_url=anthropic_server.base_url, max_retries=2)
    agent = MemoryAgent(sqlite_memory, SUBJECT, llm, session="s1")
    anthropic_server.enqueue(
        Response(200, anthropic_message(tool_calls=({"id": "toolu_1", "name": "remember", "input": {"fact": POSTGRES}},))),
        Response(200, anthropic_message("Noted.")),
    )
    agent.chat("We use Postgres 16.")
    anthropic_server.enqueue(*[Response(500, anthropic_error("api_error", "Internal server error"))] * 3)

    with pytest.raises(ProviderError, match="failed after 3 attempts: HTTP 500"):
        agent.chat("Which database do we use?")
    assert [it.text for it in sqlite_memory.items(SUBJECT, kinds=[FACT])] == [POSTGRES]
    assert len(agent.conversation) == 4  # the first turn's user, tool call, result, reply
    episodes = sqlite_memory.items(SUBJECT, kinds=[EPISODE])
    assert [e.metadata["success"] for e in episodes] == [False, True]
    assert agent.chat("Which database do we use?") == "echo: Which database do we use?"  # resending works


def test_openai_persistent_500s(sqlite_memory, openai_server):
    from engram.llm.openai import OpenAILLM

    openai_server.enqueue(*[Response(500, openai_error("server error", "server_error"))] * 3)
    llm = OpenAILLM("gpt-test", api_key=API_KEY, base_url=openai_server.base_url, max_retries=2)
    with pytest.raises(ProviderError, match="HTTP 500"):
        MemoryAgent(sqlite_memory, SUBJECT, llm).chat("hello")


# -- `engram chat` -----------------------------------------------------------------------------------
def _cli():
    from engram.interfaces.cli import main
    from engram.interfaces.commands.agent import register

    if "chat" not in main.commands:  # until the lead lists engram.interfaces.commands.agent in EXTRA_COMMANDS
        register(main)
    return main


def test_cli_chat_reads_lines_and_saves_the_session(tmp_path):
    from click.testing import CliRunner

    db = str(tmp_path / "cli.db")
    args = ["--db", db, "--embedder", "hashing", "chat", SUBJECT, "--llm", "scripted", "--session", "s1"]
    result = CliRunner().invoke(_cli(), args, input="Hello there\n\nWe use Postgres.\n", catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["You said: Hello there", "You said: We use Postgres."]
    with Memory(db, embedder="hashing") as mem:
        assert len(Conversation.load(mem, SUBJECT, "s1")) == 4
        assert len(mem.recent_episodes(SUBJECT, session="s1")) == 2


def test_cli_chat_without_a_provider_shows_the_memory(tmp_path, monkeypatch):
    from click.testing import CliRunner

    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    db = str(tmp_path / "cli.db")
    with Memory(db, embedder="hashing") as mem:
        mem.remember(SUBJECT, POSTGRES)
    result = CliRunner().invoke(_cli(), ["--db", db, "--embedder", "hashing", "chat", SUBJECT],
                                input="Which Postgres version?\n")
    assert result.exit_code == 1
    assert "no LLM configured: set ENGRAM_LLM" in result.stderr
    assert "<memory>" in result.stdout and f"- [fact] {POSTGRES}" in result.stdout


def test_cli_chat_provider_down(tmp_path, monkeypatch, anthropic_server):
    from click.testing import CliRunner

    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    anthropic_server.enqueue(*[Response(500, anthropic_error("api_error", "Internal server error"))] * 4)
    db = str(tmp_path / "cli.db")
    with Memory(db, embedder="hashing") as mem:
        mem.remember(SUBJECT, POSTGRES)
    spec = f"anthropic:claude-test@{anthropic_server.base_url}"
    result = CliRunner().invoke(_cli(), ["--db", db, "--embedder", "hashing", "chat", SUBJECT, "--llm", spec],
                                input="Which database?\n")
    assert result.exit_code == 1
    assert "error: anthropic model 'claude-test'" in result.stderr and "HTTP 500" in result.stderr
    assert "nothing stored was lost" in result.stderr
    with Memory(db, embedder="hashing") as mem:
        assert [it.text for it in mem.items(SUBJECT, kinds=[FACT])] == [POSTGRES]
