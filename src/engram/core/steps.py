"""Wall time per step of one recall, for `engram bench latency --steps` (recall takes None: untimed).

`lap(name)` charges the time since the previous lap (or the start) to `name`; `add(name, ms)`
records a step timed elsewhere (the query embedding and vector scan run on a worker thread,
overlapping the keyword search, so their times are not part of the laps).
"""

from __future__ import annotations

import time


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
