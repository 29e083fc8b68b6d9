"""Recall past the ANN crossover (engram.core.vectors): same answers as the exact scan, writes picked
up, forgotten items never returned, filters fall back to the exact scan.

Real stores on both backends, real Voyager indexes and the bundled MiniLM model; the crossover
is lowered so a few hundred memories pass it. No timing assertions.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from engram.core import ann
from engram.core import vectors as nearest
from engram.core import earlier, recall, successors
from engram.core.audit import audit
from engram.bench.latency import QUESTIONS, sentences
from engram.core.memory import Memory
from engram.store.base import Filter, SearchesVectors

SUBJECT = "user:ann"
OTHER = "user:other"
CROSSOVER = 200


@pytest.fixture
def big(store_url: str, minilm, monkeypatch: pytest.MonkeyPatch):
    """A Memory whose subject holds 600 real embedded facts, past a crossover lowered to 200."""
    monkeypatch.setattr(ann, "EXACT_MAX_ITEMS", CROSSOVER)
    mem = Memory(store_url, embedder=minilm)
    mem.remember_many(SUBJECT, sentences(600, seed=11))
    yield mem
    mem.close()


def top(mem: Memory, query: str, *, exact: bool = False) -> list[str]:
    hits = recall.search(mem.store, mem.embedder, SUBJECT, query, 10, mem._filter(), mem.weights, time.time(),
                         exact_vectors=exact)
    return [h.id for h in hits]


def test_below_the_crossover_recall_scans_exactly(store_url: str, minilm) -> None:
    with Memory(store_url, embedder=minilm) as mem:
        mem.remember_many(SUBJECT, sentences(50, seed=2))
        ids, matrix = mem.store.vectors(SUBJECT, minilm.identity)
        got = nearest.scores(mem.store, SUBJECT, minilm.identity, ids, matrix, minilm.embed_one("team"), 20)
        assert isinstance(got, nearest.ExactScores)
        assert not nearest.prepare(mem.store, SUBJECT, minilm.identity)


def test_the_first_recall_past_the_crossover_does_not_wait_for_the_build(big: Memory) -> None:
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    vector = big.embedder.embed_one("Which database does the team use?")
    first = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, vector, 50)
    assert isinstance(first, nearest.ExactScores)  # the index builds in the background meanwhile
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    later = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, vector, 50)
    assert isinstance(later, nearest.ApproximateScores)
    assert set(later.nearest(10).tolist()) == set(first.nearest(10).tolist())


def test_ann_recall_gives_the_exact_top_10(big: Memory) -> None:
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    used = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, big.embedder.embed_one("team"), 200)
    assert isinstance(used, nearest.ApproximateScores)  # so the comparison below is ANN against exact
    overlap = []
    for question in QUESTIONS:
        approximate, exact = top(big, question), top(big, question, exact=True)
        overlap.append(len(set(approximate) & set(exact)) / len(exact))
    assert sum(overlap) / len(overlap) >= 0.95, overlap


def test_new_memories_reach_the_index(big: Memory) -> None:
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    saved = big.remember(SUBJECT, "The lighthouse keeper collects antique brass telescopes.")
    hits = big.recall(SUBJECT, "Who collects antique telescopes?", k=3)
    assert hits[0].id == saved.id
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    vector = big.embedder.embed_one("antique brass telescopes")
    scores = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix, vector, 5)
    assert isinstance(scores, nearest.ApproximateScores)
    assert ids[int(scores.nearest(1)[0])] == saved.id


def test_forgotten_memories_leave_the_index(big: Memory) -> None:
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    question = "Which database does the team use?"
    first = big.recall(SUBJECT, question, k=5)
    doomed = {h.id for h in first[:3]}
    assert big.forget_ids(SUBJECT, sorted(doomed)) == 3
    entry = nearest._entry(big.store, SUBJECT, big.embedder.identity)
    assert len(entry.index) == 597 and entry.index.tombstones == 3  # at once, before any recall
    ids, matrix = big.store.vectors(SUBJECT, big.embedder.identity)
    scores = nearest.scores(big.store, SUBJECT, big.embedder.identity, ids, matrix,
                            big.embedder.embed_one(question), 200)
    assert isinstance(scores, nearest.ApproximateScores)
    assert not doomed & {ids[int(i)] for i in scores.nearest(200)}
    assert not doomed & {h.id for h in big.recall(SUBJECT, question, k=50)}
    assert len(entry.index) == len(ids) == 597


def test_a_restrictive_filter_scans_exactly(big: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a filter that rejects some items the vector side is an exact scan among the passing
    items: the in-process index is bypassed (SQLite), or the server scans exactly under the
    filter instead of using its HNSW index (PostgreSQL). Either way the hits equal the exact path's."""
    question = "Which database does the team use?"
    assert nearest.prepare(big.store, SUBJECT, big.embedder.identity)
    calls: list[object] = []
    if isinstance(big.store, SearchesVectors):
        real_nearest = big.store.nearest

        def spy_server(*args, **kwargs):
            calls.append(kwargs.get("where", args[5] if len(args) > 5 else None))
            return real_nearest(*args, **kwargs)

        monkeypatch.setattr(big.store, "nearest", spy_server)
    else:
        real = nearest.scores

        def spy(*args, **kwargs):
            result = real(*args, **kwargs)
            calls.append(type(result))
            return result

        monkeypatch.setattr(nearest, "scores", spy)
    filtered = big.recall(SUBJECT, question, k=5, kinds=["fact"])
    big.recall(SUBJECT, question, k=5)
    if isinstance(big.store, SearchesVectors):
        assert len(calls) == 2 and isinstance(calls[0], Filter) and calls[0].restrictive and calls[1] is None
    else:
        assert calls == [nearest.ExactScores, nearest.ApproximateScores]
    # recall searches a question about the present over every version, for at least
    # earlier.WINDOW hits (engram.core.successors), then cuts to k: the exact path the same way
    where = earlier.widened(big._filter(kinds=["fact"]))
    exact = recall.search(big.store, big.embedder, SUBJECT, question, earlier.WINDOW, where, big.weights,
                          time.time(), exact_vectors=True)
    assert [h.id for h in filtered] == [h.id for h in successors.inherit(big.store, exact)][:5]


