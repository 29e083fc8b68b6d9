"""Maintenance and procedural-memory commands: summarize, consolidate, prune, importance, procedures,
export-finetune. Each is a few lines over `engram.agent.manager` and `engram.kinds.procedural`.

Commands that lose information (consolidate, prune) only preview unless given `--yes`.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import click

from engram.errors import InvalidInput


def register(main: click.Group) -> None:
    for command in (summarize, consolidate, prune, importance, procedures, export_finetune):
        main.add_command(command)


def _cli() -> ModuleType:
    # Imported late: engram.interfaces.cli imports this module while it is being loaded.
    from engram.interfaces import cli

    return cli


def _llm(spec: str | None) -> Any:
    if not spec:
        return None
    from engram.llm import get_llm

    return get_llm(spec)


llm_option = click.option("--llm", "llm_spec", default=None, metavar="SPEC",
                          help="Use a model (e.g. anthropic, openai:gpt-4o-mini); default: offline, extractive.")
yes_option = click.option("--yes", is_flag=True, help="Apply; without it, only show what would change.")


@click.command()
@click.argument("subject")
@click.argument("session")
@llm_option
@click.option("--max-chars", default=600, show_default=True, help="Longest summary.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def summarize(ctx: click.Context, subject: str, session: str, llm_spec: str | None, max_chars: int,
              as_json: bool) -> None:
    """Summarise SESSION of SUBJECT into one summary memory."""
    from engram.agent.manager import summarize_session

    cli = _cli()
    result = summarize_session(cli.open_memory(ctx), subject, session, llm=_llm(llm_spec), max_chars=max_chars)
    data = {"session": session, "text": result.text, "method": result.method, "covers": len(result.covers),
            **result.saved.to_dict()}
    state = "saved" if result.saved else f"not saved: {result.saved.reason}"
    cli.emit(as_json, data, lambda: [result.text, f"({result.method}, {len(result.covers)} items, {state})"])


@click.command()
@click.argument("subject")
@click.option("--threshold", default=0.90, show_default=True, help="Cosine similarity that counts as a duplicate.")
@click.option("--kind", "kinds", multiple=True,
              help="Only these kinds (default: fact, preference, procedure, summary).")
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def consolidate(ctx: click.Context, subject: str, threshold: float, kinds: tuple[str, ...], yes: bool,
                as_json: bool) -> None:
    """Merge near-duplicate memories of SUBJECT: keep the newest, supersede the rest (preview unless --yes)."""
    from engram.agent.manager import CONSOLIDATE_KINDS
    from engram.agent.manager import consolidate as run

    cli = _cli()
    merges = run(cli.open_memory(ctx), subject, threshold=threshold, kinds=kinds or CONSOLIDATE_KINDS, dry_run=not yes)
    data = {"merged" if yes else "would_merge": sum(len(m.drop) for m in merges),
            "groups": [{"keep": m.keep.to_dict(), "drop": [d.to_dict() for d in m.drop],
                        "similarity": list(m.similarity)} for m in merges]}

    def lines() -> Iterator[str]:
        for m in merges:
            yield f"keep    {m.keep.id[:8]}  {m.keep.text}"
            for d, s in zip(m.drop, m.similarity):
                yield f"  {'drop' if yes else 'would drop'} {d.id[:8]}  ({s:.3f})  {d.text}"
        n = sum(len(m.drop) for m in merges)
        yield f"superseded {n} item(s)" if yes else f"{n} item(s) would be superseded; run again with --yes"

    cli.emit(as_json, data, lines)


@click.command()
@click.argument("subject")
@click.option("--older-than", "older_than", type=float, default=None, metavar="DAYS", help="Written at least DAYS ago.")
@click.option("--below-importance", type=float, default=None, metavar="X", help="Importance (formula, now) below X.")
@click.option("--unused-days", type=float, default=None, metavar="DAYS", help="Not recalled for DAYS (or never).")
@click.option("--kind", "kinds", multiple=True, help="Only these kinds (default: fact, episode, summary).")
@click.option("--history", is_flag=True, help="Also prune superseded versions.")
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def prune(ctx: click.Context, subject: str, older_than: float | None, below_importance: float | None,
          unused_days: float | None, kinds: tuple[str, ...], history: bool, yes: bool, as_json: bool) -> None:
    """Delete memories of SUBJECT matching EVERY given criterion (preview unless --yes)."""
    from engram.agent.manager import PRUNE_KINDS
    from engram.agent.manager import prune as run

    cli = _cli()
    plan = run(cli.open_memory(ctx), subject, older_than_days=older_than, below_importance=below_importance,
               unused_days=unused_days, kinds=kinds or PRUNE_KINDS, include_superseded=history, dry_run=not yes)
    items = [{**c.item.to_dict(), "importance_now": c.importance, "why": c.reason} for c in plan.candidates]
    data = {"pruned": plan.deleted} if yes else {"would_prune": len(items), "items": items}

    def lines() -> Iterator[str]:
        for c in plan.candidates:
            yield f"{c.item.id[:8]}  {c.item.kind:<8} {c.item.text[:70]}  [{c.reason}]"
        yield f"pruned {plan.deleted} item(s)" if yes else \
            f"{len(items)} item(s) would be pruned; run again with --yes to delete them"

    cli.emit(as_json, data, lines)


@click.command()
@click.argument("subject")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def importance(ctx: click.Context, subject: str, as_json: bool) -> None:
    """Recompute and store the importance of every memory of SUBJECT (formula in docs/maintenance.md)."""
    from engram.agent.manager import score_importance

    cli = _cli()
    mem = cli.open_memory(ctx)
    scores = score_importance(mem, subject)
    items = {it.id: it for it in mem.items(subject)}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    cli.emit(as_json, {"scored": len(scores), "importance": dict(ranked)},
             lambda: [*(f"{v:.3f}  {items[k].kind:<10} {items[k].text[:70]}" for k, v in ranked),
                      f"scored {len(scores)} item(s)"])


# -- procedures --------------------------------------------------------------------------------
@click.group()
def procedures() -> None:
    """Named instructions and strategies (procedural memory)."""


@procedures.command("list")
@click.argument("subject")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def procedures_list(ctx: click.Context, subject: str, as_json: bool) -> None:
    """List the current procedures of SUBJECT."""
    from engram.kinds.procedural import procedures as current

    cli = _cli()
    found = current(cli.open_memory(ctx), subject)
    cli.emit(as_json, [{"name": p.name, "instructions": p.instructions, "id": p.id, "source": p.source,
                        "learned_from": len(p.learned_from)} for p in found],
             lambda: [*(f"{p.name}: {p.instructions}  ({p.source})" for p in found), f"{len(found)} procedure(s)"])


@procedures.command("set")
@click.argument("subject")
@click.argument("name")
@click.argument("instructions")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def procedures_set(ctx: click.Context, subject: str, name: str, instructions: str, as_json: bool) -> None:
    """Set procedure NAME of SUBJECT (a new text supersedes the old one)."""
    from engram.kinds.procedural import set_procedure

    cli = _cli()
    result = set_procedure(cli.open_memory(ctx), subject, name, instructions)
    cli.emit(as_json, result.to_dict(), lambda: [f"saved {result.id}" if result else f"not saved: {result.reason}"])


@procedures.command("learn")
@click.argument("subject")
@llm_option
@click.option("--min-successes", default=2, show_default=True, help="Successful episodes a category needs.")
@click.option("--category", "categories", multiple=True, help="Only these episode categories.")
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def procedures_learn(ctx: click.Context, subject: str, llm_spec: str | None, min_successes: int,
                     categories: tuple[str, ...], yes: bool, as_json: bool) -> None:
    """Propose a strategy per episode category from what worked (saved with --yes)."""
    from engram.kinds.procedural import learn_procedures

    cli = _cli()
    found = learn_procedures(cli.open_memory(ctx), subject, llm=_llm(llm_spec), min_successes=min_successes,
                             categories=categories or None, dry_run=not yes)
    data = [{"name": p.name, "category": p.category, "instructions": p.instructions, "method": p.method,
             "episodes": len(p.episodes), "saved": p.saved.to_dict() if p.saved else None} for p in found]
    done = "saved" if yes else "proposed; run again with --yes to save"
    cli.emit(as_json, data,
             lambda: [*(f"{p.name}: {p.instructions}" for p in found), f"{len(found)} procedure(s) {done}"])


@procedures.command("delete")
@click.argument("subject")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def procedures_delete(ctx: click.Context, subject: str, name: str, as_json: bool) -> None:
    """Delete procedure NAME of SUBJECT, with its history."""
    from engram.kinds.procedural import delete_procedure

    cli = _cli()
    count = delete_procedure(cli.open_memory(ctx), subject, name)
    cli.emit(as_json, {"forgotten": count}, lambda: [f"forgot {count} item(s)"])


# -- fine-tuning export ------------------------------------------------------------------------
@click.command("export-finetune")
@click.argument("subject", required=False)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, help="JSONL file to write.")
@click.option("--system", default=None, help="System message of every example.")
@click.option("--category", "categories", multiple=True, help="Only episodes of these categories.")
@click.option("--check", "check_path", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Only validate an existing JSONL file.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def export_finetune(ctx: click.Context, subject: str | None, output: str | None, system: str | None,
                    categories: tuple[str, ...], check_path: str | None, as_json: bool) -> None:
    """Write SUBJECT's successful episodes as chat fine-tuning JSONL (or --check a file)."""
    from engram.kinds import procedural

    cli = _cli()
    if check_path:
        problems = procedural.check_finetune(check_path)
        cli.emit(as_json, {"valid": not problems, "problems": problems},
                 lambda: problems or [f"{check_path}: every line is a valid chat example"])
        if problems:
            ctx.exit(1)
        return
    if not subject or not output:
        raise InvalidInput("give SUBJECT and --output FILE.jsonl (or --check FILE to validate a file)")
    report = procedural.export_finetune(cli.open_memory(ctx), subject, output,
                                        system=system or procedural.DEFAULT_SYSTEM, categories=categories or None)
    cli.emit(as_json, {"path": report.path, "lines": report.lines, "skipped": report.skipped},
             lambda: [f"wrote {report.lines} example(s) to {report.path} (skipped: {report.skipped})"])
