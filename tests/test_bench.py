"""The benchmarks run end to end on tiny synthetic data (never the real LoCoMo file)."""

from __future__ import annotations

import json

import click
import numpy as np
import pytest
from click.testing import CliRunner

from engram.bench import locomo
from engram.bench.baselines import OverlapRetriever, overlap_words
from engram.errors import InvalidInput
from engram.interfaces.commands import bench as bench_command

# Benchmark-shaped (real servers, writer counts, plots): the full run (CI) has them, `-m "not slow"` not.
pytestmark = pytest.mark.slow

CONTRACT = {"n", "overall", "by_category", "latency_ms", "ingest_per_s", "tokens_per_query", "config"}
OVERALL = {"R@1", "R@5", "R@10", "R@25", "R@50", "session_R@10"}



def measured(*values: object) -> bool:
    """A figure the benchmark measured is reported as a finite number. Its size is never asserted:
    unit tests time nothing (timings are the benchmarks' output, as ratios within one run)."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")
               for v in values)

def session(n: int, pairs: list[tuple[str, str]]) -> list[dict]:
    return [{"speaker": who, "dia_id": f"D{n}:{i + 1}", "text": text} for i, (who, text) in enumerate(pairs)]


def sample(sample_id: str) -> dict:
    conv = {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": session(1, [("Ana", "I adopted a grey cat named Pixel last week!"),
                                 ("Ben", "Lovely. I started pottery classes on Mondays."),
                                 ("Ana", "Pottery sounds relaxing, what do you make?"),
                                 ("Ben", "Mostly bowls and one wonky teapot.")]),
        "session_2_date_time": "10:00 am on 20 June, 2023",
        "session_2": [*session(2, [("Ben", "I ran my first half marathon in Porto!"),
                                   ("Ana", "Wow, congratulations on the race.")]),
                      {"speaker": "Ana", "dia_id": "D2:3", "text": "Here is Pixel sleeping.",
                       "img_url": "x", "blip_caption": "a photo of a grey cat on a sofa"}],
    }
    qa = [
        {"question": "What is the name of Ana's cat?", "answer": "Pixel", "evidence": ["D1:1"], "category": 4},
        {"question": "What does Ben make in pottery?", "answer": "bowls", "evidence": ["D1:2; D1:4"], "category": 1},
        {"question": "Where did Ben run a half marathon?", "answer": "Porto", "evidence": ["D2:1", "D9:9"],
         "category": 2},
        {"question": "What colour is the cat?", "answer": "grey", "evidence": ["D2 : 3"], "category": 5},
        {"question": "No evidence here?", "answer": "-", "evidence": [], "category": 3},
    ]
    return {"sample_id": sample_id, "conversation": conv, "qa": qa}


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "tiny_locomo.json"
    path.write_text(json.dumps([sample("conv-a"), sample("conv-b")]))
    return path


def cli() -> click.Group:
    @click.group()
    @click.option("--embedder", default=None)
    @click.pass_context
    def root(ctx: click.Context, embedder: str | None) -> None:
        ctx.obj = {"db": None, "embedder": embedder, "agent": None}

    bench_command.register(root)
    return root


def test_load_normalises_evidence_and_builds_turn_texts(data):
    convs = locomo.load(data)
    assert [c.id for c in convs] == ["conv-a", "conv-b"]
    conv = convs[0]
    assert [q.evidence for q in conv.questions] == [("D1:1",), ("D1:2", "D1:4"), ("D2:1",), ("D2:3",), ()]
    assert conv.turns[-1].text == 'Ana said, "Here is Pixel sleeping." and shared a photo of a grey cat on a sofa'
    assert conv.turns[0].at == locomo.session_time("1:56 pm on 8 May, 2023")
    assert conv.last_time == locomo.session_time("10:00 am on 20 June, 2023")


def test_scoring_counts_evidence_and_sessions():
    scores = locomo.score_question(["D1:2", "D2:1", "D1:4"], ["D1:4", "D2:5"])
    assert scores["R@1"] == 0.0 and scores["R@5"] == 0.5
    assert scores["session_R@10"] == 1.0  # both sessions appear among the top 10


@pytest.mark.parametrize("retriever", ["hybrid", "bm25", "dense", "overlap"])
def test_bench_locomo_prints_the_json_contract(data, retriever):
    out = CliRunner().invoke(cli(), ["--embedder", "hashing", "bench", "locomo", "--data", str(data),
                                     "--retriever", retriever, "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert set(result) >= CONTRACT and set(result["overall"]) >= OVERALL
    assert result["n"] == 8  # 4 questions with evidence in each of the two conversations
    assert set(result["by_category"]) == {"single-hop", "multi-hop", "temporal", "adversarial"}
    assert {"p50", "p95"} <= set(result["latency_ms"])
    assert result["config"]["retriever"] == retriever and result["config"]["conversations"] == 2
    assert result["overall"]["R@50"] >= result["overall"]["R@10"] >= result["overall"]["R@1"]


def test_hybrid_finds_the_evidence_on_easy_questions(data):
    result = locomo.run(data, "hybrid", embedder="minilm")  # the real model: hashing only matches words
    assert result["overall"]["R@5"] == 1.0  # every turn of this toy conversation is in the top 5
    assert result["by_category"]["single-hop"]["R@1"] == 1.0


def test_bench_locomo_table_output(data):
    out = CliRunner().invoke(cli(), ["--embedder", "hashing", "bench", "locomo", "--data", str(data),
                                     "--retriever", "bm25", "--limit", "1"])
    assert out.exit_code == 0, out.output
    assert "| retriever | R@1 |" in out.output and "| single-hop |" in out.output


def test_bad_data_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    out = CliRunner().invoke(cli(), ["bench", "locomo", "--data", str(bad)])
    assert out.exit_code != 0 and "not LoCoMo data" in str(out.exception)


def test_overlap_baseline_follows_the_reference():
    assert overlap_words("The cats are sleeping") == {"cat", "sleeping"}  # stop words, plural fold
    assert OverlapRetriever  # imported for the docs; exercised through the CLI test above


def test_bench_latency_runs_small_and_draws_a_plot(tmp_path):
    plot = tmp_path / "latency.png"
    out = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "latency", "--sizes", "50,300",
                                     "--store-size", "600", "--embed-limit", "100", "--write-n", "40",
                                     "--rounds", "1", "--plot", str(plot), "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert [r["items"] for r in result["recall"]] == [50, 300]
    assert [r["vectors"] for r in result["recall"]] == ["embedded", "fitted"]
    assert result["store"]["items_in_store"] == 600 and result["peak_rss_mb"] > 0
    assert {"embedder_per_s", "remember_many_per_s", "ratio"} <= set(result["write"])
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for row in [*result["recall"], result["store"], result["store"]["small_subject"]]:
        assert {"keyword_ms", "fts5_ms", "fts5_over_keyword", "top10_vs_fts5"} <= set(row)
        assert measured(row["keyword_ms"]["p50"], row["fts5_ms"]["p95"]) and 0 <= row["top10_vs_fts5"] <= 1


def test_bench_latency_steps_account_for_the_recall(tmp_path):
    out = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "latency", "--sizes", "200",
                                     "--store-size", "0", "--write-n", "0", "--rounds", "2", "--steps", "--json"])
    assert out.exit_code == 0, out.output
    row = json.loads(out.output)["recall"][0]
    steps = row["steps"]
    assert {"validate", "vectors", "names", "keyword", "wait", "prerank", "fetch", "words", "fuse", "top_k", "hits",
            "embed", "scan", "recall", "layer", "fetch_sql", "fetch_objects"} <= set(steps)
    main_thread = sum(steps[s] for s in ("validate", "vectors", "names", "keyword", "wait", "prerank",
                                        "fetch", "words", "fuse", "top_k", "hits"))
    assert measured(main_thread, steps["layer"], steps["recall"])  # durations are the report's, never asserted on
    assert {"fuse_all", "entity", "session", "recency"} <= set(steps["terms"])
    assert 0 <= row["repeated"]["hit_rate"] <= 1 and row["repeated"]["hit_rate"] > 0.4  # questions asked twice


def test_bench_writes_compares_remember_with_the_embedder(tmp_path):
    out = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "writes", "--sizes", "100,400",
                                     "--embed-limit", "200", "--writes", "20", "--batch", "60", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert [r["items"] for r in result["single"]] == [100, 400]
    assert [r["vectors"] for r in result["single"]] == ["embedded", "fitted"]
    for row in result["single"]:
        assert row["writes"] == 20 and measured(row["remember_per_s"], row["embedder_per_s"])
        assert measured(row["ratio"])
    assert result["batch"]["n"] == 60 and measured(result["batch"]["remember_many_per_s"])
    assert all(measured(row["inline_ratio"]) for row in result["single"])
    ingest = result["ingest"]
    assert ingest["messages"] == 60 and ingest["passages"] >= 60 and measured(ingest["messages_per_s"], ingest["ratio"])
    table = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "writes", "--sizes", "50",
                                       "--writes", "5", "--batch", "0"])
    assert table.exit_code == 0 and "| 50 | embedded |" in table.output and "load average" in table.output


def test_bench_latency_builds_a_big_store_once_then_reuses_it(tmp_path):
    kept = tmp_path / "big.db"
    args = ["--embedder", "hashing:64", "bench", "latency", "--sizes", "50", "--store-size", "400",
            "--small-subject", "30", "--write-n", "0", "--rounds", "1", "--store-file", str(kept), "--json"]
    first = json.loads(CliRunner().invoke(cli(), args).output)
    stamp = kept.stat().st_mtime_ns
    second = json.loads(CliRunner().invoke(cli(), args).output)
    assert "write" not in first and first["store"]["small_subject"]["items"] == 30
    import sqlite3

    assert sqlite3.connect(kept).execute("SELECT count(*) FROM items").fetchone()[0] == 400  # not filled twice
    assert second["store"]["items_in_store"] == 400 and kept.stat().st_mtime_ns >= stamp


def test_bench_latency_past_the_crossover_reports_the_saved_index(tmp_path, monkeypatch):
    from engram.core import ann

    monkeypatch.setattr(ann, "EXACT_MAX_ITEMS", 200)
    out = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "latency", "--sizes", "400",
                                     "--store-size", "0", "--embed-limit", "100", "--write-n", "0",
                                     "--rounds", "1", "--json"])
    assert out.exit_code == 0, out.output
    row = json.loads(out.output)["recall"][0]
    assert row["ann"] is True and row["keyword_recall10_vs_exact"] == 1.0
    assert 0.0 <= row["vector_recall10"] <= 1.0 and 0.0 <= row["recall10_vs_exact"] <= 1.0
    assert measured(row["exact_ms"]["p95"], row["ann_ms"]["p95"]) and row["saved"]["file_mb"] > 0
    assert set(row["cpu_ms"]) == {"ann", "exact", "recall"} and measured(row["cpu_ms"]["recall"]["p95"])
    assert (row["reopen"]["origin"], row["reopen"]["caught_up"]) == ("loaded", 0)  # no rebuild
    assert measured(row["reopen"]["index_ready_s"], row["reopen"]["load_s"], row["forget"]["forget_one_s"])


def test_bench_concurrency_runs_and_reports_every_writer_count(tmp_path):
    from click.testing import CliRunner

    from engram.interfaces.cli import main

    result = CliRunner().invoke(main, ["bench", "concurrency", "--writers", "1,2", "-n", "20", "--tmp", str(tmp_path),
                                       "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["backend"], r["writers"], r["writes"]) for r in rows] == [("sqlite", 1, 20), ("sqlite", 2, 40)]
    assert all(measured(r["writes_per_s"], r["recall_p50_ms"], r["recall_p95_ms"]) for r in rows)


def test_bench_locomo_on_postgres_matches_sqlite_and_drops_its_databases(data, pg_server):
    import psycopg

    def databases() -> set[str]:
        with psycopg.connect(pg_server, autocommit=True) as conn:
            return {r[0] for r in conn.execute("SELECT datname FROM pg_database")}

    before = databases()
    runs = {}
    for store in (None, pg_server):
        args = ["--embedder", "hashing", "bench", "locomo", "--data", str(data), "--json"]
        out = CliRunner().invoke(cli(), args + (["--store", store] if store else []))
        assert out.exit_code == 0, out.output
        runs[store] = json.loads(out.output)
    sqlite, postgres = runs[None], runs[pg_server]
    assert set(postgres) >= CONTRACT and postgres["n"] == sqlite["n"] == 8
    assert sqlite["config"]["store"] == "sqlite" and postgres["config"]["store"] == "postgresql"
    assert postgres["overall"]["R@5"] == pytest.approx(sqlite["overall"]["R@5"], abs=0.01)
    assert databases() == before  # one database per conversation, each dropped afterwards


def test_bench_store_must_be_a_postgres_url(data):
    out = CliRunner().invoke(cli(), ["--embedder", "hashing", "bench", "locomo", "--data", str(data),
                                     "--store", "mysql://x"])
    assert out.exit_code != 0 and "postgresql://" in str(out.exception or out.output)


TENANTS_KEYS = {"store", "subjects", "items", "clients", "processes", "recall_ms", "recalls_per_s", "rss_mb"}


@pytest.mark.parametrize("backend,processes", [("sqlite", 1), ("postgres", 1), ("sqlite", 2), ("postgres", 2)])
def test_bench_tenants_small_shape_on_both_backends(backend, processes, request):
    from engram.bench.tenants import questions

    assert len(questions()) >= 1000 and len(set(questions())) == len(questions())
    clients = 3 if processes == 1 else 1
    args = ["--embedder", "hashing", "bench", "tenants", "--subjects", "6", "--items", "40", "--clients", str(clients),
            "--processes", str(processes), "--recalls", "60", "--warmup", "20", "--embed-limit", "100",
            "--json"]  # 240 items: fitted vectors
    if backend == "postgres":
        args += ["--store", request.getfixturevalue("pg_server")]
    out = CliRunner().invoke(cli(), args)
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert set(result) == TENANTS_KEYS
    assert set(result["recall_ms"]) == {"p50", "p95"} and set(result["rss_mb"]) == {"warm", "end"}
    assert result["store"] == ("postgresql" if backend == "postgres" else "sqlite")
    assert (result["subjects"], result["items"], result["clients"], result["processes"]) == \
        (6, 40, 3 if processes == 1 else 2, processes)
    assert measured(result["recalls_per_s"], result["recall_ms"]["p50"], result["recall_ms"]["p95"])
    assert result["rss_mb"]["warm"] > 0 and result["rss_mb"]["end"] > 0


def test_bench_store_measures_every_operation_on_both_stores(tmp_path):
    out = CliRunner().invoke(cli(), ["bench", "store", "--items", "5", "--rounds", "2", "--tmp", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert [r["operation"] for r in rows] == ["put", "get", "search_filter", "search_query", "list_namespaces"]
    assert all(r["engram_us"] > 0 and r["inmemory_us"] > 0 for r in rows)


def test_tenants_warm_up_asks_every_subject_once_then_random_ones():
    import random

    from engram.bench.tenants import _plan

    names = [f"tenant:{n}" for n in range(50)]
    plan = _plan(random.Random(1), names, ["q1", "q2"], warmup=20, recalls=30)
    assert len(plan) == 80 and {s for s, _ in plan[:50]} == set(names)  # warm-up: max(20, 50) recalls
    plan = _plan(random.Random(1), names, ["q1", "q2"], warmup=120, recalls=30)
    assert len(plan) == 150 and {s for s, _ in plan[:50]} == set(names) and len({s for s, _ in plan[50:]}) > 1


def test_the_vector_cache_gives_the_models_vectors_and_embeds_each_text_once(tmp_path):
    from engram.bench.vectorcache import CachedEmbedder
    from engram.embed.hashing import HashingEmbedder

    texts = ["The CI pipeline runs on GitHub Actions.", "Team uses Postgres 16.", "The CI pipeline runs on GitHub Actions."]
    inner = HashingEmbedder(64)
    first = CachedEmbedder(inner, tmp_path)
    assert first.identity == inner.identity
    assert np.array_equal(first.embed(texts), inner.embed(texts)) and first.misses == 3
    again = CachedEmbedder(HashingEmbedder(64), tmp_path)  # another process would see the same file
    assert np.array_equal(again.embed(texts[:2]), inner.embed(texts[:2]))
    assert (again.hits, again.misses) == (2, 0)
    other = CachedEmbedder(HashingEmbedder(32), tmp_path)  # keyed by model identity too: no stale rows
    assert other.embed(texts[:1]).shape == (1, 32) and other.misses == 1


def test_bench_locomo_with_a_vector_cache_scores_the_same(data, tmp_path):
    args = ["--embedder", "hashing", "bench", "locomo", "--data", str(data), "--json"]
    plain = json.loads(CliRunner().invoke(cli(), args).output)
    cache = ["--vector-cache", str(tmp_path / "vectors")]
    cold = json.loads(CliRunner().invoke(cli(), [*args, *cache]).output)
    warm = json.loads(CliRunner().invoke(cli(), [*args, *cache]).output)
    assert plain["overall"] == cold["overall"] == warm["overall"]
    assert not plain["config"]["vector_cache"] and warm["config"]["vector_cache"]


def test_every_retriever_of_the_people_shape_gets_the_same_questions(tmp_path):
    from engram.bench import suite

    (tmp_path / "all").mkdir()
    (tmp_path / "alone").mkdir()
    result = suite.run_people(200, tmp_path / "all", people=50, questions=40, embedder="hashing")
    alone = suite.run_people(200, tmp_path / "alone", people=50, questions=40, embedder="hashing",
                             retrievers=("dense",))
    assert result["questions"] == 40 and len(result["hybrid"]["mrr_by_question"]) == 40
    # Asked third or first, dense answers the same questions: the sample does not depend on the order.
    assert result["dense"]["mrr_by_question"] == alone["dense"]["mrr_by_question"]


def test_bench_serve_workers_runs_real_servers_and_compares_worker_counts(tmp_path):
    args = ["--embedder", "hashing", "bench", "serve-workers", "--subjects", "3", "--items", "20", "--clients", "4",
            "--rounds", "1", "--recalls", "24", "--warmup", "4", "--tmp", str(tmp_path), "--json"]
    out = CliRunner().invoke(cli(), args)
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["errors"] == 0 and result["clients"] == 4
    assert set(result["recalls_per_s"]) == {"1", "2"} and all(len(r) == 1 for r in result["recalls_per_s"].values())
    assert result["ratio"] == round(result["median"]["2"] / result["median"]["1"], 2)


def test_the_knowledge_update_splits_are_disjoint_and_dated_in_order():
    from engram.bench import updates

    seen: set[str] = set()
    total = 0
    for split in updates.SPLITS:
        changes, facts = updates.load(split)
        total += len(changes)
        assert len(facts) == 30 and len(changes) >= 20
        texts = {c.old for c in changes} | {c.new for c in changes} | {f.text for f in facts}
        assert not texts & seen  # no change or distractor shared between splits
        seen |= texts
        for c in changes:
            assert round((c.new_at - c.old_at) / 86400) == 60 and c.old_at < c.as_of < c.new_at
    assert total >= 60
    with pytest.raises(InvalidInput, match="unknown updates split"):
        updates.load("holdout")


def test_bench_updates_reports_newest_and_as_of_per_split_and_weights():
    out = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "updates", "--split", "dev",
                                     "--weights", "newest=0", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["split"] == "dev" and result["changes"] == 20 and result["facts"] == 30
    run = result["runs"]["newest=0"]
    assert run["n"] == 20 and 0 <= run["newest_hits"] <= 20 and run["newest_top1"] == round(run["newest_hits"] / 20, 4)
    assert run["as_of_hits"] >= 10  # the new fact is not valid yet, so the old one mostly leads
    assert len(run["misses"]) <= 20


def test_the_dates_splits_name_known_answers_and_differ():
    from engram.bench import dates

    seen: set[str] = set()
    for split in dates.SPLITS:
        loaded = dates.load(split)
        texts = {e.text for e in loaded.episodes}
        assert len(texts) == len(loaded.episodes) and not texts & seen  # look-alikes, never the same text
        seen |= texts
        assert len(loaded.questions) >= 14
        assert all(e.at < loaded.now for e in loaded.episodes)
    with pytest.raises(InvalidInput, match="unknown dates split"):
        dates.load("holdout")


def test_bench_dates_reports_top1_per_split_and_weights():
    out = CliRunner().invoke(cli(), ["--embedder", "hashing:64", "bench", "dates", "--split", "dev",
                                     "--weights", "date=0", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["split"] == "dev" and result["questions"] == 14
    run = result["runs"]["date=0"]
    assert run["n"] == 14 and run["top1"] == round(run["top1_hits"] / 14, 4)
    assert len(run["misses"]) == 14 - run["top1_hits"]
