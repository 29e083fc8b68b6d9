"""Real servers and processes for the interface tests: uvicorn in a thread, CLI subprocesses."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


@contextmanager
def uvicorn_thread(app) -> Iterator[str]:
    """Serve an ASGI app with uvicorn on a free loopback port in a thread; yield its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def spawned(args: list[str], log: Path, **options) -> Iterator[subprocess.Popen]:
    """A subprocess whose stderr goes to a file (a pipe could fill and block it); stopped afterwards."""
    with open(log, "w") as out:
        proc = subprocess.Popen(args, stderr=out, **options)
        try:
            yield proc
        finally:
            proc.terminate()
            proc.wait(10)
