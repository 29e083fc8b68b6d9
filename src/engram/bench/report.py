"""Small helpers shared by the benchmarks: percentiles, peak memory, Markdown tables, the embedder."""

from __future__ import annotations

import resource
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engram.errors import InvalidInput

if TYPE_CHECKING:
    from engram.core.memory import Memory
    from engram.embed.base import Embedder


def embedder_of(mem: Memory) -> Embedder:
    """The Memory's embedder: a benchmark that reads or times vectors needs one."""
    if mem.embedder is None:
        raise InvalidInput("this benchmark needs an embedder: pass --embedder (e.g. minilm or hashing), not none")
    return mem.embedder


def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    """p50 and p95 (and the mean) of latency samples in milliseconds, rounded to 0.01 ms."""
    if not samples_ms:
        return {"p50": 0.0, "p95": 0.0, "mean": 0.0}
    values = np.asarray(samples_ms, dtype=np.float64)
    return {
        "p50": round(float(np.percentile(values, 50)), 2),
        "p95": round(float(np.percentile(values, 95)), 2),
        "mean": round(float(values.mean()), 2),
    }


def peak_rss_mb() -> float:
    """The peak resident set size of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub Markdown table; fractions print with three decimals, larger floats with one."""

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.3f}" if abs(value) <= 1 else f"{value:,.1f}"
        return str(value)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def locomo_table(results: Mapping[str, Mapping[str, Any]]) -> str:
    """One row per retriever: overall recall, multi-hop R@25, latency and tokens (from `locomo.run`)."""
    headers = ["retriever", "R@1", "R@5", "R@10", "R@25", "R@50", "session R@10", "multi-hop R@25",
               "p50 ms", "p95 ms", "ingest/s", "tokens@10"]
    rows = []
    for name, res in results.items():
        o = res["overall"]
        multi = res["by_category"].get("multi-hop", {}).get("R@25", 0.0)
        rows.append([name, o["R@1"], o["R@5"], o["R@10"], o["R@25"], o["R@50"], o["session_R@10"], multi,
                     res["latency_ms"]["p50"], res["latency_ms"]["p95"], res["ingest_per_s"],
                     res["tokens_per_query"]])
    return markdown_table(headers, rows)


def category_table(result: Mapping[str, Any]) -> str:
    """Per-category recall of one run."""
    headers = ["category", "n", "R@1", "R@5", "R@10", "R@25", "R@50", "session R@10"]
    rows = [[name, c["n"], c["R@1"], c["R@5"], c["R@10"], c["R@25"], c["R@50"], c["session_R@10"]]
            for name, c in result["by_category"].items()]
    return markdown_table(headers, rows)


def latency_table(result: Mapping[str, Any]) -> str:
    """Recall latency rows by size, then the store-wide rows, write throughput and peak RSS; the
    keyword search alone (ours, and the FTS5 path it replaced, timed in the same run)."""
    def row(label: str, r: Mapping[str, Any], vectors: str) -> list[Any]:
        ours, fts5 = r.get("keyword_ms", {}), r.get("fts5_ms", {})
        return [label, vectors, r["p50"], r["p95"], r["search_p50"], r["search_p95"], ours.get("p50", ""),
                ours.get("p95", ""), fts5.get("p95", ""), r.get("fts5_over_keyword", {}).get("p95", "")]

    rows = [row(f"{r['items']:,} in one subject", r, r["vectors"]) for r in result["recall"]]
    store = result.get("store")
    if store:
        rows.append(row(f"{store['items_in_subject']:,} in a subject of a {store['items_in_store']:,}-item store",
                        store, store["vectors"]))
        small = store.get("small_subject")
        if small:
            rows.append(row(f"{small['items']:,} in a subject of the same store", small, store["vectors"]))
    table = markdown_table(["items (k=10, query embedding included)", "vectors", "recall p50 ms", "recall p95 ms",
                            "search p50 ms", "search p95 ms", "keyword p50 ms", "keyword p95 ms",
                            "FTS5 p95 ms", "FTS5/keyword p95"], rows)
    w = result.get("write")
    writes = (f"writes: {w['remember_many_per_s']}/s with remember_many vs {w['embedder_per_s']}/s"
              f" for the embedder alone ({w['ratio']}x); " if w else "")
    return f"{table}\n\n{writes}peak RSS {result['peak_rss_mb']} MiB; embedder {result['embedder']}"


def plot_latency(result: Mapping[str, Any], path: str) -> None:
    """Recall p50/p95 against subject size on log axes, saved as a PNG (needs matplotlib)."""
    from engram.errors import require

    require("matplotlib", "bench")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r["items"] for r in result["recall"]]
    fig, ax = plt.subplots(figsize=(6, 4), dpi=120)
    for key, style, label in (("p50", "o-", "Memory.recall p50"), ("p95", "s--", "Memory.recall p95"),
                              ("embed_p50", "o:", "of which the query embedding, p50")):
        ax.plot(sizes, [r[key] for r in result["recall"]], style, label=label)
    store = result.get("store")
    if store:  # the subjects inside the whole store, at their own sizes
        inside = [(store["items_in_subject"], store["p95"])]
        if store.get("small_subject"):
            inside.append((store["small_subject"]["items"], store["small_subject"]["p95"]))
        ax.plot(*zip(*inside), "D", color="black",
                label=f"p95 inside a {store['items_in_store']:,}-item store")
    goals = [(1_000, 15), (100_000, 30), (100_000, 50)]  # issue 15: 1k in the 1M store, 100k alone, 100k in it
    ax.plot(*zip(*goals), "_", color="grey", markersize=18, markeredgewidth=2, label="p95 targets")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("items in the subject")
    ax.set_ylabel("ms per recall (query embedding included)")
    ax.set_title(f"Engram recall latency ({result['embedder']}, {result['cpus']} CPUs)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
