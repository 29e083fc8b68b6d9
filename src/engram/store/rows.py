"""A subject's vectors under one model as a store caches them, grown in place by the writes that append to it.

`Rows` holds the ids in write order, each row's store key (rowid / seq) and the float32 matrix.
A write that only appends (new items, keys above every cached one, and nothing else changed the
subject since the cache was read: the store's change counter moved by exactly this write) adds
its rows in place: the matrix grows into spare capacity (an eighth more each time it fills, so a
row is copied a bounded number of times) and the id list is extended. A write costs what it adds,
not the subject's size. Anything else (a delete, a replaced vector, another process's write)
makes the store read the subject again, as before.

Readers get snapshots, `(RowIds, matrix view)`: the first n ids and rows as they were, which
later appends never change, and the same objects until the subject changes (callers that key
their own caches on the id list's identity keep working). `RowIds.position` answers an id's row
in O(1) from a map shared by every snapshot of the same list.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import overload

import numpy as np

#: Spare capacity added when the matrix fills: at least this many rows, or an eighth of its size.
GROW_MIN_ROWS = 256
ID_BYTES = 80  # what one cached id costs, as the caches have always counted it
KEY_BYTES = 36  # and its row key (a Python int in a list)


class _Base:
    """The append-only id list that a Rows' snapshots share, and its id -> row map (built on demand)."""

    __slots__ = ("_lock", "_positions", "ids")

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids
        self._positions: dict[str, int] | None = None
        self._lock = threading.Lock()

    def positions(self) -> dict[str, int]:
        found = self._positions
        if found is None:
            with self._lock:
                if self._positions is None:
                    self._positions = {item_id: row for row, item_id in enumerate(self.ids)}
                found = self._positions
        return found

    def extend(self, ids: Sequence[str]) -> None:
        """Append ids (callers hold the Rows lock): the map first, so a reader never sees an id unmapped."""
        with self._lock:
            if self._positions is not None:
                start = len(self.ids)
                self._positions.update((item_id, start + i) for i, item_id in enumerate(ids))
            self.ids.extend(ids)


class RowIds(Sequence[str]):
    """The first `len` ids of a subject's write-ordered id list: a snapshot that appends never change."""

    __slots__ = ("_base", "_n")

    def __init__(self, base: _Base, n: int) -> None:
        self._base, self._n = base, n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return self._base.ids[slice(*index.indices(self._n))]
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("row index out of range")
        return self._base.ids[index]

    def __iter__(self) -> Iterator[str]:
        return itertools.islice(self._base.ids, self._n)

    def __contains__(self, item_id: object) -> bool:
        return isinstance(item_id, str) and self.position(item_id) is not None

    def position(self, item_id: str) -> int | None:
        """The id's row, or None when it is not among these ids."""
        row = self._base.positions().get(item_id)
        return row if row is not None and row < self._n else None

    def positions(self) -> Positions:
        """Each id's row, as a mapping over these ids only (shared with every snapshot: no copy)."""
        return Positions(self._base.positions(), self._n)

    def shared(self) -> tuple[list[str], dict[str, int]]:
        """The list and id -> row map behind this snapshot, for hot loops: later appends extend
        both, so only rows below `len(self)` belong to it (callers check)."""
        return self._base.ids, self._base.positions()

    def extends(self, older: Sequence[str]) -> bool | None:
        """True when `older` is a shorter or equal snapshot of the same list (these ids only add to
        it); None when that cannot be told without comparing the ids (another list)."""
        if isinstance(older, RowIds) and older._base is self._base:
            return older._n <= self._n
        return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RowIds):
            return len(other) == self._n and (other.extends(self) is True or list(other) == list(self))
        if isinstance(other, (list, tuple)):
            return len(other) == self._n and list(other) == list(self)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compares like a list, so unhashable like one

    def __repr__(self) -> str:
        return f"RowIds({list(self)!r})"


