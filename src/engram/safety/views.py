"""Readings of a text with its disguises undone, for the instruction rules to match.

`views(text)` yields (name, view) pairs: the plain text (NFKC, invisible characters removed,
accents stripped, casefolded), then only the readings that differ: homoglyphs folded to Latin,
leetspeak read as letters, letters spaced or dotted apart joined, words joined by a symbol
("🔹ignore🔹all") read with spaces, words broken into pieces read without separators, ROT13 and reversed text when the text says so, and base64 / percent-encoded
runs decoded (the "encoded" view, raw: the matcher reads it through every view again).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import functools
import re
import unicodedata
from collections.abc import Iterator
from urllib.parse import unquote

from engram.language.normalise import plain, squeeze, visible
from engram.safety.lexicon import AMBIGUOUS_LEET as _AMBIGUOUS
from engram.safety.lexicon import LEET_VOCAB as _LEET_VOCAB

__all__ = ["base", "plain_only", "views"]

# Cyrillic and Greek letters that look like Latin ones (Unicode confusables, lower case after casefold).
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ɡ": "g", "һ": "h", "ӏ": "l", "ո": "n", "ս": "u", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i",
    "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ѵ": "v",
    "ꞵ": "b", "ʏ": "y", "ᴀ": "a", "ʀ": "r", "ɪ": "i", "ɴ": "n", "ᴏ": "o", "ᴛ": "t", "ᴇ": "e", "ꜱ": "s",
    "ı": "i", "ɩ": "i", "ℓ": "l", "ⅰ": "i", "ⅼ": "l", "ɢ": "g", "ᴘ": "p", "ᴠ": "v", "ᴜ": "u", "ᴄ": "c", "ʜ": "h",
    "ᴅ": "d", "ᴍ": "m", "ᴋ": "k", "ᴡ": "w", "ᴢ": "z", "ꜰ": "f", "ᴊ": "j", "ǫ": "q", "ʙ": "b", "ʟ": "l",
})
_LEET_I = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
                         "@": "a", "$": "s", "!": "i", "|": "l", "€": "e", "+": "t", "(": "c"})
_LEET_L = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
                         "@": "a", "$": "s", "!": "l", "|": "l", "€": "e", "+": "t", "(": "c"})
_LATIN = re.compile(r"[a-z]")
_NON_LATIN_LETTER = re.compile(r"[\u0370-\u03ff\u0400-\u052f\u0250-\u02af\u1d00-\u1d7f\ua700-\ua7ff\u0131\u0269\u2113\u2170-\u217f]")
_TOKEN = re.compile(r"\S+")
_LEET_TOKEN = re.compile(r"(?=\S*[a-z])(?=\S*[0-9@$!|€+(])\S+")
_SPACED = re.compile(r"(?<![^\s\"'(\[])\w([ .\-_*/|+~]{1,2})(?:\w\1)*\w(?=[\s.,;:!?\"')\]]|$)")
_SPREAD_SPACES = re.compile(r"(?<!\S)\S( {1,2})(?:\S\1)*\S(?!\S)")
_LEET_NUMBER = re.compile(r"(?<!\S)[0-9@$!|€+(]{2,3}(?!\S)")  # "15" for "is", "70" for "to", among leet words
_INNER_BREAK = re.compile(r"(?<=[a-z])[-.·•*_~'](?=[a-z])")
# Words joined by one symbol instead of spaces ("🔹ignore🔹all🔹previous", "reveal+your+system+prompt"): a
# symbol (not a letter, digit, underscore, space, quote, dash or punctuation) between letters, the same one four times or more.
_JOINER = re.compile(r"(?<=[^\W\d_])([^\w\s'’\-.,:;!?()\[\]{}\"<>/@#%&=])(?=[^\W\d_])")
_B64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2}){3,}")


def strip_accents(text: str) -> str:
    """Drop combining marks after Latin letters only (kana with dakuten must keep theirs)."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) and out and out[-1] < "\u0250":
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


#: Texts up to this length keep their `base` reading for the next call (the screen asks for the
#: same window's three or four times: the gate, the disguise test, the views, the rules).
_CACHED_CHARS = 2000


