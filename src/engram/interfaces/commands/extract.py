"""`engram extract`: turn kept messages not yet extracted into facts (`Memory.extract`).

Exit status 0 when every batch was extracted (a fact a screen refused is reported, not a failure),
1 when a batch failed or the provider stopped the run (those messages stay pending for the next
run), and 1 with nothing done when no LLM provider is configured.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from engram.interfaces.options import json_option


def register(main: click.Group) -> None:
    main.add_command(extract)


def report_lines(reply: dict[str, Any]) -> Iterable[str]:
    """The run for a person: one line per fact, then the totals and any error."""
    for fact in reply["facts"]:
        if fact["saved"]:
            yield f"saved    {fact['id'][:8]}  {fact['text']}"
        elif fact["reason"] == "duplicate":
            yield f"known    {fact['id'][:8]}  {fact['text']}"
        else:
            yield f"refused  {fact['text']}  ({fact['reason']})"
    for rejected in reply["rejected"]:
        yield f"rejected {rejected['reason']}: {rejected['proposed']!r}"
    yield (f"{reply['messages']} message(s) extracted in {reply['batches']} batch(es): {reply['saved']} fact(s) "
           f"saved, {reply['refused']} refused; {reply['pending']} message(s) pending")
    for error in reply["errors"]:
        yield f"error: {error}"


@click.command()
@click.option("--subject", default=None, help="Only this subject (default: every subject).")
@click.option("--session", default=None, help="Only the messages of this session.")
@click.option("--llm", "spec", default=None, metavar="SPEC",
              help="NAME[:MODEL][@URL], e.g. anthropic:claude-haiku-4-5 (default: $ENGRAM_LLM, else an API key).")
@click.option("--max-batches", type=click.IntRange(min=1), default=None,
              help="At most this many batches (LLM calls); the rest stay pending.")
@json_option
@click.pass_context
def extract(ctx: click.Context, subject: str | None, session: str | None, spec: str | None,
            max_batches: int | None, as_json: bool) -> None:
    """Turn the messages not yet extracted into short facts, one LLM call per batch.

    Each fact is remembered with source `extract` and the ids of the messages it came from; a
    message is extracted once. A batch the model answers badly twice fails: nothing of it is
    stored and its messages stay pending for the next run.
    """
    from engram.core.extraction import provider
    from engram.interfaces.cli import emit, open_memory
    from engram.llm import get_llm

    llm = provider(get_llm(spec) if spec else None)  # before the store is opened: no provider, nothing done
    mem = open_memory(ctx)
    reply = mem.extract(subject, session=session, llm=llm, max_batches=max_batches).to_dict()
    emit(as_json, reply, lambda: report_lines(reply))
    if reply["errors"]:
        ctx.exit(1)
