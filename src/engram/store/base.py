"""The Store protocol: what a storage backend must do, and what it must not.

A backend persists items, their vectors and a few settings, and answers filtered reads,
keyword candidates and per-subject vector matrices. It must NOT embed text, rank or fuse
results, apply recency, check secrets or validate user input: all of that lives above it,
in `engram.core.memory` and `engram.core.ranking`, so every backend behaves the same.

Every method is one transaction: on any error nothing is written. Backends raise only
`engram.errors.StoreError` subclasses (and `NotFound`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from engram.store.conditions import (
    AnyOf,
    Compare,
    Condition,
    Contains,
    Equals,
    MetadataEquals,
    Missing,
    OneOf,
    check_metadata_value,
)
from engram.types import Item

#: Vectors keyed by item id (one unit row each, of one model).
Vectors = Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Filter:
    """Which items a read may return. Empty fields do not filter.

    Validity: by default only current items (`valid_to` is NULL). `as_of=t` returns the items
    that were valid at time t instead; `include_superseded=True` returns every version.
    """

    kinds: tuple[str, ...] | None = None
    exclude_kinds: tuple[str, ...] = ()
    ids: tuple[str, ...] | None = None
    key: str | None = None
    category: str | None = None
    session: str | None = None
    source: str | None = None
    agent: str | None = None
    since: float | None = None
    until: float | None = None
    as_of: float | None = None
    include_superseded: bool = False
    contains: str | None = None
    content_hash: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, value in self.metadata.items():
            check_metadata_value(key, value)

    @property
    def restrictive(self) -> bool:
        """True when the filter rules out more than superseded items and excluded kinds (kinds,
        ids, key, time window, as_of, source, ...): recall then checks its vector candidates."""
        return any(getattr(self, name) not in (None, (), {}) for name in _RESTRICTING)

    def accepts(self, item: Item) -> bool:
        """The same test in Python, for candidates that came from a vector scan."""
        for condition in self.conditions:  # noqa: SIM110  # a loop, not all(genexpr): recall asks this ~100 times a call
            if not condition.holds(item):
                return False
        return True

    @functools.cached_property
    def conditions(self) -> tuple[Condition, ...]:
        """What this filter means, as conditions both Python (`accepts`) and SQL
        (`engram.store.sql.where_clause`) read: the one definition of every field."""
        out: list[Condition] = []
        if self.kinds is not None:
            out.append(OneOf("kind", tuple(self.kinds)))
        if self.exclude_kinds:
            out.append(OneOf("kind", tuple(self.exclude_kinds), negated=True))
        if self.ids is not None:
            out.append(OneOf("id", tuple(self.ids)))
        for column in ("key", "category", "session", "source", "agent", "content_hash"):
            value = getattr(self, column)
            if value is not None:
                out.append(Equals(column, value))
        if self.since is not None:
            out.append(Compare("event_at", ">=", self.since))
        if self.until is not None:
            out.append(Compare("event_at", "<", self.until))
        if not self.include_superseded and self.as_of is None:
            out.append(Missing("valid_to"))
        elif not self.include_superseded and self.as_of is not None:
            out.append(Compare("valid_from", "<=", self.as_of))
            out.append(AnyOf((Missing("valid_to"), Compare("valid_to", ">", self.as_of))))
        if self.contains:
            out.append(Contains(self.contains))
        out.extend(MetadataEquals(key, value) for key, value in self.metadata.items())
        return tuple(out)


_RESTRICTING = ("kinds", "ids", "key", "category", "session", "source", "agent", "since", "until", "as_of",
                "contains", "metadata")


@dataclass(frozen=True)
class Placement:
    """Where `put` placed an item: its id, and whether it was new or an existing duplicate."""

    id: str
    created: bool


@runtime_checkable
class Store(Protocol):
    """A storage backend. See the module docstring for what it must not do."""

    url: str
    read_only: bool  # True: every write raises ReadOnlyStore; reads work

    def put(self, items: Sequence[Item], vectors: Vectors | None = None, supersede: Mapping[str, str] | None = None,
            model: str | None = None) -> list[Placement]:
        """Insert items (and their vectors, keyed by item id, under `model`) in one transaction.

        An item whose `(subject, kind, content_hash)` equals a current item's is not inserted when
        its kind is deduplicated; its Placement names the existing id. `supersede` maps old item
        ids to the new id that replaces them: each old item gets `valid_to` = the new item's
        `valid_from` and `superseded_by` = the new id, in the same transaction, just before the
        new item is inserted (items go in order, so one may supersede an earlier one of the call).
        """

    def update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        """Set fields (validity, importance, confidence, access stats, metadata) on items."""

    def touch(self, accesses: Mapping[str, tuple[int, float]]) -> None:
        """Add recorded accesses, item id -> (how many, time of the last), in one transaction: each
        item's `access_count` grows by that many and `last_accessed` becomes that time (access
        stats only: no vector or text changes; ids of deleted items are ignored)."""

    def get(self, ids: Sequence[str]) -> list[Item]:
        """Items by id, in the order asked; missing ids are left out."""

    def find(
        self,
        subject: str,
        where: Filter = Filter(),
        limit: int | None = None,
        newest_first: bool = True,
    ) -> list[Item]:
        """Items of one subject that pass the filter, by event time."""

    def keyword(self, subject: str, terms: Sequence[str], where: Filter, limit: int, *,
                near: bool = True, known: Collection[str] = ()) -> list[tuple[str, float]]:
        """Keyword candidates: (item id, relevance >= 0, higher is better) for any of `terms`; with
        `near`, a term the subject lacks may stand for its nearest spelling there (engram.store.spelling),
        unless its word is in `known` (a word as written, not a typo: "steak" never stands for "speak")."""

    def vectors(self, subject: str, model: str) -> tuple[Sequence[str], np.ndarray]:
        """All vectors of one subject under `model` (any validity): ids in write order, unit rows.

        The same two objects until the subject changes (callers may key caches on them); never
        changed afterwards (a backend that grows its cache hands out a new snapshot instead)."""

    def item_vectors(self, subject: str, model: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of these items of `subject` under `model` (float32 unit rows), by id:
        an id with none (unknown, of another subject, without a vector of `model`) is left out.
        A read of a few rows, for a caller that needs a handful of vectors, not the matrix."""

    def delete(self, subject: str, ids: Sequence[str]) -> int:
        """Delete items everywhere they are held (row, keyword index, vectors) and scrub freed space."""

    def setting(self, key: str, value: str | None = None, *, delete: bool = False) -> str | None:
        """Read a store-wide setting, or write it when `value` is given (or remove it with delete)."""

    def settings(self, prefix: str) -> dict[str, str]:
        """Every setting whose key starts with `prefix`."""

    def subjects(self) -> dict[str, int]:
        """Every subject with its number of rows (every version, current or not)."""

    def counts(self, subjects: Sequence[str] | None = None) -> dict[str, Any]:
        """Aggregate figures of these subjects (None: all), computed in the database: see
        `engram.store.sql.counts` for the fields. "items" are current items; "history" the rest."""

    def close(self) -> None:
        """Release connections; scrub the write-ahead log where the backend has one."""


