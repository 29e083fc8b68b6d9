"""Two versions of Engram back to back on the same server: `engram bench tenants` per version, alternating.

    python benchmarks/ab_tenants.py --a /path/to/old/src=postgresql://.../tenants_a \\
        --b /path/to/new/src=postgresql://.../tenants_b --processes 1,4 --rounds 2

Each version runs from its own source tree (PYTHONPATH) on its own database (a schema migration
makes a database one-way: an older Engram refuses a newer schema). Rounds alternate the order (A B,
then B A) so drift in the machine's load falls on both. Every result is appended, with the version,
the load average (1, 5, 15 min) at its start and end and the command, to
benchmarks/results/tenants-ab.jsonl.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results" / "tenants-ab.jsonl"


def run(label: str, src: str, url: str, processes: int, shape: list[str]) -> dict:
    """One `engram bench tenants --json` from the source tree `src`, with the load around it."""
    args = ["bench", "tenants", "--db", url, *shape, "--processes", str(processes), "--json"]
    before = [round(x, 2) for x in os.getloadavg()]
    started = time.time()
    out = subprocess.run([sys.executable, "-m", "engram.interfaces.cli", *args], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": src})
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["run"] = {"version": label, "src": src, "command": "engram " + " ".join(args[:-1]),
                     "load_start": before, "load_end": [round(x, 2) for x in os.getloadavg()],
                     "seconds": round(time.time() - started, 1), "at": time.strftime("%Y-%m-%dT%H:%M:%S")}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", required=True, help="SRC=URL of the first version (e.g. main)")
    parser.add_argument("--b", required=True, help="SRC=URL of the second version")
    parser.add_argument("--processes", default="1,4")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--subjects", type=int, default=300)
    parser.add_argument("--items", type=int, default=300)
    args = parser.parse_args()
    versions = {"A": args.a.split("=", 1), "B": args.b.split("=", 1)}
    shape = ["--subjects", str(args.subjects), "--items", str(args.items)]
    RESULTS.parent.mkdir(exist_ok=True)
    for n in range(args.rounds):
        order = ["A", "B"] if n % 2 == 0 else ["B", "A"]
        for processes in [int(p) for p in args.processes.split(",")]:
            for label in order:
                src, url = versions[label]
                result = run(label, src, url, processes, shape)
                with open(RESULTS, "a", encoding="utf-8") as out:
                    out.write(json.dumps(result) + "\n")
                print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
