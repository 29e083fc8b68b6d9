"""`engram reindex`: re-embed every memory with the current embedder (after switching models)."""

from __future__ import annotations

import click


def register(main: click.Group) -> None:
    main.add_command(reindex)


@click.command()
@click.option("--batch-size", default=256, show_default=True, help="Items embedded and written per transaction.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a progress bar.")
@click.pass_context
def reindex(ctx: click.Context, batch_size: int, as_json: bool) -> None:
    """Re-embed every memory with --embedder (or $ENGRAM_EMBEDDER) and make it the store's model.

    Run it after changing embedders; if it is interrupted, run it again.
    """
    import io
    import json

    from engram.core.memory import Memory

    root = ctx.find_root().obj or {}
    state = {"total": 0}
    with click.progressbar(length=1, label="re-embedding", file=io.StringIO() if as_json else None) as bar:

        def progress(done: int, total: int) -> None:
            if bar.length != total:
                bar.length = total
            bar.update(done - bar.pos)
            state["total"] = total

        mem = Memory.reindex(root.get("db"), embedder=root.get("embedder"), batch_size=batch_size,
                             progress=progress, agent=root.get("agent"))
    model = mem.embedder.identity if mem.embedder else None
    mem.close()
    if as_json:
        click.echo(json.dumps({"reindexed": state["total"], "embedder": model}))
    else:
        click.echo(f"re-embedded {state['total']} item(s) with {model}")

