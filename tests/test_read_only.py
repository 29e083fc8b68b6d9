"""Read-only stores: reads work, writes raise ReadOnlyStore, recall records no access counts.

Explicitly (`Memory(..., read_only=True)`, `engram --read-only`) on both backends, and
automatically when the SQLite file cannot be written. Tests run as root, which writes through
file modes, so the unwritable cases use a real read-only bind mount in a private mount
namespace (`unshare -m`, as root on any Linux machine) and run the real `engram` command there.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.errors import ReadOnlyStore
from engram.store.base import Filter

U = "user:1"
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _fill(url: str) -> str:
    with Memory(url, embedder=HashingEmbedder(256)) as mem:
        mem.remember(U, "The team stores everything in a Postgres database.")
        return mem.remember(U, "Deploys to AWS Lambda every Friday.").id  # type: ignore[return-value]


def test_read_only_memory_reads_and_refuses_writes(store_url: str) -> None:
    _fill(store_url)
    with Memory(store_url, embedder=HashingEmbedder(256), read_only=True) as mem:
        assert mem.read_only
        hits = mem.recall(U, "Which database?", k=1)
        assert hits and "Postgres" in hits[0].text
        assert len(mem.items(U)) == 2 and mem.stats(U)["items"] == 2
        for write in (lambda: mem.remember(U, "Uses MySQL for the billing service."),
                      lambda: mem.forget(U, "Postgres"),
                      lambda: mem.set_preference(U, "style", "terse")):
            with pytest.raises(ReadOnlyStore, match="read-only"):
                write()
    with Memory(store_url, embedder=HashingEmbedder(256)) as mem:
        every = mem.store.find(U, Filter(include_superseded=True))
        assert len(every) == 2 and all(it.access_count == 0 for it in every)  # no access recorded
        assert not mem.read_only


def test_a_read_only_open_of_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    from engram.errors import StoreUnavailable

    with pytest.raises(StoreUnavailable, match="no store there"):
        Memory(str(tmp_path / "absent.db"), embedder=HashingEmbedder(256), read_only=True)
    assert not any(tmp_path.glob("absent.db*"))


def _engram_in_namespace(mounts: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `engram ARGS` as root in a private mount namespace after `mounts` (shell commands)."""
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "engram.interfaces.cli", *args])
    return subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-ec", f"{mounts}\n{command}"],
        capture_output=True, text=True, env={"PYTHONPATH": SRC, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                                             "HOME": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"},
        timeout=120,
    )


@pytest.mark.parametrize("what", ["folder", "file"])
def test_an_unwritable_store_opens_read_only_by_itself(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "mem.db"
    _fill(str(db))
    before = db.read_bytes()
    target = shlex.quote(str(folder if what == "folder" else db))
    mounts = f"mount --bind {target} {target}\nmount -o remount,bind,ro {target}"
    base = ["--db", str(db), "--embedder", "hashing:256"]
    read = _engram_in_namespace(mounts, [*base, "recall", U, "database", "--json"])
    assert read.returncode == 0, read.stderr
    assert "Postgres" in json.loads(read.stdout)[0]["text"]
    write = _engram_in_namespace(mounts, [*base, "remember", U, "Uses MySQL for the billing service."])
    assert write.returncode == 1
    assert write.stderr.startswith("error: ") and "read-only" in write.stderr and "Traceback" not in write.stderr
    backup = tmp_path / "copy.db"
    copied = _engram_in_namespace(mounts, [*base, "backup", str(backup)])
    assert copied.returncode == 0, copied.stderr
    assert db.read_bytes() == before  # nothing changed, access counts included
    with Memory(str(backup), embedder=HashingEmbedder(256)) as mem:
        assert len(mem.items(U)) == 2


def test_cli_read_only_flag(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from engram.interfaces.cli import main

    db = str(tmp_path / "m.db")
    _fill(db)
    base = ["--db", db, "--embedder", "hashing:256", "--read-only"]
    assert CliRunner().invoke(main, [*base, "list", U]).exit_code == 0
    out = CliRunner().invoke(main, [*base, "remember", U, "Uses MySQL for the billing service."])
    assert out.exit_code == 1 and "read-only" in out.output


def test_a_log_that_cannot_be_applied_is_reported_not_ignored(tmp_path: Path) -> None:
    """A store copied with an unapplied write-ahead log (a crash) onto a read-only mount: reading
    it as immutable would hide the logged writes, so the open fails and says what to do."""
    import shutil

    live = tmp_path / "live"
    live.mkdir()
    mem = Memory(str(live / "mem.db"), embedder=HashingEmbedder(256))
    mem.remember(U, "The team stores everything in a Postgres database.")
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(live / "mem.db", folder / "mem.db")
    shutil.copy(live / "mem.db-wal", folder / "mem.db-wal")  # the write lives only in the log
    mem.close()
    assert (folder / "mem.db-wal").stat().st_size > 0
    target = shlex.quote(str(folder))
    out = _engram_in_namespace(f"mount --bind {target} {target}\nmount -o remount,bind,ro {target}",
                               ["--db", str(folder / "mem.db"), "--embedder", "hashing:256", "list", U])
    assert out.returncode == 1 and "write-ahead log" in out.stderr, out.stdout + out.stderr
