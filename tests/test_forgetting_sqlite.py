"""Forgetting on SQLite reaches the bytes: no copy in the database file or its WAL."""

from __future__ import annotations

import uuid
from pathlib import Path

from engram.embed.hashing import HashingEmbedder
from engram.core.memory import Memory


def raw_bytes(db: Path) -> bytes:
    data = b""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path = Path(str(db) + suffix)
        if path.exists():
            data += path.read_bytes()
    return data


def test_forgotten_marker_is_gone_from_every_file(tmp_path):
    db = tmp_path / "m.db"
    marker = "zq" + uuid.uuid4().hex[:12]
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        for i in range(50):
            mem.remember("user:1", f"Filler fact number {i} about ordinary things.")
        mem.remember("user:1", f"The vault codename is {marker} for this team.")
        mem.log_episode("user:1", f"Told the user about {marker}", "ok")
        mem.close()
    assert marker.encode() in raw_bytes(db)  # the scan can see it while stored
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        assert mem.forget("user:1", marker) == 2
        assert len(mem.items("user:1")) == 50
    assert marker.encode() not in raw_bytes(db)
    assert marker.upper().encode() not in raw_bytes(db)


def test_forget_all_leaves_no_trace(tmp_path):
    db = tmp_path / "m.db"
    marker = "zq" + uuid.uuid4().hex[:12]
    with Memory(str(db), embedder=HashingEmbedder(64)) as mem:
        mem.remember("user:9", f"Private note {marker} about the user.")
        mem.set_preference("user:9", "nickname", marker)
        mem.remember("user:1", "Another user's fact stays put.")
        assert mem.forget_all("user:9") == 2
        assert [it.text for it in mem.items("user:1")] == ["Another user's fact stays put."]
    assert marker.encode() not in raw_bytes(db)
