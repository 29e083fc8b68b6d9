"""`engram context SUBJECT QUERY` and `engram chat SUBJECT`: the agent from the shell."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from engram.core.memory import Memory


def register(main: click.Group) -> None:
    main.add_command(context)
    main.add_command(chat)


def _memory(ctx: click.Context) -> Memory:
    from engram.interfaces.cli import open_memory

    return open_memory(ctx)


@click.command()
@click.argument("subject")
@click.argument("query")
@click.option("--budget", type=int, default=1000, show_default=True,
              help="Tokens the system text may use (prompt + memory).")
@click.option("-k", "k", type=int, default=5, show_default=True, help="Most relevant facts to include.")
@click.option("--system", default="", help="System prompt to put before the memory.")
@click.option("--explain", is_flag=True, help="Also list what was included and what was cut, and why.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def context(ctx: click.Context, subject: str, query: str, budget: int, k: int, system: str, explain: bool,
            as_json: bool) -> None:
    """Print the memory block that would go into the system prompt for QUERY."""
    from engram.agent.prompt import assemble

    result = assemble(_memory(ctx), subject, query, system=system, budget=budget, k=k)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
        return
    click.echo(result.system if system else result.memory)
    if explain:
        click.echo("")
        click.echo(result.explain())


@click.command()
@click.argument("subject")
@click.option("--llm", "spec", default=None,
              help="NAME[:MODEL][@URL], e.g. anthropic:claude-sonnet-4-5 (default: $ENGRAM_LLM, else an API key).")
@click.option("--session", default=None, help="Session id: resumes a saved conversation, saves it at the end.")
@click.option("--system", default=None, help="System prompt (default: a short assistant prompt).")
@click.option("--budget", type=int, default=8000, show_default=True, help="Prompt token budget per turn.")
@click.option("--no-tools", is_flag=True, help="Do not offer the remember/recall/forget tools.")
@click.option("--extract", is_flag=True, help="Also extract facts from each message (one more LLM call a turn).")
@click.option("--show-context", is_flag=True, help="Print the memory sent with each turn (to stderr).")
@click.pass_context
def chat(ctx: click.Context, subject: str, spec: str | None, session: str | None, system: str | None,
         budget: int, no_tools: bool, extract: bool, show_context: bool) -> None:
    """Chat with an agent that remembers SUBJECT across sessions (one message per line on stdin)."""
    from engram.agent.agent import DEFAULT_SYSTEM, NO_LLM, MemoryAgent
    from engram.errors import ProviderError
    from engram.llm import get_llm

    mem = _memory(ctx)
    llm = get_llm(spec)
    if llm is None:
        _without_llm(mem, subject, system or DEFAULT_SYSTEM, budget, NO_LLM)
        ctx.exit(1)
    agent = MemoryAgent(mem, subject, llm, system=system or DEFAULT_SYSTEM, budget=budget, session=session,
                        tools=not no_tools, extract=extract)
    failed = False
    for line in _lines():
        try:
            reply = agent.chat(line)
        except ProviderError as exc:
            click.echo(f"error: {exc} (nothing stored was lost; send the message again)", err=True)
            failed = True
            continue
        if show_context and agent.last and agent.last.context:
            click.echo(agent.last.context.memory, err=True)
        for name, args, result in agent.last.tool_calls if agent.last else ():
            click.echo(f"  [{name}] {json.dumps(args, ensure_ascii=False)} -> {result.splitlines()[0]}", err=True)
        click.echo(reply)
    if session:
        agent.save()
    if failed:
        ctx.exit(1)


def _without_llm(mem: Memory, subject: str, system: str, budget: int, how: str) -> None:
    """Say how to configure a provider, and show the memory each message would have sent."""
    from engram.agent.prompt import assemble

    click.echo(f"error: {how}", err=True)
    click.echo("Showing the memory that would be sent with each message instead.", err=True)
    for line in _lines():
        shown = assemble(mem, subject, line, system=system, budget=budget, max_memory_tokens=max(128, budget // 4))
        click.echo(shown.memory)


def _lines() -> Iterator[str]:
    stdin = sys.stdin
    prompt = stdin.isatty()
    while True:
        if prompt:
            click.echo("you> ", nl=False, err=True)
        line = stdin.readline()
        if not line:
            return
        if line.strip():
            yield line.rstrip("\n")