# -- optional capabilities ---------------------------------------------------------------------
# What some backends can do beyond the protocol. Callers ask for one by type, with
# `isinstance(store, VectorAdmin)` on the capability (each is runtime-checkable), never by testing
# a backend class or `hasattr`: a wrapper (ScopedStore) or a third-party backend that lacks one is
# simply not an instance, and the caller says what it cannot do. mypy checks that each backend
# really provides what it claims (the `_conforms` functions at the end of sqlite.py / postgres.py).

@runtime_checkable
class VectorAdmin(Protocol):
    """Replace vectors of existing items and count vectors per model (`engram reindex`, audit)."""

    def set_vectors(self, vectors: Vectors, model: str) -> None:
        """Replace the vectors of existing items (keyed by item id) under `model`, in one transaction."""

    def vector_models(self) -> dict[str, int]:
        """How many vectors each model identity holds."""

    def stage_vectors(self, vectors: Vectors, model: str) -> None:
        """Keep vectors of a reindex (keyed by item id) apart from the store's own, in one transaction:
        searches never see them until `promote_staged`."""

    def staged_ids(self, model: str) -> set[str]:
        """The ids of the items with a staged vector under `model`."""

    def promote_staged(self, model: str, settings: Mapping[str, str | None]) -> int:
        """In one transaction: the staged vectors of `model` replace the items' vectors, every
        vector of another model is dropped, the stage is emptied, and `settings` are written
        (None removes one). Returns how many vectors were promoted."""

    def vector_coverage(self, model: str, subjects: Sequence[str] | None = None) -> tuple[int, int]:
        """(current items with a vector of `model`, current items that should have one), over
        these subjects (None: all). Saved conversations and verbatim items without an index text
        have no vector and are not counted."""


@runtime_checkable
class Scrubbable(Protocol):
    """Can overwrite space freed by deletes on demand (SQLite: WAL checkpoint; PostgreSQL: VACUUM)."""

    def scrub(self) -> None:
        """Make deleted rows unreachable in the backend's own files and indexes."""


