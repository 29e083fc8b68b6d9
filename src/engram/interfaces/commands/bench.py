"""`engram bench locomo|beam|suite|updates|dates|latency|writes|ann|concurrency|tenants|serve-workers|store`: the benchmarks behind docs/benchmarks.md, as commands."""

from __future__ import annotations

from collections.abc import Callable
import json
import os
from typing import Any

import click


def register(main: click.Group) -> None:
    main.add_command(bench)


def numbers(ctx: click.Context, param: click.Parameter, value: str) -> list[int]:
    """An option's comma-separated text as whole numbers (empty: none); a click error naming it otherwise."""
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"must be comma-separated whole numbers, got {value!r}", ctx, param) from None


def scratch_and_json(f: Callable[..., Any]) -> Callable[..., Any]:
    """`--tmp DIR` (where the bench's scratch stores go) and `--json` (the result as JSON)."""
    f = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(f)
    return click.option("--tmp", "folder", type=click.Path(file_okay=False), default=None,
                        help="Folder for the temporary stores (default: the system temp dir).")(f)


# Options several benchmarks take, declared once.
server_option = click.option(
    "--store", "server", default=None, metavar="URL",
    help="Run on PostgreSQL: a postgresql:// server whose user may create databases; the bench makes"
         " its own databases there and drops them after.")
vector_cache_option = click.option(
    "--vector-cache", "vector_cache", type=click.Path(file_okay=False), default=None,
    help="Reuse embeddings across runs from this folder (ablations: only the ranking changes; latency"
         " and ingest figures then exclude embedding).")
weights_option = click.option(
    "--weights", "weights", default=None,
    help="Override hybrid ranking weights for an ablation, e.g. entity=0,time=0 (docs/recall.md).")


def _embedder(ctx: click.Context, vector_cache: str | None = None) -> Any:
    """The root command's --embedder (a spec or None), behind the vector cache when one is given."""
    spec = (ctx.find_root().obj or {}).get("embedder")
    if vector_cache is None:
        return spec
    from engram.bench.vectorcache import bench_embedder

    return bench_embedder(spec, vector_cache)

@click.group()
def bench() -> None:
    """Measure recall quality (LoCoMo) and speed (latency, throughput, memory)."""


@bench.command()
@click.option("--data", "data", required=True, type=click.Path(exists=True, dir_okay=False),
              help="A LoCoMo JSON file (e.g. locomo10.json); read in place, never copied.")
@click.option("--retriever", default="hybrid", show_default=True,
              type=click.Choice(["hybrid", "bm25", "dense", "overlap"]),
              help="Engram's hybrid recall, or a baseline in the same harness.")
@weights_option
@click.option("--limit", type=int, default=None, help="Only the first N conversations.")
@server_option
@vector_cache_option
@scratch_and_json
@click.pass_context
def locomo(ctx: click.Context, data: str, retriever: str, weights: str | None, limit: int | None,
           folder: str | None, server: str | None, vector_cache: str | None, as_json: bool) -> None:
    """Evidence recall R@k on LoCoMo: one store per conversation, questions asked raw."""
    from engram.bench import locomo as bench_locomo
    from engram.bench.baselines import parse_weights
    from engram.bench.report import category_table, locomo_table

    embedder = _embedder(ctx, vector_cache)
    echo = None if as_json else click.echo
    result = bench_locomo.run(data, retriever, embedder=embedder, limit=limit, folder=folder, echo=echo,
                              weights=parse_weights(weights), store=server)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(locomo_table({retriever: result}))
    click.echo("")
    click.echo(category_table(result))


@bench.command()
@click.option("--data", "data", required=True, type=click.Path(exists=True, file_okay=False),
              help="A BEAM folder of <n>/chat.json + <n>/probing_questions.json; read in place, never copied.")
@click.option("--limit", type=int, default=None, help="Only the first N chats (numeric order of their folders).")
@click.option("--retriever", default="hybrid", show_default=True, type=click.Choice(["hybrid", "bm25", "dense"]),
              help="Engram's recall, its keyword signal alone, or plain cosine over the same passage vectors.")
