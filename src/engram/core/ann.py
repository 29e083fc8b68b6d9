"""An approximate-nearest-neighbour (HNSW) index over one subject's vectors, for large subjects.

Below `EXACT_MAX_ITEMS` vectors recall keeps the exact NumPy scan (`recall.vector_scan`), whose
results are exact by construction; above it an `AnnIndex` answers the vector half of recall.
See `EXACT_MAX_ITEMS` for the measured crossover and `engram.bench.ann` for the benchmark.

Library: Voyager (Spotify's HNSW, derived from hnswlib; abi3 wheels for CPython >= 3.10, 0.3 MB
wheel, 0.8 MB installed, no compiler). Measured against hnswlib 0.8.0 (PyPI sdist only: a C++
compile of 2-5 min in every fresh venv, built with -march=native, so a cached wheel is tied to
the CPU; unreleased since 2023), usearch (11 MB, slowest here to build and to query; `remove`
leaves the vector bytes until the slot is reused) and faiss-cpu (66 MB; its HNSW cannot remove
at all). hnswlib builds ~1.5x and queries ~2x faster per CPU second (native SIMD), a gap that
does not matter against recall's 50 ms budget. Install with `pip install 'engramdb[ann]'`.

Keys are non-negative integers: the store's item rowid (`items.rowid`, an INTEGER PRIMARY KEY,
so it is stable). Scores are cosines of unit vectors (inner products), as in the exact scan.
`stamp` is a free string saved with the index for the caller's sync marker.

Forgetting. HNSW libraries only *mark* a node deleted: its vector stays in memory and in the
saved file (checked for hnswlib, Voyager and usearch). `remove` therefore first overwrites the
node's vector in place with fresh random noise (which also relinks the node as noise), then
marks it deleted: after `remove` a search never returns the key, and after `save` no 16-byte run
of the forgotten vector is in the file. What stays is a tombstone: the integer key and a noise
vector in a graph slot. Tombstones cost space and a little speed, never content; `compact()`
rebuilds the graph from the live vectors and drops them (when `tombstones` passes ~20% of `len`).

File format (`save`/`load`): magic line, 4-byte header length, JSON header (format version,
model identity, dimension, tombstones, stamp, ...), the Voyager index, then a trailer with the
index's length and SHA-256. `save` writes a temporary file, fsyncs and renames. `load` checks
every part and raises `StoreCorrupt`, `SchemaTooNew` or `EmbedderMismatch`; the index is
derived data, so the recovery is always: delete the file and rebuild it from the database.

An `AnnIndex` serialises its own operations with a lock (so `compact` blocks searches).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import struct
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from engram.errors import EmbedderMismatch, InvalidInput, NotFound, SchemaTooNew, StoreCorrupt, require

# The exact scan (matrix @ q, then the top k) costs time linear in the subject's size and its p95
# passes ~15 ms between ~25k vectors (this 2-core machine under today's shared load, 4-9:
# 10k 11-22 ms, 25k 21-28 ms, 50k 20-39 ms, 100k 57-69 ms, 250k 307 ms) and ~80k (the issue's
# quieter run: 12-19 ms at 100k). An HNSW query at 50k is 2-7 ms p95 wall (ef 256-512) at
# recall@10 0.98-0.995. 50k splits the two: below it recall stays exact and identical to
# today's results; above it the exact scan would eat a third or more of the 50 ms budget.
EXACT_MAX_ITEMS = 50_000

FORMAT_VERSION = 1
MAGIC = b"ENGRAM-ANN\n"
DEFAULT_M = 16
DEFAULT_EF_CONSTRUCTION = 128
# recall@10 vs exact on MiniLM-like vectors (M=16, ef_construction=128): 9k real LoCoMo turns
# 0.93/0.98/0.99 at ef 64/128/256; Gaussian proxy 50k 0.92/0.98/0.995/0.999 at ef 128/256/512/1024,
# 250k 0.78/0.89 at ef 128/256. Recall falls with size at a fixed ef, so the default is generous.
DEFAULT_EF_SEARCH = 512
_TRAILER = struct.Struct(">Q32s")  # payload length, SHA-256 of the payload


def available() -> bool:
    """True when Voyager (the `ann` extra) is installed; nothing is imported."""
    import importlib.util

    return importlib.util.find_spec("voyager") is not None


def _voyager() -> Any:
    """The Voyager module, or MissingDependency naming the extra to install."""
    return require("voyager", "ann")


class AnnIndex:
    """One subject's HNSW index: integer keys to unit vectors, searched by cosine."""

    def __init__(self, model: str, dim: int, *, m: int = DEFAULT_M,
                 ef_construction: int = DEFAULT_EF_CONSTRUCTION, ef_search: int = DEFAULT_EF_SEARCH) -> None:
        if not isinstance(dim, int) or dim < 1:
            raise InvalidInput(f"ANN index dimension must be a positive integer, got {dim!r}")
        voyager = _voyager()
        self.model, self.dim = model, dim
        self.m, self.ef_construction, self.ef_search = m, ef_construction, ef_search
        self._index = voyager.Index(voyager.Space.InnerProduct, num_dimensions=dim, M=m,
                                    ef_construction=ef_construction)
        self._tombstones: set[int] = set()
        self._lock = threading.RLock()
        self.stamp = ""  # the caller's sync marker (e.g. the subject's vector version), saved in the header

    def __len__(self) -> int:
        """Live (searchable) vectors."""
        return len(self._index) - len(self._tombstones)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, (int, np.integer)) and int(key) in self._index and int(key) not in self._tombstones

    @property
    def tombstones(self) -> int:
        """Removed keys whose (noise-overwritten) graph slot is still in the index."""
        return len(self._tombstones)

    def keys(self) -> np.ndarray:
        """Every live key, unordered (int64)."""
        with self._lock:
            ids = np.fromiter(self._index.ids, dtype=np.int64, count=len(self._index))
            if self._tombstones:
                ids = ids[~np.isin(ids, np.fromiter(self._tombstones, dtype=np.int64))]
            return ids

    def add(self, keys: Sequence[int] | np.ndarray, vectors: np.ndarray, *, threads: int = 1) -> None:
        """Insert or replace the vectors of `keys` (a key seen before, even removed, is overwritten)."""
        ids = _keys(keys)
        matrix = self._matrix(vectors, len(ids))
        if not len(ids):
            return
        with self._lock:
            self._index.add_items(matrix, ids.tolist(), num_threads=threads)
            self._tombstones.difference_update(ids.tolist())

    def remove(self, keys: Sequence[int] | np.ndarray) -> int:
        """Forget `keys`: overwrite each vector with noise, then hide it from search. Returns how many."""
        with self._lock:
            doomed = [k for k in dict.fromkeys(_keys(keys, distinct=False).tolist()) if k in self]
            if not doomed:
                return 0
            noise = np.random.default_rng().standard_normal((len(doomed), self.dim)).astype(np.float32)
            noise /= np.linalg.norm(noise, axis=1, keepdims=True)
            self._index.add_items(noise, doomed, num_threads=1)
            for key in doomed:
                self._index.mark_deleted(key)
            self._tombstones.update(doomed)
            return len(doomed)

    def search(self, vector: np.ndarray, n: int, *, ef: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The (about) n nearest live keys to `vector` and their cosines, best first."""
        if not isinstance(n, int) or n < 1:
            raise InvalidInput(f"n must be a positive integer, got {n!r}")
        query = self._matrix(np.asarray(vector, dtype=np.float32).reshape(1, -1), 1)[0]
        with self._lock:
            n = min(n, len(self))
            if n == 0:
                return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
            ids, distances = self._index.query(query, k=n, num_threads=1, query_ef=max(ef or self.ef_search, n))
            return ids.astype(np.int64), (1.0 - distances).astype(np.float32)

    def vectors(self, keys: Sequence[int] | np.ndarray) -> np.ndarray:
        """The stored vectors of live `keys` (rows in key order), e.g. to score keyword hits exactly."""
        ids = _keys(keys, distinct=False)
        with self._lock:
            missing = [k for k in ids.tolist() if k not in self]
            if missing:
                raise NotFound(f"ANN index has no live vector for keys {missing[:5]}")
            if not len(ids):
                return np.zeros((0, self.dim), dtype=np.float32)
            return np.asarray(self._index.get_vectors(ids.tolist()), dtype=np.float32).reshape(len(ids), self.dim)

    def compact(self, *, threads: int = 1) -> None:
        """Rebuild the graph from the live vectors, dropping every tombstone."""
        with self._lock:
            live = self.keys()
            vectors = self.vectors(live)
            fresh = AnnIndex(self.model, self.dim, m=self.m, ef_construction=self.ef_construction,
                             ef_search=self.ef_search)
            for start in range(0, len(live), 10_000):
                fresh.add(live[start : start + 10_000], vectors[start : start + 10_000], threads=threads)
            self._index, self._tombstones = fresh._index, set()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the index to `path` atomically (temporary file, fsync, rename)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        with self._lock:
            with open(tmp, "w+b") as out:
                head = json.dumps(self._header(), sort_keys=True).encode()
                out.write(MAGIC + struct.pack(">I", len(head)) + head)
                start = out.tell()
                self._index.save(_Window(out, start))
                length = out.seek(0, io.SEEK_END) - start
                out.write(_TRAILER.pack(length, _sha256(out, start, length, path)))
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, model: str, dim: int) -> AnnIndex:
        """Read an index saved by `save`, checking format, integrity, model and dimension."""
        path = Path(path)
        if not path.is_file():
            raise NotFound(f"no ANN index file at {path}")
        voyager = _voyager()
        with open(path, "rb") as f:
            head, start = _read_header(f, path)
            _check_header(head, path, model, dim)
            length = _verify_payload(f, path, start)
            try:
                index = voyager.Index.load(_Window(f, start, length))
            except (RuntimeError, ValueError, OSError) as exc:
                raise _corrupt(path, f"the Voyager index does not load: {exc}") from exc
        self = cls.__new__(cls)
        self.model, self.dim = model, dim
        self.m, self.ef_construction, self.ef_search = head["m"], head["ef_construction"], head["ef_search"]
        self._index, self._tombstones, self._lock = index, set(head["tombstones"]), threading.RLock()
        self.stamp = head["stamp"]
        if index.num_dimensions != dim or len(self) != head["live"]:
            raise _corrupt(path, "the index does not match its header")
        return self

    def _header(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "library": "voyager", "library_version": _version(),
                "model": self.model, "dim": self.dim, "space": "inner_product", "m": self.m,
                "ef_construction": self.ef_construction, "ef_search": self.ef_search,
                "live": len(self), "tombstones": sorted(self._tombstones), "stamp": self.stamp}

    def _matrix(self, vectors: np.ndarray, rows: int) -> np.ndarray:
        """`vectors` as a C-contiguous float32 (rows, dim) matrix, or InvalidInput."""
        matrix = np.ascontiguousarray(vectors, dtype=np.float32)
        if not matrix.flags.writeable:  # e.g. a store's cached matrix: Voyager takes writable arrays only
            matrix = matrix.copy()
        if matrix.ndim != 2 or matrix.shape != (rows, self.dim):
            raise InvalidInput(f"expected {rows} vectors of dimension {self.dim}, got shape {np.shape(vectors)}")
        if not np.isfinite(matrix).all():
            raise InvalidInput("vectors must be finite (no NaN or infinity)")
        return matrix


def _keys(keys: Sequence[int] | np.ndarray, *, distinct: bool = True) -> np.ndarray:
    """Keys as a 1-d int64 array of non-negative integers (distinct, if asked), or InvalidInput."""
    array = np.asarray(keys)
    if array.size == 0:
        return np.zeros(0, dtype=np.int64)
    if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer) or (array < 0).any():
        raise InvalidInput(f"ANN keys must be non-negative integers (item rowids), got {keys!r:.80}")
    if distinct and len(np.unique(array)) != len(array):
        raise InvalidInput("ANN keys must be distinct within one call")
    return array.astype(np.int64)


def _version() -> str:
    from importlib.metadata import version

    return version("voyager")


def _corrupt(path: Path, why: str) -> StoreCorrupt:
    return StoreCorrupt(f"ANN index {path} is damaged ({why}): delete it; it is rebuilt from the database")


def _read_header(f: BinaryIO, path: Path) -> tuple[dict[str, Any], int]:
    """The JSON header and the offset where the Voyager payload starts."""
    if f.read(len(MAGIC)) != MAGIC:
        raise _corrupt(path, "not an Engram ANN index file")
    raw = f.read(4)
    size = struct.unpack(">I", raw)[0] if len(raw) == 4 else -1
    body = f.read(size) if 0 < size < 1 << 30 else b""
    try:
        head = json.loads(body)
    except ValueError as exc:
        raise _corrupt(path, f"unreadable header: {exc}") from exc
    if not isinstance(head, dict) or not isinstance(head.get("format"), int):
        raise _corrupt(path, "header has no format number")
    return head, len(MAGIC) + 4 + size


def _check_header(head: dict[str, Any], path: Path, model: str, dim: int) -> None:
    if head["format"] > FORMAT_VERSION:
        raise SchemaTooNew(f"ANN index {path} has format {head['format']}, newer than this Engram's "
                           f"{FORMAT_VERSION}: upgrade Engram, or delete the file to rebuild it")
    needed = {"model": str, "dim": int, "m": int, "ef_construction": int, "ef_search": int, "live": int,
              "tombstones": list, "stamp": str}
    if head["format"] != FORMAT_VERSION or any(not isinstance(head.get(k), t) for k, t in needed.items()):
        raise _corrupt(path, f"header is not format {FORMAT_VERSION}")
    if head["model"] != model or head["dim"] != dim:
        raise EmbedderMismatch(f"ANN index {path} holds {head['model']!r} vectors of dimension {head['dim']}, "
                               f"but {model!r} of dimension {dim} was asked for: delete the file to rebuild it")


def _verify_payload(f: BinaryIO, path: Path, start: int) -> int:
    """Check the trailer's length and SHA-256 against the payload; return the payload length."""
    end = f.seek(0, io.SEEK_END) - _TRAILER.size
    if end < start:
        raise _corrupt(path, "file is truncated")
    f.seek(end)
    length, digest = _TRAILER.unpack(f.read(_TRAILER.size))
    if length != end - start:
        raise _corrupt(path, "file is truncated or has extra bytes")
    if _sha256(f, start, length, path) != digest:
        raise _corrupt(path, "checksum mismatch")
    return int(length)


def _sha256(f: BinaryIO, start: int, length: int, path: Path) -> bytes:
    """SHA-256 of `length` bytes of `f` from `start`, read in 16 MiB chunks."""
    f.seek(start)
    sha, left = hashlib.sha256(), length
    while left:
        chunk = f.read(min(left, 1 << 24))
        if not chunk:
            raise _corrupt(path, "file is truncated")
        sha.update(chunk)
        left -= len(chunk)
    return sha.digest()


class _Window(io.RawIOBase):
    """A seekable view of `f` from byte `start` (`length` bytes when reading), for Voyager's I/O."""

    def __init__(self, f: BinaryIO, start: int, length: int | None = None) -> None:
        super().__init__()
        self.f, self.start, self.length, self.pos = f, start, length, 0

    def readable(self) -> bool:
        return self.length is not None

    def writable(self) -> bool:
        return self.length is None

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        end = self.length if self.length is not None else self.f.seek(0, io.SEEK_END) - self.start
        self.pos = max(0, min(end, {io.SEEK_SET: 0, io.SEEK_CUR: self.pos, io.SEEK_END: end}[whence] + offset))
        return self.pos

    def read(self, size: int | None = -1) -> bytes:
        left = (self.length or 0) - self.pos
        self.f.seek(self.start + self.pos)
        data = self.f.read(left if size is None or size < 0 else min(size, left))
        self.pos += len(data)
        return data

    def write(self, data: Any) -> int:
        self.f.seek(self.start + self.pos)
        written = self.f.write(data)
        self.pos += written
        return written
