"""Text normalisation: the comparison fold, the plain form, whitespace.

`fold(text)` = NFKC, then Unicode full case folding, then NFKC again (the compatibility caseless
match of the Unicode standard, simplified): composed and decomposed forms fold alike ("é" and
"e" + U+0301), full-width letters fold to their ASCII forms ("ＡＢＣ" -> "abc"), "ß" folds to
"ss", final sigma to sigma, "İ" to "i" + U+0307. Accents stay significant ("é" is not "e").

`matches` and `forget` (Filter.contains), deduplication (the content hash) and `engram audit`
compare folded strings; the stores compare a folded copy made by this function in Python, so
SQLite and PostgreSQL can never disagree on what a text contains.

`plain(text)` is text as a reader sees it: NFKC, invisible characters (zero-width, soft hyphen,
bidirectional controls, variation selectors, tags) removed, quotes and dashes straightened.
Quote checks (engram.core.notes) and the instruction screen (engram.safety) start from it.
"""

from __future__ import annotations

import re
import unicodedata

from engram.language.quotes import straighten

#: Scripts written without spaces between words (Thai, kana, CJK ideographs, Hangul), as the
#: inside of a regular-expression character class.
UNSPACED_SCRIPTS = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"

#: Between the searched fields of an item in its folded copy: no needle a user types spans it.
FIELD_SEPARATOR = "\x1f"

#: Characters that render as nothing: soft hyphen, joiners, zero-width and bidirectional
#: controls, Hangul fillers, variation selectors, byte order mark, tag characters.
INVISIBLE = re.compile(r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                       r"\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]|\U000e0000-\U000e007f")


def fold(text: str) -> str:
    """The text as every comparison sees it (see the module docstring)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def visible(text: str) -> str:
    """The text without invisible characters (`INVISIBLE`)."""
    return INVISIBLE.sub("", text)


def plain(text: str) -> str:
    """NFKC, invisible characters removed, quotes and dashes straightened (case and spacing kept)."""
    return straighten(visible(unicodedata.normalize("NFKC", text)))


def squeeze(text: str) -> str:
    """Runs of whitespace one space, none at either end."""
    return " ".join(text.split())
