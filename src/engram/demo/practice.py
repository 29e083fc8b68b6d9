"""The seed article's four-part exercise, on Engram: `run_practice(path)` prints Part 1 ... Part 4.

1. A five-turn conversation with a `MemoryAgent`; each exchange lands in semantic memory (an
   embedded fact the model saves with the `remember` tool) and episodic memory (a keyed fact by
   category, and the episode the agent logs); both stores are then checked.
2. A new session on the same file answers a question that needs a fact from session one,
   without being told it, and personalises the reply.
3. Ten queries: top 3 from semantic recall next to episodic lookup by category, scored.
4. Recency decay off and on: which memories change rank.

Offline (the default) the model is a `ScriptedLLM` whose rule stands in for a real model's
judgement: it saves the fact each statement carries and answers questions from the `<memory>`
block of its system prompt. Pass `llm=get_llm()` to run the same story on a real provider.
Times are fixed (`now=`), so the offline output is the same on every run.
"""

from __future__ import annotations

import html
import re
from typing import Callable

from engram.core import ranking
from engram.agent import MemoryAgent
from engram.agent.manager import consolidate, memory_stats, summarize_session
from engram.embed.base import Embedder
from engram.llm import ScriptedLLM, ToolCall
from engram.llm.base import LLM
from engram.llm.base import Request
from engram.llm.fake import Step
from engram.core.memory import Memory
from engram.types import iso

Echo = Callable[[str], None]
USER = "user:rahul"
DAY = 86400.0
START = 1_793_700_000.0  # 2026-11-03 10:00 UTC: fixed, so every offline run prints the same

# (user message, the fact a model would save, keyed facts for the episodic store: (key, value, category))
TURNS = [
    ("Hi! I'm Rahul, an ML engineer.", "Name is Rahul; works as an ML engineer.",
     [("user_name", "Rahul", "identity"), ("user_role", "ML engineer", "identity")]),
    ("I'm building a recommendation system for an e-commerce shop.",
     "Is building a recommendation system for an e-commerce shop.",
     [("project", "recommendation system for an e-commerce shop", "project")]),
    ("Our team runs Postgres 16 for all services.", "Team uses Postgres 16 for all services.",
     [("db_technology", "Postgres 16", "tech_stack")]),
    ("I prefer Python and PyTorch over TensorFlow.", "Prefers Python and PyTorch over TensorFlow.",
     [("preferred_ml_lib", "PyTorch", "preference"), ("preferred_lang", "Python", "preference")]),
    ("Please keep answers concise and show code.", "Wants concise answers with code examples.",
     [("response_style", "concise, with code examples", "style")]),
]
QUESTION = "Which database should I use to store the click events for my project?"
PAST_EPISODES = [  # logged before Part 3: (action, result, success, category, days ago)
    ("Helped debug a cosine similarity bug", "Fixed a shape mismatch", True, "debugging", 20),
    ("Solved cold-start for new users with content-based features", "New users get relevant items", True,
     "modelling", 15),
    ("Tried matrix factorisation on the full data", "Ran out of memory", False, "modelling", 10),
]
QUERIES = [  # (query, episodic category to look in, word the right answer contains)
    ("What is the user's name?", "identity", "Rahul"),
    ("What does the user do for a living?", "identity", "ML engineer"),
    ("What is the user working on?", "project", "recommendation"),
    ("Which database does the team use?", "tech_stack", "Postgres"),
    ("Which deep learning framework should examples use?", "preference", "PyTorch"),
    ("How long should answers be?", "style", "concise"),
    ("Has this user had problems with new users?", "modelling", "cold-start"),
    ("What failed when we trained on the full data?", "modelling", "Ran out of memory"),
    ("What bug did we fix before?", "debugging", "cosine"),
    ("What tools does this user prefer?", "preference", "PyTorch"),
]
OLD_MEMORIES = [  # added before Part 4: (text, days ago)
    ("Team used MySQL 5.7 for all services.", 400),
    ("Deployed the recommender on a single EC2 instance.", 300),
    ("Recommendation models were trained with TensorFlow 1.x.", 500),
]
DECAY_QUERIES = ["Which database does the team use?", "Which ML framework do we train with?",
                 "Where is the recommender deployed?"]


# -- the offline model -------------------------------------------------------------------------
def scripted_model() -> ScriptedLLM:
    """A deterministic stand-in for a model: saves what statements say, answers from its memory block."""
    facts = {message: fact for message, fact, _ in TURNS}

    def rule(request: Request) -> Step:
        if request.tool_results:  # the remember call came back: acknowledge
            return "Noted, I'll remember that."
        said = request.last_user_text
        if said in facts and "remember" in request.tool_names:
            return ["Got it.", ToolCall("", "remember", {"fact": facts[said]})]
        return answer_from_memory(said, memory_lines(request.system))

    return ScriptedLLM(rule=rule)


