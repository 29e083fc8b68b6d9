"""Engram beside the stores a user would pick instead, one workload, one shared embedder, one run.

    pip install 'engramdb[peers]'
    python benchmarks/peers.py --locomo /path/to/locomo_dev.json [--people 1000] [--write docs/peers.md]

Peers: LangGraph's InMemoryStore and SqliteStore (langgraph-checkpoint-sqlite, vector search by
sqlite-vec), Chroma (a PersistentClient, given the shared embedder as its embedding function, so it
downloads nothing), and plain NumPy cosine over a matrix. Every one gets the same
all-MiniLM-L6-v2 embedder (Engram's bundled int8 ONNX model), so only the memory layer differs.

1. **People store**: `--people` one-sentence facts about 800 people (engram.bench.people), one
   public write call per fact, each peer in turn per fact (the order rotating), so load that comes
   and goes on a shared machine falls on all alike; the embedder alone embeds the same text in the
   same rotation. Then `--questions` questions that each name the person, k=5: hit@1 (the top hit
   is the fact asked about) and recall time; the query's own embedding is timed in the same
   rotation, so "layer ms" = recall p50 minus embedding p50 is what the store itself costs.
2. **LoCoMo dev R@10**: each of the first `--conversations` conversations goes into a fresh store
   per peer (one write per turn, the turn's text as LoCoMo gives it; Engram's write is its conversation
   verb, `add_messages`); each question's top 10 are
   scored against its evidence turns. Embeddings here are memoised across peers (same vectors for
   all; this part measures quality, not speed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench import locomo, people
from engram.embed.base import Embedder
from engram.embed.local import MiniLMEmbedder

NS = ("people",)
WARMUP = 10  # the first writes and questions of each peer are not timed (caches, lazy set-up)


class Memo(Embedder):
    """The shared embedder, each distinct text embedded once (for the quality part)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self._seen: dict[str, np.ndarray] = {}

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if todo:
            self._seen.update(zip(todo, self.inner.embed(todo)))
        return np.stack([self._seen[t] for t in texts])


# -- the peers: write(key, text), search(query, k) -> keys, close() ---------------------------
class EngramPeer:
    name = "Engram"

    def __init__(self, folder: Path, embedder: Embedder) -> None:
        from engram.core.memory import Memory

        self.mem = Memory(str(folder / "engram.db"), embedder=embedder, query_cache=0)
        self.refused = 0

    def write(self, key: str, text: str) -> None:
        if not self.mem.remember("user:peers", text, source=key).saved:
            self.refused += 1

    def write_turn(self, key: str, text: str) -> None:
        """A conversation turn goes through the conversation verb, which keeps it whole."""
        saved = self.mem.add_messages("user:peers", [{"role": "user", "content": text}], source=key)
        self.refused += sum(not s.saved for s in saved)

    def search(self, query: str, k: int) -> list[str]:
        return [h.item.source for h in self.mem.recall("user:peers", query, k=k)]

    def close(self) -> None:
        self.mem.close()


class LangGraphPeer:
    def __init__(self, folder: Path, embedder: Embedder, kind: str) -> None:
        index = {"dims": embedder.dim, "embed": lambda texts: embedder.embed(list(texts)).tolist(),
                 "fields": ["text"]}
        self.conn: Any = None
        if kind == "memory":
            from langgraph.store.memory import InMemoryStore

            self.name, self.store = "LangGraph InMemoryStore", InMemoryStore(index=index)  # type: ignore[arg-type]
        else:
            from langgraph.store.sqlite import SqliteStore

            # pysqlite3: an SQLite module that may load extensions (sqlite-vec), which a Python
            # built without them (pyenv's default) cannot.
            import pysqlite3

            self.conn = pysqlite3.connect(str(folder / "langgraph.db"), check_same_thread=False, isolation_level=None)
            self.name = "LangGraph SqliteStore (sqlite-vec)"
            # SqliteStore reads `text_fields` (else it embeds the whole JSON value).
            self.store = SqliteStore(self.conn, index={**index, "text_fields": ["text"]})  # type: ignore[typeddict-unknown-key]
            self.store.setup()

    def write(self, key: str, text: str) -> None:
        self.store.put(NS, key, {"text": text})

    def search(self, query: str, k: int) -> list[str]:
        return [hit.key for hit in self.store.search(NS, query=query, limit=k)]

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class ChromaPeer:
    name = "Chroma"

    def __init__(self, folder: Path, embedder: Embedder) -> None:
        import chromadb
        from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

        class Shared(EmbeddingFunction[Documents]):
            def __init__(self) -> None:
                pass

            def __call__(self, input: Documents) -> Embeddings:
                return list(embedder.embed(list(input)))

            @staticmethod
            def name() -> str:
                return "engram-shared-minilm"

            def get_config(self) -> dict[str, Any]:
                return {}

        self.client = chromadb.PersistentClient(str(folder / "chroma"),
                                                settings=chromadb.Settings(anonymized_telemetry=False))
        self.collection = self.client.create_collection("people", embedding_function=Shared(),  # type: ignore[arg-type]
                                                        metadata={"hnsw:space": "cosine"})

    def write(self, key: str, text: str) -> None:
        self.collection.add(ids=[key], documents=[text])

    def search(self, query: str, k: int) -> list[str]:
        return list(self.collection.query(query_texts=[query], n_results=k)["ids"][0])

    def close(self) -> None:
        pass


