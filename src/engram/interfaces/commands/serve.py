"""`engram serve` (REST API + inspector page) and `engram keys` (API keys scoped to subjects)."""

from __future__ import annotations

import json
from typing import Any

import click


def register(main: click.Group) -> None:
    main.add_command(serve)
    main.add_command(keys)


def _open_store(ctx: click.Context) -> Any:
    """The store named by --db / ENGRAM_DB, without loading an embedder (keys need none)."""
    from engram.config import load
    from engram.store import open_store

    store = open_store(load(db=(ctx.find_root().obj or {}).get("db")).db)
    ctx.call_on_close(store.close)
    return store


def _print_new_key(token: str, key: Any) -> None:
    scope = "admin" if key.admin else ", ".join(key.subjects)
    click.echo(f"API key {key.id} ({scope}); shown once, store it now:", err=True)
    click.echo(token)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535))
@click.option("--create-admin-key", is_flag=True, help="Create an admin API key, print it once, then serve.")
@click.option("--max-body", default=64 * 1024, show_default=True, type=click.IntRange(1024, 16 * 1024 * 1024),
              help="Largest request body in bytes (larger gets 413).")
@click.option("--workers", default=None, type=click.IntRange(1, 256),
              help="Worker processes sharing the store (default: one per core).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, create_admin_key: bool, max_body: int,
          workers: int | None) -> None:
    """Serve the REST API (/v1/..., /openapi.json) and the inspector page (/).

    With several workers (the default on a machine with several cores) each is its own process
    with its own Memory over the same store; SIGTERM or Ctrl-C stops them gracefully."""
    import os

    from engram.errors import require
    from engram.interfaces import workers as pool

    uvicorn = require("uvicorn", "server")
    from engram.safety.keys import KeyRing
    from engram.core.memory import Memory
    from engram.interfaces.rest import create_app

    store = _open_store(ctx)
    ring = KeyRing(store)
    if create_admin_key:
        _print_new_key(*ring.create(admin=True, name="admin (engram serve)"))
    elif not ring.list():
        click.echo("no API keys yet: run `engram keys create --admin` (or serve --create-admin-key)", err=True)
    store.close()
    root = ctx.find_root().obj or {}
    workers = workers or pool.cores()
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: serving plain HTTP on {host}; keys travel in clear text unless TLS is in front", err=True)
    click.echo(f"engram: inspector at http://{host}:{port}/  API at http://{host}:{port}/v1/"
               f"  ({workers} worker{'s' if workers > 1 else ''})", err=True)
    if workers == 1:
        app = create_app(lambda: Memory(root.get("db"), embedder=root.get("embedder"), agent=root.get("agent")),
                         max_body=max_body)
        uvicorn.run(app, host=host, port=port, log_level="warning")
        return
    # uvicorn's supervisor spawns fresh interpreters that import the app factory; they read
    # their settings from the environment they inherit.
    os.environ.update(pool.worker_environment(workers, db=root.get("db"), embedder=root.get("embedder"),
                                              agent=root.get("agent"), max_body=max_body))
    uvicorn.run("engram.interfaces.workers:app", factory=True, host=host, port=port, workers=workers,
                log_level="warning", timeout_graceful_shutdown=30)


@click.group()
def keys() -> None:
    """Manage API keys for `engram serve` (only a hash of each key is stored)."""


@keys.command("create")
@click.option("--subject", "subjects", multiple=True, help="Grant a subject (user:42) or everything under a prefix ending at a separator (team:acme:*); repeatable.")
@click.option("--admin", is_flag=True, help="An admin key: every subject, and may manage keys.")
@click.option("--name", default="", help="A label to recognise the key by.")
@click.pass_context
def create(ctx: click.Context, subjects: tuple[str, ...], admin: bool, name: str) -> None:
    """Create a key and print it (once)."""
    from engram.safety.keys import KeyRing

    _print_new_key(*KeyRing(_open_store(ctx)).create(subjects, admin=admin, name=name))


@keys.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """List keys (ids, names, grants; never the keys themselves)."""
    from engram.safety.keys import KeyRing

    found = KeyRing(_open_store(ctx)).list()
    if as_json:
        click.echo(json.dumps([k.to_dict() for k in found]))
        return
    for k in found:
        click.echo(f"{k.id}  {'admin' if k.admin else ', '.join(k.subjects):<30} {k.name}")
        if k.ambiguous:
            click.echo(f"    ! ambiguous prefix {', '.join(k.ambiguous)}: also reaches e.g. "
                       f"{k.ambiguous[0][:-1] + 'corp'!r}; replace this key (docs/rest.md, 'Ambiguous prefixes')")
    click.echo(f"{len(found)} key(s)")
    flagged = sum(1 for k in found if k.ambiguous)
    if flagged:
        click.echo(f"{flagged} key(s) with an ambiguous prefix grant: they work as before, but create "
                   "replacements with 'kind:name:*' grants and revoke them", err=True)


@keys.command("revoke")
@click.argument("key_id")
@click.pass_context
def revoke(ctx: click.Context, key_id: str) -> None:
    """Revoke the key with KEY_ID (as shown by `engram keys list`)."""
    from engram.safety.keys import KeyRing

    gone = KeyRing(_open_store(ctx)).revoke(key_id)
    click.echo(f"revoked {gone.id}")
