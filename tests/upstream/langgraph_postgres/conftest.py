"""LangGraph's PostgreSQL store suites re-pointed at EngramStore: `PostgresStore` and
`AsyncPostgresStore` in each test module are bound to EngramStore / AsyncEngramStore classes with
the reference's constructor (`from_conn_string(conn, index=, ttl=, pipeline=, pool_config=)`,
`setup()`), and `DEFAULT_URI`, the server the suites make their databases on, is the test
PostgreSQL server. Each database a suite makes holds the Engram store on the PostgreSQL backend;
on the SQLite backend each stands for one SQLite file (see ../reference_stores.py, ../conftest.py)."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

import pytest

from not_applicable import in_file, mark_not_applicable
from reference_stores import reference_stores

from . import embed_test_utils

# The suites import their helpers as `tests.conftest` and `tests.embed_test_utils` (LangGraph's
# layout); upstream's tests/conftest.py is vendored as tests_conftest.py, since its fixtures
# (a connection to its own server, emptying the reference's tables) are the reference's.
sys.modules.setdefault("tests", types.ModuleType("tests"))
sys.modules["tests.embed_test_utils"] = embed_test_utils
from . import tests_conftest  # noqa: E402 (imports tests.embed_test_utils)

sys.modules["tests.conftest"] = tests_conftest
fake_embeddings = tests_conftest.fake_embeddings  # upstream's fixture, used as it is


@pytest.fixture(autouse=True)
def _engram_store(request: pytest.FixtureRequest, engram_url: Callable[[str], str], pg_server: str,
                  monkeypatch: pytest.MonkeyPatch) -> None:
    sync_store, async_store = reference_stores(engram_url)
    for name, cls in (("PostgresStore", sync_store), ("AsyncPostgresStore", async_store)):
        if hasattr(request.module, name):
            monkeypatch.setattr(request.module, name, cls)
    monkeypatch.setattr(request.module, "DEFAULT_URI", pg_server)


# Tests of PostgresStore's own machinery, each with the reason; the rest of the suites run as written.
_ROWS = "reads or rewrites PostgresStore's rows through its private _cursor() (its `store` table's expires_at)"
NOT_APPLICABLE: dict[str, str] = {
    "test_store.py::test_escape_like_literal": "tests _escape_like_literal, a private helper that escapes labels for its SQL LIKE",
    "test_store.py::test_namespace_match_pattern": "tests _namespace_match_pattern, a private helper building its SQL regex",
    "test_store.py::test_nonnull_migrations": "checks PostgresStore.MIGRATIONS, its schema steps",
    "test_store.py::test_omit_expired_filters_read_paths": _ROWS,
    "test_store.py::test_omit_expired_disabled_preserves_expired_rows": _ROWS,
    "test_store.py::test_omit_expired_refresh_ttl_only_refreshes_live_rows": _ROWS,
    "test_store.py::test_omit_expired_search_pagination": _ROWS,
    "test_async_store.py::test_omit_expired_filters_read_paths": _ROWS,
    "test_async_store.py::test_omit_expired_disabled_preserves_expired_rows": _ROWS,
    "test_async_store.py::test_omit_expired_refresh_ttl_only_refreshes_live_rows": _ROWS,
    "test_async_store.py::test_omit_expired_search_pagination": _ROWS,
    "test_async_store.py::test_abatch_uses_single_pool_checkout": "patches the reference's private connection pool helper"
                                             " (langgraph.checkpoint.postgres._ainternal) and counts its checkouts",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_not_applicable(items, "langgraph_postgres", NOT_APPLICABLE, key=in_file)
