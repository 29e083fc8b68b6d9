"""What a saved ANN index (engram.core.ann_files) needs from a SQLite store: a folder next to the
file, and the stable integer keys (item rowids) and version of a subject's vectors.

Read through the store's own connection (`query`), never a second one. `FileStore` is the
capability: a store kept in one local SQLite file (SQLiteStore); a wrapper (ScopedStore), a
PostgreSQL store or an in-memory database is not one, and its ANN indexes stay in process memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from engram.store.base import Store

#: The folder next to a store file that holds its saved ANN indexes.
SUFFIX = ".ann"
_CHUNK = 500  # ids per lookup statement


@runtime_checkable
class FileStore(Store, Protocol):
    """A Store in one SQLite file, read with its own connection (SQLiteStore)."""

    path: str
    read_only: bool

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...


def folder(store: object) -> Path | None:
    """Where `store`'s ANN index files live (`<db>.ann`), or None when it keeps none."""
    if not isinstance(store, FileStore) or store.path == ":memory:":
        return None
    return Path(store.path + SUFFIX)


def version(store: FileStore, subject: str) -> int:
    """The subject's vector version: a counter every insert, update and delete of its vectors bumps."""
    rows = store.query("SELECT version FROM vector_versions WHERE subject = ?", (subject,))
    return int(rows[0][0]) if rows else 0


def keys(store: FileStore, subject: str, model: str) -> np.ndarray:
    """The item rowid of each of the subject's vectors under `model`, in `Store.vectors` order."""
    rows = store.query("SELECT item_rowid FROM vectors WHERE subject = ? AND model = ? ORDER BY item_rowid",
                       (subject, model))
    return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))


def keys_of(store: FileStore, ids: Sequence[str]) -> np.ndarray:
    """The rowid of each item id, in order; -1 for an id the store no longer holds."""
    found: dict[str, int] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = list(ids[start : start + _CHUNK])
        marks = ", ".join("?" * len(chunk))
        found.update(store.query(f"SELECT id, rowid FROM items WHERE id IN ({marks})", chunk))
    return np.fromiter((found.get(i, -1) for i in ids), dtype=np.int64, count=len(ids))
