"""Export, import and backup round-trip a store exactly, across files and backends."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import engram.interfaces.cli
from engram.embed.hashing import HashingEmbedder
from engram.errors import InvalidInput
from engram.core.memory import Memory
from engram.core.portable import backup, export, import_
from engram.store.base import Filter
from engram.kinds.working import Conversation


def cli():
    if "export" not in engram.interfaces.cli.main.commands:
        from engram.interfaces.commands import portable

        portable.register(engram.interfaces.cli.main)
    return engram.interfaces.cli.main


def sqlite_memory_at(path: Path) -> Memory:
    return Memory(str(path), embedder=HashingEmbedder(256))


def fill(mem: Memory) -> None:
    """Every kind of item, history, metadata, access stats and two subjects."""
    mem.remember("user:1", "Team uses Postgres 16 for all services.", source="chat 1", now=1000.0,
                 event_at=900.0, importance=0.9, metadata={"tags": ["db"], "n": 1.5})
    mem.store_fact("user:1", "db_technology", "PostgreSQL", category="tech", now=1001.0)
    mem.store_fact("user:1", "db_technology", "CockroachDB", category="tech", now=1002.0)  # history
    mem.set_preference("user:1", "tone", "brief", now=1003.0)
    mem.log_episode("user:1", "Ran the migration", "it worked", session="s1", category="ops", now=1004.0)
    mem.log_episode("user:1", "Ran the migration", "it worked", session="s1", category="ops", now=1005.0)
    mem.remember("user:1", "To deploy: run make release, then tag.", kind="procedure", now=1006.0)
    mem.remember("user:1", "Ünïcode 🧠 fact with \"quotes\" and a tab-free line.", agent="planner", now=1007.0)
    chat = Conversation("You are helpful.", budget=2000)
    chat.add_user("hello\nthere")
    mem.save_conversation("user:1", "s1", chat, now=1008.0)
    mem.remember("user:2", "Another subject lives in Porto.", now=1009.0)
    mem.recall("user:1", "Postgres services", k=2, now=1010.0)  # access counts move


def snapshot(mem: Memory) -> dict:
    return {s: sorted(mem.store.find(s, Filter(include_superseded=True)), key=lambda it: it.id)
            for s in mem.subjects()}


def vectors_of(mem: Memory, subject: str) -> dict[str, np.ndarray]:
    ids, matrix = mem.store.vectors(subject, mem.embedder.identity)
    return {i: matrix[n] for n, i in enumerate(ids)}


@pytest.mark.parametrize("with_vectors", [False, True])
def test_sqlite_to_sqlite_round_trip_is_exact(tmp_path, with_vectors):
    src, dst = sqlite_memory_at(tmp_path / "a.db"), sqlite_memory_at(tmp_path / "b.db")
    fill(src)
    counts = export(src, tmp_path / "out.jsonl", vectors=with_vectors)
    assert counts["items"] == 10
    result = import_(dst, tmp_path / "out.jsonl")
    assert result["imported"] == 10 and result["embedded"] == (0 if with_vectors else 9)
    assert snapshot(dst) == snapshot(src)
    for subject in ("user:1", "user:2"):
        a, b = vectors_of(src, subject), vectors_of(dst, subject)
        assert a.keys() == b.keys()
        assert all(np.allclose(a[k], b[k], atol=1e-6) for k in a)
    current = dst.get_fact("user:1", "db_technology")
    assert [it.text for it in dst.history(current.id)] == ["db technology: PostgreSQL", "db technology: CockroachDB"]
    src.close()
    dst.close()


def test_round_trip_across_backends(memory, tmp_path):
    sqlite_side = sqlite_memory_at(tmp_path / "a.db")
    fill(sqlite_side)
    export(sqlite_side, tmp_path / "one.jsonl")
    import_(memory, tmp_path / "one.jsonl")  # SQLite -> this backend
    assert snapshot(memory) == snapshot(sqlite_side)
    export(memory, tmp_path / "two.jsonl", vectors=True)
    back = sqlite_memory_at(tmp_path / "c.db")
    import_(back, tmp_path / "two.jsonl")  # this backend -> SQLite
    assert snapshot(back) == snapshot(sqlite_side)
    assert vectors_of(back, "user:1").keys() == vectors_of(sqlite_side, "user:1").keys()
    sqlite_side.close()
    back.close()


def test_importing_twice_adds_nothing(memory, tmp_path):
    fill(memory)
    export(memory, tmp_path / "x.jsonl")
    before = snapshot(memory)
    again = import_(memory, tmp_path / "x.jsonl")
    assert again["imported"] == 0 and again["existing"] == 10
    assert snapshot(memory) == before


def test_export_of_chosen_subjects_only(memory, tmp_path):
    fill(memory)
    export(memory, tmp_path / "x.jsonl", subjects=["user:2"])
    lines = (tmp_path / "x.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["subjects"] == ["user:2"]
    assert {json.loads(line)["item"]["subject"] for line in lines[1:]} == {"user:2"}


def test_unknown_format_version_is_refused_and_nothing_imported(memory, tmp_path):
    path = tmp_path / "future.jsonl"
    path.write_text(json.dumps({"format": "engram-export", "version": 99}) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="version 99"):
        import_(memory, path)
    path.write_text('{"hello": "world"}\n', encoding="utf-8")
    with pytest.raises(InvalidInput, match="not an Engram export"):
        import_(memory, path)


def test_a_bad_line_names_itself_and_imports_nothing(memory, tmp_path):
    fill(memory)
    export(memory, tmp_path / "x.jsonl")
    lines = (tmp_path / "x.jsonl").read_text(encoding="utf-8").splitlines()
    target = sqlite_memory_at(tmp_path / "t.db")
    (tmp_path / "bad.jsonl").write_text("\n".join([*lines[:3], '{"type": "item", "item": {"id": 1}}']) + "\n",
                                        encoding="utf-8")
    with pytest.raises(InvalidInput, match="line 4"):
        import_(target, tmp_path / "bad.jsonl")
    assert target.subjects() == {}
    target.close()


def test_backup_copies_sqlite_online_and_never_overwrites(tmp_path):
    mem = sqlite_memory_at(tmp_path / "a.db")
    fill(mem)
    copy = backup(mem, tmp_path / "copy.db")
    with sqlite_memory_at(copy) as restored:
        assert snapshot(restored) == snapshot(mem)
    with pytest.raises(InvalidInput, match="already exists"):
        backup(mem, copy)
    mem.close()


def test_backup_of_postgres_points_to_pg_dump(memory, tmp_path, backend):
    if backend == "sqlite":
        assert backup(memory, tmp_path / "b.db").exists()
    else:
        with pytest.raises(InvalidInput, match="pg_dump"):
            backup(memory, tmp_path / "b.db")


def test_cli_export_import_backup(tmp_path):
    runner, main = CliRunner(), cli()
    src, dst, out = str(tmp_path / "a.db"), str(tmp_path / "b.db"), str(tmp_path / "o.jsonl")
    with sqlite_memory_at(Path(src)) as mem:
        fill(mem)
    opts = ["--embedder", "hashing:256"]
    result = runner.invoke(main, ["--db", src, *opts, "export", "--output", out, "--json"])
    assert json.loads(result.output)["items"] == 10
    result = runner.invoke(main, ["--db", dst, *opts, "import", out, "--json"])
    assert json.loads(result.output)["imported"] == 10
    result = runner.invoke(main, ["--db", dst, *opts, "import", out, "--json"])
    assert json.loads(result.output)["imported"] == 0
    result = runner.invoke(main, ["--db", dst, "backup", str(tmp_path / "bk.db"), "--json"])
    assert result.exit_code == 0 and Path(json.loads(result.output)["backup"]).exists()
    with sqlite_memory_at(Path(src)) as a, sqlite_memory_at(tmp_path / "bk.db") as b:
        assert snapshot(a) == snapshot(b)


def test_export_and_import_keep_grants_and_api_keys(tmp_path):
    from engram.safety.keys import KeyRing

    src, dst, path = str(tmp_path / "a.db"), str(tmp_path / "b.db"), tmp_path / "out.jsonl"
    with Memory(src, embedder=HashingEmbedder(64)) as mem:
        mem.remember("user:42", "Team uses Postgres 16 for all services.")
        mem.grant("user:42", "agent:planner", "read")
        token, _ = KeyRing(mem.store).create(["user:42"], name="ci")
        counts = export(mem, path)
        keys_before = mem.store.settings("apikey:")
    assert counts["settings"] == 2 and len(keys_before) == 1
    assert token not in path.read_text()  # only the hash travels
    with Memory(dst, embedder=HashingEmbedder(64)) as mem:
        report = import_(mem, path)
        assert report["imported"] == 1 and report["settings"] == 2
        assert mem.grants("user:42") == {"agent:planner": "read"}
        assert mem.store.settings("apikey:") == keys_before
        assert KeyRing(mem.store).authenticate(token).subjects == ("user:42",)  # the key works here too
        assert import_(mem, path)["settings"] == 0  # nothing twice
