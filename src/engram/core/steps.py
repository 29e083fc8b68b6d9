"""Wall time per step of one recall, for `engram bench latency --steps`.

`lap(name)` charges the time since the previous lap (or the start) to `name`; `timed(name)`
times a block run elsewhere (the query embedding and vector scan run on a worker thread,
overlapping the keyword search, so their times are not part of the laps). Recall is handed
`UNTIMED` when nobody is timing: the same calls, doing nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class Steps:
    """Milliseconds per named step of one call."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        """Charge the time since the last lap to `name`."""
        now = time.perf_counter()
        self.ms[name] = self.ms.get(name, 0.0) + (now - self._last) * 1000.0
        self._last = now

    def add(self, name: str, ms: float) -> None:
        """Record a step timed on another thread."""
        self.ms[name] = self.ms.get(name, 0.0) + ms

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        """Time the block as step `name` (`add`: it may run on another thread)."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, (time.perf_counter() - started) * 1000.0)


class _Untimed(Steps):
    """Steps that record nothing: what recall is given when nobody times it."""

    def lap(self, name: str) -> None:
        return None

    def add(self, name: str, ms: float) -> None:
        return None

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        yield


#: The no-op Steps.
UNTIMED: Steps = _Untimed()
