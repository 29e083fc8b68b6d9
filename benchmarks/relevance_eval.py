"""Does one `min_score` separate on-topic answers from off-topic top hits in stores of 1, 30 and 1,000 facts?

    python benchmarks/relevance_eval.py --split dev [--json] [--dump hits.jsonl]

Data: benchmarks/relevance_data (DATA_CARD.md): written memories with on-topic questions, the
robustness suite's facts and questions (engram/bench/data), generated people facts
(engram.bench.people, one seed per split) and written off-topic questions. Each split's
questions are asked of its own stores:
- 1 fact: every answer alone in its own subject, asked its question and every off-topic question;
- 30 facts: the split's answers in groups of 10, each group with 20 other facts (suite, people,
  written memories), asked the group's questions and every off-topic question;
- 1,000 facts: the suite's facts, the written memories and people facts up to 1,000, asked the
  split's questions (suite, written, 40 people questions) and every off-topic question.

Reports, per store size, the least score of an on-topic answer (recalled in the top 10; misses
are counted apart), the greatest score of an off-topic question's top hit and of any of its top
10, how many fall on the wrong side of `ranking.ON_TOPIC`, and the worst cases. `--dump` writes
every scored hit (question, text, the relevance's inputs, score, label) for fitting.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engram.bench.people import generate
from engram.bench.suite import load as load_suite
from engram.core import ranking
from engram.core.memory import Memory
from engram.embed.local import MiniLMEmbedder

DATA = Path(__file__).resolve().parent / "relevance_data"
SPLITS = ("train", "dev", "test")
PEOPLE_SEED = {"train": 101, "dev": 102, "test": 103}
WRITTEN = {"train": range(1, 41), "dev": range(41, 61), "test": range(61, 81)}
K = 10


@dataclass(frozen=True)
class Ask:
    """An on-topic question and the ids of the facts that answer it."""

    question: str
    answers: tuple[str, ...]
    source: str
    style: str


def split_of(key: str) -> str:
    """The split of a suite answer id: 3 of 5 train, 1 dev, 1 test, by hash."""
    h = int(hashlib.sha256(key.encode()).hexdigest(), 16) % 5
    return "train" if h < 3 else ("dev" if h == 3 else "test")


def rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def corpus(split: str) -> tuple[dict[str, str], list[Ask], list[Ask], list[str]]:
    """Facts by id (suite, written, people of this split's seed), the split's on-topic questions
    (written and suite; people apart) and its off-topic questions."""
    facts = {f"suite:{f.id}": f.text for f in load_suite()[0]}
    facts.update({f"mem:{r['id']}": r["text"] for r in rows("memories.jsonl")})
    people = generate(1000 - len(facts), people=200, seed=PEOPLE_SEED[split])
    facts.update({f"person:{i}": p.text for i, p in enumerate(people)})
    mine = {f"m{n:02d}" for n in WRITTEN[split]}
    asks = [Ask(r["question"], (f"mem:{r['answer']}",), "written", r["style"])
            for r in rows("on_topic.jsonl") if r["answer"] in mine]
    asks += [Ask(q.text, tuple(f"suite:{a}" for a in q.answers), "suite", q.style)
             for q in load_suite()[1] if split_of(q.answers[0]) == split]
    rng = random.Random(PEOPLE_SEED[split])
    chosen = rng.sample(range(len(people)), 40)
    persons = [Ask(rng.choice(people[i].questions), (f"person:{i}",), "people", "plain") for i in chosen]
    off = [r["question"] for r in rows("off_topic.jsonl") if r["split"] == split]
    return facts, asks, persons, off


def hit_rows(mem: Memory, subject: str, ask: str, store: str, answers: Sequence[str],
             texts: dict[str, str]) -> list[dict[str, Any]]:
    """Every top-10 hit of `ask`, labelled: an answer is on-topic, anything else of an off-topic
    question is off-topic (the top one flagged), other hits of an on-topic question unlabelled."""
    answer_texts = {texts[a] for a in answers}
    out = []
    for place, h in enumerate(mem.recall(subject, ask, k=K, explain=True)):
        label = "on" if h.text in answer_texts else ("off" if not answers else None)
        out.append({"store": store, "question": ask, "text": h.text, "place": place, "score": h.score,
                    "cosine": h.components["cosine"], "overlap": h.components["overlap"],
                    "residual": h.components.get("residual"), "first_person": h.components.get("first_person"),
                    "personal": h.components.get("personal"), "label": label})
    return out


def collect(split: str, folder: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(hits, asked): every scored hit, and every on-topic question with whether it was recalled."""
    facts, asks, persons, off = corpus(split)
    hits: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []

    def ask_on(mem: Memory, subject: str, store: str, on: Iterable[Ask]) -> None:
        for a in on:
            found = hit_rows(mem, subject, a.question, store, a.answers, facts)
            hits.extend(h for h in found if h["label"] == "on")
            asked.append({"store": store, "question": a.question, "source": a.source, "style": a.style,
                          "recalled": any(h["label"] == "on" for h in found)})

    def ask_off(mem: Memory, subject: str, store: str) -> None:
        for q in off:
            hits.extend(hit_rows(mem, subject, q, store, (), facts))

    rng = random.Random(split)
    on_all = [*asks, *persons]
    with Memory(str(Path(folder) / f"{split}.db"), embedder=MiniLMEmbedder()) as mem:
        # 1 fact: each answer alone in its subject; the off-topic questions asked of 30 of them.
        singles = sorted({a.answers[-1] for a in on_all})
        for n, fid in enumerate(singles):
            mem.remember(f"one:{n}", facts[fid])
            ask_on(mem, f"one:{n}", "1", [a for a in on_all if a.answers[-1] == fid])
        for n in sorted(rng.sample(range(len(singles)), min(30, len(singles)))):
            ask_off(mem, f"one:{n}", "1")
        # 30 facts: each group of 10 questions' answers, topped up to 30 with other facts; the
        # off-topic questions asked of three groups.
        answering = {i for a in on_all for i in a.answers}
        others = [f for f in facts if f not in answering]
        for g in range(0, len(on_all), 10):
            group = on_all[g:g + 10]
            ids = list(dict.fromkeys(i for a in group for i in a.answers))
            ids += rng.sample(others, max(0, 30 - len(ids)))
            rng.shuffle(ids)
            mem.remember_many(f"thirty:{g}", [facts[i] for i in ids])
            ask_on(mem, f"thirty:{g}", "30", group)
            if g < 30:
                ask_off(mem, f"thirty:{g}", "30")
        # 1,000 facts.
        mem.remember_many("thousand:0", list(facts.values()))
        ask_on(mem, "thousand:0", "1000", on_all)
        ask_off(mem, "thousand:0", "1000")
    return hits, asked


def report(hits: Sequence[dict[str, Any]], asked: Sequence[dict[str, Any]], threshold: float) -> dict[str, Any]:
    """Per store size: separation of on-topic answers from off-topic top hits at `threshold`."""
    out: dict[str, Any] = {"threshold": threshold}
    for store in ("1", "30", "1000"):
        on = [h for h in hits if h["store"] == store and h["label"] == "on"]
        off_top = [h for h in hits if h["store"] == store and h["label"] == "off" and h["place"] == 0]
        off_any = [h for h in hits if h["store"] == store and h["label"] == "off"]
        missed = [a for a in asked if a["store"] == store and not a["recalled"]]
        worst_on = sorted(on, key=lambda h: h["score"])[:3]
        worst_off = sorted(off_top, key=lambda h: -h["score"])[:3]
        out[store] = {
            "on": len(on), "missed": len(missed),
            "min_on": round(min(h["score"] for h in on), 3) if on else None,
            "on_below": sum(h["score"] < threshold for h in on),
            "off_questions": len(off_top),
            "max_off_top": round(max(h["score"] for h in off_top), 3) if off_top else None,
            "off_top_pass": sum(h["score"] >= threshold for h in off_top),
            "max_off_any": round(max(h["score"] for h in off_any), 3) if off_any else None,
            "worst_on": [(round(h["score"], 3), h["question"], h["text"]) for h in worst_on],
            "worst_off": [(round(h["score"], 3), h["question"], h["text"]) for h in worst_off],
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, default="dev")
    parser.add_argument("--threshold", type=float, default=ranking.ON_TOPIC)
    parser.add_argument("--dump", help="write every scored hit here (JSON lines)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        hits, asked = collect(args.split, folder)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for h in hits:
                out.write(json.dumps({**h, "split": args.split}) + "\n")
    result = {"split": args.split, **report(hits, asked, args.threshold)}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for store in ("1", "30", "1000"):
            r = result[store]
            print(f"{store:>5} facts: on-topic {r['on']} (missed {r['missed']}) min {r['min_on']} "
                  f"below {r['on_below']}; off-topic {r['off_questions']} max top {r['max_off_top']} "
                  f"pass {r['off_top_pass']} (any of top 10: {r['max_off_any']})")
            for s, q, t in r["worst_on"]:
                print(f"        on  {s:.3f} {q!r} -> {t!r}")
            for s, q, t in r["worst_off"]:
                print(f"        off {s:.3f} {q!r} -> {t!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
