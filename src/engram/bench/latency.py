"""Recall latency by store size, write throughput against the raw embedder, and peak memory.

- write: `Memory.remember_many` of N synthetic facts vs `embedder.embed` of the same texts alone
  (best of 3 alternating rounds each);
- recall: `Memory.recall` wall time (query embedding included) over a fixed query set, at each
  size of one subject, plus one subject inside a store holding `store_size` items in all.
  Up to `embed_limit` items are real embedded sentences; past that, MiniLM-like vectors (drawn
  from a Gaussian fitted to 1,000 embedded facts, `minilm_like`) are written straight through the
  store (`Store.put`) to avoid hours of embedding: the result says which sizes were filled that way.
- past the ANN crossover (`engram.core.ann.EXACT_MAX_ITEMS`): the index build time, and
  `recall10_vs_exact`, the share of each query's recall top 10 that the exact scan also returns.
- steps: p50 of the query embedding, the exact vector scan and the keyword search alone.
- keyword (`keyword_figures`): the keyword search alone (engram.store.keyword, p50/p95) against
  the FTS5 path it replaced (a `bench_fts5` table built in the same file, queried with the old
  statement) in the same run: `fts5_over_keyword` is FTS5's time over ours, and `top10_vs_fts5`
  the share of FTS5's top 10 we also return (statistics differ: per subject now, whole table then).
- the store measurement also times a small subject (`small_subject` items) in the same big store.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.bench.report import embedder_of, peak_rss_mb, percentiles
from engram.types import FACT, Item
from engram.validate import content_hash

if TYPE_CHECKING:
    from engram.core.memory import Memory

SUBJECT = "user:bench"
#: What fills sizes past `embed_limit`: vectors from a Gaussian fitted to embedded facts (`minilm_like`).
VECTORS = "fitted"
NAMES = ["Alice", "Bob", "Maria", "Chen", "Priya", "Omar", "The team", "Our CI", "The billing job", "Sam"]
VERBS = ["uses", "prefers", "moved to", "depends on", "asked about", "runs on", "wants", "reviewed",
         "scheduled", "cancelled"]
THINGS = ["Postgres 16", "dark mode", "GitHub Actions", "a peanut-free menu", "Spanish lessons", "AWS Lambda",
          "a nightly backup", "the quarterly report", "Rust for the parser", "a standing desk", "Kubernetes",
          "the Berlin office", "vegetarian food", "the blue theme", "weekly one-on-ones", "Redis caching"]
WHEN = ["last week", "on Tuesdays", "since March", "for all services", "every morning", "in the new project",
        "after the outage", "this quarter", "before the launch", "at the offsite"]
QUESTIONS = ["Which database does the team use?", "What does Maria prefer to eat?", "Where does Bob work now?",
             "What runs every night?", "Which language is the parser written in?", "What did Alice ask about?",
             "When are the Spanish lessons?", "What does the CI run on?", "Who reviewed the quarterly report?",
             "What theme does Sam like?"]


def sentences(n: int, seed: int = 7) -> list[str]:
    """n distinct synthetic one-sentence facts."""
    rng = random.Random(seed)
    return [f"{rng.choice(NAMES)} {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(WHEN)} (note {i})."
            for i in range(n)]


def write_throughput(embedder: Any, folder: Path, n: int, rounds: int = 3) -> dict[str, float]:
    """Items/s of remember_many (batches of 256, a fresh store each round) vs texts/s of the raw
    embedder on the same texts. The two alternate for `rounds` rounds and the fastest round of
    each counts: on a shared machine other load only ever adds time, and it comes and goes."""
    from engram.core.memory import Memory

    texts = sentences(n, seed=1)
    embedder.embed(texts[:32])  # load the model before timing
    raw_s, write_s = [], []
    for index in range(rounds):
        t0 = time.perf_counter()
        embedder.embed(texts)
        raw_s.append(time.perf_counter() - t0)
        with Memory(str(folder / f"write-{index}.db"), embedder=embedder) as mem:
            t0 = time.perf_counter()
            for start in range(0, n, 256):
                mem.remember_many(SUBJECT, texts[start : start + 256])
            write_s.append(time.perf_counter() - t0)
    raw, writes = n / min(raw_s), n / min(write_s)
    return {"n": n, "rounds": rounds, "embedder_per_s": round(raw, 1), "remember_many_per_s": round(writes, 1),
            "ratio": round(raw / writes, 3)}


def fill(store: Any, subject: str, n: int, model: str, seed: int, now: float,
         vectors: Callable[[int], np.ndarray]) -> None:
    """Write n items straight through the store, in chunks, with `vectors(count)` unit vectors."""
    texts = sentences(n, seed=seed)
    for start in range(0, n, 20_000):
        chunk = texts[start : start + 20_000]
        items = [_item(subject, f"{t} [{subject} {start + i}]", now) for i, t in enumerate(chunk)]
        vecs = vectors(len(items))
        store.put(items, {it.id: v for it, v in zip(items, vecs)}, model=model)


def minilm_like(embedder: Any, seed: int = 5, base: int = 1000) -> Callable[[int], np.ndarray]:
    """Unit vectors from a Gaussian fitted to `base` embedded synthetic facts (engram.bench.ann):
    clustered like real embeddings, so an ANN index is measured fairly (random unit vectors are
    every HNSW graph's worst case), and cheap to make by the million."""
    from engram.bench.ann import base_vectors, gaussian_like

    sample: Callable[[int], np.ndarray] = gaussian_like(np.random.default_rng(seed), base_vectors(embedder, base))
    return sample


def ann_figures(mem: Memory, subject: str, queries: Sequence[str], rounds: int = 3) -> dict[str, Any]:
    """Past the crossover, on the subject's ANN index:

    - `ann_build_s`: seconds to build it (any saved copy is deleted first, so it is a build);
    - `recall10_vs_exact`: how much of each query's recall top 10 (the whole pipeline, k=10)
      equals the same recall's with an exact scan; `vector_recall10`: the same for the index's
      own 10 nearest against the exact scan's;
    - `exact_ms` / `ann_ms` and `exact_over_ann`: `recall.search` p50/p95 with the exact scan
      and with the index, the two alternating query by query (a ratio that holds under load);
      `cpu_ms`: the process CPU time of each, and of `Memory.recall`, timed in the same rotation;
    - `saved` (a SQLite file): the saved index's size and save time, then `reopen_figures` and
      `forget_figures`."""
    from engram.core import ann
    from engram.core import vectors as nearest
    from engram.core.recall import CANDIDATES, search
    from engram.store import sqlite_ann

    model = embedder_of(mem).identity
    ids, matrix = mem.store.vectors(subject, model)
    if len(ids) <= ann.EXACT_MAX_ITEMS:
        return {"ann": False}
    folder = sqlite_ann.folder(mem.store)
    if folder is not None:
        from engram.core import ann_files

        for header in ann_files.headers(folder, subject):
            ann.delete_files(header)
    t0 = time.perf_counter()
    built = nearest.prepare(mem.store, subject, model)
    build_s = time.perf_counter() - t0
    where = mem._filter()

    def top(q: str, exact: bool) -> list[str]:
        return [h.id for h in search(mem.store, mem.embedder, subject, q, 10, where, mem.weights, 0.0,
                                     exact_vectors=exact)]

    overlap, vector = [], []
    for q in queries:
        tops = [set(top(q, exact)) for exact in (False, True)]
        overlap.append(len(tops[0] & tops[1]) / max(1, len(tops[1])))
        v = embedder_of(mem).embed_one(q)
        near = nearest.scores(mem.store, subject, model, ids, matrix, v, CANDIDATES).nearest(10)
        truth = nearest.ExactScores(nearest.cosines(matrix, v)).nearest(10)
        vector.append(len(set(near.tolist()) & set(truth.tolist())) / max(1, len(truth)))
    timed = _timed({"ann": lambda q: top(q, False), "exact": lambda q: top(q, True),
                    "recall": lambda q: mem.recall(subject, q, k=10)}, list(queries), rounds)
    out: dict[str, Any] = {
        "ann": built, "ann_build_s": round(build_s, 1),
        "recall10_vs_exact": round(sum(overlap) / len(overlap), 4) if overlap else None,
        "vector_recall10": round(sum(vector) / len(vector), 4) if vector else None,
        "ann_ms": timed["ann"]["ms"], "exact_ms": timed["exact"]["ms"],
        "cpu_ms": {name: timed[name]["cpu_ms"] for name in ("ann", "exact", "recall")},
        "exact_over_ann": {k: round(timed["exact"]["ms"][k] / max(timed["ann"]["ms"][k], 1e-6), 2)
                           for k in ("p50", "p95")}}
    state = nearest.status(mem.store, subject, model)
    if folder is not None and state["file"]:
        header = Path(state["file"])
        out["saved"] = {"file_mb": round(sum(p.stat().st_size for p in [header, *ann.payloads(header)]) / 2**20, 1),
                        "save_s": state["save_s"], "build_over_save": round(build_s / max(state["save_s"], 1e-6), 1)}
        out["reopen"] = reopen_figures(type(mem), mem.store.url, mem.embedder, subject, queries, build_s)
        out["forget"] = forget_figures(mem, subject)
    return out


def reopen_figures(memory_cls: Any, path: str, embedder: Any, subject: str, queries: Sequence[str],
                   build_s: float) -> dict[str, Any]:
    """A second Memory on the same file, as a restarted process would open it: seconds to open;
    to build the subject's names book (`names_book_s`: engram.core.names reads every item of the
    subject in a fresh process; timed apart, so the first recall that follows does not pay it);
    the first recall (exact while the saved index loads in the background) and `first_answer_s`,
    opening to its answer; seconds from opening until the index is ready (`index_ready_s`) and of
    the load alone (`load_s`: rows read, files checked and loaded, caught up), against `build_s`;
    the first recall it answers, how it came (`origin`: "loaded" means no rebuild; `caught_up`
    rows) and the memory the second Memory took."""
    from engram.core import vectors as nearest

    from engram.core import names

    rss, t0 = _rss_mb(), time.perf_counter()
    with memory_cls(path, embedder=embedder) as again:
        opened = time.perf_counter() - t0
        t1 = time.perf_counter()
        names.book(again.store, subject, embedder.identity, again.store.vectors(subject, embedder.identity)[0])
        book = time.perf_counter() - t1
        t2 = time.perf_counter()
        again.recall(subject, queries[0], k=10)
        first = time.perf_counter() - t2
        nearest.prepare(again.store, subject, embedder.identity)
        ready = time.perf_counter() - t0
        state = nearest.status(again.store, subject, embedder.identity)
        t3 = time.perf_counter()
        again.recall(subject, queries[1 % len(queries)], k=10)
        served = time.perf_counter() - t3
        grown = _rss_mb() - rss
    return {"open_s": round(opened, 2), "names_book_s": round(book, 2), "first_recall_ms": round(first * 1000, 1),
            "first_answer_s": round(opened + book + first, 2), "index_ready_s": round(ready, 2),
            "load_s": state["ready_s"], "first_ann_recall_ms": round(served * 1000, 1), "origin": state["origin"],
            "caught_up": state["caught_up"], "build_over_load": round(build_s / max(state["ready_s"], 1e-6), 1),
            "rss_growth_mb": round(grown, 1) if grown == grown else None}


def forget_figures(mem: Memory, subject: str) -> dict[str, Any]:
    """Seconds `forget_ids` of one item takes with the index saved (it rewrites the index files),
    on a fact written for the purpose (the store keeps its size)."""
    from engram.core import vectors as nearest

    saved = mem.remember(subject, "The bench writes this fact only to forget it again.")
    if saved.id is None:
        raise RuntimeError(f"the bench's own fact was not saved: {saved.reason}")
    nearest.prepare(mem.store, subject, embedder_of(mem).identity)
    t0 = time.perf_counter()
    mem.forget_ids(subject, [saved.id])
    return {"forget_one_s": round(time.perf_counter() - t0, 2)}


def _rss_mb() -> float:
    """This process's resident memory now, in MiB (NaN where /proc is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return float("nan")
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _item(subject: str, text: str, now: float) -> Item:
    return Item(id=uuid.uuid4().hex, subject=subject, text=text, kind=FACT, created_at=now, event_at=now,
                valid_from=now, content_hash=content_hash(text))


def time_recall(mem: Memory, subject: str, queries: Sequence[str], rounds: int, steps: bool = False) -> dict[str, Any]:
    """p50/p95 of Memory.recall (k=10) after a warm-up pass that loads the vector cache, and the
    same for `engram.core.recall.search` alone (`search_p50`/`search_p95`), both with the query
    cache off; `repeated`: the same questions again with it on, and its hit rate; `steps`
    (engram.bench.steps): where one recall's time goes, and the layer's own cost."""
    from engram.bench.steps import recall_steps
    from engram.core.recall import search

    def ask(q: str) -> None:
        search(mem.store, mem.embedder, subject, q, 10, mem._filter(), mem.weights, time.time())

    out: dict[str, Any] = {}
    for prefix, call in (("", lambda q: mem.recall(subject, q, k=10)), ("search_", ask)):
        for q in queries:
            call(q)
        samples = []
        for _ in range(rounds):
            for q in queries:
                t0 = time.perf_counter()
                call(q)
                samples.append((time.perf_counter() - t0) * 1000)
        out.update({prefix + key: value for key, value in percentiles(samples).items() if key != "mean"})
    out.update(time_steps(mem, subject, queries, rounds))
    out.update(keyword_figures(mem, subject, queries, rounds))
    out["repeated"] = repeated_queries(mem, subject, queries, rounds)
    if steps:
        out["steps"] = recall_steps(mem, subject, queries, rounds)
    return out


def repeated_queries(mem: Memory, subject: str, queries: Sequence[str], rounds: int) -> dict[str, float]:
    """Memory.recall p50/p95 with the query cache on, each question asked `rounds` times, and the
    cache's hit rate over those calls (what an agent that re-asks gets; apart from the figures above)."""
    from engram.core.queries import QueryCache

    saved = mem.query_cache
    mem.query_cache = QueryCache(max(1024, len(queries)))
    try:
        samples = []
        for _ in range(rounds):
            for q in queries:
                t0 = time.perf_counter()
                mem.recall(subject, q, k=10)
                samples.append((time.perf_counter() - t0) * 1000)
        stats = mem.query_cache.stats()
    finally:
        mem.query_cache = saved
    p = percentiles(samples)
    return {"p50": p["p50"], "p95": p["p95"], "hit_rate": stats["hit_rate"]}


FTS5_TABLE = "bench_fts5"


def keyword_figures(mem: Memory, subject: str, queries: Sequence[str], rounds: int) -> dict[str, Any]:
    """The keyword search alone, ours and FTS5's (SQLite stores only), p50/p95 ms, their ratio."""
    from engram.core.ranking import keyword_terms
    from engram.core.recall import CANDIDATES
    from engram.store.sqlite import SQLiteStore

    where = mem._filter()
    terms = [keyword_terms(q) for q in queries]
    calls = {"keyword": lambda t: mem.store.keyword(subject, t, where, CANDIDATES)}
    out: dict[str, Any] = {}
    if isinstance(mem.store, SQLiteStore) and mem.store.path != ":memory:":
        out["fts5_build_s"] = fts5_table(mem.store.path)
        calls["fts5"] = lambda t: fts5_keyword(mem.store, subject, t, where, CANDIDATES)
    timed = _timed(calls, terms, rounds)
    out["keyword_ms"], out["keyword_cpu_ms"] = timed["keyword"]["ms"], timed["keyword"]["cpu_ms"]
    out["keyword_recall10_vs_exact"] = keyword_exactness(mem, subject, queries)
    if "fts5" in timed:
        ours, theirs = timed["keyword"], timed["fts5"]
        agree = [len({i for i, _ in a[:10]} & {i for i, _ in b[:10]}) / max(1, min(10, len(b)))
                 for a, b in zip(ours["results"], theirs["results"])]
        out.update({"fts5_ms": theirs["ms"],
                    "fts5_over_keyword": {k: round(theirs["ms"][k] / max(ours["ms"][k], 1e-6), 2) for k in ("p50", "p95")},
                    "top10_vs_fts5": round(sum(agree) / len(agree), 3) if agree else None})
    return out


def keyword_exactness(mem: Memory, subject: str, queries: Sequence[str]) -> float | None:
    """Recall@10 of the keyword search against BM25 computed from the items' own texts (every
    item of the subject tokenised afresh, scored in NumPy), so segments, pending rows and merges
    are checked, not the formula: an item of ours counts when its exact score is at least the
    exact 10th best (ties at the 10th place all count). 1.0 means the index's top 10 is exact."""
    from engram.core.ranking import keyword_terms
    from engram.store import keyword as kw
    from engram.store.base import Filter

    items = mem.store.find(subject, Filter(include_superseded=True), newest_first=False)
    if not items:
        return None
    where = mem._filter()
    docs = kw.TOKENISER.documents([it.text for it in items])
    lengths = np.array([d.length for d in docs], dtype=np.float64)
    allowed = np.array([where.accepts(it) for it in items])
    position = {it.id: i for i, it in enumerate(items)}
    posted: dict[str, tuple[list[int], list[int]]] = {}
    for i, doc in enumerate(docs):
        for term, tf in doc.terms.items():
            rows, tfs = posted.setdefault(term, ([], []))
            rows.append(i)
            tfs.append(tf)
    norm = kw.K1 * (1.0 - kw.B + kw.B * lengths / lengths.mean())
    recalls = []
    for q in queries:
        exact = np.zeros(len(items))
        for term in kw.query_terms(keyword_terms(q)):
            if term in posted:
                at, counts = np.asarray(posted[term][0]), np.asarray(posted[term][1], dtype=np.float64)
                exact[at] += kw.idf(len(items), len(at)) * counts * (kw.K1 + 1.0) / (counts + norm[at])
        exact[~allowed] = 0.0
        matched = int((exact > 0).sum())
        if not matched:
            continue
        tenth = np.sort(exact)[-min(10, matched)]
        ours = [i for i, _ in mem.store.keyword(subject, keyword_terms(q), where, 10)]
        recalls.append(sum(exact[position[i]] >= tenth - 1e-9 for i in ours) / min(10, matched))
    return round(float(np.mean(recalls)), 4) if recalls else None


def _timed(calls: dict[str, Callable[[Any], Any]], terms: Sequence[Any], rounds: int) -> dict[str, dict[str, Any]]:
    """p50/p95 ms of each call over the queries, the calls alternating query by query (so load that
    comes and goes on a shared machine falls on both alike), each call's first answers, and
    `cpu_ms`: the process's CPU time per call (all its threads), which other processes' load
    barely moves: on an idle machine a call's wall time is at most about that."""
    results = {name: [call(t) for t in terms] for name, call in calls.items()}  # warm-up, and the answers
    samples: dict[str, list[float]] = {name: [] for name in calls}
    cpu: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for t in terms:
            for name, call in calls.items():
                t0, c0 = time.perf_counter(), time.process_time()
                call(t)
                samples[name].append((time.perf_counter() - t0) * 1000)
                cpu[name].append((time.process_time() - c0) * 1000)
    out = {}
    for name in calls:
        stats, used = percentiles(samples[name]), percentiles(cpu[name])
        out[name] = {"ms": {"p50": stats["p50"], "p95": stats["p95"]}, "results": results[name],
                     "cpu_ms": {"p50": used["p50"], "p95": used["p95"]}}
    return out


def fts5_table(path: str) -> float:
    """Build (once per file) the FTS5 index Engram used before its own keyword index, as it was
    (text and the subject's scope token, `porter unicode61 remove_diacritics 2`); seconds taken."""
    import sqlite3

    from engram.store.keyword import TOKENIZE

    db = sqlite3.connect(path, timeout=60)
    try:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (FTS5_TABLE,)).fetchone():
            return 0.0
        t0 = time.perf_counter()
        db.execute(f"CREATE VIRTUAL TABLE {FTS5_TABLE} USING fts5(text, scope, content='items',"
                   f" content_rowid='rowid', tokenize='{TOKENIZE}')")
        db.execute(f"INSERT INTO {FTS5_TABLE}({FTS5_TABLE}) VALUES ('rebuild')")
        db.commit()
        return round(time.perf_counter() - t0, 1)
    finally:
        db.close()