# -- the saved index (SQLite): reopen, catch up, forget, audit --------------------------------
@pytest.fixture
def saved(tmp_path, minilm, monkeypatch: pytest.MonkeyPatch):
    """A SQLite file whose subject holds 600 real embedded facts past the lowered crossover,
    with its index built and saved (by `prepare`); yields the file's path, the store closed."""
    monkeypatch.setattr(ann, "EXACT_MAX_ITEMS", CROSSOVER)
    path = str(tmp_path / "memory.db")
    with Memory(path, embedder=minilm) as mem:
        mem.remember_many(SUBJECT, sentences(600, seed=11))
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert nearest.status(mem.store, SUBJECT, minilm.identity)["origin"] == "built"
    return path


def files(path: str) -> list[Path]:
    folder = Path(path + ".ann")
    return sorted(p for p in folder.iterdir() if p.name != "lock") if folder.is_dir() else []


def in_files(path: str, vector: np.ndarray) -> bool:
    """Whether any run of 4 consecutive floats of `vector` is in any file of the store's ANN folder."""
    raw = np.asarray(vector, dtype=np.float32).tobytes()
    runs = [raw[i : i + 16] for i in range(0, len(raw) - 15, 4)]
    return any(any(r in data for r in runs) for data in (p.read_bytes() for p in files(path)))


def answers(mem: Memory) -> list[list[tuple[str, float]]]:
    return [[(h.id, round(h.score, 6)) for h in recall.search(mem.store, mem.embedder, SUBJECT, q, 10, mem._filter(),
                                                               mem.weights, 1e9)] for q in QUESTIONS]


def vector_of(mem: Memory, item_id: str) -> np.ndarray:
    ids, matrix = mem.store.vectors(SUBJECT, mem.embedder.identity)
    return matrix[ids.index(item_id)].copy()


