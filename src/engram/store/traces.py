"""Finding a text where a store keeps it: the forms it may take, and raw byte scans of files.

Shared by `engram.core.audit` (item rows and vectors) and the backends' own `traces`
(keyword indexes, shadow tables, database files): see `TraceScanner` in engram.store.base.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

CHUNK = 8 << 20  # raw files are scanned in 8 MiB windows
#: An item's text fields (besides metadata) a forgotten text may survive in.
TEXT_COLUMNS = ("text", "source", "agent", "key", "category", "session")


def variants(text: str) -> set[str]:
    """The forms a text may be stored in: as given, NFC, folded whitespace, JSON-escaped."""
    forms = {text, unicodedata.normalize("NFC", text), " ".join(text.split())}
    for form in list(forms):
        forms.add(json.dumps(form, ensure_ascii=False)[1:-1])
        forms.add(json.dumps(form)[1:-1])
    return {f for f in forms if f}


def raw_needles(text: str) -> list[bytes]:
    """The UTF-8 byte strings a raw scan looks for, lower-cased (the scan is ASCII case-insensitive)."""
    return [v.encode("utf-8").lower() for v in variants(text) | {text.lower(), text.upper()}]


def blob_holds(value: Any, needles: list[bytes]) -> bool:
    """True when a column value (text or bytes) contains any needle, ASCII case-insensitively."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    if not isinstance(value, (bytes, bytearray, memoryview)):
        return False
    data = bytes(value).lower()
    return any(n in data for n in needles)


def count_in_file(path: Path, needles: Iterable[bytes]) -> int:
    """Occurrences of any needle (ASCII case-insensitive) in a file, read in windows."""
    wanted = [n for n in set(needles) if n]
    overlap = max(len(n) for n in wanted) - 1
    total, tail = 0, b""
    with open(path, "rb") as fh:
        while True:
            block = fh.read(CHUNK)
            if not block:
                break
            window = (tail + block).lower()
            # Count matches that end inside the new block only, so none is counted twice.
            total += sum(_count_ending_after(window, n, len(tail)) for n in wanted)
            tail = window[-overlap:] if overlap else b""
    return total


def _count_ending_after(data: bytes, needle: bytes, offset: int) -> int:
    count, start = 0, 0
    while True:
        at = data.find(needle, start)
        if at < 0:
            return count
        if at + len(needle) > offset:
            count += 1
        start = at + 1
