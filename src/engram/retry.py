"""One retry rule for every place that tries again: a few tries, jittered exponential backoff.

`retry(work, tries=..., again=...)` calls `work()`; when it raises, `again(exc, attempt)` says
whether trying again is safe (a rolled-back conflict, a busy file, a connection lost before
anything was sent). Anything else, or the last try's failure, is raised as it came.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def backoff(attempt: int, *, base: float = 0.01, cap: float = 0.5) -> float:
    """Seconds to wait before try `attempt + 1`: base * 2**attempt, at most cap, times 0.5-1.5."""
    return float(min(cap, base * 2.0**attempt) * (0.5 + random.random()))


def retry(work: Callable[[], T], *, tries: int, again: Callable[[BaseException, int], bool],
          base: float = 0.01, cap: float = 0.5, wait: Callable[[BaseException], bool] | None = None) -> T:
    """`work()`, tried up to `tries` times while `again(exc, attempt)` allows; the wait between
    tries is `backoff` unless `wait(exc)` says none is needed (e.g. a reconnect)."""
    for attempt in range(tries):
        try:
            return work()
        except Exception as exc:
            if attempt == tries - 1 or not again(exc, attempt):
                raise
            if wait is None or wait(exc):
                time.sleep(backoff(attempt, base=base, cap=cap))
    raise AssertionError("unreachable: the last try returns or raises")  # pragma: no cover
