"""`engram audit SUBJECT TEXT`: every place the store still holds TEXT for SUBJECT."""

from __future__ import annotations

import click

from engram.interfaces.options import json_option


def register(main: click.Group) -> None:
    main.add_command(audit_command)


@click.command("audit")
@click.argument("subject")
@click.argument("text")
@json_option
@click.pass_context
def audit_command(ctx: click.Context, subject: str, text: str, as_json: bool) -> None:
    """Find TEXT anywhere for SUBJECT: rows, history, index, vectors, raw file and WAL bytes."""
    from engram.core.audit import audit
    from engram.interfaces.cli import emit, open_memory

    report = audit(open_memory(ctx, embedder="none"), subject, text)
    emit(as_json, report.to_dict(), lambda: [
        *(f"found: {place}" for place in report.where),
        f"{report.found} place(s) hold the text" if report.found else "nothing found",
        *(f"not scanned: {what}" for what in report.not_scanned),
    ])
