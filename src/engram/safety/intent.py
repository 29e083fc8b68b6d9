"""The intent classifier: does this text address the model to steer it, in any language?

A logistic regression over hashed character n-grams, words and word pairs of the normalised text
(they carry intent across languages and scripts where a word list or an English embedding does
not), plus one feature per instruction-rule family that fired (engram.safety.lexicon), one for a
disguise a rule was found under (engram.safety.views), and one each for text that speaks to the
model (`addressed`: "Model,", "To whoever reads this memory:") or lays a duty on it (`obligation`:
"the assistant must"). Trained at build time by `benchmarks/train_intent.py` on
the labelled multilingual set in benchmarks/safety_data (see its DATA_CARD.md); the weights ship
in the package as `engram/data/intent_model.npz` (float16, NumPy only: nothing is downloaded,
no torch). `features()` is the one definition both training and checking use.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from engram.safety.concepts import ALONE, PAIRS, concept_features

__all__ = ["DIM", "FEATURE_NAMES", "NGRAMS", "SIGNALS", "WIDTH", "IntentModel", "IntentScore", "features", "model"]

NGRAMS = (1, 2, 3, 4)  # character n-gram sizes (1 for CJK, where one character is a word)
DIM = 1 << 16  # hashed n-gram buckets
# Signals beyond the n-grams, each one feature after the hashed ones: rule families and disguises.
SIGNALS = ("rule:role_marker", "rule:override", "rule:reveal", "rule:persona", "rule:bypass", "rule:exfiltration",
           "rule:privilege", "rule:concealment", "rule:new_instructions", "rule:destructive", "rule:promotion",
           "disguised", "addressed", "obligation", "addressed+rule", "names_ai+rule", "future+rule")
_SIGNAL_INDEX = {name: DIM + i for i, name in enumerate(SIGNALS)}
# Then the concepts a text holds (engram.safety.concepts: sending, deleting, an AI reader, a time scope, ... read in
# 25 languages) and every pair of them, one feature each: the same intent in languages that share no letters.
_CONCEPT_NAMES = tuple(f"c:{c}" for c in ALONE) + tuple(f"c:{p}" for p in PAIRS)
_CONCEPT_INDEX = {name: DIM + len(SIGNALS) + i for i, name in enumerate(_CONCEPT_NAMES)}
#: Every feature after the hashed n-grams, by name (rule signals, then concepts and their pairs).
FEATURE_NAMES = SIGNALS + _CONCEPT_NAMES
WIDTH = DIM + len(FEATURE_NAMES)
_MULT = np.uint64(1000003)
_MASK = np.uint64(0xFFFFFFFF)
_MIX = np.uint64(2654435761)


# Each size's seed term n * MULT**n (mod 2**32): the hash of an n-gram is that plus its rolling hash.
_SEEDS = {n: np.uint64(n * pow(1000003, n, 1 << 32) % (1 << 32)) for n in NGRAMS}


def _ngram_ids(text: str) -> npt.NDArray[np.int64]:
    """Bucket ids of every character n-gram of `text` padded with spaces (one id per occurrence).

    The hash of an n-gram c0..c(n-1) is n*MULT**n + c0*MULT**(n-1) + ... + c(n-1) (mod 2**32), mixed;
    each size's rolling part is the previous size's times MULT plus one more character.
    """
    padded = " " + text + " "
    cps = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    out = []
    rolling = cps
    for n in range(1, max(NGRAMS) + 1):
        if n > 1:
            rolling = (rolling[:-1] * _MULT + cps[n - 1:]) & _MASK
        if len(rolling) == 0:
            break
        if n in NGRAMS:
            out.append((rolling + _SEEDS[n]) & _MASK)
    if not out:
        return np.zeros(0, dtype=np.int64)
    ids: npt.NDArray[np.int64] = ((((np.concatenate(out) * _MIX) & _MASK) >> np.uint64(8)) % np.uint64(DIM)).astype(np.int64)
    return ids


# Addresses and numbers are read as what they are, not as their characters: an id's digits say nothing of intent.
_URL = re.compile(r"(?:https?|ftp)://\S+|www\.\S+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NUMBER = re.compile(r"\b(?=\w*\d)[0-9a-f]{6,}\b|\d+(?:[.,:]\d+)*")
# An id: eight or more letters and digits mixed ("zq3f9a2c7e1b04", "k8s2x9qv7m"): one placeholder, like a number.
_ID = re.compile(r"\b(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]{8,}\b")


def reading(text: str) -> str:
    """`text` with links, e-mail addresses, ids and numbers replaced by a placeholder word each."""
    return _NUMBER.sub("0", _ID.sub("0", _EMAIL.sub(" email ", _URL.sub(" link ", text))))


_WORDS = re.compile(r"[^\W\d_]+")


def _word_ids(text: str) -> list[int]:
    """Bucket ids of the words and word pairs of `text` (a second hash family over the same buckets)."""
    words = _WORDS.findall(text)
    grams = words + [f"{a} {b}" for a, b in zip(words, words[1:])]
    return [zlib.crc32(g.encode("utf-8"), 0x5EED) % DIM for g in grams]


#: Texts up to this length keep their n-gram features (`_grams`) for the next call: the screen
#: reads each window twice, without the rule signals and then with them.
_CACHED_CHARS = 2000


_CONCEPT_FLOOR = 6  # concept features of a text are divided by sqrt(max(count, this))


def _concept_ids(text: str) -> list[int]:
    """Feature ids of the concepts in `text` that count alone and of every pair found in one sentence."""
    return [_CONCEPT_INDEX[f"c:{name}"] for name in concept_features(text)]


def _gram_features(text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The n-gram, word and concept part of `features`: ids and values, each part L2-normalised on its own."""
    read = reading(text)
    ids = np.unique(np.concatenate([_ngram_ids(read), np.array(_word_ids(read), dtype=np.int64)]))
    values = np.ones(len(ids))  # binary: a repeated n-gram ("AAAAAAAA") counts once
    norm = float(np.sqrt(values @ values)) or 1.0
    extra = _concept_ids(text)
    # L2-normalised once there are enough of them; a lone concept ("the user") weighs less than a combination.
    scale = 1 / np.sqrt(max(len(extra), _CONCEPT_FLOOR))
    return (np.concatenate([ids, np.array(extra, dtype=np.int64)]),
            np.concatenate([values / norm, np.full(len(extra), scale)]))


