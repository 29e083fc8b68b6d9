"""Fit the calibrated relevance's constants (engram.core.ranking.RELEVANCE_*) on labelled hits.

    python benchmarks/relevance_eval.py --split train --dump train.jsonl
    python benchmarks/relevance_fit.py train.jsonl [--check dev.jsonl ...] [--personal]

A logistic regression of on-topic answers (1) against off-topic questions' top hits (0) on the
relevance's four inputs (`ranking.relevance_evidence`: cosine, overlap, residual cosine, first
person), or with `--personal` on those and the fifth, the question's closeness to memories rather
than general knowledge (engram.core.background; `ranking.BACKGROUND_RELEVANCE`: the dumps must come
from the bundled MiniLM), each store size and class weighted equally (a 1-fact store gives many more off-topic
top hits than a 1,000-fact one), with a small L2 penalty. Prints the constants, then for each
file the separation at `ranking.ON_TOPIC` with the constants fitted and with the shipped ones.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from engram.core import ranking

FEATURES: tuple[str, ...] = ("cosine", "overlap", "residual", "first_person")
STORES = ("1", "30", "1000")


def labelled(path: str) -> list[dict[str, Any]]:
    """On-topic answers and off-topic top hits of a dump, each (store, question, text) once."""
    seen, out = set(), []
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    for h in rows:
        key = (h["store"], h["question"], h["text"], h["label"])
        if (h["label"] == "on" or (h["label"] == "off" and h["place"] == 0)) and key not in seen:
            seen.add(key)
            out.append(h)
    return out


def fit(rows: Sequence[dict[str, Any]], l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Weights of FEATURES, then the intercept (Newton's method on the weighted log-loss)."""
    x = np.array([[float(r[f]) for f in FEATURES] + [1.0] for r in rows])
    y = np.array([r["label"] == "on" for r in rows], dtype=float)
    w = np.ones(len(rows))
    for store in STORES:
        for label in ("on", "off"):
            group = [i for i, r in enumerate(rows) if r["store"] == store and r["label"] == label]
            if group:
                w[group] = 1.0 / len(group)
    w *= len(rows) / w.sum()
    b = np.zeros(x.shape[1])
    penalty = l2 * np.diag([1.0] * len(FEATURES) + [0.0])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ b))
        gradient = x.T @ (w * (p - y)) + penalty @ b
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + penalty + 1e-9 * np.eye(len(b))
        b -= np.linalg.solve(hessian, gradient)
    return b


def separation(rows: Sequence[dict[str, Any]], b: Sequence[float]) -> dict[str, Any]:
    """Per store size: least on-topic score, greatest off-topic top score, and how many of each
    fall on the wrong side of ON_TOPIC."""
    out = {}
    for store in STORES:
        chosen = [r for r in rows if r["store"] == store]
        s = [1.0 / (1.0 + np.exp(-(sum(c * float(r[f]) for c, f in zip(b, FEATURES)) + b[-1]))) for r in chosen]
        on = [x for x, r in zip(s, chosen) if r["label"] == "on"]
        off = [x for x, r in zip(s, chosen) if r["label"] == "off"]
        out[store] = {"min_on": round(min(on), 3) if on else None, "on_below": f"{sum(x < ranking.ON_TOPIC for x in on)}/{len(on)}",
                      "max_off": round(max(off), 3) if off else None,
                      "off_pass": f"{sum(x >= ranking.ON_TOPIC for x in off)}/{len(off)}"}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("train", help="a relevance_eval.py --dump of the train split")
    parser.add_argument("--check", nargs="*", default=[], help="dumps of other splits to report on")
    parser.add_argument("--personal", action="store_true", help="fit the five-input relevance (with `personal`)")
    parser.add_argument("--l2", type=float, default=1.0, help="the L2 penalty (chosen on dev)")
    args = parser.parse_args(argv)
    global FEATURES
    shipped: Sequence[float]
    if args.personal:
        FEATURES = (*FEATURES, "personal")
        shipped = ranking.BACKGROUND_RELEVANCE
    else:
        shipped = (ranking.RELEVANCE_COSINE, ranking.RELEVANCE_OVERLAP, ranking.RELEVANCE_RESIDUAL,
                   ranking.RELEVANCE_PERSON, ranking.RELEVANCE_BIAS)
    b = fit(labelled(args.train), l2=args.l2)
    print("fitted:", dict(zip([*FEATURES, "bias"], np.round(b, 2).tolist())))
    for path in [args.train, *args.check]:
        rows = labelled(path)
        print(path, "fitted ", json.dumps(separation(rows, b)))
        print(path, "shipped", json.dumps(separation(rows, shipped)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
