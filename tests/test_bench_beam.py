"""`engram bench beam` on small synthetic chats of BEAM's shape: loading, scoring, the output keys."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from engram.bench.beam import Question, flatten, load, newest_first, recall_at, run

KEYS = {"overall", "by_ability", "newest_first", "messages", "refused", "redacted", "ingest_per_s",
        "embedder_batch_per_s", "latency_ms", "config"}


def _chat(folder: Path, name: str) -> None:
    turns = [[{"role": "user", "id": 0, "time_anchor": "March-15-2024",
               "content": "I run the budget app on Flask with SQLite for now. ->-> 1,1"},
              {"role": "assistant", "id": 1, "content": "Flask with SQLite is fine for one user.\n\n" + "More. " * 200}],
             [{"role": "user", "id": 2, "content": "We use the key AKIAZ3MQW7RTPLX4KD2N for the backups. ->-> 1,2"},
              {"role": "assistant", "id": 3, "content": "Keep it in the environment, not in the code."}]]
    later = [[{"role": "user", "id": 4, "time_anchor": "April-05-2024",
               "content": "I moved the budget app from SQLite to Postgres last week. ->-> 2,1"},
              {"role": "assistant", "id": 5, "content": "Postgres will handle the concurrent writes better."}]]
    chat = [{"batch_number": 1, "time_anchor": None, "turns": turns},
            {"batch_number": 2, "time_anchor": None, "turns": later}]
    questions = {
        "information_extraction": [{"question": "Which web framework runs the budget app?", "answer": "Flask",
                                    "source_chat_ids": [0]}],
        "knowledge_update": [{"question": "Which database does the budget app use?", "answer": "Postgres",
                              "source_chat_ids": {"original_info": [0], "updated_info": [[4]]}}],
        "abstention": [{"question": "What is my cat's name?", "ideal_response": "Not mentioned."}],
    }
    (folder / name).mkdir()
    (folder / name / "chat.json").write_text(json.dumps(chat), encoding="utf-8")
    (folder / name / "probing_questions.json").write_text(json.dumps(questions), encoding="utf-8")


def test_scoring_rules():
    assert flatten({"a": [1, [2, 3]], "b": 4}) == ["1", "2", "3", "4"]
    assert recall_at(["1", "9", "2"], ["1", "2"], 1) == 0.5 and recall_at(["1", "9", "2"], ["1", "2"], 3) == 1.0
    q = Question("knowledge_update", "q", ("0", "4"), updated=("4",), original=("0",))
    assert newest_first(["4", "0"], q) is True and newest_first(["0", "4"], q) is False
    assert newest_first(["0"] + ["x"] * 10 + ["4"], q) is False  # the update must be in the top 10
    assert newest_first(["4"], Question("information_extraction", "q", ("4",))) is None


def test_load_orders_chats_numerically_and_strips_the_marker(tmp_path: Path):
    for name in ("10", "2", "1"):
        _chat(tmp_path, name)
    chats = load(tmp_path, limit=2)
    assert [c.name for c in chats] == ["1", "2"]
    first = chats[0].batches[0][1][0]
    assert first["content"] == "I run the budget app on Flask with SQLite for now."
    assert chats[0].batches[1][0] > chats[0].batches[0][0]
    assert [q.ability for q in chats[0].questions] == ["information_extraction", "knowledge_update"]


def test_run_prints_every_key_and_the_cli_runs_it(tmp_path: Path):
    data = tmp_path / "beam"
    data.mkdir()
    _chat(data, "1")
    result = run(data, ("hybrid", "dense", "bm25"), embedder="hashing")
    for name, out in result.items():
        assert set(out) == KEYS, name
        assert out["messages"] == 6 and out["refused"] == 0 and out["redacted"] == 1
        assert set(out["by_ability"]) == {"information_extraction", "knowledge_update"}
        assert set(out["overall"]) == {"R@1", "R@5", "R@10", "R@25", "R@50"}
        assert out["overall"]["R@50"] == 1.0  # six messages: every evidence message is in the top 50
    from engram.interfaces.cli import main

    cli = CliRunner().invoke(main, ["--embedder", "hashing", "bench", "beam", "--data", str(data), "--retriever",
                                    "dense", "--json"], catch_exceptions=False)
    assert cli.exit_code == 0, cli.output
    assert set(json.loads(cli.stdout)) == KEYS


def test_weights_reach_the_ranking_and_are_restored(tmp_path: Path):
    from engram.bench.suite import weighted
    from engram.core.memory import Memory

    data = tmp_path / "beam"
    data.mkdir()
    _chat(data, "1")
    shipped = run(data, ("hybrid",), embedder="hashing")["hybrid"]
    ablated = run(data, ("hybrid",), embedder="hashing", weights={"keyword": 0.0, "vector": 0.0, "context": 0.0,
                                                                   "session": 0.0, "recency": 5.0})["hybrid"]
    # With only recency left, the newest messages lead every question: the Flask question's answer drops.
    assert ablated["overall"]["R@1"] < shipped["overall"]["R@1"]
    with Memory(str(tmp_path / "w.db"), embedder="hashing") as mem:
        before = mem.weights
        try:
            with weighted(mem, {"keyword": 0.0}):
                assert mem.weights.keyword == 0.0
                raise RuntimeError("inside")
        except RuntimeError:
            pass
        assert mem.weights == before
