"""`engram ingest FILE|-`: keep a conversation file's messages whole (`Memory.add_messages`).

The file is JSON (a message list, or a request such as `{"messages": [...]}`, or a saved
`Conversation`) or JSONL (one message, list or request per line), in the OpenAI Chat, OpenAI
Responses or Anthropic Messages shape (engram.core.conversations).
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import click

from engram.errors import InvalidInput

CHUNK = 200  # messages written per step of the progress bar


def register(main: click.Group) -> None:
    main.add_command(ingest)


def read_messages(text: str, name: str) -> list[Any]:
    """The messages of a JSON or JSONL document (engram.core.conversations.Message each)."""
    from engram.core.conversations import messages_of

    try:
        return list(messages_of(json.loads(text)))
    except json.JSONDecodeError as whole:
        out: list[Any] = []
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise InvalidInput(f"{name} is not JSON: {whole.msg} (line {whole.lineno})") from None
        for n, line in lines:
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{name} line {n} is not JSON: {exc.msg}; nothing was stored") from None
            try:
                out.extend(messages_of(value))
            except InvalidInput as exc:
                raise InvalidInput(f"{name} line {n}: {exc}; nothing was stored") from None
        return out


@click.command()
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--subject", required=True, help="Whose memory, as kind:name (e.g. user:42).")
@click.option("--session", default=None, help="The conversation's session label.")
@click.option("--at", default=None, help="When it was said (ISO 8601), for messages without their own time.")
@click.option("--source", default=None, help="Where it came from (default: the file name).")
@click.option("--json", "as_json", is_flag=True, help="Print the result object as JSON (no progress bar).")
@click.pass_context
def ingest(ctx: click.Context, file: io.TextIOBase, subject: str, session: str | None, at: str | None,
           source: str | None, as_json: bool) -> None:
    """Keep every message of FILE (`-`: standard input) whole, as SUBJECT's memory.

    Secrets are redacted in place, tool results kept marked untrusted; nothing is refused for its length.
    """
    from engram.interfaces.cli import open_memory
    from engram.verbs.table import messages_reply

    name = getattr(file, "name", "-")
    messages = read_messages(file.read(), name)
    mem = open_memory(ctx)
    saved: list[Any] = []
    quiet = as_json or not sys.stderr.isatty()
    with click.progressbar(length=len(messages), label="ingesting", file=io.StringIO() if quiet else None) as bar:
        for at_message in range(0, len(messages), CHUNK):
            chunk = messages[at_message:at_message + CHUNK]
            saved += mem.add_messages(subject, chunk, session=session, at=at,
                                      source=name if source is None else source)
            bar.update(len(chunk))
    reply = messages_reply(saved)
    if as_json:
        click.echo(json.dumps(reply, ensure_ascii=False))
    else:
        click.echo(f"kept {reply['saved']} message(s) of {name}"
                   + (f", {reply['redacted']} with a secret redacted" if reply["redacted"] else ""))
