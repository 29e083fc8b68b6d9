"""Shared fixtures: real stores on every backend, and Memory over them.

`store` and `memory` are parametrised over backends: "sqlite" (a real file in a tmp dir) and
"postgres" (a real server started once per session by tests/pg_server.py, or the one named by
ENGRAM_TEST_PG_URL). A missing PostgreSQL fails the postgres tests; it never skips them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from engram.embed.hashing import HashingEmbedder
from engram.core.memory import Memory
from engram.store import open_store

BACKENDS = ["sqlite", "postgres"]
# The PostgreSQL half of a test parametrised over backends is `slow` (the full run, CI's, has it),
# except in these files: the store contract runs on PostgreSQL in the fast run too, so a broken
# backend fails there first; so do the unparametrised PostgreSQL tests (test_postgres_specific.py,
# test_pg_outage.py, test_keyword.py's comparison of the two).
POSTGRES_IN_FAST_RUN = frozenset({"test_store_contract.py"})
POSTGRES_PARAMS = frozenset({"postgres", "engram-postgres"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(item, "callspec", None)
        if params is None or item.path.name in POSTGRES_IN_FAST_RUN:
            continue
        if any(isinstance(v, str) and v in POSTGRES_PARAMS for v in params.params.values()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def minilm(tmp_path_factory: pytest.TempPathFactory):
    """The real bundled model, loaded once per session; each text is embedded once per session
    (engram.bench.vectorcache: the model's own vectors, kept in a file under the session tmp dir)."""
    from engram.bench.vectorcache import CachedEmbedder
    from engram.embed import get_embedder

    return CachedEmbedder(get_embedder("minilm"), tmp_path_factory.mktemp("minilm-vectors"))


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL with pgvector for the whole session; yields its base URL."""
    from pg_server import postgres_for_tests

    with postgres_for_tests() as url:
        yield url


def _store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "sqlite":
        return str(tmp_path / "memory.db")
    from pg_server import fresh_database

    return fresh_database(request.getfixturevalue("pg_server"))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL for an empty store on the current backend."""
    return _store_url(backend, request, tmp_path)


@pytest.fixture
def store(store_url: str):
    s = open_store(store_url)
    yield s
    s.close()


@pytest.fixture
def memory(store_url: str):
    """A Memory with the deterministic hashing embedder (fast); tests of the real model ask for it."""
    mem = Memory(store_url, embedder=HashingEmbedder(256))
    yield mem
    mem.close()


@pytest.fixture
def sqlite_memory(tmp_path: Path):
    mem = Memory(str(tmp_path / "memory.db"), embedder=HashingEmbedder(256))
    yield mem
    mem.close()


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's own ENGRAM_* settings or data dir."""
    for name in list(os.environ):
        if name.startswith("ENGRAM_") and name != "ENGRAM_TEST_PG_URL":
            monkeypatch.delenv(name)
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many examples of each docs page ran (tests/test_docs.py)."""
    from docblocks import summary

    lines = summary()
    if lines:
        terminalreporter.section("docs examples run")
        for line in lines:
            terminalreporter.write_line(line)
