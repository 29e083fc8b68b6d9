"""Where a SQLite store still holds a text of one subject: keyword-index entries, raw file bytes.

Raw bytes cannot tell subjects apart. A byte hit counts only when no
live row of another subject, and nothing in the schema or settings, holds the same text:
otherwise it is inconclusive and left out, so a scan never reveals another subject's data.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engram.store import keyword as kw
from engram.store.base import Traces
from engram.store.traces import TEXT_COLUMNS, count_in_file, raw_needles, variants

if TYPE_CHECKING:
    from engram.store.sqlite import SQLiteStore

SQLITE_SUFFIXES = ("", "-wal", "-journal", "-shm")
RAW_CAVEAT = ("raw bytes when another subject, the schema or a setting also holds"
              " the text (bytes cannot be attributed to a subject)")


def scan(store: SQLiteStore, subject: str, needle: str) -> Traces:
    """The keyword index's entries, then (for a file) the raw bytes on disk."""
    not_scanned: list[str] = []
    places = kw.places(store.query, store.keyword_sql, subject, needle)
    if store.path == ":memory:":
        not_scanned.append("raw bytes (the database is in memory)")
        return Traces(places, not_scanned)
    # Always the same note, so the report never says whether another subject holds the text.
    not_scanned.append(RAW_CAVEAT)
    if _explained_elsewhere(store, subject, needle):
        return Traces(places, not_scanned)
    raw = raw_needles(needle)
    for suffix in SQLITE_SUFFIXES:
        path = Path(store.path + suffix)
        copies = count_in_file(path, raw) if path.exists() else 0
        if copies:
            places.append(f"file:{path} ({copies} cop{'y' if copies == 1 else 'ies'})")
    return Traces(places, not_scanned)


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
