"""What the write screens cost on top of the embedding, per short write (one run, interleaved).

    python benchmarks/screen_cost.py            # the recall suite's facts, 5 rounds
    python benchmarks/screen_cost.py --rounds 20

For every short text (the recall suite's facts: one-line memories) it times, back to back, the
screens a write runs (`engram.safety.screen.refusal`: secrets + instructions) and the default
embedder (MiniLM int8) on the same text, and prints the p50 of each and their ratio. Both are
measured in the same run on the same machine, so the ratio holds under load where the
absolute figures do not. It also times the screens back to back, without the embedder in between
(ONNX Runtime's threads keep spinning for a while after a call and take the CPU from what runs
next on a small machine). Target: screens <= 0.3 ms p50.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from engram.embed import get_embedder  # noqa: E402
from engram.safety.screen import refusal  # noqa: E402

SUITE = ROOT / "src" / "engram" / "bench" / "data" / "suite_facts.jsonl"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    texts = [json.loads(line)["text"] for line in SUITE.read_text(encoding="utf-8").splitlines()]
    embedder = get_embedder("minilm")
    refusal(texts[:5])  # load the classifier and compile the rules once
    embedder.embed(texts[:5])
    screen_us, embed_us, alone_us = [], [], []
    for _ in range(args.rounds):
        for text in texts:  # interleaved, as in a write
            t0 = time.perf_counter()
            refusal([text])
            t1 = time.perf_counter()
            embedder.embed([text])
            t2 = time.perf_counter()
            screen_us.append((t1 - t0) * 1e6)
            embed_us.append((t2 - t1) * 1e6)
        for text in texts:  # the screens back to back (no embedder threads still spinning between them)
            t0 = time.perf_counter()
            refusal([text])
            alone_us.append((time.perf_counter() - t0) * 1e6)
    s50, e50, a50 = statistics.median(screen_us), statistics.median(embed_us), statistics.median(alone_us)
    print(json.dumps({"texts": len(texts), "rounds": args.rounds,
                      "screens_p50_us_interleaved": round(s50, 1), "screens_p50_us_back_to_back": round(a50, 1),
                      "screens_p95_us_back_to_back": round(statistics.quantiles(alone_us, n=20)[-1], 1),
                      "embedding_p50_us": round(e50, 1), "screens_over_embedding": round(s50 / e50, 3),
                      "target_p50_us": 300}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
