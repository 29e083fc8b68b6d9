"""Verifiable forgetting: find every place a store still holds a text of one subject.

`audit(mem, subject, text)` looks in
- every item of the subject, current or superseded (history), in every text column and the
  metadata JSON (episodes, conversations and summaries are items too), case-insensitively;
- the vectors of those items (an embedding is derived from the text and can leak it);
- the keyword index: SQLite's FTS5 index answered from the index alone (so an entry whose
  row is gone still shows), its shadow tables' raw bytes, and PostgreSQL's `tsv` column;
- SQLite only: the raw bytes of the database file, its WAL and journal, as the disk has them.

Raw bytes (and FTS5 shadow bytes) cannot tell subjects apart. A byte hit counts only when no
live row of another subject, and nothing in the schema or settings, holds the same text:
otherwise it is inconclusive and left out, so an audit never reveals another subject's data.
What no audit can scan is listed in `not_scanned` and in docs/forgetting.md.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from engram import validate
from engram.errors import InvalidInput, StoreError
from engram.store.base import Filter
from engram.text import fold
from engram.types import Item, dumps

if TYPE_CHECKING:
    from engram.core.memory import Memory

CHUNK = 8 << 20  # raw files are scanned in 8 MiB windows
SQLITE_SUFFIXES = ("", "-wal", "-journal", "-shm")
FTS_SHADOW = ("items_fts_data", "items_fts_idx", "items_fts_docsize", "items_fts_config")
ITEM_COLUMNS = ("text", "source", "agent", "key", "category", "session")
POSTGRES_NOT_SCANNED = (
    "PostgreSQL server files: WAL segments, dead tuples in table/index pages not yet reused,"
    " temporary files (the server's files are not readable over a connection)",
    "PostgreSQL WAL archives, replicas and base backups (pg_basebackup, pg_dump files)",
)
RAW_CAVEAT = ("raw bytes and FTS5 shadow tables when another subject, the schema or a setting also holds"
              " the text (bytes cannot be attributed to a subject)")
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


def audit(mem: "Memory", subject: str, text: str) -> AuditReport:
    """Every place in `mem`'s store that still holds `text` for `subject` (see module docstring)."""
    subject = validate.subject(subject)
    needle = _needle(text)
    store = mem.store
    items = store.find(subject, Filter(include_superseded=True), newest_first=False)
    holding = [it for it in items if _item_fields(it, needle)]
    where = [f"{_place(it)} {','.join(_item_fields(it, needle))}" for it in holding]
    # A vector is derived from the text only, so it holds the text only when the text column does.
    where += _vector_places(store, subject, [it for it in holding if "text" in _item_fields(it, needle)])
    not_scanned = list(ALWAYS_NOT_SCANNED)
    from engram.store.sqlite import SQLiteStore

    if isinstance(store, SQLiteStore):
        where += _sqlite_places(store, subject, needle, not_scanned)
    elif hasattr(store, "query"):
        where += _postgres_places(store, subject, needle)
        not_scanned = [*POSTGRES_NOT_SCANNED, *not_scanned]
    else:
        not_scanned.insert(0, f"{type(store).__name__}: backend-specific indexes and files")
    return AuditReport(len(where), where, not_scanned)


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


def variants(text: str) -> set[str]:
    """The forms a text may be stored in: as given, NFC, folded whitespace, JSON-escaped."""
    forms = {text, unicodedata.normalize("NFC", text), " ".join(text.split())}
    for form in list(forms):
        forms.add(json.dumps(form, ensure_ascii=False)[1:-1])
        forms.add(json.dumps(form)[1:-1])
    return {f for f in forms if f}


def _item_fields(item: Item, needle: str) -> list[str]:
    """The names of an item's fields that contain the text, case-insensitively."""
    forms = [fold(v) for v in variants(needle)]  # engram.text.fold: the rule matches and forget use
    values = {c: getattr(item, c) for c in ITEM_COLUMNS}
    values["metadata"] = dumps(dict(item.metadata))
    return [name for name, value in values.items()
            if isinstance(value, str) and any(f in fold(value) for f in forms)]


def _place(item: Item) -> str:
    table = "items" if item.current else "history"  # a superseded version is history
    return f"{table}:{item.id} ({item.kind})"


def _vector_places(store: Any, subject: str, holding: list[Item]) -> list[str]:
    models = store.vector_models() if hasattr(store, "vector_models") else {}
    wanted = {it.id for it in holding}
    places = []
    for model in sorted(models):
        ids, _ = store.vectors(subject, model)
        places += [f"vectors:{i} ({model})" for i in ids if i in wanted]
    return places


