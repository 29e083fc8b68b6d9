"""The `engram` command: parse, call `Memory`, print (a table, or JSON with --json).

No logic lives here. Bad input exits with status 1 and a one-line `error: ...`, never a
traceback. The verb commands (remember, recall, forget, list) are generated from `engram.verbs`
(`engram.interfaces.commands.verbs`); every other command lives in `engram.interfaces.commands.*`
and registers on `main`.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import click

from engram.errors import EngramError, InvalidInput, NotAStore
from engram.interfaces.options import json_option
from engram.types import Item

if TYPE_CHECKING:
    from engram.core.memory import Memory

EXTRA_COMMANDS = (
    "engram.interfaces.commands.verbs",
    "engram.interfaces.commands.demo",
    "engram.interfaces.commands.migrate",
    "engram.interfaces.commands.manage",
    "engram.interfaces.commands.agent",
    "engram.interfaces.commands.audit",
    "engram.interfaces.commands.portable",
    "engram.interfaces.commands.mcp",
    "engram.interfaces.commands.serve",
    "engram.interfaces.commands.bench",
    "engram.interfaces.commands.reindex",
    "engram.interfaces.commands.notes",
    "engram.interfaces.commands.ingest",
    "engram.interfaces.commands.extract",
    "engram.interfaces.commands.screen",
)


class EngramGroup(click.Group):
    """A click group that turns Engram errors into one-line messages."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except EngramError as exc:
            _discard_new_store(ctx)
            click.echo(f"error: {exc}", err=True)
            ctx.exit(1)
        except click.exceptions.NoArgsIsHelpError:
            raise  # a group called alone prints its help
        except click.UsageError as exc:  # one line, like every other error (exit status 2, as click's)
            where = exc.ctx.command_path if exc.ctx is not None else ctx.command_path
            click.echo(f"error: {exc.format_message()} (see `{where} --help`)", err=True)
            ctx.exit(2)
        except OSError as exc:  # a file the command was asked to read or write (a missing folder, ...)
            _discard_new_store(ctx)
            name = f" {exc.filename}" if exc.filename else ""
            click.echo(f"error: cannot use{name}: {exc.strerror or exc}", err=True)
            ctx.exit(1)
        except click.exceptions.Exit:
            raise
        except Exception:
            _discard_new_store(ctx)
            raise


def _discard_new_store(ctx: click.Context) -> None:
    """A command that failed before writing leaves no new file: remove the SQLite store this
    command created, if it is still empty (its Memory is closed by now)."""
    from engram.store.sqlite import SQLiteStore

    created = (ctx.obj or {}).get("created")
    if created is None or not Path(created).exists():
        return
    try:
        store = SQLiteStore(created, read_only=True)
        try:
            empty = not store.subjects()
        finally:
            store.close()
    except EngramError:
        return
    if empty:
        for path in (created, created + "-wal", created + "-shm", created + "-journal"):
            Path(path).unlink(missing_ok=True)


@click.group(cls=EngramGroup)
@click.option("--db", envvar="ENGRAM_DB", default=None,
              help="SQLite file or postgresql:// URL (default: $ENGRAM_DB, else the user data dir).")
@click.option("--embedder", envvar="ENGRAM_EMBEDDER", default=None,
              help="minilm (default, offline), hashing, none, or openai:MODEL.")
@click.option("--agent", envvar="ENGRAM_AGENT", default=None, help="Name recorded as the writer of new items.")
@click.option("--read-only", is_flag=True, default=None,
              help="Open the store for reading only (automatic when the file cannot be written).")
@click.version_option(package_name="engramdb")
@click.pass_context
def main(ctx: click.Context, db: str | None, embedder: str | None, agent: str | None,
         read_only: bool | None) -> None:
    """Engram: local-first long-term memory for LLM agents.

    \b
    Text that starts with a dash is not an option: put `--` before it,
      engram remember user:42 -- "-5 degrees outside"
    or pass `-` and write the text on standard input:
      printf '%s' "-5 degrees outside" | engram remember user:42 -
    """
    ctx.obj = {"db": db, "embedder": embedder, "agent": agent, "read_only": read_only or None}


# Commands that only read (or delete from) an existing store: on a missing SQLite file they fail
# (exit 1) instead of creating an empty store. Every other command may create one.
NEEDS_A_STORE = frozenset({
    "audit", "backup", "consolidate", "context", "export", "export-finetune", "extract", "forget", "forget-all",
    "forget-source", "history", "importance", "list", "prune", "recall", "reindex", "search", "show", "stats",
    "subjects", "summarize",
})


