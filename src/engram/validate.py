"""Input checks shared by every interface: subjects, texts, counts and times.

Each check returns the cleaned value or raises an `InvalidInput` naming what was wrong.
"""

from __future__ import annotations

import hashlib
import re
import time
import unicodedata
from datetime import datetime, timezone
from typing import Any

from engram.errors import InvalidInput, InvalidSubject
from engram.language.normalise import squeeze

# kind:name. The kind is an ASCII word; the name may hold letters and digits of any script (with
# their combining marks) and _ . @ : + / = ~ -. Subjects are exact identifiers: compared after
# Unicode NFC (so "José" typed composed or decomposed is one subject) and case-sensitive, like
# file names and ids ("User:42" and "user:42" are two subjects).
SUBJECT = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}:[\w.@:+/=~\u0300-\u036f-]{1,256}$")
_NAME_PUNCTUATION = frozenset("_.@:+/=~-")
MAX_QUERY_CHARS = 4000
MIN_FACT_CHARS = 10
# Longest text per kind: facts are one sentence; summaries and procedures may be a paragraph.
# Verbatim kinds (a saved conversation, a framework's store item, a memory file) are kept whole.
MAX_VERBATIM_CHARS = 20_000_000
MAX_CHARS = {"fact": 300, "preference": 300, "episode": 1000, "procedure": 1000, "summary": 2000,
             "conversation": MAX_VERBATIM_CHARS, "store_item": MAX_VERBATIM_CHARS, "memory_file": MAX_VERBATIM_CHARS}
MAX_OTHER_CHARS = 2000
# The most of a verbatim item's index text that is embedded: no embedding model reads further.
MAX_INDEX_CHARS = 8000


def subject(value: Any) -> str:
    """A subject such as `user:42` or `job:report-42`."""
    if not isinstance(value, str):
        raise InvalidSubject(f"subject must be a string like 'user:42', not {type(value).__name__}")
    text = unicodedata.normalize("NFC", value)
    if not is_subject(text):
        shown = value if len(value) <= 80 else value[:77] + "..."
        raise InvalidSubject(
            f"subject {shown!r} is not of the form 'kind:name' (e.g. 'user:42', 'job:report-42');"
            " kind is a word, name has no spaces"
        )
    return text


def is_subject(value: str) -> bool:
    """True when `value` (NFC) has the form of a subject (see SUBJECT)."""
    head, colon, name = value.partition(":")
    if not colon or not SUBJECT.fullmatch(head + ":x") or not 1 <= len(name) <= 256:
        return False
    return all(ch.isalnum() or ch in _NAME_PUNCTUATION or unicodedata.category(ch).startswith("M") for ch in name)


def kind(value: Any) -> str:
    """A kind of memory item Engram knows (engram.types.KINDS)."""
    from engram.types import KINDS

    if not isinstance(value, str) or value not in KINDS:
        raise InvalidInput(f"unknown kind {value!r}: use one of {', '.join(KINDS)}")
    return value


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # exactly Unicode's control characters (category Cc)


def clean_text(value: Any, what: str = "text") -> str:
    """A string with whitespace runs folded to single spaces; NUL and other control bytes refused."""
    folded = squeeze(raw_text(value, what))
    if _CONTROL.search(folded):
        raise InvalidInput(f"{what} contains control characters; remove them and try again")
    return unicodedata.normalize("NFC", folded)


def raw_text(value: Any, what: str = "text") -> str:
    """A string kept exactly as given (no folding); NUL bytes refused."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise InvalidInput(f"{what} contains a NUL byte; remove it and try again")
    _utf8(value, what)
    return value


def _utf8(value: str, what: str) -> None:
    """Refuse lone surrogates: no database can store them as UTF-8 text."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(f"{what} contains an unpaired surrogate (U+{ord(value[exc.start]):04X}), which is not"
                           " valid Unicode text; remove it and try again") from None


