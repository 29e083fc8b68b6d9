"""MemoryAgent: a chat agent with working memory, long-term memory, memory tools and episodes.

    agent = MemoryAgent(mem, "user:42", get_llm("anthropic"), session="s1")
    agent.chat("We moved every service to Postgres 16.")   # the model may call remember
    MemoryAgent(mem, "user:42", llm).chat("Which database do we use?")   # a new session recalls it

Each turn: the user message joins the `Conversation` (working memory); `assemble` builds the
system text (prompt, summary, relevant memory) within the token budget; the model runs with
the memory tools for at most `max_tool_rounds` tool rounds, then must answer in text; an episode
records the turn (user message redacted and clipped, reply clipped, success); optionally one
extraction call proposes facts from the user's message (`engram.agent.extract`).

Messages are built in the provider's own shape (`llm.flavour`), so the same agent runs on
Anthropic, OpenAI-compatible servers and `ScriptedLLM`. If the provider fails after its
retries, `chat` raises `ProviderError`, the conversation is left as it was before the turn
(send the message again), and every memory already stored stays stored.
"""

from __future__ import annotations

import unicodedata
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.agent.extract import Extraction, extract_facts
from engram.agent.prompt import Context, assemble
from engram.agent.tools import MemoryTools
from engram.errors import ConfigError, EngramError, InvalidInput, NotFound
from engram.llm.base import LLM, OPENAI, Reply, ToolCall, ToolRounds
from engram.safety.secrets import redact
from engram.store.base import Filter
from engram.tokens import TokenCounter, default_counter
from engram.types import EPISODE, TimeLike
from engram.kinds.working import Conversation

if TYPE_CHECKING:
    from engram.core.memory import Memory

DEFAULT_SYSTEM = (
    "You are a helpful assistant with long-term memory of this user. Use what you remember when it "
    "helps, say so when you are unsure, and keep answers short."
)
DEFAULT_BUDGET = 8000
DEFAULT_MAX_TOOL_ROUNDS = 4
ACTION_CHARS = 200
RESULT_CHARS = 300
NO_LLM = (
    "no LLM configured: set ENGRAM_LLM (e.g. 'anthropic:claude-sonnet-4-5', 'openai:gpt-4o-mini' or "
    "'openai:llama3.2@http://localhost:11434/v1'), or ANTHROPIC_API_KEY / OPENAI_API_KEY; "
    "'scripted' runs offline (it echoes)"
)


@dataclass
class TurnReport:
    """What happened in the last turn: context sent, tool calls run, rounds, usage, extraction."""

    number: int
    turn_id: str
    context: Context | None = None
    tool_calls: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    rounds: int = 0
    reply: str = ""
    usage: dict[str, int] = field(default_factory=dict)
    extraction: Extraction | None = None
    error: str | None = None


