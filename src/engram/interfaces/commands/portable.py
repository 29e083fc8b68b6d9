"""`engram export`, `engram import` and `engram backup`: move or copy a whole store."""

from __future__ import annotations

import sys
from typing import Any, TextIO

import click


def register(main: click.Group) -> None:
    main.add_command(export_command)
    main.add_command(import_command)
    main.add_command(backup_command)


@click.command("export")
@click.option("--output", "-o", required=True, help="JSONL file to write ('-' for standard output).")
@click.option("--subject", "subjects", multiple=True, help="Only these subjects (repeatable; default: all).")
@click.option("--vectors", is_flag=True, help="Include vectors (base64 float32); otherwise import re-embeds.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
def export_command(ctx: click.Context, output: str, subjects: tuple[str, ...], vectors: bool, as_json: bool) -> None:
    """Write every item (all versions, all kinds) to a JSONL file that `engram import` reads."""
    from engram.interfaces.cli import emit, open_memory
    from engram.core.portable import export

    mem = open_memory(ctx)
    counts = export(mem, sys.stdout if output == "-" else output, list(subjects) or None, vectors=vectors)
    if output != "-":
        emit(as_json, counts, lambda: [f"exported {counts['items']} item(s) of {counts['subjects']} subject(s)"
                                       f" to {output}"])


@click.command("import")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--allow-secrets", is_flag=True,
              help="Trusted restore: do not run the secret filter on the items (it runs by default).")
@click.option("--allow-instructions", is_flag=True,
              help="Trusted restore: do not run the instruction filter on the items (it runs by default).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
def import_command(ctx: click.Context, path: str, allow_secrets: bool, allow_instructions: bool, as_json: bool) -> None:
    """Add the items of an export file, keeping their ids; items already present are skipped.

    Every item is checked as a write is: items holding a secret or an instruction to the assistant
    are refused and listed by line number (never by content).
    """
    from engram.interfaces.cli import emit, open_memory
    from engram.core.portable import import_

    source: str | TextIO = sys.stdin if path == "-" else path  # click.get_text_stream is deprecated
    counts = import_(open_memory(ctx), source, allow_secrets=allow_secrets, allow_instructions=allow_instructions)
    emit(as_json, counts, lambda: _import_report(counts))


def _import_report(counts: dict[str, Any]) -> list[str]:
    lines = [f"imported {counts['imported']} item(s); skipped {counts['existing']} already present,"
             f" {counts['duplicates']} duplicate text(s), {counts['conflicts']} key conflict(s)"]
    if counts["refused"]:
        shown = ", ".join(str(n) for n in counts["refused_lines"][:20])
        more = f" and {len(counts['refused_lines']) - 20} more" if len(counts["refused_lines"]) > 20 else ""
        lines.append(f"refused {counts['refused']} item(s) on line(s) {shown}{more}:")
        lines += [f"  {count} {reason}" for reason, count in sorted(counts["refused_reasons"].items())]
        lines.append("  (a trusted restore: --allow-secrets / --allow-instructions)")
    return lines


@click.command("backup")
@click.argument("dest", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def backup_command(ctx: click.Context, dest: str, as_json: bool) -> None:
    """Copy the SQLite store to DEST with SQLite's online backup (PostgreSQL: use pg_dump)."""
    from engram.interfaces.cli import emit, open_memory
    from engram.core.portable import backup

    target = backup(open_memory(ctx, embedder="none"), dest)
    emit(as_json, {"backup": str(target)}, lambda: [f"backed up to {target}"])
