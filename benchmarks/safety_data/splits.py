"""One rule for splitting labelled rows: a stable hash of a row's key (its text or its template's
name) puts it in train, dev or test, the same on every run and machine."""

from __future__ import annotations

import hashlib


def split_of(key: str, train: int = 70, dev: int = 85) -> str:
    """"train" for the first `train` of every 100 hash buckets, "dev" up to `dev`, "test" for the rest."""
    bucket = int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) % 100
    return "train" if bucket < train else "dev" if bucket < dev else "test"
