"""LangGraph's SQLite store suites re-pointed at EngramStore: `SqliteStore` and `AsyncSqliteStore`
in each test module are bound to EngramStore / AsyncEngramStore classes with the reference's
constructor (`from_conn_string(conn, index=, ttl=)`, `setup()`), over the store the connection
string names on the backend under test (see ../reference_stores.py and ../conftest.py). SqliteStore
refreshes a TTL on read only when its TTLConfig sets refresh_on_read, so the classes default it to False."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

import pytest

from not_applicable import in_file, mark_not_applicable
from reference_stores import reference_stores

from . import test_store

# The async suite imports its embeddings as `tests.test_store` (LangGraph's layout).
sys.modules.setdefault("tests", types.ModuleType("tests"))
sys.modules["tests.test_store"] = test_store


@pytest.fixture(autouse=True)
def _engram_store(request: pytest.FixtureRequest, engram_url: Callable[[str], str],
                  monkeypatch: pytest.MonkeyPatch) -> None:
    sync_store, async_store = reference_stores(engram_url, refresh_on_read=False)
    for name, cls in (("SqliteStore", sync_store), ("AsyncSqliteStore", async_store)):
        if hasattr(request.module, name):
            monkeypatch.setattr(request.module, name, cls)


# Tests of SqliteStore's own machinery, each with the reason; the rest of the suites run as written.
_SQL = "reads SqliteStore's SQL"
NOT_APPLICABLE: dict[str, str] = {
    "test_store.py::test_vector_store_initialization": _SQL + " (its vector tables, through store.conn) and store.embeddings",
    "test_store.py::test_nonnull_migrations": "checks SqliteStore.MIGRATIONS, its schema steps",
    "test_store.py::test_escape_glob_literal": "tests _escape_glob_literal, a private helper that escapes labels for its SQL GLOB",
    "test_store.py::test_namespace_match_pattern": "tests _namespace_match_pattern, a private helper building its SQL regex",
    "test_store.py::test_list_namespaces_prefix_uses_indexable_condition": _SQL + " (the query BaseSqliteStore builds for a prefix)",
    "test_store.py::test_sql_injection_vulnerability": "checks the guard SqliteStore puts on filter keys it writes into SQL"
                                        " (ValueError 'Invalid filter key'); InMemoryStore and PostgresStore take"
                                        " any key, and so does EngramStore, which matches keys in Python",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_not_applicable(items, "langgraph_sqlite", NOT_APPLICABLE, key=in_file)