def memory_lines(system: str) -> list[str]:
    """The items of the `<memory>` block in a system prompt, unescaped, without their bullet."""
    match = re.search(r"<memory>\n(.*?)\n</memory>", system, re.S)
    lines = match.group(1).splitlines() if match else []
    return [html.unescape(line[2:]) for line in lines if line.startswith("- ") and "nothing relevant" not in line]


def answer_from_memory(question: str, lines: list[str]) -> str:
    """A personalised answer built only from what the memory block holds."""
    facts = [line.removeprefix("[fact] ") for line in lines if line.startswith("[fact]")]
    prefs = [line.removeprefix("[preference] ") for line in lines if line.startswith("[preference]")]
    if not facts:
        return "I don't have anything saved about that yet. Could you tell me more?"
    style = f"(Keeping it {prefs[0].split(': ', 1)[-1]}, as you prefer.) " if prefs else ""
    known = " ".join(f.rstrip(".") + "." for f in facts[:3])
    return f"{style}Going by what I remember: {known} My suggestion builds on that."


# -- the story ---------------------------------------------------------------------------------
def heading(echo: Echo, text: str) -> None:
    echo("")
    echo(f"=== {text} ===")


def part1(mem: Memory, llm: LLM, echo: Echo) -> None:
    heading(echo, "Part 1: a five-turn conversation, stored in semantic and episodic memory")
    agent = MemoryAgent(mem, USER, llm, session="session-1", now=START)
    for message, _, keyed in TURNS:
        reply = agent.chat(message)
        last = agent.last
        assert last is not None  # chat() always records its turn
        for key, value, category in keyed:  # the structured (episodic) copy of the exchange
            mem.store_fact(USER, key, value, category=category, source=f"chat:{last.turn_id}", now=START)
        saved = [r for name, _, r in last.tool_calls if name == "remember"]
        echo(f"user:  {message}")
        echo(f"agent: {reply}   [remember -> {', '.join(saved) or 'not called'}]")
    agent.save()
    mem.set_preference(USER, "response_style", "concise, with code examples", now=START)  # as the seed does
    verify_stores(mem, echo)


def verify_stores(mem: Memory, echo: Echo) -> None:
    """Check each turn is in both stores: an embedded fact (semantic) and keyed facts + an episode."""
    embedded = set(mem.admin.vectors(USER)[0]) if mem.embedder else None
    episodes = mem.recent_episodes(USER, 20, session="session-1")
    echo("")
    echo(f"{'turn':<5} {'semantic (embedded fact)':<28} {'episodic (keyed facts)':<28} episode")
    for number, (message, _fact, keyed) in enumerate(TURNS, 1):
        hit = next(iter(mem.recall(USER, message, k=1, kinds=["fact"], now=START)), None)
        semantic = bool(hit and hit.item.key is None and (embedded is None or hit.id in embedded))
        keys = [k for k, _, _ in keyed if mem.get_fact(USER, k) is not None]
        logged = any(e.action == message for e in episodes)
        echo(f"{number:<5} {_mark(semantic) + ' ' + (hit.text[:24] if hit else '-'):<28} "
             f"{_mark(len(keys) == len(keyed)) + ' ' + ', '.join(keys):<28} {_mark(logged)}")
    n_facts = len([it for it in mem.items(USER, kinds=["fact"]) if it.key is None])
    echo(f"semantic store: {n_facts} embedded facts; episodic store: "
         f"{len(mem.items(USER, kinds=['fact'])) - n_facts} keyed facts, {len(episodes)} episodes of session-1")


def _mark(ok: bool) -> str:
    return "yes" if ok else "NO"


def part2(path: str, embedder: Embedder | str | None, llm: LLM, echo: Echo) -> None:
    heading(echo, "Part 2: a new session recalls session one without being told")
    with Memory(path, embedder=embedder) as mem:  # a fresh Memory and agent on the same file
        agent = MemoryAgent(mem, USER, llm, session="session-2", now=START + DAY)
        reply = agent.chat(QUESTION)
        assert agent.last is not None  # chat() always records its turn
        context = agent.last.context
        echo(f"user:  {QUESTION}")
        echo(f"agent: {reply}")
        echo("memory the agent was given for this turn (from session one):")
        for entry in (context.included if context else ())[:6]:
            echo(f"  - [{entry.section}] {entry.text}")
        told = "postgres" in QUESTION.lower()
        recalled = "postgres" in reply.lower()
        echo(f"recalled the database (Postgres 16) without being told: {_mark(recalled and not told)}; "
             f"personalised (mentions the project): {_mark('recommendation' in reply.lower())}")