def fts5_keyword(store: Any, subject: str, terms: Sequence[str], where: Any, limit: int) -> list[tuple[str, float]]:
    """The keyword search as Engram ran it on FTS5 (whole-table BM25, the subject's scope token
    cutting the match unless the store holds one subject), over `fts5_table`."""
    from engram.store.migrations import scope_token
    from engram.store.sql import SQLITE, where_clause

    if not terms:
        return []
    match = "text : (" + " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) + ")"
    bounds = store.query("SELECT (SELECT min(subject) FROM items), (SELECT max(subject) FROM items)")[0]
    if not bounds[0] == subject == bounds[1]:
        match = f"scope : {scope_token(subject)} AND {match}"
    clause, params = where_clause(subject, where, SQLITE)
    sql = (f"SELECT i.id, -bm25({FTS5_TABLE}, 1.0, 0.0) AS score FROM {FTS5_TABLE} JOIN items i"
           f" ON i.rowid = {FTS5_TABLE}.rowid WHERE {FTS5_TABLE} MATCH ? AND {clause} ORDER BY score DESC LIMIT ?")
    return [(r[0], float(r[1])) for r in store.query(sql, [match, *params, int(limit)])]


def time_steps(mem: Memory, subject: str, queries: Sequence[str], rounds: int) -> dict[str, float]:
    """p50 ms of the three steps that grow with the subject or the model: the query embedding
    (`embed_p50`), the exact vector scan with its top 200 (`scan_p50`) and the keyword search
    (`keyword_p50`). The rest of a recall (fetch, fusion) stays near-constant."""
    from engram.core.vectors import ExactScores, cosines
    from engram.core.ranking import keyword_terms
    from engram.core.recall import CANDIDATES

    where = mem._filter()
    samples: dict[str, list[float]] = {"embed": [], "scan": [], "keyword": []}
    for _ in range(rounds):
        for q in queries:
            t0 = time.perf_counter()
            vector = embedder_of(mem).embed_one(q)
            t1 = time.perf_counter()
            _, matrix = mem.store.vectors(subject, embedder_of(mem).identity)
            ExactScores(cosines(matrix, vector)).nearest(CANDIDATES)
            t2 = time.perf_counter()
            mem.store.keyword(subject, keyword_terms(q), where, CANDIDATES)
            t3 = time.perf_counter()
            for key, start, end in (("embed", t0, t1), ("scan", t1, t2), ("keyword", t2, t3)):
                samples[key].append((end - start) * 1000)
    return {f"{key}_p50": percentiles(values)["p50"] for key, values in samples.items()}


