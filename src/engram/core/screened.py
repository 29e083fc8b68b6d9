"""The labels of earlier writes that passed the write screens, so the next write does not read them again.

Every write screens its subject, source, agent, key, category, session and metadata strings as
well as its text (`Memory._refusal`); the labels repeat from write to write. The screens are pure
functions of a string, its origin and which screens run, so a label that passed once passes
again: `Screened` remembers (up to `LIMIT` strings per setting, then starts over) and the write
path screens only the labels it has not seen pass. A refused string is never remembered.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable

LIMIT = 4096  # labels remembered per screen setting; a label is usually a few dozen characters
MAX_LABEL = 500  # longer strings are screened every time (metadata values can be long and unique)


class Screened:
    """Strings that passed the screens, per setting (which screens ran, and the text's origin)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._limit = limit
        self._passed: dict[Hashable, set[str]] = {}
        self._lock = threading.Lock()

    def unseen(self, setting: Hashable, strings: Iterable[str | None]) -> list[str]:
        """The non-empty strings not known to pass under `setting`, in order."""
        known = self._passed.get(setting, ())
        return [s for s in strings if s and s not in known]

    def passed(self, setting: Hashable, strings: Iterable[str]) -> None:
        """Remember that `strings` passed the screens under `setting`."""
        short = [s for s in strings if len(s) <= MAX_LABEL]
        if not short:
            return
        with self._lock:
            known = self._passed.setdefault(setting, set())
            if len(known) + len(short) > self._limit:
                known.clear()
            known.update(short)
