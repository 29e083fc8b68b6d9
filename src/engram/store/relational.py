"""What the SQLite and PostgreSQL backends do alike: the Store methods that are one statement
in either dialect (engram.store.sql), written once. A backend supplies how it reads (`_read`)
and how it runs a write transaction (`_write`), and the parts that differ (`_put`, `_update`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping, Sequence, TypeVar

from engram.errors import StoreError
from engram.store.base import Filter, Placement, Vectors
from engram.store.sql import (
    UPDATABLE,
    Dialect,
    Execute,
    Runs,
    counts,
    coverage_query,
    find_query,
    row_item,
    supersede_runs,
    write_settings,
)
from engram.types import Item

T = TypeVar("T")


class RelationalStore(ABC):
    """The shared half of a SQL backend (see the module docstring)."""

    dialect: Dialect

    @abstractmethod
    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read statement."""

    @abstractmethod
    def _write(self, work: Callable[[Execute], T]) -> T:
        """`work(execute)` in one write transaction (ReadOnlyStore on a read-only store)."""

    @abstractmethod
    def _put(self, runs: Runs, vectors: Vectors, model: str) -> list[Placement]:
        """Write `put`'s runs (engram.store.sql.supersede_runs) in one transaction."""

    @abstractmethod
    def _update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        """Set checked, non-empty `changes` on the items `ids` (not empty) in one transaction."""

    @abstractmethod
    def close(self) -> None:
        """Release connections (see Store.close)."""

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- Store protocol -------------------------------------------------------------------
    def put(self, items: Sequence[Item], vectors: Vectors | None = None, supersede: Mapping[str, str] | None = None,
            model: str | None = None) -> list[Placement]:
        return self._put(supersede_runs(items, supersede), vectors or {}, model or "")

    def update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        bad = set(changes) - UPDATABLE
        if bad:
            raise StoreError(f"cannot update {sorted(bad)}: updatable fields are {sorted(UPDATABLE)}")
        return self._update(ids, changes) if ids and changes else 0

    def find(self, subject: str, where: Filter = Filter(), limit: int | None = None,
             newest_first: bool = True) -> list[Item]:
        sql, params = find_query(subject, where, self.dialect, limit, newest_first)
        return [row_item(r) for r in self._read(sql, params)]

    def setting(self, key: str, value: str | None = None, *, delete: bool = False) -> str | None:
        if delete or value is not None:
            self._write(lambda execute: write_settings(execute, {key: None if delete else value}, self.dialect))
            return None if delete else value
        rows = self._read(f"SELECT value FROM settings WHERE key = {self.dialect.ph}", (key,))
        return str(rows[0][0]) if rows else None

    def settings(self, prefix: str) -> dict[str, str]:
        """Every setting whose key starts with `prefix`."""
        ph = self.dialect.ph
        return dict(self._read(f"SELECT key, value FROM settings WHERE substr(key, 1, {ph}) = {ph}",
                               (len(prefix), prefix)))

    def subjects(self) -> dict[str, int]:
        """Every subject with its number of rows, in code-point order of the names."""
        return dict(sorted((str(s), int(n)) for s, n in self._read("SELECT subject, count(*) FROM items GROUP BY subject")))

    def counts(self, subjects: Sequence[str] | None = None) -> dict[str, Any]:
        """Aggregate figures for Memory.stats, computed by SQL (engram.store.sql.counts)."""
        return counts(self._read, subjects, self.dialect)

    # -- capabilities (engram.store.base) ---------------------------------------------------
    def item_texts(self, subject: str) -> list[tuple[str, str]]:
        """(id, text) of the subject's items (ReadsTexts)."""
        rows = self._read(f"SELECT id, text FROM items WHERE subject = {self.dialect.ph}", (subject,))
        return [(r[0], r[1]) for r in rows]

    def vector_models(self) -> dict[str, int]:
        """How many vectors each model identity holds (VectorAdmin)."""
        return dict(self._read("SELECT model, count(*) FROM vectors GROUP BY model"))

    def vector_coverage(self, model: str, subjects: Sequence[str] | None = None) -> tuple[int, int]:
        items, covered = self._read(*coverage_query(model, subjects, self.dialect))[0]
        return int(covered or 0), int(items or 0)
