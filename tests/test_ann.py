"""The ANN index (engram.core.ann): search against the exact scan, forgetting, the file format, errors.

Real Voyager indexes and real files; the recall test embeds real sentences with the bundled
MiniLM model. No timing assertions (timings live in `engram.bench.ann`).
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from engram.core.ann import MAGIC, AnnIndex, delete_files, digest, payloads, read_header
from engram.errors import EmbedderMismatch, InvalidInput, MissingDependency, NotFound, SchemaTooNew, StoreCorrupt

MODEL = "test-model:64"
DIM = 64


def unit(n: int, dim: int = DIM, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def exact_top(matrix: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    return np.argsort(-(matrix @ query))[:k].tolist()


def header(path: Path) -> tuple[dict, int, bytes]:
    """The JSON header of a saved index, where it ends, and the whole header file."""
    data = path.read_bytes()
    size = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])[0]
    return json.loads(data[len(MAGIC) + 4 : len(MAGIC) + 4 + size]), len(MAGIC) + 4 + size, data


def rewrite_header(path: Path, head: dict) -> None:
    """Write `head` into a header file with a valid checksum (to test what load does with it)."""
    _, end, data = header(path)
    body = json.dumps(head).encode()
    data = MAGIC + struct.pack(">I", len(body)) + body + data[end:-32]
    path.write_bytes(data + hashlib.sha256(data).digest())


def in_file(path: Path, vector: np.ndarray) -> bool:
    """Whether any run of 4 consecutive floats of `vector` is in the index's files (header and
    every payload; not only the whole vector)."""
    raw = vector.astype(np.float32).tobytes()
    for file in [path, *payloads(path)]:
        data = file.read_bytes()
        if any(raw[i : i + 16] in data for i in range(0, len(raw) - 15, 4)):
            return True
    return False


@pytest.fixture
def vectors() -> np.ndarray:
    return unit(1500)


@pytest.fixture
def index(vectors: np.ndarray) -> AnnIndex:
    ix = AnnIndex(MODEL, DIM)
    ix.add(np.arange(len(vectors)), vectors)
    return ix


def test_search_finds_the_stored_vector_and_exact_cosines(index: AnnIndex, vectors: np.ndarray) -> None:
    keys, cosines = index.search(vectors[42], 5)
    assert keys[0] == 42 and cosines[0] == pytest.approx(1.0, abs=1e-5)
    assert list(cosines) == sorted(cosines, reverse=True)
    assert np.allclose(cosines, vectors[keys] @ vectors[42], atol=1e-5)


def test_recall_at_10_against_exact_on_random_vectors(index: AnnIndex, vectors: np.ndarray) -> None:
    queries = unit(50, seed=1)
    hits = sum(len(set(index.search(q, 10, ef=200)[0].tolist()) & set(exact_top(vectors, q, 10))) for q in queries)
    assert hits / 500 >= 0.95


def test_recall_at_10_against_exact_on_real_minilm_vectors() -> None:
    from engram.bench.latency import QUESTIONS, sentences
    from engram.embed import get_embedder

    embedder = get_embedder("minilm")
    matrix = np.asarray(embedder.embed(sentences(600, seed=5)), dtype=np.float32)
    queries = np.asarray(embedder.embed(QUESTIONS), dtype=np.float32)
    ix = AnnIndex(embedder.identity, matrix.shape[1])
    ix.add(np.arange(len(matrix)), matrix)
    hits = sum(len(set(ix.search(q, 10)[0].tolist()) & set(exact_top(matrix, q, 10))) for q in queries)
    assert hits / (10 * len(queries)) >= 0.95


def test_search_caps_n_at_the_live_count() -> None:
    ix = AnnIndex(MODEL, DIM)
    assert [len(a) for a in ix.search(unit(1)[0], 5)] == [0, 0]
    ix.add([7, 9], unit(2))
    ix.remove([9])
    keys, _ = ix.search(unit(1, seed=3)[0], 10)
    assert keys.tolist() == [7]


def test_remove_hides_the_key_and_overwrites_its_vector(index: AnnIndex, vectors: np.ndarray, tmp_path: Path) -> None:
    path = tmp_path / "s.ann"
    index.save(path)
    assert in_file(path, vectors[42])  # the check below can fail: the bytes are there before
    assert index.remove([42, 42, 10_000]) == 1
    assert 42 not in index and len(index) == len(vectors) - 1 and index.tombstones == 1
    assert 42 not in index.search(vectors[42], 50, ef=400)[0].tolist()
    assert 42 not in index.keys().tolist()
    index.save(path)
    assert not in_file(path, vectors[42])
    assert in_file(path, vectors[43])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.ann", read_header(path)[0]["payload"]]  # old payload gone


def test_save_writes_a_header_and_one_payload(index: AnnIndex, tmp_path: Path) -> None:
    path = tmp_path / "s.ann"
    index.save(path)
    first = payloads(path)
    index.save(path)
    assert len(first) == 1 and len(payloads(path)) == 1 and payloads(path) != first
    head, keys, digests, tombs = read_header(path)
    assert np.array_equal(digests, index.digests()[1])
    assert head["payload"] == payloads(path)[0].name and head["payload_bytes"] == payloads(path)[0].stat().st_size
    assert keys.tolist() == list(range(1500)) and not len(tombs)
    assert delete_files(path) == 2 and not list(tmp_path.iterdir())


def test_digests_follow_each_key_s_latest_vector(index: AnnIndex, vectors: np.ndarray, tmp_path: Path) -> None:
    keys, digests = index.digests()
    assert keys.tolist() == list(range(1500)) and np.array_equal(digests, digest(vectors))
    index.add([8], vectors[9:10])
    index.remove([3])
    keys, digests = index.digests()
    assert 3 not in keys.tolist() and digests[keys.tolist().index(8)] == digest(vectors[9:10])[0]
    index.save(tmp_path / "s.ann")
    loaded = AnnIndex.load(tmp_path / "s.ann", model=MODEL, dim=DIM)
    assert all(np.array_equal(a, b) for a, b in zip(loaded.digests(), index.digests()))


def test_digest_is_exact_and_sees_any_change(vectors: np.ndarray) -> None:
    assert np.array_equal(digest(vectors[:10]), digest(vectors[:10].copy()))
    changed = vectors[:10].copy()
    changed[4, 17] = np.nextafter(changed[4, 17], np.float32(2))  # the smallest change a float allows
    assert (digest(changed) != digest(vectors[:10])).tolist() == [i == 4 for i in range(10)]
    odd = unit(3, dim=7)
    assert digest(odd).shape == (3,) and len(set(digest(odd).tolist())) == 3


def test_remove_survives_save_and_load(index: AnnIndex, vectors: np.ndarray, tmp_path: Path) -> None:
    index.remove([5, 6])
    index.stamp = "version 7"
    index.save(tmp_path / "s.ann")
    loaded = AnnIndex.load(tmp_path / "s.ann", model=MODEL, dim=DIM)
    assert len(loaded) == len(index) and loaded.tombstones == 2 and 5 not in loaded
    assert loaded.stamp == "version 7"
    assert 5 not in loaded.search(vectors[5], 20)[0].tolist()
    q = unit(1, seed=9)[0]
    assert loaded.search(q, 10, ef=300)[0].tolist() == index.search(q, 10, ef=300)[0].tolist()


def test_add_again_replaces_and_revives(index: AnnIndex, vectors: np.ndarray) -> None:
    index.remove([3])
    index.add([3], vectors[4:5])
    assert 3 in index and index.tombstones == 0
    index.add([8], vectors[9:10])  # replacing a live key
    assert len(index) == len(vectors)
    assert set(index.search(vectors[9], 2)[0].tolist()) == {8, 9}


def test_vectors_returns_stored_rows_and_refuses_removed_keys(index: AnnIndex, vectors: np.ndarray) -> None:
    assert np.array_equal(index.vectors([9, 2]), vectors[[9, 2]])
    index.remove([2])
    with pytest.raises(NotFound, match=r"\[2\]"):
        index.vectors([9, 2])


def test_header_counts_live_keys_and_tombstones(index: AnnIndex, vectors: np.ndarray, tmp_path: Path) -> None:
    index.remove(list(range(100)))
    index.save(tmp_path / "c.ann")
    head, keys, _, tombs = read_header(tmp_path / "c.ann")
    assert head["tombstones"] == 100 == len(tombs) and head["live"] == len(vectors) - 100 == len(keys)
    assert tombs.tolist() == list(range(100)) and not set(keys.tolist()) & set(range(100))


def test_bad_inputs_are_invalid_input(index: AnnIndex) -> None:
    with pytest.raises(InvalidInput, match="dimension 64"):
        index.add([1], unit(1, dim=32))
    with pytest.raises(InvalidInput, match="non-negative"):
        index.add([-1], unit(1))
    with pytest.raises(InvalidInput, match="distinct"):
        index.add([1, 1], unit(2))
    with pytest.raises(InvalidInput, match="finite"):
        index.add([1], np.full((1, DIM), np.nan, dtype=np.float32))
    with pytest.raises(InvalidInput, match="n must be"):
        index.search(unit(1)[0], 0)


@pytest.fixture
def saved(index: AnnIndex, tmp_path: Path) -> Path:
    path = tmp_path / "s.ann"
    index.save(path)
    return path


def test_load_rejects_another_model_or_dimension(saved: Path) -> None:
    with pytest.raises(EmbedderMismatch, match="test-model:64"):
        AnnIndex.load(saved, model="other:64", dim=DIM)
    with pytest.raises(EmbedderMismatch, match="dimension 384"):
        AnnIndex.load(saved, model=MODEL, dim=384)


@pytest.mark.parametrize("part", ["header", "payload"])
@pytest.mark.parametrize("damage", ["flip", "truncate", "append", "magic", "json"])
def test_load_rejects_a_damaged_file(saved: Path, part: str, damage: str) -> None:
    file = saved if part == "header" else payloads(saved)[0]
    data = bytearray(file.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "truncate":
        data = data[: len(data) - 1000]
    elif damage == "append":
        data += b"\0" * 16
    elif damage == "magic":
        data[:4] = b"JUNK"
    else:
        data[len(MAGIC) + 5] = ord("#")
    file.write_bytes(bytes(data))
    with pytest.raises(StoreCorrupt, match="delete it; it is rebuilt from the database"):
        AnnIndex.load(saved, model=MODEL, dim=DIM)


@pytest.mark.parametrize("change", ["missing payload", "foreign payload", "live count", "key tables"])
def test_load_rejects_a_header_that_does_not_describe_its_payload(saved: Path, change: str) -> None:
    head = header(saved)[0]
    if change == "missing payload":
        payloads(saved)[0].unlink()
    elif change == "foreign payload":
        rewrite_header(saved, {**head, "payload": "../elsewhere.voy"})
    elif change == "live count":
        rewrite_header(saved, {**head, "live": head["live"] - 1, "tombstones": 2})  # same table size
    else:
        rewrite_header(saved, {**head, "live": head["live"] + 1})
    with pytest.raises(StoreCorrupt, match="delete it"):
        AnnIndex.load(saved, model=MODEL, dim=DIM)


def test_load_rejects_a_newer_format(saved: Path) -> None:
    rewrite_header(saved, {**header(saved)[0], "format": 99})
    with pytest.raises(SchemaTooNew, match="format 99"):
        AnnIndex.load(saved, model=MODEL, dim=DIM)


def test_load_of_a_missing_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="no ANN index"):
        AnnIndex.load(tmp_path / "none.ann", model=MODEL, dim=DIM)


def test_missing_library_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "voyager", None)
    with pytest.raises(MissingDependency, match=r"pip install 'engramdb\[ann\]'"):
        AnnIndex(MODEL, DIM)


def test_bench_run_reports_every_size_and_ef(tmp_path: Path) -> None:
    from engram.bench.ann import run

    seen: list[int] = []
    result = run((600, 300), data="random", queries=5, ef=(16, 64), folder=tmp_path,
                 progress=lambda row: seen.append(row["n"]))
    json.dumps(result)
    assert [row["n"] for row in result["rows"]] == seen == [300, 600]
    for row in result["rows"]:
        assert set(row["ann"]) == {"16", "64"} and row["file_mb"] > 0
        assert all(0.0 <= stats["recall"] <= 1.0 for stats in row["ann"].values())
    assert row["ann"]["64"]["recall"] >= 0.8
    assert set(result["crossover"]) == {"wall", "cpu"}
