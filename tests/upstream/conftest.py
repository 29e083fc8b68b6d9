"""Fixtures for the frameworks' own test suites, vendored unedited under tests/upstream/<framework>/.

Each suite is re-pointed at Engram by fixtures alone: the name a test module uses for the
framework's reference class (InMemoryStore, SQLiteSession, BetaLocalFilesystemMemoryTool, ...) is
bound, for the test's duration, to a subclass of Engram's integration that opens its own store on
the current backend (a SQLite file, or a fresh database on the test PostgreSQL server). The test
bodies are the upstream ones; what a suite does not run is listed in its README with the reason.
Async tests get pytest-asyncio's marker here (upstream runs them in its `asyncio_mode = "auto"`).
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engram.core.memory import Memory

_counter = itertools.count()


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> None:
    """Upstream's async tests run under pytest-asyncio, as in its `asyncio_mode = "auto"`."""
    if name.startswith("test") and inspect.iscoroutinefunction(obj) and not hasattr(obj, "pytestmark"):
        pytest.mark.asyncio(obj)
    elif name.startswith("test") and inspect.iscoroutinefunction(obj):
        marks = [m.name for m in getattr(obj, "pytestmark", [])]
        if "asyncio" not in marks and "anyio" not in marks:
            pytest.mark.asyncio(obj)


@pytest.fixture(params=["sqlite", "postgres"])
def engram_memories(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Memory]]:
    """Makes a Memory over a new, empty store on the backend under test (embedder: none, as the
    suites bring their own); every Memory made is closed after the test."""
    opened: list[Memory] = []

    def make() -> Memory:
        if request.param == "sqlite":
            url = str(tmp_path / f"store-{next(_counter)}.db")
        else:
            from pg_server import fresh_database

            url = fresh_database(request.getfixturevalue("pg_server"))
        memory = Memory(url, embedder="none")
        opened.append(memory)
        return memory

    yield make
    for memory in opened:
        memory.close()
