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

Keys are non-negative integers: the store's item rowid for a saved index (engram.core.ann_files).
Scores are cosines of unit vectors (inner products), as in the exact scan. Every live key also
has a `digest` of its vector (64 bits of its bytes), saved with the index, so whoever loads it
can tell, row by row, whether the store still holds the same vectors.

Forgetting. HNSW libraries only *mark* a node deleted: its vector stays in memory and in the
saved file (checked for hnswlib, Voyager and usearch). `remove` therefore first overwrites the
node's vector in place with fresh random noise (which also relinks the node as noise), then
marks it deleted: after `remove` a search never returns the key, and after `save` no 16-byte run
of the forgotten vector is in the files. What stays is a tombstone: the integer key and a noise
vector in a graph slot. Tombstones cost space and a little speed, never content; a saved index
with too many is rebuilt from the store when it is next loaded (engram.core.vectors).

Files (`save`/`load`): two per index. `<name>` (the header) holds a magic line, a JSON header
(format version, model, dimension, the caller's `stamp`, the payload's name, length and
SHA-256), the live keys, their digests and the tombstones, then a SHA-256 of all of it.
`<name>.<token>.voy` (the payload) is Voyager's own file, which Voyager reads natively without
holding the GIL (13x faster than through a Python file object here). `save` writes and fsyncs a
new payload, then atomically replaces the header, then deletes the payloads it replaced: a crash
at any point leaves a header that names a complete payload. `load` checks every part and raises
`StoreCorrupt`, `SchemaTooNew` or `EmbedderMismatch`; the index is derived data, so the recovery
is always: delete the files and rebuild from the database.

An `AnnIndex` serialises its own operations with a lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import struct
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.errors import EmbedderMismatch, InvalidInput, NotFound, SchemaTooNew, StoreCorrupt, require

# The exact scan (matrix @ q, then the top k) costs time linear in the subject's size and its p95
# passes ~15 ms between ~25k vectors (this 2-core machine under today's shared load, 4-9:
# 10k 11-22 ms, 25k 21-28 ms, 50k 20-39 ms, 100k 57-69 ms, 250k 307 ms) and ~80k (the issue's
# quieter run: 12-19 ms at 100k). An HNSW query at 50k is 2-7 ms p95 wall (ef 256-512) at
# recall@10 0.98-0.995. 50k splits the two: below it recall stays exact and identical to
# today's results; above it the exact scan would eat a third or more of the 50 ms budget.
EXACT_MAX_ITEMS = 50_000

FORMAT_VERSION = 2
MAGIC = b"ENGRAM-ANN\n"
PAYLOAD = ".voy"
DEFAULT_M = 16
DEFAULT_EF_CONSTRUCTION = 128
# recall@10 vs exact on MiniLM-like vectors (M=16, ef_construction=128): 9k real LoCoMo turns
# 0.93/0.98/0.99 at ef 64/128/256; Gaussian proxy 50k 0.92/0.98/0.995/0.999 at ef 128/256/512/1024,
# 250k 0.78/0.89 at ef 128/256. Recall falls with size at a fixed ef, so the default is generous.
DEFAULT_EF_SEARCH = 512
_DIGEST_WORDS = np.random.default_rng(0x454E4752414D).integers(1, 2**62, size=4096, dtype=np.uint64) * 2 + 1


def available() -> bool:
    """True when Voyager (the `ann` extra) is installed; nothing is imported."""
    import importlib.util

    return importlib.util.find_spec("voyager") is not None


def _voyager() -> Any:
    """The Voyager module, or MissingDependency naming the extra to install."""
    return require("voyager", "ann")


