"""Fixtures for the frameworks' own test suites, vendored unedited under tests/upstream/<framework>/.

Each suite is re-pointed at Engram by fixtures alone: the name a test module uses for the
framework's reference class (InMemoryStore, SQLiteSession, BetaLocalFilesystemMemoryTool, ...) is
bound, for the test's duration, to a subclass of Engram's integration that opens its own store on
the current backend (a SQLite file, or a fresh database on the test PostgreSQL server). The test
bodies are the upstream ones; what a suite does not run is listed in its README with the reason.
Async tests and fixtures run under pytest-asyncio's auto mode, as upstream runs them (pyproject.toml).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engram.core.memory import Memory

_counter = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
def engram_backend(request: pytest.FixtureRequest) -> str:
    """The backend the suite runs on: every test runs on both."""
    return str(request.param)


def _new_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "sqlite":
        return str(tmp_path / f"store-{next(_counter)}.db")
    from pg_server import fresh_database

    return fresh_database(request.getfixturevalue("pg_server"))


@pytest.fixture
def engram_memories(engram_backend: str, request: pytest.FixtureRequest,
                    tmp_path: Path) -> Iterator[Callable[[], Memory]]:
    """Makes a Memory over a new, empty store on the backend under test (embedder: none, as the
    suites bring their own); every Memory made is closed after the test."""
    opened: list[Memory] = []

    def make() -> Memory:
        memory = Memory(_new_url(engram_backend, request, tmp_path), embedder="none")
        opened.append(memory)
        return memory

    yield make
    for memory in opened:
        memory.close()


@pytest.fixture
def engram_url(engram_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], str]:
    """The Engram store URL on the backend under test for a reference's connection string: the
    same database where the backends agree (a SQLite path or ":memory:" on SQLite, a PostgreSQL
    URL on PostgreSQL), else one new store per connection string (":memory:": a new one each time)."""
    made: dict[str, str] = {}

    def url(conn: str) -> str:
        on_postgres = conn.startswith(("postgres://", "postgresql://"))
        if on_postgres == (engram_backend == "postgres") or (conn == ":memory:" and engram_backend == "sqlite"):
            return conn
        if conn == ":memory:":
            return _new_url(engram_backend, request, tmp_path)
        if conn not in made:
            made[conn] = _new_url(engram_backend, request, tmp_path)
        return made[conn]

    return url


# Suites that take more than about half a minute per backend here (their TTL tests sleep, their
# batch tests run thousands of operations): marked `slow`, so `-m "not slow"` leaves them out.
SLOW_SUITES = frozenset({"anthropic", "langgraph_sqlite", "langgraph_postgres"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.parts
        if "upstream" in parts and parts[parts.index("upstream") + 1] in SLOW_SUITES:
            item.add_marker(pytest.mark.slow)