def base(text: str, collapse: bool = True) -> str:
    """NFKC, invisible characters removed, quotes and dashes unified, accents stripped, casefolded."""
    return _cached_base(text, collapse) if len(text) <= _CACHED_CHARS else _base(text, collapse)


def _base(text: str, collapse: bool) -> str:
    text = strip_accents(plain(text)).casefold()
    return squeeze(text) if collapse else text


_cached_base = functools.lru_cache(maxsize=256)(_base)


def _fold_token(token: str, mostly_latin: bool) -> str:
    """Look-alikes read as Latin in a mixed-script word, or in any word of a mostly Latin text."""
    if not _NON_LATIN_LETTER.search(token):
        return token
    return token.translate(_CONFUSABLE) if _LATIN.search(token) or mostly_latin else token


def _fold(text: str) -> str:
    if not _NON_LATIN_LETTER.search(text):
        return text
    letters = [c for c in text if c.isalpha()]
    # Letters that only exist in another script (Russian "и", "ж", Chinese): many of them mean a
    # text in that language, whose words must stay as they are.
    foreign = sum(not ("a" <= c <= "z") and ord(c) not in _CONFUSABLE for c in letters)
    mostly_latin = foreign <= 0.2 * len(letters)
    return _TOKEN.sub(lambda m: _fold_token(m.group(0), mostly_latin), text)


def _decoded(original: str) -> Iterator[str]:
    """Text hidden in base64 or percent-encoding runs, when it decodes to readable text."""
    for m in _B64.finditer(original):
        token = m.group(0)
        if not (any(c.isdigit() for c in token) or any(c.isupper() for c in token)):
            continue  # a long plain word is not base64
        padded = token + "=" * (-len(token.rstrip("=")) % 4)
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                raw = decode(padded.replace("-", "+").replace("_", "/") if decode is base64.b64decode else padded)
                text = raw.decode("utf-8")
            except (binascii.Error, UnicodeDecodeError, ValueError):
                continue
            text = visible(text)
            readable = " " in text or any(ord(ch) > 0x2e7f for ch in text)  # CJK runs on without spaces
            nested = _B64.fullmatch(text.strip()) is not None  # base64 of base64
            if len(text) >= 6 and (readable or nested) and sum(ch.isprintable() for ch in text) >= 0.95 * len(text):
                yield text
                break
    if _PERCENT.search(original):
        yield unquote(original)


def _unspread(token: str) -> str:
    """`h.a.c.k.e.r` -> `hacker`: a token whose every other character is the same separator."""
    for width in (1, 2):
        sep = token[1:1 + width]
        if len(token) < 3 or not sep or any(ch not in ".-_*/|+~" for ch in sep) or (len(token) + width) % (width + 1):
            continue
        step = width + 1
        if all(token[i + 1:i + step] == sep for i in range(0, len(token) - 1, step)):
            return token[::step]
    return token


def _leet_word(token: str) -> str:
    """A leetspeak token read as the trigger word it spells, when one reading is one (`pr10r` -> `prior`)."""
    readings = [token.translate(_LEET_I)]
    for n, ch in enumerate(token):
        if ch in _AMBIGUOUS and len(readings) < 32:
            readings += [r[:n] + alt + r[n + 1:] for r in readings for alt in _AMBIGUOUS[ch] if r[n] != alt]
    for reading in readings:
        if reading.strip(".,;:!?'\"()") in _LEET_VOCAB:
            return reading
    return readings[0]


def _translate_tokens(pattern: re.Pattern[str], text: str, table: dict[int, str]) -> str:
    """`text` with every token `pattern` matches translated through `table`."""
    return pattern.sub(lambda m: m.group(0).translate(table), text)


_CUES = re.compile(r"rot-? ?13|revers|backwards|rückwärts|ruckwarts|a l'envers|al reves")


