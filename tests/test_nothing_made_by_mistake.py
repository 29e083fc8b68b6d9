"""Wrong paths never look like success: read commands on a missing store fail (exit 1) and create
nothing, `migrate` from a missing source fails and creates neither store, and a command that
fails (an unknown embedder) leaves no new file behind. Real CLI processes in an empty folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parent.parent / "src")


def _engram(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    env.pop("ENGRAM_DB", None)
    return subprocess.run([sys.executable, "-m", "engram.interfaces.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", [["recall", "user:1", "anything"], ["list", "user:1"], ["stats"],
                                     ["export", "-o", "out.jsonl"], ["audit", "user:1", "x"],
                                     ["forget", "user:1", "x", "--yes"]])
def test_a_read_command_on_a_missing_store_fails_and_creates_nothing(tmp_path: Path, command: list[str]) -> None:
    done = _engram(tmp_path, "--db", "typo.db", "--embedder", "hashing:64", *command)
    assert done.returncode == 1, done.stdout
    assert done.stderr.startswith("error: no store at typo.db") and len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_migrate_from_a_missing_source_fails_and_creates_neither_store(tmp_path: Path) -> None:
    done = _engram(tmp_path, "migrate", "nonexist.db", "new.db")
    assert done.returncode == 1 and "no store at nonexist.db" in done.stderr and "checksum" not in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_command_that_fails_on_a_bogus_embedder_leaves_no_new_file(tmp_path: Path) -> None:
    done = _engram(tmp_path, "--db", "new.db", "--embedder", "bogus", "remember", "user:1", "Hello there.")
    assert done.returncode == 1 and "bogus" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_write_still_creates_a_new_store(tmp_path: Path) -> None:
    done = _engram(tmp_path, "--db", "new.db", "--embedder", "hashing:64", "remember", "user:1", "Hello there.")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "new.db").exists()
    assert _engram(tmp_path, "--db", "new.db", "--embedder", "hashing:64", "list", "user:1").returncode == 0