# -- SQLite ------------------------------------------------------------------------------------
def _sqlite_places(store: Any, subject: str, needle: str, not_scanned: list[str]) -> list[str]:
    places = _fts_entries(store, subject, needle, not_scanned)
    if store.path == ":memory:":
        not_scanned.append("raw bytes (the database is in memory)")
        return places
    # Always the same note, so the report never says whether another subject holds the text.
    not_scanned.append(RAW_CAVEAT)
    if _explained_elsewhere(store, subject, needle):
        return places
    raw = [v.encode("utf-8").lower() for v in variants(needle) | {needle.lower(), needle.upper()}]
    for table in FTS_SHADOW:
        rows = store.query(f"SELECT * FROM {table}")
        if any(_blob_holds(value, raw) for row in rows for value in row):
            places.append(f"fts-shadow:{table}")
    for suffix in SQLITE_SUFFIXES:
        path = Path(store.path + suffix)
        copies = count_in_file(path, raw) if path.exists() else 0
        if copies:
            places.append(f"file:{path} ({copies} cop{'y' if copies == 1 else 'ies'})")
    return places


def _fts_entries(store: Any, subject: str, needle: str, not_scanned: list[str]) -> list[str]:
    """Rows the FTS5 index itself matches for the phrase, including entries whose row is gone."""
    phrase = '"' + " ".join(needle.split()).replace('"', '""') + '"'
    try:
        rowids = [r[0] for r in store.query("SELECT rowid FROM items_fts WHERE items_fts MATCH ?", (phrase,))]
    except StoreError as exc:
        not_scanned.append(f"FTS5 index (the phrase could not be queried: {exc})")
        return []
    places = []
    for start in range(0, len(rowids), 500):
        chunk = rowids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        rows = dict((r[0], (r[1], r[2])) for r in
                    store.query(f"SELECT rowid, id, subject FROM items WHERE rowid IN ({marks})", chunk))
        for rowid in chunk:
            if rowid not in rows:
                places.append(f"fts:items_fts rowid {rowid} (entry without a row)")
            elif rows[rowid][1] == subject:
                places.append(f"fts:items_fts rowid {rowid} ({rows[rowid][0]})")
    return places


def _explained_elsewhere(store: Any, subject: str, needle: str) -> bool:
    """True when another subject's row, the schema or a setting holds the text (bytes can't tell)."""
    for form in variants(needle):
        columns = " OR ".join(f"instr(casefold({c}), casefold(?1)) > 0" for c in (*ITEM_COLUMNS, "metadata"))
        if store.query(f"SELECT 1 FROM items WHERE subject != ?2 AND ({columns}) LIMIT 1", (form, subject)):
            return True
        for sql in ("SELECT 1 FROM sqlite_master WHERE instr(casefold(sql), casefold(?1)) > 0 LIMIT 1",
                    "SELECT 1 FROM settings WHERE instr(casefold(key || ' ' || value), casefold(?1)) > 0 LIMIT 1",
                    "SELECT 1 FROM migrations WHERE instr(casefold(name), casefold(?1)) > 0 LIMIT 1"):
            if store.query(sql, (form,)):
                return True
    return False


def _blob_holds(value: Any, needles: list[bytes]) -> bool:
    if isinstance(value, str):
        value = value.encode("utf-8")
    if not isinstance(value, (bytes, bytearray, memoryview)):
        return False
    data = bytes(value).lower()
    return any(n in data for n in needles)


def count_in_file(path: Path, needles: Iterable[bytes]) -> int:
    """Occurrences of any needle (ASCII case-insensitive) in a file, read in windows."""
    needles = [n for n in set(needles) if n]
    overlap = max(len(n) for n in needles) - 1
    total, tail = 0, b""
    with open(path, "rb") as fh:
        while True:
            block = fh.read(CHUNK)
            if not block:
                break
            window = (tail + block).lower()
            # Count matches that end inside the new block only, so none is counted twice.
            total += sum(_count_ending_after(window, n, len(tail)) for n in needles)
            tail = window[-overlap:] if overlap else b""
    return total


def _count_ending_after(data: bytes, needle: bytes, offset: int) -> int:
    count, start = 0, 0
    while True:
        at = data.find(needle, start)
        if at < 0:
            return count
        if at + len(needle) > offset:
            count += 1
        start = at + 1


# -- PostgreSQL ------------------------------------------------------------------------------
def _postgres_places(store: Any, subject: str, needle: str) -> list[str]:
    """Rows the full-text index matches for the phrase (the generated `tsv` column)."""
    rows = store.query(
        "SELECT id FROM items WHERE subject = %s AND tsv @@ phraseto_tsquery('english', %s) ORDER BY seq",
        (subject, " ".join(needle.split())),
    )
    return [f"fts:items.tsv ({r[0]})" for r in rows]