def _joiner(text: str) -> str | None:
    """The symbol that joins the words of `text` in place of spaces, if one does (four times or more, and
    more often than the text has spaces)."""
    found = _JOINER.findall(text)
    if len(found) < 4:
        return None
    sep = max(set(found), key=found.count)
    return sep if found.count(sep) >= 4 and found.count(sep) > text.count(" ") else None


def plain_only(text: str) -> bool:
    """True when `views(text)` can yield nothing but the plain view and the fragments (no look-alike
    letters, leetspeak, letters set apart, broken words, ROT13 or reversal cue, encoded run).
    A cheap test of the same conditions `views` checks (it may say False when a view would not differ)."""
    plain = base(text)
    folded = _fold(plain)
    raw = unicodedata.normalize("NFKC", visible(text))
    return not (folded != plain or _LEET_TOKEN.search(folded) or _SPACED.search(folded)
                or len(_INNER_BREAK.findall(folded)) >= 2 or _CUES.search(plain) or _joiner(folded)
                or _B64.search(raw) or _PERCENT.search(raw))


def views(text: str) -> Iterator[tuple[str, str]]:
    """(name, view) pairs: each view is a normalised reading of the text, computed only when it differs."""
    plain = base(text)
    yield "plain", plain
    seen = {plain}

    def fresh(name: str, view: str) -> Iterator[tuple[str, str]]:
        view = " ".join(view.split())
        if view and view not in seen:
            seen.add(view)
            yield name, view

    folded = _fold(plain)
    yield from fresh("homoglyph", folded)
    leet = folded
    if _LEET_TOKEN.search(folded):
        for table in (_LEET_I, _LEET_L):
            yield from fresh("leet", _translate_tokens(_LEET_TOKEN, folded, table))
        leet = _LEET_TOKEN.sub(lambda m: _leet_word(m.group(0)), folded)
        leet = _LEET_NUMBER.sub(lambda m: _leet_word(m.group(0)), leet)
        yield from fresh("leet", leet)
    if any(sum(c.isalpha() for c in m.group(0)) >= 4 for m in _SPACED.finditer(folded)):
        # Letters set apart one by one: join each run (a wider gap between runs stays a word break),
        # and read the whole text without separators for the phrases that survive that (compact rules).
        wide = base(text, collapse=False)
        joined = _SPACED.sub(lambda m: re.sub(r"[ .\-_*/|+~]", "", m.group(0)), wide)
        yield from fresh("spaced", _fold(joined))
        # Spread with a space ("p i r a t e @ e v i l . e x a m p l e"): every other character, symbols included.
        yield from fresh("spaced", _fold(_SPREAD_SPACES.sub(lambda m: m.group(0)[::len(m.group(1)) + 1], wide)))
        # Spread with a symbol ("h.a.c.k.e.r.@.e.v.i.l...e.x.a.m.p.l.e"): every other character of the word.
        yield from fresh("spaced", _fold(_TOKEN.sub(lambda m: _unspread(m.group(0)), wide)))
        compact = {re.sub(r"[\W_]+", "", folded.translate(table)) for table in (_LEET_I, _LEET_L)}
        for letters in sorted(compact):
            yield "compact", letters
    if len(_INNER_BREAK.findall(folded)) >= 2:
        yield from fresh("dehyphen", _INNER_BREAK.sub("", folded))
    joiner = _joiner(folded)
    if joiner is not None:
        yield from fresh("joined", folded.replace(joiner, " "))
    # Words broken into pieces ("ig nore all pre vious in struc tions"): read without separators; a
    # phrase found only this way counts when its verb is not a whole word of the text (see check_instruction).
    yield "fragments", re.sub(r"[\W_]+", "", leet)
    if "rot13" in plain or "rot-13" in plain or "rot 13" in plain:
        yield from fresh("rot13", codecs.decode(plain, "rot_13"))
    if re.search(r"revers|backwards|rückwärts|ruckwarts|a l'envers|al reves", plain):
        yield from fresh("reversed", plain[::-1])
        yield from fresh("reversed", " ".join(w[::-1] for w in plain.split()))
    for hidden in _decoded(unicodedata.normalize("NFKC", visible(text))):
        yield "encoded", hidden  # raw: check_instruction reads it through every view again

