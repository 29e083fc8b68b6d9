"""AsyncMemory on both backends: the verbs as coroutines, the event loop keeps running while a call
works, at most `concurrency` calls run at once, and closing waits for calls in flight."""

from __future__ import annotations

import asyncio
import threading

import pytest

import engram
from engram.core.async_memory import AsyncMemory
from engram.embed.hashing import HashingEmbedder
from engram.errors import InvalidInput, NotFound

FACT = "The team uses Postgres 16 for every service."


async def _heartbeat(ticks: list[int]) -> None:
    while True:
        ticks[0] += 1
        await asyncio.sleep(0)


def test_the_verbs_are_awaited_on_both_backends(store_url: str) -> None:
    async def main() -> None:
        async with AsyncMemory(store_url, embedder=HashingEmbedder(256)) as mem:
            saved = await mem.remember("user:1", FACT, source="chat")
            assert saved.saved and saved.id
            many = await mem.remember_many("user:1", ["Alice leads the platform team.", "Deploys happen on Fridays."])
            assert all(s.saved for s in many)
            hits = await mem.recall("user:1", "which Postgres version?", k=2)
            assert hits[0].text == FACT
            assert {i.text for i in await mem.items("user:1")} >= {FACT, "Deploys happen on Fridays."}
            assert (await mem.get(saved.id)).text == FACT
            assert await mem.subjects() == {"user:1": 3}
            assert await mem.forget("user:1", "postgres") == 1
            with pytest.raises(NotFound):
                await mem.get(saved.id)
            assert (await mem.stats("user:1"))["items"] == 2
            if store_url.startswith("postgres"):
                assert mem.concurrency == mem.memory.store.pool_size  # type: ignore[attr-defined]

    asyncio.run(main())


def test_the_event_loop_runs_while_a_call_works(store_url: str) -> None:
    async def main() -> None:
        async with AsyncMemory(store_url, embedder=HashingEmbedder(256)) as mem:
            await mem.remember("user:1", FACT)
            ticks = [0]
            beating = asyncio.create_task(_heartbeat(ticks))
            await asyncio.sleep(0)
            before = ticks[0]
            hits = await mem.recall("user:1", "which database?")
            assert hits and ticks[0] > before  # the loop ran other tasks during the recall
            # A call that cannot finish until another task has run: only possible off the loop.
            released = threading.Event()

            async def release_after_ticks() -> None:
                start = ticks[0]
                while ticks[0] < start + 3:
                    await asyncio.sleep(0)
                released.set()

            releaser = asyncio.create_task(release_after_ticks())
            assert await mem.run(released.wait, 30) is True
            await releaser
            beating.cancel()

    asyncio.run(main())


def test_at_most_concurrency_calls_run_at_once(tmp_path) -> None:
    active, peak, threads = [0], [0], set()
    lock = threading.Lock()
    pair = threading.Barrier(2, timeout=30)

    def work() -> None:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
            threads.add(threading.current_thread().name)
        pair.wait()  # two calls must be in flight together for either to finish
        with lock:
            active[0] -= 1

    async def main() -> None:
        async with AsyncMemory(str(tmp_path / "m.db"), embedder=HashingEmbedder(64), concurrency=2) as mem:
            await asyncio.gather(*(mem.run(work) for _ in range(12)))

    asyncio.run(main())
    assert peak[0] == 2 and len(threads) == 2


def test_bad_arguments_are_named(tmp_path) -> None:
    with pytest.raises(InvalidInput, match="concurrency"):
        AsyncMemory(str(tmp_path / "m.db"), concurrency=0)
    with engram.Memory(str(tmp_path / "n.db"), embedder=HashingEmbedder(64)) as opened:
        with pytest.raises(InvalidInput, match="either an open Memory"):
            AsyncMemory(str(tmp_path / "n.db"), memory=opened)


def test_integrations_share_one_bounded_executor_per_memory_and_let_it_go(tmp_path) -> None:
    import gc
    import weakref

    from engram.core.async_memory import default_concurrency, off_loop

    mem = engram.Memory(str(tmp_path / "m.db"), embedder=HashingEmbedder(64))
    other = engram.Memory(str(tmp_path / "o.db"), embedder=HashingEmbedder(64))
    lane = off_loop(mem)
    assert off_loop(mem) is lane and off_loop(other) is not lane
    assert lane.size == default_concurrency(mem)
    assert asyncio.run(lane.run(mem.remember, "user:1", FACT)).saved
    gone = weakref.ref(mem)
    mem.close()
    other.close()
    del mem, lane
    gc.collect()
    assert gone() is None  # the shared executor does not keep the Memory alive
