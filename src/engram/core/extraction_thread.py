"""Extraction in the background: `Memory(..., extract_llm=llm)` hands each `add_messages` call's new
messages to one thread, so the writer never waits for the model.

The ids go into a bounded queue (`QUEUE_SIZE` calls); when it is full they are not queued and stay
pending for the next `engram extract` (counted in `dropped`). The thread, started by the first
call, takes everything queued at once (messages sent one call at a time are batched together) and
extracts it (engram.core.extraction). `flush()` waits until the queue is empty; `Memory.close()`
flushes, then stops the thread. A failure is logged and kept in `report`; its messages stay pending.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engram.core.extraction import Report, extract

if TYPE_CHECKING:
    from engram.core.memory import Memory
    from engram.llm.base import LLM

QUEUE_SIZE = 1000
_log = logging.getLogger(__name__)
_STOP = None  # what close() queues last


class Background:
    """One thread extracting the messages `submit` is given; `report` is its running total."""

    def __init__(self, memory: Memory, llm: LLM, *, queue_size: int = QUEUE_SIZE) -> None:
        self.memory, self.llm = memory, llm
        self.report = Report()
        self.dropped = 0  # messages not queued (the queue was full): they wait for `engram extract`
        self._queue: queue.Queue[tuple[str, tuple[str, ...]] | None] = queue.Queue(queue_size)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, subject: str, ids: Sequence[str]) -> bool:
        """Queue these new messages of `subject` without waiting; False when the queue was full."""
        if not ids:
            return True
        with self._lock:
            if self._closed:
                return False
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="engram-extract", daemon=True)
                self._thread.start()
        try:
            self._queue.put_nowait((subject, tuple(ids)))
        except queue.Full:
            with self._lock:
                self.dropped += len(ids)
            return False
        return True

    def flush(self) -> Report:
        """Wait until every queued message is extracted (or failed); the running total."""
        self._queue.join()
        return self.report

    def close(self) -> None:
        """Flush, then stop the thread; later submits are not queued."""
        with self._lock:
            self._closed, thread = True, self._thread
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()

    def _run(self) -> None:
        while True:
            work: dict[str, list[str]] = {}
            taken, stop = 0, False
            entry = self._queue.get()
            while True:
                taken += 1
                if entry is None:
                    stop = True
                    break
                work.setdefault(entry[0], []).extend(entry[1])
                try:
                    entry = self._queue.get_nowait()
                except queue.Empty:
                    break
            try:
                for subject, ids in work.items():
                    self._extract(subject, ids)
            finally:
                for _ in range(taken):
                    self._queue.task_done()
            if stop:
                return

    def _extract(self, subject: str, ids: list[str]) -> None:
        try:
            done = extract(self.memory, self.llm, subject, ids=ids)
        except Exception as exc:  # noqa: BLE001  # the thread must outlive a failure; the messages stay pending
            done = Report(pending=len(ids), error=f"{type(exc).__name__}: {exc}")
        if done.error:
            _log.warning("extraction of %s: %s", subject, done.error)
        with self._lock:
            self.report.add(done)