def run(
    sizes: Sequence[int] = (1_000, 10_000, 100_000),
    store_size: int = 1_000_000,
    *,
    embedder: str | None = None,
    embed_limit: int = 10_000,
    write_n: int = 1_000,
    rounds: int = 5,
    folder: str | Path | None = None,
    echo: Callable[[str], None] | None = None,
    store_file: str | Path | None = None,
    small_subject: int = 1_000,
    steps: bool = False,
) -> dict[str, Any]:
    """Measure everything; returns a JSON-ready dict (`steps`: each recall step's p50, per size)."""
    from engram.embed import get_embedder
    from engram.core.memory import Memory

    say = echo or (lambda _: None)
    model = get_embedder(embedder)
    out: dict[str, Any] = {"embedder": model.identity, "cpus": os.cpu_count(), "recall": []}
    with tempfile.TemporaryDirectory(prefix="engram-latency-", dir=folder) as tmp:
        root = Path(tmp)
        vectors = minilm_like(model)
        if write_n:
            out["write"] = write_throughput(model, root, write_n)
            say(f"write: {out['write']}")
        for size in sizes:
            out["recall"].append(_measure_subject(Memory, model, root / f"s{size}.db", size, embed_limit, rounds,
                                                  vectors, steps))
            say(f"recall at {size}: {out['recall'][-1]}")
        if store_size:
            path = Path(store_file) if store_file else root / "store.db"
            out["store"] = _measure_store(Memory, model, path, store_size, max(sizes), rounds, vectors, small_subject)
            say(f"store of {store_size}: {out['store']}")
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def fill_subject(mem: Memory, model: Any, size: int, embed_limit: int, vectors: Callable[[int], np.ndarray],
                 now: float | None = None) -> float:
    """Fill SUBJECT with `size` items, seconds taken: embedded sentences through `remember_many`
    up to `embed_limit`, fitted vectors written through the store past it."""
    now = time.time() if now is None else now
    t0 = time.perf_counter()
    if size <= embed_limit:
        texts = sentences(size, seed=size)
        for start in range(0, size, 512):
            mem.remember_many(SUBJECT, texts[start : start + 512], now=now)
    else:
        fill(mem.store, SUBJECT, size, model.identity, seed=size, now=now, vectors=vectors)
    return time.perf_counter() - t0


