"""Measure the secret filter on the labelled set: recall, false-positive rate, misses per kind, µs per call.

    python benchmarks/secret_filter_eval.py                 # engram.safety.secrets on tests/data/secrets_labelled.jsonl
    python benchmarks/secret_filter_eval.py --baselines     # also the reference article's regex and detect-secrets
    python benchmarks/secret_filter_eval.py --stdlib-probe  # out-of-sample: stdlib lines that mention keys/passwords
    python benchmarks/secret_filter_eval.py --probe-json locomo_dev.json  # out-of-sample: every string in a JSON file
    python benchmarks/secret_filter_eval.py --json

Regenerate the set with `python tests/data/secrets_generate.py` (deterministic).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from engram.safety.secrets import check_text

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "secrets_labelled.jsonl"

# The reference article's filter, verbatim, as a baseline.
SEED_SECRET = re.compile(
    r"(api[_\s-]?key|password|passwd|secret\s*[:=]|\bsk-[a-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[a-z0-9]{20,})", re.IGNORECASE
)


def load(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evaluate(rows: list[dict[str, str]], detect: Callable[[str], bool], repeat: int = 5) -> dict:
    """Recall, FPR, per-kind misses and per-call time (median of `repeat` timings per text)."""
    flags, times = [], []
    for row in rows:
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            flagged = detect(row["text"])
            samples.append(time.perf_counter() - t0)
        flags.append(flagged)
        times.append(statistics.median(samples) * 1e6)
    secrets = [(r, f) for r, f in zip(rows, flags) if r["label"] == "secret"]
    benign = [(r, f) for r, f in zip(rows, flags) if r["label"] == "benign"]
    per_kind = Counter(r["kind"] for r, _ in secrets)
    missed = Counter(r["kind"] for r, f in secrets if not f)
    return {
        "n_secret": len(secrets),
        "n_benign": len(benign),
        "recall": sum(f for _, f in secrets) / len(secrets),
        "false_positive_rate": sum(f for _, f in benign) / len(benign),
        "missed_by_kind": {k: f"{missed[k]}/{per_kind[k]}" for k in sorted(missed)},
        "missed": [r["text"][:100] for r, f in secrets if not f],
        "false_positives": [r["text"][:100] for r, f in benign if f],
        "us_per_call": {"mean": round(statistics.fmean(times), 1), "p50": round(statistics.median(times), 1),
                        "p95": round(sorted(times)[int(0.95 * len(times))], 1)},
    }


def detect_secrets_detector() -> Callable[[str], bool] | None:
    """detect-secrets 1.5 scanning a string in-process (default plugins), if it is installed."""
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def detect(text: str) -> bool:
        with default_settings():
            return any(True for line in text.splitlines() or [""] for _ in scan_line(line))

    return detect


def stdlib_probe() -> dict:
    """Lines of the Python stdlib (tests excluded) that mention keys, tokens or passwords: how many are flagged."""
    root = Path(sysconfig.get_paths()["stdlib"])
    topic = re.compile(r"password|passwd|token|secret|api.?key|credential|\bpin\b|\bkey\b", re.IGNORECASE)
    lines = []
    for path in sorted(root.rglob("*.py")):
        if {"test", "tests", "idlelib", "site-packages"} & set(path.parts):
            continue
        for raw in path.read_text(encoding="utf-8", errors="ignore").splitlines():
            text = raw.strip().lstrip("#").strip()
            if 20 <= len(text) <= 300 and topic.search(text):
                lines.append(text)
    flagged = [t for t in lines if check_text(t) is not None]
    return {"lines": len(lines), "flagged": len(flagged), "rate": len(flagged) / max(1, len(lines)),
            "examples": flagged[:10]}


def json_probe(path: Path) -> dict:
    """Every distinct string (15+ characters) in a JSON file, e.g. real conversations: how many are flagged."""
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
    flagged = [t for t in texts if check_text(t) is not None]
    return {"lines": len(texts), "flagged": len(flagged), "rate": len(flagged) / max(1, len(texts)),
            "examples": flagged[:10]}


def print_report(name: str, res: dict) -> None:
    t = res["us_per_call"]
    print(f"{name}: recall {res['recall']:.3f} ({res['n_secret']} secrets), "
          f"false positives {res['false_positive_rate']:.3f} ({res['n_benign']} benign), "
          f"µs/call mean {t['mean']} p50 {t['p50']} p95 {t['p95']}")
    if res["missed_by_kind"]:
        print("  missed by kind: " + ", ".join(f"{k} {v}" for k, v in res["missed_by_kind"].items()))
    for text in res["missed"][:10]:
        print(f"    miss: {text!r}")
    for text in res["false_positives"][:10]:
        print(f"    false positive: {text!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--baselines", action="store_true", help="also run the seed regex and detect-secrets")
    parser.add_argument("--stdlib-probe", action="store_true", help="flag rate on stdlib lines about secrets")
    parser.add_argument("--probe-json", type=Path, help="flag rate on every string of a JSON file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = load(args.data)
    report = {"engram.safety.secrets": evaluate(rows, lambda t: check_text(t) is not None)}
    if args.baselines:
        report["seed_regex"] = evaluate(rows, lambda t: SEED_SECRET.search(t) is not None)
        detector = detect_secrets_detector()
        if detector is not None:
            report["detect_secrets"] = evaluate(rows, detector, repeat=1)
        else:
            print("detect-secrets not installed: pip install detect-secrets==1.5.0 to compare", file=sys.stderr)
    if args.stdlib_probe:
        report["stdlib_probe"] = stdlib_probe()
    if args.probe_json:
        report["json_probe"] = json_probe(args.probe_json)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    for name, res in report.items():
        if name.endswith("_probe"):
            print(f"{name.replace('_', ' ')}: {res['flagged']}/{res['lines']} lines flagged ({res['rate']:.2%})")
            for text in res["examples"]:
                print(f"    flagged: {text[:100]!r}")
        else:
            print_report(name, res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
