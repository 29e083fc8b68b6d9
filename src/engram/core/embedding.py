"""A write's vectors, made on a helper thread while the write screens its text and reads the store.

The model is most of a write's time, and it runs in native code that lets go of the GIL. So
`Memory`'s writes hand the texts to the model first (`start`) and do the rest of the Python
work — the instruction screen, the supersession look-up's keyword probe — while it runs; only
what needs the new vectors (the nearest stored facts, the insert) waits for them (`Pending.vectors`).

The helper threads (one per core, shared by every Memory in the process, made again after a
fork) only ever run the embedder, so a call never waits behind another kind of work.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np

from engram.core.reindex import embed_items
from engram.embed.base import Embedder
from engram.types import Item

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()
_HERE = threading.local()  # `inline()`: this thread embeds its own writes


@contextmanager
def inline() -> Iterator[None]:
    """Writes made by this thread meanwhile embed in it, one step after another (the baseline
    `engram bench writes` compares the helper thread with)."""
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
            _POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="engram-embed")
        return _POOL


def _reset_after_fork() -> None:
    """A forked child has none of the parent's threads: it makes its own pool when first needed."""
    global _POOL, _POOL_LOCK
    _POOL, _POOL_LOCK = None, threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


class Pending:
    """The vectors of some items, being made (or made: no embedder, nothing to embed)."""

    def __init__(self, future: Future[dict[str, np.ndarray]] | None) -> None:
        self._future = future

    def vectors(self) -> dict[str, np.ndarray]:
        """Wait for the vectors (item id -> unit vector); the embedder's error, if it failed."""
        return self._future.result() if self._future is not None else {}

    def drop(self) -> None:
        """The write was refused: the vectors are not wanted (a call not begun yet never runs)."""
        if self._future is not None:
            self._future.cancel()


def _embed(started: threading.Event, embedder: Embedder, items: Sequence[Item]) -> dict[str, np.ndarray]:
    started.set()
    return embed_items(embedder, items)


def start(embedder: Embedder | None, items: Sequence[Item]) -> Pending:
    """Begin embedding `items` (what recall searches of each, `engram.types.embedded_text`).

    Returns once a helper thread has picked the call up, so the caller's own Python work does not
    hold the GIL before the model has started."""
    if embedder is None or not items:
        return Pending(None)
    if getattr(_HERE, "inline", False):
        done: Future[dict[str, np.ndarray]] = Future()
        done.set_result(embed_items(embedder, items))
        return Pending(done)
    started = threading.Event()
    future = _pool().submit(_embed, started, embedder, list(items))
    started.wait(0.05)  # bounded: with every helper busy the call waits its turn in the queue
    return Pending(future)
