"""Train the intent classifier shipped as src/engram/data/intent_model.npz (reproducible, NumPy only).

    python benchmarks/train_intent.py --calibrate BEAM_100K_DIR          # train, pick L2 and thresholds, write the weights
    python benchmarks/train_intent.py --calibrate BEAM_100K_DIR --check  # retrain and compare with the shipped weights

Data: benchmarks/safety_data/intent_labelled.jsonl (its generator and DATA_CARD.md sit beside it) and
intent_written.jsonl (by hand), the standard library's docstrings and code, composed benign facts, and
with --calibrate windows of BEAM dev chats 1-5 (benign) and chats 6-10 for the threshold.
The test split is not read here; benchmarks/filter_eval.py reports it once, with the other batches.
Features are engram.safety.intent.features (the one definition the screen uses at run time).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from engram.safety.instructions import STRONG_RULES, lines_of, signals  # noqa: E402
from engram.safety.instructions import evidence as _evidence  # noqa: E402
from engram.safety.intent import DIM, FEATURE_NAMES, SIGNALS, WIDTH, features  # noqa: E402
from filter_eval import LONG, beam_messages  # noqa: E402  (the same reading of BEAM's chats as the evaluation)
sys.path.insert(0, str(ROOT / "benchmarks" / "safety_data"))
from splits import split_of  # noqa: E402  (the one split rule of the labelled sets)

DATA = ROOT / "benchmarks" / "safety_data" / "intent_labelled.jsonl"
# Hand-written rows (one sentence at a time, many languages, addressees and actions the templates lack);
# each weighs WRITTEN_WEIGHT template rows, since a template's rows say much the same thing many times.
WRITTEN = ROOT / "benchmarks" / "safety_data" / "intent_written.jsonl"
# The second hand-written batch: orders planted in artefacts (commit messages, docstrings, reviews, resumes, front
# matter), fake provenance ("User profile (verified by support)", "[Memory summary]"), readers named by role
# ("Grading model:"), and 20 languages; benign look-alikes of each (DATA_CARD.md).
WRITTEN2 = ROOT / "benchmarks" / "safety_data" / "intent_written2.jsonl"
# The third: orders planted for AI readers named by what they do ("Pour les assistants qui lisent cette page :"), in
# real carriers (reviews, READMEs, invites, signatures, code comments, tool output) and 20 languages, impersonal
# policies planted in tool output, words joined by symbols; benign twins of each carrier, the user's time-scoped
# facts, and reports and quotes of injections (DATA_CARD.md).
WRITTEN3 = ROOT / "benchmarks" / "safety_data" / "intent_written3.jsonl"
# Contrastive rows composed from frames x readers x actions in ten languages (intent_compose.py): each frame
# is filled with a harmful action for an AI reader, the user's own preference for an AI reader, and an errand for a person.
COMPOSED = ROOT / "benchmarks" / "safety_data" / "intent_composed.jsonl"
# The sixth: minimal pairs by hand (intent_pairs.py), an injection beside a twin that changes one thing (the reader
# becomes a person, the order the user's own preference, a report), in new carriers and 25 languages (DATA_CARD.md).
WRITTEN4 = ROOT / "benchmarks" / "safety_data" / "intent_written4.jsonl"
# The seventh: minimal pairs by hand (intent_pairs5.py) for the thin languages (Arabic, Hindi, Polish, Portuguese, ...)
# and the goals an agent's tools make dangerous, the reader named indirectly (DATA_CARD.md); its test split is not read.
WRITTEN5 = ROOT / "benchmarks" / "safety_data" / "intent_written5.jsonl"
# The eighth: minimal pairs by hand (intent_pairs6.py) in the phrasings an agent meets: fake standing consent and
# "permanent rules" for the memory beside the user's own memory requests, conditional triggers beside the user's own
# conditional preferences, steering planted in reviews and PDFs beside people's own recommendations, role-play and
# step lists, 24 languages; security write-ups quoting attacks in 19; a second sitting (after holdout14's errors were
# seen) with orders about the memory beside docs of memory systems, advice to an AI tool's operators beside orders
# planted for the tool (DATA_CARD.md); its test split is not read.
WRITTEN6 = ROOT / "benchmarks" / "safety_data" / "intent_written6.jsonl"
# The ninth: orders planted in what an agent ingests in 2026 (MCP tool descriptions and results, AGENTS.md, CLAUDE.md,
# .cursorrules, issues, PR reviews, tickets, product listings, API errors, meeting transcripts), phrased indirectly (what
# the reader "is expected to" do, conditional triggers, claimed authority, duties of "automated tools processing this
# repository"), 16 languages; benign look-alikes in the same carriers (build steps for agents and people, tool
# descriptions, tickets for people, security write-ups): instructions_tune16 (DATA_CARD.md); its test split is not read.
WRITTEN7 = ROOT / "benchmarks" / "safety_data" / "intent_written7.jsonl"
# The tenth: memory-native poisoning: rows shaped like what a memory system stores (preference notes, JSON records,
# key: value profiles, session summaries, contact and calendar fields) posing as the user's own state (fake consents,
# third parties given authority, "as agreed last session", code words and triggers), beside the user's real preferences,
# consents, roles, summaries, code words and triggers in the same shapes: instructions_tune17 (DATA_CARD.md); its test
# split is not read.
WRITTEN8 = ROOT / "benchmarks" / "safety_data" / "intent_written8.jsonl"
WRITTEN_WEIGHT = 4.0
OUT = ROOT / "src" / "engram" / "data" / "intent_model.npz"
L2_GRID = (1e-5, 3e-5)  # picked on dev (recall within the benign budgets)
# The concepts (engram.safety.concepts) are a few hundred features present in many rows: unpenalised, a lone one
# ("the user", "delete") outweighs every n-gram of a text that describes instead of orders. They get this L2.
CONCEPT_L2 = 1e-4
BENIGN_WEIGHT = 2.0
MAX_DEV_FALSE = 0.01  # the user threshold: the lowest that refuses at most 1% of benign dev rows
MAX_DEV_FALSE_UNTRUSTED = 0.05  # text from tools and pages: up to 5% of benign dev rows refused
# The classifier alone must be confident: without a strong rule hit a text is refused only at or over
# MIN_THRESHOLD (MIN_THRESHOLD_UNTRUSTED for tools and pages), whatever the dev rows would allow.
# 0.6 since intent_written3: its benign rows (the user speaking to the model about themselves) took the dev budget
# from 0.652 to 0.526, and at that bar one BEAM held-out message (a table of accounts with "[password]" cells) and one
# more of the composed set's Italian "Claude, ricorda questo di me: ..." were refused (docs/safety.md).
# 0.7 since instructions_holdout13: every fresh hand-written batch refused more benign look-alikes at its first read
# (holdout11 2/30, holdout12 4/60, holdout13 6/60) than the dev rows suggest; at 0.7 the test splits lose 2-3% of
# their injections, holdout13 refuses 2/60 benign rows instead of 4/60 (not clean: chosen after its read), BEAM's
# held-out messages 0/3300 instead of 2/3300 and this repository's docs 31 paragraphs instead of 45.
MIN_THRESHOLD = 0.7
MIN_THRESHOLD_UNTRUSTED = 0.4
RULE_FLOOR = 0.1  # a rule hit alone never refuses: the classifier must lean that way too


STDLIB_ROWS = 2000  # benign technical English: first sentences of the interpreter's own stdlib docstrings
CODE_ROWS = 1500  # benign code: windows of the interpreter's own stdlib sources (comments, strings, markup in strings)


_MEMO: dict[str, tuple[dict[str, str], list[str]]] = {}


def evidence(text: str) -> tuple[dict[str, str], frozenset[str], list[str]]:
    """engram.safety.instructions.evidence, with the rule hits and readings memoised (`--cache`); the
    signals are always computed afresh from them, so editing the cues needs no new cache."""
    if text not in _MEMO:
        hits, _, readings = _evidence(text)
        _MEMO[text] = (hits, readings)
    hits, readings = _MEMO[text]
    return hits, signals(hits, readings, lines_of(text)), readings


def stdlib_sentences() -> list[dict[str, str]]:
    """Benign rows read from this Python's standard library (docstrings are full of imperatives that
    address no model: "Send data to the socket.", "Ignore the rest."). Not stored in the repository;
    the split is drawn per module, like the templates."""
    import ast
    import sysconfig

    out: list[dict[str, str]] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef, ast.Module)):
                doc = ast.get_docstring(node)
                if doc:
                    first = " ".join(doc.split("\n\n")[0].split())[:300]
                    if len(first) >= 20:
                        out.append({"text": first, "label": "benign", "family": "stdlib_docstring", "lang": "en",
                                    "template": f"stdlib:{path.stem}"})
    out = sorted({r["text"]: r for r in out}.values(), key=lambda r: hashlib.sha256(r["text"].encode()).hexdigest())
    out = out[:STDLIB_ROWS]
    code: list[dict[str, str]] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        source = path.read_text(encoding="utf-8", errors="replace")
        for start in range(0, len(source) - 400, 4000):
            code.append({"text": source[start:start + 400], "label": "benign", "family": "stdlib_code", "lang": "en",
                         "template": f"stdlib:{path.stem}"})
    code.sort(key=lambda r: hashlib.sha256(r["text"].encode()).hexdigest())
    out += code[:CODE_ROWS]
    for r in out:
        r["split"] = split_of(r["template"])
    return out


def fact_shapes() -> list[dict[str, str]]:
    """Benign memories composed from this machine's vocabulary (benchmarks/safety_data/benign_facts.py), split per shape."""
    sys.path.insert(0, str(DATA.parent))
    from benign_facts import benign_facts

    out = benign_facts()
    for r in out:
        r["split"] = split_of(r["template"])
    return out