def part3(mem: Memory, echo: Echo) -> None:
    heading(echo, "Part 3: semantic recall vs episodic lookup by category, ten queries")
    for action, result, success, category, ago in PAST_EPISODES:
        mem.log_episode(USER, action, result, success=success, category=category, session="earlier",
                        now=START - ago * DAY)
    at = START + 2 * DAY
    scores = {"semantic": 0, "episodic": 0}
    for number, (query, category, answer) in enumerate(QUERIES, 1):
        semantic = [h.text for h in mem.recall(USER, query, k=3, now=at)]
        episodic = [it.text for it in mem.facts_by_category(USER, category)]
        episodic += [e.action + (f" -> {e.result}" if e.result else "")
                     for e in mem.recent_episodes(USER, 3, category=category)]
        found = {"semantic": _has(semantic, answer), "episodic": _has(episodic[:3], answer)}
        scores = {name: scores[name] + found[name] for name in scores}
        echo(f"{number:>2}. {query}   (category: {category}; answer contains {answer!r})")
        for i in range(3):
            left = semantic[i] if i < len(semantic) else ""
            right = episodic[i] if i < len(episodic) else ""
            echo(f"      {_cell(left)} | {_cell(right)}".rstrip())
        echo(f"      semantic {'found it' if found['semantic'] else 'missed'}; "
             f"category lookup {'found it' if found['episodic'] else 'missed'}")
    echo("")
    echo(f"answer in the top 3: semantic {scores['semantic']}/10, episodic by category {scores['episodic']}/10")
    echo("Conclusion: category lookup is exact and complete when you already know where the answer lives "
         "(identity, stack, style), and it costs no embedding; semantic recall is what you need when you only "
         "have the user's question: it crosses categories and finds paraphrases, but it ranks the chat log "
         "next to the facts. (Here the category was chosen by hand, which is the lookup's hidden cost.) "
         "An agent uses both: keyed facts for settings, recall for everything else.")


def _has(texts: list[str], answer: str) -> bool:
    return any(answer.lower() in t.lower() for t in texts)


def _cell(text: str, width: int = 58) -> str:
    text = text if len(text) <= width else text[: width - 1] + "…"
    return f"{text:<{width}}"


# Relevance is a sum of standardised signals (a few units between a match and a miss), so
# a recency weight of 2 lets a fresh fact overtake a stale one of similar relevance.
DECAY_WEIGHT = 2.0


def part4(mem: Memory, echo: Echo) -> None:
    heading(echo, "Part 4: recency decay off and on")
    for text, ago in OLD_MEMORIES:
        mem.remember(USER, text, source="old notes", now=START - ago * DAY)
    at = START + 2 * DAY
    echo(f"score = relevance (fused keyword + vector signals) + w_recency * 0.5 ** (age / half-life);"
         f"  off: w_recency=0;  on: w_recency={DECAY_WEIGHT}, half-life 30 days")
    changed = 0
    for query in DECAY_QUERIES:
        off = mem.recall(USER, query, k=4, kinds=["fact"], recency=0, now=at)
        on = mem.recall(USER, query, k=4, kinds=["fact"], recency=DECAY_WEIGHT, half_life_days=30, now=at)
        before = {h.id: i for i, h in enumerate(off, 1)}
        echo(f"query: {query}")
        for rank, hit in enumerate(on, 1):
            was = before.get(hit.id)
            move = "new" if was is None else ("same" if was == rank else f"was #{was}")
            changed += move != "same"
            age = (at - hit.item.event_at) / DAY
            decay = ranking.recency(hit.item.event_at, at, 30)
            echo(f"   #{rank} ({move:>6})  {age:5.0f} days old, decay {decay:.3f}  {hit.text}")
        top_off = off[0].text if off else "-"
        echo(f"   top without decay: {top_off}")
    echo(f"{changed} rank(s) changed. Decay buries stale facts (MySQL, TensorFlow 1.x, EC2) under newer "
         "ones; keep it low when old facts stay true (a name does not expire).")


def epilogue(mem: Memory, echo: Echo) -> None:
    heading(echo, "Maintenance: what the memory manager makes of it")
    summary = summarize_session(mem, USER, "session-1", now=START + 2 * DAY)
    echo(f"summary of session-1 ({summary.method}): {summary.text}")
    merges = consolidate(mem, USER, now=START + 2 * DAY)
    echo(f"near-duplicates found (preview): {sum(len(m.drop) for m in merges)}")
    stats = memory_stats(mem, USER)
    echo(f"stats: {stats['items']} items {stats['by_kind']}, {stats['sessions']} sessions, "
         f"episode success rate {stats['episodes']['success_rate']}, newest {stats['newest']}")


def run_practice(path: str, echo: Echo = print, *, llm: LLM | None = None,
                 embedder: Embedder | str | None = None) -> None:
    """Run the four parts on a database file at `path` (offline unless `llm` is given)."""
    model = llm or scripted_model()
    echo(f"Agent memory practice on {path} (model: {'scripted, offline' if llm is None else model.model}; "
         f"clock fixed at {iso(START)})")
    with Memory(path, embedder=embedder) as mem:
        part1(mem, model, echo)
        loaded = mem.embedder  # the model is loaded once; each part still opens the file afresh
    part2(path, loaded or embedder, model, echo)
    with Memory(path, embedder=loaded or embedder) as mem:
        part3(mem, echo)
        part4(mem, echo)
        epilogue(mem, echo)
