"""Copy a whole store between backends (SQLite <-> PostgreSQL) and prove the copy is exact.

Items keep their ids, times, validity and history; vectors are copied as they are (same model
identity), settings (embedder identity, grants, API keys) come along. The copy is verified by
per-subject counts and a checksum over every item's fields and vector bytes on both sides.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

from engram.errors import InvalidInput
from engram.store.base import Filter, Store
from engram.types import dumps

EVERYTHING = Filter(include_superseded=True)
BATCH = 500


@dataclass(frozen=True)
class MigrationReport:
    subjects: int
    items: int
    vectors: int
    checksum: str

    def to_dict(self) -> dict[str, object]:
        return {"subjects": self.subjects, "items": self.items, "vectors": self.vectors, "checksum": self.checksum}


def checksum(store: Store) -> tuple[int, int, str]:
    """(items, vectors, sha256) over every item and vector of a store, in a stable order."""
    digest = hashlib.sha256()
    items = vectors = 0
    model = store.setting("embedder")
    for subject in sorted(store.subjects()):
        for item in sorted(store.find(subject, EVERYTHING), key=lambda it: it.id):
            digest.update(dumps(item.to_dict()).encode())
            items += 1
        if model:
            ids, matrix = store.vectors(subject, model)
            for i in np.argsort(np.asarray(ids, dtype=object)) if ids else []:
                digest.update(ids[i].encode() + np.asarray(matrix[i], dtype=np.float32).tobytes())
                vectors += 1
    return items, vectors, digest.hexdigest()


def migrate(src: Store, dst: Store, progress: Callable[[int], None] | None = None) -> MigrationReport:
    """Copy every subject of `src` into the empty store `dst`, then verify counts and checksums."""
    if dst.subjects():
        raise InvalidInput(f"{dst.url} is not empty: migrate into a new store")
    model = src.setting("embedder")
    if model and dst.setting("embedder") not in (None, model):
        raise InvalidInput(f"{dst.url} is set up for {dst.setting('embedder')}, the source uses {model}")
    for key, value in src.settings("").items():
        dst.setting(key, value)
    for subject in sorted(src.subjects()):
        _copy_subject(src, dst, subject, model, progress)
    before, after = checksum(src), checksum(dst)
    if before != after:
        raise InvalidInput(f"copy differs from the source (source {before}, copy {after}); {dst.url} is incomplete")
    return MigrationReport(len(src.subjects()), before[0], before[1], before[2])


def _copy_subject(src: Store, dst: Store, subject: str, model: str | None,
                  progress: Callable[[int], None] | None) -> None:
    items = src.find(subject, EVERYTHING, newest_first=False)
    vectors: dict[str, np.ndarray] = {}
    if model:
        ids, matrix = src.vectors(subject, model)
        vectors = {item_id: matrix[i] for i, item_id in enumerate(ids)}
    for start in range(0, len(items), BATCH):
        batch = items[start : start + BATCH]
        dst.put(batch, {it.id: vectors[it.id] for it in batch if it.id in vectors}, model=model)
        if progress:
            progress(len(batch))