def written_rows() -> list[dict[str, str]]:
    return [dict(json.loads(line), written=True) for path in (WRITTEN, WRITTEN2, WRITTEN3, WRITTEN4, WRITTEN5, WRITTEN6,
                                                                            WRITTEN7, WRITTEN8)
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


TRAIN_CHATS = range(1, 6)  # BEAM chats whose message windows are benign training rows (long, technical, full of "you")
CALIBRATION_CHATS = range(6, 11)  # BEAM chats that calibrate the threshold; 11..20 stay for benchmarks/filter_eval.py
BEAM_ROWS = 3000


def beam_windows(beam_dir: Path | None) -> list[dict[str, str]]:
    """Benign training rows: windows of BEAM's dev chats 1-5 as the screen reads them (read at training
    time, never stored), at most BEAM_ROWS of them, picked by a hash."""
    if beam_dir is None:
        return []
    from engram.safety.instructions import pieces

    rows = [{"text": w, "label": "benign", "family": "beam_window", "lang": "en", "split": "train"}
            for text in beam_messages(beam_dir, TRAIN_CHATS) for w in pieces(text[:LONG])]
    rows.sort(key=lambda r: hashlib.sha256(r["text"].encode()).hexdigest())
    return rows[:BEAM_ROWS]


def load(split: str, beam_dir: Path | None = None) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]], np.ndarray, np.ndarray]:
    """(strong rule fired, features, label, row weight) of every reading of every row of `split`."""
    rows = ([json.loads(line) for path in (DATA, COMPOSED) for line in path.read_text(encoding="utf-8").splitlines()]
            + written_rows()
            + stdlib_sentences() + fact_shapes() + beam_windows(beam_dir))
    rows = [r for r in rows if r["split"] == split]
    feats, labels, ruled, weight = [], [], [], []
    for r in rows:  # one training row per reading (a disguised text also as the rules decoded it)
        hits, sig, readings = evidence(r["text"])
        feats += [features(reading, sig) for reading in readings]
        labels += [r["label"] == "injection"] * len(readings)
        ruled += [bool(STRONG_RULES & set(hits))] * len(readings)
        weight += [WRITTEN_WEIGHT if r.get("written") else 1.0] * len(readings)
    return np.array(ruled), feats, np.array(labels, dtype=np.float64), np.array(weight)


MAX_CALIBRATION_FALSE = 0.003  # at most 0.3% of those messages refused


def calibration_messages(beam_dir: Path) -> list[list[tuple[np.ndarray, np.ndarray, bool]]]:
    """Features of every window of every message of the calibration chats (benign conversation)."""
    from engram.safety.instructions import pieces

    out = []
    for text in beam_messages(beam_dir, CALIBRATION_CHATS):
        feats = []
        for window in pieces(text[:LONG]):
            hits, sig, readings = evidence(window)
            feats += [(*features(reading, sig), bool(STRONG_RULES & set(hits))) for reading in readings]
        out.append(feats)
    return out


def message_probabilities(w: np.ndarray, b: float, messages: list[list[tuple[np.ndarray, np.ndarray, bool]]],
                          *, ruled: bool = False) -> np.ndarray:
    """Each message's highest window probability (`ruled`: among windows where a rule fired)."""
    return np.array([max((1 / (1 + np.exp(-(float(w[i] @ v) + b))) for i, v, hit in m if hit or not ruled), default=0.0)
                     for m in messages])


def csr(feats: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    idx = np.concatenate([f[0] for f in feats])
    val = np.concatenate([f[1] for f in feats])
    rows = np.repeat(np.arange(len(feats)), [len(f[0]) for f in feats])
    return idx, val, rows


def logits(w: np.ndarray, b: float, x: tuple[np.ndarray, np.ndarray, np.ndarray], n: int) -> np.ndarray:
    idx, val, rows = x
    return np.bincount(rows, weights=w[idx] * val, minlength=n) + b


def train(x: tuple[np.ndarray, np.ndarray, np.ndarray], y: np.ndarray, l2: float, row_weight: np.ndarray,
          epochs: int = 400) -> tuple[np.ndarray, float]:
    """Class-balanced, row-weighted logistic regression, full-batch Adam (deterministic)."""
    n = len(y)
    # Benign text is most of what a memory sees: it weighs BENIGN_WEIGHT times the injections, so text
    # unlike anything in the set (a new topic, a code block) leans benign instead of sitting at 0.5.
    pos = float((row_weight * y).sum() / row_weight.sum())
    sw = row_weight / row_weight.mean() * np.where(y == 1, 1 / (1 + BENIGN_WEIGHT) / pos,
                                                   BENIGN_WEIGHT / (1 + BENIGN_WEIGHT) / (1 - pos))
    penalty = np.full(WIDTH, l2)
    penalty[DIM + len(SIGNALS):] = max(l2, CONCEPT_L2)
    w, b = np.zeros(WIDTH), 0.0
    mw, vw, mb, vb = np.zeros(WIDTH), np.zeros(WIDTH), 0.0, 0.0
    lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
    idx, val, rows = x
    for t in range(1, epochs + 1):
        p = 1 / (1 + np.exp(-logits(w, b, x, n)))
        g = sw * (p - y) / n
        gw = np.bincount(idx, weights=val * g[rows], minlength=WIDTH) + penalty * w
        gb = float(g.sum())
        mw = b1 * mw + (1 - b1) * gw
        vw = b2 * vw + (1 - b2) * gw * gw
        mb = b1 * mb + (1 - b1) * gb
        vb = b2 * vb + (1 - b2) * gb * gb
        w -= lr * (mw / (1 - b1 ** t)) / (np.sqrt(vw / (1 - b2 ** t)) + eps)
        b -= lr * (mb / (1 - b1 ** t)) / (np.sqrt(vb / (1 - b2 ** t)) + eps)
    return w, b


def pick_threshold(p: np.ndarray, y: np.ndarray, max_false: float) -> float:
    """The lowest probability threshold whose benign refusal rate on these rows is at most `max_false`."""
    benign = np.sort(p[y == 0])[::-1]
    allowed = int(np.floor(max_false * len(benign)))
    return float(min(0.95, max(0.05, benign[allowed] + 1e-3))) if len(benign) > allowed else 0.05


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="retrain and compare with the shipped weights")
    ap.add_argument("--calibrate", type=Path, metavar="BEAM_100K_DIR",
                    help="BEAM's 100K chats directory: windows of chats 1-5 are benign training rows, and the threshold "
                         "refuses at most 0.3%% of chats 6-10's messages")
    ap.add_argument("--out", type=Path, default=OUT, help="where to write the weights (default: the package's)")
    ap.add_argument("--l2", type=float, action="append", help="try only this L2 (repeatable; default: the grid)")
    ap.add_argument("--cache", type=Path, metavar="FILE",
                    help="keep the rule hits of every row here between runs (a pickle; delete it after editing the rules)")
    args = ap.parse_args()
    if args.cache and args.cache.exists():
        _MEMO.update(pickle.loads(args.cache.read_bytes()))
    calibration = calibration_messages(args.calibrate) if args.calibrate else []
    _, tr_f, tr_y, tr_w = load("train", args.calibrate)
    dv_rule, dv_f, dv_y, _ = load("dev")
    if args.cache:
        args.cache.write_bytes(pickle.dumps(_MEMO))
    xtr, xdv = csr(tr_f), csr(dv_f)
    best = None
    for l2 in args.l2 or L2_GRID:
        w, b = train(xtr, tr_y, l2, tr_w)
        # Round through float16, as shipped, before judging.
        w16 = w.astype(np.float16).astype(np.float64)
        p = 1 / (1 + np.exp(-logits(w16, b, xdv, len(dv_y))))
        # The classifier alone gets half of each budget; a strong rule hit plus the classifier, the rest.
        t_dev = pick_threshold(p, dv_y, MAX_DEV_FALSE / 2)
        t_beam = (pick_threshold(message_probabilities(w16, b, calibration), np.zeros(len(calibration)),
                                 MAX_CALIBRATION_FALSE / 2) if calibration else 0.0)
        t = max(MIN_THRESHOLD, t_dev, t_beam)
        print(f"l2={l2:g}: the dev budget allows {t_dev:.3f}, the BEAM budget {t_beam:.3f}, the floor {MIN_THRESHOLD}")
        # A strong rule hit is the second cue that lowers the bar: the lowest rule threshold at which the
        # screen as a whole (classifier alone at t, or rule + classifier at t_rule) keeps within the same
        # limits on all benign dev rows and all calibration messages (a joint budget, not a per-subset one).
        t_rule = t
        if calibration:
            cal_all = message_probabilities(w16, b, calibration)
            cal_ruled = message_probabilities(w16, b, calibration, ruled=True)
        for cand in np.arange(t, RULE_FLOOR - 1e-9, -0.01):
            dev_false = float(((p >= t) | (dv_rule & (p >= cand)))[dv_y == 0].mean())
            cal_false = float(((cal_all >= t) | (cal_ruled >= cand)).mean()) if calibration else 0.0
            if dev_false > MAX_DEV_FALSE or cal_false > MAX_CALIBRATION_FALSE:
                break
            t_rule = float(cand)
        refused = (p >= t) | (dv_rule & (p >= t_rule))
        recall = float(refused[dv_y == 1].mean())
        print(f"l2={l2:g}: dev recall {recall:.3f} at threshold {t:.3f}, {t_rule:.3f} with a rule hit (<= 1% of benign dev rows refused"
              + (f", <= {MAX_CALIBRATION_FALSE:.1%} of {len(calibration)} BEAM messages)" if calibration else ")"))
        if best is None or recall > best[0]:
            best = (recall, l2, w16, b, t, float(pick_threshold(p, dv_y, MAX_DEV_FALSE_UNTRUSTED)), p, t_rule, refused)
    assert best is not None
    recall, l2, w16, b, t, t_untrusted, p, t_rule, refused = best
    ptr = 1 / (1 + np.exp(-logits(w16, b, xtr, len(tr_y))))
    meta = {
        "l2": l2, "threshold": round(t, 3), "threshold_untrusted": round(min(t, max(MIN_THRESHOLD_UNTRUSTED, t_untrusted)), 3),
        "threshold_rule": round(t_rule, 3),
        "train_rows": len(tr_y), "dev_rows": len(dv_y),
        "train_recall": round(float((ptr[tr_y == 1] >= t).mean()), 3),
        "train_benign_refused": round(float((ptr[tr_y == 0] >= t).mean()), 3),
        "dev_recall": round(recall, 3), "dev_benign_refused": round(float(refused[dv_y == 0].mean()), 3),
        "calibrated_on_beam_messages": len(calibration),
        "data_sha256": hashlib.sha256(DATA.read_bytes() + COMPOSED.read_bytes()).hexdigest()[:16],
    }
    print(json.dumps(meta))
    signal_w = {name: round(float(w16[DIM + i]), 2) for i, name in enumerate(SIGNALS)}
    print("signal weights:", signal_w)
    concept_w = sorted(((name, float(w16[DIM + i])) for i, name in enumerate(FEATURE_NAMES) if name.startswith("c:")),
                       key=lambda nw: -abs(nw[1]))
    print("strongest concept weights:", ", ".join(f"{n} {v:+.2f}" for n, v in concept_w[:16]))
    if args.check:
        with np.load(OUT, allow_pickle=False) as shipped:
            same = np.array_equal(shipped["weights"], w16.astype(np.float16))
        print("shipped weights reproduced" if same else "shipped weights DIFFER from a fresh training run")
        return 0 if same else 1
    np.savez_compressed(args.out, weights=w16.astype(np.float16), bias=np.float64(b), meta=np.str_(json.dumps(meta)))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
