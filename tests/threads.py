"""Run one piece of work on several real threads at once (the concurrency tests' shared runner)."""

from __future__ import annotations

import threading
from collections.abc import Callable


def run_in_threads(work: Callable[[int], None], n: int = 4) -> list[BaseException]:
    """Call `work(0)` ... `work(n - 1)` on n threads started together; what they raised."""
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            work(index)
        except BaseException as exc:  # noqa: BLE001 (returned to the test, which asserts on it)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors
