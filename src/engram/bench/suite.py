"""The robustness suite: recall over facts as people write them, not as a benchmark phrases them.

Data (written for Engram, not derived from LoCoMo; engram/bench/data/suite_*.jsonl, or another
folder of the same shape, such as a held-out set):
- `suite_facts.jsonl`: `{"id", "group", "text", "at"}`, one memory each, `at` its event date;
- `suite_questions.jsonl`: `{"question", "answers", "group", "style"}`; `answers` lists the ids of
  every fact that answers it (a changed fact and a fact that restates it both count).
Groups: work (tools, stacks, acronyms), personal (family, health, travel, schedules),
preferences, changed (a fact and, later, the fact that replaces it). Styles: plain, lower,
acronym, product, imperative ("Show me...", "Tell me..."), typo, negation, nooverlap (no
content word shared with the answer), paraphrase.

Protocol: every fact goes into one subject of a fresh store (`Memory.remember_many`, oldest first,
its date as `event_at`; whatever the store supersedes on the way is what a user would get); each question is asked at the day after the last fact, k=10. Scores per question:
top-1 (an answer ranks first), top-3, reciprocal rank of the first answer (0 past 10); means per
group, per style and overall. `case_stable` (hybrid only) is the fraction of questions whose
top 3 is the same for the question as written, lower-cased and with its first letter capitalised.
"""

from __future__ import annotations

import dataclasses
import json
import random
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timezone
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.bench.baselines import EngramRetriever
from engram.bench.report import markdown_table, percentiles
from engram.errors import InvalidInput

if TYPE_CHECKING:
    from engram.core.memory import Memory
    from engram.embed.base import Embedder

K = 10
SUBJECT = "user:suite"
PEOPLE = 800  # people in the many-people shape
PEOPLE_QUESTIONS = 300  # questions asked per size
RETRIEVERS = ("hybrid", "bm25", "dense")
FACTS_FILE = "suite_facts.jsonl"
QUESTIONS_FILE = "suite_questions.jsonl"
DAY = 86400.0


@dataclass(frozen=True)
class Fact:
    id: str
    group: str
    text: str
    at: float


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]
    group: str
    style: str


def _rows(text: str, name: str) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError as exc:
                raise InvalidInput(f"{name} line {number} is not JSON: {exc}") from exc
    return rows


def data_text(name: str, folder: str | Path | None = None) -> str:
    """The text of a bench data file: from `folder`, or the copy shipped with Engram (engram/bench/data)."""
    if folder is None:
        return (resources.files("engram.bench") / "data" / name).read_text(encoding="utf-8")
    return (Path(folder) / name).read_text(encoding="utf-8")


@contextmanager
def weighted(memory: Memory, weights: Mapping[str, float]) -> Iterator[None]:
    """`memory`'s hybrid ranking with `weights` overridden meanwhile (ablations), then its own again."""
    base = memory.weights
    memory.weights = dataclasses.replace(base, **weights)
    try:
        yield
    finally:
        memory.weights = base


