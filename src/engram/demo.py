"""The demo story, as a function so tests and `engram demo` run the same code."""

from __future__ import annotations

from typing import Callable

from engram.memory import Memory

USER = "user:42"
DAY = 86400.0
START = 1_793_700_000.0  # 2026-11-02, so the story reads the same on every run

FACTS = [
    ("Prefers answers with Python code, not pseudocode.", "chat 2026-11-01", 0),
    ("Deploys to AWS Lambda with Python 3.12.", "chat 2026-11-01", 0),
    ("Team uses Postgres 16 for all services.", "chat 2026-11-02", 1),
    ("Is building a recommendation system for an e-commerce shop.", "chat 2026-11-02", 1),
    ("Works in the Europe/Lisbon time zone.", "chat 2026-11-03", 2),
]


def heading(echo: Callable[[str], None], text: str) -> None:
    echo("")
    echo(f"== {text} ==")


def session_one(mem: Memory, echo: Callable[[str], None]) -> None:
    heading(echo, "Session 1: the user tells us things")
    for text, source, day in FACTS:
        result = mem.remember(USER, text, source=source, now=START + day * DAY)
        echo(f"remember  {text!r:70} -> {'saved' if result.saved else 'not saved: ' + str(result.reason)}")
    again = mem.remember(USER, FACTS[2][0], source="chat 2026-11-04", now=START + 3 * DAY)
    echo(f"remember  {FACTS[2][0]!r:70} -> not saved: {again.reason}")
    secret = mem.remember(USER, "My key is sk-ant-api03-Xy7Qw2Lp9Rt4Vb8NfK2m", source="chat", now=START + 3 * DAY)
    echo(f"remember  {'My key is sk-ant-api03-…':70} -> not saved: {secret.reason}")
    mem.set_preference(USER, "response_style", "concise, with code examples", now=START)
    mem.set_preference(USER, "explanation_depth", "intermediate", now=START)
    mem.store_fact(USER, "db_technology", "PostgreSQL", category="tech_stack", now=START + DAY)
    mem.log_episode(USER, "Helped debug a cosine similarity bug", "Fixed a shape mismatch", session="s1",
                    category="debugging", now=START + DAY)
    mem.log_episode(USER, "Tried matrix factorisation on the full data", "Ran out of memory", success=False,
                    session="s1", category="modelling", now=START + 2 * DAY)
    echo(f"stored preferences, a keyed fact and two episodes; store now holds {mem.stats(USER)['items']} items")


def session_two(mem: Memory, echo: Callable[[str], None]) -> None:
    heading(echo, "Session 2: a fresh process recalls without being told again")
    for question in ("Which database does the team use?", "Which Python version do I deploy with?",
                     "What am I building?"):
        hits = mem.recall(USER, question, k=2, now=START + 10 * DAY)
        echo(f"recall    {question}")
        for hit in hits:
            echo(f"          {hit.score:5.3f}  {hit.text}")
    echo(f"preferences: {mem.preferences(USER)}")
    episodes = mem.recent_episodes(USER, 5, success_only=True)
    echo("successful episodes: " + "; ".join(f"{e.action} -> {e.result}" for e in episodes))


def forgetting(mem: Memory, echo: Callable[[str], None]) -> None:
    heading(echo, "Forgetting: preview first, then delete everywhere")
    preview = mem.matches(USER, "postgres")
    echo(f"forget 'postgres' would delete {len(preview)} item(s):")
    for item in preview:
        echo(f"          - [{item.kind}] {item.text}")
    echo(f"forgot {mem.forget(USER, 'postgres')} item(s)")
    left = mem.recall(USER, "Which database does the team use?", k=3, now=START + 10 * DAY)
    echo("recall after forget: " + ("; ".join(h.text for h in left) or "(nothing)"))


def run(path: str, embedder: str | None = None, echo: Callable[[str], None] = print) -> None:
    """Run the demo story on a database file at `path`."""
    echo(f"Engram demo on {path}")
    with Memory(path, embedder=embedder) as mem:
        session_one(mem, echo)
    with Memory(path, embedder=embedder) as mem:
        session_two(mem, echo)
        forgetting(mem, echo)
    echo("")
    echo("Done. Inspect the file with: engram --db " + path + " list " + USER)
