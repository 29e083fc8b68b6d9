"""A write's vectors, made in the writing thread while a helper thread screens its text and reads the store.

The model is most of a write's time, and it runs in native code that lets go of the GIL. So
`Memory`'s writes hand the rest of their Python work that needs no vector — the supersession
look-up's keyword probe and the facts it names, the instruction screen — to a helper thread and
run the model themselves at once (`beside`); only what needs the new vectors (the nearest stored
facts, the insert) comes after both. The model starts without waiting for a thread to be
scheduled; work that no helper has begun by the time the model is done runs in the writing
thread, so a write never waits behind a busy helper.

The helper threads (one per core, shared by every Memory in the process, made again after a
fork) only ever run this work of writes.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

import numpy as np

from engram.core.reindex import embed_items
from engram.embed.base import Embedder
from engram.types import Item

T = TypeVar("T")

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()
_HERE = threading.local()  # `inline()`: this thread does a write's work itself, one step after another


@contextmanager
def inline() -> Iterator[None]:
    """Writes made by this thread meanwhile do their other work after the model, in this thread
    (the baseline `engram bench writes` compares the helper thread with)."""
    before = getattr(_HERE, "inline", False)
    _HERE.inline = True
    try:
        yield
    finally:
        _HERE.inline = before


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="engram-write")
        return _POOL


def _reset_after_fork() -> None:
    """A forked child has none of the parent's threads: it makes its own pool when first needed."""
    global _POOL, _POOL_LOCK
    _POOL, _POOL_LOCK = None, threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def beside(embedder: Embedder | None, items: Sequence[Item], work: Callable[[], T]) -> tuple[dict[str, np.ndarray], T]:
    """The vectors of `items` (item id -> unit vector of what recall searches of each,
    `engram.types.embedded_text`; none without an embedder), made in this thread, and what
    `work()` returns, run on a helper thread meanwhile.

    `work` that no helper has begun when the model is done is run here instead. When the model
    fails, `work` is called off, or waited for if it has begun, before the model's error is raised:
    nothing of the write is left running after the call. `work`'s own error is raised as it is."""
    if embedder is None or not items:
        return {}, work()
    if getattr(_HERE, "inline", False):
        vectors = embed_items(embedder, items)
        return vectors, work()
    future = _pool().submit(work)
    try:
        vectors = embed_items(embedder, items)
    except BaseException:
        if not future.cancel():
            future.exception()  # begun: let it finish; its own error, if any, is not the one to raise
        raise
    if future.cancel():  # no helper got to it: do it here
        return vectors, work()
    return vectors, future.result()
