"""Files as a new user meets them: a failed command leaves no new file, a missing folder is named,
a text file is not an Engram store, and another embedder still lists, forgets, exports and counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engram.core.memory import Memory
from engram.embed.hashing import HashingEmbedder
from engram.errors import EmbedderMismatch, NotAStore, StoreCorrupt, StoreUnavailable
from engram.interfaces.cli import main
from engram.store import open_store

U = "user:1"


def _cli(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, list(args))
    return out.exit_code, out.output


# -- 5: no file from a failed command; a missing folder is an error ----------------------------
def test_a_failed_import_leaves_no_new_file(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    code, out = _cli("--db", str(db), "--embedder", "hashing:256", "import", str(tmp_path / "missing.jsonl"))
    assert code == 1 and "missing.jsonl" in out
    assert not any(tmp_path.glob("x.db*"))


@pytest.mark.parametrize("command", [["remember", "not a subject", "Uses Postgres for billing."],
                                     ["recall", U, ""], ["forget", U, "   "]])
def test_a_command_refused_for_bad_input_leaves_no_new_file(tmp_path: Path, command: list[str]) -> None:
    code, out = _cli("--db", str(tmp_path / "x.db"), "--embedder", "hashing:256", *command)
    assert code == 1 and out.startswith("error: ")
    assert not any(tmp_path.glob("x.db*"))


def test_a_failed_command_keeps_an_existing_store(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    with Memory(str(db), embedder=HashingEmbedder(256)) as mem:
        mem.remember(U, "Uses Postgres for the billing service.")
    code, _ = _cli("--db", str(db), "--embedder", "hashing:256", "import", str(tmp_path / "missing.jsonl"))
    assert code == 1 and db.exists()
    with Memory(str(db), embedder=HashingEmbedder(256)) as mem:
        assert len(mem.items(U)) == 1


def test_a_missing_parent_folder_is_named_and_not_created(tmp_path: Path) -> None:
    db = tmp_path / "nonexistent" / "dir" / "x.db"
    code, out = _cli("--db", str(db), "--embedder", "hashing:256", "remember", U, "Uses Postgres for billing.")
    assert code == 1 and f"folder {db.parent} does not exist" in out
    assert not (tmp_path / "nonexistent").exists()
    with pytest.raises(StoreUnavailable, match="does not exist"):
        Memory(str(db), embedder=HashingEmbedder(256))
    assert not (tmp_path / "nonexistent").exists()


def test_the_default_data_folder_is_created(tmp_path: Path) -> None:
    code, out = _cli("--embedder", "hashing:256", "remember", U, "Uses Postgres for the billing service.")
    assert code == 0, out
    assert (tmp_path / "xdg" / "engram" / "memory.db").exists()  # XDG_DATA_HOME is tmp_path/xdg (conftest)


# -- 6: a text file is not a store ---------------------------------------------------------------
@pytest.mark.parametrize("content", ["hello, these are my notes\nline two\n", '{"type": "item"}\n', "ünïcode ✓ notes\n"])
def test_a_text_file_is_not_an_engram_store_and_is_left_alone(tmp_path: Path, content: str) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(NotAStore, match="not an Engram store") as caught:
        open_store(str(path))
    assert ".recover" not in str(caught.value) and not isinstance(caught.value, StoreCorrupt)
    code, out = _cli("--db", str(path), "--embedder", "hashing:256", "list", U)
    assert code == 1 and "not an Engram store" in out and "damaged" not in out
    assert path.read_text(encoding="utf-8") == content
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "xdg") == ["notes.txt"]


def test_another_programs_sqlite_database_is_not_an_engram_store(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "app.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)")
    before = path.read_bytes()
    with pytest.raises(NotAStore, match="orders"):
        open_store(str(path))
    assert path.read_bytes() == before


# -- 7: another embedder ---------------------------------------------------------------------------
@pytest.fixture
def hashed(tmp_path: Path) -> str:
    db = str(tmp_path / "h.db")
    with Memory(db, embedder=HashingEmbedder(256)) as mem:
        mem.remember(U, "Uses Postgres for the billing service.")
        mem.remember(U, "Deploys to AWS Lambda every Friday.")
    return db


def test_commands_that_need_no_vectors_work_with_another_embedder(hashed: str, tmp_path: Path) -> None:
    other = ["--db", hashed, "--embedder", "hashing:128"]
    code, out = _cli(*other, "list", U, "--json")
    assert code == 0 and len(json.loads(out)) == 2
    code, out = _cli(*other, "stats", "--json")
    assert code == 0 and json.loads(out)["items"] == 2 and json.loads(out)["embedder"] == "hashing:256"
    code, out = _cli(*other, "export", "-o", str(tmp_path / "e.jsonl"), "--json")
    assert code == 0 and json.loads(out)["items"] == 2
    code, out = _cli(*other, "audit", U, "Postgres", "--json")
    assert code == 0 and json.loads(out)["found"] > 0
    code, out = _cli(*other, "forget", U, "Lambda", "--yes", "--json")
    assert code == 0 and json.loads(out) == {"forgotten": 1}


@pytest.mark.parametrize("command", [["recall", U, "database"], ["remember", U, "Uses Redis for caching."],
                                     ["consolidate", U]])
def test_commands_that_need_vectors_name_the_model_and_the_flag(hashed: str, command: list[str]) -> None:
    code, out = _cli("--db", hashed, "--embedder", "hashing:128", *command)
    assert code == 1
    assert "hashing:256" in out and "`--embedder hashing:256`" in out and "reindex" in out


def test_the_python_api_raises_only_when_vectors_are_needed(hashed: str) -> None:
    with Memory(hashed, embedder=HashingEmbedder(64)) as mem:
        assert len(mem.items(U)) == 2
        with pytest.raises(EmbedderMismatch, match=r"embedder='hashing:256'"):
            mem.recall(U, "database")
        with pytest.raises(EmbedderMismatch):
            mem.remember(U, "Uses Redis for caching.")
        assert len(mem.items(U)) == 2


def test_the_flag_named_rebuilds_the_recorded_model() -> None:
    from engram.embed import get_embedder, spec_for

    for identity in ("hashing:256", "hashing:64", "all-MiniLM-L6-v2:384"):
        assert spec_for(identity) in ("hashing:256", "hashing:64", "minilm")
    assert get_embedder(spec_for("hashing:64")).identity == "hashing:64"
    assert spec_for("all-MiniLM-L6-v2:384") == "minilm"
    assert spec_for("text-embedding-3-small:1536") == "openai:text-embedding-3-small"
