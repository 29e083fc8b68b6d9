"""Scratch stores for benchmarks: a temporary SQLite file, or a fresh PostgreSQL database.

`scratch_store(server, folder, name)` yields a store URL. With `server` (a postgresql:// URL whose
user may CREATE DATABASE) it creates a database with a unique name on that server and drops it
afterwards (WITH (FORCE), so connections left open cannot keep it); else a SQLite file in `folder`.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from engram.errors import InvalidInput, StoreUnavailable, require

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def store_kind(server: str | None) -> str:
    """"postgresql" or "sqlite": the `config.store` of a benchmark's JSON."""
    return "postgresql" if server else "sqlite"


def check_server(server: str | None) -> None:
    """InvalidInput unless `server` is None or a postgresql:// URL."""
    if server is not None and not server.startswith(POSTGRES_SCHEMES):
        raise InvalidInput(f"--store takes a postgresql://user@host:port/db URL, not {server!r}"
                           " (for SQLite the bench makes its own files)")


@contextmanager
def scratch_store(server: str | None, folder: Path, name: str) -> Iterator[str]:
    """A store URL that exists only inside the `with` block (see the module docstring)."""
    check_server(server)
    if server is None:
        yield str(folder / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', name) or 'store'}.db")
        return
    psycopg = require("psycopg", "postgres")
    database = f"engram_bench_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'CREATE DATABASE "{database}"')
    except psycopg.Error as exc:
        raise StoreUnavailable(f"cannot create a scratch database on the server in --store: {exc};"
                               " the user in the URL needs CREATEDB") from exc
    parts = urlsplit(server)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))
    finally:
        with psycopg.connect(server, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
