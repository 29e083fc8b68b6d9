"""`engram serve --workers N`: N worker processes serving one store, each with its own `Memory`.

uvicorn's own process supervisor runs them (`uvicorn.run(..., workers=N)`): it spawns the
workers, replaces one that dies, and on SIGTERM or SIGINT stops them all gracefully — each
finishes the requests it has in flight, then closes its `Memory` (the app's lifespan). The
workers share the store: SQLite in WAL mode on one machine (readers never wait for the writer),
PostgreSQL when several machines serve behind a load balancer.

A worker is a fresh interpreter that builds its app with `app()` from the environment its parent
set: the store, embedder and agent (ENGRAM_DB, ENGRAM_EMBEDDER, ENGRAM_AGENT), the body cap
(ENGRAM_SERVE_MAX_BODY) and ENGRAM_EMBED_THREADS, the embedder's threads per worker — the cores
divided among the workers, so N workers do not each run an embedding on every core.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engram.embed.local import THREADS_VARIABLE

if TYPE_CHECKING:
    from starlette.applications import Starlette

MAX_BODY_VARIABLE = "ENGRAM_SERVE_MAX_BODY"


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS reports it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads_per_worker(workers: int, available: int | None = None) -> int:
    """Embedding threads for each of `workers` processes sharing `available` cores (at least 1)."""
    return max(1, (available or cores()) // max(1, workers))


def worker_environment(workers: int, *, db: str | None, embedder: str | None, agent: str | None,
                       max_body: int, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables a worker reads in `app()`; an explicit ENGRAM_EMBED_THREADS is kept."""
    env = os.environ if env is None else env
    out = {MAX_BODY_VARIABLE: str(max_body)}
    for variable, value in (("ENGRAM_DB", db), ("ENGRAM_EMBEDDER", embedder), ("ENGRAM_AGENT", agent)):
        if value is not None:
            out[variable] = value
    if not env.get(THREADS_VARIABLE):
        out[THREADS_VARIABLE] = str(threads_per_worker(workers))
    return out


def app() -> Starlette:
    """The REST app of one worker (uvicorn calls this in each worker process: `factory=True`)."""
    from engram.core.memory import Memory
    from engram.interfaces.rest import MAX_BODY, create_app

    return create_app(Memory, max_body=int(os.environ.get(MAX_BODY_VARIABLE) or MAX_BODY))
