"""Schema migrations: one runner (`run`) for every backend, and SQLite's numbered steps.

Each backend keeps its own list of steps (`MIGRATIONS` here for SQLite, `postgres.MIGRATIONS`),
each step one `(name, statements)` pair whose number is its place in the list (1-based). To
change a schema, append one self-contained step; never edit a released one. Applied steps are
recorded in the `migrations` table of each database: a store made by an older Engram is
upgraded on open, one whose newest step is newer than this code knows is refused with
`SchemaTooNew`. The backend runs `run` inside one transaction and under its own lock (SQLite:
BEGIN IMMEDIATE; PostgreSQL: an advisory lock), so two processes opening a new store take turns.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from engram.errors import NotAStore, ReadOnlyStore, SchemaTooNew

if TYPE_CHECKING:
    from engram.store.sqlite import SQLiteStore

#: One migration step: its name, and the statements that make it (run in order, in one transaction).
Step = tuple[str, Sequence[str]]

MIGRATIONS: list[Step] = [
    (
        "items, keyword index, vectors, settings",
        [
            """CREATE TABLE items (
                rowid INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                subject TEXT NOT NULL,
                kind TEXT NOT NULL,
                text TEXT NOT NULL,
                source TEXT NOT NULL DEFAULT '',
                agent TEXT NOT NULL DEFAULT '',
                key TEXT,
                category TEXT,
                session TEXT,
                created_at REAL NOT NULL,
                event_at REAL NOT NULL,
                valid_from REAL NOT NULL,
                valid_to REAL,
                superseded_by TEXT,
                confidence REAL NOT NULL DEFAULT 1.0,
                importance REAL NOT NULL DEFAULT 0.5,
                access_count INTEGER NOT NULL DEFAULT 0,
                last_accessed REAL,
                content_hash TEXT NOT NULL,
                dedupe TEXT,
                metadata TEXT NOT NULL DEFAULT '{}'
            )""",
            "CREATE INDEX items_subject_event ON items(subject, event_at)",
            "CREATE INDEX items_subject_kind ON items(subject, kind)",
            "CREATE INDEX items_hash ON items(content_hash)",
            "CREATE UNIQUE INDEX items_dedupe ON items(subject, dedupe)"
            " WHERE dedupe IS NOT NULL AND valid_to IS NULL",
            "CREATE UNIQUE INDEX items_current_key ON items(subject, kind, key)"
            " WHERE key IS NOT NULL AND valid_to IS NULL",
            "CREATE VIRTUAL TABLE items_fts USING fts5(text, content='items', content_rowid='rowid',"
            " tokenize='porter unicode61 remove_diacritics 2')",
            "CREATE TRIGGER items_ai AFTER INSERT ON items BEGIN"
            " INSERT INTO items_fts(rowid, text) VALUES (new.rowid, new.text); END",
            "CREATE TRIGGER items_ad AFTER DELETE ON items BEGIN"
            " INSERT INTO items_fts(items_fts, rowid, text) VALUES ('delete', old.rowid, old.text); END",
            "CREATE TRIGGER items_au AFTER UPDATE OF text ON items BEGIN"
            " INSERT INTO items_fts(items_fts, rowid, text) VALUES ('delete', old.rowid, old.text);"
            " INSERT INTO items_fts(rowid, text) VALUES (new.rowid, new.text); END",
            """CREATE TABLE vectors (
                item_rowid INTEGER PRIMARY KEY REFERENCES items(rowid) ON DELETE CASCADE,
                subject TEXT NOT NULL,
                model TEXT NOT NULL,
                vec BLOB NOT NULL
            )""",
            "CREATE INDEX vectors_subject ON vectors(subject, model)",
            "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ],
    ),
    (
        "subject in the keyword index; per-subject vector versions",
        [
            # The subject becomes an FTS5 column, so a keyword query intersects the subject's
            # posting list first instead of ranking every subject's matches and filtering after.
            "DROP TRIGGER items_ai",
            "DROP TRIGGER items_ad",
            "DROP TRIGGER items_au",
            "DROP TABLE items_fts",
            "CREATE VIRTUAL TABLE items_fts USING fts5(text, subject, content='items', content_rowid='rowid',"
            " tokenize='porter unicode61 remove_diacritics 2')",
            "CREATE TRIGGER items_ai AFTER INSERT ON items BEGIN"
            " INSERT INTO items_fts(rowid, text, subject) VALUES (new.rowid, new.text, new.subject); END",
            "CREATE TRIGGER items_ad AFTER DELETE ON items BEGIN"
            " INSERT INTO items_fts(items_fts, rowid, text, subject) VALUES ('delete', old.rowid, old.text, old.subject);"
            " END",
            "CREATE TRIGGER items_au AFTER UPDATE OF text, subject ON items BEGIN"
            " INSERT INTO items_fts(items_fts, rowid, text, subject) VALUES ('delete', old.rowid, old.text, old.subject);"
            " INSERT INTO items_fts(rowid, text, subject) VALUES (new.rowid, new.text, new.subject); END",
            "INSERT INTO items_fts(items_fts) VALUES ('rebuild')",
            # A counter per subject that changes whenever its vectors do (in any process), so a
            # cached matrix stays valid across reads and access-count writes.
            "CREATE TABLE vector_versions (subject TEXT PRIMARY KEY, version INTEGER NOT NULL)",
            "INSERT INTO vector_versions SELECT subject, 1 FROM vectors GROUP BY subject",
            "CREATE TRIGGER vectors_ai AFTER INSERT ON vectors BEGIN"
            " INSERT INTO vector_versions VALUES (new.subject, 1)"
            " ON CONFLICT(subject) DO UPDATE SET version = version + 1; END",
            "CREATE TRIGGER vectors_ad AFTER DELETE ON vectors BEGIN"
            " UPDATE vector_versions SET version = version + 1 WHERE subject = old.subject; END",
            "CREATE TRIGGER vectors_au AFTER UPDATE ON vectors BEGIN"
            " UPDATE vector_versions SET version = version + 1 WHERE subject = old.subject; END",
        ],
    ),
    (
        "one unique keyword-index token per subject",
        [
            # Subject words are shared ("user" is in every user:* subject), so matching them as a
            # phrase still walks every row; a token unique to the subject cuts posting lists at once.
            "ALTER TABLE items ADD COLUMN scope TEXT NOT NULL DEFAULT ''",
            "UPDATE items SET scope = engram_scope(subject)",
            "DROP TRIGGER items_ai",
            "DROP TRIGGER items_ad",
            "DROP TRIGGER items_au",
            "DROP TABLE items_fts",
            "CREATE VIRTUAL TABLE items_fts USING fts5(text, scope, content='items', content_rowid='rowid',"
            " tokenize='porter unicode61 remove_diacritics 2')",
            "CREATE TRIGGER items_ai AFTER INSERT ON items BEGIN"
            " INSERT INTO items_fts(rowid, text, scope) VALUES (new.rowid, new.text, new.scope); END",
            "CREATE TRIGGER items_ad AFTER DELETE ON items BEGIN"
            " INSERT INTO items_fts(items_fts, rowid, text, scope) VALUES ('delete', old.rowid, old.text, old.scope);"
            " END",
            "CREATE TRIGGER items_au AFTER UPDATE OF text, scope ON items BEGIN"
            " INSERT INTO items_fts(items_fts, rowid, text, scope) VALUES ('delete', old.rowid, old.text, old.scope);"
            " INSERT INTO items_fts(rowid, text, scope) VALUES (new.rowid, new.text, new.scope); END",
            "INSERT INTO items_fts(items_fts) VALUES ('rebuild')",
        ],
    ),
    (
        "keyword index of our own (engram.store.keyword): per-subject BM25 statistics and postings",
        [
            # Replaces FTS5, whose BM25 spans every subject and scores every matching row. The new
            # tables are filled from the items right after migrating (keyword.ensure).
            "DROP TRIGGER items_ai",
            "DROP TRIGGER items_ad",
            "DROP TRIGGER items_au",
            "DROP TABLE items_fts",
            "CREATE TABLE keyword_subjects (subject TEXT PRIMARY KEY, docs INTEGER NOT NULL,"
            " length INTEGER NOT NULL, pending INTEGER NOT NULL)",
            "CREATE TABLE keyword_pending (subject TEXT NOT NULL, term TEXT NOT NULL, key INTEGER NOT NULL,"
            " tf INTEGER NOT NULL, dl INTEGER NOT NULL, PRIMARY KEY (subject, term, key)) WITHOUT ROWID",
            "CREATE TABLE keyword_postings (subject TEXT NOT NULL, term TEXT NOT NULL, segment INTEGER NOT NULL,"
            " level INTEGER NOT NULL, docs INTEGER NOT NULL, data BLOB NOT NULL)",
            "CREATE UNIQUE INDEX keyword_postings_term ON keyword_postings(subject, term, level, segment)",
        ],
    ),
    (
        "vectors of a reindex in progress, kept apart until they cover the store",
        [
            # `engram reindex` writes the new model's vectors here; the store's own vectors stay
            # searchable until one transaction swaps them in (engram.core.reindex).
            "CREATE TABLE staged_vectors (item_rowid INTEGER PRIMARY KEY REFERENCES items(rowid) ON DELETE CASCADE,"
            " subject TEXT NOT NULL, model TEXT NOT NULL, vec BLOB NOT NULL)",
        ],
    ),
]


def scope_token(subject: str) -> str:
    """The keyword-index token of a subject: letters and digits only, unique per subject."""
    import hashlib

    return "s" + hashlib.blake2b(subject.encode("utf-8"), digest_size=10).hexdigest()


def _engram_tables(store: "SQLiteStore") -> bool:
    """True for an Engram store (or an empty file); NotAStore for another program's database."""
    tables = {row[0] for row in store.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and "migrations" not in tables:
        raise NotAStore(f"{store.path} is a SQLite database but not an Engram store (its tables: "
                        f"{', '.join(sorted(tables)[:5])}): left as it was; give --db an Engram store or a new file")
    return bool(tables)


def check(store: "SQLiteStore") -> int:
    """For a read-only store: the schema must be this code's, since it cannot be upgraded."""
    if not _engram_tables(store):
        raise NotAStore(f"{store.path} is empty, not an Engram store: nothing to read")
    current = store.query("SELECT max(version) FROM migrations")[0][0] or 0
    check_version(current, len(MIGRATIONS), where=store.path, upgrade="pip install -U engramdb",
                  reopen="open it once where it can be written, to upgrade it")
    return current


def check_version(current: int, known: int, *, where: str, upgrade: str, reopen: str | None = None) -> None:
    """The one schema-version check: SchemaTooNew when the store is newer than this code; for a
    store opened read-only (`reopen` says how to upgrade it), ReadOnlyStore when it is older."""
    if current > known:
        raise SchemaTooNew(f"{where} has schema version {current}, but this Engram knows only {known}:"
                           f" upgrade with `{upgrade}`")
    if reopen is not None and current < known:
        raise ReadOnlyStore(f"{where} has schema version {current}; this Engram reads version {known}: {reopen}")


def run(execute: Callable[..., Any], steps: Sequence[Step], *, where: str, upgrade: str, ph: str,
        create_table: bool = True) -> int:
    """Apply the steps the database has not recorded yet, in order; return the schema version.

    `execute(sql, params=())` runs one statement on the caller's open transaction and returns a
    cursor; `ph` is the backend's parameter mark; `where` and `upgrade` go into SchemaTooNew.
    """
    if create_table:  # False when the caller knows it exists (CREATE ... IF NOT EXISTS needs CREATE rights)
        execute("CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at DOUBLE PRECISION NOT NULL)")
    current = int(execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0])
    check_version(current, len(steps), where=where, upgrade=upgrade)
    for version in range(current + 1, len(steps) + 1):
        name, statements = steps[version - 1]
        for statement in statements:
            execute(statement)
        execute(f"INSERT INTO migrations (version, name, applied_at) VALUES ({ph}, {ph}, {ph})",
                (version, name, time.time()))
    return len(steps)


def apply(store: SQLiteStore) -> int:
    """Bring a SQLite database up to date in one transaction; return the schema version."""
    _engram_tables(store)
    with store.transaction() as db:  # BEGIN IMMEDIATE: two processes opening a new file take turns
        return run(db.execute, MIGRATIONS, where=store.path, upgrade="pip install -U engramdb", ph="?")
