"""Storage backends behind one protocol; `open_store` picks one from a path or URL."""

from __future__ import annotations

import os
from pathlib import Path

from engram.config import default_db_path
from engram.errors import NotAStore
from engram.store.base import Filter, Placement, Store
from engram.store.sqlite import SQLiteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(url: str | os.PathLike[str], *, read_only: bool | None = None, create: bool = True) -> Store:
    """A SQLite file path or a postgresql:// URL.

    A new SQLite file is created in an existing folder; only the default data folder
    (`engram.config.default_db_path()`) is created when missing. `read_only`: see SQLiteStore
    (None: read-only when the file cannot be written) and PostgresStore. `create=False`: a
    missing SQLite file raises NotAStore instead of becoming a new, empty store.
    """
    text = os.fspath(url)
    if text.startswith(POSTGRES_SCHEMES):
        from engram.store.postgres import PostgresStore

        return PostgresStore(text, read_only=bool(read_only))
    if text != ":memory:":
        text = str(Path(text).expanduser())
        if not create and not Path(text).exists():
            raise NotAStore(f"no store at {text}: nothing was created; check the path")
        if Path(text) == Path(default_db_path()) and not read_only:
            Path(text).parent.mkdir(parents=True, exist_ok=True)
    return SQLiteStore(text, read_only=read_only)


__all__ = ["Filter", "Placement", "SQLiteStore", "Store", "open_store"]
