"""Precision and recall of the supersession detector on labelled (old, new) fact pairs.

    python benchmarks/supersede_eval.py [--data tests/data/supersede_pairs.jsonl] [--embedder minilm] [--json]

Each pair is scored as a one-candidate call to `engram.core.supersede.detect`, with the cosine
similarity of the two texts from the chosen embedder (the default, all-MiniLM-L6-v2). Prints
precision, recall and F1 per split ("dev": the pairs the rules were written against;
"holdout": pairs written after the rules were frozen) and every misclassified pair.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engram.embed import get_embedder
from engram.core.supersede import detect
from engram.types import Item

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "supersede_pairs.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    """The labelled pairs: {"old", "new", "update": bool, "split"}."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(pairs: list[dict[str, Any]], embedder_spec: str = "minilm") -> dict[str, Any]:
    """Scores per split and overall, with the misclassified pairs and each decision's reason."""
    embedder = get_embedder(embedder_spec)
    texts = sorted({p["old"] for p in pairs} | {p["new"] for p in pairs})
    vectors = dict(zip(texts, embedder.embed(texts)))
    rows = []
    for n, pair in enumerate(pairs):
        old = Item(id=f"old{n}", subject="user:eval", text=pair["old"])
        similarity = float(vectors[pair["old"]] @ vectors[pair["new"]])
        decisions = detect(pair["new"], [(old, similarity)])
        rows.append({**pair, "predicted": bool(decisions), "similarity": round(similarity, 3),
                     "reason": decisions[0].reason if decisions else None})
    report = {"embedder": embedder.identity, "n": len(rows)}
    for split in sorted({r.get("split", "dev") for r in rows}) + ["all"]:
        chosen = [r for r in rows if split == "all" or r.get("split", "dev") == split]
        report[split] = scores(chosen)
    report["errors"] = [r for r in rows if r["predicted"] != r["update"]]
    return report


def scores(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision, recall, F1 and counts for predicted vs labelled updates."""
    tp = sum(r["predicted"] and r["update"] for r in rows)
    fp = sum(r["predicted"] and not r["update"] for r in rows)
    fn = sum(not r["predicted"] and r["update"] for r in rows)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"pairs": len(rows), "updates": tp + fn, "tp": tp, "fp": fp, "fn": fn,
            "precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = evaluate(load(args.data), args.embedder)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"embedder {report['embedder']}, {report['n']} pairs")
    for split in [k for k in report if isinstance(report[k], dict)]:
        s = report[split]
        print(f"{split:8} pairs={s['pairs']:4} updates={s['updates']:3} precision={s['precision']:.3f}"
              f" recall={s['recall']:.3f} f1={s['f1']:.3f}  (tp={s['tp']} fp={s['fp']} fn={s['fn']})")
    for r in report["errors"]:
        kind = "missed update" if r["update"] else "false update"
        print(f"  {kind:13} [{r.get('split', 'dev')}] sim={r['similarity']:.2f} {r['old']!r} -> {r['new']!r}"
              + (f"  ({r['reason']})" if r["reason"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