class Positions(Mapping[str, int]):
    """id -> row over the first n rows of a shared map that later appends extend."""

    __slots__ = ("_n", "_rows")

    def __init__(self, rows: dict[str, int], n: int) -> None:
        self._rows, self._n = rows, n

    def __getitem__(self, item_id: str) -> int:
        row = self._rows[item_id]
        if row >= self._n:
            raise KeyError(item_id)
        return row

    def get(self, item_id: str, default: int | None = None) -> int | None:  # type: ignore[override]  # same contract, narrower types
        row = self._rows.get(item_id)
        return row if row is not None and row < self._n else default

    def __contains__(self, item_id: object) -> bool:
        row = self._rows.get(item_id)  # type: ignore[call-overload]  # any key may be asked
        return row is not None and row < self._n

    def __iter__(self) -> Iterator[str]:
        return (item_id for item_id, row in self._rows.items() if row < self._n)

    def __len__(self) -> int:
        return self._n


def extends(older: Sequence[str], newer: Sequence[str]) -> bool:
    """True when `newer` is `older` with ids appended (or the same): O(1) for two snapshots of one
    cached list, a comparison of the ids otherwise."""
    if isinstance(newer, RowIds):
        known = newer.extends(older)
        if known is not None:
            return known
    return len(newer) >= len(older) and list(newer[: len(older)]) == list(older)


class Rows:
    """One subject's ids, store keys and vectors under one model, at one version of the store's
    change counter (see the module docstring). `vectors=False` keeps the ids alone."""

    def __init__(self, version: int, ids: list[str], keys: Sequence[int], matrix: np.ndarray | None) -> None:
        self.version = version
        self._lock = threading.Lock()
        self._base = _Base(list(ids))
        self._keys = [int(k) for k in keys]  # each row's store key, in row order (appended like the ids)
        self._last_key = self._keys[-1] if self._keys else None
        self._with_vectors = matrix is not None
        n = len(ids)
        if matrix is None or not n:
            self._buffer = np.zeros((0, 0), dtype=np.float32)
        else:
            self._buffer = np.empty((n, matrix.shape[1]), dtype=np.float32)
            self._buffer[:] = matrix
        self._snapshot = self._make_snapshot(n)

    def _make_snapshot(self, n: int) -> tuple[RowIds, np.ndarray]:
        view = self._buffer[:n] if n else np.zeros((0, 0), dtype=np.float32)
        view.flags.writeable = False
        return RowIds(self._base, n), view

    def snapshot(self) -> tuple[RowIds, np.ndarray]:
        """The ids and matrix as of now: the same objects until the next append."""
        return self._snapshot

    @property
    def last_key(self) -> int | None:
        """The store key of the last row (None when there is none)."""
        return self._last_key

    def key(self, row: int) -> int:
        """The store key (rowid / seq) of a row of any snapshot."""
        return self._keys[row]

    @property
    def nbytes(self) -> int:
        """What the cache holds for this entry: the matrix with its spare capacity, and the ids."""
        return int(self._buffer.nbytes) + (ID_BYTES + KEY_BYTES) * len(self._base.ids)

    def append(self, before: int, after: int, keys: Sequence[int], ids: Sequence[str],
               vectors: np.ndarray | None) -> bool:
        """Add rows written by one transaction that moved the change counter from `before` to
        `after`. False (nothing changed) when this entry is not at `before`, a key is not above
        every cached one, or the rows do not fit: the caller drops the entry."""
        with self._lock:
            if self.version != before:
                return False
            if not ids:
                self.version = after
                return True
            order = [int(k) for k in keys]
            if (self._last_key is not None and order[0] <= self._last_key) or order != sorted(set(order)):
                return False
            n = len(self._base.ids)
            if self._with_vectors:
                if vectors is None or len(vectors) != len(ids):
                    return False
                rows = np.asarray(vectors, dtype=np.float32)
                if rows.ndim != 2 or (n and rows.shape[1] != self._buffer.shape[1]):
                    return False
                self._grow(n + len(ids), int(rows.shape[1]))
                self._buffer[n : n + len(ids)] = rows
            self._keys.extend(order)
            self._base.extend(ids)
            self._last_key = order[-1]
            self.version = after
            self._snapshot = self._make_snapshot(n + len(ids))
            return True

    def _grow(self, needed: int, dim: int) -> None:
        """Make room for `needed` rows: a bigger buffer with the rows copied (old snapshots keep
        the old one), an eighth more than needed."""
        if needed <= len(self._buffer) and self._buffer.shape[1] == dim:
            return
        bigger = np.empty((needed + max(GROW_MIN_ROWS, needed // 8), dim), dtype=np.float32)
        n = len(self._base.ids)
        if n:
            bigger[:n] = self._buffer[:n]
        self._buffer = bigger
