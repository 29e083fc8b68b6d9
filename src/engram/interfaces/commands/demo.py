"""`engram demo`: the whole story offline, on the embedded default (SQLite + bundled model)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click


def register(main: click.Group) -> None:
    main.add_command(demo)


@click.command()
@click.option("--dir", "folder", type=click.Path(file_okay=False), default=None,
              help="Folder for the demo database (default: a new temporary folder).")
@click.pass_context
def demo(ctx: click.Context, folder: str | None) -> None:
    """Two sessions on one file: remember, recall across sessions, forget with a preview."""
    from engram.demo.story import run

    root = ctx.find_root().obj or {}
    path = Path(folder or tempfile.mkdtemp(prefix="engram-demo-")) / "demo.db"
    run(str(path), embedder=root.get("embedder"), echo=click.echo)
