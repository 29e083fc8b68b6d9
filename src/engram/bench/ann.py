"""The ANN index against the exact scan, by subject size (`engram bench ann`).

One `AnnIndex` grows through `sizes` (ascending) by incremental `add`, so the build time at each
size is cumulative, as a subject would grow. At each size:

- exact: p50/p95 of the exact scan alone (`matrix @ q` then the top k), as `recall.vector_scan`;
- ann: p50/p95 of `AnnIndex.search` and recall@k against the exact top k, at each ef;
- build seconds (and per 100k), saved file size, save and load seconds, and peak RSS.

Each latency has wall-clock percentiles and `cpu` ones (process CPU time, all threads: it
also counts OpenBLAS worker threads, so it is the cost, not the latency, of the exact scan).

Data: "minilm", unit vectors drawn from a Gaussian fitted (mean and covariance) to real
embeddings: `base` synthetic facts embedded with the embedder, or an array of real vectors
passed as `base`. On 9k real MiniLM vectors (LoCoMo turns, with their questions as queries) a
fit to them gave recall@10 within 0.015 of the real data's at every ef, so this proxy
scales a few thousand real vectors to a million; the templated synthetic facts give a slightly
easier fit. Or "random" unit vectors, the worst case for any ANN graph (in 384 dimensions every
cosine is ~0 +/- 0.05, so "nearest" is noise and HNSW recall@10 collapses: ~0.25 at ef=256 on
100k). Queries come from the same distribution and are never in the index. Timings depend on the machine's load: the result
records `os.getloadavg()`; compare the exact and ANN columns of one run, not runs.

`crossover` is the smallest size at which the exact scan's p95 passes `exact_budget_ms` while
the ANN p95 (at `crossover_ef`) stays under it with recall@k >= 0.95.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.core.ann import DEFAULT_EF_SEARCH, EXACT_MAX_ITEMS, AnnIndex, payloads
from engram.bench.report import peak_rss_mb, percentiles

DATA_KINDS = ("minilm", "random")


def run(sizes: Sequence[int] = (10_000, 50_000, 100_000), *, data: str = "minilm", queries: int = 200,
        k: int = 10, ef: Sequence[int] = (128, 256, 512), crossover_ef: int = DEFAULT_EF_SEARCH, threads: int = 1,
        base: int | np.ndarray = 1000, embedder: Any = None, seed: int = 7, exact_budget_ms: float = 15.0,
        folder: str | Path | None = None, progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Build one index through `sizes` and measure it against the exact scan; a JSON-ready dict.

    `progress`, if given, is called with each size's row as soon as it is measured."""
    sizes = sorted({int(n) for n in sizes})
    if data not in DATA_KINDS or not sizes or sizes[0] < k:
        raise ValueError(f"data must be one of {DATA_KINDS} and sizes at least k={k}")
    rng = np.random.default_rng(seed)
    make = _random(rng) if data == "random" else gaussian_like(rng, base_vectors(embedder, base))
    probes = make(queries)
    dim = probes.shape[1]
    matrix = np.zeros((sizes[-1], dim), dtype=np.float32)
    index = AnnIndex(f"bench-{data}:{dim}", dim)
    rows, built, build_s = [], 0, 0.0
    with tempfile.TemporaryDirectory(prefix="engram-ann-", dir=folder) as tmp:
        for n in sizes:
            matrix[built:n] = make(n - built)
            build_s += _grow(index, matrix, built, n, threads)
            built = n
            rows.append(_measure(index, matrix[:n], probes, k, ef, build_s, Path(tmp) / "subject.ann"))
            if progress is not None:
                progress(rows[-1])
    return {"data": data, "dim": dim, "queries": queries, "k": k, "threads": threads, "m": index.m,
            "ef_construction": index.ef_construction, "library": _library(), "load_average": _load(),
            "exact_max_items": EXACT_MAX_ITEMS, "exact_budget_ms": exact_budget_ms, "rows": rows,
            "crossover": _crossover(rows, exact_budget_ms, crossover_ef)}


def _grow(index: AnnIndex, matrix: np.ndarray, start: int, stop: int, threads: int) -> float:
    """Add rows start..stop in chunks of 10k; seconds taken."""
    t0 = time.perf_counter()
    for lo in range(start, stop, 10_000):
        hi = min(lo + 10_000, stop)
        index.add(np.arange(lo, hi), matrix[lo:hi], threads=threads)
    return time.perf_counter() - t0