def test_a_reopened_store_loads_its_index_and_answers_the_same(saved: str, minilm) -> None:
    with Memory(saved, embedder=minilm) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        before = answers(mem)
        headers = [p for p in files(saved) if p.suffix == ".ann"]
    assert len(headers) == 1 and len(files(saved)) == 2  # one header, one payload
    with Memory(saved, embedder=minilm) as mem:
        first = nearest.scores(mem.store, SUBJECT, minilm.identity, *mem.store.vectors(SUBJECT, minilm.identity),
                               minilm.embed_one("team"), 10)
        assert isinstance(first, nearest.ExactScores)  # the first search starts the load, never waits
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        state = nearest.status(mem.store, SUBJECT, minilm.identity)
        assert (state["origin"], state["caught_up"], state["live"]) == ("loaded", 0, 600)  # no rebuild
        assert answers(mem) == before


def test_rows_written_after_the_last_save_are_caught_up_at_load(saved: str, minilm) -> None:
    mem = Memory(saved, embedder=minilm)
    assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
    new = mem.remember(SUBJECT, "The lighthouse keeper collects antique brass telescopes.")
    assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
    assert nearest.status(mem.store, SUBJECT, minilm.identity)["unsaved"] == 1
    nearest._ENTRIES.pop(mem.store)  # a crash: the process ends without saving
    mem.store.close()
    with Memory(saved, embedder=minilm) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        state = nearest.status(mem.store, SUBJECT, minilm.identity)
        assert (state["origin"], state["caught_up"], state["live"]) == ("loaded", 1, 601)
        ids, matrix = mem.store.vectors(SUBJECT, minilm.identity)
        found = nearest.scores(mem.store, SUBJECT, minilm.identity, ids, matrix, vector_of(mem, new.id), 1)
        assert isinstance(found, nearest.ApproximateScores) and ids[int(found.nearest(1)[0])] == new.id
    with Memory(saved, embedder=minilm) as mem:  # the catch-up was saved: nothing left to do
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert nearest.status(mem.store, SUBJECT, minilm.identity)["caught_up"] == 0


def test_a_vector_changed_under_the_same_key_is_caught_up(saved: str, minilm) -> None:
    with Memory(saved, embedder=minilm) as mem:
        target = mem.store.vectors(SUBJECT, minilm.identity)[0][7]
        replacement = minilm.embed_one("Quantum chromodynamics describes the strong interaction.")
        mem.store.set_vectors({target: replacement}, minilm.identity)  # the index is not loaded here
    with Memory(saved, embedder=minilm) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        state = nearest.status(mem.store, SUBJECT, minilm.identity)
        assert (state["origin"], state["caught_up"]) == ("loaded", 1)
        entry = nearest._entry(mem.store, SUBJECT, minilm.identity)
        row = entry.ids.index(target)
        assert np.array_equal(entry.index.vectors([int(entry.keys[row])])[0], replacement)


