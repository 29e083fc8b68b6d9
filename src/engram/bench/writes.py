"""Write cost against the embedder alone, by subject size: `engram bench writes`.

For each size, one subject is filled first (real embedded sentences up to `embed_limit`, past
that MiniLM-like vectors written straight through the store, as `engram bench latency` does),
then `writes` new one-sentence facts go in one `Memory.remember` call each, with the real model,
interleaved call by call with `embedder.embed_one` of the same text (the order alternating), so
load that comes and goes on a shared machine falls on both alike. `ratio` is remember's rate over
the embedder's: 1.0 would mean the memory layer costs nothing beside the embedding. Past the ANN
crossover the subject's index is built before timing (no write waits for a background build).

`inline_ratio` is the same with the model run in the writing thread (every other write), and
`layer_ms` the time a write adds to its embedding. `remember_many` is measured by
`engram.bench.latency.write_throughput` against `embedder.embed` of the same texts (best of
alternating rounds), in a fresh store; transcript ingest (`add_messages` of a chat of the same
length) against `embedder.embed` of the passages it embedded (`ingest_throughput`).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engram.bench.latency import SUBJECT, VECTORS, fill_subject, minilm_like, sentences, write_throughput
from engram.bench.report import embedder_of, markdown_table, percentiles

if TYPE_CHECKING:
    from engram.core.memory import Memory

WARMUP = 10  # untimed writes first: the subject's vectors load into the cache, the model warms


def fresh_facts(n: int, seed: int) -> list[str]:
    """n new facts, none equal to a fill sentence (the fill's texts end "(note i).")."""
    return [text.replace("(note ", "(update ") for text in sentences(n, seed=seed)]


def single_writes(mem: Memory, texts: Sequence[str]) -> dict[str, Any]:
    """remember vs embed_one on the same texts, interleaved; rates, p50s and their ratio.

    Every other text is written with the model in the calling thread (`engram.core.embedding.inline`)
    instead of beside the rest of the write: `inline_ratio` is that baseline's ratio, same run."""
    from engram.core import embedding

    embedder = embedder_of(mem)
    remember_s: list[float] = []
    inline_s: list[float] = []
    embed_s: list[float] = []

    def inline(text: str) -> Any:
        with embedding.inline():
            return mem.remember(SUBJECT, text)

    for i, text in enumerate(texts):
        write = (remember_s, partial(mem.remember, SUBJECT, text)) if i % 4 < 2 else (inline_s, partial(inline, text))
        calls: list[tuple[list[float], Callable[[], object]]] = [(embed_s, partial(embedder.embed_one, text)), write]
        for samples, call in calls if i % 2 == 0 else calls[::-1]:
            t0 = time.perf_counter()
            call()
            samples.append(time.perf_counter() - t0)
    embed_rate = len(embed_s) / sum(embed_s)
    remember_rate = len(remember_s) / sum(remember_s)
    inline_rate = len(inline_s) / sum(inline_s) if inline_s else 0.0
    return {"writes": len(texts), "embedder_per_s": round(embed_rate, 1), "remember_per_s": round(remember_rate, 1),
            "ratio": round(remember_rate / embed_rate, 3), "inline_ratio": round(inline_rate / embed_rate, 3),
            "layer_ms": round((1 / remember_rate - 1 / embed_rate) * 1000, 2),
            "embed_ms": percentiles([s * 1000 for s in embed_s]), "remember_ms": percentiles([s * 1000 for s in remember_s])}


def conversation(n: int, seed: int = 3) -> list[dict[str, str]]:
    """n chat messages, user and assistant in turn, one or two synthetic sentences each."""
    said = sentences(2 * n, seed=seed)
    return [{"role": ("user", "assistant")[i % 2], "content": " ".join(said[2 * i : 2 * i + 1 + i % 2])}
            for i in range(n)]


def ingest_throughput(embedder: Any, folder: Path, n: int, rounds: int = 3, chunk: int = 256) -> dict[str, Any]:
    """`add_messages` of an n-message chat (chunks of `chunk`, a fresh store each round) against
    `embedder.embed` of the texts it embedded (its passages), alternating, the fastest round of
    each: `ratio` is the embedder's time over the ingest's (1.0: the layer costs nothing)."""
    from engram.core.memory import Memory
    from engram.types import PASSAGE, embedded_text

    messages = conversation(n)
    embedder.embed([m["content"] for m in messages[:32]])  # load the model before timing
    texts: list[str] = []
    raw_s, ingest_s = [], []
    for index in range(rounds):
        with Memory(str(folder / f"ingest-{index}.db"), embedder=embedder) as mem:
            t0 = time.perf_counter()
            for start in range(0, n, chunk):
                mem.add_messages(SUBJECT, messages[start : start + chunk], session="bench")
            ingest_s.append(time.perf_counter() - t0)
            if not texts:
                texts = [t for it in mem.items(SUBJECT, kinds=[PASSAGE]) if (t := embedded_text(it))]
        t0 = time.perf_counter()
        embedder.embed(texts)
        raw_s.append(time.perf_counter() - t0)
    return {"messages": n, "passages": len(texts), "rounds": rounds, "messages_per_s": round(n / min(ingest_s), 1),
            "embedder_per_s": round(len(texts) / min(raw_s), 1), "ratio": round(min(raw_s) / min(ingest_s), 3)}


def _subject(memory_cls: Any, model: Any, path: Path, size: int, embed_limit: int, writes: int,
             vectors: Callable[[int], Any]) -> dict[str, Any]:
    from engram.core import ann
    from engram.core import vectors as nearest

    now = time.time()
    with memory_cls(str(path), embedder=model, query_cache=0) as mem:
        fill_s = fill_subject(mem, model, size, embed_limit, vectors, now)
        built = size > ann.EXACT_MAX_ITEMS and nearest.prepare(mem.store, SUBJECT, model.identity)
        new = fresh_facts(WARMUP + writes, seed=size + 1)
        for text in new[:WARMUP]:
            mem.remember(SUBJECT, text)
        row = {"items": size, "vectors": "embedded" if size <= embed_limit else VECTORS, "fill_s": round(fill_s, 1),
               "ann": bool(built), **single_writes(mem, new[WARMUP:])}
    return row


def run(sizes: Sequence[int] = (1_000, 10_000, 100_000), *, writes: int = 200, batch: int = 1_000,
        embed_limit: int = 10_000, embedder: str | None = None, folder: str | Path | None = None,
        echo: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Single writes at each size and one batch measurement; a JSON-ready dict."""
    from engram.core.memory import Memory
    from engram.embed import get_embedder

    say = echo or (lambda _: None)
    model = get_embedder(embedder)
    out: dict[str, Any] = {"embedder": model.identity, "cpus": os.cpu_count(), "load_before": os.getloadavg(),
                           "single": []}
    with tempfile.TemporaryDirectory(prefix="engram-writes-", dir=folder) as tmp:
        root = Path(tmp)
        vectors = minilm_like(model) if max(sizes, default=0) > embed_limit else (lambda n: None)
        for size in sizes:
            out["single"].append(_subject(Memory, model, root / f"w{size}.db", size, embed_limit, writes, vectors))
            say(f"single writes at {size:,}: {out['single'][-1]}")
        if batch:
            out["batch"] = write_throughput(model, root, batch)
            out["batch"]["ratio"] = round(out["batch"]["remember_many_per_s"] / out["batch"]["embedder_per_s"], 3)
            say(f"remember_many of {batch:,}: {out['batch']}")
            out["ingest"] = ingest_throughput(model, root, batch)
            say(f"add_messages of {batch:,}: {out['ingest']}")
    out["load_after"] = os.getloadavg()
    return out


def table(result: dict[str, Any]) -> str:
    """The result as a Markdown table (rates per second, ratio = remember / embedder)."""
    rows = [[f"{r['items']:,}", r["vectors"], r["embedder_per_s"], r["remember_per_s"], r["ratio"],
             r["inline_ratio"], r["layer_ms"], r["embed_ms"]["p50"], r["remember_ms"]["p50"]] for r in result["single"]]
    b = result.get("batch")
    if b:
        rows.append([f"remember_many of {b['n']:,} (fresh store)", "embedded", b["embedder_per_s"],
                     b["remember_many_per_s"], b["ratio"], "", "", "", ""])
    i = result.get("ingest")
    if i:
        rows.append([f"add_messages of {i['messages']:,} (fresh store)", "embedded", i["embedder_per_s"],
                     i["messages_per_s"], i["ratio"], "", "", "", ""])
    load = f"load average {result['load_before'][0]:.2f} before, {result['load_after'][0]:.2f} after"
    return markdown_table(["items in the subject", "vectors", "embedder/s", "writes/s", "ratio", "inline ratio",
                           "layer ms", "embed p50 ms", "write p50 ms"], rows) + f"\n\n{load}; embedder {result['embedder']}"
