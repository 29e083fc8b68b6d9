"""Where a SQLite store still holds a text of one subject: FTS5 entries, shadow tables, raw file bytes.

Raw bytes (and FTS5 shadow bytes) cannot tell subjects apart. A byte hit counts only when no
live row of another subject, and nothing in the schema or settings, holds the same text:
otherwise it is inconclusive and left out, so a scan never reveals another subject's data.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engram.errors import StoreError
from engram.store.base import Traces
from engram.store.traces import TEXT_COLUMNS, blob_holds, count_in_file, raw_needles, variants

if TYPE_CHECKING:
    from engram.store.sqlite import SQLiteStore

SQLITE_SUFFIXES = ("", "-wal", "-journal", "-shm")
FTS_SHADOW = ("items_fts_data", "items_fts_idx", "items_fts_docsize", "items_fts_config")
RAW_CAVEAT = ("raw bytes and FTS5 shadow tables when another subject, the schema or a setting also holds"
              " the text (bytes cannot be attributed to a subject)")


def scan(store: SQLiteStore, subject: str, needle: str) -> Traces:
    """The keyword index's entries, then (for a file) shadow tables and the raw bytes on disk."""
    not_scanned: list[str] = []
    places = _fts_entries(store, subject, needle, not_scanned)
    if store.path == ":memory:":
        not_scanned.append("raw bytes (the database is in memory)")
        return Traces(places, not_scanned)
    # Always the same note, so the report never says whether another subject holds the text.
    not_scanned.append(RAW_CAVEAT)
    if _explained_elsewhere(store, subject, needle):
        return Traces(places, not_scanned)
    raw = raw_needles(needle)
    for table in FTS_SHADOW:
        rows = store.query(f"SELECT * FROM {table}")
        if any(blob_holds(value, raw) for row in rows for value in row):
            places.append(f"fts-shadow:{table}")
    for suffix in SQLITE_SUFFIXES:
        path = Path(store.path + suffix)
        copies = count_in_file(path, raw) if path.exists() else 0
        if copies:
            places.append(f"file:{path} ({copies} cop{'y' if copies == 1 else 'ies'})")
    return Traces(places, not_scanned)


def _fts_entries(store: SQLiteStore, subject: str, needle: str, not_scanned: list[str]) -> list[str]:
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
        rows = {r[0]: (r[1], r[2]) for r in
                store.query(f"SELECT rowid, id, subject FROM items WHERE rowid IN ({marks})", chunk)}
        for rowid in chunk:
            if rowid not in rows:
                places.append(f"fts:items_fts rowid {rowid} (entry without a row)")
            elif rows[rowid][1] == subject:
                places.append(f"fts:items_fts rowid {rowid} ({rows[rowid][0]})")
    return places


def _explained_elsewhere(store: SQLiteStore, subject: str, needle: str) -> bool:
    """True when another subject's row, the schema or a setting holds the text (bytes can't tell)."""
    for form in variants(needle):
        columns = " OR ".join(f"instr(casefold({c}), casefold(?1)) > 0" for c in (*TEXT_COLUMNS, "metadata"))
        if store.query(f"SELECT 1 FROM items WHERE subject != ?2 AND ({columns}) LIMIT 1", (form, subject)):
            return True
        for sql in ("SELECT 1 FROM sqlite_master WHERE instr(casefold(sql), casefold(?1)) > 0 LIMIT 1",
                    "SELECT 1 FROM settings WHERE instr(casefold(key || ' ' || value), casefold(?1)) > 0 LIMIT 1",
                    "SELECT 1 FROM migrations WHERE instr(casefold(name), casefold(?1)) > 0 LIMIT 1"):
            if store.query(sql, (form,)):
                return True
    return False
