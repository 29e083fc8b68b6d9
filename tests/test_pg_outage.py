"""A PostgreSQL server that goes away mid-run: calls fail at once with one line naming host:port
and the cause (not a busy pool), psycopg_pool does not flood the log, and the store works again
once the server is back. A real server (tests/pg_server.py) is stopped and started."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest
from pg_server import embedded_server, fresh_database

from engram.errors import StoreError, StoreUnavailable
from engram.store.postgres import PostgresStore
from engram.types import Item
from engram.validate import content_hash

SUBJECT = "user:1"
SRC = str(Path(__file__).resolve().parent.parent / "src")


def make(text: str) -> Item:
    return Item(id=uuid.uuid4().hex, subject=SUBJECT, text=text, created_at=1.0, event_at=1.0, valid_from=1.0,
                content_hash=content_hash(text))


def finishes(call: Any) -> Any:
    """call() in a thread; the test fails if it hangs (a liveness bound, not a measured duration)."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            out["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "the call hung while the server was down"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def test_an_outage_fails_at_once_names_the_server_logs_nothing_and_recovers(caplog: pytest.LogCaptureFixture) -> None:
    with embedded_server() as server:
        url = fresh_database(server.url)
        # A pool wait of an hour: if a call waited on the pool while the server is down, it would hang.
        with PostgresStore(url, pool_timeout=3600) as store, caplog.at_level(logging.DEBUG, logger="psycopg.pool"):
            before = make("Written before the outage")
            store.put([before])
            server.stop(fast=True)
            for call in (lambda: store.get([before.id]), lambda: store.put([make("During the outage")]),
                         lambda: store.find(SUBJECT)):
                with pytest.raises(StoreUnavailable) as caught:
                    finishes(call)
                message = str(caught.value)
                assert f"127.0.0.1:{server.port}" in message and "Connection refused" in message
                assert "\n" not in message and "busy" not in message and "ENGRAM_PG_POOL" not in message
            warnings = [r for r in caplog.records if r.name.startswith("psycopg") and r.levelno >= logging.WARNING]
            assert warnings == []
            server.start()  # same port
            assert finishes(lambda: store.get([before.id])) == [before]
            after = make("Written after the outage")
            assert finishes(lambda: store.put([after]))[0].created
            assert {it.id for it in store.find(SUBJECT)} == {before.id, after.id}


def test_the_cli_says_why_in_one_line_when_the_server_is_down() -> None:
    with embedded_server() as server:
        url = fresh_database(server.url)
        PostgresStore(url).close()
        server.stop(fast=True)
        done = subprocess.run([sys.executable, "-m", "engram.interfaces.cli", "--db", url, "--embedder", "hashing:64",
                               "recall", SUBJECT, "anything"], capture_output=True, text=True, timeout=120,
                              env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "HOME": "/tmp"})
        assert done.returncode == 1
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and f"127.0.0.1:{server.port}" in lines[0] and "Connection refused" in lines[0], done.stderr


@pytest.mark.parametrize("raw", ["soon", "0", "-3"])
def test_a_bad_connect_timeout_is_named(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("ENGRAM_PG_CONNECT_TIMEOUT", raw)
    with pytest.raises(StoreError, match="ENGRAM_PG_CONNECT_TIMEOUT"):
        PostgresStore("postgresql://postgres@127.0.0.1:1/none")