@pytest.mark.parametrize("kind", ["damaged", "another store"])
def test_a_damaged_or_foreign_index_file_is_rebuilt(saved: str, tmp_path, minilm, kind: str) -> None:
    if kind == "damaged":
        payload = next(p for p in files(saved) if p.suffix == ".voy")
        data = bytearray(payload.read_bytes())
        data[len(data) // 2] ^= 0xFF
        payload.write_bytes(bytes(data))
        target = saved
    else:  # the same subject and model in another store: every vector differs under the same keys
        target = str(tmp_path / "other.db")
        with Memory(target, embedder=minilm) as mem:
            mem.remember_many(SUBJECT, sentences(600, seed=99))
        shutil.copytree(saved + ".ann", target + ".ann")
    with Memory(target, embedder=minilm) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert nearest.status(mem.store, SUBJECT, minilm.identity)["origin"] == "built"
        overlap = [len(set(top(mem, q)) & set(top(mem, q, exact=True))) / 10 for q in QUESTIONS]
    assert sum(overlap) / len(overlap) >= 0.95  # the rebuilt index answers for this store's vectors
    with Memory(target, embedder=minilm) as mem:  # and replaced the bad file
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert nearest.status(mem.store, SUBJECT, minilm.identity)["origin"] == "loaded"


def test_a_forgotten_item_is_in_no_file_whichever_process_forgets(saved: str, minilm) -> None:
    holder = Memory(saved, embedder=minilm)  # holds the loaded index in memory throughout
    assert nearest.prepare(holder.store, SUBJECT, minilm.identity)
    ids = holder.store.vectors(SUBJECT, minilm.identity)[0]
    first, second = ids[10], ids[20]
    vectors = {i: vector_of(holder, i) for i in (first, second)}
    assert all(in_files(saved, v) for v in vectors.values())  # the check below can fail
    assert holder.forget_ids(SUBJECT, [first]) == 1
    assert not in_files(saved, vectors[first]) and in_files(saved, vectors[second])
    with Memory(saved, embedder=minilm) as other:  # a process that never loaded the index
        assert other.forget_ids(SUBJECT, [second]) == 1
    assert not any(in_files(saved, v) for v in vectors.values())
    holder.remember(SUBJECT, "A new fact written by the process that still held the old index.")
    assert nearest.prepare(holder.store, SUBJECT, minilm.identity)
    holder.close()  # its save syncs with the store first: the second item stays gone
    assert not any(in_files(saved, v) for v in vectors.values())
    assert len([p for p in files(saved) if p.suffix == ".voy"]) == 1


def test_forget_all_deletes_the_subject_s_files(saved: str, minilm) -> None:
    with Memory(saved, embedder=minilm) as mem:
        mem.remember(OTHER, "Another subject keeps its own memories.")
        assert files(saved)
        assert mem.forget_all(SUBJECT) == 600
        assert files(saved) == []


def test_audit_reports_a_saved_index_that_still_holds_a_forgotten_item(saved: str, tmp_path, minilm) -> None:
    copy = tmp_path / "stale"
    with Memory(saved, embedder=minilm) as mem:
        doomed = mem.items(SUBJECT)[0]
        assert any(doomed.id in p for p in audit(mem, SUBJECT, doomed.text).where if p.startswith("ann:"))
        shutil.copytree(saved + ".ann", copy)  # e.g. a crash before the files were rewritten
        assert mem.forget_ids(SUBJECT, [doomed.id]) == 1
        assert not audit(mem, SUBJECT, doomed.text)
        shutil.rmtree(saved + ".ann")
        shutil.copytree(copy, saved + ".ann")
        found = audit(mem, SUBJECT, doomed.text)
        assert [p for p in found.where if "entry without a row" in p] and found.found == 1
    with Memory(saved, embedder=minilm) as mem:  # the next load catches the file up, and saves it
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert nearest.status(mem.store, SUBJECT, minilm.identity)["caught_up"] == 1
        assert not audit(mem, SUBJECT, doomed.text)


def test_a_read_only_store_loads_the_index_and_writes_nothing(saved: str, minilm) -> None:
    before = {p: p.stat().st_mtime_ns for p in files(saved)}
    with Memory(saved, embedder=minilm, read_only=True) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert nearest.status(mem.store, SUBJECT, minilm.identity)["origin"] == "loaded"
    assert {p: p.stat().st_mtime_ns for p in files(saved)} == before


def test_an_index_with_many_tombstones_is_rebuilt_at_load(saved: str, minilm) -> None:
    with Memory(saved, embedder=minilm) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        assert mem.forget_ids(SUBJECT, mem.store.vectors(SUBJECT, minilm.identity)[0][:110]) == 110
        state = nearest.status(mem.store, SUBJECT, minilm.identity)
        assert (state["live"], state["tombstones"]) == (490, 110)  # 110 > 20% of 490
    with Memory(saved, embedder=minilm) as mem:
        assert nearest.prepare(mem.store, SUBJECT, minilm.identity)
        state = nearest.status(mem.store, SUBJECT, minilm.identity)
        assert (state["origin"], state["live"], state["tombstones"]) == ("built", 490, 0)
