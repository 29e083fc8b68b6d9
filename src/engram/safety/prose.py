"""Secrets stated in prose, in any language: a label, a short window, a value shaped like a secret.

The rule-per-phrasing finders of engram.safety.secrets read fixed grammars ("password [for the X] is Y"); a
sentence with a longer "for" phrase ("La contraseña del router de la oficina es …"), an inflected label
("hasłem", "şifresini"), a verb of changing ("změnil na …", "đổi … thành …", "बदलकर …") or a value first
("… というパスワード") falls outside them. This finder reads such sentences by method instead of by phrasing:

1. **a label** from one multilingual lexicon with inflections (engram.safety.prose_words): a word for a
   password or a network key, a PIN or a lock's code, a one-time (verification) code, a code in general, a
   code-operated device named alone (a keypad, a lockbox), or what asks for a password or types it ("when sudo
   asks", "what Franco types");
2. **a window**: the tokens after the label up to the end of its sentence (at most `_WINDOW`), or the few
   before it for a value-first order;
3. **a relation**: the value stands right after the label (or its glued particle), right after a word that
   joins it (a copula, `:`, `=`, an arrow or dash, "now", a verb of changing, or "to" after such a verb), or
   before an "as" word right before the label;
4. **a shape** that tells a secret from an ordinary token, in any language (`secret_like`): letters with
   digits or symbols, not a word, number, date, version, unit, placeholder, identifier, path, address or the
   name of a hash function or standard; numbers only after a PIN's label or a code named with what it opens;
   after a one-time code's label only a number of 4-8 digits (`otp_code`: "482913", "482 913", "G-482913").

A value may also be dictated in chunks or read aloud ("6tdY - u73U - …", "seven, three, bravo …": `_dictated`), or
announced after the label's sentence, after a colon ("… found the post-it: <value>", "Вот он: <value>": `_announced`).

Messy chat and transcripts (tune22): digits read aloud word by word with spaces only ("three four eight nine star",
`_spoken_run`), a clause ended by a bracket, a conjunction, a change of script or a Thai final particle (`_clause_end`),
a value with an inner symbol after a short phrase and no copula (`_symbol_password`), the bare reply under a quoted
question asking for a password or a code (`_quoted_answers`), and OCR fields whose label has stray spaces inside
("Pass word: …", `find_broken_fields`).

`find(text)` gives (start, end, kind) spans; engram.safety.secrets merges them with its other rules.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

from engram.language.normalise import UNSPACED_SCRIPTS
from engram.safety import prose_words as pw
from engram.safety.secret_words import COPULAS as _COPULAS
from engram.safety.secret_words import FUNCTION_WORDS as _FUNCTION
from engram.safety.secret_words import alternation as _alt
from engram.safety.assignments import ATTRIBUTE_WORDS, about_test_double, is_placeholder_or_hash

__all__ = ["HINTS", "ambiguous_label", "find", "find_broken_fields", "is_letter", "keypad_code", "not_a_value", "otp_code", "secret_like",
           "unjoined"]

_WINDOW = 14  # tokens read after a label
_BEFORE = 3  # tokens read before a label (a value first)
# Scripts written without spaces (Thai, kana, CJK, Hangul, full-width forms), and their punctuation.
_UNSPACED = UNSPACED_SCRIPTS + "\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\uff66-\uff9f"  # and full-width forms
_CJK_PUNCT = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_UNSPACED_RE = re.compile(f"[{_UNSPACED}{_CJK_PUNCT}]")
# A token: a run of characters of scripts written with spaces, a run of kana / CJK / Hangul / Thai, or one mark of
# CJK punctuation ("密码：见密码管理器" is 密码, ：, 见密码管理器).
_TOKEN = re.compile(rf"[^\s{_UNSPACED}{_CJK_PUNCT}]+|[{_UNSPACED}]+|[{_CJK_PUNCT}]")
_ARABIC = re.compile(r"[\u0600-\u06ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]+")
_THAI = re.compile(r"[\u0e00-\u0e7f]+")


def _trie(words: Iterable[tuple[str, str]]) -> str:
    """A regex matching each (literal, tail) pair, its literals folded into a trie so a failing position fails fast."""
    tree: dict[str, Any] = {}
    for literal, tail in words:
        node = tree
        for ch in literal:
            node = node.setdefault(ch, {})
        node.setdefault("", set()).add(tail)

    def emit(node: dict[str, Any]) -> str:
        branches = [(r"\s+" if ch == " " else re.escape(ch)) + emit(child) for ch, child in sorted(node.items()) if ch]
        ends = sorted(node.get("", ()), key=lambda t: (-len(t), t))
        branches += [t for t in ends if t] + ([""] if "" in ends else [])
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(tree)


def _label_pattern(stems: Iterable[tuple[str, int]], heads: Iterable[tuple[str, int]] = ()) -> re.Pattern[str]:
    """One pattern for the labels `stems` ((stem, letters an inflection may add)): words of scripts with spaces
    bounded on both sides (Arabic ones maybe with a glued proclitic), words of scripts without spaces anywhere; and
    compounds that end in one of `heads` ("Bankpasswort", "WLAN-Kennwort")."""
    spaced: list[tuple[str, str]] = []
    arabic: list[tuple[str, str]] = []
    unspaced: list[tuple[str, str]] = []
    for stem, extra in set(stems):
        tail = rf"[^\W\d_]{{0,{extra}}}" if extra else ""
        group = unspaced if _UNSPACED_RE.search(stem) else arabic if _ARABIC.match(stem) else spaced
        group.append((stem.lower(), tail))
    parts = [rf"(?<![\w.$@/]){_trie(spaced)}(?!\w)"]
    compounds = [(h.lower(), rf"[^\W\d_]{{0,{extra}}}" if extra else "") for h, extra in heads]
    if compounds:
        parts.append(rf"(?<=[^\W\d_]){_trie(compounds)}(?!\w)")  # the head, glued to the word before it
    if arabic:  # Arabic proclitics glued to the label: "ككلمة مرور" (as a password), "لبطاقة" (for the card)
        parts.append(rf"(?<![\w.$@/])(?:[وفبكل]{{1,2}})?{_trie(arabic)}(?!\w)")
    if unspaced:
        parts.append(_trie(unspaced))
    return re.compile("|".join(parts), re.IGNORECASE)


_PASSWORD = _label_pattern(pw.PASSWORD_STEMS, pw.COMPOUND_HEADS)
_PIN = _label_pattern(pw.PIN_STEMS)
# "alarmcode", "alarmkoden", "Kapukód": a code's word glued to what it opens (which must still be named: `lock`)
_CODE = _label_pattern(pw.CODE_STEMS, (("code", 1), ("kode", 2), ("kod", 2), ("kód", 0), ("koodi", 2)))
_OTP = _label_pattern(pw.OTP_STEMS)
_DEVICE = _label_pattern((w, 2) for w in pw.CODE_DEVICES)  # a keypad, a lockbox: named alone, it stands for its code
# "when sudo asks", "wenn der VPN-Client fragt", "what Franco types after his e-mail": what asks for a password, or
# typing it, stands for it (a strict shape after it)
_PROMPT = re.compile(rf"(?i)(?<![^\W\d_])(?:(?:{_alt(pw.WHEN_WORDS)})\s+(?:[^\s.,;:!?]+\s+){{0,3}}?"
                     rf"(?:{_alt(pw.ASK_VERBS)})|(?:{_alt(pw.WHAT_WORDS)})\s*(?:[^\s.,;:!?]+\s+){{0,3}}?"
                     rf"(?:{_alt(pw.TYPE_VERBS)}))(?![^\W\d_])")
# (kind, label pattern, whether a lock, a door or a card must be named near the label)
_KINDS: tuple[tuple[str, re.Pattern[str], bool], ...] = (("password", _PASSWORD, False), ("pin", _PIN, False),
                                                        ("pin", _CODE, True), ("otp", _OTP, False),
                                                        ("device", _DEVICE, True), ("prompt", _PROMPT, False))


def _hints(stems: Iterable[tuple[str, int]]) -> set[str]:
    return {s.lower()[:4] if not _UNSPACED_RE.search(s) else s for s, _ in stems}


_LOGIN = _label_pattern(pw.LOGIN_STEMS)
_LOGIN_HINTS = _hints(pw.LOGIN_STEMS)
_KIND_HINTS = (_hints(pw.PASSWORD_STEMS), _hints(pw.PIN_STEMS), _hints(pw.CODE_STEMS),
               set(pw.code_hints(tuple(s for s, _ in pw.OTP_STEMS))), _hints((w, 0) for w in pw.CODE_DEVICES),
               set(pw.ASK_VERBS) | {v.split()[0] for v in pw.TYPE_VERBS})  # as _KINDS
HINTS: tuple[str, ...] = tuple(sorted(set().union(*_KIND_HINTS, _LOGIN_HINTS)))

_QUOTES = "\"'`«»„“”‘’「」『』"
_OPENING = frozenset("「『〈《＂＇")  # CJK opening quotes, each a token of its own ("パスワードは「…」です")
_TRAIL = ".,;:)]}»!?。、，！？،؛"
_VERSION = re.compile(r"v?\d+(?:\.\d+)+(?:[-+.]?[a-z]+\.?\d*)?", re.IGNORECASE)
_UNIT = re.compile(r"\d+(?:[.,]\d+)?[^\W\d_]{1,5}")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_FENCE = re.compile(r"```|~~~")
_CONNECTORS = pw.CONNECTORS | {c.lower() for c in _COPULAS}  # and the copulas of the older rules' table (55 languages)
_CANDIDATE = re.compile(r"[\d!\"#$%&*+,:;<>?@^|~]")  # a digit or a symbol: a cheap test before `secret_like`
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")  # code: `self.password`, `cfg.db.passwd`
_CODE_START = tuple("$({[<@%&\\/")


def is_letter(c: str) -> bool:
    """A letter or a combining mark (Devanagari, Thai and Arabic vowel signs are marks, not symbols)."""
    return c.isalpha() or unicodedata.category(c).startswith("M")


def _year(v: str) -> bool:
    return len(v) == 4 and v[:2] in ("19", "20")


_NUMBERED = re.compile(r"(?i)(?:n[°º]|no\.|nr\.|№)\s?\d")  # a number's sign before its digits: n°, nº, No., Nr., №


def not_a_value(value: str) -> bool:
    """Whether a token after (or before) a label is something else than its value: a table's next cell (`;scadenza`,
    after `pwd;`), or a number written with its sign (`n°87242`, `No.5512`, `№ 12`)."""
    return value[:1] in ";,|\t" or _NUMBERED.match(value.lstrip("'\"(")) is not None


def secret_like(value: str, *, numeric: bool = False, strict: bool = False) -> bool:
    """Whether `value` (one token, quotes and trailing punctuation removed) is shaped like a password or a key.

    `numeric` lets 4-8 digits count (after a PIN's label); `strict` (after an ambiguous label) asks for a
    lower-case letter too, so an order code such as `AX-77123` is not a password.
    """
    if value.isdigit():
        return numeric and 4 <= len(value) <= 8 and len(set(value)) > 1
    if numeric and keypad_code(value):
        return True
    if value.startswith("@") and _handle_password(value):
        value = value[1:]  # "@k0VQIfmw_": a password that starts with "@", not a handle (digits and both cases)
    if not 6 <= len(value) <= 64 or value.startswith(_CODE_START) or value.startswith("[REDACTED"):
        return False
    if not_a_value(value):
        return False  # `;scadenza`: a table's next cell; `n°87242`, `№ 5`: a number
    if value.lower() in pw.NAMES or _UNSPACED_RE.search(value):
        return False  # a product's name ("1Password"); words of a script without spaces
    letters = [c for c in value if is_letter(c)]
    digits = sum(c.isdigit() for c in value)
    symbols = [c for c in value if not c.isdigit() and not is_letter(c)]
    if not letters or "://" in value or any(c in value for c in "/()[]{}<>=") or value.endswith("@") or \
            _EMAIL.fullmatch(value) or _DOTTED.fullmatch(value):
        return False  # a number, a date, an id of digits and dashes, a path, a link, an address, code
    if _VERSION.fullmatch(value) or _UNIT.fullmatch(value) or is_placeholder_or_hash(value):
        return False
    stem = "".join(c for c in value.lower() if is_letter(c))
    if stem in pw.TECH_WORDS or re.fullmatch(r"(?:x{3,}|\*{3,}).*|.*x{4,}.*", value.lower()):
        return False  # a hash function, a cipher, a standard ("argon2id", "SHA-256", "WPA2"); a mask
    lower = any(c.islower() for c in letters)
    upper = any(c.isupper() for c in letters)
    real_symbols = [c for c in symbols if c not in "_-.'’"]
    if not digits and not real_symbols:
        return False  # words, possibly joined (`new_password`, `case-sensitive`, `Passwortmanager`)
    if not lower and any(c.isascii() for c in letters):
        # capitals and digits only: an order code, a model or a standard (`AX-77123`, `ISO27001`), unless long and random
        return not strict and len(value) >= 10 and digits >= 3 and len(letters) >= 3
    if strict and not lower and upper:
        return False
    return bool(digits or real_symbols)


def _handle_password(value: str) -> bool:
    """A value after "@" with a digit, a capital and a lower-case letter inside, and no dot or second "@": a password
    that starts with a symbol rather than a handle or an address."""
    rest = value[1:]
    return "@" not in rest and "." not in rest and any(c.isdigit() for c in rest) and \
        any(c.isupper() for c in rest) and any(c.islower() for c in rest)


# A keypad's code: digits with one of a keypad's letter keys (A-D) or its `#` / `*` keys ("7B214", "2580#").
_KEYPAD = re.compile(r"(?=(?:[^\d]*\d){3})[#*]?\d*[A-D]?\d*[#*]?")


def keypad_code(value: str) -> bool:
    """Whether `value` is a code typed on a keypad: 4-8 keys, three digits or more, one letter key (A-D) or `#`/`*`."""
    return 4 <= len(value) <= 8 and not value.isdigit() and _KEYPAD.fullmatch(value) is not None


def _clean(token: str) -> str:
    """A token without quotes, Markdown emphasis and trailing punctuation (`**Hashing**:` is `Hashing`)."""
    token = token.strip(_QUOTES + "*_~")
    while token and token[-1] in _TRAIL + _QUOTES + "*_~":
        token = token[:-1]
    return token.strip(_QUOTES + "*_~")


def _ends_sentence(token: str, text: str, end: int) -> bool:
    return token[-1:] in ".!?。！？" and (end >= len(text) or text[end].isspace())


def _joins(token: str) -> bool:
    """Whether `token`, right before a value, joins it to the label: a copula, a colon, an arrow, a particle."""
    low = token.lower()
    if low in _CONNECTORS or low in pw.PARTICLES or low.endswith((":", "：")):
        return True
    # Korean puts spaces between words, so a word ending in a particle joins ("자리는 8713"); in Chinese and
    # Japanese a longer run holds other words ("密码管理器是 …": a password manager). Thai puts a space between
    # phrases, so a run that ends in its copula joins ("…ของฉันคือ …": "… of mine is …").
    return (_HANGUL.fullmatch(token) is not None and token[-1] in pw.PARTICLES) or \
        (_THAI.fullmatch(token) is not None and token.endswith(pw.THAI_COPULAS))


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


_CHANGE_START = re.compile(rf"(?:{_alternation(pw.CHANGE_STEMS)})[^\W\d_]{{0,4}}", re.IGNORECASE)
_CHANGE_INSIDE = re.compile(_alternation(s for s in pw.CHANGE_STEMS if len(s) > 2 and not s.isascii()))  # "kuganti"
_OPEN_START = re.compile(_alternation(pw.OPEN_STEMS))  # a verb of opening, by its stem
_LOCK_START = re.compile(_alternation(pw.LOCK_STEMS), re.IGNORECASE)
# Inside a word only in Chinese and Japanese: Korean puts spaces between words, so a Korean lock word starts its word
# (문 "door" is not the end of 주문 "order").
_LOCK_INSIDE = re.compile(_alternation(s for s in pw.LOCK_STEMS if _UNSPACED_RE.search(s) and not _HANGUL.search(s)))


# A lock word of five letters or more at the end of a compound ("cykelgaraget", "Haustür" is one already, "voordeur"
# is not): Germanic languages put what a code opens last.
_LOCK_TAIL = re.compile(rf"(?<=[^\W\d_]{{3}})(?:{_alternation(s for s in pw.LOCK_STEMS if len(s) >= 5 and s.isascii())})"
                        r"[^\W\d_]{0,3}$")


def _changes(token: str) -> bool:
    """Whether `token` is a verb of changing (by its stem; inside a word in scripts that glue a pronoun on)."""
    return _CHANGE_START.fullmatch(token) is not None or (not token.isascii() and _CHANGE_INSIDE.search(token) is not None)


def _near_lock(tokens: list[str]) -> bool:
    """Whether one of `tokens` names what a code opens (a door, a gate, a safe, a card)."""
    # an elided article glued on ("dell'allarme", "l'immeuble"), a brand before a hyphen ("Verisure-alarmen")
    words = [re.split(r"['’-]", t)[-1] or t for t in tokens]
    return any(_LOCK_START.match(w) is not None or _LOCK_INSIDE.search(w) is not None or
               (len(w) >= 8 and _LOCK_TAIL.search(w.lower()) is not None) for w in words) or \
        _DEVICE.search(" ".join(tokens)) is not None  # a device named in words ("boîtier à clés", "caja de seguridad")


def _other_code(tokens: list[str]) -> bool:
    """Whether one of `tokens` (the words beside a word for a code) names a kind of code that opens nothing."""
    return any(_clean(t).lower() in pw.OTHER_CODES for t in tokens)


def ambiguous_label(label: str) -> bool:
    """Whether `label` starts with a word that also means something else (a code, a key idea, a word, a cipher)."""
    low = label.lower()
    return any(low.startswith(a) for a in pw.AMBIGUOUS)


def _tokens(text: str, start: int, end: int) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text, start, end))


def _strong(value: str) -> bool:
    """A value that needs no joining word (zero-copula languages: "A wifi jelszava a nyaralóban …!"): letters with
    two digits or more, and a capital or a symbol, 8+ characters."""
    digits = sum(c.isdigit() for c in value)
    inner = re.sub(r"\d", "", value[1:-1])  # an underscore inside joins words of a password ("gulyas_tisza03")
    return len(value) >= 8 and digits >= 2 and any(is_letter(c) for c in value) and \
        (any(c.isupper() for c in value) or _CANDIDATE.search(re.sub(r"\d", "", value)) is not None or "_" in inner)


def _script_switch(raw: str, word: str) -> bool:
    """Whether a value in Latin letters is followed by a word of another script: a value pasted into a sentence of
    Hebrew, Thai, Russian or Arabic ends where that script resumes ("… kelev_shemesh669 תעבירי …")."""
    letters = [c for c in word if is_letter(c)]
    return raw.isascii() and bool(letters) and not any(c.isascii() for c in letters)


def _clause_end(raw: str, text: str, end: int, nxt: str) -> bool:
    """Whether the token ending at `end` ends its clause: the text or line ends, punctuation or a bracket follows, a
    dash, the copula a verb-final language puts last ("… Anar#2291x است", "… है"), a conjunction that starts the next
    clause ("… X de ne add tovább", "… X but …") or a Thai sentence-final particle ("… X นะคะ")."""
    rest = text[end:end + 3].lstrip(" ")
    word = _clean(nxt)
    return _script_switch(raw, word) or not rest or rest[0] in "\n.,;!?—–-()" or raw[-1:] in ".,;!?" or nxt in ("—", "–", "-") or \
        word in pw.FINAL_COPULAS or word in pw.CONJUNCTIONS or word.startswith(pw.THAI_FINALS)


# A one-time code: 4-8 digits, maybe in two groups ("482-913") or after a service's letter ("G-482913"), maybe in
# brackets ("[482913]", "【482913】") or with a suffix after an apostrophe (Turkish "482913'tür").
_OTP_TOKEN = re.compile(r"[\[(【「]?(?P<v>(?:[A-Z]-)?\d{3,8}(?:-\d{3,4})?)[\])】」]?(?:['’][^\W\d_]{1,6})?")
_DIGIT_GROUP = re.compile(r"\d{3,4}")


def otp_code(value: str) -> bool:
    """Whether `value` is shaped like a one-time code: 4-8 digits (not all the same), maybe grouped or prefixed."""
    digits = re.sub(r"\D", "", value)
    return 4 <= len(digits) <= 8 and len(set(digits)) > 1 and re.fullmatch(r"(?:[A-Z]-)?[\d -]+", value) is not None


def _otp_token(tok: re.Match[str]) -> tuple[int, int] | None:
    """The span of a one-time code's digits in token `tok` (the whole token but brackets and trailing punctuation)."""
    m = _OTP_TOKEN.match(tok.group(0))
    if m is None or tok.group(0)[m.end():].strip(_TRAIL + _QUOTES):
        return None
    return tok.start() + m.start("v"), tok.start() + m.end("v")


def _otp_span(text: str, toks: list[re.Match[str]], i: int) -> tuple[int, int] | None:
    """Token `i` (with the next one when the code is written in two groups, "482 913") as a one-time code's span."""
    span = _otp_token(toks[i])
    if span is None:
        return None
    start, end = span
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is not None and _DIGIT_GROUP.fullmatch(text[start:end]) and text[end:nxt.start()] == " ":
        second = _otp_token(nxt)
        if second is not None and _DIGIT_GROUP.fullmatch(text[second[0]:second[1]]):
            end = second[1]
            nxt = toks[i + 2] if i + 2 < len(toks) else None
    if not otp_code(text[start:end]) or (nxt is not None and _clean(nxt.group(0)).lower() in pw.UNITS):
        return None  # not a code's shape; a length or a time ("6 digits", "10 minutes")
    return start, end


def _otp_after(text: str, toks: list[re.Match[str]], i: int, words: list[str], prev: str, seen: bool) -> tuple[int, int] | None:
    """A one-time code at token `i` after its label: right after it, after a joining word, or after up to three
    words with no English preposition among them ("Ma xac thuc cua ban la …", Vietnamese without its diacritics;
    not "code for order …"). The code's shape is narrow, so the relation may be loose."""
    gap = [w.lower() for w in words[:i]]
    short = i <= 3 and not pw.ENGLISH_LINKS.intersection(gap)
    if not (not seen or _joins(prev) or short):
        return None
    return _otp_span(text, toks, i)


def _otp_before(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """A one-time code before its label and a copula or an "as" word: "G-… is your Google verification code",
    "Use … as your sign-in code"."""
    toks = _tokens(text, max(0, m.start() - 80), m.start())[-6:]
    words = [t.group(0).lower() for t in toks]
    for j in range(len(toks) - 2, -1, -1):
        between = words[j + 1:]
        if len(between) > 4 or any(_CANDIDATE.search(w) or _ends_sentence(w, text, len(text)) for w in between):
            return None
        if between[0] not in _CONNECTORS and between[0] not in pw.AS_MARKERS:
            continue
        k = j - 1 if j > 0 and _DIGIT_GROUP.fullmatch(words[j]) and _DIGIT_GROUP.fullmatch(words[j - 1]) else j
        return _otp_span(text, toks, k)
    return None


def _value_after(text: str, m: re.Match[str], kind: str, lock: bool) -> tuple[int, int] | None:
    """The value in the window after label `m`, joined to it as the module docstring says, or None."""
    line_end = text.find("\n", m.end())
    toks = list(itertools.islice(_TOKEN.finditer(text, m.end(), len(text) if line_end < 0 else line_end), _WINDOW + 1))
    words = [t.group(0) for t in toks]
    before = [t.group(0) for t in _tokens(text, max(0, m.start() - 60), m.start())][-4:]
    strict = ambiguous_label(m.group(0)) or kind == "prompt"
    if lock and _other_code(words[:1] + before[-1:]):
        return None  # "Código postal …", "the zip code …": a kind of code that opens nothing
    changed = -1 if any(_changes(_clean(t)) for t in before) else None  # where a verb of changing was seen
    prev, seen = "", False  # the last token that is not "now", and whether there was one
    for i, t in enumerate(toks):
        raw = words[i]
        low = raw.lower()
        value = _clean(raw)
        if raw in _OPENING:
            continue  # a CJK opening quote is a token of its own: the value inside it is still joined to the label
        if low in pw.NEGATIONS or value.lower() in ATTRIBUTE_WORDS or raw.startswith("[REDACTED:"):
            return None  # negated, an attribute, or the label's value is already redacted
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        if kind == "otp":
            span = _otp_after(text, toks, i, words, prev, seen) if any(c.isdigit() for c in raw) else None
            if span is not None:
                return span
        else:
            dictated = _dictated(text, t.start())
            if dictated is None:
                dictated = _spoken_run(text, toks, i)
            if dictated is not None and _joined_value(text, t, dictated[2], i, words, before, kind=kind, lock=lock,
                                                      strict=strict, prev=prev, seen=seen, changed=changed, nxt="",
                                                      whole=True) is not None:
                return dictated[0], dictated[1]
            if value and _CANDIDATE.search(value):
                span = _joined_value(text, t, value, i, words, before, kind=kind, lock=lock, strict=strict,
                                     prev=prev, seen=seen, changed=changed, nxt=nxt)
                if span is not None:
                    return span
        if _changes(_clean(raw)):
            changed = i
        if low not in pw.NOW_WORDS and raw.strip(_QUOTES):
            prev, seen = raw, True  # (a quotation mark standing alone is no word: ": « B, puis 8, … »")
        if _ends_sentence(raw, text, t.end()) or (raw.endswith(",") and _clean(nxt) in pw.CONJUNCTIONS):
            return None  # the sentence ends, or a new clause starts (", og wifi-navnet er …")
    return None


_THEN = "|".join(re.escape(w) for w in sorted(pw.THEN_WORDS, key=len, reverse=True))
# A value dictated in chunks: three or more runs of letters or digits, each joined to the next by a dash, a comma, a
# middle dot or a dictation word ("6tdY - u73U - pSaL - wbfv", "B, puis 8, 4, 0, 2", "ご・なな・ろく"), maybe in quotes.
_DICTATED = re.compile(rf"[\"'«“„「]?[ \t]*(?P<v>[^\W_]{{1,8}}(?:(?:[ \t]*[-–·・,、][ \t]*(?:(?i:{_THEN})[ \t]+)?|"
                       rf"[ \t]+(?i:{_THEN})[ \t]+)[^\W_]{{1,8}}(?![\w@])){{2,}})")
_CHUNK = re.compile(r"[^\W_]+")
_ASCII_CHUNK = re.compile(r"[A-Za-z0-9]{1,6}")


def _spoken(chunk: str) -> str | None:
    """A chunk as the characters it stands for: a digit read aloud ("seven", "なな", "семь") or a letter of the spelling
    alphabet ("bravo") as one character, letters and digits as themselves; None for any other word."""
    low = chunk.lower()
    if low in pw.SPOKEN_DIGITS:
        return pw.SPOKEN_DIGITS[low]
    if low in pw.SPELLING_ALPHABET:
        return pw.SPELLING_ALPHABET[low]
    return chunk if _ASCII_CHUNK.fullmatch(chunk) else None


def _dictated(text: str, start: int) -> tuple[int, int, str] | None:
    """A value dictated in chunks from `start` (`_DICTATED`): its span and the chunks joined ("6tdYu73UpSaLwbfv",
    "B8402", "73bk99" from "seven, three, bravo, kilo, nine, nine"); chunks of one size class (single characters or
    spoken ones, or runs of three or more), no dictation word among them."""
    m = _DICTATED.match(text, start)
    if m is None:
        return None
    chunks = [_spoken(c) for c in _CHUNK.findall(m.group("v")) if c.lower() not in pw.THEN_WORDS]
    parts = [c for c in chunks if c is not None]
    if len(parts) < 3 or len(parts) < len(chunks):
        return None
    if not (all(len(c) == 1 for c in parts) or all(len(c) >= 3 for c in parts)):
        return None
    return m.start("v"), m.end("v"), "".join(parts)


_INNER_SYMBOL = re.compile(r".[!#$%&*+?@^~]")
_USER_AT_HOST = re.compile(r"[\w.+-]+@[^\W\d_][\w.-]*")


def _symbol_password(value: str) -> bool:
    """A value no name has: 8+ characters, letters, digits and a symbol after its first character, not `user@host`."""
    return len(value) >= 8 and any(is_letter(c) for c in value) and any(c.isdigit() for c in value) and \
        _INNER_SYMBOL.search(value) is not None and _USER_AT_HOST.fullmatch(value) is None


_MIN_SPOKEN = 4  # digits read aloud one word each, at least, for a run of words to be a dictated number


def _spoken_run(text: str, toks: list[re.Match[str]], i: int) -> tuple[int, int, str] | None:
    """Digits read aloud word by word from token `i`, separated by spaces only, as a voice transcript writes them
    ("three four eight nine star", "năm ba năm một", "opt opt opt unu"): its span and the digits (and keypad keys,
    `SPOKEN_KEYS`) they stand for, when at least `_MIN_SPOKEN` digits stand in a row."""
    keys: list[str] = []
    end = toks[i].end()
    for t in toks[i:]:
        word = _clean(t.group(0)).lower()
        key = pw.SPOKEN_DIGITS.get(word) or (pw.SPOKEN_KEYS.get(word) if len(keys) >= _MIN_SPOKEN else None)
        if key is None:
            break
        keys.append(key)
        end = t.start() + t.group(0).find(_clean(t.group(0))) + len(_clean(t.group(0)))
        if _clean(t.group(0)) != t.group(0).strip(_QUOTES):
            break  # punctuation after the word ends the run
    if sum(k.isdigit() for k in keys) < _MIN_SPOKEN:
        return None
    return toks[i].start(), end, "".join(keys)


def _joined_value(text: str, t: re.Match[str], value: str, i: int, words: list[str], before: list[str], *, kind: str,
                  lock: bool, strict: bool, prev: str, seen: bool, changed: int | None, nxt: str,
                  whole: bool = False) -> tuple[int, int] | None:
    """The span of `value` (token `i` after the label) when it is joined to the label and shaped like a secret;
    with `whole`, `value` was read from several tokens (dictated) and the span is token `i`'s."""
    gap = [w.lower() for w in words[:i]]
    # "now" right before the value joins it where no copula is written ("Пароль от … VPN теперь X", "is now X")
    # (a device's name needs a joining word: "Keypad: …", "the lockbox is …"; not "Keypad 5400 series")
    # (a word for a code joins a device to its number: "Le boîtier à clés …: code …")
    by_copula = (not seen and kind != "device") or _joins(prev) or (i > 0 and words[i - 1].lower() in pw.NOW_WORDS) or \
        (kind == "device" and _CODE.fullmatch(_clean(prev)) is not None)
    by_change = _changes(_clean(prev)) or (prev.lower() in pw.TO_WORDS and (changed is not None or any(
        _changes(_clean(w)) for w in words[i + 1:i + 3])))  # "… auf X gesetzt": German and Dutch put the verb last
    # a PIN may follow a short "for" phrase without function words ("Код від домофону …"; not "pin it for …")
    short_pin = kind == "pin" and i <= 3 and not _FUNCTION.intersection(gap)
    # no copula (Hungarian, Russian, Hebrew, Arabic): a strong value that ends its clause, near the label or a verb
    # of changing, with no English preposition before it ("password on my Pixel8Pro." stays a device)
    bare = (i <= 3 or (changed is not None and i - changed <= 3)) and _strong(value) and \
        _clause_end(words[i], text, t.end(), nxt) and not pw.ENGLISH_LINKS.intersection(gap)
    # no copula, a code: a number (or a keypad's code) ending its clause a few words after a code's label, what it opens
    # named before it ("Код сигнализации на даче <digits>, …")
    bare_code = kind == "pin" and i <= 4 and (value.isdigit() or keypad_code(value)) and \
        _clause_end(words[i], text, t.end(), nxt) and not pw.ENGLISH_LINKS.intersection(gap) and _near_lock(before + words[:i])
    # a code after a verb of opening and "with" ("the key safe opens with …", "der Tresor öffnet mit …")
    by_open = kind in ("pin", "device") and prev.lower() in pw.WITH_WORDS and \
        any(_OPEN_START.match(w.lower()) for w in words[max(0, i - 3):i])
    # chat without a copula or punctuation: a password's label, a short "for" phrase, then a value with letters, digits
    # and a symbol inside ("pwd for the hulu login X user is …"); a device's, a product's or a host's name has no such symbol
    by_symbol = kind == "password" and i <= 5 and _symbol_password(value)
    # digits read aloud word by word after a PIN's or a code's label in its sentence: the run itself says it is dictated
    by_voice = whole and kind in ("pin", "device") and value.rstrip("*#").isdigit() and i <= 6
    if not (by_copula or by_change or short_pin or bare or bare_code or by_open or by_voice or by_symbol):
        return None
    if value.isdigit() and (_clean(nxt) in pw.UNITS or _clean(nxt).isdigit()):
        return None  # a length ("8 Zeichen"), or the first group of a longer number ("0800 123 4567": a phone)
    near_lock = kind == "device" or _near_lock(before + words[:i])  # a device's name says what the code opens
    if lock and not ((value.isdigit() or keypad_code(value)) and near_lock):
        return None  # a code in general counts only as a number, with what it opens named near it
    # a year joined by "changed … in" or a bare phrase is a date ("The door code changed in 2023")
    numeric = not _year(value) or (kind in ("pin", "device") and by_copula)
    numeric = numeric and (kind == "pin" or i <= 3 or near_lock)
    if not secret_like(value, numeric=numeric, strict=strict):
        return None
    if whole:
        return t.span()
    offset = t.start() + words[i].find(value)
    return offset, offset + len(value)


def unjoined(between: str) -> bool:
    """Whether `between` (a label, then the text up to its value) has words after the label and none that joins
    the value to it: no copula, colon, arrow, particle, verb of changing or "to" ("password on my …", "Mật khẩu
    của tài khoản …"). The older fixed rules leave such a text to this finder's stricter test for a bare value."""
    label = _PASSWORD.match(between) or _PIN.match(between)
    if label is None:
        return False
    gap = [w for w in _TOKEN.findall(between, label.end()) if w.lower() not in pw.NOW_WORDS]
    if not gap:
        return False
    last = gap[-1]
    return not (_joins(last) or _changes(_clean(last)) or last.lower() in pw.TO_WORDS or last.endswith(("(", ")")) or
                any(c in last for c in ":=：→") or any(_changes(_clean(w)) for w in gap))


_COPULA_WORDS = frozenset(c for c in _CONNECTORS if c[:1].isalpha())


def _copula_first(between: list[str]) -> bool:
    """Whether the words between a value and the label after it start with a copula and hold at most three more words (or a compound's first part)
    ("X ist das neue WLAN-Passwort", "« X », c'est le nouveau mot de passe"); punctuation alone is no word."""
    rest = [w for w in between if _clean(w)]
    return 1 <= len(rest) <= 4 and rest[0].lower() in _COPULA_WORDS


def _attribute_after(text: str, end: int) -> bool:
    """Whether the word after a label says the phrase is about an attribute of passwords ("… password manager")."""
    nxt = _TOKEN.search(text, end, end + 40)
    return nxt is not None and _clean(nxt.group(0)).lower().lstrip("-") in ATTRIBUTE_WORDS


def _value_before(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """A value before label `m` and an "as" word ("use X como senha", "X というパスワード", "X ككلمة مرور"), or before a
    copula and the label (`_copula_first`; then only a strong value)."""
    toks = _tokens(text, max(0, m.start() - 100), m.start())[-_BEFORE - 4:]
    glued = _ARABIC.match(m.group(0)) is not None and m.group(0)[:1] == "ك"
    words = [t.group(0) for t in toks]
    for i in range(len(toks) - 1, -1, -1):
        between = words[i + 1:]
        marker = (glued and not between) or (0 < len(between) <= 2 and any(w.lower() in pw.AS_MARKERS for w in between))
        by_copula = not marker and _copula_first(between) and not _attribute_after(text, m.end())
        if marker or by_copula:
            value = _clean(words[i])
            if value and (not by_copula or _strong(value)) and \
                    secret_like(value, strict=by_copula or ambiguous_label(m.group(0))):
                offset = toks[i].start() + words[i].find(value)
                return offset, offset + len(value)
    return None


def _used_to_sign_in(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """A value used to sign in, before sign-in label `m`: a "use" word, the value, maybe a "to" word ("use X to log
    in", "usa X para entrar", "mit X einloggen", "用 X 登录"). Only a strict secret shape: no word names a password."""
    toks = _tokens(text, max(0, m.start() - 100), m.start())[-3:]
    words = [t.group(0) for t in toks]
    for i in range(len(toks) - 1, 0, -1):
        between = [w.lower() for w in words[i + 1:]]
        if len(between) > 1 or (between and between[0] not in pw.TO_WORDS | pw.PURPOSE_WORDS):
            continue
        value = _clean(words[i])
        if words[i - 1].lower() in pw.USE_WORDS and value and secret_like(value, strict=True) and _strong(value):
            offset = toks[i].start() + words[i].find(value)
            return offset, offset + len(value)
    return None


_ANNOUNCE_REACH = 240  # characters after a password's label within which its value may be announced
_COLON = re.compile(r"[:：](?=\s)")
_CLAUSE_START = re.compile(r"[.!?。！？\n;]")
_MAX_ANNOUNCING = 10  # tokens of the clause that announces the value ("After lunch he found the post-it:")
_MIN_ANNOUNCING = 4  # fewer tokens are a field's name ("Meeting room:") unless one points at the value ("Вот он:")


def _announcing(clause: str) -> bool:
    """Whether `clause`, before a colon, may announce a password named earlier: a sentence of four to ten words, or a
    shorter one holding a word that points at the value (`POINTERS`); no digit, no word naming another field or an
    example ("here it is", "Вот он", "he found the post-it"; not "Username", "Meeting room", "Example")."""
    toks = [_clean(t).lower().replace("i\u0307", "i") for t in _TOKEN.findall(clause)]  # Turkish İ lowers to i + dot
    sentence = len(toks) >= _MIN_ANNOUNCING or not pw.POINTERS.isdisjoint(toks)
    return sentence and len(toks) <= _MAX_ANNOUNCING and not any(c.isdigit() for c in clause) and \
        pw.NOT_ANNOUNCED.isdisjoint(toks) and not ATTRIBUTE_WORDS.intersection(toks)


def _password_shaped(value: str) -> bool:
    """A person's password rather than a name or a code: 8+ characters, letters, and two of a digit, a symbol and a
    capital inside (`Pebble7Orchid!`, `velvet1373%`, `Velvet+Cinnamon08`), or `_strong`."""
    kinds = (any(c.isdigit() for c in value), _CANDIDATE.search(re.sub(r"\d", "", value)) is not None,
             any(c.isupper() for c in value[1:]))
    return _strong(value) or (len(value) >= 8 and any(is_letter(c) for c in value) and sum(kinds) >= 2)


_LONG_PASSWORD_WORDS = tuple(s for s, _ in pw.PASSWORD_STEMS if len(s) >= 6 and " " not in s)


def _holds_password_word(value: str) -> bool:
    """Whether `value` holds a word for a password: a password manager's name with a version is no password."""
    low = value.lower()
    return any(w in low for w in _LONG_PASSWORD_WORDS) or "keepass" in low


def _announced(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    """A password given after its label's sentence, after a colon that ends a short clause announcing it ("… wanted
    a password … After lunch he found the post-it: <value>.", "… новый пароль. Вот он: <value> — …"): one
    password-shaped token (`_password_shaped`) that ends its clause, with no dot inside (a file, a host) and no word
    for a password (a password manager's name)."""
    if _attribute_after(text, m.end()):
        return None  # "the new password policy …": about an attribute of passwords
    end = min(len(text), m.end() + _ANNOUNCE_REACH)
    for colon in _COLON.finditer(text, m.end(), end):
        starts = [c.end() for c in _CLAUSE_START.finditer(text, m.end(), colon.start())]
        if not _announcing(text[starts[-1] if starts else m.end():colon.start()]):
            continue
        tok = _TOKEN.search(text, colon.end(), min(len(text), colon.end() + 80))
        if tok is None or text[colon.end():tok.start()].strip():
            continue
        nxt = _TOKEN.search(text, tok.end(), tok.end() + 40)
        value = _clean(tok.group(0))
        if value and "." not in value and not _holds_password_word(value) and _password_shaped(value) and secret_like(value, strict=True) and \
                _clause_end(tok.group(0), text, tok.end(), nxt.group(0) if nxt else ""):
            offset = tok.start() + tok.group(0).find(value)
            return offset, offset + len(value)
    return None


_FOUND = {"password": "password", "pin": "pin", "otp": "one_time_code", "device": "pin", "prompt": "password"}  # the kind each label's finding is named

# A one-time code named by the service that sent it: a name (a capital and a lower-case letter: "Uber", "WhatsApp",
# "iFood", "Яндекс") right before a word for a code ("Your Uber code: …", "Dein Uber-Code: …"), or right after it and
# maybe a preposition ("Votre code Uber : …", "Seu código do iFood é …", "Ваш код для Яндекс Go: …"); the name must
# not be a kind of code or a verb (prose_words.NOT_BRANDS: "Error code", "Promo code", "Enter code").
_NAME = r"(?:[A-ZА-ЯЁ][^\W\d_]*[a-zа-яё][^\W_]*|[a-z]{1,2}[A-Z][^\W_]*)"
_CODE_WORD = "(?i:" + _alternation(pw.BRAND_CODE_WORDS) + ")"
_BRAND_CODE = (re.compile(rf"(?<![\w.$@/-])(?P<name>{_NAME})[ -]{_CODE_WORD}(?![^\W_])"),
               # spaces only between the words: a tab or a line break ends a table's cell or row ("Zone code\tStock\nMug")
               re.compile(rf"(?<![^\W_]){_CODE_WORD}[^\S\t\n]+(?:(?i:de|do|da|del|di|du|für|for|from|для|от|від)[^\S\t\n]+)?"
                          rf"(?P<name>{_NAME})(?:[^\S\t\n]+[A-ZА-ЯЁ][^\W\d_]{{0,3}}(?![^\W_]))?(?![^\W_])"))


def _brand_codes(text: str) -> Iterator[tuple[int, int]]:
    """One-time codes after a service's name and a word for a code (`_BRAND_CODE`): 4-8 digits, not a year."""
    for pattern in _BRAND_CODE:
        for m in pattern.finditer(text):
            if m.group("name").lower() in pw.NOT_BRANDS or _in_code(text, m.start()):
                continue
            span = _value_after(text, m, "otp", False)
            if span is None or _year(text[span[0]:span[1]]):
                continue
            between = _TOKEN.findall(text, m.end(), span[0])
            if all(_joins(w) or w in _OPENING or w in "[(【" for w in between):
                yield span  # right after the label or a joining word ("The Uber code base has 1200 …" is no code)


def _in_code(text: str, start: int) -> bool:
    return len(_FENCE.findall(text, 0, start)) % 2 == 1


# A field read from a screenshot or a photo (OCR), its label broken by stray spaces: "Pass word: …", "パス ワード: …",
# "รหัส ผ่าน: …", "Sa lasana: …". The last two or three fragments before a colon, joined, are a password's or a PIN's
# label; the rest of the line (at most three fragments, joined the same way) is the value.
_FIELD_LINE = re.compile(r"^(?P<label>[^\n:：]*?)[ \t]*[:：][ \t]*(?P<value>[^\n]+?)[ \t]*$", re.MULTILINE)
_MIN_BROKEN_LABEL = 5  # characters of a label joined from fragments, at least ("p w" is no broken "pw")


def _broken_label(label: str) -> str | None:
    """The kind of `label`'s last two or three fragments joined without spaces ("password" or "pin"), when they make
    a password's or a PIN's label and the fragments alone do not."""
    frags = [f.strip("()[]*") for f in label.split()][-3:]
    for k in (2, 3):
        if len(frags) < k:
            break
        joined = "".join(frags[-k:])
        if len(joined) < _MIN_BROKEN_LABEL:
            continue
        for kind, pattern in (("password", _PASSWORD), ("pin", _PIN)):
            if pattern.fullmatch(joined) and not pattern.fullmatch(frags[-1]):
                return kind
    return None


def _broken_fields(text: str) -> Iterator[tuple[int, int, str]]:
    """Values of OCR fields whose label has stray spaces inside (`_broken_label`): the rest of the line, one to three
    fragments joined (OCR breaks values too: "jqkq7v 4oe2"), shaped like a secret, no fragment a function word, a
    unit, an attribute, a negation or a verb of changing ("Pass word: changed 2024" is no value)."""
    for m in _FIELD_LINE.finditer(text):
        kind = _broken_label(m.group("label"))
        if kind is None:
            continue
        frags = m.group("value").split()
        words = [_clean(f).lower() for f in frags]
        if len(frags) > 3 or any(w in _FUNCTION or w in pw.UNITS or w in ATTRIBUTE_WORDS or w in pw.NEGATIONS or
                                 _changes(w) for w in words):
            continue
        value = _clean("".join(frags))
        if value and secret_like(value, numeric=kind == "pin") and not _holds_password_word(value):
            start = m.start("value") + m.group("value").find(value[:1])
            yield start, m.end("value"), kind


# A reply under a quoted message ("> what's the wifi password?" then the answer on the next line): the quote asks for
# a password, a PIN or a lock's code, and the reply's first token is the value, with no label of its own.
# (">>>" is a Python prompt, its next line the output, not a reply)
_QUOTE_BLOCK = re.compile(r"(?:^[ \t]*>(?!>>)[^\n]*(?:\n|$))+", re.MULTILINE)
_QUESTION_MARKS = ("?", "？", "؟", ";")  # (";" is the Greek question mark)


def _asked(question: str) -> str | None:
    """What the quoted `question` asks for: "password" or "pin" (a PIN, or a code with what it opens named), or None
    when it asks nothing or names no such thing."""
    if not question.rstrip().endswith(_QUESTION_MARKS) and not any(q in question for q in _QUESTION_MARKS[:3]):
        return None
    if _PASSWORD.search(question):
        return "password"
    words = _TOKEN.findall(question)
    if _PIN.search(question) or _DEVICE.search(question) or (_CODE.search(question) and _near_lock(words) and
                                                               not _other_code(words)):
        return "pin"
    return None


def _quoted_answers(text: str) -> Iterator[tuple[int, int, str]]:
    """Values given as the bare reply to a quoted question asking for a password or a code (`_asked`): the first token
    of the first line after the quote, shaped like a secret (a number of 4-8 digits or a keypad's code for a PIN)."""
    for block in _QUOTE_BLOCK.finditer(text):
        kind = _asked(block.group(0).replace(">", " "))
        if kind is None:
            continue
        tok = _TOKEN.search(text, block.end())
        if tok is None or text[block.end():tok.start()].strip() or _in_code(text, tok.start()):
            continue
        value = _clean(tok.group(0))
        if value and not _year(value) and secret_like(value, numeric=kind == "pin") and not _holds_password_word(value):
            offset = tok.start() + tok.group(0).find(value)
            yield offset, offset + len(value), kind


def find_broken_fields(text: str) -> list[tuple[int, int, str]]:
    """OCR fields whose password or PIN label has stray spaces inside (`_broken_fields`), as (start, end, kind); the
    label's hints are broken too, so this runs on any text with a colon."""
    if about_test_double(text):
        return []
    return sorted(set(_broken_fields(text)))


def find(text: str, present: set[str] | None = None) -> list[tuple[int, int, str]]:
    """Every secret this finder reads in `text`, as (start, end, kind); nothing in a text about a test double.
    `present` is the set of `HINTS` the text holds, when the caller has it."""
    if present is None:
        lowered = text.lower()
        present = {h for h in HINTS if h in lowered}
    if not present or about_test_double(text):
        return []
    return sorted(set(_find(text, present)))


def _in_placeholder(text: str, at: int) -> bool:
    """Whether position `at` is inside a redaction's placeholder (`[REDACTED:password]` names a kind,
    it labels nothing: redacting a text twice finds nothing new)."""
    start = text.rfind("[REDACTED:", max(0, at - 40), at + 1)
    return start >= 0 and text.find("]", start) >= at


def _find(text: str, present: set[str]) -> Iterator[tuple[int, int, str]]:
    for (kind, pattern, lock), hints in zip(_KINDS, _KIND_HINTS, strict=True):
        if present.isdisjoint(hints):
            continue
        for m in pattern.finditer(text):
            if _in_code(text, m.start()) or _in_placeholder(text, m.start()):
                continue
            span = _value_after(text, m, kind, lock)
            if span is None and kind == "password":
                span = _value_before(text, m) or _announced(text, m)
            elif span is None and kind == "otp":
                span = _otp_before(text, m)
            if span is not None:
                yield span[0], span[1], _FOUND[kind]
    if not present.isdisjoint(_LOGIN_HINTS):
        for m in _LOGIN.finditer(text):
            span = None if _in_code(text, m.start()) else _used_to_sign_in(text, m)
            if span is not None:
                yield span[0], span[1], "password"
    if ">" in text:
        yield from _quoted_answers(text)
    if not present.isdisjoint(_KIND_HINTS[2]):
        for start, end in _brand_codes(text):
            yield start, end, "one_time_code"
