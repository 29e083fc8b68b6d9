"""One small thread pool for work that overlaps the caller's (an embedding, which releases the GIL
inside the model, while the caller reads the store)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_pool = ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1), thread_name_prefix="engram-overlap")


def _renew_after_fork() -> None:
    """A forked child inherits the pool but not its threads: give it a fresh pool."""
    global _pool
    _pool = ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1), thread_name_prefix="engram-overlap")


os.register_at_fork(after_in_child=_renew_after_fork)


def start(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """Run `fn(*args, **kwargs)` on the pool; `.result()` waits for it (and raises what it raised)."""
    return _pool.submit(fn, *args, **kwargs)
