"""Secrets read by the format that carries them, not by a label before them.

Some secrets come in a shape that says what they are, given a word in the text that names the shape's purpose:

* **Wi-Fi QR payloads**: `WIFI:T:WPA;S:<network>;P:<password>;H:false;;` (the ZXing / MECARD-like format printed as a
  QR code on guest cards); its fields in any order, `\\;` escaping a separator. The `P` field is the network's
  password; an open network (`T:nopass`) or an empty `P` holds none.
* **TOTP setup keys**: the base32 key an authenticator app is given by hand ("can't scan the code?"): 16-64 characters
  of `A-Z2-7` in one case, maybe in groups of four, in a text that names two-factor sign-in in any language of
  engram.safety.secret_words.TWO_FACTOR_WORDS.
* **signed URLs**: a query parameter that signs a link (CloudFront's and OSS's `Signature`, S3's `X-Amz-Signature` and
  `X-Amz-Security-Token`, GCS's `X-Goog-Signature`, Azure SAS's `sig`, COS's `q-signature`, Akamai's `hdnts`): whoever
  holds the link holds the access it grants until it expires.
* **lists of recovery codes**: four or more codes of one shape (eight digits, `4311 3922`, `4e8m bwk4`, `a1b2c-3d4e5`),
  listed one after another (commas, lines, numbering, a final "and"), right after or right before a word for backup or
  recovery codes in the same clause (engram.safety.secret_words.RECOVERY_WORDS).

`find(text, present)` gives (start, end, kind) spans; engram.safety.secrets merges them with its other rules.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator

from engram.safety import secret_words as words
from engram.safety.assignments import about_test_double, is_placeholder_or_hash
from engram.safety.prose_words import CONJUNCTIONS, code_hints

__all__ = ["HINTS", "find"]

_Span = tuple[int, int, str]

# ------------------------------------------------------------------ Wi-Fi QR payloads

# Fields ending in `;`, the last one maybe unterminated (then it ends at a space or a quote: "…;P:Secret123 — …").
_WIFI = re.compile(r"(?i)\bWIFI:((?:[TSPHRIEA]:(?:\\.|[^;\\\n])*;)*(?:[TSPHRIEA]:(?:\\.|[^;\\\s\"'”»])+)?)")
_FIELD = re.compile(r"([A-Za-z]):((?:\\.|[^;\\\n])*)(?:;|$)")


def _wifi_qr(text: str) -> Iterator[_Span]:
    """The password field of each Wi-Fi QR payload, unless the network is open or the field is empty or a template."""
    for m in _WIFI.finditer(text):
        body = m.group(1)
        fields = {f.group(1).upper(): f for f in _FIELD.finditer(body)}
        password = fields.get("P")
        kind = fields["T"].group(2).lower() if "T" in fields else ""
        if password is None or kind == "nopass":
            continue
        value = password.group(2)
        if len(value) >= 5 and not is_placeholder_or_hash(value):
            yield m.start(1) + password.start(2), m.start(1) + password.end(2), "password"


# ------------------------------------------------------------------ TOTP setup keys

_TWO_FACTOR = re.compile("|".join(re.escape(w.lower()) for w in words.TWO_FACTOR_WORDS))
# Base32 in one case: a run of 16-64, or groups of four separated by single spaces (four groups or more).
_BASE32 = re.compile(r"(?<![\w-])(?:[A-Z2-7]{4}(?: [A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?: [a-z2-7]{4}){3,15}|"
                     r"[A-Z2-7]{16,64}|[a-z2-7]{16,64})(?![\w-])")


def _entropy(s: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values()) if n else 0.0


_WORDY = 0.35  # the share of vowels among letters from which a run reads as words


def _random_base32(value: str) -> bool:
    """A base32 key rather than a word or a shouted phrase: digits among its letters, varied characters."""
    compact = value.replace(" ", "")
    digits = sum(c.isdigit() for c in compact)
    if not 16 <= len(compact) <= 64 or digits < 1:
        return False
    letters = [c for c in compact.lower() if c.isalpha()]
    vowels = sum(c in "aeiou" for c in letters)
    if vowels >= _WORDY * len(letters):
        return False  # words run together ("SECURITY2FAROLLOUT"): random base32 has a vowel in five letters or fewer
    return digits < len(compact) // 2 and _entropy(compact) >= 3.3 and not compact.lower().startswith(("bafy", "bafk"))


def _totp_keys(text: str) -> Iterator[_Span]:
    """Base32 keys in a text that names two-factor sign-in (the caller checked that it does)."""
    for m in _BASE32.finditer(text):
        if _random_base32(m.group(0)) and not text.startswith(".onion", m.end()):
            yield m.start(), m.end(), "totp_seed"


# ------------------------------------------------------------------ signed URLs

_SIGNING_PARAMS = ("signature", "x-amz-signature", "x-amz-security-token", "x-goog-signature", "x-oss-signature",
                   "q-signature", "sig", "hdnts", "__token__", "hmac")  # Akamai's tokens: `hdnts=exp=…~hmac=…`
_SIGNED = re.compile(r"(?i)[?&;](?:" + "|".join(re.escape(p) for p in _SIGNING_PARAMS) + r")=(?P<v>[^&;#\s\"'<>`]{16,})")


def _signed_urls(text: str) -> Iterator[_Span]:
    """The signature (or session token) of each signed link: 16+ characters, not a template."""
    for m in _SIGNED.finditer(text):
        value = m.group("v").rstrip(".,)]")
        if len(value) >= 16 and not is_placeholder_or_hash(value) and len(set(value)) >= 8:
            yield m.start("v"), m.start("v") + len(value), "signed_url"


# ------------------------------------------------------------------ lists of recovery codes

_RECOVERY = re.compile("(?i)(?<![^\\W\\d_])(?:" + words.alternation(words.RECOVERY_WORDS) + ")")
_CONJ = "|".join(sorted((re.escape(c) for c in CONJUNCTIONS if c.isalpha()), key=len, reverse=True))
_ITEM_MARK = r"(?:(?:\d{1,2}[.)]|[-*•·])[ \t]+)?"  # a list's numbering or bullet
# Between two codes of a list: a comma, semicolon or line break (then maybe a number or a bullet), or a final "and".
_LIST_SEP = rf"(?:[ \t]*[,;·•|、，；][ \t]*\n?|[ \t]*\n\s*)[ \t]*{_ITEM_MARK}|,?[ \t]+(?:{_CONJ})[ \t]+"
# One code: letters and digits, maybe in two groups joined by a space or a dash (`4311 3922`, `4e8m bwk4`, `a1b2c-3d4e5`),
# or digits in three (`482 019 37`);
# with bare spaces between codes a code has no space inside.
_CODE_GROUPED = r"(?:\d{2,4} \d{2,4} \d{2,4}(?![\w-])|[A-Za-z0-9]{3,10}(?:[ -][A-Za-z0-9]{3,10})?)"
_CODE_PLAIN = r"[A-Za-z0-9]{3,10}(?:-[A-Za-z0-9]{3,10})?"
_LISTS = (re.compile(rf"(?<![\w-]){_CODE_GROUPED}(?:(?:{_LIST_SEP}){_CODE_GROUPED}(?![\w-])){{3,}}"),
          re.compile(rf"(?<![\w-]){_CODE_PLAIN}(?:(?:{_LIST_SEP}|[ \t]+){_CODE_PLAIN}(?![\w-])){{3,}}"))
_ONE = (re.compile(_CODE_GROUPED), re.compile(_CODE_PLAIN))
_SEPARATORS = (re.compile(_LIST_SEP), re.compile(rf"{_LIST_SEP}|[ \t]+"))  # between the items of each kind of list
_MIN_CODES = 4


def _shape(code: str) -> tuple[str, ...]:
    """A code's shape: its groups' lengths, the mark between them, and whether it holds letters."""
    groups = re.split(r"([ -])", code)
    letters = "a" if any(c.isalpha() for c in code) else "d"
    return (letters, *(g if g in " -" else str(len(g)) for g in groups))


_DATE = re.compile(r"(?:19|20)\d\d(?:[- ]\d{1,2}[- ]\d{1,2})?|\d{1,2}[- ]\d{1,2}[- ](?:19|20)\d\d")  # a year or a date


def _code_list(codes: list[str]) -> bool:
    """Whether `codes` (of one shape) are recovery codes: 6+ characters each, all different, letters in one case and
    most of them holding a digit; not words (a list of words holds no digit) nor repeated digits."""
    compact = [c.replace(" ", "").replace("-", "") for c in codes]
    if len(set(compact)) < len(compact) or any(len(c) < 6 or len(set(c)) < 3 for c in compact):
        return False
    if any(c.isdigit() for c in compact):
        return all(c.isdigit() for c in compact) and not any(_DATE.fullmatch(c) for c in codes)
    with_digit = sum(any(ch.isdigit() for ch in c) for c in compact)
    one_case = all(c == c.lower() for c in compact) or all(c == c.upper() for c in compact)
    return one_case and with_digit * 4 >= len(compact) * 3


def _items(text: str, start: int, end: int, separator: re.Pattern[str]) -> list[tuple[int, int]]:
    """The spans between the separators of the list at `start`-`end`."""
    out, pos = [], start
    for sep in separator.finditer(text, start, end):
        if sep.start() > pos:
            out.append((pos, sep.start()))
        pos = sep.end()
    if pos < end:
        out.append((pos, end))
    return out


def _runs(text: str, items: list[tuple[int, int]], one: re.Pattern[str]) -> Iterator[list[str]]:
    """The maximal runs of consecutive items that are codes of one shape (an item that is no code ends a run)."""
    run: list[str] = []
    for start, end in items:
        code = text[start:end]
        if run and (one.fullmatch(code) is None or _shape(code) != _shape(run[-1])):
            yield run
            run = []
        if one.fullmatch(code) is not None:
            run.append(code)
    if run:
        yield run


_LABEL_REACH = 160  # characters between a recovery-code word and its list ("… for Ben's account (he printed them):")
_AFTER_REACH = 60  # characters between a list and a recovery-code word after it ("… are Jo's Discord backup codes")
_CLAUSE_END = re.compile(r"[.!?;](?:\s|$)")
_TRAILING_MARK = re.compile(rf"\s*{_ITEM_MARK}$")


def _follows_label(between: str) -> bool:
    """Whether a list after `between` (the text from the label to it) is the label's: near it, in the same clause
    ("Backup codes: used 3 so far; order numbers …" gives another thing's list)."""
    between = _TRAILING_MARK.sub("", between)  # the first item's numbering ("\n1. ") ends no clause
    return len(between) <= _LABEL_REACH and _CLAUSE_END.search(between) is None


def _recovery_lists(text: str) -> Iterator[_Span]:
    """Lists of four or more codes of one shape near a word for recovery codes (the caller checked for one): after
    the nearest label before them, in its clause, or before a label in the same clause ("… are Jo's backup codes")."""
    labels = [m.span() for m in _RECOVERY.finditer(text)]
    if not labels:
        return
    for listing, one, separator in zip(_LISTS, _ONE, _SEPARATORS, strict=True):
        for m in listing.finditer(text):
            items = _items(text, m.start(), m.end(), separator)
            starts = {text[a:b]: a for a, b in reversed(items)}  # each code's first place in the list
            for run in _runs(text, items, one):
                start, end = starts[run[0]], starts[run[-1]] + len(run[-1])
                if len(run) >= _MIN_CODES and _labelled(text, labels, start, end) and _code_list(run):
                    yield start, end, "recovery_code"


_HEADING_MARKS = " \t#*_=:：-"  # what may stand beside a heading on its line (Markdown marks, a colon)


def _under_heading(text: str, label_start: int, label_end: int, start: int) -> bool:
    """Whether the list at `start` is under the label as a heading: the label fills its line ("Codici di recupero",
    "## Backup codes") and the list follows within `_LABEL_REACH`, maybe after a sentence of instructions ("Keep these
    codes somewhere safe."), with no colon between (a colon introduces another thing's list)."""
    line_start = text.rfind("\n", 0, label_start) + 1
    line_end = text.find("\n", label_end)
    if line_end < 0 or text[line_start:label_start].strip(_HEADING_MARKS) or text[label_end:line_end].strip(_HEADING_MARKS):
        return False
    between = text[line_end:start]
    return len(between) <= _LABEL_REACH and ":" not in between and "：" not in between


def _labelled(text: str, labels: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether the list at `start`-`end` belongs to a label: the nearest one before it ends its lead-in, or one after
    it follows in the same clause."""
    before = [(s, e) for s, e in labels if e <= start]
    after = [s for s, e in labels if s >= end]
    return (bool(before) and (_follows_label(text[before[-1][1]:start]) or _under_heading(text, *before[-1], start))) or \
        (bool(after) and len(text[end:after[0]]) <= _AFTER_REACH and _CLAUSE_END.search(text[end:after[0]]) is None)


# ------------------------------------------------------------------ the finder

_TWO_FACTOR_HINTS = frozenset(w.lower() for w in words.TWO_FACTOR_WORDS)
_RECOVERY_HINTS = frozenset(code_hints(words.RECOVERY_WORDS))
_SIGNED_HINTS = frozenset(p + "=" for p in _SIGNING_PARAMS)
HINTS: tuple[str, ...] = tuple(sorted({"wifi:"} | _SIGNED_HINTS | _TWO_FACTOR_HINTS | _RECOVERY_HINTS))


def find(text: str, present: set[str] | None = None) -> list[_Span]:
    """Spans of Wi-Fi QR passwords, signed URLs' signatures, TOTP setup keys and recovery-code lists in `text`; none in a text about a test
    double. `present` is the set of `HINTS` the text holds, when the caller has it."""
    low = text.lower()
    hints = present if present is not None else {h for h in HINTS if h in low}
    if not hints or about_test_double(text):
        return []
    out: list[_Span] = []
    if "wifi:" in hints:
        out += _wifi_qr(text)
    if not hints.isdisjoint(_SIGNED_HINTS):
        out += _signed_urls(text)
    if not hints.isdisjoint(_TWO_FACTOR_HINTS) and _TWO_FACTOR.search(low):
        out += _totp_keys(text)
    if not hints.isdisjoint(_RECOVERY_HINTS):
        out += _recovery_lists(text)
    return sorted(set(out))
