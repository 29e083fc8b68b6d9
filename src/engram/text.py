"""The one text rule every comparison uses, on every backend: `fold`.

`fold(text)` = NFKC, then Unicode full case folding, then NFKC again (the compatibility caseless
match of the Unicode standard, simplified): composed and decomposed forms fold alike ("é" and
"e" + U+0301), full-width letters fold to their ASCII forms ("ＡＢＣ" -> "abc"), "ß" folds to
"ss", final sigma to sigma, "İ" to "i" + U+0307. Accents stay significant ("é" is not "e").

`matches` and `forget` (Filter.contains), deduplication (the content hash) and `engram audit`
compare folded strings; the stores compare a folded copy made by this function in Python, so
SQLite and PostgreSQL can never disagree on what a text contains.
"""

from __future__ import annotations

import unicodedata

#: Between the searched fields of an item in its folded copy: no needle a user types spans it.
FIELD_SEPARATOR = "\x1f"


def fold(text: str) -> str:
    """The text as every comparison sees it (see the module docstring)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