@weights_option
@vector_cache_option
@scratch_and_json
@click.pass_context
def beam(ctx: click.Context, data: str, limit: int | None, retriever: str, weights: str | None, folder: str | None,
         vector_cache: str | None, as_json: bool) -> None:
    """Message-level evidence recall on BEAM chats: one store per chat, every message through add_messages."""
    from engram.bench import beam as bench_beam
    from engram.bench.baselines import parse_weights

    embedder = _embedder(ctx, vector_cache)
    result = bench_beam.run(data, (retriever,), limit=limit, embedder=embedder, folder=folder,
                            echo=None if as_json else click.echo, weights=parse_weights(weights))[retriever]
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo("  ".join(f"{k} {v:.3f}" for k, v in result["overall"].items()))
    for name, row in result["by_ability"].items():
        click.echo(f"  {name:<26} R@5 {row['R@5']:.3f}  R@10 {row['R@10']:.3f}  (n={row['n']})")
    click.echo(f"newest first {result['newest_first']:.3f}; {result['refused']} refused, {result['redacted']} redacted;"
               f" ingest {result['ingest_per_s']}/s vs embedder {result['embedder_batch_per_s']}/s")


@bench.command()
@click.option("--retrievers", default="hybrid,bm25,dense", show_default=True,
              help="Comma-separated: hybrid, bm25, dense.")
@click.option("--data", "data", default=None, type=click.Path(exists=True, file_okay=False),
              help="A folder with suite_facts.jsonl and suite_questions.jsonl (default: the shipped suite).")
@weights_option
@click.option("--people", "people", default="1000", show_default=True, callback=numbers,
              help="Sizes of the many-people store to measure too, comma-separated (empty: skip).")