@dataclass(frozen=True)
class Leftovers:
    """Copies of deleted texts a scrub could not remove yet, where they are, and until when."""

    copies: int
    where: str
    until: str


@runtime_checkable
class ScrubStatus(Protocol):
    """Says what the last scrub could not remove (SQLite: a reader in another connection holds a
    snapshot that still needs the write-ahead log's old pages)."""

    def leftovers(self, texts: Sequence[str]) -> Leftovers | None:
        """Copies of these texts still in the backend's own files after the last scrub, or None
        when that scrub was complete."""


@dataclass(frozen=True)
class Traces:
    """Backend-specific places (keyword index, raw files) still holding a text, and what was not scanned."""

    places: list[str]
    not_scanned: list[str]


@runtime_checkable
class TraceScanner(Protocol):
    """Scans the backend's own indexes and files for a text of one subject (verifiable forgetting).

    Only places a subject can be told from count: a raw byte that another subject, the schema or
    a setting could also explain is left out and named in `not_scanned`, so a scan never reveals
    another subject's data. Item rows and vectors are checked above the store (engram.core.audit).
    """

    def traces(self, subject: str, text: str) -> Traces:
        """Where the backend still holds `text` (any stored form, case-insensitive) for `subject`."""


@runtime_checkable
class CacheReport(Protocol):
    """Keeps a bounded in-process cache (engram.store.cache) and reports it for `Memory.stats`."""

    def cache_stats(self) -> dict[str, Any]:
        """Entries, bytes, bounds and hit rate of the store's caches."""


@runtime_checkable
class Spells(Protocol):
    """Capability: query words the subject's keyword index does not hold, respelt as the nearest
    word it does (engram.store.spelling), for the text recall embeds."""

    def spellings(self, subject: str, words: Sequence[str]) -> dict[str, str]:
        """{word: respelt} for each of `words` whose term the subject lacks and that has a near spelling."""


@runtime_checkable
class ReadsTexts(Protocol):
    """Capability: the (id, text) of every item of a subject in one narrow read (the name book
    counts a subject's texts with it when a process first recalls that subject)."""

    def item_texts(self, subject: str) -> list[tuple[str, str]]:
        """(id, text) of each of the subject's items, history included, in no particular order."""


@runtime_checkable
class FileBackup(Protocol):
    """A store kept in one local file that can copy itself while others write (`engram backup`)."""

    def backup(self, target: Path) -> None:
        """Copy the whole store to a new file `target` (consistent, integrity-checked)."""


@dataclass(frozen=True)
class NearestAnswer:
    """A store's answer to one nearest-neighbour query over a subject's vectors (see SearchesVectors).

    `count`, `mean`, `std` and `minimum` describe the cosines of every vector of the subject under
    the model (exact, or estimated from a sample past the store's crossover). `nearest` lists the
    n most similar item ids, best first. `cosines` holds the cosine of each nearest id, of each id
    asked for, and of their write-order neighbours; `around[id]` = (previous id, next id) in the
    subject's write order (None at either end) for every nearest or asked-for id that has a vector.
    """

    count: int
    mean: float
    std: float
    minimum: float
    nearest: tuple[str, ...]
    cosines: Mapping[str, float]
    around: Mapping[str, tuple[str | None, str | None]]


@runtime_checkable
class SearchesVectors(Protocol):
    """Capability: the store answers nearest-neighbour queries itself (PostgreSQL with pgvector),
    so recall never pulls a subject's vector matrix. Recall asks for it with isinstance."""

    def nearest(self, subject: str, model: str, vector: np.ndarray, n: int, also: Sequence[str],
                where: Filter | None = None) -> NearestAnswer:
        """The n nearest vectors of `subject` under `model` (among items passing `where`, when given),
        subject-wide cosine statistics, and cosines and write-order neighbours of `also` too."""

    def vector_ids(self, subject: str, model: str) -> Sequence[str]:
        """The ids of the subject's vectors under `model` in write order (never the vectors): the
        same list object until the subject changes, so callers can tell nothing moved."""


@runtime_checkable
class FetchesVectors(Protocol):
    """Capability: the store reads items together with their stored vectors in one statement (a
    store that keeps its vectors on the server, PostgreSQL), so recall's shortlist fetch also
    brings the few vectors the relevance's residual cosine may ask for, instead of a second read
    (`Store.item_vectors`). Recall asks for it with isinstance."""

    def get_with_vectors(self, ids: Sequence[str], model: str) -> tuple[list[Item], dict[str, np.ndarray]]:
        """`Store.get(ids)`, and each found item's stored vector under `model` (float32, by id;
        an item without one is left out), from one read."""
