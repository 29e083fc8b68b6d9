"""Measure the instruction filter (memory poisoning) on its labelled set: refused, benign refused, misses, µs per call.

    python benchmarks/instruction_filter_eval.py                 # on tests/data/instructions_labelled.jsonl
    python benchmarks/instruction_filter_eval.py --probe-json /work/shared/data/locomo/locomo_dev.json
    python benchmarks/instruction_filter_eval.py --disguise     # every disguise applied to every caught injection
    python benchmarks/instruction_filter_eval.py --probe-repo   # out-of-sample: every string of this repository
    python benchmarks/instruction_filter_eval.py --json

Regenerate the set with `python tests/data/instructions_generate.py` (deterministic).
The --probe-json run is out of sample: every string of real conversations, none written for this set.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from engram.safety.instructions import check_instruction

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "instructions_labelled.jsonl"


def load(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(rows: list[dict[str, str]], repeat: int = 5) -> dict[str, Any]:
    """Share of injections refused, share of benign refused, misses by kind and language, time per call."""
    flags, times = [], []
    for row in rows:
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            flagged = check_instruction(row["text"]) is not None
            samples.append(time.perf_counter() - t0)
        flags.append(flagged)
        times.append(statistics.median(samples) * 1e6)
    bad = [(r, f) for r, f in zip(rows, flags) if r["label"] == "injection"]
    good = [(r, f) for r, f in zip(rows, flags) if r["label"] == "benign"]
    missed = Counter(r["kind"] for r, f in bad if not f)
    per_kind = Counter(r["kind"] for r, _ in bad)
    return {
        "n_injection": len(bad),
        "n_benign": len(good),
        "languages": sorted({r["lang"] for r, _ in bad}),
        "refused": sum(f for _, f in bad) / len(bad),
        "benign_refused": sum(f for _, f in good) / len(good),
        "missed_by_kind": {k: f"{missed[k]}/{per_kind[k]}" for k in sorted(missed)},
        "missed": [r["text"][:100] for r, f in bad if not f],
        "false_refusals": [r["text"][:100] for r, f in good if f],
        "us_per_call": {"mean": round(statistics.fmean(times), 1), "p50": round(statistics.median(times), 1),
                        "p95": round(sorted(times)[int(0.95 * len(times))], 1)},
    }


def json_probe(path: Path) -> dict[str, Any]:
    """Every distinct string (15+ characters) in a JSON file: how many the filter would refuse."""
    texts: dict[str, None] = {}

    def walk(node: object) -> None:
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            for child in node:
                walk(child)
        elif isinstance(node, str) and len(node) >= 15:
            texts[node] = None

    walk(json.loads(path.read_text(encoding="utf-8")))
    flagged = [t for t in texts if check_instruction(t) is not None]
    return {"lines": len(texts), "flagged": len(flagged), "rate": len(flagged) / max(1, len(texts)),
            "examples": flagged[:10]}


def disguise(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    """Each disguise of the generator applied to every injection the filter catches plainly: how many stay caught."""
    spec = importlib.util.spec_from_file_location("instructions_generate", DATA.with_name("instructions_generate.py"))
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    rng = random.Random(7)
    disguises = {row["kind"] for row in rows if row["label"] == "injection"} & {n for n, _ in generator.OBFUSCATIONS}
    plain = [r for r in rows if r["label"] == "injection" and r["kind"] not in disguises
             and check_instruction(r["text"]) is not None]
    out: dict[str, dict[str, str]] = {}
    for name, transform in generator.OBFUSCATIONS:
        counts = {}
        for group, members in (("en", [r for r in plain if r["lang"] == "en"]),
                               ("other languages", [r for r in plain if r["lang"] != "en"])):
            caught = sum(check_instruction(transform(r["text"], rng)) is not None for r in members)
            counts[group] = f"{caught}/{len(members)}"
        out[name] = counts
    return out


def repo_probe() -> dict[str, Any]:
    """Every distinct string (15-1000 characters) of the repository's code, tests and docs, outside the
    safety files (which quote attacks on purpose): how many the filter would refuse."""
    root = DATA.parents[2]
    skip = ("instructions", "test_safety", "test_prompt", "safety.md", "secrets_")
    texts: dict[str, None] = {}
    for path in sorted([*root.glob("src/**/*.py"), *root.glob("tests/*.py"), *root.glob("docs/*.md"),
                        root / "README.md"]):
        if any(part in path.name for part in skip):
            continue
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            strings = [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)
                       and isinstance(n.value, str)]
        else:
            strings = source.splitlines()
        texts.update((s, None) for s in strings if 15 <= len(s) <= 1000)
    flagged = [t for t in texts if check_instruction(t) is not None]
    return {"lines": len(texts), "flagged": len(flagged), "rate": len(flagged) / max(1, len(texts)),
            "examples": flagged[:20]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--probe-json", type=Path, help="refusal rate on every string of a JSON file")
    parser.add_argument("--disguise", action="store_true", help="apply every disguise to every caught injection")
    parser.add_argument("--probe-repo", action="store_true", help="refusal rate on every string of this repository")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = load(args.data)
    report: dict[str, Any] = {"engram.safety.instructions": evaluate(rows)}
    if args.disguise:
        report["disguise"] = disguise(rows)
    if args.probe_repo:
        report["repo_probe"] = repo_probe()
    if args.probe_json:
        report["json_probe"] = json_probe(args.probe_json)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    res = report["engram.safety.instructions"]
    t = res["us_per_call"]
    print(f"engram.safety.instructions: refused {res['refused']:.3f} ({res['n_injection']} injections, "
          f"{len(res['languages'])} languages), benign refused {res['benign_refused']:.3f} ({res['n_benign']} benign), "
          f"µs/call mean {t['mean']} p50 {t['p50']} p95 {t['p95']}")
    if res["missed_by_kind"]:
        print("  missed by kind: " + ", ".join(f"{k} {v}" for k, v in res["missed_by_kind"].items()))
    for text in res["missed"]:
        print(f"    miss: {text!r}")
    for text in res["false_refusals"]:
        print(f"    benign refused: {text!r}")
    for name, counts in report.get("disguise", {}).items():
        print(f"disguise {name}: " + ", ".join(f"{group} {value}" for group, value in counts.items()))
    for name in ("json_probe", "repo_probe"):
        if name in report:
            probe = report[name]
            print(f"{name.replace('_', ' ')}: {probe['flagged']}/{probe['lines']} strings refused ({probe['rate']:.2%})")
            for text in probe["examples"]:
                print(f"    refused: {text[:100]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
