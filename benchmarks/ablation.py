"""Every ranking term on and off, on LoCoMo dev, BEAM dev, the robustness suite, the many-people shape
and Engram's knowledge-update and date sets (train and dev splits; test is left alone).

    python benchmarks/ablation.py --locomo /path/to/locomo_dev.json --beam /path/to/beam/100K \\
        --people 1000,10000 --vector-cache /tmp/engram-vectors --json benchmarks/results/ablation.json

Each variant is the shipped `ranking.Weights` with some fields overridden, exactly what
`engram bench locomo|suite|beam --weights name=value` runs; here every store is built once and asked
once per variant (weights change the ranking, not what is stored), so the whole table costs one
ingest. `--check` re-runs one variant through `engram.bench.locomo.run` / `suite.run` to show
the numbers are the same. Differences are paired (same questions, same stores): the table gives
each variant's change against the shipped weights and its standard error over questions (the
sampling noise a held-out set of this size would show).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engram.bench import beam, dates, locomo, suite, updates
from engram.bench.baselines import make_retriever, parse_weights
from engram.bench.vectorcache import bench_embedder

#: Each term off (or, for the terms off by default, on), against the shipped weights ("shipped").
VARIANTS: dict[str, str] = {
    "shipped": "",
    "keyword=0": "keyword=0",
    "context=0": "context=0",
    "session=0": "session=0",
    "entity=0": "entity=0",
    "time=0": "time=0",
    "date=0": "date=0",
    "question=0": "question=0",
    "focus=0": "focus=0",
    "recency=0": "recency=0",
    "diversity=0.3": "diversity=0.3",
    "keyword_cap=2": "keyword_cap=2",
    "newest=0": "newest=0",
}


def _variants(text: str | None) -> dict[str, dict[str, float]]:
    names = [v.strip() for v in text.split(";")] if text else list(VARIANTS)
    return {name: parse_weights(VARIANTS.get(name, name)) for name in names if name}


def run_locomo(path: str, variants: Mapping[str, Mapping[str, float]], embedder: Any,
               folder: str) -> dict[str, list[dict[str, Any]]]:
    """Per-question scores of every variant, one store per conversation built once."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
    for conv in locomo.load(path):
        engine = make_retriever("hybrid", Path(folder) / f"locomo-{conv.id}.db", embedder)
        try:
            engine.ingest(conv)
            for name, weights in variants.items():
                engine.reweigh(weights)  # type: ignore[attr-defined]  # hybrid is an EngramRetriever
                for q, ranked, _ in locomo.ask(engine, conv):
                    scores = locomo.score_question([d for d, _ in ranked], q.evidence)
                    rows[name].append({"category": locomo.CATEGORIES[q.category], **scores})
        finally:
            engine.close()
        print(f"locomo {conv.id} done", file=sys.stderr)
    return rows


def run_beam(folder: str, variants: Mapping[str, Mapping[str, float]], embedder: Any, tmp: str,
             limit: int | None = None) -> dict[str, list[dict[str, Any]]]:
    """Per-question scores of every variant on BEAM chats (`engram.bench.beam`), one store per chat
    built once: R@k of the question's evidence messages, its ability, and newest-first where it
    is a knowledge update."""
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in variants}
    for chat in beam.load(folder, limit):
        engine = beam.Engine(str(Path(tmp) / f"beam-{chat.name}.db"), embedder)
        try:
            engine.ingest(chat)
            for name, weights in variants.items():
                with suite.weighted(engine.memory, weights):
                    for q in chat.questions:
                        ranked = engine.search("hybrid", q.text, max(beam.KS), chat.last_time)
                        rows[name].append({"ability": q.ability, "newest_first": beam.newest_first(ranked, q),
                                           **{f"R@{k}": beam.recall_at(ranked, q.evidence, k) for k in beam.KS}})
        finally:
            engine.close()
        print(f"beam {chat.name} done", file=sys.stderr)
    return rows


