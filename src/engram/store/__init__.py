"""Storage backends behind one protocol; `open_store` picks one from a path or URL."""

from __future__ import annotations

import os
from pathlib import Path

from engram.store.base import Filter, Placement, Store
from engram.store.sqlite import SQLiteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(url: str | os.PathLike[str]) -> Store:
    """A SQLite file path (created with its folder) or a postgresql:// URL."""
    text = os.fspath(url)
    if text.startswith(POSTGRES_SCHEMES):
        from engram.store.postgres import PostgresStore

        return PostgresStore(text)
    if text != ":memory:":
        Path(text).expanduser().parent.mkdir(parents=True, exist_ok=True)
        text = str(Path(text).expanduser())
    return SQLiteStore(text)


__all__ = ["Filter", "Placement", "SQLiteStore", "Store", "open_store"]
