"""Where a SQLite store's saved ANN indexes live, and the lock that orders the processes using them.

`<db>.ann/<subject hash>-<model hash>.ann` is a subject's index header under one model, with its
payloads beside it (engram.core.ann: `<header>.<token>.voy`); `<db>.ann/lock` is locked shared
while a process loads an index and exclusively while one saves or scrubs one, so a save never
interleaves with a forget's rewrite. Names are hashes: a file name never shows a subject.
On a platform without `fcntl` (Windows) the lock is a no-op: two processes saving one subject's
index at once are then not ordered (each file is still replaced atomically).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK = "lock"
HEADER = ".ann"


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=10).hexdigest()


def header(folder: Path, subject: str, model: str) -> Path:
    """The header file of `subject`'s index under `model`."""
    return folder / f"{_hash(subject)}-{_hash(model)}{HEADER}"


def headers(folder: Path | None, subject: str | None = None) -> list[Path]:
    """Every header in `folder` (of one subject, if given), sorted."""
    if folder is None or not folder.is_dir():
        return []
    prefix = f"{_hash(subject)}-" if subject is not None else ""
    return sorted(p for p in folder.iterdir() if p.name.startswith(prefix) and p.name.endswith(HEADER))


@contextmanager
def locked(folder: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold `folder`'s lock (exclusive: created with the folder if missing). A shared lock on a
    folder that has no lock file, or cannot be opened (read-only file system), is not taken."""
    try:
        import fcntl
    except ImportError:  # Windows: see the module docstring
        yield
        return
    if exclusive:
        folder.mkdir(exist_ok=True)
    try:
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT if exclusive else os.O_RDONLY, 0o600)
    except OSError:
        if exclusive:
            raise
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing releases the lock