def _measure_subject(memory_cls: Any, model: Any, path: Path, size: int, embed_limit: int,
                     rounds: int, vectors: Callable[[int], np.ndarray], steps: bool = False) -> dict[str, Any]:
    with memory_cls(str(path), embedder=model, query_cache=0) as mem:
        fill_s = fill_subject(mem, model, size, embed_limit, vectors)
        row = {"items": size, "vectors": "embedded" if size <= embed_limit else VECTORS,
               "fill_s": round(fill_s, 1), **ann_figures(mem, SUBJECT, QUESTIONS),
               **time_recall(mem, SUBJECT, QUESTIONS, rounds, steps)}
    return row


SMALL = "user:bench-small"


def _measure_store(memory_cls: Any, model: Any, path: Path, total: int, subject_size: int,
                   rounds: int, vectors: Callable[[int], np.ndarray], small: int = 0) -> dict[str, Any]:
    """A subject of `subject_size` MiniLM-like vectors among `total` items in other subjects, and
    (`small` > 0) a subject of `small` items in the same store. An existing file holding `total`
    items is reused as it is (`--store-file`: a 1M-item store is built once)."""
    now = time.time()
    if path.exists():
        with memory_cls(str(path), embedder=model) as mem:
            complete = sum(mem.store.subjects().values()) == total
        for suffix in ("", "-wal", "-shm") if not complete else ():
            Path(str(path) + suffix).unlink(missing_ok=True)  # a build cut short: start again
    with memory_cls(str(path), embedder=model, query_cache=0) as mem:
        t0 = time.perf_counter()
        if sum(mem.store.subjects().values()) != total:
            others = total - subject_size - small
            per = 100_000
            for index, start in enumerate(range(0, others, per)):
                fill(mem.store, f"user:other-{index}", min(per, others - start), model.identity,
                     seed=1000 + index, now=now, vectors=vectors)
            fill(mem.store, SUBJECT, subject_size, model.identity, seed=1, now=now, vectors=vectors)
            if small:
                fill(mem.store, SMALL, small, model.identity, seed=2, now=now, vectors=vectors)
        fill_s = time.perf_counter() - t0
        row = {"items_in_store": total, "items_in_subject": subject_size, "vectors": VECTORS,
               "fill_s": round(fill_s, 1), "db_mb": round(path.stat().st_size / 2**20, 1),
               **ann_figures(mem, SUBJECT, QUESTIONS), **time_recall(mem, SUBJECT, QUESTIONS, rounds)}
        if small:
            row["small_subject"] = {"items": small, **time_recall(mem, SMALL, QUESTIONS, rounds)}
    return row