@lru_cache(maxsize=256)
def _cached_grams(text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    ids, values = _gram_features(text)
    ids.flags.writeable = values.flags.writeable = False  # shared between calls: nobody may change them
    return ids, values


def _grams(text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    return _cached_grams(text) if len(text) <= _CACHED_CHARS else _gram_features(text)


def features(text: str, signals: frozenset[str] = frozenset()) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Sparse features of a normalised text: (indices, values); n-gram presence L2-normalised, signals 1."""
    ids, values = _grams(text)
    extra = sorted(_SIGNAL_INDEX[s] for s in signals if s in _SIGNAL_INDEX)
    return (np.concatenate([ids, np.array(extra, dtype=np.int64)]),
            np.concatenate([values, np.ones(len(extra))]))


@dataclass(frozen=True)
class IntentScore:
    """The classifier's probability and where its evidence came from (for `engram screen --explain`)."""

    probability: float
    ngram_logit: float  # the n-grams' share of the logit
    signal_logits: dict[str, float]  # each fired signal's and concept's share
    bias: float
    top_ngrams: list[tuple[str, float]]  # the n-grams that pushed hardest towards "instruction"


class IntentModel:
    """Weights and bias of the trained classifier, with its decision thresholds."""

    def __init__(self, weights: npt.NDArray[np.float32], bias: float, meta: dict[str, object]) -> None:
        if weights.shape != (WIDTH,):
            raise ValueError(f"intent weights have shape {weights.shape}, expected {(WIDTH,)}")
        self.weights = weights
        self.bias = bias
        self.meta = meta

    def logit(self, text: str, signals: frozenset[str] = frozenset()) -> float:
        idx, val = features(text, signals)
        return float(self.weights[idx] @ val) + self.bias

    def probability(self, text: str, signals: frozenset[str] = frozenset()) -> float:
        return float(1.0 / (1.0 + np.exp(-self.logit(text, signals))))

    def explain(self, text: str, signals: frozenset[str] = frozenset(), top: int = 5) -> IntentScore:
        idx, val = features(text, signals)
        contrib = self.weights[idx] * val
        is_gram = idx < DIM
        signal_logits = {FEATURE_NAMES[i - DIM]: round(float(c), 3) for i, c in zip(idx[~is_gram], contrib[~is_gram])}
        logit = float(contrib.sum()) + self.bias
        ranked = sorted(((g, w) for g, w in _gram_weights(self, reading(text)).items()), key=lambda gw: -gw[1])[:top]
        return IntentScore(probability=float(1.0 / (1.0 + np.exp(-logit))), ngram_logit=round(float(contrib[is_gram].sum()), 3),
                           signal_logits=signal_logits, bias=round(self.bias, 3), top_ngrams=ranked)


def _gram_weights(m: IntentModel, text: str) -> dict[str, float]:
    """Each distinct n-gram of `text` (as written) with its weight in the model."""
    padded = " " + text + " "
    out: dict[str, float] = {}
    for n in NGRAMS:
        for i in range(len(padded) - n + 1):
            g = padded[i:i + n]
            if n >= 3 and g not in out:
                bucket = int(_bucket_of(g, n))
                out[g] = round(float(m.weights[bucket]), 3)
    return out


def _bucket_of(gram: str, n: int) -> int:
    h = np.uint64(n)
    for ch in gram:
        h = (h * _MULT + np.uint64(ord(ch))) & _MASK
    return int((((h * _MIX) & _MASK) >> np.uint64(8)) % np.uint64(DIM))


@lru_cache(maxsize=1)
def model() -> IntentModel:
    """The classifier shipped in the package (loaded once)."""
    ref = resources.files("engram") / "data" / "intent_model.npz"
    with resources.as_file(ref) as path, np.load(path, allow_pickle=False) as npz:
        weights = npz["weights"].astype(np.float32)
        bias = float(npz["bias"])
        meta = json.loads(str(npz["meta"]))
    return IntentModel(weights, bias, meta)
