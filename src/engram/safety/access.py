"""Access between subjects: items are private to their subject; sharing is an explicit grant.

A `Memory` opened with `principal="agent:planner"` wraps its store in a `ScopedStore`, which
checks every call against the principal's own subject and the grants recorded in the store:
reading a subject needs "read" or "write", changing it needs "write". Without a principal
(a local, single-user process) there is no check. Grants live in the store's settings as
`grant:<subject>|<grantee>` = `read` | `write`, so every process and backend sees the same.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

import numpy as np

from engram import validate
from engram.errors import AccessDenied, InvalidInput
from engram.store.base import Filter, NearestAnswer, Placement, SearchesVectors, Spells, Store
from engram.types import Item

MODES = ("read", "write")
PREFIX = "grant:"


def grant_key(subject: str, grantee: str) -> str:
    return f"{PREFIX}{subject}|{grantee}"


def set_grant(store: Store, subject: str, grantee: str, mode: str | None) -> None:
    """Give `grantee` read or write access to `subject` (mode None revokes)."""
    validate.subject(subject)
    validate.subject(grantee)
    if mode is None:
        store.setting(grant_key(subject, grantee), delete=True)
        return
    if mode not in MODES:
        raise InvalidInput(f"grant mode must be 'read' or 'write', not {mode!r}")
    store.setting(grant_key(subject, grantee), mode)


def grants(store: Store, subject: str) -> dict[str, str]:
    """Who may read or write `subject`: grantee -> mode."""
    prefix = f"{PREFIX}{validate.subject(subject)}|"
    return {key[len(prefix):]: mode for key, mode in store.settings(prefix).items()}


class ScopedStore:
    """A Store that lets one principal touch only its own subject and the subjects granted to it."""

    def __init__(self, inner: Store, principal: str) -> None:
        self.inner = inner
        self.principal = validate.subject(principal)
        self.url = inner.url
        self.read_only = inner.read_only

    def allowed(self, subject: str, mode: str) -> bool:
        """True when the principal may `mode` ("read" / "write") the subject."""
        if subject == self.principal:
            return True
        granted = self.inner.setting(grant_key(subject, self.principal))
        return granted == "write" or (granted == "read" and mode == "read")

    def check(self, subject: str, mode: str) -> None:
        if not self.allowed(subject, mode):
            raise AccessDenied(
                f"{self.principal} may not {mode} {subject}: ask its owner to grant access"
                f" (Memory.grant({subject!r}, {self.principal!r}, {mode!r}))"
            )

    # -- Store protocol, checked -----------------------------------------------------------
    def put(self, items: Sequence[Item], vectors: Mapping[str, np.ndarray] | None = None,
            supersede: Mapping[str, str] | None = None, model: str | None = None) -> list[Placement]:
        for subject in {it.subject for it in items}:
            self.check(subject, "write")
        for old in self.inner.get(list(supersede or {})):
            self.check(old.subject, "write")
        return self.inner.put(items, vectors, supersede, model)

    def update(self, ids: Sequence[str], changes: Mapping[str, Any]) -> int:
        for item in self.inner.get(list(ids)):
            self.check(item.subject, "write")
        return self.inner.update(ids, changes)

    def get(self, ids: Sequence[str]) -> list[Item]:
        return [it for it in self.inner.get(ids) if self.allowed(it.subject, "read")]

    def find(self, subject: str, where: Filter = Filter(), limit: int | None = None,
             newest_first: bool = True) -> list[Item]:
        self.check(subject, "read")
        return self.inner.find(subject, where, limit, newest_first)

    def keyword(self, subject: str, terms: Sequence[str], where: Filter, limit: int, *,
                near: bool = True, known: Collection[str] = ()) -> list[tuple[str, float]]:
        self.check(subject, "read")
        return self.inner.keyword(subject, terms, where, limit, near=near, known=known)

    def vectors(self, subject: str, model: str) -> tuple[Sequence[str], np.ndarray]:
        self.check(subject, "read")
        return self.inner.vectors(subject, model)

    def spellings(self, subject: str, words: Sequence[str]) -> dict[str, str]:
        self.check(subject, "read")
        return self.inner.spellings(subject, words) if isinstance(self.inner, Spells) else {}

    def item_vectors(self, subject: str, model: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        self.check(subject, "read")
        return self.inner.item_vectors(subject, model, ids)

    def delete(self, subject: str, ids: Sequence[str]) -> int:
        self.check(subject, "write")
        return self.inner.delete(subject, ids)

    def setting(self, key: str, value: str | None = None, *, delete: bool = False) -> str | None:
        if key.startswith(PREFIX) and (value is not None or delete):
            subject = key[len(PREFIX):].split("|", 1)[0]
            if subject != self.principal:
                raise AccessDenied(f"{self.principal} may not change who can access {subject}")
        return self.inner.setting(key, value, delete=delete)

    def settings(self, prefix: str) -> dict[str, str]:
        return self.inner.settings(prefix)

    def subjects(self) -> dict[str, int]:
        return {s: n for s, n in self.inner.subjects().items() if self.allowed(s, "read")}

    def counts(self, subjects: Sequence[str] | None = None) -> dict[str, Any]:
        for subject in subjects or ():
            self.check(subject, "read")
        return self.inner.counts(list(self.subjects()) if subjects is None else subjects)

    def touch(self, accesses: Mapping[str, tuple[int, float]]) -> None:
        readable = {it.id for it in self.get(list(accesses))}
        self.inner.touch({i: seen for i, seen in accesses.items() if i in readable})

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> Any:
        # Backend extras (scrub, query, set_vectors, ...) are for the owner process only.
        raise AttributeError(f"{name} is not available through a scoped store")


class ScopedSearchingStore(ScopedStore):
    """A ScopedStore over a store that searches vectors itself (PostgreSQL + pgvector): the search
    is checked like every read, so a principal's recall stays in the server too."""

    def __init__(self, inner: Store, principal: str) -> None:
        if not isinstance(inner, SearchesVectors):
            raise TypeError(f"{type(inner).__name__} does not search vectors itself")
        super().__init__(inner, principal)
        self._finder: SearchesVectors = inner

    def nearest(self, subject: str, model: str, vector: np.ndarray, n: int, also: Sequence[str],
                where: Filter | None = None) -> NearestAnswer:
        self.check(subject, "read")
        return self._finder.nearest(subject, model, vector, n, also, where)

    def vector_ids(self, subject: str, model: str) -> Sequence[str]:
        self.check(subject, "read")
        return self._finder.vector_ids(subject, model)


def scoped(inner: Store, principal: str) -> ScopedStore:
    """`inner` seen by `principal`: a ScopedStore, which also searches vectors in the store when
    `inner` can (so the capability survives the wrapping)."""
    if isinstance(inner, SearchesVectors):
        return ScopedSearchingStore(inner, principal)
    return ScopedStore(inner, principal)
