"""Forget keeps its word while another process reads: it says how many copies of the forgotten
text remain in the SQLite write-ahead log and until when, `engram audit` agrees, and the copies
are gone once the reader ends and the next command closes the store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder

SRC = str(Path(__file__).resolve().parent.parent / "src")
U = "user:42"
SECRET = "Zephyrquokka moved to Porto last spring."

READER = textwrap.dedent("""
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN")
    db.execute("SELECT count(*) FROM items").fetchall()  # a read transaction on the snapshot with the text
    print("reading", flush=True)
    sys.stdin.read()  # held until the test closes our stdin
    db.execute("COMMIT")
""")


def _engram(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "engram.interfaces.cli", "--db", db, "--embedder", "hashing:64",
                           *args], capture_output=True, text=True, env=env, timeout=120)


def _file_copies(db: str) -> int:
    audit = _engram(db, "audit", U, "Zephyrquokka", "--json")
    assert audit.returncode in (0, 1), audit.stderr
    report = json.loads(audit.stdout)
    places = [p for p in json.dumps(report).split('"') if p.startswith("file:")]
    return sum(int(p.split("(")[1].split()[0]) for p in places)


@pytest.mark.slow  # several processes on one file, like tests/test_shared_stress.py (~30 s here)
def test_forget_with_a_reader_in_another_process_says_what_remains_and_audit_agrees(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    with Memory(db, embedder=HashingEmbedder(64)) as mem:
        mem.remember(U, SECRET)
        mem.remember(U, "Prefers tea over coffee.")
    reader = subprocess.Popen([sys.executable, "-c", READER, db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert reader.stdout is not None and reader.stdout.readline().strip() == "reading"
        done = _engram(db, "forget", U, "Zephyrquokka", "--yes", "--json")
        assert done.returncode == 0, done.stderr
        said = json.loads(done.stdout)
        assert said["forgotten"] == 1
        remaining = said["remaining"]
        assert remaining["copies"] >= 1 and db in remaining["where"]
        assert "read transaction ends" in remaining["until"]
        # audit agrees that copies remain while the reader holds on (their number can move as the
        # forgetting process's own close checkpoints what the reader no longer needs)
        assert _file_copies(db) >= 1
        plain = _engram(db, "forget", U, "tea over coffee", "--yes")
        assert plain.returncode == 0 and "remain in" in plain.stdout and "read transaction" in plain.stdout
    finally:
        assert reader.stdin is not None
        reader.stdin.close()
        reader.wait(30)
    assert _engram(db, "list", U).returncode == 0  # any command scrubs the log when it closes
    assert _file_copies(db) == 0
    assert b"ephyrquokka" not in Path(db).read_bytes()


def test_forget_without_readers_reports_nothing_left(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    with Memory(db, embedder=HashingEmbedder(64)) as mem:
        mem.remember(U, SECRET)
    done = _engram(db, "forget", U, "Zephyrquokka", "--yes", "--json")
    assert json.loads(done.stdout) == {"forgotten": 1}