class NumpyPeer:
    name = "NumPy cosine"

    def __init__(self, folder: Path, embedder: Embedder) -> None:
        self.embedder, self.keys = embedder, []  # type: ignore[var-annotated]
        self.matrix = np.zeros((0, embedder.dim), dtype=np.float32)

    def write(self, key: str, text: str) -> None:
        self.keys.append(key)
        self.matrix = np.vstack([self.matrix, self.embedder.embed_one(text)[None, :]])

    def search(self, query: str, k: int) -> list[str]:
        scores = self.matrix @ self.embedder.embed_one(query)
        return [self.keys[i] for i in np.argsort(-scores, kind="stable")[:k]]

    def close(self) -> None:
        pass


PEERS: dict[str, Callable[[Path, Embedder], Any]] = {
    "engram": EngramPeer,
    "langgraph-memory": lambda f, e: LangGraphPeer(f, e, "memory"),
    "langgraph-sqlite": lambda f, e: LangGraphPeer(f, e, "sqlite"),
    "chroma": ChromaPeer,
    "numpy": NumpyPeer,
}


def _timed(call: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def _search_into(found: list[str], peer: Any, question: str) -> None:
    found.extend(peer.search(question, 5))


def people_part(embedder: Embedder, folder: Path, facts: int, questions: int, seed: int) -> dict[str, Any]:
    """Single writes, recall times and hit@1 on the people store, all peers in one rotation."""
    generated = people.generate(facts, seed=seed)
    peers = {key: make(folder / key, embedder) for key, make in PEERS.items() if (folder / key).mkdir() or True}
    write_s: dict[str, list[float]] = {key: [] for key in [*peers, "embedder"]}
    order = [*peers, "embedder"]
    for i, fact in enumerate(generated):
        turn = order[i % len(order):] + order[: i % len(order)]
        for key in turn:
            call = partial(embedder.embed_one, fact.text) if key == "embedder" else partial(
                peers[key].write, f"f{i}", fact.text)
            took = _timed(call)
            if i >= WARMUP:
                write_s[key].append(took)
    rng = random.Random(seed)
    asked = rng.sample(range(len(generated)), min(questions, len(generated)))
    recall_s: dict[str, list[float]] = {key: [] for key in order}
    hits: dict[str, int] = dict.fromkeys(peers, 0)
    for n, index in enumerate(asked):
        question = rng.choice(generated[index].questions)
        turn = order[n % len(order):] + order[: n % len(order)]
        for key in turn:
            found: list[str] = []
            if key == "embedder":
                took = _timed(partial(embedder.embed_one, question))
            else:
                took = _timed(partial(_search_into, found, peers[key], question))
                hits[key] += bool(found) and found[0] == f"f{index}"
            if n >= WARMUP:
                recall_s[key].append(took)
    out: dict[str, Any] = {}
    embed_p50 = statistics.median(recall_s["embedder"]) * 1000
    for key in order:
        writes = len(write_s[key]) / sum(write_s[key])
        p50 = statistics.median(recall_s[key]) * 1000
        out[key] = {"writes_per_s": round(writes, 1), "recall_p50_ms": round(p50, 2),
                    "recall_p95_ms": round(float(np.percentile(recall_s[key], 95)) * 1000, 2)}
        if key != "embedder":
            out[key]["layer_ms"] = round(p50 - embed_p50, 2)
            out[key]["hit@1"] = round(hits[key] / len(asked), 3)
    for key in peers:
        out[key]["writes_vs_embedder"] = round(out[key]["writes_per_s"] / out["embedder"]["writes_per_s"], 3)
    refused = getattr(peers["engram"], "refused", 0)
    for peer in peers.values():
        peer.close()
    out["engram"]["refused"] = refused
    return out


def locomo_part(embedder: Embedder, folder: Path, data: Path, conversations: int) -> dict[str, Any]:
    """Mean R@10 over the questions with evidence, per peer, one fresh store per conversation."""
    memo = Memo(embedder)
    convs = locomo.load(data)[:conversations]
    scores: dict[str, list[float]] = {key: [] for key in PEERS}
    refused = 0
    for c, conv in enumerate(convs):
        for key, make in PEERS.items():
            where = folder / f"locomo-{c}-{key}"
            where.mkdir()
            peer = make(where, memo)
            write = getattr(peer, "write_turn", peer.write)
            for turn in conv.turns:
                write(turn.dia_id, turn.text)
            for question in conv.questions:
                if question.evidence:
                    ranked = peer.search(question.text, 10)
                    scores[key].append(locomo.recall_at(ranked, question.evidence, 10))
            refused += getattr(peer, "refused", 0)
            peer.close()
    out: dict[str, Any] = {key: {"R@10": round(float(np.mean(v)), 3)} for key, v in scores.items()}
    out["engram"]["refused"] = refused
    out["questions"] = len(scores["engram"])
    out["conversations"] = len(convs)
    return out


def versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for package in ("engramdb", "langgraph", "langgraph-checkpoint-sqlite", "sqlite-vec", "chromadb", "numpy",
                    "onnxruntime"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found


LABELS = {"engram": "**Engram**", "langgraph-memory": "LangGraph InMemoryStore",
          "langgraph-sqlite": "LangGraph SqliteStore (sqlite-vec)", "chroma": "Chroma (PersistentClient)",
          "numpy": "plain NumPy cosine", "embedder": "the embedder alone"}


def page(result: dict[str, Any], command: str) -> str:
    """docs/peers.md, from one run's result."""
    p, lo = result["people"], result["locomo"]
    rows = []
    for key in [*PEERS, "embedder"]:
        r = p[key]
        rows.append(f"| {LABELS[key]} | {r['writes_per_s']} | {r.get('writes_vs_embedder', 1.0)} | "
                    f"{r['recall_p50_ms']} / {r['recall_p95_ms']} | {r.get('layer_ms', '–')} | {r.get('hit@1', '–')} | "
                    f"{lo[key]['R@10'] if key in lo else '–'} |")
    load = result["load"]
    v = ", ".join(f"{k} {val}" for k, val in result["versions"].items())
    return f"""# Peers: Engram beside LangGraph's stores, Chroma and plain NumPy

<!-- generated by benchmarks/peers.py: do not edit by hand, re-run it -->

One workload, one run, one shared embedder (all-MiniLM-L6-v2, Engram's bundled int8 ONNX model,
given to every peer as its embedding function), so only the memory layer differs. The peers come
from an extra: `pip install 'engramdb[peers]'`. The command:

```
{command}
```

- **writes/s**: {result['facts']:,} one-sentence facts about 800 people, one public write call per
  fact, every peer in turn per fact (the order rotating), the embedder alone embedding the same
  text in the same rotation; "vs embedder" is the ratio in this run (1.0: the layer costs nothing).
- **recall**: {result['questions']} questions that each name the person, k=5; "layer ms" is the
  recall p50 minus the query embedding's p50 timed in the same rotation (what the store costs).
- **hit@1**: the top hit is the fact the question asks about.
- **LoCoMo R@10**: the first {lo['conversations']} conversations of the LoCoMo dev split
  ({lo['questions']} questions with evidence), one write per turn (Engram's is its conversation
  verb, `add_messages`, which keeps every turn whole), a fresh store per conversation.
  Engram refused {lo['engram']['refused']} turns.

| store | writes/s | vs embedder | recall p50 / p95 ms | layer ms | hit@1 | LoCoMo R@10 |
|---|---|---|---|---|---|---|
{chr(10).join(rows)}

Measured on {result['cpus']} cores, load average {load[0]:.2f} before and {load[1]:.2f} after the
run; compare the ratios within the table, not the absolute times with another machine.
Versions: {v}.
"""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--locomo", type=Path, required=True, help="LoCoMo dev JSON")
    parser.add_argument("--people", type=int, default=1000, help="facts in the people store")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--conversations", type=int, default=2, help="LoCoMo conversations (from the first)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--write", type=Path, default=None, help="write the page (docs/peers.md) here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    embedder = MiniLMEmbedder()
    embedder.load()
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="engram-peers-") as tmp:
        folder = Path(tmp)
        (folder / "people").mkdir()
        (folder / "locomo").mkdir()
        result: dict[str, Any] = {"facts": args.people, "questions": args.questions, "cpus": os.cpu_count(),
                                  "versions": versions()}
        result["people"] = people_part(embedder, folder / "people", args.people, args.questions, args.seed)
        result["locomo"] = locomo_part(embedder, folder / "locomo", args.locomo, args.conversations)
    result["load"] = [before, os.getloadavg()[0]]
    command = (f"python benchmarks/peers.py --locomo locomo_dev.json --people {args.people} --questions "
               f"{args.questions} --conversations {args.conversations} --seed {args.seed} --write docs/peers.md")
    if args.write:
        args.write.write_text(page(result, command), encoding="utf-8")
    print(json.dumps(result) if args.json else page(result, command))  # a script's output
    return 0


if __name__ == "__main__":
    sys.exit(main())
