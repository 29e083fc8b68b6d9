"""`engram serve --workers 2`: a real server, two worker processes over one store (SQLite, PostgreSQL), real HTTP,
both workers answering, each embedder limited to its share of the cores, and a graceful stop on
SIGTERM (no worker is left; on SQLite every worker closed its store: the WAL is checkpointed away)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from servers import free_port, spawned

from engram.interfaces.workers import threads_per_worker

FACT = "The team uses Postgres 16 for every service."


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(entry.decode().split("=", 1) for entry in raw if b"=" in entry)


def _wait_healthy(base: str, proc: subprocess.Popen, log: Path) -> None:
    for _ in range(1200):
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        try:
            proc.wait(0.1)
        except subprocess.TimeoutExpired:
            pass
    raise AssertionError("engram serve --workers 2 never answered /healthz:\n" + log.read_text())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_workers_share_the_store_and_stop_gracefully(tmp_path: Path, backend: str,
                                                         request: pytest.FixtureRequest) -> None:
    if backend == "postgres":
        from pg_server import fresh_database

        db = fresh_database(request.getfixturevalue("pg_server"))
    else:
        db = str(tmp_path / "workers.db")
    port = free_port()
    log = tmp_path / "serve.log"
    args = [sys.executable, "-m", "engram.interfaces.cli", "--db", db, "--embedder", "minilm", "serve",
            "--port", str(port), "--workers", "2", "--create-admin-key"]
    env = {k: v for k, v in os.environ.items() if k != "ENGRAM_EMBED_THREADS"}
    with spawned(args, log, stdout=subprocess.PIPE, text=True, env={**env, "PYTHONUNBUFFERED": "1"}) as proc:
        token = proc.stdout.readline().strip()
        assert token.startswith("egk_"), log.read_text()
        base = f"http://127.0.0.1:{port}"
        _wait_healthy(base, proc, log)
        headers = {"Authorization": f"Bearer {token}"}
        saved = httpx.post(f"{base}/v1/memories", json={"subject": "user:1", "text": FACT}, headers=headers,
                           timeout=60)
        assert saved.status_code == 201, saved.text

        def ask(_: int) -> tuple[int, str]:
            # A fresh connection per request, so the kernel hands each to whichever worker accepts.
            with httpx.Client(base_url=base, headers=headers, timeout=60) as http:
                worker = http.get("/healthz").json()["worker"]
                hits = http.post("/v1/recall", json={"subject": "user:1", "query": "which database?"}).json()
                return worker, hits[0]["text"]

        seen: set[int] = set()
        with ThreadPoolExecutor(8) as clients:
            for _ in range(10):
                answers = list(clients.map(ask, range(16)))
                assert {text for _, text in answers} == {FACT}  # every worker reads what one of them wrote
                seen |= {worker for worker, _ in answers}
                if len(seen) == 2:
                    break
        assert len(seen) == 2, f"only worker(s) {seen} answered 160 requests"
        assert proc.pid not in seen
        for pid in seen:
            assert _environ(pid)["ENGRAM_EMBED_THREADS"] == str(threads_per_worker(2))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, log.read_text()
    for pid in seen:
        assert not Path(f"/proc/{pid}").exists(), f"worker {pid} outlived the server"
    if backend == "sqlite":
        assert not Path(db + "-wal").exists(), "a worker stopped without closing its store"
    assert "Traceback" not in log.read_text(), log.read_text()