def digest(vectors: np.ndarray) -> np.ndarray:
    """64 bits of each float32 row's bytes (uint64): each 8-byte word times a fixed odd constant,
    summed modulo 2**64. Exact integer arithmetic, so a row always gets the same digest; a change
    of any one word always changes it, and unrelated rows collide with probability ~2**-64."""
    rows = np.ascontiguousarray(vectors, dtype=np.float32)
    if rows.ndim != 2:
        raise InvalidInput(f"expected a matrix of vectors, got shape {rows.shape}")
    if rows.shape[1] % 2:  # an odd dimension: pad each row to whole 8-byte words
        rows = np.concatenate([rows, np.zeros((len(rows), 1), dtype=np.float32)], axis=1)
    words = rows.view(np.uint64)
    if words.shape[1] > len(_DIGEST_WORDS):
        raise InvalidInput(f"vectors of dimension {vectors.shape[1]} are too wide to digest")
    out: np.ndarray = words @ _DIGEST_WORDS[: words.shape[1]]
    return out


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
        self._digests: list[tuple[np.ndarray, np.ndarray]] = []  # (keys, digests) per add; last wins
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

    def digests(self) -> tuple[np.ndarray, np.ndarray]:
        """Every live key (ascending) and the `digest` of the vector it was given."""
        with self._lock:
            keys = np.concatenate([k for k, _ in self._digests]) if self._digests else np.zeros(0, np.int64)
            values = np.concatenate([d for _, d in self._digests]) if self._digests else np.zeros(0, np.uint64)
            last, first = np.unique(keys[::-1], return_index=True)  # the latest add of each key
            values = values[::-1][first]
            if self._tombstones:
                live = ~np.isin(last, np.fromiter(self._tombstones, dtype=np.int64))
                last, values = last[live], values[live]
            self._digests = [(last, values)]
            return last, values

    def add(self, keys: Sequence[int] | np.ndarray, vectors: np.ndarray, *, threads: int = 1) -> None:
        """Insert or replace the vectors of `keys` (a key seen before, even removed, is overwritten)."""
        ids = _keys(keys)
        matrix = self._matrix(vectors, len(ids))
        if not len(ids):
            return
        with self._lock:
            self._index.add_items(matrix, ids.tolist(), num_threads=threads)
            self._tombstones.difference_update(ids.tolist())
            self._digests.append((ids, digest(matrix)))

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

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the index: a new payload next to `path`, then the header at `path` (atomically),
        then delete the payloads the header named before. Each file is fsynced before it is used."""
        path = Path(path)
        payload = path.with_name(f"{path.name}.{secrets.token_hex(8)}{PAYLOAD}")
        tmp = payload.with_name(payload.name + ".tmp")
        try:
            with self._lock:
                self._index.save(str(tmp))  # native: Voyager writes without holding the GIL
                keys, values = self.digests()
                tombs = np.array(sorted(self._tombstones), dtype=np.int64)
                head = {**self._header(), "stamp": self.stamp}
            size, sha = _fsync_and_hash(tmp)
            os.replace(tmp, payload)
            head.update({"payload": payload.name, "payload_bytes": size, "payload_sha256": sha,
                         "live": len(keys), "tombstones": len(tombs)})
            _write_atomically(path, _header_bytes(head, keys, values, tombs))
        finally:
            tmp.unlink(missing_ok=True)
        for old in payloads(path):
            if old != payload:
                old.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, model: str, dim: int) -> AnnIndex:
        """Read an index saved by `save`, checking format, integrity, model and dimension."""
        path = Path(path)
        head, keys, values, tombs = read_header(path)
        _check_model(head, path, model, dim)
        payload = path.with_name(head["payload"])
        if not payload.is_file():
            raise _corrupt(path, f"its payload {payload.name} is missing")
        size, sha = _fsync_and_hash(payload, sync=False)
        if size != head["payload_bytes"] or sha != head["payload_sha256"]:
            raise _corrupt(path, f"its payload {payload.name} fails its checksum")
        voyager = _voyager()
        try:
            index = voyager.Index.load(str(payload))
        except (RuntimeError, ValueError, OSError) as exc:
            raise _corrupt(path, f"the Voyager index does not load: {exc}") from exc
        ids = np.sort(np.fromiter(index.ids, dtype=np.int64, count=len(index)))
        if index.num_dimensions != dim or not np.array_equal(ids, np.union1d(keys, tombs)) \
                or len(ids) != len(keys) + len(tombs):
            raise _corrupt(path, "the index does not match its header")
        self = cls.__new__(cls)
        self.model, self.dim = model, dim
        self.m, self.ef_construction, self.ef_search = head["m"], head["ef_construction"], head["ef_search"]
        self._index, self._tombstones, self._lock = index, set(tombs.tolist()), threading.RLock()
        self._digests = [(keys, values)]
        self.stamp = head["stamp"]
        return self

    def _header(self) -> dict[str, Any]:
        return {"format": FORMAT_VERSION, "library": "voyager", "library_version": _version(),
                "model": self.model, "dim": self.dim, "space": "inner_product", "m": self.m,
                "ef_construction": self.ef_construction, "ef_search": self.ef_search}

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


def payloads(path: str | os.PathLike[str]) -> list[Path]:
    """Every payload file (and unfinished temporary one) saved for the header at `path`."""
    path = Path(path)
    if not path.parent.is_dir():
        return []
    return sorted(p for p in path.parent.iterdir()
                  if p.name.startswith(path.name + ".") and (p.name.endswith(PAYLOAD) or p.name.endswith(".tmp")))


def delete_files(path: str | os.PathLike[str]) -> int:
    """Delete an index's header and every payload; returns how many files went."""
    path = Path(path)
    files = [*payloads(path), *([path] if path.exists() else [])]
    for file in files:
        file.unlink(missing_ok=True)
    return len(files)


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """A header file's JSON, live keys, their digests and tombstones, checked (the payload is not read)."""
    path = Path(path)
    if not path.is_file():
        raise NotFound(f"no ANN index file at {path}")
    data = path.read_bytes()
    if len(data) < len(MAGIC) + 4 + 32 or not data.startswith(MAGIC):
        raise _corrupt(path, "not an Engram ANN index file")
    if hashlib.sha256(data[:-32]).digest() != data[-32:]:
        raise _corrupt(path, "checksum mismatch")
    size = struct.unpack(">I", data[len(MAGIC) : len(MAGIC) + 4])[0]
    start = len(MAGIC) + 4 + size
    try:
        head = json.loads(data[len(MAGIC) + 4 : start])
    except ValueError as exc:
        raise _corrupt(path, f"unreadable header: {exc}") from exc
    if not isinstance(head, dict) or not isinstance(head.get("format"), int):
        raise _corrupt(path, "header has no format number")
    if head["format"] > FORMAT_VERSION:
        raise SchemaTooNew(f"ANN index {path} has format {head['format']}, newer than this Engram's "
                           f"{FORMAT_VERSION}: upgrade Engram, or delete the file to rebuild it")
    needed = {"model": str, "dim": int, "m": int, "ef_construction": int, "ef_search": int, "live": int,
              "tombstones": int, "stamp": str, "payload": str, "payload_bytes": int, "payload_sha256": str}
    if head["format"] != FORMAT_VERSION or any(not isinstance(head.get(k), t) for k, t in needed.items()):
        raise _corrupt(path, f"header is not format {FORMAT_VERSION}")
    if not head["payload"].startswith(path.name + ".") or "/" in head["payload"] or "\\" in head["payload"]:
        raise _corrupt(path, "header names a payload that is not its own")
    live, tombs = head["live"], head["tombstones"]
    if len(data) - 32 - start != 16 * live + 8 * tombs:
        raise _corrupt(path, "its key tables do not match the header")
    keys = np.frombuffer(data, dtype="<i8", count=live, offset=start).astype(np.int64)
    values = np.frombuffer(data, dtype="<u8", count=live, offset=start + 8 * live).astype(np.uint64)
    tombstones = np.frombuffer(data, dtype="<i8", count=tombs, offset=start + 16 * live).astype(np.int64)
    return head, keys, values, tombstones