def run_splits(module: Any, variants: Mapping[str, Mapping[str, float]], embedder: Any,
               folder: str) -> dict[str, dict[str, int]]:
    """`engram.bench.updates` or `.dates` on the train and dev splits (each store built once):
    per variant, the hits and questions summed over both (updates: newest first and `as_of`)."""
    out: dict[str, dict[str, int]] = {name: {} for name in variants}
    for split in ("train", "dev"):
        result = module.run(split, embedder=embedder, folder=folder, weights=list(variants.values()))
        for name, weights in variants.items():
            run = result["runs"][",".join(f"{k}={v:g}" for k, v in weights.items()) or "default"]
            for key in ("newest_hits", "as_of_hits", "top1_hits", "n"):
                if key in run:
                    out[name][key] = out[name].get(key, 0) + int(run[key])
    return out


def run_suite(variants: Mapping[str, Mapping[str, float]], embedder: Any, folder: str) -> dict[str, dict[str, Any]]:
    facts, questions = suite.load()
    engine = suite.suite_store(facts, "hybrid", folder, embedder)
    try:
        out = {}
        for name, weights in variants.items():
            engine.reweigh(weights)
            out[name] = suite.ask_suite(engine, facts, questions)
        return out
    finally:
        engine.close()


def run_people(sizes: Sequence[int], variants: Mapping[str, Mapping[str, float]], embedder: Any,
               folder: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for size in sizes:
        store = suite.people_store(size, folder, embedder=embedder)
        try:
            out[str(size)] = {name: suite.ask_people(store, "hybrid", weights) for name, weights in variants.items()}
            out[str(size)]["dense (plain cosine)"] = suite.ask_people(store, "dense")
        finally:
            store.memory.close()
        print(f"people {size} done", file=sys.stderr)
    return out


def paired(base: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """Mean of other - base and its standard error (paired over the same questions)."""
    diffs = [b - a for a, b in zip(base, other)]
    if len(diffs) < 2:
        return (diffs[0] if diffs else 0.0), 0.0
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def _mean(rows: Sequence[Mapping[str, Any]], key: str, **where: str) -> float:
    kept = [r[key] for r in rows if all(r[k] == v for k, v in where.items())]
    return statistics.fmean(kept) if kept else 0.0


def summarise(result: Mapping[str, Any]) -> dict[str, Any]:
    """Per variant: LoCoMo R@5 / R@10 (and per category), suite top-1 / top-3 / MRR (and per
    group), people top-1 / MRR per size, each with its paired change and standard error."""
    out: dict[str, Any] = {}
    lo = result.get("locomo", {})
    be = result.get("beam", {})
    su = result.get("suite", {})
    up, da = result.get("updates", {}), result.get("dates", {})
    pe = result.get("people", {})
    for name in result["variants"]:
        row: dict[str, Any] = {}
        if lo:
            base, mine = lo["shipped"], lo[name]
            for key in ("R@5", "R@10", "R@25", "session_R@10"):
                delta, se = paired([r[key] for r in base], [r[key] for r in mine])
                row[f"locomo {key}"] = {"value": round(_mean(mine, key), 4), "delta": round(delta, 4), "se": round(se, 4)}
            for cat in locomo.CATEGORIES.values():
                row[f"locomo {cat} R@10"] = round(_mean(mine, "R@10", category=cat), 4)
        if be:
            base, mine = be["shipped"], be[name]
            for key in ("R@5", "R@10"):
                delta, se = paired([r[key] for r in base], [r[key] for r in mine])
                row[f"beam {key}"] = {"value": round(_mean(mine, key), 4), "delta": round(delta, 4), "se": round(se, 4)}
            fresh = [r["newest_first"] for r in mine if r["newest_first"] is not None]
            row["beam newest_first"] = round(statistics.fmean(fresh), 4) if fresh else None
            for ability in sorted({r["ability"] for r in mine}):
                row[f"beam {ability} R@10"] = round(_mean(mine, "R@10", ability=ability), 4)
        if su:
            base_q, mine_q = su["shipped"]["questions"], su[name]["questions"]
            for key in ("top1", "top3", "mrr"):
                delta, se = paired([q[key] for q in base_q], [q[key] for q in mine_q])
                row[f"suite {key}"] = {"value": su[name]["overall"][key], "delta": round(delta, 4), "se": round(se, 4)}
            for group, res in su[name]["by_group"].items():
                row[f"suite {group} top1"] = res["top1"]
                row[f"suite {group} mrr"] = res["mrr"]
            row["suite case_stable"] = su[name].get("case_stable")
        if up:
            row["updates newest"] = f"{up[name]['newest_hits']}/{up[name]['n']}"
            row["updates as_of"] = f"{up[name]['as_of_hits']}/{up[name]['n']}"
        if da:
            row["dates top1"] = f"{da[name]['top1_hits']}/{da[name]['n']}"
        for size, runs in pe.items():
            delta, se = paired(runs["shipped"]["mrr_by_question"], runs[name]["mrr_by_question"])
            row[f"people {size} top1"] = runs[name]["top1"]
            row[f"people {size} mrr"] = {"value": runs[name]["mrr"], "delta": round(delta, 4), "se": round(se, 4)}
        out[name] = row
    return out


def markdown(summary: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    def cell(v: Any) -> str:
        if isinstance(v, dict):
            return f"{v['value']:.3f} ({v['delta']:+.3f} ± {v['se']:.3f})" if v["delta"] else f"{v['value']:.3f}"
        return "" if v is None else v if isinstance(v, str) else f"{v:.3f}"

    first = next(iter(summary.values()))
    cols = [c for c in first if not c.startswith(("locomo ", "beam ")) or c in ("locomo R@5", "locomo R@10", "beam R@10")]
    cols = [c for c in cols if ("case_stable" not in c and " mrr" not in c) or c.startswith(("suite mrr", "people"))]
    lines = ["| variant | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 1)]
    for name, row in summary.items():
        lines.append(f"| {name} | " + " | ".join(cell(row[c]) for c in cols) + " |")
    if result.get("locomo"):
        cats = [c for c in first if c.startswith("locomo ") and c.endswith(" R@10") and c != "locomo R@10"]
        lines += ["", "| variant | " + " | ".join(c.removeprefix("locomo ") for c in cats) + " |",
                  "|" + "---|" * (len(cats) + 1)]
        lines += [f"| {name} | " + " | ".join(f"{row[c]:.3f}" for c in cats) + " |" for name, row in summary.items()]
    if result.get("beam"):
        cats = [c for c in first if c.startswith("beam ") and c != "beam R@5" and c != "beam R@10"]
        lines += ["", "| variant | " + " | ".join(c.removeprefix("beam ") for c in cats) + " |",
                  "|" + "---|" * (len(cats) + 1)]
        lines += [f"| {name} | " + " | ".join(cell(row[c]) for c in cats) + " |" for name, row in summary.items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", help="LoCoMo JSON file (read in place)")
    parser.add_argument("--beam", help="a BEAM folder of <n>/chat.json (read in place)")
    parser.add_argument("--beam-limit", type=int, default=None, help="only the first N BEAM chats")
    parser.add_argument("--people", default="1000,10000", help="many-people sizes (empty: skip)")
    parser.add_argument("--no-suite", action="store_true")
    parser.add_argument("--no-own", action="store_true", help="skip the knowledge-update and date sets")
    parser.add_argument("--variants", help="';'-separated variant names or weight overrides (default: all)")
    parser.add_argument("--embedder", default=None)
    parser.add_argument("--vector-cache", default=None, help="folder of cached vectors (engram.bench.vectorcache)")
    parser.add_argument("--json", dest="out", help="write the whole result here")
    args = parser.parse_args()
    variants = _variants(args.variants)
    variants.setdefault("shipped", {})
    variants = {"shipped": variants.pop("shipped"), **variants}
    embedder = bench_embedder(args.embedder, args.vector_cache)
    t0 = time.time()
    result: dict[str, Any] = {"variants": dict(variants), "load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix="engram-ablation-") as tmp:
        if args.locomo:
            result["locomo"] = run_locomo(args.locomo, variants, embedder, tmp)
        if args.beam:
            result["beam"] = run_beam(args.beam, variants, embedder, tmp, args.beam_limit)
        if not args.no_suite:
            result["suite"] = run_suite(variants, embedder, tmp)
        if not args.no_own:
            result["updates"] = run_splits(updates, variants, embedder, tmp)
            result["dates"] = run_splits(dates, variants, embedder, tmp)
        sizes = [int(s) for s in args.people.split(",") if s.strip()]
        if sizes:
            result["people"] = run_people(sizes, variants, embedder, tmp)
    result["load_after"] = os.getloadavg()
    result["seconds"] = round(time.time() - t0, 1)
    result["summary"] = summarise(result)
    if args.out:
        Path(args.out).write_text(json.dumps(result))
    print(markdown(result["summary"], result))


if __name__ == "__main__":
    main()