def per_weights(memory: Memory, weights: Sequence[Mapping[str, float]],
                ask: Callable[[], dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """`ask()` once for each of `weights` (overrides of `memory`'s hybrid ranking), keyed by their
    text ("default" for {}); `memory` keeps its own weights afterwards."""
    runs = {}
    for override in weights:
        with weighted(memory, override):
            runs[",".join(f"{k}={v:g}" for k, v in override.items()) or "default"] = ask()
    return runs


def _day(raw: str) -> float:
    return datetime.combine(date.fromisoformat(raw), datetime.min.time(), timezone.utc).timestamp()


def load(folder: str | Path | None = None) -> tuple[list[Fact], list[Question]]:
    """The suite's facts and questions, from `folder` or the copy shipped with Engram."""
    try:
        facts_text, questions_text = data_text(FACTS_FILE, folder), data_text(QUESTIONS_FILE, folder)
        facts = [Fact(str(r["id"]), str(r["group"]), str(r["text"]), _day(str(r["at"])))
                 for r in _rows(facts_text, FACTS_FILE)]
        questions = [Question(str(r["question"]), tuple(str(a) for a in r["answers"]), str(r["group"]),
                              str(r.get("style", "plain"))) for r in _rows(questions_text, QUESTIONS_FILE)]
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"cannot read the suite from {folder or 'the package'}: {exc!r}") from exc
    known = {f.id for f in facts}
    for q in questions:
        missing = [a for a in q.answers if a not in known]
        if missing or not q.answers:
            raise InvalidInput(f"suite question {q.text!r} names unknown answers {missing or '(none)'}")
    return facts, questions


def variants(question: str) -> tuple[str, str, str]:
    """A question as written, lower-cased, and with its first letter capitalised."""
    return question, question.lower(), question[:1].upper() + question[1:]


def score(ranked: Sequence[str], answers: Iterable[str]) -> dict[str, float]:
    """top-1, top-3 and reciprocal rank (0 past K) of the first answer in `ranked`."""
    wanted = set(answers)
    rank = next((i + 1 for i, r in enumerate(ranked[:K]) if r in wanted), 0)
    return {"top1": float(rank == 1), "top3": float(0 < rank <= 3), "mrr": 1.0 / rank if rank else 0.0}


def _means(rows: Sequence[dict[str, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {key: round(sum(r[key] for r in rows) / len(rows), 4) for key in ("top1", "top3", "mrr")}
    out["n"] = len(rows)
    return out


def _by(questions: Sequence[Question], rows: Sequence[dict[str, float]], field: str) -> dict[str, Any]:
    keys = dict.fromkeys(getattr(q, field) for q in questions)
    return {key: _means([r for q, r in zip(questions, rows) if getattr(q, field) == key]) for key in keys}


def suite_store(facts: Sequence[Fact], retriever: str, folder: str | Path,
                embedder: Embedder | str | None = None,
                weights: Mapping[str, float] | None = None) -> EngramRetriever:
    """A fresh store under `folder` holding every fact (oldest first), searched by `retriever`."""
    engine = EngramRetriever(retriever, Path(folder) / f"suite-{retriever}.db", embedder, weights)
    try:
        engine.remember_facts([(f.id, f.text, f.at) for f in sorted(facts, key=lambda f: f.at)])
    except BaseException:
        engine.close()
        raise
    return engine


def ask_suite(engine: EngramRetriever, facts: Sequence[Fact], questions: Sequence[Question]) -> dict[str, Any]:
    """Every question against a suite store: scores per group and style, latency, case stability."""
    now = max(f.at for f in facts) + DAY
    rows, latencies, stable = [], [], 0
    for q in questions:
        t0 = time.perf_counter()
        ranked = [fact for fact, _ in engine.search(q.text, K, now)]
        latencies.append((time.perf_counter() - t0) * 1000)
        rows.append(score(ranked, q.answers))
        if engine.mode == "hybrid":
            tops = {tuple(f for f, _ in engine.search(v, 3, now)) for v in variants(q.text)}
            stable += len(tops) == 1
    result: dict[str, Any] = {"overall": _means(rows), "by_group": _by(questions, rows, "group"),
                              "by_style": _by(questions, rows, "style"), "latency_ms": percentiles(latencies)}
    if engine.mode == "hybrid":
        result["case_stable"] = round(stable / len(questions), 4)
    result["misses"] = [q.text for q, r in zip(questions, rows) if not r["top1"]]
    result["questions"] = [{"group": q.group, "style": q.style, **{k: round(v, 4) for k, v in r.items()}}
                           for q, r in zip(questions, rows)]
    return result


def run_retriever(facts: Sequence[Fact], questions: Sequence[Question], retriever: str, folder: str | Path,
                  embedder: Embedder | str | None = None, weights: Mapping[str, float] | None = None) -> dict[str, Any]:
    """One retriever over the suite in a fresh store under `folder`: scores and latency."""
    engine = suite_store(facts, retriever, folder, embedder, weights)
    try:
        return ask_suite(engine, facts, questions)
    finally:
        engine.close()


@dataclass
class PeopleStore:
    """A many-people store and the questions asked of it (`run_people`)."""

    memory: Memory
    ids: dict[str, int]  # item id -> index of its fact
    chosen: list[tuple[int, str]]  # (fact index, the question asked about it)
    out: dict[str, Any]


def people_store(size: int, folder: str | Path, *, people: int = PEOPLE, questions: int = PEOPLE_QUESTIONS,
                 seed: int = 1, embedder: Embedder | str | None = None) -> PeopleStore:
    """`size` generated facts about `people` people in one subject of a fresh store under `folder`,
    and `questions` of them drawn (with one of their paraphrased questions) for every retriever."""
    from engram.bench import people as generator
    from engram.core.memory import Memory

    facts = generator.generate(size, people=people, seed=seed)
    rng = random.Random(seed)
    asked = rng.sample(range(len(facts)), min(questions, len(facts)))
    memory = Memory(str(Path(folder) / f"people-{size}.db"), embedder=embedder or "minilm")
    try:
        ids: dict[str, int] = {}
        for start in range(0, len(facts), 1000):
            batch = facts[start : start + 1000]
            for offset, saved in enumerate(memory.remember_many(SUBJECT, [f.text for f in batch], now=1.0)):
                if saved.id is None:
                    raise InvalidInput(f"people fact {facts[start + offset].text!r} was not stored: {saved.reason}")
                ids[saved.id] = start + offset
    except BaseException:
        memory.close()
        raise
    chosen = [(index, rng.choice(facts[index].questions)) for index in asked]  # the same for every retriever
    return PeopleStore(memory, ids, chosen, {"facts": len(facts), "people": people, "questions": len(asked)})


def ask_people(store: PeopleStore, retriever: str, weights: Mapping[str, float] | None = None) -> dict[str, Any]:
    """top-1 / top-3 / MRR of one retriever (`weights` override hybrid's terms) on a people store."""
    from engram.core import ranking
    from engram.core.recall import search

    memory = store.memory
    base = memory.weights
    modes = {"hybrid": dataclasses.replace(base, **(weights or {})),
             "bm25": ranking.Weights.single("keyword", recency=base.recency),
             "dense": ranking.Weights.single("vector", recency=base.recency)}
    where = memory._filter()
    rows = []
    for index, question in store.chosen:
        hits = search(memory.store, memory.embedder, SUBJECT, question, K, where, modes[retriever], 2.0)
        rows.append(score([str(store.ids.get(h.id)) for h in hits], [str(index)]))
    return {**_means(rows), "mrr_by_question": [round(r["mrr"], 4) for r in rows]}


def run_people(size: int, folder: str | Path, *, people: int = PEOPLE, questions: int = PEOPLE_QUESTIONS,
               seed: int = 1, embedder: Embedder | str | None = None, retrievers: Sequence[str] = RETRIEVERS,
               weights: Mapping[str, float] | None = None) -> dict[str, Any]:
    """The many-people shape (engram.bench.people): `size` facts about `people` people in one
    subject, `questions` of them asked with one of their paraphrased questions (naming the
    person); top-1 / top-3 / MRR per retriever. `dense` is plain cosine over the same vectors."""
    store = people_store(size, folder, people=people, questions=questions, seed=seed, embedder=embedder)
    try:
        return {**store.out, **{name: ask_people(store, name, weights) for name in retrievers}}
    finally:
        store.memory.close()


def run(retrievers: Sequence[str] = RETRIEVERS, *, data: str | Path | None = None, embedder: Embedder | str | None = None,
        folder: str | Path | None = None, extra: Mapping[str, Callable[[str], dict[str, Any]]] | None = None,
        echo: Callable[[str], None] | None = None, weights: Mapping[str, float] | None = None,
        people: Sequence[int] = ()) -> dict[str, Any]:
    """The suite for each retriever; `extra` adds more results by name (e.g. LoCoMo per retriever);
    `weights` overrides terms of the hybrid ranking (ablations); `people` lists store sizes of the
    many-people shape to measure too (`run_people`)."""
    facts, questions = load(data)
    unknown = [r for r in retrievers if r not in RETRIEVERS]
    if unknown:
        raise InvalidInput(f"unknown suite retriever(s) {unknown}: choose from {', '.join(RETRIEVERS)}")
    out: dict[str, Any] = {"facts": len(facts), "questions": len(questions), "k": K,
                           "data": str(data) if data else "engram/bench/data", "weights": dict(weights or {}),
                           "retrievers": {}}
    with tempfile.TemporaryDirectory(prefix="engram-suite-", dir=folder) as tmp:
        for name in retrievers:
            out["retrievers"][name] = run_retriever(facts, questions, name, tmp, embedder, weights)
            if echo:
                echo(f"suite {name}: top-1 {out['retrievers'][name]['overall']['top1']:.3f}")
        if people:
            out["people"] = {}
        for size in people:
            out["people"][str(size)] = run_people(size, tmp, embedder=embedder, retrievers=retrievers,
                                                  weights=weights)
            if echo:
                echo(f"people {size}: {out['people'][str(size)]}")
    for label, measure in (extra or {}).items():
        out[label] = {name: measure(name) for name in retrievers}
    return out


def table(result: Mapping[str, Any]) -> str:
    """One row per retriever: top-1 / top-3 / MRR overall and per group, LoCoMo R@5 / R@10 if run."""
    runs = result["retrievers"]
    groups = list(next(iter(runs.values()))["by_group"]) if runs else []
    headers = ["retriever", "top-1", "top-3", "MRR", *(f"{g} top-1" for g in groups)]
    locomo = result.get("locomo")
    if locomo:
        headers += ["LoCoMo R@5", "LoCoMo R@10"]
    rows = []
    for name, res in runs.items():
        o = res["overall"]
        row: list[Any] = [name, o["top1"], o["top3"], o["mrr"], *(res["by_group"][g]["top1"] for g in groups)]
        if locomo:
            row += [locomo[name]["overall"]["R@5"], locomo[name]["overall"]["R@10"]]
        rows.append(row)
    return markdown_table(headers, rows)


def style_table(result: Mapping[str, Any]) -> str:
    """top-1 per question style, one column per retriever."""
    runs = result["retrievers"]
    styles = list(next(iter(runs.values()))["by_style"]) if runs else []
    rows = [[s, next(iter(runs.values()))["by_style"][s]["n"], *(runs[r]["by_style"][s]["top1"] for r in runs)]
            for s in styles]
    return markdown_table(["style", "n", *(f"{r} top-1" for r in runs)], rows)


def people_table(result: Mapping[str, Any]) -> str:
    """top-1 / MRR of each retriever at each size of the many-people shape."""
    sizes = result.get("people", {})
    names = [r for r in RETRIEVERS if any(r in v for v in sizes.values())]
    rows = [[f"{int(size):,} facts, {res['people']} people", res["questions"],
             *(f"{res[r]['top1']:.3f} / {res[r]['mrr']:.3f}" for r in names)] for size, res in sizes.items()]
    return markdown_table(["many-people store", "questions", *(f"{r} top-1 / MRR" for r in names)], rows)
