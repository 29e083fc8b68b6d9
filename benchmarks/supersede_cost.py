"""What the supersession check costs per write, by subject size.

    python benchmarks/supersede_cost.py [--sizes 1000,10000] [--writes 200] [--batch 0] [--embedder hashing:256]

For each size: a new store whose subject holds `size` generated people facts
(`engram.bench.people`, written without supersession), then `--writes` more facts written with
`Memory.remember` one by one (or `remember_many` in batches of `--batch`). Prints, per write:
the whole write, the embedder alone on the same texts (same process, just before), the time
inside `engram.core.supersede.Batch` (the check), and the part of that spent in
`store.vectors` (the subject's vector matrix: read once, then grown in place by each write).
Timings on a shared machine are noisy: compare sizes and code versions within one run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engram.bench.people import generate
from engram.core import memory as memory_module
from engram.core.memory import Memory
from engram.core.supersede_lookup import Batch
from engram.types import Item


def measure(size: int, writes: int, batch: int, embedder: str, seed: int = 5) -> dict[str, Any]:
    """Per-write milliseconds: total, embedder alone, supersession check, matrix loads inside it."""
    spent = {"check": 0.0, "vectors": 0.0}

    class Timed(Batch):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started = time.perf_counter()
            super().__init__(*args, **kwargs)
            spent["check"] += time.perf_counter() - started

        def facts(self, item: Item) -> dict[str, str]:
            started = time.perf_counter()
            found = super().facts(item)
            spent["check"] += time.perf_counter() - started
            return found

    facts = generate(size + writes + 1, people=max(800, (size + writes) // 20), seed=seed)
    fill, probe = facts[:size], [f.text for f in facts[size:]]
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "cost.db")
        with Memory(path, embedder=embedder, auto_supersede=False) as mem:
            for start in range(0, size, 1000):
                mem.remember_many("user:cost", [f.text for f in fill[start : start + 1000]])
        memory_module.Batch = Timed  # what Memory._write instantiates
        try:
            with Memory(path, embedder=embedder) as mem:
                load = mem.store.vectors

                def timed_vectors(subject: str, model: str) -> Any:
                    started = time.perf_counter()
                    result = load(subject, model)
                    spent["vectors"] += time.perf_counter() - started
                    return result

                mem.store.vectors = timed_vectors  # type: ignore[method-assign]
                mem.remember("user:cost", probe[0])  # warm every cache once
                texts = probe[1:]
                assert mem.embedder is not None
                started = time.perf_counter()
                for text in texts:
                    mem.embedder.embed([text])
                embed = time.perf_counter() - started
                spent.update(check=0.0, vectors=0.0)
                started = time.perf_counter()
                if batch > 0:
                    for at in range(0, len(texts), batch):
                        mem.remember_many("user:cost", texts[at : at + batch])
                else:
                    for text in texts:
                        mem.remember("user:cost", text)
                total = time.perf_counter() - started
        finally:
            memory_module.Batch = Batch
    per = 1000.0 / len(texts)
    return {"size": size, "writes": len(texts), "mode": f"remember_many({batch})" if batch else "remember",
            "write_ms": round(total * per, 3), "embed_ms": round(embed * per, 3),
            "check_ms": round(spent["check"] * per, 3), "check_vectors_ms": round(spent["vectors"] * per, 3),
            "check_own_ms": round((spent["check"] - spent["vectors"]) * per, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--batch", type=int, default=0)
    parser.add_argument("--embedder", default="hashing:256")
    args = parser.parse_args(argv)
    for size in (int(s) for s in args.sizes.split(",")):
        print(json.dumps(measure(size, args.writes, args.batch, args.embedder)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
