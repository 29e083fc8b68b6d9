"""Precision and recall of the supersession detector on labelled (old, new) fact pairs.

    python benchmarks/supersede_eval.py [--data tests/data/supersede_pairs.jsonl] [--embedder minilm] [--json]
    python benchmarks/supersede_eval.py --people 10000 [--persons 800] [--updates 0] [--batch 0] [--embedder minilm]

Each pair is scored as a one-candidate call to `engram.core.supersede.detect`, with the cosine
similarity of the two texts from the chosen embedder (the default, all-MiniLM-L6-v2). Prints
precision, recall and F1 per split ("dev": the pairs the rules were written against;
"holdout": pairs written after the rules were frozen) and every misclassified pair.

With `--people N`, writes N generated one-sentence facts about many people
(`engram.bench.people`: each person and attribute once, plus `--updates` true updates of
single-valued attributes) into a new store through `Memory.remember` one by one (or
`remember_many` in batches of `--batch`), and counts the supersessions: every one that is not
a generated update is a true fact wrongly hidden from recall.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
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


def people_store(count: int, persons: int = 800, updates: int = 0, batch: int = 0,
                 embedder_spec: str = "minilm", seed: int = 1) -> dict[str, Any]:
    """Write generated people facts into a fresh store; count true and false supersessions."""
    from engram.bench.people import generate
    from engram.core.memory import Memory

    facts = generate(count, people=persons, updates=updates, seed=seed)
    with tempfile.TemporaryDirectory() as folder, Memory(str(Path(folder) / "people.db"),
                                                         embedder=embedder_spec) as mem:
        started = time.perf_counter()
        if batch > 0:
            saved = [s for at in range(0, len(facts), batch)
                     for s in mem.remember_many("user:people", [f.text for f in facts[at : at + batch]])]
        else:
            saved = [mem.remember("user:people", f.text) for f in facts]
        seconds = time.perf_counter() - started
        position = {s.id: i for i, s in enumerate(saved) if s.saved}
        pairs = [(position[old], i) for i, s in enumerate(saved) for old in s.superseded]
        identity = mem.embedder.identity if mem.embedder else None
    false = [(facts[a].text, facts[b].text) for a, b in pairs if facts[b].updates != a]
    return {"embedder": identity, "facts": len(facts), "people": persons, "true_updates": updates,
            "mode": f"remember_many({batch})" if batch > 0 else "remember", "seconds": round(seconds, 1),
            "supersessions": len(pairs), "false": len(false), "found_updates": len(pairs) - len(false),
            "false_examples": false[:20]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--people", type=int, default=0, help="write this many generated people facts instead")
    parser.add_argument("--persons", type=int, default=800, help="how many people they are about")
    parser.add_argument("--updates", type=int, default=0, help="true updates among them")
    parser.add_argument("--batch", type=int, default=0, help="remember_many batch size (0: remember one by one)")
    args = parser.parse_args(argv)
    if args.people:
        result = people_store(args.people, args.persons, args.updates, args.batch, args.embedder)
        print(json.dumps(result, indent=2))
        return 0
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