@click.option("--locomo", "locomo_data", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Also run LoCoMo on this file for each retriever, reported next to the suite.")
@vector_cache_option
@scratch_and_json
@click.pass_context
def suite(ctx: click.Context, retrievers: str, data: str | None, weights: str | None, people: list[int],
          locomo_data: str | None, folder: str | None, vector_cache: str | None, as_json: bool) -> None:
    """Robustness suite: top-1/top-3/MRR per group and question style (acronyms, case, typos, ...)."""

    from engram.bench import locomo as bench_locomo
    from engram.bench import suite as bench_suite
    from engram.bench.baselines import parse_weights

    embedder = _embedder(ctx, vector_cache)
    names = [r.strip() for r in retrievers.split(",") if r.strip()]
    overrides = parse_weights(weights)
    extra = {}
    if locomo_data:
        def measure(name: str) -> dict[str, Any]:
            return bench_locomo.run(locomo_data, name, embedder=embedder, folder=folder, weights=overrides)

        extra["locomo"] = measure
    result = bench_suite.run(names, data=data, embedder=embedder, folder=folder, extra=extra,
                             echo=None if as_json else click.echo, weights=overrides,
                             people=people)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(bench_suite.table(result))
    click.echo("")
    click.echo(bench_suite.style_table(result))
    if result.get("people"):
        click.echo("")
        click.echo(bench_suite.people_table(result))
    if "case_stable" in result["retrievers"].get("hybrid", {}):
        click.echo(f"\nhybrid case_stable (same top 3 as written / lower / Capitalised): "
                   f"{result['retrievers']['hybrid']['case_stable']:.3f}")


def split_options(what: str, stem: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--split` (comma-separated splits of a shipped labelled set), `--data`, `--weights`,
    `--vector-cache`, `--tmp` and `--json`: the options of a bench run per split."""
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = weights_option(vector_cache_option(scratch_and_json(f)))
        f = click.option("--data", "data", default=None, type=click.Path(exists=True, file_okay=False),
                         help=f"A folder with {stem}_<split>.jsonl files (default: the shipped set).")(f)
        return click.option("--split", "splits", default="dev", show_default=True,
                            help=f"Comma-separated splits of the {what}: train, dev, test.")(f)
    return decorate


def run_splits(ctx: click.Context, module: Any, splits: str, data: str | None, weights: str | None,
               vector_cache: str | None, folder: str | None, as_json: bool) -> None:
    """`module.run` on each split (one store per split), printed as JSON or by `module.summary`."""
    from engram.bench.baselines import parse_weights

    embedder = _embedder(ctx, vector_cache)
    results = [module.run(split.strip(), data=data, embedder=embedder, folder=folder, weights=[parse_weights(weights)])
               for split in splits.split(",") if split.strip()]
    if as_json:
        click.echo(json.dumps(results[0] if len(results) == 1 else results))
        return
    for result in results:
        click.echo(module.summary(result))


@bench.command()
@split_options("knowledge-update set", "updates")
@click.pass_context
def updates(ctx: click.Context, splits: str, data: str | None, weights: str | None, vector_cache: str | None,
            folder: str | None, as_json: bool) -> None:
    """Knowledge updates: does the newer of two facts rank first, and does as_of find the older?"""
    from engram.bench import updates as bench_updates

    run_splits(ctx, bench_updates, splits, data, weights, vector_cache, folder, as_json)


@bench.command()
@split_options("dates set", "dates")
@click.pass_context
def dates(ctx: click.Context, splits: str, data: str | None, weights: str | None, vector_cache: str | None,
          folder: str | None, as_json: bool) -> None:
    """Dates in questions: among look-alike episodes, does the one on the named date rank first?"""
    from engram.bench import dates as bench_dates

    run_splits(ctx, bench_dates, splits, data, weights, vector_cache, folder, as_json)


@bench.command()
@click.option("--subjects", default=1000, show_default=True, help="Subjects (tenants) in the store.")
@click.option("--items", default=1000, show_default=True, help="Items per subject.")
@click.option("--clients", default=1, show_default=True, help="Threads sharing one Memory, recalling at once.")
@click.option("--processes", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Client processes, each with its own Memory and --clients threads (as serve --workers).")
@server_option
@click.option("--db", "db", default=None, help="Use (and keep) this store instead; filled only if empty.")
@click.option("--recalls", default=4000, show_default=True, help="Timed recalls (after the warm-up).")
@click.option("--warmup", default=1000, show_default=True, help="Recalls before timing and the warm RSS.")
@click.option("--embed-limit", default=20_000, show_default=True,
              help="Stores larger than this get fitted MiniLM-like vectors instead of embedded text.")
@scratch_and_json
@click.pass_context
def tenants(ctx: click.Context, subjects: int, items: int, clients: int, processes: int, server: str | None,
            db: str | None, recalls: int, warmup: int, embed_limit: int, folder: str | None,
            as_json: bool) -> None:
    """Recall p50/p95, recalls/s and RSS with many subjects in one store and many client threads."""
    from engram.bench import tenants as bench_tenants

    embedder = _embedder(ctx)
    result = bench_tenants.run(subjects, items, clients, server=server, db=db, embedder=embedder,
                               embed_limit=embed_limit, recalls=recalls, warmup=warmup, folder=folder,
                               echo=None if as_json else click.echo, processes=processes)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"{result['store']}: {subjects} subjects x {items} items, {result['clients']} client(s)"
               f" in {processes} process(es):"
               f" recall p50 {result['recall_ms']['p50']} ms, p95 {result['recall_ms']['p95']} ms,"
               f" {result['recalls_per_s']} recalls/s, RSS warm {result['rss_mb']['warm']} MiB,"
               f" end {result['rss_mb']['end']} MiB")


@bench.command(name="serve-workers")
@click.option("--subjects", default=20, show_default=True, help="Subjects in the store.")
@click.option("--items", default=200, show_default=True, help="Embedded sentences per subject.")
@click.option("--clients", default=8, show_default=True, help="HTTP clients sending recalls at once.")
@click.option("--workers", "workers", default="1,2", show_default=True, callback=numbers,
              help="Worker counts to compare, comma-separated.")
@click.option("--rounds", default=2, show_default=True, help="Alternating rounds over the worker counts.")
@click.option("--recalls", default=400, show_default=True, help="Timed recalls per round and worker count.")
@click.option("--warmup", default=40, show_default=True, help="Recalls before timing, per server started.")
@server_option
@scratch_and_json
@click.pass_context
def serve_workers(ctx: click.Context, subjects: int, items: int, clients: int, workers: list[int], rounds: int,
                  recalls: int, warmup: int, server: str | None, folder: str | None, as_json: bool) -> None:
    """Recalls/s through `engram serve --workers W` (real HTTP, many clients), W compared in one run."""
    from engram.bench import serve_workers as bench_serve

    counts = tuple(workers)
    embedder = _embedder(ctx) or "minilm"
    result = bench_serve.run(subjects, items, clients, counts, rounds, recalls, warmup, server=server,
                             embedder=embedder, folder=folder, echo=None if as_json else click.echo)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"{result['store']}: {clients} HTTP clients, median recalls/s by workers {result['median']};"
               f" {max(counts)} vs {min(counts)} workers: {result['ratio']}x, {result['errors']} errors")


@bench.command()
@click.option("--sizes", default="1000,10000,100000", show_default=True, callback=numbers,
              help="Items in the measured subject, comma-separated.")
@click.option("--store-size", default=1_000_000, show_default=True,
              help="Items in the whole store for the last measurement (0 to skip).")
@click.option("--embed-limit", default=10_000, show_default=True,
              help="Sizes above this get random unit vectors written through the store, not embedded text.")
@click.option("--write-n", default=1000, show_default=True, help="Texts for the write-throughput test.")
@click.option("--rounds", default=5, show_default=True, help="Passes over the 10 benchmark queries per size.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Also draw recall latency by size to this PNG (needs the `bench` extra).")
@click.option("--store-file", type=click.Path(dir_okay=False), default=None,
              help="Keep the --store-size store in this file: built if it does not hold that many items, else reused.")
@click.option("--small-subject", default=1000, show_default=True,
              help="Items of a second, small subject timed inside the --store-size store (0 to skip).")
@click.option("--steps", is_flag=True, help="Also time every step of a recall, per size (`steps` in the JSON).")
@scratch_and_json
@click.pass_context
def latency(ctx: click.Context, sizes: list[int], store_size: int, embed_limit: int, write_n: int, rounds: int,
            plot: str | None, folder: str | None, store_file: str | None, small_subject: int, steps: bool,
            as_json: bool) -> None:
    """Recall p50/p95 by subject size (query embedding included), write throughput, peak RSS."""
    from engram.bench import latency as bench_latency
    from engram.bench.report import latency_table, plot_latency
    result = bench_latency.run(sizes, store_size, embedder=_embedder(ctx), embed_limit=embed_limit, write_n=write_n,
                               rounds=rounds, folder=folder, echo=None if as_json else click.echo,
                               store_file=store_file, small_subject=small_subject, steps=steps)
    if plot:
        plot_latency(result, plot)
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(latency_table(result))


@bench.command()
@click.option("--sizes", default="1000,10000,100000", show_default=True, callback=numbers,
              help="Items already in the subject when the timed writes start, comma-separated.")
@click.option("--writes", default=200, show_default=True, help="Timed single remember calls per size.")
@click.option("--batch", default=1000, show_default=True, help="Texts for the remember_many measurement (0 to skip).")
@click.option("--embed-limit", default=10_000, show_default=True,
              help="Sizes above this are filled with MiniLM-like vectors through the store; timed writes stay real.")
@scratch_and_json
@click.pass_context
def writes(ctx: click.Context, sizes: list[int], writes: int, batch: int, embed_limit: int, folder: str | None,
           as_json: bool) -> None:
    """Single remember calls by subject size, remember_many and add_messages, against the embedder alone."""
    from engram.bench import writes as bench_writes

    result = bench_writes.run(sizes, writes=writes, batch=batch, embed_limit=embed_limit,
                              embedder=_embedder(ctx), folder=folder, echo=None if as_json else click.echo)
    click.echo(json.dumps(result) if as_json else bench_writes.table(result))


@bench.command(name="ann")
@click.option("--sizes", default="10000,50000,100000", show_default=True, callback=numbers,
              help="Subject sizes the index grows through, comma-separated.")
@click.option("--data", default="minilm", show_default=True, type=click.Choice(["minilm", "random"]),
              help="MiniLM-like vectors (a Gaussian fitted to embedded facts) or random unit vectors (worst case).")
@click.option("--ef", default="128,256,512", show_default=True, callback=numbers,
              help="Search widths to measure, comma-separated.")
@click.option("--queries", default=200, show_default=True, help="Query vectors per size.")
@click.option("--threads", default=1, show_default=True, help="Threads for building the index.")
@scratch_and_json
@click.pass_context
def ann_bench(ctx: click.Context, sizes: list[int], data: str, ef: list[int], queries: int, threads: int, folder: str | None,
              as_json: bool) -> None:
    """The ANN index against the exact scan: build time, query p50/p95, recall@10 vs exact."""
    from engram.bench import ann as bench_ann

    show = None if as_json else (lambda row: click.echo(json.dumps(row)))
    result = bench_ann.run(sizes, data=data, queries=queries, ef=ef, threads=threads, embedder=_embedder(ctx),
                           folder=folder, progress=show)
    click.echo(json.dumps(result if as_json else result["crossover"]))


@bench.command()
@click.option("--pg", "pg_url", default=None, help="A postgresql:// server URL to measure too (a fresh database is made).")
@click.option("--writers", default="1,4,16", show_default=True, callback=numbers,
              help="Writer process counts, comma-separated.")
@click.option("-n", "n", default=200, show_default=True, help="Writes per writer.")
@scratch_and_json
def concurrency(pg_url: str | None, writers: list[int], n: int, folder: str | None, as_json: bool) -> None:
    """Concurrent writer processes on one store, with a concurrent reader: SQLite (and PostgreSQL)."""
    import tempfile
    import uuid
    from pathlib import Path

    from engram.bench.concurrency import fresh_postgres_database, run

    root = Path(folder or tempfile.mkdtemp(prefix="engram-conc-"))
    backends = {"sqlite": lambda: str(root / f"{uuid.uuid4().hex}.db")}
    if pg_url:
        backends["postgres"] = lambda: fresh_postgres_database(pg_url)
    rows = run(backends, writers=writers, n=n)
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo("| backend | writers | writes/s | recall p50 ms | recall p95 ms |\n|---|---|---|---|---|")
    for r in rows:
        click.echo(f"| {r['backend']} | {r['writers']} | {r['writes_per_s']} | {r['recall_p50_ms']} | {r['recall_p95_ms']} |")


@bench.command(name="store")
@click.option("--items", default=200, show_default=True, help="Items put into one namespace.")
@click.option("--rounds", default=50, show_default=True, help="Calls of each read operation.")
@click.option("--embedder", default="hashing", show_default=True, help="The embedder both stores use.")
@scratch_and_json
def store_bench(items: int, rounds: int, embedder: str, folder: str | None, as_json: bool) -> None:
    """LangGraph store operations: EngramStore (SQLite) against LangGraph's InMemoryStore, same run."""
    from engram.bench.store import run
    from engram.errors import require

    require("langgraph.store.base", "langgraph")
    rows = run(items=items, rounds=rounds, embedder=embedder, folder=folder)
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo(f"load average {os.getloadavg()[0]:.2f}\n| operation | EngramStore µs | InMemoryStore µs | ratio |\n|---|---|---|---|")
    for r in rows:
        click.echo(f"| {r['operation']} | {r['engram_us']} | {r['inmemory_us']} | {r['ratio']} |")
