"""`engram serve --workers N` under load: real servers, real HTTP, 8 clients recalling at once.

One store is filled once (S subjects x M embedded sentences, SQLite or a fresh PostgreSQL database);
then, in alternating rounds (1, 2, 1, 2, ... workers), `engram serve --workers W` is started on it,
warmed up (`warmup` recalls), and `recalls` recalls to random subjects with distinct generated
questions are sent from `clients` threads, each request on a new connection (so the kernel deals
them out among the workers, as a load balancer would). The server is then stopped with SIGTERM.
Result keys: store, subjects, items, clients, rounds, recalls_per_s {workers: [per round]},
median {workers: recalls/s}, ratio (median of the most workers over median of 1), errors, cpus, load_before.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from statistics import median
from typing import Any

from engram.bench.latency import sentences
from engram.bench.scratch import scratch_store, store_kind
from engram.bench.tenants import questions


def run(subjects: int = 20, items: int = 200, clients: int = 8, workers: tuple[int, ...] = (1, 2), rounds: int = 2,
        recalls: int = 400, warmup: int = 40, *, server: str | None = None, embedder: str = "minilm",
        folder: str | None = None, echo: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Fill one store, then measure recalls/s through `engram serve --workers W` for each W, in
    `rounds` alternating rounds."""
    from engram.core.memory import Memory
    from engram.safety.keys import KeyRing

    load_before = os.getloadavg()
    rates: dict[int, list[float]] = {w: [] for w in workers}
    errors = 0
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="engram-serve-", dir=folder)))
        url = stack.enter_context(scratch_store(server, tmp, "serve"))
        names = [f"tenant:{n}" for n in range(subjects)]
        with Memory(url, embedder=embedder) as mem:
            for n, subject in enumerate(names):
                mem.remember_many(subject, sentences(items, seed=n))
            token, _ = KeyRing(mem.store).create(admin=True, name="bench serve-workers")
        rng = random.Random(7)
        asked = questions()
        for round_ in range(rounds):
            for count in workers:
                plan = [(rng.choice(names), rng.choice(asked)) for _ in range(warmup + recalls)]
                with _serving(url, embedder, count, tmp / f"serve-{round_}-{count}.log") as port:
                    _drive(port, token, plan[:warmup], clients)
                    started = time.perf_counter()
                    failed = _drive(port, token, plan[warmup:], clients)
                    elapsed = time.perf_counter() - started
                errors += failed
                rates[count].append(round(recalls / elapsed, 1))
                if echo:
                    echo(f"round {round_ + 1}: --workers {count}: {rates[count][-1]} recalls/s ({failed} errors)")
    middle = {w: round(median(r), 1) for w, r in rates.items()}
    return {"store": store_kind(server), "subjects": subjects, "items": items, "clients": clients, "rounds": rounds,
            "recalls_per_s": {str(w): r for w, r in rates.items()}, "median": {str(w): m for w, m in middle.items()},
            "ratio": round(middle[max(workers)] / middle[min(workers)], 2) if middle[min(workers)] else 0.0,
            "errors": errors, "cpus": os.cpu_count(), "load_before": [round(x, 2) for x in load_before]}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def _serving(url: str, embedder: str, workers: int, log: Path) -> Iterator[int]:
    """`engram serve --workers N` on a free loopback port until the block ends (then SIGTERM)."""
    port = _free_port()
    args = [sys.executable, "-m", "engram.interfaces.cli", "--db", url, "--embedder", embedder, "serve",
            "--port", str(port), "--workers", str(workers)]
    with open(log, "w") as out:
        proc = subprocess.Popen(args, stderr=out, stdout=subprocess.DEVNULL)
        try:
            _wait_healthy(port, proc, log)
            yield port
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    for _ in range(1200):
        if proc.poll() is not None:
            raise RuntimeError(f"engram serve exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            status, _ = _request(port, "GET", "/healthz", None, "")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"engram serve did not answer /healthz: {log.read_text()[-2000:]}")


def _request(port: int, method: str, path: str, body: dict[str, Any] | None, token: str) -> tuple[int, bytes]:
    """One request on a new connection; (status, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def _drive(port: int, token: str, plan: list[tuple[str, str]], clients: int) -> int:
    """Send the planned recalls from `clients` threads; how many failed (non-200 or no reply)."""
    cursor = iter(plan)
    lock = threading.Lock()
    failed = [0]

    def client() -> None:
        while True:
            with lock:
                step = next(cursor, None)
            if step is None:
                return
            subject, question = step
            try:
                status, _ = _request(port, "POST", "/v1/recall", {"subject": subject, "query": question, "k": 10},
                                     token)
                ok = status == 200
            except OSError:
                ok = False
            if not ok:
                with lock:
                    failed[0] += 1

    threads = [threading.Thread(target=client, name=f"engram-bench-http-{i}") for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failed[0]