def _measure(index: AnnIndex, matrix: np.ndarray, probes: np.ndarray, k: int, efs: Sequence[int],
             build_s: float, path: Path) -> dict[str, Any]:
    """One size's row: exact and ANN latency, recall@k, file size, save/load time."""
    n = len(matrix)
    truth = [set(np.argpartition(-scores, k - 1)[:k].tolist()) for scores in probes @ matrix.T] \
        if n * len(probes) <= 50_000_000 else [set(_exact_top(matrix, q, k).tolist()) for q in probes]
    exact = _timings([lambda q=q: _exact_top(matrix, q, k) for q in probes])
    ann = {}
    for ef in efs:
        index.search(probes[0], k, ef=ef)  # warm the cache for this ef
        found = [index.search(q, k, ef=ef)[0] for q in probes]
        hits = sum(len(want.intersection(keys.tolist())) for want, keys in zip(truth, found))
        ann[str(ef)] = {**_timings([lambda q=q, ef=ef: index.search(q, k, ef=ef) for q in probes]),
                        "recall": round(hits / (k * len(probes)), 4)}
    t0 = time.perf_counter()
    index.save(path)
    save_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    AnnIndex.load(path, model=index.model, dim=index.dim)
    load_s = time.perf_counter() - t0
    return {"n": n, "build_s": round(build_s, 2), "build_per_100k_s": round(build_s * 100_000 / n, 2),
            "file_mb": round(sum(p.stat().st_size for p in [path, *payloads(path)]) / 2**20, 1), "save_s": round(save_s, 2),
            "load_s": round(load_s, 2), "peak_rss_mb": peak_rss_mb(), "exact": exact, "ann": ann}


def _exact_top(matrix: np.ndarray, query: np.ndarray, k: int) -> np.ndarray:
    """The exact scan: every cosine, then the k best positions (as recall does)."""
    scores = matrix @ query
    return np.argpartition(-scores, k - 1)[:k]


def _timings(calls: Sequence[Any]) -> dict[str, Any]:
    """Wall-clock percentiles of each call, plus process CPU percentiles (less load-dependent)."""
    wall, cpu = [], []
    for call in calls:
        w0, c0 = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return {**percentiles(wall), "cpu": percentiles(cpu)}


def _crossover(rows: Sequence[dict[str, Any]], budget_ms: float, ef: int) -> dict[str, Any]:
    """By wall and by CPU time: the smallest size from which on exact p95 > budget and ANN wins."""
    return {clock: _first_over(rows, budget_ms, ef, clock) for clock in ("wall", "cpu")}


def _first_over(rows: Sequence[dict[str, Any]], budget_ms: float, ef: int, clock: str) -> dict[str, Any]:
    def p95(stats: dict[str, Any]) -> float:
        return float(stats["p95"] if clock == "wall" else stats["cpu"]["p95"])

    found = None
    for row in rows:
        ann = row["ann"].get(str(ef))
        wins = ann is not None and p95(row["exact"]) > budget_ms > p95(ann) and ann["recall"] >= 0.95
        found = (found or row) if wins else None
    if found is None:
        return {"n": None, "ef": ef, "note": f"exact p95 was not over {budget_ms} ms from some size on"}
    ann = found["ann"][str(ef)]
    return {"n": found["n"], "ef": ef, "exact_p95_ms": p95(found["exact"]), "ann_p95_ms": p95(ann)}


def _unit(vectors: np.ndarray) -> np.ndarray:
    unit: np.ndarray = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    return unit


def _random(rng: np.random.Generator, dim: int = 384) -> Any:
    return lambda n: _unit(rng.standard_normal((n, dim)))


def gaussian_like(rng: np.random.Generator, base: np.ndarray) -> Any:
    """Unit vectors from the Gaussian with the mean and covariance of `base`."""
    mean = base.mean(axis=0, dtype=np.float64)
    cov = np.cov(base, rowvar=False, dtype=np.float64) + 1e-6 * np.eye(base.shape[1])
    factor = np.linalg.cholesky(cov)
    return lambda n: _unit(mean + rng.standard_normal((n, len(mean))) @ factor.T)


def base_vectors(embedder: Any, base: int | np.ndarray) -> np.ndarray:
    """`base` itself if it is an array, else that many synthetic facts embedded by `embedder` (MiniLM)."""
    if isinstance(base, np.ndarray):
        return np.asarray(base, dtype=np.float32)
    from engram.bench.latency import sentences
    from engram.embed import get_embedder

    embedder = embedder or get_embedder()
    return np.asarray(embedder.embed(sentences(base, seed=11)), dtype=np.float32)


def _library() -> str:
    from importlib.metadata import version

    return f"voyager {version('voyager')}"


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]
