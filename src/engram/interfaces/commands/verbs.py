"""`engram remember`, `recall`, `forget` and `list`: the verbs of `engram.verbs` as commands.

Each command is built from its `Verb`: the options, their limits and defaults, the validation and
the handler are the verb's, under the contract REST publishes (the CLI is a program's surface:
exact types, REST's limits, so `recall -k 1000` is refused as it is there). What belongs to the
CLI alone is in `COMMANDS`: which arguments are positional, the spelling of a few flags, the
help line and the human-readable output. `--json` prints exactly the verb's reply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from engram.verbs import Arg, Call, Surface, Verb, get_verb

if TYPE_CHECKING:
    from engram.core.memory import Memory

#: The contract the CLI takes from each verb.
SURFACE: Surface = "rest"
#: Flags spelled differently from their argument (every other one is `--name-with-dashes`).
FLAGS = {"k": ("-k",), "kinds": ("--kind",), "ids": ("--id",), "confirm": ("--yes",)}
_TYPES: dict[str, Any] = {"integer": int, "number": float, "string": str}

Lines = Callable[["Memory", Any], Iterable[str]]


@dataclass(frozen=True)
class Command:
    """How one verb reads on the command line: positional arguments after SUBJECT (the first may be
    `-` for standard input when `stdin`), the help text, and the reply as lines for a person."""

    positional: tuple[tuple[str, str], ...]  # (argument, metavar)
    help: str
    lines: Lines
    stdin: bool = False


def _saved_lines(mem: Memory, reply: dict[str, Any]) -> Iterable[str]:
    yield f"saved {reply['id']}" if reply["saved"] else f"not saved: {reply['reason']}"


def _hit_lines(mem: Memory, hits: list[dict[str, Any]]) -> Iterable[str]:
    from engram.interfaces.cli import item_line

    if not hits:
        yield "(nothing found)"
    for hit in hits:
        yield item_line(hit, hit["score"])
        if "explain" in hit:
            yield "        " + "  ".join(f"{k}={v:.3f}" for k, v in hit["explain"].items())


def _forget_lines(mem: Memory, reply: dict[str, Any]) -> Iterable[str]:
    from engram.interfaces.cli import forgot_lines, item_line

    if "forgotten" in reply:
        yield from forgot_lines(mem, reply["forgotten"])
        if reply.get("derived"):
            yield f"{reply['derived']} of them derived from the forgotten messages"
    else:
        yield from (item_line(it) for it in reply["memories"])
        yield from (f"derived   {item_line(r['memory'])}\n          {r['why']}" for r in reply.get("derived", []))
    yield from (f"kept      {item_line(r['memory'])}\n          {r['why']}" for r in reply.get("kept", []))
    if "would_forget" in reply:
        passages = f", {reply['passages']} of them passages of the messages" if reply.get("passages") else ""
        yield f"{reply['would_forget']} item(s) would be forgotten{passages}; run again with --yes to delete them"


def _list_lines(mem: Memory, items: list[dict[str, Any]]) -> Iterable[str]:
    from engram.interfaces.cli import item_line

    yield from (f"{it['event_at'][:19]}  {item_line(it)}" for it in items)
    yield f"{len(items)} item(s)"


COMMANDS = {
    "remember": Command(
        (("fact", "TEXT"),),
        "Store one fact for SUBJECT.\n\nTEXT `-` reads the text from standard input. Text that starts with a "
        "dash goes after `--`: `engram remember user:42 -- \"-5 degrees outside\"`.",
        _saved_lines, stdin=True),
    "recall": Command((("query", "QUERY"),), "Find the memories of SUBJECT most relevant to QUERY, best first.",
                      _hit_lines),
    "forget": Command((("match", "MATCH"),),
                      "Delete every memory of SUBJECT containing MATCH (or the --id ones); preview unless --yes.",
                      _forget_lines),
    "list": Command((), "List the memories of SUBJECT, newest first.", _list_lines),
}


def _option(arg: Arg) -> click.Option:
    """An option for one argument of the verb, typed, limited and described as the verb says."""
    schema = arg.schema_on(SURFACE)
    kind = schema.get("type")
    flags = FLAGS.get(arg.name, ("--" + arg.name.replace("_", "-"),))
    extra = [f"default {schema['default']}"] if "default" in schema and kind != "boolean" else []
    if "minimum" in schema or "maximum" in schema:
        extra.append(f"{schema.get('minimum')} to {schema.get('maximum')}")
    if "enum" in schema:
        extra.append(", ".join(schema["enum"]))
    text = arg.description + (f" ({'; '.join(extra)})" if extra else "")
    if kind == "boolean":
        return click.Option([*flags, arg.name], is_flag=True, default=False, help=text)
    if kind == "array":
        item = _TYPES.get(schema.get("items", {}).get("type"), str)
        return click.Option([*flags, arg.name], type=item, multiple=True, help=text + " (repeatable)")
    return click.Option([*flags, arg.name], type=_TYPES.get(str(kind), str), default=None, help=text)


def _raw(verb: Verb, values: dict[str, Any]) -> dict[str, Any]:
    """What the user gave, as the verb's arguments (absent options left for the verb's defaults)."""
    out: dict[str, Any] = {}
    for arg in verb.args_on(SURFACE):
        value = values.get(arg.name)
        if value is None or value is False or value == ():
            continue
        out[arg.name] = list(value) if isinstance(value, tuple) else value
    return out


def build(name: str, shape: Command) -> click.Command:
    """The click command for verb `name`."""
    from engram.interfaces.options import json_option

    verb = get_verb(name)
    named = {a for a, _ in shape.positional} | {"subject"}
    params: list[click.Parameter] = [click.Argument(["subject"])]
    params += [click.Argument([arg], metavar=metavar, required=verb.arg(arg).required_on(SURFACE))
               for arg, metavar in shape.positional]
    params += [_option(a) for a in verb.args_on(SURFACE) if a.name not in named]

    def run(**values: Any) -> None:
        _run(verb, shape, values)

    command = click.Command(name, callback=run, params=params, help=shape.help)
    json_option(command)  # adds --json to the command's options
    return command


def _run(verb: Verb, shape: Command, values: dict[str, Any]) -> None:
    from engram.interfaces.cli import REFUSED, emit, forgot_json, open_memory, stdin_text

    ctx = click.get_current_context()
    as_json = values.pop("as_json")
    first = shape.positional[0][0] if shape.positional else None
    if shape.stdin and first and values.get(first) == "-":
        values[first] = stdin_text()
    mem = open_memory(ctx)
    args = verb.arguments(SURFACE, _raw(verb, values))
    reply = verb.handler(Call(mem, args, SURFACE, subject=values["subject"]))
    if isinstance(reply, dict) and "forgotten" in reply:
        reply = {**reply, **forgot_json(mem, reply["forgotten"])}
    emit(as_json, reply, lambda: shape.lines(mem, reply))
    if isinstance(reply, dict) and reply.get("saved") is False and reply.get("reason") != "duplicate":
        ctx.exit(REFUSED)


def register(main: click.Group) -> None:
    for name, shape in COMMANDS.items():
        main.add_command(build(name, shape))