def metadata(value: Any) -> dict[str, Any]:
    """A JSON object with string keys and finite numbers, storable as UTF-8."""
    import json
    from collections.abc import Mapping

    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInput(f"metadata must be a mapping, not {type(value).__name__}")
    if not all(isinstance(k, str) for k in value):
        raise InvalidInput("metadata keys must be strings (JSON object keys)")
    try:
        _utf8(json.dumps(dict(value), ensure_ascii=False, allow_nan=False), "metadata")
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InvalidInput):
            raise
        raise InvalidInput(f"metadata must be JSON (strings, finite numbers, booleans, null, lists, objects): {exc}") from None
    return dict(value)


def length_problem(text: str, kind_: str) -> str | None:
    """Why a text of this kind is not stored (too short / too long), or None when it fits."""
    if not text:
        return None if kind_ in ("store_item", "memory_file") else "empty"  # an empty file is a file
    if kind_ == "fact" and len(text) < MIN_FACT_CHARS:
        return f"too short: a fact needs at least {MIN_FACT_CHARS} characters"
    limit = MAX_CHARS.get(kind_, MAX_OTHER_CHARS)
    if len(text) > limit:
        return f"too long: {len(text)} characters, at most {limit} for a {kind_} (save one sentence, not a transcript)"
    return None


def query(value: Any) -> str:
    """A recall query: non-empty text, at most MAX_QUERY_CHARS."""
    text = clean_text(value, "query")
    if not text:
        raise InvalidInput("query is empty: say what to look for")
    if len(text) > MAX_QUERY_CHARS:
        raise InvalidInput(f"query is {len(text)} characters; at most {MAX_QUERY_CHARS}")
    return text


def count(value: Any, what: str = "k", low: int = 1, high: int = 1000) -> int:
    """A whole number between low and high."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise InvalidInput(f"{what} must be between {low} and {high}, not {value}")
    return value


def weight(value: Any, what: str) -> float:
    """A finite, non-negative number (a ranking weight or a half-life in days)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
        raise InvalidInput(f"{what} must be a number >= 0, not {value!r}")
    return float(value)


def number(value: Any, what: str) -> float:
    """A finite number (a score threshold): int or float, never a string or a bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or value in (float("inf"), float("-inf")):
        raise InvalidInput(f"{what} must be a finite number, not {value!r}")
    return float(value)


def timestamp(value: Any, what: str = "now") -> float:
    """UNIX seconds from a float, a datetime (naive means UTC), an ISO string, or None (the clock)."""
    if value is None:
        return time.time()
    if isinstance(value, bool):
        raise InvalidInput(f"{what} must be a time, not {value!r}")
    if isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidInput(f"{what} must be a finite time")
        return float(value)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError as exc:
            raise InvalidInput(f"{what} {value!r} is not an ISO 8601 time such as 2026-11-02T09:30:00Z") from exc
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return float(value.timestamp())
    raise InvalidInput(f"{what} must be UNIX seconds, a datetime or an ISO 8601 string, not {type(value).__name__}")


#: Version of the rule below; stores rehash their rows once when it changes (engram.store.sql.rehash).
HASH_RULE = "2"


def content_hash(text: str) -> str:
    """Hash of a text as deduplication sees it (rule HASH_RULE): what `engram.language.normalise.fold`
    folds, whitespace, invisible format characters (zero-width space and joiners, soft hyphen, BOM)
    and the punctuation that ends the text ("...services!" = "...services." = "...services") do not
    matter. Punctuation inside the text does ("3.5k" is not "35k")."""
    from engram.language.normalise import fold

    folded = fold(text)
    # every format character (Cf) is past ASCII: an ASCII text has none to drop
    visible = folded if folded.isascii() else "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    words = " ".join(visible.split())
    end = len(words)
    while end and (unicodedata.category(words[end - 1]).startswith("P") or words[end - 1].isspace()):
        end -= 1
    return hashlib.sha256((words[:end] or words).encode("utf-8")).hexdigest()[:32]


def legacy_content_hash(text: str) -> str:
    """The rule before HASH_RULE 2 (folded, whitespace-collapsed), to recognise rows made with it."""
    from engram.language.normalise import fold

    return hashlib.sha256(" ".join(fold(text).split()).encode("utf-8")).hexdigest()[:32]
