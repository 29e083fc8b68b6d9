"""Verifiable forgetting: find every place a store still holds a text of one subject.

`audit(mem, subject, text)` looks in
- every item of the subject, current or superseded (history), in every text column and the
  metadata JSON (episodes, conversations and summaries are items too), case-insensitively;
- the vectors of those items (an embedding is derived from the text and can leak it);
- a SQLite store's saved ANN indexes (`<db>.ann`, engram.core.ann_files), from their headers:
  a live key whose item row is gone (a forgotten item's vector), the key of each item holding
  the text, a header that cannot be read, and a payload no header names;
- the backend's own indexes and files, asked of the store when it is a `TraceScanner`
  (engram.store.base): the keyword index (engram.store.keyword) answered from the index alone,
  on both backends (so an entry whose row is gone still shows), and on SQLite the raw bytes of
  the database file, WAL and journal (engram.store.sqlite_traces).

A raw byte cannot tell subjects apart: the backend counts a byte hit only when no live row of
another subject, and nothing in the schema or settings, holds the same text, so an audit never
reveals another subject's data.
What no audit can scan is listed in `not_scanned` and in docs/forgetting.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engram import validate
from engram.core import ann, ann_files
from engram.errors import InvalidInput, NotFound, SchemaTooNew, StoreCorrupt
from engram.store import sqlite_ann
from engram.store.base import Filter, Store, TraceScanner, VectorAdmin
from engram.store.traces import TEXT_COLUMNS, count_in_file, variants
from engram.language.normalise import fold
from engram.types import Item, dumps

if TYPE_CHECKING:
    from engram.core.memory import Memory

__all__ = ["ALWAYS_NOT_SCANNED", "AuditReport", "audit", "count_in_file", "variants"]

ALWAYS_NOT_SCANNED = (
    "copies outside the store: exports, backups, logs, LLM provider requests, OS swap and snapshots",
)


@dataclass(frozen=True)
class AuditReport:
    """How many places still hold the text, which ones, and what could not be looked at."""

    found: int
    where: list[str]
    not_scanned: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.found > 0

    def to_dict(self) -> dict[str, Any]:
        return {"found": self.found, "where": list(self.where), "not_scanned": list(self.not_scanned)}


def audit(mem: Memory, subject: str, text: str) -> AuditReport:
    """Every place in `mem`'s store that still holds `text` for `subject` (see module docstring)."""
    subject = validate.subject(subject)
    needle = _needle(text)
    store = mem.store
    items = store.find(subject, Filter(include_superseded=True), newest_first=False)
    holding = [it for it in items if _item_fields(it, needle)]
    where = [f"{_place(it)} {','.join(_item_fields(it, needle))}" for it in holding]
    # A vector is derived from the text only, so it holds the text only when the text column does.
    with_text = [it for it in holding if "text" in _item_fields(it, needle)]
    where += _vector_places(store, subject, with_text)
    where += _ann_places(store, subject, with_text)
    not_scanned = list(ALWAYS_NOT_SCANNED)
    if not isinstance(store, TraceScanner):
        not_scanned.insert(0, f"{type(store).__name__}: backend-specific indexes and files")
    else:
        traces = store.traces(subject, needle)
        where += [p for p in traces.places if not _stems_only(p, {it.id for it in holding})]
        not_scanned = [*traces.not_scanned, *not_scanned]
    return AuditReport(len(where), where, not_scanned)


def _stems_only(place: str, holding: set[str]) -> bool:
    """Whether `place` is a live item posted under every stem of the text whose row holds no copy
    of it ("Ines" stems to "in", posted for "I live in Lisbon"): index terms come from the row's
    text, so they hold the text only when the row does. An entry without a row is always kept."""
    name = place.removeprefix("keyword:")
    return name != place and " " not in name and name not in holding


def _needle(text: Any) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"text to audit must be a string, not {type(text).__name__}")
    if "\x00" in text:
        raise InvalidInput("text to audit contains a NUL byte; remove it and try again")
    if not text.strip():
        raise InvalidInput("say what text to look for (a word or phrase)")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput("text to audit contains an unpaired surrogate, which no store can hold") from None
    return text


def _item_fields(item: Item, needle: str) -> list[str]:
    """The names of an item's fields that contain the text, case-insensitively."""
    forms = [fold(v) for v in variants(needle)]  # engram.language.normalise.fold: the rule matches and forget use
    values = {c: getattr(item, c) for c in TEXT_COLUMNS}
    values["metadata"] = dumps(dict(item.metadata))
    return [name for name, value in values.items()
            if isinstance(value, str) and any(f in fold(value) for f in forms)]


def _place(item: Item) -> str:
    table = "items" if item.current else "history"  # a superseded version is history
    return f"{table}:{item.id} ({item.kind})"


def _vector_places(store: Store, subject: str, holding: list[Item]) -> list[str]:
    models = store.vector_models() if isinstance(store, VectorAdmin) else {}
    wanted = {it.id for it in holding}
    places = []
    for model in sorted(models):
        ids, _ = store.vectors(subject, model)
        places += [f"vectors:{i} ({model})" for i in ids if i in wanted]
    return places


def _ann_places(store: Store, subject: str, holding: list[Item]) -> list[str]:
    """What the subject's saved ANN index files hold that a forget should have reached."""
    if not isinstance(store, sqlite_ann.FileStore):
        return []
    places: list[str] = []
    named = set()
    holders = dict(zip(sqlite_ann.keys_of(store, [it.id for it in holding]).tolist(), (it.id for it in holding)))
    for path in ann_files.headers(sqlite_ann.folder(store), subject):
        try:
            head, keys, _, _ = ann.read_header(path)
        except (NotFound, StoreCorrupt, SchemaTooNew):
            places.append(f"ann:{path.name} (a header that cannot be read: it may hold any vector)")
            continue
        named.add(head["payload"])
        rows = set(sqlite_ann.keys(store, subject, head["model"]).tolist())
        places += [f"ann:{path.name} key {k} (entry without a row)" for k in keys.tolist() if k not in rows]
        places += [f"ann:{path.name} key {k} ({holders[k]}, {head['model']})" for k in keys.tolist() if k in holders]
        places += [f"ann:{p.name} (a payload no header names)" for p in ann.payloads(path) if p.name not in named]
    return places