def _top_command(ctx: click.Context) -> str | None:
    """The name of the command given right after `engram` (`procedures list` -> "procedures")."""
    while ctx.parent is not None and ctx.parent.parent is not None:
        ctx = ctx.parent
    return ctx.info_name if ctx.parent is not None else None


def open_memory(ctx: click.Context, **overrides: Any) -> Memory:
    """The Memory named by the global options (opened once per command)."""
    from engram.config import load
    from engram.core.memory import Memory

    obj = ctx.find_root().obj
    path = load(db=obj["db"]).db
    new = None if path.startswith(("postgresql://", "postgres://", ":memory:")) or Path(path).expanduser().exists() \
        else str(Path(path).expanduser())
    if new is not None and _top_command(ctx) in NEEDS_A_STORE:
        raise NotAStore(f"no store at {new}: nothing was created; check --db or ENGRAM_DB"
                        " (a command that writes, such as `engram remember`, creates a new store)")
    obj["created"] = new  # before opening: a command that fails from here on leaves no new file
    mem = Memory(obj["db"], embedder=overrides.get("embedder", obj["embedder"]), agent=obj["agent"],
                 read_only=obj.get("read_only"))
    ctx.call_on_close(mem.close)
    return mem


def emit(as_json: bool, value: Any, human: Callable[[], Iterable[str]]) -> None:
    """Print JSON or the human lines."""
    if as_json:
        click.echo(json.dumps(value, ensure_ascii=False, indent=None))
    else:
        for line in human():
            click.echo(line)


def item_line(item: Item | Mapping[str, Any], score: float | None = None) -> str:
    """One memory on one line: score, short id, kind, text and source (an Item or its JSON)."""
    data = item.to_dict() if isinstance(item, Item) else item
    head = f"{score:6.3f}  " if score is not None else ""
    source = f"  ({data['source']})" if data["source"] else ""
    return f"{head}{data['id'][:8]}  {data['kind']:<10} {data['text']}{source}"


#: Exit status of a write the screen or the length rules refused (the reason is printed); a
#: duplicate of a stored memory is not refused (exit 0). Errors exit 1, usage errors 2.
REFUSED = 3


def stdin_text() -> str:
    """Standard input as UTF-8 text; bytes that are not UTF-8 are an error naming the first one."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"standard input is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start});"
                           " nothing was saved: convert it first, e.g. `iconv -f latin1 -t utf-8`") from None


@main.command("forget-all")
@click.argument("subject")
@click.option("--yes", is_flag=True, help="Delete; without it, only count what would be deleted.")
@json_option
@click.pass_context
def forget_all(ctx: click.Context, subject: str, yes: bool, as_json: bool) -> None:
    """Delete every memory of SUBJECT."""
    mem = open_memory(ctx)
    if not yes:
        n = len(mem.items(subject, include_superseded=True))
        emit(as_json, {"would_forget": n}, lambda: [f"{n} item(s) would be forgotten; run again with --yes"])
        return
    count = mem.forget_all(subject)
    emit(as_json, forgot_json(mem, count), lambda: forgot_lines(mem, count))


def forgot_json(mem: Memory, count: int) -> dict[str, Any]:
    """What a forget did, and what the store could not scrub yet (a concurrent reader)."""
    left = mem.leftovers
    return {"forgotten": count, **({"remaining": dataclasses.asdict(left)} if left else {})}


def forgot_lines(mem: Memory, count: int) -> list[str]:
    left = mem.leftovers
    return [f"forgot {count} item(s)" + (f"; {left.copies} cop{'y' if left.copies == 1 else 'ies'} remain in"
                                         f" {left.where} {left.until}" if left else "")]


@main.command()
@click.argument("subject", required=False)
@json_option
@click.pass_context
def stats(ctx: click.Context, subject: str | None, as_json: bool) -> None:
    """Counts for SUBJECT or the whole store: "items" are current items, "history" superseded versions."""
    data = open_memory(ctx).stats(subject)
    emit(as_json, data, lambda: [f"{k}: {v}" for k, v in data.items()])


def _load_extra_commands() -> None:
    for name in EXTRA_COMMANDS:
        module = importlib.import_module(name)
        module.register(main)


_load_extra_commands()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
