"""Schema migrations: recorded, idempotent, and a newer file is refused."""

from __future__ import annotations

import sqlite3

import pytest

from engram.errors import SchemaTooNew, StoreCorrupt, StoreUnavailable
from engram.store import migrations, open_store


def test_new_file_records_every_migration(tmp_path):
    path = tmp_path / "m.db"
    open_store(str(path)).close()
    rows = sqlite3.connect(path).execute("SELECT version FROM migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == list(range(1, len(migrations.MIGRATIONS) + 1))


def test_reopening_applies_nothing_twice(tmp_path):
    path = tmp_path / "m.db"
    for _ in range(3):
        open_store(str(path)).close()
    count = sqlite3.connect(path).execute("SELECT count(*) FROM migrations").fetchone()[0]
    assert count == len(migrations.MIGRATIONS)


def test_file_from_a_newer_engram_is_refused(tmp_path):
    path = tmp_path / "m.db"
    open_store(str(path)).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO migrations VALUES (999, 'from the future', 0)")
    db.commit()
    db.close()
    with pytest.raises(SchemaTooNew, match="pip install -U engramdb"):
        open_store(str(path))


def test_older_file_is_upgraded(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    extra = ("test: a later migration", ["CREATE TABLE later_table (x INTEGER)"])
    open_store(str(path)).close()
    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, extra])
    open_store(str(path)).close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT max(version) FROM migrations").fetchone()[0] == len(migrations.MIGRATIONS)
    assert db.execute("SELECT count(*) FROM later_table").fetchone()[0] == 0


def test_binary_garbage_is_reported_as_corrupt_with_recovery_hint(tmp_path):
    path = tmp_path / "m.db"
    path.write_bytes(b"\x00\x01this is not a database at all\xff" * 100)
    with pytest.raises(StoreCorrupt, match=r"\.recover"):
        open_store(str(path))


def test_missing_folder_is_unavailable(tmp_path):
    from engram.store.sqlite import SQLiteStore

    with pytest.raises(StoreUnavailable, match="does not exist"):
        SQLiteStore(str(tmp_path / "no" / "such" / "m.db"))


def test_a_version_one_file_with_data_upgrades_and_stays_searchable(tmp_path):
    """A file as the first release wrote it (migration 1 only) opens, upgrades and keeps working."""
    from engram.core.memory import Memory
    from engram.store.migrations import MIGRATIONS

    path = tmp_path / "v1.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    for statement in MIGRATIONS[0][1]:
        db.execute(statement)
    db.execute("INSERT INTO migrations VALUES (1, ?, 0)", (MIGRATIONS[0][0],))
    db.execute(
        "INSERT INTO items (id, subject, kind, text, created_at, event_at, valid_from, content_hash, dedupe)"
        " VALUES ('old1', 'user:1', 'fact', 'Team uses Postgres 16 for all services.', 1, 1, 1, 'h', 'fact:h')")
    db.commit()
    db.close()
    with Memory(str(path), embedder="none") as mem:
        assert [h.id for h in mem.recall("user:1", "postgres")] == ["old1"]
        mem.remember("user:2", "Postgres also appears for another subject.")
        assert [h.id for h in mem.recall("user:1", "postgres")] == ["old1"]
    versions = sqlite3.connect(path).execute("SELECT version FROM migrations ORDER BY version").fetchall()
    assert [v[0] for v in versions] == list(range(1, len(MIGRATIONS) + 1))
