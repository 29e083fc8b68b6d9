"""`engram migrate SRC DST`: copy a store between backends, verified."""

from __future__ import annotations

import json
import sys

import click

from engram.interfaces.options import json_option


def register(main: click.Group) -> None:
    main.add_command(migrate_command)


@click.command("migrate")
@click.argument("src")
@click.argument("dst")
@json_option
def migrate_command(src: str, dst: str, as_json: bool) -> None:
    """Copy every memory from SRC to the empty store DST (SQLite path or postgresql:// URL)."""
    from engram.store.copy import migrate
    from engram.store import open_store

    source = open_store(src, create=False)  # a typo in SRC must not look like an empty store
    target = open_store(dst)
    try:
        total = sum(source.subjects().values())
        with click.progressbar(length=total, label="copying", file=sys.stderr) as bar:
            report = migrate(source, target, progress=bar.update)
    finally:
        source.close()
        target.close()
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        click.echo(f"copied {report.items} items and {report.vectors} vectors in {report.subjects} subjects;"
                   f" checksum {report.checksum[:16]} matches")
