"""Damaged files and full disks: clear errors naming the file and the fix; nothing stored is lost."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import engram.interfaces.cli
from engram.embed.hashing import HashingEmbedder
from engram.errors import StoreCorrupt, StoreError, StoreFull
from engram.core.memory import Memory

PAGE = 4096


def open_mem(path: Path) -> Memory:
    return Memory(str(path), embedder=HashingEmbedder(64))


@pytest.fixture
def filled(tmp_path) -> Path:
    db = tmp_path / "m.db"
    with open_mem(db) as mem:
        mem.remember_many("user:1", [f"Fact number {i} with enough padding to fill a few pages." for i in range(400)])
    return db


def damage(db: Path, how: str) -> None:
    size = db.stat().st_size
    if how == "truncated-half":
        os.truncate(db, size // 2)
    elif how == "truncated-header":
        os.truncate(db, 50)
    elif how == "garbage":
        db.write_bytes(os.urandom(size))
    elif how == "second-half-garbage":  # header and schema intact: found only when pages are read
        with open(db, "r+b") as fh:
            for page in range(size // PAGE // 2, size // PAGE):
                fh.seek(page * PAGE)
                fh.write(os.urandom(PAGE))


def assert_names_file_and_fix(exc: BaseException, db: Path) -> None:
    assert str(db) in str(exc)
    assert ".recover" in str(exc) and "backup" in str(exc)


@pytest.mark.parametrize("how", ["truncated-half", "truncated-header", "garbage", "second-half-garbage"])
def test_damaged_file_gives_store_corrupt_naming_file_and_recovery(filled, how):
    damage(filled, how)
    with pytest.raises(StoreCorrupt) as caught:
        with open_mem(filled) as mem:  # damage may be found on open or on the first full read
            mem.items("user:1")
            mem.recall("user:1", "fact number 5")
    assert_names_file_and_fix(caught.value, filled)


def test_damage_found_only_at_read_time_is_translated(filled):
    mem = open_mem(filled)  # opened while the file was sound
    damage(filled, "second-half-garbage")
    for call in (lambda: mem.items("user:1"), lambda: mem.recall("user:1", "fact number 7"),
                 lambda: mem.remember("user:1", "A new fact written to a damaged file.")):
        with pytest.raises(StoreCorrupt) as caught:
            call()
        assert_names_file_and_fix(caught.value, filled)
    mem.close()


def test_cli_reports_damage_in_one_line(filled):
    damage(filled, "garbage")
    result = CliRunner().invoke(engram.interfaces.cli.main, ["--db", str(filled), "--embedder", "hashing:64", "list", "user:1"])
    assert result.exit_code == 1
    assert "is damaged" in result.output and ".recover" in result.output and "Traceback" not in result.output


def test_size_limit_reached_raises_store_full_and_keeps_everything(tmp_path):
    db = tmp_path / "full.db"
    mem = open_mem(db)
    kept = [mem.remember("user:1", f"Stored before the limit, fact {i}.").id for i in range(20)]
    pages = mem.store.query("PRAGMA page_count")[0][0]
    mem.store.query(f"PRAGMA max_page_count = {pages + 3}")  # this connection may not grow past it
    with pytest.raises(StoreFull) as caught:
        for i in range(10_000):
            kept.append(mem.remember("user:1", f"After the limit, fact {i} with padding {'x' * 200}.").id)
    assert str(db) in str(caught.value)
    assert len(mem.store.get(kept)) == len(kept)
    mem.close()
    with open_mem(db) as again:
        assert {it.id for it in again.items("user:1")} == set(kept)


def _write_until_limit(db: Path, limit: int, out: int) -> None:
    """Child: a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) stands in for a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    report: dict = {"acked": [], "error": None}
    try:
        mem = open_mem(db)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        for i in range(100_000):
            report["acked"].append(mem.remember("user:1", f"Written under a size limit, fact {i}, padded {'y' * 100}.").id)
    except StoreError as exc:
        report["error"] = [type(exc).__name__, str(exc)]
    except BaseException as exc:  # noqa: BLE001 - anything else is a failure the parent reports
        report["error"] = ["unexpected " + type(exc).__name__, str(exc)]
    os.write(out, json.dumps(report).encode())


def test_file_size_limit_in_a_child_loses_nothing_and_reports_failure(tmp_path):
    db = tmp_path / "limit.db"
    with open_mem(db) as mem:
        before = [mem.remember("user:1", f"Stored before the limit, fact {i}.").id for i in range(30)]
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            _write_until_limit(db, db.stat().st_size + 150_000, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    data = b""
    while chunk := os.read(read_end, 1 << 16):
        data += chunk
    os.close(read_end)
    os.waitpid(pid, 0)
    report = json.loads(data)
    assert report["error"] is not None and report["error"][0] == "StoreFull", report["error"]
    assert str(db) in report["error"][1]
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    with open_mem(db) as mem:
        stored = {it.id for it in mem.items("user:1")}
    assert set(before) | set(report["acked"]) == stored  # every acknowledged write, and no half write


def test_backup_restores_after_damage(filled, tmp_path):
    from engram.core.portable import backup

    with open_mem(filled) as mem:
        copy = backup(mem, tmp_path / "copy.db")
    damage(filled, "garbage")
    shutil.copy(copy, filled)
    with open_mem(filled) as mem:
        assert len(mem.items("user:1")) == 400