def _header_bytes(head: dict[str, Any], keys: np.ndarray, values: np.ndarray, tombs: np.ndarray) -> bytes:
    body = json.dumps(head, sort_keys=True).encode()
    data = b"".join([MAGIC, struct.pack(">I", len(body)), body, keys.astype("<i8").tobytes(),
                     values.astype("<u8").tobytes(), tombs.astype("<i8").tobytes()])
    return data + hashlib.sha256(data).digest()


def _check_model(head: dict[str, Any], path: Path, model: str, dim: int) -> None:
    if head["model"] != model or head["dim"] != dim:
        raise EmbedderMismatch(f"ANN index {path} holds {head['model']!r} vectors of dimension {head['dim']}, "
                               f"but {model!r} of dimension {dim} was asked for: delete the file to rebuild it")


def _write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file, fsync it, rename it over `path`, fsync the folder."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # a platform that cannot open folders (Windows): the renames are still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _fsync_and_hash(path: Path, *, sync: bool = True) -> tuple[int, str]:
    """Size and SHA-256 (hex) of a file, read in 16 MiB chunks; fsynced first if asked."""
    sha, size = hashlib.sha256(), 0
    with open(path, "rb") as f:
        if sync:
            os.fsync(f.fileno())
        while chunk := f.read(1 << 24):
            sha.update(chunk)
            size += len(chunk)
    return size, sha.hexdigest()


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
