"""`AsyncMemory`: the verbs of `Memory` as coroutines that never block the event loop.

    async with engram.AsyncMemory("memory.db") as mem:
        await mem.remember("user:42", "Team uses Postgres 16 for all services.")
        hits = await mem.recall("user:42", "Which database do we use?", k=3)

Each call runs on a bounded executor owned by this object: at most `concurrency` calls at once
(default: one per core on SQLite, whose reads each get their own connection; on PostgreSQL the
connection pool's size, ENGRAM_PG_POOL, so a call never waits inside a thread for a connection);
further calls wait their turn in the executor's queue, holding no thread. The work itself — embedding, ranking, the
screens, the store's transaction — is the same code as `Memory`'s (embedding is CPU work that
releases the GIL, so it belongs on a thread either way). A call whose awaiting task is cancelled
still finishes in its thread: a write is one transaction, done or not done.

`off_loop(memory)` is the bounded executor the integrations' coroutines (LangGraph's async store, the
Agents SDK session, the async memory tool) share for one open `Memory`: one bounded executor per
Memory, which it never closes (the Memory's owner does).
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import weakref
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, TypeVar

from engram.core.memory import Memory
from engram.errors import InvalidInput
from engram.types import Saved

P = ParamSpec("P")
T = TypeVar("T")


def _off_loop(method: Callable[Concatenate[Memory, P], T]) -> Callable[Concatenate[AsyncMemory, P],
                                                                        Coroutine[Any, Any, T]]:
    """`Memory.method` as a coroutine method of `AsyncMemory`, with the same parameters and docs."""

    async def call(self: AsyncMemory, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.run(method, self.memory, *args, **kwargs)

    call.__name__ = call.__qualname__ = method.__name__
    call.__doc__ = method.__doc__
    return call


def default_concurrency(memory: Memory) -> int:
    """How many calls run at once by default: the PostgreSQL pool's size, else the cores."""
    pool = getattr(memory.store, "pool_size", None)
    if isinstance(pool, int) and pool > 0:
        return pool
    return os.cpu_count() or 1


class Lane:
    """A bounded executor: at most `size` calls run at once; the rest wait in its queue."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._executor = ThreadPoolExecutor(size, thread_name_prefix="engram-async")

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` on one of the lane's threads, awaited."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    def shutdown(self) -> None:
        """Wait for the calls in flight; later calls are refused."""
        self._executor.shutdown(wait=True)


class AsyncMemory:
    """A `Memory` whose verbs are awaited (see the module docstring). Takes `Memory`'s arguments,
    or an open `Memory` (`AsyncMemory(memory=mem)`, closed with this object)."""

    def __init__(self, db: Any = None, *, memory: Memory | None = None, concurrency: int | None = None,
                 **options: Any) -> None:
        if memory is not None and (db is not None or options):
            raise InvalidInput("pass either an open Memory (memory=...) or Memory's arguments, not both")
        if concurrency is not None and (isinstance(concurrency, bool) or not isinstance(concurrency, int)
                                        or concurrency < 1):
            raise InvalidInput(f"concurrency must be a whole number of calls, at least 1, not {concurrency!r}")
        self.memory = memory if memory is not None else Memory(db, **options)
        self.concurrency = concurrency or default_concurrency(self.memory)
        self._lane = Lane(self.concurrency)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run `fn(*args, **kwargs)` on this object's bounded executor."""
        return await self._lane.run(fn, *args, **kwargs)

    async def aclose(self) -> None:
        """Wait for calls in flight, then close the Memory (writing its access counts)."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._close)

    def _close(self) -> None:
        self._lane.shutdown()
        self.memory.close()

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    remember = _off_loop(Memory.remember)

    async def remember_many(self, subject: str, texts: Sequence[str | Mapping[str, Any]],
                            **options: Any) -> list[Saved]:
        """`Memory.remember_many`, awaited."""
        return await self.run(self.memory.remember_many, subject, texts, **options)

    recall = _off_loop(Memory.recall)
    items = _off_loop(Memory.items)
    get = _off_loop(Memory.get)
    history = _off_loop(Memory.history)
    matches = _off_loop(Memory.matches)
    forget_plan = _off_loop(Memory.forget_plan)
    forget = _off_loop(Memory.forget)
    forget_ids = _off_loop(Memory.forget_ids)
    forget_all = _off_loop(Memory.forget_all)
    subjects = _off_loop(Memory.subjects)
    stats = _off_loop(Memory.stats)

    async def flush_accesses(self) -> int:
        """`Memory.admin.flush_accesses`, awaited."""
        return await self.run(self.memory.admin.flush_accesses)


_shared: weakref.WeakKeyDictionary[Memory, Lane] = weakref.WeakKeyDictionary()
_shared_lock = threading.Lock()


def off_loop(memory: Memory) -> Lane:
    """The bounded executor shared by every async caller of `memory` (made on first use, sized
    like AsyncMemory's; it holds no reference to the Memory): `await off_loop(mem).run(fn, *args)`."""
    with _shared_lock:
        found = _shared.get(memory)
        if found is None:
            found = _shared[memory] = Lane(default_concurrency(memory))
        return found
