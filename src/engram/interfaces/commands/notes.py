"""`engram note` and `engram forget-source`: research notes that cite a page (engram.core.notes)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from engram.errors import InvalidInput


def register(main: click.Group) -> None:
    main.add_command(note)
    main.add_command(forget_source)


@click.command()
@click.argument("subject")
@click.argument("text")
@click.option("--url", required=True, help="The page the note comes from (stored in canonical form).")
@click.option("--quote", default=None, help="The words on the page that support the note.")
@click.option("--page", "page_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="A file with the page ('-' for standard input): the note is saved only if --quote is in it.")
@click.option("--html", "is_html", is_flag=True, help="The --page file is HTML: check the quote against its text.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def note(ctx: click.Context, subject: str, text: str, url: str, quote: str | None, page_path: str | None,
         is_html: bool, as_json: bool) -> None:
    """Save a research note for SUBJECT citing --url, checked against the page when --page is given."""
    from engram.interfaces.cli import emit, open_memory
    from engram.core.notes import canonical_url, source_id

    page = None
    if page_path is not None:
        if page_path == "-":
            page = sys.stdin.read()
        else:
            try:
                page = Path(page_path).read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                raise InvalidInput(f"cannot read the page {page_path}: {exc.strerror}") from exc
    elif is_html:
        raise InvalidInput("--html describes the --page file: give --page too")
    result = open_memory(ctx).remember_note(subject, text, url=url, quote=quote,
                                            page_text=None if is_html else page,
                                            page_html=page if is_html else None)
    data = {**result.to_dict(), "url": canonical_url(url), "source_id": source_id(url)}
    emit(as_json, data, lambda: [f"saved {result.id}  {data['source_id']}  {data['url']}" if result.saved
                                 else f"not saved: {result.reason}"])


@click.command("forget-source")
@click.argument("subject")
@click.argument("source")
@click.option("--yes", is_flag=True, help="Delete; without it, only show what would be deleted.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def forget_source(ctx: click.Context, subject: str, source: str, yes: bool, as_json: bool) -> None:
    """Delete every note of SUBJECT taken from SOURCE (a source id src:... or a URL of the page)."""
    from engram.interfaces.cli import emit, item_line, open_memory

    mem = open_memory(ctx)
    if not yes:
        found = mem.notes(subject, source)
        emit(as_json, {"would_forget": len(found), "items": [it.to_dict() for it in found]},
             lambda: [*(item_line(it) for it in found),
                      f"{len(found)} note(s) would be forgotten; run again with --yes to delete them"])
        return
    count = mem.forget_source(subject, source)
    emit(as_json, {"forgotten": count}, lambda: [f"forgot {count} note(s)"])