class MemoryAgent:
    """A chat agent over one subject's memory. `chat(message) -> reply` is the whole interface."""

    def __init__(
        self,
        memory: Memory,
        subject: str,
        llm: LLM | None,
        *,
        system: str = DEFAULT_SYSTEM,
        budget: int = DEFAULT_BUDGET,
        memory_budget: int | None = None,
        session: str | None = None,
        tools: bool = True,
        untrusted_input: bool = False,
        extract: bool = False,
        extract_llm: LLM | None = None,
        max_tool_rounds: int = DEFAULT_MAX_TOOL_ROUNDS,
        max_tokens: int = 1024,
        k: int = 5,
        counter: TokenCounter | None = None,
        now: TimeLike = None,
    ) -> None:
        if llm is None:
            raise ConfigError(NO_LLM)
        if not isinstance(llm, LLM):
            raise InvalidInput(f"llm must be an engram.llm.LLM (e.g. get_llm('anthropic')), not {type(llm).__name__}")
        validate.count(budget, "budget", 256, 10_000_000)
        self.memory_budget = memory_budget if memory_budget is not None else max(128, budget // 4)
        validate.count(self.memory_budget, "memory_budget", 0, budget - 128)
        validate.count(max_tool_rounds, "max_tool_rounds", 1, 100)
        self.memory, self.subject, self.llm = memory, validate.subject(subject), llm
        self.budget, self.max_tool_rounds, self.max_tokens, self.k = budget, max_tool_rounds, max_tokens, k
        self.extract, self.extract_llm, self.now = extract, extract_llm, now
        self.counter = counter or default_counter()
        self.session = session or uuid.uuid4().hex[:12]
        self.tools = (MemoryTools(memory, self.subject, session=self.session, untrusted_input=untrusted_input, now=now)
                      if tools else None)
        self.conversation = self._open_conversation(system, session is not None)
        self.turn = self._turns_logged()
        self.last: TurnReport | None = None

    # -- set-up ---------------------------------------------------------------------------
    def _open_conversation(self, system: str, resume: bool) -> Conversation:
        """Resume the saved conversation of this session, or start a new one."""
        if resume:
            try:
                conv = Conversation.load(self.memory, self.subject, self.session, counter=self.counter)
                conv.system = system
                return conv
            except NotFound:
                pass
        return Conversation(system, self.budget - self.memory_budget, counter=self.counter)

    def _turns_logged(self) -> int:
        where = Filter(kinds=(EPISODE,), session=self.session)
        return len(self.memory.items(self.subject, where=where))

    # -- the turn -------------------------------------------------------------------------
    def context(self, query: str) -> Context:
        """The system text this agent would send for `query` now (what `engram context` prints)."""
        return assemble(self.memory, self.subject, query, conversation=self.conversation, budget=self.budget,
                        max_memory_tokens=self.memory_budget, k=self.k, exclude_session=self.session,
                        counter=self.counter, now=self.now)

    def chat(self, message: str) -> str:
        """Answer one user message; stores what the model decides to remember."""
        if not isinstance(message, str) or not message.strip():
            raise InvalidInput("message must be a non-empty string: say something to the agent")
        self.turn += 1
        report = self.last = TurnReport(self.turn, f"{self.session}:{self.turn}")
        if self.tools is not None:  # provenance of anything saved in this turn
            self.tools.source = f"chat:{report.turn_id}"
            self.tools.metadata = {"turns": [report.turn_id], "explicit": True}
            self.tools.calls = report.tool_calls
        saved = self.conversation.to_dict()
        try:
            self.conversation.add_user(message)
            report.context = self.context(message)
            report.reply = self._loop(report)
        except EngramError as exc:
            # Leave working memory as before the turn so the user can resend; stored memory stays.
            self.conversation = Conversation.from_dict(saved, self.conversation.summarize, self.counter)
            report.error = str(exc)
            self._log_episode(message, f"failed: {exc}", False, report)
            raise
        self._log_episode(message, report.reply, True, report)
        if self.extract:
            self._extract(message, report)
        return report.reply

    def _loop(self, report: TurnReport) -> str:
        """Call the model until it answers in text, running its tool calls (bounded rounds)."""
        assert report.context is not None
        tools = self.tools.definitions("anthropic") if self.tools else None  # neutral shape
        rounds = ToolRounds(self.max_tool_rounds)
        while True:
            choice = "none" if tools and rounds.exhausted else "auto"
            reply = self.llm.complete(report.context.system, self._messages(), tools=tools,
                                      max_tokens=self.max_tokens, tool_choice=choice)
            _add_usage(report.usage, reply.usage)
            self._add_assistant(reply)
            rounds.record(reply)
            report.rounds = rounds.used
            if not reply.tool_calls:
                return reply.text
            ran = choice == "auto"
            results = [(call, self._run(call) if ran else "not run: too many tool calls this turn")
                       for call in reply.tool_calls]
            for message in self.llm.tool_result_messages(results):
                self.conversation.add_message(message)
            if not ran:  # the provider ignored tool_choice="none": stop here, the turn stays valid
                return reply.text or "(stopped: too many tool calls in one turn)"

    def _messages(self) -> list[dict[str, Any]]:
        if self.llm.flavour == OPENAI:
            return self.conversation.to_openai()[1:]  # the system text is sent separately
        return self.conversation.to_anthropic()[1]

    def _add_assistant(self, reply: Reply) -> None:
        message = dict(reply.raw_message)
        if not message.get("content") and not message.get("tool_calls"):
            message = {"role": "assistant", "content": reply.text or "(no reply)"}
        self.conversation.add_message(message)

    def _run(self, call: ToolCall) -> str:
        if call.parse_error:
            return f"error: {call.parse_error}; send the arguments as one JSON object"
        if self.tools is None:
            return f"error: there is no tool {call.name!r}"
        return self.tools.handle(call.name, call.arguments)

    # -- after the turn -------------------------------------------------------------------
    def _log_episode(self, message: str, result: str, success: bool, report: TurnReport) -> None:
        self.memory.log_episode(
            self.subject, _clip(redact(message), ACTION_CHARS), _clip(redact(result), RESULT_CHARS),
            success=success, session=self.session, category="chat", source=f"chat:{report.turn_id}",
            now=self.now,
        )

    def _extract(self, message: str, report: TurnReport) -> None:
        try:
            report.extraction = extract_facts(
                self.memory, self.subject, self.extract_llm or self.llm, message,
                session=self.session, turn=report.number, now=self.now,
            )
        except EngramError as exc:  # extraction is a bonus: a failure must not lose the reply
            report.extraction = Extraction(error=str(exc))

    def save(self) -> str:
        """Store the conversation under this session id (resume with MemoryAgent(..., session=id))."""
        self.memory.save_conversation(self.subject, self.session, self.conversation, now=self.now)
        return self.session


def _add_usage(total: dict[str, int], usage: dict[str, int]) -> None:
    for key, value in usage.items():
        if isinstance(value, int):
            total[key] = total.get(key, 0) + value


def _clip(text: str, limit: int) -> str:
    """One line without control characters, at most `limit` characters."""
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc" or ch in "\t\n\r")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
