"""The Agents SDK's session suites re-pointed at EngramSession: `SQLiteSession` in each test module
is bound to an EngramSession subclass with the reference's constructor (session_id, db_path,
session_settings) over a store on the backend under test; one store per db_path, as the
reference keeps one file per path (see ../conftest.py)."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

import test_responses
from not_applicable import mark_not_applicable
from engram.core.memory import Memory
from engram.integrations.openai_agents import EngramSession

# The suites import their helpers by the SDK's layout (`tests.test_responses`, `tests.memory.test_session`).
sys.modules.setdefault("tests", types.ModuleType("tests"))
sys.modules["tests.test_responses"] = test_responses


def _register(name: str, path: Path) -> None:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


sys.modules.setdefault("tests.utils", types.ModuleType("tests.utils"))
for _name in ("simple_session", "hitl"):
    _register(f"tests.utils.{_name}", Path(__file__).parent / "utils" / f"{_name}.py")

BUDGET = 10_000_000  # tokens: the reference never folds a session into a summary, so nothing here does

# Tests that read SQLiteSession's own machinery (its SQL tables, connections, file locks, worker
# threads), each with the reason; the rest of the suite runs as written.
_CONNECTIONS = "reads SQLiteSession._connections, its per-thread sqlite3 connections"
_ROWS = "corrupts rows through SQLiteSession._locked_connection (its SQL table) and checks they are skipped"
_LOCKS = "patches or reads SQLiteSession's sqlite3 connection, write transaction or lock"
NOT_APPLICABLE: dict[str, str] = {
    "test_sqlite_session_close_closes_worker_thread_connections": _CONNECTIONS,
    "test_sqlite_session_reaps_connections_from_exited_worker_threads": _CONNECTIONS,
    "test_sqlite_session_closes_retired_connections_before_the_next_allocation": _CONNECTIONS,
    "test_sqlite_session_keeps_connections_of_live_worker_threads": _CONNECTIONS,
    "test_sqlite_session_pop_item_skips_corrupt_most_recent": _ROWS,
    "test_sqlite_session_pop_item_returns_none_after_dropping_only_corrupt_rows": _ROWS,
    "test_sqlite_session_get_items_limit_skips_corrupt_newest_rows": _ROWS,
    "test_sqlite_session_get_items_session_settings_limit_skips_corrupt_rows": _ROWS,
    "test_sqlite_session_file_lock_is_shared_across_instances": "reads SQLiteSession._file_locks, its per-file locks",
    "test_sqlite_session_failed_add_items_releases_write_lock": _LOCKS,
    "test_sqlite_session_failed_clear_session_rolls_back": _LOCKS,
    "test_sqlite_session_failed_pop_item_releases_write_lock": _LOCKS,
    "test_sqlite_session_rollback_failure_evicts_connection": _LOCKS,
    "test_sqlite_session_close_retries_quarantined_connection": _LOCKS,
    "test_sqlite_session_post_commit_cancellation_propagates_after_known_outcome": _LOCKS,
    "test_openai_conversations_session_hitl_scenario": "runs OpenAIConversationsSession (kept by OpenAI's"
                                                       " server), which no fixture replaces",
}


@pytest.fixture(autouse=True)
def _engram_session(request: pytest.FixtureRequest, engram_memories: Callable[[], Memory],
                    monkeypatch: pytest.MonkeyPatch) -> None:
    stores: dict[str, Memory] = {}

    class SQLiteSession(EngramSession):
        """EngramSession taking SQLiteSession's constructor; db_path names the store."""

        def __init__(self, session_id: str, db_path: Any = ":memory:", create_tables: bool = False,
                     session_settings: Any = None) -> None:
            path = str(db_path)
            memory = engram_memories() if path == ":memory:" else stores.setdefault(path, engram_memories())
            super().__init__(memory, session_id, budget=BUDGET, session_settings=session_settings)

    class SimpleListSession(EngramSession):
        """EngramSession taking the SDK's test session's constructor (session_id, history)."""

        def __init__(self, session_id: str = "test", history: list[Any] | None = None) -> None:
            super().__init__(engram_memories(), session_id, budget=BUDGET)
            if history:
                self.add(history)

    if hasattr(request.module, "SQLiteSession"):
        monkeypatch.setattr(request.module, "SQLiteSession", SQLiteSession)
    if hasattr(request.module, "SimpleListSession"):
        monkeypatch.setattr(request.module, "SimpleListSession", SimpleListSession)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_not_applicable(items, "openai_agents", NOT_APPLICABLE)
