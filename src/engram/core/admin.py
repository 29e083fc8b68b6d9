"""`Memory.admin`: the plumbing under the user's verbs, for what builds on them.

`Memory` keeps the verbs a user calls (remember, recall, items, forget, ...). Integrations,
maintenance jobs and tools that need the parts underneath reach them here:

    mem.admin.put(subject, key, text, kind=STORE_ITEM)   # a keyed verbatim write
    mem.admin.current(subject, kind, key)                # the current item under a key
    mem.admin.update(ids, importance=0.8)                # bookkeeping fields
    mem.admin.mark_superseded(old_ids, new_id)           # close items as history
    mem.admin.vectors(subject)                           # the stored vectors
    mem.admin.require_embedder()                         # the embedder, checked against the store
    mem.admin.flush_accesses()                           # write buffered access counts now

Every one goes through the same validation, grants and screens as the verbs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from engram import validate
from engram.embed.base import Embedder
from engram.errors import InvalidInput
from engram.store.base import Filter
from engram.types import Item, Saved, TimeLike

if TYPE_CHECKING:
    from engram.core.memory import Memory

#: What moved from `Memory` to `Memory.admin` (the old names still work, with a DeprecationWarning).
MOVED = frozenset({"put", "current", "update", "mark_superseded", "vectors", "require_embedder", "flush_accesses"})


def ids_list(ids: Any) -> list[str]:
    """`ids` as a list of item ids, or InvalidInput."""
    if not isinstance(ids, (list, tuple, set, frozenset)) or not all(isinstance(i, str) and i for i in ids):
        raise InvalidInput("ids must be a list of item ids")
    return list(ids)


class Admin:
    """The plumbing of one `Memory` (see the module docstring)."""

    def __init__(self, memory: Memory) -> None:
        self._memory = memory

    def put(self, subject: str, key: str, text: str, *, kind: str, index: str | None = None,
            session: str | None = None, source: str = "", metadata: Mapping[str, Any] | None = None,
            expect: str | None = None, now: TimeLike = None) -> Saved:
        """Write one keyed item of a verbatim kind (engram.types.VERBATIM_KINDS) exactly as given.

        `text` is kept byte for byte, up to 20 million characters, and replaces the current item
        with `key` (kept as history). Unlike `remember` there is no dedupe and no fact supersession;
        the write check is the same (a refusal is Saved(False, reason)). `index` is the text recall
        embeds for the item (None: no vector). `expect` is the id of the version the caller read
        ("" for none): when another version is current, WriteConflict and nothing is written.
        Without `expect` the last writer wins (a concurrent replacement is retried).
        """
        return self._memory._put(subject, key, text, kind=kind, index=index, session=session, source=source,
                                 metadata=metadata, expect=expect, now=now)

    def current(self, subject: str, kind: str, key: str) -> Item | None:
        """The current item of `kind` with `key` (a keyed fact, preference, procedure, ...), or None.

        One lookup in the store's current-key index (at most one current item per subject, kind, key).
        """
        where = Filter(kinds=(validate.kind(kind),), key=key)
        found = self._memory.store.find(validate.subject(subject), where, limit=1)
        return found[0] if found else None

    def update(self, ids: Sequence[str], *, importance: float | None = None, metadata: Mapping[str, Any] | None = None,
               access_count: int | None = None, last_accessed: float | None = None) -> int:
        """Set bookkeeping fields of items (text and validity never change here); returns how many changed.

        `metadata` replaces the item's metadata as a whole (read it, change it, write it back).
        """
        ids = ids_list(ids)
        accesses = self._memory._accesses
        if access_count is not None:
            accesses.flush()  # buffered counts first, so the count set here is final
        else:
            accesses.flush_quietly()
        changes: dict[str, Any] = {}
        if importance is not None:
            changes["importance"] = validate.weight(importance, "importance")
            if changes["importance"] > 1.0:
                raise InvalidInput(f"importance must be a number from 0 to 1, not {importance!r}")
        if metadata is not None:
            changes["metadata"] = validate.metadata(metadata)
        if access_count is not None:
            changes["access_count"] = validate.count(access_count, "access_count", 0, 2**62)
        if last_accessed is not None:
            changes["last_accessed"] = validate.timestamp(last_accessed, "last_accessed")
        return self._memory.store.update(ids, changes) if changes else 0

    def mark_superseded(self, old_ids: Sequence[str], new_id: str, *, at: TimeLike = None) -> list[str]:
        """Mark current items of `new_id`'s subject as replaced by it; they stay as history.

        Each gets `superseded_by` = new_id and `valid_to` = `at` (default: the new item's
        `valid_from`), never before its own `valid_from`. Items already superseded, or of another
        subject, are left alone. Returns the ids it closed.
        """
        store = self._memory.store
        new = self._memory.get(new_id)
        moment = new.valid_from if at is None else validate.timestamp(at, "at")
        closed: list[str] = []
        for old in store.get(ids_list(old_ids)):
            if old.current and old.subject == new.subject and old.id != new.id:
                store.update([old.id], {"valid_to": max(moment, old.valid_from), "superseded_by": new.id})
                closed.append(old.id)
        return closed

    def vectors(self, subject: str) -> tuple[Sequence[str], np.ndarray]:
        """The stored vectors of a subject under the Memory's embedder: (ids, unit rows); empty without one."""
        embedder = self._memory.embedder
        if embedder is None:
            return [], np.zeros((0, 0), dtype=np.float32)
        return self._memory.store.vectors(validate.subject(subject), embedder.identity)

    def require_embedder(self) -> Embedder | None:
        """The embedder for an operation that reads or writes vectors (None: the store has none);
        EmbedderMismatch when the store was built with another model, or with another file of the
        same model (its fingerprint, engram.core.reindex.check_fingerprint)."""
        return self._memory._require_embedder()

    def flush_accesses(self) -> int:
        """Write the access counts recall has recorded but not yet written (engram.core.accesses);
        returns how many items were updated. Recall itself never writes."""
        return self._memory._accesses.flush()
