"""Keep secrets out of memory: find, name and redact them (pure functions, no I/O).

The secret filter (`check_text`, `looks_secret`, `redact`, `find_secrets`) runs on every write path. It is a
  list of focused rules: provider key formats (prefix + length, as the providers document them),
  context rules ("password is ...", `api_key=...`, `user:pass@host`), checksummed numbers (Luhn
  for cards, mod-97 for IBANs, SSN/NINO structure) and a last-resort entropy check for long
  random tokens; secrets stated in prose in any language are also read by a window finder
  (engram.safety.prose: a label, the rest of its sentence, a joining word, a secret-shaped value); secrets that a
  format carries (a Wi-Fi QR payload, a signed URL, a TOTP setup key, a list of recovery codes) are read by
  engram.safety.formats. A finding whose
  value is a stand-in (a published docs example, a masked value, a key public by design) is dropped
  (engram.safety.stand_ins).
  Mentioning keys ("Rotates API keys every 90 days.") is not a secret; containing
  one is. Numbers and the reasons for each rule are in docs/safety.md. `add_pattern` registers
  more formats. Prompt escaping lives in engram.safety.escaping (importable from here too).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engram.errors import InvalidInput
from engram.safety import assignments, formats, layouts, prose, stand_ins
from engram.safety import secret_words as words
from engram.safety.prose_words import LOCK_STEMS, NEGATIONS, OTHER_CODES, code_hints
# Prompt escaping moved to its own module; these names stay importable from here for callers.
from engram.safety.escaping import escape_for_prompt as escape_for_prompt
from engram.safety.escaping import memory_block as memory_block

__all__ = [
    "SecretFinding",
    "add_pattern",
    "check_text",
    "find_secrets",
    "looks_secret",
    "redact",
    "remove_pattern",
    "rule_kinds",
]

Validator = Callable[["re.Match[str]"], bool]


@dataclass(frozen=True)
class SecretFinding:
    """What the filter found: its kind and a redacted excerpt (the secret itself is never kept)."""

    kind: str
    excerpt: str


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: re.Pattern[str]
    group: int | str | tuple[str, ...] = 0  # the secret's part of the match (the first that matched)
    validate: Validator | None = None
    hints: tuple[str, ...] = ()  # lowercase literals, one of which the text must contain
    min_digits: int = 0  # the text must hold at least this many digits


# --------------------------------------------------------------------------- value checks


def _entropy(s: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values()) if n else 0.0


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


# Issuer prefixes (IIN) of the networks people actually carry: Visa, Mastercard (51-55, 2221-2720),
# Amex, Discover, Diners, JCB, UnionPay, Maestro. An order number that merely passes Luhn but
# starts with, say, 1 or 9 is not a card.
_CARD_PREFIX = re.compile(
    r"4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|6(?:011|5|4[4-9]|2)"  # Visa, MC, Amex, Discover, UnionPay
    r"|3(?:0[0-5]|[689])|35|5[06-8]|6[37]"  # Diners, JCB, Maestro
)


def _card_ok(m: re.Match[str]) -> bool:
    digits = re.sub(r"\D", "", m.group(0))
    if not 13 <= len(digits) <= 19 or len(set(digits)) < 2:
        return False
    return bool(_CARD_PREFIX.match(digits)) and _luhn_ok(digits) and digits not in _TEST_CARDS


# Lengths per country (ISO 13616 registry, the common ones); an unknown country is accepted if
# the checksum holds and the length is within the standard's 15-34.
_IBAN_LEN = {
    "AD": 24, "AE": 23, "AT": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "CH": 21, "CY": 28,
    "CZ": 24, "DE": 22, "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SA": 24,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26, "UA": 29,
}


# A word that gives an account to be paid into (engram.safety.secret_words.PAYMENT_WORDS), as a whole word.
_PAYMENT = re.compile(r"(?i)(?<![^\W\d_])(?:" + words.alternation(words.PAYMENT_WORDS) + r")(?![^\W\d_])")
_PAYMENT_REACH = 200  # characters either side of an IBAN where a payment word puts it on an invoice


def _payee_account(m: re.Match[str]) -> bool:
    """The IBAN matched is given to be paid into (a transfer, an invoice, a payee, a BIC near it): a payee's
    published account, not a secret."""
    return _PAYMENT.search(m.string, max(0, m.start() - _PAYMENT_REACH), m.end() + _PAYMENT_REACH) is not None


def _iban_ok(m: re.Match[str]) -> bool:
    """A checksummed IBAN (ISO 13616 lengths), not one given to be paid into (`_payee_account`)."""
    if _payee_account(m):
        return False
    compact = m.group(0).replace(" ", "")
    want = _IBAN_LEN.get(compact[:2])
    if want is not None:
        compact = compact[:want]  # the regex may have swallowed a following capitalised word
    if len(compact) < (want or 15):
        return False
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def _ssn_context_ok(m: re.Match[str]) -> bool:
    d = m.group(1)
    return d[:3] not in ("000", "666") and d[0] != "9" and d[3:5] != "00" and d[5:] != "0000"


def _basic_auth_ok(m: re.Match[str]) -> bool:
    try:
        decoded = base64.b64decode(m.group(1), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


# Values that stand for a secret without being one: placeholders, templates, env lookups.
_PLACEHOLDER = re.compile(
    r"""^(?:[*x•.#?_-]{3,}|<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\$\{?[A-Za-z_][\w.]*\}?|%\(?\w*\)?s|
    (?:os\.)?(?:environ|getenv|env|process\.env|secrets?|vault|config|settings)\b.*|
    (?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)|[(\[{].*|[A-Za-z_]\w*[(\[].*|
    (?:your|my|the|some|an?)[-_]?(?:password|passwd|pass|pw|key|token|secret|api[-_]?key)\w*|
    example|dummy|placeholder|redacted|
    password|passwd|pass|secret|token|none|null|nil|empty|true|false|hidden|masked|
    1password|lastpass|bitwarden|keepass\w*|dashlane|vault)$""",
    re.IGNORECASE | re.VERBOSE,
)

# Code, not a value: `self.password`, `cfg.db.passwd`, `getpass()`, `environ["PW"]`.
_CODE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[(\[].*)?")

# Words that follow "password is" in ordinary sentences about passwords.
_NOT_A_PASSWORD = frozenset({
    "a", "an", "the", "in", "on", "at", "of", "for", "to", "not", "never", "no", "set", "required",
    "stored", "managed", "saved", "kept", "rotated", "changed", "reset", "expired", "wrong",
    "incorrect", "correct", "weak", "strong", "long", "short", "too", "case-sensitive", "protected",
    "hashed", "encrypted", "salted", "shared", "unique", "different", "same", "missing", "invalid",
    "valid", "empty", "blank", "optional", "mandatory", "provided", "generated", "handled", "synced",
    "needed", "ok", "fine", "secure", "insecure", "compromised", "leaked", "known", "unknown",
    "forgotten", "lost", "via", "from", "by", "with", "using", "now", "still", "also", "only", "just",
    "always", "usually", "sent", "emailed", "printed", "written", "random", "temporary", "temp", "one",
    "two", "three",
})


def _looks_like_code(value: str) -> bool:
    """Code after a password word, not a value: `@app.route(`, `<input type=password`, `debug=True`, `--session`."""
    return value[:1] in "@<([{" or "(" in value or "=" in value or re.match(r"--?[A-Za-z]", value) is not None


# After a password label, code rather than a value: a Markdown fence that opens a block (the label
# ends a sentence that introduces the code); the label as a function being called
# (`verify_password(stored, pw)`); an identifier assigned or called right after it (`end_time = …`); a
# variable name (snake_case or lowerCamelCase, no digit) where the text is code: inside a fenced block,
# or on a line that calls something.
_FENCE = re.compile(r"```|~~~")
# A call: the label glued to a longer name (`verify_password(`), or arguments that read as code.
_CALLED_LABEL = re.compile(r"[^\W\d_]+\((?:\)|[^)\n]*[,_=.\"'])")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_VARIABLE = re.compile(r"[a-z][a-z]*(?:_[a-z]+)+|_[a-z]+(?:_[a-z]+)*|[a-z]+(?:[A-Z][a-z]+)+")
_ASSIGNED_OR_CALLED = re.compile(r"[ \t]*(?:=(?!=)|\+=|-=|\()")
_CALL_ON_LINE = re.compile(r"[A-Za-z_][\w.]*\(")


def _in_code(text: str, start: int) -> bool:
    """Whether `start` lies in code: inside a fenced block, or on a line that calls a function."""
    if len(_FENCE.findall(text, 0, start)) % 2 == 1:
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return _CALL_ON_LINE.search(text, line_start, start + 1) is not None or \
        _CALL_ON_LINE.match(text, start) is not None


def _code_after_label(m: re.Match[str], value: str, value_end: int) -> bool:
    """The label and its 'value' are code, not a password given in text (see _FENCE above)."""
    glued = m.start() > 0 and m.string[m.start() - 1] in "_."
    if value.startswith(("```", "~~~")) or _CALLED_LABEL.match(m.group(0)) or \
            (glued and re.match(r"[^\W\d_]+\(", m.group(0))):
        return True
    if not _IDENTIFIER.fullmatch(value):
        return False
    if _ASSIGNED_OR_CALLED.match(m.string, value_end):
        return True  # `end_time = …`, `login(…)`: the left side of an assignment, or a call
    return _VARIABLE.fullmatch(value) is not None and _in_code(m.string, m.start())


_MAPPING_KEY = re.compile(r":[ \t]*(?:$|\r?\n)", re.MULTILINE)  # a colon that ends its line: the value was a key
_CHILD_KEY = re.compile(r":(?:[ \t]|$)", re.MULTILINE)  # on the line after a label, a colon after the value: a child key


# Words before "pass" that make it a ticket or a permit, not a password: a boarding pass, a bus pass, a ski pass.
_TICKET_PASSES = frozenset({"boarding", "bus", "season", "ski", "day", "hall", "backstage", "gym", "museum", "train", "rail",
                            "metro", "subway", "park", "parking", "guest", "visitor", "press", "access", "travel", "transit",
                            "week", "weekly", "monthly", "annual", "free", "festival", "vip", "event", "mountain", "hiking"})


def _ticket_pass(m: re.Match[str]) -> bool:
    """Whether the label matched is "pass" after a word that makes it a ticket ("boarding pass", "bus pass")."""
    if not m.group(0)[:5].lower().startswith("pass") or m.group(0)[4:5].isalpha():
        return False
    before = re.findall(r"[^\W\d_]+", m.string[max(0, m.start() - 30):m.start()])
    return bool(before) and before[-1].lower() in _TICKET_PASSES


_ASIDE = re.compile(r"\([^()\n]*\)")


def _password_value_ok(m: re.Match[str]) -> bool:
    """A 'password is X' value counts when quoted, or when X looks like a password, not a word; not
    in a sentence about a test double (a fixture, a mock, a fake server), nor code (_code_after_label)."""
    if assignments.about_test_double(m.string) or _ticket_pass(m):
        return False
    quoted = m.group("v") is not None
    between = m.string[m.start():m.start("v" if quoted else "v2")]
    said = _ASIDE.sub(" ", between)  # a remark in brackets is an aside ("(reset with `…-reset-password`)"), not the label's
    if assignments.ATTRIBUTE_WORDS.intersection(w.lower() for w in re.findall(r"[^\W\d_]+", said)):
        return False  # "password hashing … is PBKDF2": an attribute of passwords, not one
    if m.start() > 0 and m.string[m.start() - 1] in "_./\\" and re.search(r"\s[^\s:='\"`]", between):
        return False  # `/run/secrets/db_password -p 5432:5432`: a label inside a name or path, words after it
    if not quoted and (_MAPPING_KEY.match(m.string, m.end("v2") - m.group("v2").endswith(":")) or
                       ("\n" in between and _CHILD_KEY.match(m.string, m.end("v2")))):
        return False  # `- name: DB_PASSWORD` then `valueFrom:` on the next line, or `passwort_richtlinie:` then
        # `  min_laenge: 12`: a key of a mapping (YAML), not a value
    if "\n" in between and m.start() > 0 and m.string[m.start() - 1] in ",;\t|":
        return False  # the last column of a table's header (`user,password`), then a row: engram.safety.layouts reads it
    value = m.group("v") if quoted else m.group("v2").strip("*_~").rstrip(":")  # "**Password Manager:**": a heading
    if not quoted and prose.not_a_value(value):
        return False  # `pwd;scadenza`: the next cell of a table's header, not a value
    if not quoted and prose.unjoined(between):
        return False  # words between the label and the value and no word joining them: the window finder judges it
    if (not quoted or m.group("q") == "`") and _looks_like_code(value):
        return False
    if not quoted and (_code_after_label(m, m.group("v2"), m.end("v2")) or
                       assignments.runs_a_command(m.string, m.end("v2"), m.group("v2"))):
        return False
    if assignments.is_placeholder_or_hash(value):
        return False
    if len(value) < 4 or _PLACEHOLDER.match(value) or value.lower() in _NOT_A_PASSWORD or _CODE.fullmatch(value):
        return False
    if value.startswith("[REDACTED:") or assignments.is_state(value):
        return False
    if quoted:
        return True
    if re.fullmatch(r"\d+[-\s]?(?:digits?|chars?|characters?|letters?|symbols?|words?|numbers?|stellig\w*|"
                    r"caract[eè]res?|caracteres|cifras|d[ií]gitos|zeichen|cijfers|tekens)", value, re.IGNORECASE):
        return False  # "the code is 4-digit": a length, not a password
    has_digit = any(c.isdigit() for c in value)
    if not has_digit and all(prose.is_letter(c) or c in "-/'’" for c in value) and value[1:] == value[1:].lower():
        return False  # "and/or", "case-sensitive", "l'étiquette", "राउटर": words, not a password (vowel signs are letters)
    if prose.ambiguous_label(m.group(0)) and not value.isdigit() and not any(c.islower() for c in value):
        return False  # "κωδικός παραγγελίας είναι AX-77123": a label that also means "code", and an order code
    has_symbol = any(not c.isalnum() and c != "-" and not prose.is_letter(c) for c in value)
    inner_upper = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    if value.isdigit():
        return len(value) >= 4
    if re.fullmatch(r"\d{1,4}([-./])\d{1,2}\1\d{1,4}", value):
        return False  # "expires on 2025-01-15": a date, not a password
    return has_digit or has_symbol or inner_upper


def _pair_password_ok(m: re.Match[str]) -> bool:
    """The second half of `user / password`: a mixed token, not a word, path, version, date or placeholder."""
    value = m.group("p").rstrip(".,;:!?)]}'\"")
    if _looks_like_code(value) or assignments.is_placeholder_or_hash(value):
        return False
    if len(value) < 6 or _PLACEHOLDER.match(value) or _CODE.fullmatch(value) or value.startswith("[REDACTED:"):
        return False
    if "/" in value or "://" in value or not any(c.isalpha() for c in value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() and c not in "-." for c in value)
    inner_upper = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    if re.fullmatch(r"v?\d+(?:\.\d+)*[a-z]?\d*", value, re.IGNORECASE):
        return False  # a version, not a password
    return (has_digit and (has_symbol or inner_upper or len(value) >= 8 or value[-1].isdigit())) or has_symbol \
        or (inner_upper and len(value) >= 8 and has_digit)


_NETWORK_WORDS = re.compile(r"(?i)\b(?:network|ssid|name|named|called|netzwerk|r[ée]seau|red|rete|rede|router|speed|"
                            r"signal|band|channel|standard)\b")


def _wifi_password_ok(m: re.Match[str]) -> bool:
    """A password given for a wifi named alone: a mixed token of 8+ characters, not a speed or a standard
    (`100Mbps`, `802.11ax`), and not after words that name the network or its hardware."""
    value = m.group("p").rstrip(".,;:!?)]}")
    if _NETWORK_WORDS.search(m.group("w")) or re.search(r"\d\.\d|^\d+\s*[A-Za-z]{1,5}$", value):
        return False
    has_both = any(c.isalpha() for c in value) and any(c.isdigit() for c in value)
    return len(value) >= 8 and has_both and _pair_password_ok(m)


# Words that say a password named in a sentence is nobody's: "hunter2 is a common password", "… as an example password".
_NOT_ONES_OWN = frozenset({"example", "sample", "test", "dummy", "fake", "demo", "default", "weak", "common", "bad", "typical",
                           "famous", "popular", "worst", "leaked", "guessable", "placeholder", "strong", "good", "random"})


def _value_first_ok(m: re.Match[str]) -> bool:
    """A value before "is my password": a mixed token (as `_pair_password_ok`), when no word around the label says
    it is about something else ("1Password is my password manager", "bcrypt is the password hashing default")."""
    around = f"{m.group('w')} {m.group('after')}".lower().split()
    if assignments.ATTRIBUTE_WORDS.intersection(around) or _NOT_ONES_OWN.intersection(around) or \
            m.group("p").endswith((",", ".")) or prose.not_a_value(m.group("p")):
        return False  # `n°87242 — Réinitialisation mot de passe`: a ticket's number before the label
    return _pair_password_ok(m)


_NAME_RUN = re.compile(r"[A-Za-z][\w.-]*")
_UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")


def _random_value_ok(m: re.Match[str]) -> bool:
    """An assigned key/token value counts when it looks machine-made, not like a word or name."""
    value = m.group("v")
    if _PLACEHOLDER.match(value) or value.startswith("[REDACTED:") or assignments.is_placeholder_or_hash(value) or \
            assignments.is_path(value):
        return False  # `client-key-data: DATA+OMITTED`, `Will attempt key: /home/u/.ssh/id_ed25519`
    names = _NAME_RUN.findall(m.string, m.start(), m.start("v"))
    if names and assignments.names_something_else(names[0]):
        return False  # `PRIVATE_TOKEN_HASH=…`, `session_id_ttl: …`: the name says what else it holds
    if _UUID.fullmatch(value) and names and names[0].lower().startswith("sess") and not assignments.is_secret_name(names[0]):
        return False  # `session=<uuid>` in a log: a correlation id; an `api_key` may be a UUID
    if m.string.startswith("(", m.end("v")) and "." in value:
        return False  # a call (`session = boto3.Session(…)`): code, not a key
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if not (has_digit and has_alpha):
        return False
    if len(value) < 16 and not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
        return False
    return _entropy(value) >= 3.0


def _opens_something(m: re.Match[str]) -> bool:
    """A code named before the lock it opens is no postal, tracking or promotional code ("Código postal del portal …",
    "the zip code of the building …": the word beside the code word, prose_words.OTHER_CODES)."""
    beside = re.findall(r"[^\W\d_]+", m.string[max(0, m.start() - 20):m.start()])[-1:] + \
        re.findall(r"[^\W\d_]+", m.group(0))[1:2]
    return not OTHER_CODES.intersection(w.lower() for w in beside)


_API_KEY_HINTS = tuple(sorted({w.lower().split()[0].split("-")[0][:4] for w in words.API_KEY_WORDS}))
_ANSWER_HINTS = tuple(sorted({w.lower().split()[0][:5] for w in words.SECURITY_QUESTION_WORDS}))


def _mixed_groups(m: re.Match[str]) -> bool:
    """A key in groups holds letters and digits both (not a run of serial numbers or of words)."""
    return any(c.isdigit() for c in m.group(0)) and any(c.isalpha() for c in m.group(0))


def _answer_ok(m: re.Match[str]) -> bool:
    """A security question's answer: one to three words of a name or a place, none a function word, a word for a
    state or a placeholder; not a question, nor a text about a test double."""
    value = m.group("v").strip()
    run = value.lower().split()
    if assignments.about_test_double(m.string) or not 1 <= len(run) <= 3 or m.string[m.end("v"):].lstrip()[:1] == "?":
        return False
    if words.FUNCTION_WORDS.intersection(run) or set(run) & (_NOT_A_PASSWORD | assignments.ATTRIBUTE_WORDS | NEGATIONS):
        return False
    if value[0].lower() != value[0].upper() and not value[0].isupper():
        return False  # an answer names a pet, a place or a person: "Riverside", not "sin configurar"
    return not (assignments.is_placeholder_or_hash(value) or assignments.is_state(value) or _PLACEHOLDER.match(value))


def _seed_ok(m: re.Match[str]) -> bool:
    """A seed phrase has 12, 15, 18, 21 or 24 words, and few repeats (not a sentence of words)."""
    words = m.group("v").split()
    return len(words) in (12, 15, 18, 21, 24) and len(set(words)) >= len(words) - 1


def _bare_seed_ok(m: re.Match[str]) -> bool:
    """A wallet's seed with no label: 12-24 words, none repeated, none a function word (a sentence has them)."""
    run = m.group("v").split()
    return _seed_ok(m) and len(set(run)) == len(run) and not words.FUNCTION_WORDS.intersection(run)


# The words before a 256-bit hex value that say what it is: a private key (`--private-key`, `PRIVATE_KEY`, Hardhat's
# `accounts: ["0x…"]`, `new Wallet("0x…")`) or a digest (a transaction or block hash, a storage slot, a commit).
_KEY_WORDS = frozenset({"private", "priv", "privkey", "key", "keys", "secret", "accounts", "account", "signer", "deployer",
                        "wallet", "sk", "seed", "mnemonic"})
_DIGEST_WORDS = frozenset({"hash", "hashes", "tx", "txn", "txid", "txhash", "transaction", "block", "blockhash", "digest",
                           "sha", "sha256", "sha3", "keccak", "keccak256", "commit", "checksum", "root", "slot", "storage",
                           "id", "salt", "nonce", "iv", "parent", "topic", "topics", "data", "address", "public", "pub",
                           "pubkey", "fingerprint", "merkle", "state", "receipt", "log", "logs", "calldata", "input",
                           "selector", "signature", "sig", "hmac", "etag", "object", "tree", "image", "layer",
                           "integrity", "md5", "blob", "cache", "idempotency", "request", "trace", "span", "session"})


def _hex_key_ok(m: re.Match[str]) -> bool:
    """A 256-bit hex value is a private key when the nearest telling word before it names a key, not a digest."""
    head = m.string[max(0, m.start() - 80):m.start()]
    labels = [w.lower() for word in _LABEL_WORD.findall(head) for w in _CAMEL_SPLIT.sub(" ", word).split()]
    for w in reversed(labels[-6:]):
        if w in _DIGEST_WORDS:
            return False
        if w in _KEY_WORDS:
            return True
    return False


def _connection_password_ok(m: re.Match[str]) -> bool:
    value = m.group(1)
    return not _PLACEHOLDER.match(value) and not value.startswith("[REDACTED")


def _sk_key_ok(m: re.Match[str]) -> bool:
    # The reference article's floor is `sk-` + 16 characters; words such as "sk-learn-estimators"
    # also fit that, so the body must look random (a digit, or mixed case).
    body = m.group(0)[3:]
    if _PLACEHOLDER_TOKEN.search(body):
        return False  # `sk-or-v1-xxxxxxxxxxxxxxxx`, `sk-your-key-here`: a template
    return any(c.isdigit() for c in body) or (body.lower() != body and body.upper() != body)


# Public object ids that look random but grant nothing: API response, message, request and payment ids.
_PUBLIC_ID = re.compile(
    r"(?:pi|ch|cus|sub|in|evt|price|prod|txn|seti|pm|src|acct|req|msg|msgbatch|toolu|srvtoolu|asst|thread|run|"
    r"call|resp|batch|file|ft|ftjob|vs|org|proj|user|pk|po|tr|re|dp|ba|card|tok|cs|plink|ii|il|cn|du|fee|si|sched|"
    r"ipi|iauth|ich|trr|pyr|cbtxn|fr|ic|setatt|mandate|pmc|promo|coupon|tax|txi|sub_sched)_|(?:chatcmpl|file|run|step|batch)-|"
    r"Qm[1-9A-HJ-NP-Za-km-z]{44}$"  # Stripe publishable keys (`pk_live_`); an IPFS content id (CIDv0)
)

# Words that say what a random-looking value next to them is when it is public: an identifier, an
# address, a public key, a digest. A high-entropy token right after one of them ("Call SID CA8f…",
# "PublicKey = Hm3…", "BTC address bc1…", "SHA256:nThb…", go.sum's `h1:…`) is not a secret, unless
# the same label also names a secret ("secret key id" stays a label of a secret).
_PUBLIC_LABEL = frozenset({
    "id", "ids", "identifier", "sid", "uid", "guid", "uuid", "kid", "cid", "oid", "public", "pub", "publickey",
    "pubkey", "publishable", "address", "addr", "wallet", "hash", "digest", "checksum", "fingerprint", "integrity",
    "etag", "commit", "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3", "md5", "blake2b", "blake2s",
    "blake3", "h1", "zh", "crc32", "playlist", "track", "video", "channel", "revision", "rev", "serial", "tracking",
    "sitekey", "recaptcha", "grecaptcha",  # a reCAPTCHA site key is put in every page (its secret key is labelled secret)
})
_SECRET_LABEL = frozenset({"secret", "private", "password", "passwd", "token", "credential", "credentials", "auth",
                           "apikey", "bearer", "passphrase", "pwd", "seed", "mnemonic"})
_LABEL_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _label_before(text: str, start: int) -> list[str]:
    """The words of the label right before `start` on its line (at most four, lower case, camelCase split)."""
    line_start = text.rfind("\n", 0, start) + 1
    head = text[max(line_start, start - 48):start]
    head = re.split(r"[.!?;,(){}\[\]]\s", head)[-1]  # the clause the value ends
    words = _LABEL_WORD.findall(head)[-4:]
    return [w.lower() for word in words for w in _CAMEL_SPLIT.sub(" ", word).split()]


def _public_label(text: str, start: int) -> bool:
    """The value at `start` follows a label that says it is public (an id, an address, a public key, a digest)."""
    words = _label_before(text, start)
    return bool(_PUBLIC_LABEL.intersection(words)) and not _SECRET_LABEL.intersection(words)


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _bitcoin_address(token: str) -> bool:
    """A Base58Check string whose version byte is a Bitcoin address's (P2PKH 0x00, P2SH 0x05): public by design.
    (Its checksum is what tells it from a random token; a private key's WIF version, 0x80, is not accepted.)"""
    if not 25 <= len(token) <= 35 or any(c not in _B58 for c in token):
        return False
    n = 0
    for c in token:
        n = n * 58 + _B58.index(c)
    raw = n.to_bytes(25, "big") if n.bit_length() <= 200 else b""
    if len(raw) != 25 or raw[0] not in (0x00, 0x05):
        return False
    import hashlib
    return hashlib.sha256(hashlib.sha256(raw[:21]).digest()).digest()[:4] == raw[21:]


# A token made of words and short parts (`acme/feature/Login2FA-refactorV2`, `Release-2024-Q3-final`) is a
# name, not a key: a machine-made token has a random run of 16+ characters somewhere.
_RANDOM_RUN = re.compile(r"[A-Za-z0-9+=]{16,}")


def _b64_head(token: str, n: int = 24) -> bytes:
    """The first bytes `token` decodes to as base64 (b"" when it is not base64)."""
    head = token[:n - n % 4]
    try:
        return base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return b""


def _public_blob(token: str) -> bool:
    """A public key or certificate, not a secret: an OpenSSH public key blob (`AAAAC3NzaC1lZDI1NTE5…`, the key
    type after a length), or base64 of a PEM block that is a certificate or a public key
    (kubeconfig's `certificate-authority-data`)."""
    head = _b64_head(token)
    if head[:3] == b"\x00\x00\x00" and head[4:].startswith((b"ssh-", b"ecdsa-", b"sk-ssh-", b"sk-ecdsa-")):
        return True
    return head.startswith(b"-----BEGIN") and b"PRIVATE" not in _b64_head(token, 64)


_PEM_MARK = re.compile(r"-----(BEGIN|END) ([A-Z0-9 ]+)-----")


def _in_public_pem(text: str, start: int) -> bool:
    """`start` lies inside a PEM block that is not a private key (`BEGIN PUBLIC KEY`, `BEGIN CERTIFICATE`)."""
    opened = None
    for mark in _PEM_MARK.finditer(text, 0, start):
        opened = mark.group(2) if mark.group(1) == "BEGIN" else None
    return opened is not None and "PRIVATE" not in opened


def _pem_private_ok(m: re.Match[str]) -> bool:
    """Base64 of a PEM private key block (kubeconfig's `client-key-data`)."""
    return b"PRIVATE KEY" in _b64_head(m.group(0), 64)


# Card numbers that card networks and payment providers publish for testing (Stripe, Adyen, Braintree,
# PayPal docs): they charge nothing and belong to nobody.
_TEST_CARDS = frozenset({
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210",
    "5105105105105100", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
    "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005", "4111111111111111",
    "4012888888881881", "4222222222222", "5454545454545454", "4000000000000002", "4000000000009995",
})


def _high_entropy_ok(m: re.Match[str]) -> bool:
    """A long token of mixed case and digits with high entropy, not part of a URL or a path, not a public key."""
    token = m.group(0)
    if _public_blob(token) or _in_public_pem(m.string, m.start()):
        return False
    if _PUBLIC_ID.match(token) or re.match(r"sha(?:1|256|384|512)-", token):
        return False  # a public id, or a subresource-integrity digest (`integrity="sha384-…"`)
    if not (any(c.isupper() for c in token) and any(c.islower() for c in token)):
        return False
    if sum(c.isdigit() for c in token) < 2 or token.count("/") > 2:
        return False
    if re.fullmatch(r"(?:0x|[A-Z]{1,4}[_-]?)?[0-9a-f]{16,}", token):
        return False  # a hex id behind a short prefix (Twilio's `CA…` Call SID, `0x…`): hex ids are public
    if _RANDOM_RUN.search(token) is None or _public_label(m.string, m.start()) or _bitcoin_address(token):
        return False
    start = m.start()
    word_start = max(m.string.rfind(" ", 0, start), m.string.rfind("\n", 0, start)) + 1
    prefix = m.string[word_start:start]
    if "://" in prefix or prefix.startswith(("www.", "data:")):
        return False  # an id inside a link (docs, video, commit page) is an address, not a key
    cell = prefix[max(prefix.rfind(c) for c in "\t,;|\"'`=") + 1:]
    if cell and assignments.is_placeholder_or_hash(cell + token):
        return False  # a password hash's body after its scheme (`$2b$12$…`, `$argon2id$v=19$…$…`, `pbkdf2:sha256:…`)
    return _entropy(token) >= 4.0


# --------------------------------------------------------------------------- the rules

def _one_slip(word: str, *, keep: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """`word` typed with one slip: a letter dropped or two neighbours swapped ("pasword", "passowrd", "tokn"),
    without the word itself and without real words of other meaning (`keep` lists those to leave out)."""
    out = {word[:i] + word[i + 1:] for i in range(1, len(word))}
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    return tuple(sorted(w for w in out - {word} - keep if len(w) >= 4))


# "pasword", "passwrd", "passowrd"; "tokn", "toekn": label words as typed in a hurry (chat, a pasted note).
_PW_SLIPS = _one_slip("password", keep=frozenset({"passord"}))  # passord is Norwegian, already a label
_TOKEN_SLIPS = _one_slip("token", keep=frozenset({"oken", "toen", "toke", "tkoen"}))
_SLIP_PW = "|".join(_PW_SLIPS)
_SLIP_TOKEN = "|".join(_TOKEN_SLIPS)

_B = r"(?<![A-Za-z0-9_])"  # left boundary that, unlike \b, also treats `_` as part of a word
# "password for the staging DB is X": up to four words naming what the secret is for (not a verb).
# A word naming what a secret is for; a dot only inside it (a host, `nuc.lan`), not a sentence's end ("… for Lisa. Ticket:").
_W = r"(?:[\w@'\u200c-]|\.(?=[\w@'-]))+"  # a word; Persian writes a zero-width non-joiner inside words ("خانه‌ی")
_WORD = r"(?!(?:is|was|has|in|at|as|from)\b)" + _W


def _for_phrase(preps: str) -> str:
    """What a label is for, between it and its value: one of `preps` and up to four words ("for the router"), or a
    relative clause ("the password I gave the babysitter was …", "the password that IT set is …"); optional."""
    return (rf"(?:\s+(?:{preps})\s+(?:the\s+|my\s+|our\s+)?{_WORD}(?:\s+{_WORD}){{0,3}}?"
            rf"|\s+(?:I|we|you|he|she|they|that|which|(?-i:IT))\s+{_WORD}(?:\s+{_WORD}){{0,3}}?)?")


_PW_FOR = _for_phrase("for|of|on|to")
# A key's "for" phrase in any language of the table ("api key של OpenWeather:", "API-Key für Stripe:"): people name a
# key in English inside a sentence of their own language.
_KEY_FOR = _for_phrase("for|of|on|to|" + words.alternation(words.PREPS))
# "(hex)", "(Synology)", "(prod)", "(reset with `bin/…-reset-password -u elastic`)": a parenthesised qualifier or
# remark between a label and its value.
_QUALIFIER = r"(?:\s*\([^()\n]{1,80}\))?"
_CONNECT = (
    r"\s*(?:[:=]|->|(?:\b(?:is|was|has\s+been)\s+)?(?:now\b|(?:changed|set|reset|updated)\s+to\b)|\bis\b|\bwas\b|['’]s\b|"
    r"\?\s*it(?:['’]s|\s+is)\b)\s*"
)
# "password" in every language of the table (engram.safety.secret_words), word-bounded (a letter may not come
# right before); scripts written without spaces (Thai, CJK, kana, Hangul) are matched anywhere. Each is also a hint.
_PW_WORDS_MORE = words.spaced(words.NOUNS)
_PW_WORDS_UNSPACED = words.unspaced(words.NOUNS)
_MORE = words.alternation(_PW_WORDS_MORE)
_UNSPACED = words.alternation(_PW_WORDS_UNSPACED)
# "password" in other languages (European, Cyrillic, CJK, Korean, Turkish), for prose such as
# "passwort ist Geheim123!", "mot de passe: Soleil2024!", "contraseña: Luna2024", "密码是 Hunter2024!".
_PW_LABELS = (r"(?:(?<![^\W\d_])(?<!\\)(?:passw(?:o|ö)rt\w*|kennwort\w*|zugangscode|mot(?:s)?\s+de\s+passe|mdp|contrase(?:ñ|n)a|clave(?:\s+de\s+acceso)?|"
              r"senha|palavra-passe|wachtwoord|hasło|haslo|lösenord(?:et)?|losenord(?:et)?|adgangskode(?:n)?|passord(?:et)?|"
              r"salasana\w{0,3}|heslo|jelsz(?:ó|o|ava|avam|avad|avunk|avát|avat)|parola(?:\s+d'ordine)?|[şs]ifre(?:m|n|si|niz|miz|yi)?|пароль|пароля|гасло|"
              r"(?:wi-?fi|wlan|wpa2?|wep|network|router|hotspot|netzwerk|r[ée]seau|rete|rede|сети|сеть)[\s-]+(?:key|code|pass(?:phrase|code)?|pw|"
              r"schl(?:ü|ue|u)ssel|cl[ée]|clave|chiave|chave|sleutel|klucz|nyckel|ключ)|"
              r"(?:schl(?:ü|ue|u)ssel|cl[ée]|clave|chiave|chave|sleutel|klucz|nyckel|ключ|code|c[óo]digo|codice|κωδικός|رمز|کد)\s+"
              r"(?:(?:du|del|de|da|do|der|des|van|от|του|της)\s+)?"
              r"(?:l'|la\s+|el\s+|il\s+|o\s+)?(?:wi-?fi|wlan|r[ée]seau|red|rete|rede|router|сети|وای\u200c?\s?فای|واي\s?فاي)|"
              r"κωδικός(?:\s+πρόσβασης)?|password|" + _MORE + r")|" + _UNSPACED + r")")
_PW_HINTS = ("pass", "wort", "kennwort", "mot", "mdp", "contrase", "clave", "senha", "palavra", "wachtwoord", "has",
             "lösenord", "losenord", "adgangskode", "passord", "salasana", "heslo", "jelsz", "parola", "şifre", "sifre",
             "пароль", "пароля", "гасло", "κωδικός", "wifi", "wi-fi", "wlan", "wpa", "wep", "network", "router",
             "hotspot", "jelszav", "رمز", "کد", "وای", "واي", "密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호", "암호",
             *_PW_WORDS_MORE, *_PW_WORDS_UNSPACED)
# "for the server", "für den Server", "del wifi", "do banco", "от почты", "的": what the password is for.
_SPACED_COPULAS = words.alternation(words.spaced(words.COPULAS))
_PW_FOR_ML = (r"(?:\s+(?:" + words.alternation(words.POSSESSIVES_AFTER) + r"))?"
              r"\s*(?:(?:" + words.alternation(words.PREPS) + r")\s+(?:(?:" + words.alternation(words.DETS) + r"|mein\w*)\s+)?"
              + _W + r"(?:\s+" + _W + r"){0,2}|"
              r"(?:du|de|del|do|da)\s+" + _W + r"|"
              # one to three words with no preposition: languages that mark "for the bank" with a case ending
              # (Finnish "pankkiin", Hungarian "bankhoz", Turkish "bankaya"), or a possessive of one or two words
              # ("kata sandi saya adalah", "mật khẩu của tôi là"); the value check still applies
              r"(?:\s+(?!(?:" + _SPACED_COPULAS + r")\b)[^\W\d_]{2,}(?:-[^\W\d_]+)*){1,3}"
              r"(?=,?\s+(?:" + _SPACED_COPULAS + r")\s))")
# A copula of the table, maybe after a comma ("Mon mot de passe pour la box, c'est …"), or a particle glued to
# the label in scripts without spaces ("密码是", "パスワードは", "비밀번호는").
_CONNECT_ML = (r"(?:\s*(?:[:=：]|->|—|–|-)\s*|\s+(?:(?:is|was|has\s+been)\s+)?(?:changed|set|reset|updated)\s+to\s+|,?\s+(?:"
               + _SPACED_COPULAS + r")\s+(?:(?:now|jetzt|maintenant|ahora|adesso|agora|nu|teraz|теперь)\s+)?|"
               r"\s*(?:" + words.alternation(words.unspaced(words.COPULAS)) + r"|：)\s*|\s+)")
# After a label in any language: quoted, or a token of printable ASCII and letters of scripts written with spaces
# ("Ласточка_1987"); CJK, kana, Hangul, Thai and full-width forms end it (those scripts run on without spaces).
_VCHAR = r"(?:[!-~]|[^\x00-\x7f\s\u0E00-\u0E7F\u2000-\u206F\u3000-\u9FFF\uAC00-\uD7AF\uFF00-\uFFEF])"
_VALUE_ASCII = (r"""(?:(?P<q>["'`])(?P<v>[^"'`\n]{1,80}?)(?P=q)|(?P<v2>""" + _VCHAR
                + r"""{2,78}(?:[A-Za-z0-9#$%&*+\-/<=>@^_|~]|[^\W_\u0E00-\u0E7F\u3000-\u9FFF\uAC00-\uD7AF\uFF00-\uFFEF])))""")
_VALUE = r"""(?:(?P<q>["'`])(?P<v>[^"'`\n]{1,80}?)(?P=q)|(?P<v2>[^\s"'`]{3,79}[^\s"'`.,;:!?)\]}]))"""

def _rule(kind: str, regex: str, hints: tuple[str, ...] = (), group: int | str | tuple[str, ...] = 0,
          validate: Validator | None = None, min_digits: int = 0) -> _Rule:
    return _Rule(kind, re.compile(regex), group, validate, hints, min_digits)


# Vendors' token formats, one place: (a lowercase literal the text must contain, the format as the vendor
# documents it: a prefix, then a length and an alphabet). Lengths are lower bounds where vendors have
# changed them. Add a vendor here, not a new rule.
_VENDOR_TOKENS: tuple[tuple[str, str], ...] = (
    ("_v1_", r"do[por]_v1_[a-f0-9]{64}"),  # DigitalOcean
    ("dapi", r"dapi[a-f0-9]{32}(?:-\d)?"),  # Databricks
    (":fx", r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx"),  # DeepL (free plan)
    ("app_usr-", r"APP_USR-\d{10,20}-\d{6}-[0-9a-f]{32}-\d{6,12}"),  # Mercado Pago access tokens
    ("hvs.", r"hvs\.[A-Za-z0-9_-]{24,}"), ("hvb.", r"hvb\.[A-Za-z0-9_-]{24,}"),  # HashiCorp Vault
    (".atlasv1.", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),  # Terraform Cloud / Enterprise
    ("shp", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),  # Shopify
    ("key-", r"key-[0-9a-f]{32}"),  # Mailgun
    ("-us", r"[0-9a-f]{32}-us\d{1,2}"),  # Mailchimp (the key ends in its data centre)
    ("xkeysib-", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"), ("xsmtpsib-", r"xsmtpsib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),  # Brevo
    ("lin_api_", r"lin_api_[A-Za-z0-9]{40}"),  # Linear
    ("ntn_", r"ntn_[A-Za-z0-9]{40,}"), ("secret_", r"secret_[A-Za-z0-9]{43}"),  # Notion
    ("atatt3", r"ATATT3[A-Za-z0-9_=-]{40,}"), ("atbb", r"ATBB[A-Za-z0-9_=.-]{32,}"),  # Atlassian, Bitbucket app password
    ("pmak-", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),  # Postman
    ("sntry", r"sntry[su]_[A-Za-z0-9+/=_-]{40,}"),  # Sentry
    ("glsa_", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"), ("glc_", r"glc_[A-Za-z0-9+/]{32,}"),  # Grafana
    ("nrak-", r"NR(?:AK|II|JS|AA)-[A-Za-z0-9]{20,}"),  # New Relic
    ("sbp_", r"sbp_[a-f0-9]{40}"),  # Supabase
    ("figd_", r"figd_[A-Za-z0-9_-]{40,}"),  # Figma
    ("dp.", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),  # Doppler
    ("age-secret-key-1", r"AGE-SECRET-KEY-1[0-9A-Z]{50,}"),  # age (file encryption)
    ("ssws", r"(?<=SSWS )00[A-Za-z0-9_-]{36,}"),  # Okta (`Authorization: SSWS 00…`)
    ("eaaa", r"EAAA[A-Za-z0-9_-]{40,}"), ("sq0", r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"),  # Square
    ("eaa", r"EAA[BCDG][A-Za-z0-9]{60,}"),  # Meta / Facebook access tokens
    ("aaaaaaaaaaaaaaaaaaaaa", r"A{21}[A-Za-z0-9%]{40,}"),  # X / Twitter app bearer tokens
    (":apa91b", r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}"),  # Firebase Cloud Messaging server key
    ("sl.", r"sl\.[A-Za-z0-9_-]{100,}"),  # Dropbox
    ("pul-", r"pul-[a-f0-9]{40}"),  # Pulumi
    ("fo1_", r"fo1_[A-Za-z0-9_-]{40,}"), ("flyv1", r"FlyV1 fm\d_[A-Za-z0-9+/=,_-]{60,}"),  # Fly.io
    ("nfp_", r"nfp_[A-Za-z0-9]{36,}"),  # Netlify
    ("hrku-", r"HRKU-[A-Za-z0-9_-]{40,}"),  # Heroku (new format)
    ("ltai", r"LTAI[A-Za-z0-9]{12,24}"), ("akid", r"AKID[A-Za-z0-9]{32}"),  # Alibaba Cloud, Tencent Cloud
    ("aqvn", r"AQVN[A-Za-z0-9_-]{35,38}"), ("y0_", r"y[0-3]_[A-Za-z0-9_-]{50,}"),  # Yandex Cloud
    ("sk.eyj", r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"),  # Mapbox secret tokens
    ("cfpat-", r"CFPAT-[A-Za-z0-9_-]{43}"),  # Contentful
    ("pscale_", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,}"),  # PlanetScale
    ("pnu_", r"pnu_[A-Za-z0-9]{36}"), ("rnd_", r"rnd_[A-Za-z0-9]{32,}"),  # Prefect, Render
    ("dckr_", r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}"),  # Docker Hub
    ("bkua_", r"bkua_[a-f0-9]{40}"), ("ccipat_", r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}"),  # Buildkite, CircleCI
    ("akcp", r"AKCp[A-Za-z0-9]{60,}"),  # JFrog Artifactory
    ("sqp_", r"sq[pau]_[a-f0-9]{40}"),  # SonarQube / SonarCloud
    ("rubygems_", r"rubygems_[a-f0-9]{48}"), ("clojars_", r"CLOJARS_[a-z0-9]{60}"),  # RubyGems, Clojars
    ("dt0c01.", r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"),  # Dynatrace
    ("pcsk_", r"pcsk_[A-Za-z0-9_]{40,}"), ("fw_", r"fw_[A-Za-z0-9]{24,}"),  # Pinecone, Fireworks
    ("napi_", r"napi_[a-z0-9]{60,}"), ("re_", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}"),  # Neon, Resend
    ("shippo_", r"shippo_(?:live|test)_[a-f0-9]{40}"), ("ezak", r"EZAK[a-z0-9]{54}"),  # Shippo, EasyPost
    ("flwseck", r"FLWSECK(?:_TEST)?-[a-h0-9]{32}-X"),  # Flutterwave
    ("access-", r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f-]{27}"),  # Plaid
    ("access_token$", r"access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}"),  # Braintree / PayPal
    ("pat", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),  # Airtable
    ("tfp_", r"tfp_[A-Za-z0-9_.-]{40,}"), ("aio_", r"aio_[A-Za-z0-9]{28}"),  # Typeform, Adafruit IO
    ("ops_eyj", r"ops_eyJ[A-Za-z0-9_-]{40,}"),  # 1Password service accounts
    ("b3blbnnzac1rzxktdje", r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/]{20,}={0,2}"),  # an OpenSSH private key's body, no header
    ("/api/webhooks/", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{40,}"),  # Discord
    ("webhook.office.com", r"https://[\w-]+\.webhook\.office\.com/webhookb2/[\w@/-]{40,}"),  # Microsoft Teams
)


# Provider formats: a documented prefix and length. `hints` are lowercase literals one of which must
# be in the text before the regex runs at all; that gate keeps a clean write at a few microseconds.
_SPECIFIC: list[_Rule] = [
    _rule("private_key", r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}", ("ls0tls1crudjti",), validate=_pem_private_ok),
    _rule("private_key", r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
          r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)", ("-----begin",)),
    _rule("private_key", r"PuTTY-User-Key-File-\d: [\s\S]*?(?:Private-MAC: [0-9a-f]+|\Z)", ("putty-user-key",)),
    _rule("anthropic_key", _B + r"sk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{8,}", ("sk-ant-",)),
    _rule("openai_key", _B + r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}", ("sk-",)),
    _rule("openai_key", _B + r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}", ("t3blbkfj",)),
    _rule("aws_access_key", r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
          ("akia", "asia", "abia", "acca", "a3t")),
    _rule("gcp_api_key", _B + r"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])", ("aiza",)),
    _rule("gcp_oauth", _B + r"(?:GOCSPX-[A-Za-z0-9_-]{28}|ya29\.[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{40,})",
          ("gocspx-", "ya29.", "1//0")),
    _rule("gcp_service_account", r"\"private_key_id\"\s*:\s*\"[0-9a-f]{40}\"", ("private_key_id",)),
    _rule("azure_client_secret",
          r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])", ("q~",)),
    _rule("huggingface_token", _B + r"(?:hf_|api_org_)[A-Za-z0-9]{30,}\b", ("hf_", "api_org_")),
    _rule("github_token", _B + r"(?i:gh[pousr]_[a-z0-9]{20,})\b", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    _rule("github_token", _B + r"github_pat_[A-Za-z0-9_]{22,}", ("github_pat_",)),
    _rule("gitlab_token", _B + r"gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_-]{20,}",
          ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "glsoat-", "glft-", "glimt-", "glagent-",
           "glffct-")),
    _rule("slack_token", _B + r"(?:xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)", ("xox", "xapp-")),
    _rule("slack_webhook", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}",
          ("hooks.slack.com",)),
    _rule("stripe_key", _B + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", ("_live_", "_test_")),
    _rule("stripe_key", _B + r"whsec_[A-Za-z0-9+/]{24,}", ("whsec_",)),
    _rule("npm_token", _B + r"npm_[A-Za-z0-9]{36}\b", ("npm_",)),
    _rule("pypi_token", _B + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}", ("pypi-",)),
    _rule("jwt", _B + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", ("eyj",)),
    _rule("sendgrid_key", _B + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}", ("sg.",)),
    _rule("twilio_key", r"\bSK[0-9a-f]{32}\b", ("sk",), min_digits=8),
    # alone, or in the Bot API's URLs, glued to "bot" (`https://api.telegram.org/bot<token>/sendMessage`)
    _rule("telegram_bot_token", r"(?:\b|(?<=/bot))\d{8,10}:AA[A-Za-z0-9_-]{33}", (":aa",)),
    _rule("discord_bot_token", r"\b[MN][A-Za-z0-9]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}", (".",), min_digits=4),
    _rule("llm_provider_key", _B + r"(?:gsk_[A-Za-z0-9]{48,}|xai-[A-Za-z0-9]{70,}|r8_[A-Za-z0-9]{37}\b|"
          r"pplx-[A-Za-z0-9]{40,}|tvly-[A-Za-z0-9-]{24,}|lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}\b)",
          ("gsk_", "xai-", "r8_", "pplx-", "tvly-", "lsv2_")),
    _rule("saas_token", _B + "(?:" + "|".join(r for _, r in _VENDOR_TOKENS) + ")",
          tuple(sorted({h for h, _ in _VENDOR_TOKENS}))),
]

# "Login for the NAS: admin / Corr3ct-Horse-Battery": a credential label, a user name, then a password (after a
# colon, a copula or an arrow: "creds for staging -> admin / …").
_PAIR_LABELS = (r"(?:log[-\s]?in|log[-\s]?on|sign[-\s]?in|credentials?|creds|account|user(?:name)?(?:\s+and\s+password)?|"
                r"benutzer(?:name)?|zugang(?:sdaten)?|anmelde(?:daten|informationen)|konto|identifiants?|"
                r"utilisateur|compte|usuario(?:\s+y\s+contraseña)?|credenciales|cuenta|acceso|credenziali|utente|"
                r"accesso|account|usuário|utilizador|credenciais|conta|inloggegevens|gebruiker|dane\s+logowania|"
                r"login|логин|учётные\s+данные|учетные\s+данные|аккаунт|账号|帳號|账户|帳戶|用户名|用戶名|"
                r"アカウント|ログイン|계정|아이디)")
_PAIR = (r"(?i:(?:(?<![^\W\d_])|(?=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]))" + _PAIR_LABELS + r")(?:\s+(?:for|of|to|on|für|fürs|du|de|del|della|do|da|pour|para|"
         r"per|voor|для|от)\s+(?:[\w@.'-]+\s+){0,3}?[\w@.'-]+)?(?:\s+(?:with|as|using|mit|avec|con|com))?\s*(?:->|→|=>|[:=：はが是는은]|\bis\b|\bare\b|\bist\b|\bsind\b|\bsont\b|\bson\b|\bsão\b|\best\b|\bes\b|\bè\b|"
         r"\bé\b)?\s*[\w.@+-]{2,64}(?::(?=\S)|\s*(?:/|\||\s+(?:password|pass|pw|pwd|passwort|mot\s+de\s+passe|contraseña|"
         r"senha|пароль)(?![\w-])\s*:?)\s*)(?P<p>[^\s/]{6,64})")
_PAIR_HINTS = ("log", "sign", "cred", "account", "user", "benutzer", "zugang", "anmelde", "konto", "identifiant",
               "utilisateur", "compte", "usuario", "credencia", "cuenta", "acceso", "credenziali", "utente", "accesso",
               "usuário", "utilizador", "conta", "inlog", "gebruiker", "dane", "логин", "данные", "аккаунт", "账号",
               "帳號", "账户", "帳戶", "用户名", "用戶名", "アカウント", "ログイン", "계정", "아이디")

_KEY_NAMES = (r"(?:api[_\s-]?key|apikey|secret|token|(?:totp|otp|2fa|mfa|authenticator)[_\s-]*(?:seed|key)|" + _SLIP_TOKEN + r"|access[_-]?key|auth[_-]?key|private[_-]?key|credential|signing[_-]?key|"
              # a session cookie or id: "sessionid=…", "PHPSESSID=…", "the laravel_session cookie … is …"
              r"sess(?:ion)?(?:[_-]?id)?(?:[\s_-]+(?:cookie|id|token|value))?)")

# A PIN's words in every language of the table (engram.safety.secret_words.PIN_WORDS): a number after one of them
# is the PIN ("Пин-код карты 4471", "kartımın şifresi 6 0 2 8").
_PIN_WORDS = tuple(sorted({w for ws in words.PIN_WORDS.values() for w in ws}))
_PIN_LABELS = (r"(?<![^\W\d_])(?:" + words.alternation(words.spaced(_PIN_WORDS)) + r")(?![^\W\d_])|"
               + words.alternation(words.unspaced(_PIN_WORDS)))
_PIN_HINTS = tuple(sorted({"pin", "code", "cvv", "cvc", "combination", "combo", "kod", "код", "пин"}
                          | {w.lower().split()[0] for w in _PIN_WORDS}))
# One to three words between a label and its number, none of them a function word ("PIN karty", "PIN meiner Karte";
# not "pin it for 2024").
_FEW_WORDS = (r"(?:\s+(?!(?:" + words.alternation(tuple(words.FUNCTION_WORDS)) + r")(?![^\W\d_]))[^\W\d_][\w'’-]*){1,3}?")
# A number of three to eight digits, or four to eight digits written with spaces or dashes between them ("4 4 7 1",
# "9-3-1-5-2-0"), not followed by more digits.
_DIGITS = r"(?P<d>\d{3,8}\b(?![.,]\d)|\d(?P<sep>[ -])\d(?:(?P=sep)\d){2,6}(?![ .,-]?\d))"

# A passphrase's words and the words for a password, then a run of four to eight plain words ending the clause:
# "my passphrase is correct horse battery staple", "Passwort-Satz für den Tresor lautet: grüne Wolke tanzt leise".
_PHRASE_LABELS = words.alternation(words.spaced(tuple(words.PHRASE_WORDS) + words.NOUNS))
_PHRASE_HINTS = tuple(sorted({w.lower().split()[0].split("-")[0] for w in words.PHRASE_WORDS} | set(_PW_WORDS_MORE)))
# Words that make a run of words a sentence about a password: its state ("stored", "reset"), not a passphrase.
_STATE_WORDS = _NOT_A_PASSWORD - {"correct", "incorrect", "long", "short", "random", "strong", "weak", "one", "two", "three"}


_PHRASE_STOP = (words.FUNCTION_WORDS | assignments.ATTRIBUTE_WORDS | _STATE_WORDS | _NOT_ONES_OWN
                | {w.lower() for w in (*words.PREPS, *words.DETS, *words.COPULAS, *words.POSSESSIVES_AFTER)})


def _phrase_ok(m: re.Match[str]) -> bool:
    """Plain words as a passphrase: none a function word, a word for a password's state or attributes, no repeats,
    not in a text about a test double."""
    run = [w.lower() for w in re.split(r"[ -]", m.group("w"))]
    between = re.findall(r"[^\W\d_]+", m.string[m.start():m.start("w")].lower())
    if assignments.about_test_double(m.string) or len(set(run)) < len(run) or assignments.ATTRIBUTE_WORDS.intersection(between):
        return False
    if any(len(w) <= 2 for w in run):
        return False  # a word of one or two letters ("pe", "de", "la", "à"): a sentence, not words drawn for a passphrase  # "… each password hash to prevent rainbow table attacks": about an attribute of passwords
    stop = _PHRASE_STOP
    return not stop.intersection(run) and not any(w in words.NOUNS or w.startswith("pass") for w in run)


_RECOVERY_LABELS = words.alternation(words.RECOVERY_WORDS)
_RECOVERY_HINTS = code_hints(words.RECOVERY_WORDS)
# One recovery code of letters and digits (a digit in it, one dash at most).
_ALNUM_CODE = r"(?i:(?=[a-z]*\d)(?=[a-z0-9]*-?[a-z0-9]*[a-z])[a-z0-9]{4,10}(?:-[a-z0-9]{4,10})?(?![\w-]))"

# Context, checksum and entropy rules: run after the provider formats, which name a finding better.
_GENERIC: list[_Rule] = [
    # The reference article's floor: any `sk-` key of 16+ characters (OpenRouter, DeepSeek, ...).
    _rule("api_key", r"(?<![A-Za-z0-9_-])(?i:sk-[a-z0-9_-]{16,})", ("sk-",), validate=_sk_key_ok),
    _rule("aws_secret_key", r"(?i:aws.{0,20}?secret[\w .-]{0,20}?)" + _CONNECT
          + r"['\"]?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])", ("aws",), "v"),
    _rule("azure_storage_key", r"(?i:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{40,}={0,2})",
          ("accountkey", "sharedaccesskey"), 1),
    _rule("connection_string", r"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/?#@'\"]*:([^\s@/'\"]+)@[\w.-]",
          ("://",), 1, _connection_password_ok),
    # `sqlplus scott/…@//host:1521/ORCL`, `expdp system/…@pdb`: user/password@service of a database client.
    _rule("connection_string", r"(?i:\b(?:sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl|conn(?:ect)?)\s+(?:-\w+\s+)*)"
          r"[\w$#.]{1,30}/(?P<p>[^\s/@\"']{4,64})@", ("sqlplus", "rman", "expdp", "impdp", "exp", "imp", "sqlldr",
                                                    "dgmgrl", "conn"), "p", _pair_password_ok),
    # A .pgpass record: hostname:port:database:username:password, one per line.
    _rule("password", r"(?m)^[\w.*-]+:(?:\d{1,5}|\*):[\w*.-]+:[\w*.@-]+:(?P<p>\S{4,128})$", (":",), "p",
          _pair_password_ok, min_digits=1),
    _rule("bearer_token", r"(?i:\bbearer|\bauthorization['\"]?\s*[:=]\s*['\"]?(?:token|api-?key|key|sso-key|otoken|token\s+token=))\s*"
          r"(?P<v>[A-Za-z0-9._~+/-]{16,}=*)", ("bearer", "authorization"), "v", _random_value_ok),
    _rule("basic_auth", r"(?i:\bbasic)\s+([A-Za-z0-9+/]{12,}={0,2})", ("basic",), 1, _basic_auth_ok),
    # Not after a backslash: `\\password NAME` is psql's command that asks for one, a label after `\\` is a command.
    _rule("password", r"(?i:(?<![A-Za-z\\])(?:password|passwd|passphrase|pwd|pw|pass|" + _SLIP_PW + r")\b)"
          + f"(?:{_PW_FOR}{_QUALIFIER}{_CONNECT}|\\s+)" + _VALUE, ("pass", "pw", *_PW_SLIPS), ("v", "v2"),
          _password_value_ok),
    _rule("password", r"(?i:" + _PW_LABELS + r")" + f"(?:{_PW_FOR_ML})?{_CONNECT_ML}" + _VALUE_ASCII,
          _PW_HINTS, ("v", "v2"), _password_value_ok),
    # "mot de passe wifi: X", "Passwort Router = X", "Mật khẩu ngân hàng của tôi: X": a label, up to four words naming
    # what it is for (not across a sentence's end: "… password for Lisa. Ticket: …"), a colon or `=`.
    _rule("password", r"(?i:" + _PW_LABELS + r")(?:[\s-]+" + _W + r"){1,4}?\s*[:=：]\s*" + _VALUE_ASCII,
          _PW_HINTS, ("v", "v2"), _password_value_ok),
    _rule("password", _PAIR, _PAIR_HINTS, "p", _pair_password_ok),
    # The value first: "<value> is my Netflix password", "<value> ist mein Passwort", "use <value> as the password".
    # (The token is matched atomically, `(?=(?P<p>…))(?P=p)`, so a long word is not retried at every length.)
    _rule("password", r"(?<![^\s'\"(])['\"]?(?=(?P<p>(?=[^\s'\"`]*[\d!#$%&*@^~?])[^\s'\"`]{6,64}))(?P=p)['\"]?(?:,?\s+(?:" + _SPACED_COPULAS + r")\s+(?:(?:"
          + words.alternation(words.DETS) + r")\s+)?|\s+(?i:as|als|comme|como|come)\s+(?:(?:the|my|a|our|your|new|mein\w*|le|la|mon|el|mi|il|o|a|meu|minha)\s+)*)"
          r"(?P<w>(?:[\w'’-]+\s+){0,2}?)(?i:" + _MORE + r")(?![^\W\d_])(?P<after>(?:\s+[^\W\d_]+)?)",
          tuple(w.lower() for w in _PW_WORDS_MORE), "p", _value_first_ok),
    _rule("password", r"(?i:(?<![^\W\d_])(?:" + _PHRASE_LABELS + r")(?![^\W\d_]))" + f"(?:{_PW_FOR}|{_PW_FOR_ML})?"
          + r"(?:\s*[:=：]\s*|,?\s+(?:" + _SPACED_COPULAS + r")(?:\s*[:：]\s*|\s+))['\"]?(?P<w>[^\W\d_]{2,}(?:[ -][^\W\d_]{2,}){3,7})['\"]?"
          r"(?=\s*(?:$|[\n.,;!?)]))", _PHRASE_HINTS, "w", _phrase_ok),
    _rule("api_key", r"(?<![\w/+=.-])['\"]?(?P<v>[A-Za-z0-9_-]{20,64})['\"]?\s+(?i:is|was|as)\s+(?i:(?:the|my|our|your|an?|their|its)\s+)?"
          r"(?:[\w-]+\s+){0,2}?(?i:api[\s_-]?key|token|secret|access[\s_-]?key)(?![^\W\d_])", ("key", "token", "secret"), "v",
          _random_value_ok, min_digits=2),
    # An e-mail address and a password: "Netflix: <address> / <password>".
    _rule("password", r"(?<![\w.+-])(?=(?P<u>[\w.+-]+))(?P=u)@(?=(?P<d>[\w-]+(?:\.[\w-]+)+))(?P=d)\s*/\s*(?P<p>(?!#)[^\s/|]{6,64})",
          ("@",), "p",
          _pair_password_ok),
    # A password piped to a tool that reads it from stdin: `echo '…' | sudo -S`, `… | docker login --password-stdin`.
    _rule("password", r"(?i:\becho\s+(?:-n\s+)?)['\"]?(?P<p>[^\s'\"|]{4,64})['\"]?\s*\|\s*(?i:sudo\s+-S|[^|\n]*--password-stdin|"
          r"[^|\n]*passwd\s+--stdin|chpasswd)", ("echo",), "p", _pair_password_ok),
    # "the wifi at grandma's is <value>": the network named alone stands for its password in chat; the value
    # must look like one (8+ characters, letters and digits), and a label that names the network itself does not count.
    _rule("password", r"(?i:(?<![^\W\d_])(?:wi-?fi|wlan)(?![^\W\d_])(?P<w>(?:\s+[\w'’]+){0,4}?)(?:\s*[:=]\s*|,?\s+(?:"
          + _SPACED_COPULAS + r")\s+))['\"]?(?P<p>[^\s'\"]{7,63}[^\s'\".,;:!?)\]}])", ("wifi", "wi-fi", "wlan"), "p",
          _wifi_password_ok),
    _rule("pin", r"(?i:(?:\b(?:пин(?:[\s-]*код(?:а|у)?)?|pin(?:[\s-]*(?:code|kode(?:n|t)?|kod(?:en)?|koodi(?:a|n)?|number|nummer(?:et)?|numero|número))?|passcode|door\s+code|alarm\s+code|gate\s+code|"
          r"security\s+code|cvv2?|cvc2?|(?:lock|locker|safe|padlock|garage|entry|keypad|bike\s+lock|building|unlock|access|screen(?:\s+lock)?|phone|sim|device)\s+(?:code|combination|combo)|"
          r"combination(?:\s+code)?|(?:c[óo]digo|code|codice|код)\s+pin)\b|" + _PIN_LABELS + ")" + f"(?:{_PW_FOR}|{_PW_FOR_ML}|{_FEW_WORDS})" + r")(?:"
          + _CONNECT + "|" + _CONNECT_ML + r"|\s+|\s*#\s*)['\"]?" + _DIGITS,
          _PIN_HINTS, "d", min_digits=3),
    # "locker combination is 31-07-22", "combo: 12 34 56": a combination written as groups of digits.
    # With no connector ("Locker combo <d>-<d>-<d>") only groups joined by dashes count: "combo 2 3 4" is a menu.
    _rule("pin", r"(?i:\b(?:combination|combo)(?:\s+(?:lock|padlock))?\b" + _PW_FOR + r")(?:" + _CONNECT + r"['\"]?(?P<c>\d{1,3}(?:[-\s]\d{1,3}){2,3})|\s+"
          r"(?P<d>\d{1,3}(?:-\d{1,3}){2,3}))\b(?![.,-]\d)",
          ("combination", "combo"), ("c", "d"), min_digits=3),
    # "The safe at the office opens with code 482913", "door code at the new flat is 7391#": a lock, a few words,
    # its code word, then the digits (right after it, or after an explicit "is" / ":" / "=").
    # "the code for the garage keypad is <digits>": the code word first, then the lock it opens.
    _rule("pin", r"(?i:(?<![^\W\d_])(?:" + words.alternation(words.CODE_WORDS) + r"|combination|combo|pin)(?:\s+[\w'’]+){0,3}?[\s'’](?:"
          + words.alternation(LOCK_STEMS) + r")[^\W\d_]*(?:\s+[^\W\d_]+){0,3}?)(?:" + _CONNECT + r"|,?\s+(?:" + _SPACED_COPULAS
          + r")\s+)['\"]?" + _DIGITS, ("code", "combination", "combo", "pin", "codi", "códi", "kod", "kód", "код", "koodi", "kode"),
          "d", _opens_something, min_digits=3),
    _rule("pin", r"(?i:\b(?:safe|door|gate|alarm|lock|locker|padlock|garage|keypad|entrance|building)\b(?:\s+[\w']+){0,5}?"
          r"\s+(?:code|combination|combo|pin)\b(?:\s+|(?:\s+[\w']+){0,4}?\s*(?::|=|\bis\b|\bwas\b)\s*)['\"]?)(\d{3,8})\b(?![.,]\d)",
          ("code", "combination", "combo", "pin"), 1, min_digits=3),
    # "recovery phrase: orbit velvet canyon …": a wallet's seed (BIP-39 and the like), 12 to 24 lower-case words.
    _rule("seed_phrase", r"(?i:\b(?:(?:seed|recovery|mnemonic|backup|secret|wallet)[\s-]+(?:phrase|words?|seed)|mnemonic|seed)\b)"
          r"[^\n:=]{0,30}?(?:[:=]|\bis\b|\bare\b)\s*['\"]?(?P<v>(?-i:(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8}))\b",
          ("seed", "phrase", "mnemonic", "words"), "v", _seed_ok),
    # A seed with no label, in a text that names a wallet: a line (or the rest of a line after a colon) of 12-24 plain
    # lower-case words, as BIP-39 seeds are written ("Backup for the Trezor:\nlunar spider orchard …").
    _rule("seed_phrase", r"(?m)(?:^|(?<=[:：=]))[ \t]*[\"'“«„]?(?P<v>(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})[\"'”»“]?[ \t]*\.?"
          r"[ \t]*(?:[\"']?[ \t]*[}\]][ \t]*,?)*[ \t]*$",  # a JSON or YAML record may close the line: `…"}`
          tuple(sorted({w.lower() for w in words.WALLET_WORDS})), "v", _bare_seed_ok),
    # A private key of 256 bits in hex (Ethereum and other secp256k1 / ed25519 keys), named as a key, not a digest.
    _rule("private_key", r"(?<![0-9A-Za-z_])(?:0x)?[0-9a-fA-F]{64}(?![0-9A-Za-z_])", validate=_hex_key_ok, min_digits=20),
    # A disk's or an account's recovery key, written in groups (BitLocker: eight groups of six digits; FileVault and
    # Apple ID: groups of four letters and digits): "BitLocker recovery key: 123456-…", "clé de récupération : AB12-…".
    _rule("recovery_code", r"(?i:(?<![^\W\d_])(?:" + words.alternation(words.RECOVERY_KEY_WORDS) + r"))[^\n:=：]{0,40}?"
          r"(?:[:=：]|\bis\b)\s*['\"]?(?P<v>(?=[A-Z0-9-]*\d)[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,9})(?![\w-])",
          code_hints(words.RECOVERY_KEY_WORDS), "v", min_digits=4),
    # Google app passwords: four groups of four lower-case letters after "app password".
    _rule("password", r"(?i:\bapp(?:lication)?[\s-]+password\w*)\W{0,3}(?:(?:is|was|:)\s*)?['\"]?([a-z]{4}(?: ?[a-z]{4}){3})\b",
          ("password",), 1),
    # "backup codes: 3849-2011, 7712-4409": one-time and recovery codes given as a list of numbers
    # or as a list of letter-and-digit codes (GitHub's and Google's shape: five letters or digits, a dash, five more),
    # after a label of any language of the table (engram.safety.secret_words.RECOVERY_WORDS) and maybe up to three
    # words naming the account ("Wiederherstellungscodes für GitHub:", "Mina reservkoder för Google:").
    _rule("recovery_code", r"(?i:(?<![^\W\d_])(?:" + _RECOVERY_LABELS + r"))(?:\s+[^\W\d_][\w.'’-]*){0,3}?"
          r"\s*(?::|=|：|\bare\b|\bis\b|\bsind\b|\bsont\b|\bson\b|\bsão\b|\bzijn\b|\bto\b|\bjsou\b|\bär\b|\ber\b)\s*"
          r"(\d{3,8}(?:[- ]\d{3,8})?(?:\s*[,;]\s*\d{3,8}(?:[- ]\d{3,8})?)+|\d{4,8}(?:[- ]\d{4,8})?(?![\w,-])|"
          + _ALNUM_CODE + r"(?:[\s,;]+" + _ALNUM_CODE + r")+)(?![\w-])",
          _RECOVERY_HINTS, 1, min_digits=6),
    _rule("api_key", r"(?i:" + _KEY_NAMES + r"[\w.-]*)" + _KEY_FOR + _QUALIFIER + r"\s*(?:[:=]|=>|\bis\b)\s*['\"`]?(?P<v>[A-Za-z0-9_\-+/=.~]{12,})",
          ("key", "secret", "token", "credential", "seed", "sess", *_TOKEN_SLIPS), "v", _random_value_ok, min_digits=1),
    _rule("api_key", r"(?i:\bkey)\s*[:=]\s*['\"`]?(?P<v>[A-Za-z0-9_\-+/=.~]{16,})", ("key",), "v", _random_value_ok,
          min_digits=1),
    # "API-Schlüssel fürs Skript: …", "clé API : …", "ключ API — …": the label in other languages (secret_words.API_KEY_WORDS).
    _rule("api_key", r"(?i:(?<![^\W\d_])(?:" + words.alternation(words.API_KEY_WORDS) + r"))" + f"(?:{_PW_FOR_ML})?{_CONNECT_ML}"
          + r"['\"`«“]?(?P<v>[A-Za-z0-9_\-+/=.~]{12,})", _API_KEY_HINTS, "v", _random_value_ok, min_digits=1),
    # A product or licence key in five groups of five (Microsoft's and many vendors' format), named or not: such a code
    # in a text is a key to something ("User's Office product key is 4VDX6-…").
    _rule("licence_key", r"(?<![\w-])[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}(?![\w-])", validate=_mixed_groups, min_digits=2),
    # A security question's answer given as the answer: "Security question 'first pet' — answer: Biscuit".
    _rule("security_answer", r"(?i:(?<![^\W\d_])(?:" + words.alternation(words.SECURITY_QUESTION_WORDS) + r"))[^\n]{0,80}?"
          r"(?:(?<![^\W\d_])(?:" + words.alternation(words.ANSWER_WORDS) + r")(?![^\W\d_])[^\n:：=—–]{0,20})?"
          r"\s*(?:[:：=—–]|->|\bis\b)\s*['\"«“„]?(?P<v>[^\W\d_][^\n,;:.!?\"'»”“(){}\[\]]{1,40}?)['\"»”“]?\s*(?:[.,;!?)}\]]|$)",
          _ANSWER_HINTS, "v", _answer_ok),
    # "Twilio auth token 9f8e…": a key or token named as one, then its value with no connector (hex or mixed).
    _rule("api_key", r"(?i:\b(?:(?:auth|access|api|bearer|secret|session|refresh|private|app|bot)[\s_-]*)?(?:token|key|secret))\s+"
          r"(?P<v>[0-9a-f]{32,64}|[A-Za-z0-9]{32,64})\b", ("token", "key", "secret"), "v", _random_value_ok, min_digits=4),
    # "network HomeNet, key 8f2Kq9LmZx7P": a key given without a connector must look machine-made (mixed case and digits).
    _rule("api_key", r"(?i:\bkey)\s+(?P<v>(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{10,64})\b",
          ("key",), "v", _random_value_ok,
          min_digits=1),
    _rule("us_ssn", r"\b(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}\b", min_digits=9),
    _rule("us_ssn", r"(?i:\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?))\b\D{0,12}?(\d{9})\b",
          ("ssn", "social"), 1, _ssn_context_ok, min_digits=9),
    _rule("uk_nino", r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
          min_digits=6),
    _rule("iban", r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b", validate=_iban_ok, min_digits=4),
    _rule("card_number", r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])", validate=_card_ok, min_digits=13),
    # Written in groups of four, a card stays a card when another number follows ("… 4444 1").
    _rule("card_number", r"(?<![\d-])\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?!\1?\d{4}|-?\d)", validate=_card_ok, min_digits=16),
    _rule("high_entropy_string", r"(?<![A-Za-z0-9+/=_.-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/=_-])",
          validate=_high_entropy_ok, min_digits=2),
]
_CUSTOM: list[_Rule] = []
_RULES: list[_Rule] = _SPECIFIC + _GENERIC


def _all_hints() -> list[str]:
    """Every rule's hints and the assignment finder's, once each: a text is searched for each one once."""
    return sorted({h for r in _RULES for h in r.hints} | set(assignments.HINTS) | set(prose.HINTS) | set(layouts.HINTS)
                   | set(formats.HINTS))


def _hint_index(hints: list[str]) -> tuple[re.Pattern[str], dict[str, tuple[str, ...]]]:
    """One pass over a text finds every hint in it: a trie of the hints, tried at each position, longest first; a hint
    found there brings the shorter hints that are its prefixes (every hint starting at that position is one of them).
    (Searching for each of ~600 hints in turn was most of a clean write's cost.)"""
    tree: dict[str, Any] = {}
    for h in hints:
        node = tree
        for ch in h:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        branches += [""] if "" in node else []
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    prefixes = {h: tuple(p for p in hints if h.startswith(p)) for h in hints}
    return re.compile("(?=(" + emit(tree) + "))") if hints else re.compile(r"(?!)"), prefixes


def _present(lowered: str) -> set[str]:
    """The hints `lowered` contains."""
    found: set[str] = set()
    for m in _HINT_INDEX[0].finditer(lowered):
        found.update(_HINT_INDEX[1][m.group(1)])
    return found


_HINTS: list[str] = _all_hints()
_HINT_INDEX = _hint_index(_HINTS)


def add_pattern(kind: str, regex: str | re.Pattern[str], *, group: int | str = 0,
                validate: Validator | None = None, hints: Iterable[str] = ()) -> None:
    """Register one more secret format (checked after the built-in provider formats).

    `group` is the part of the match to redact, `validate(match)` may veto a match, and `hints`
    (optional literals, any case) let a text that contains none of them skip the regex.
    """
    if not isinstance(kind, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", kind):
        raise InvalidInput(f"secret kind {kind!r} must be lowercase letters, digits and _ (e.g. 'acme_token')")
    try:
        pattern = regex if isinstance(regex, re.Pattern) else re.compile(regex)
    except re.error as exc:
        raise InvalidInput(f"secret pattern for {kind!r} does not compile: {exc}; fix the regex") from exc
    if pattern.search("") is not None:
        raise InvalidInput(f"secret pattern for {kind!r} matches the empty string; it would refuse every write")
    global _HINT_INDEX
    _CUSTOM.append(_Rule(kind, pattern, group, validate, tuple(h.lower() for h in hints)))
    _RULES[:] = _SPECIFIC + _CUSTOM + _GENERIC
    _HINTS[:] = _all_hints()
    _HINT_INDEX = _hint_index(_HINTS)


def remove_pattern(kind: str) -> int:
    """Unregister the patterns added with `add_pattern` under `kind`; returns how many were removed."""
    global _HINT_INDEX
    before = len(_CUSTOM)
    _CUSTOM[:] = [r for r in _CUSTOM if r.kind != kind]
    _RULES[:] = _SPECIFIC + _CUSTOM + _GENERIC
    _HINTS[:] = _all_hints()
    _HINT_INDEX = _hint_index(_HINTS)
    return before - len(_CUSTOM)


def rule_kinds() -> list[str]:
    """The kinds of secret the filter knows, in priority order, without duplicates."""
    return list(dict.fromkeys(r.kind for r in _RULES))


# --------------------------------------------------------------------------- scanning


def _secret_span(rule: _Rule, m: re.Match[str]) -> tuple[int, int] | None:
    groups = rule.group if isinstance(rule.group, tuple) else (rule.group,)
    for g in groups:
        if m.group(g) is not None:
            return m.span(g)
    return None


_DIGIT = re.compile(r"\d")
# A provider format filled in with words, as in docs and templates: `xoxb-your-slack-token`, `sk-proj-EXAMPLE…`.
_PLACEHOLDER_TOKEN = re.compile(r"your|example|placeholder|xxxx|dummy|redacted|changeme|insert", re.IGNORECASE)


def _template(token: str) -> bool:
    """A provider's format filled in with words (`_PLACEHOLDER_TOKEN`, or a template's words in any language)."""
    return _PLACEHOLDER_TOKEN.search(token) is not None or stand_ins.template_words(token)


# Digits of other scripts (Arabic-Indic, Persian, Devanagari, Bengali, Thai, full-width …) as ASCII digits, one
# character for one, so a PIN written in Persian or Thai digits is read as ASCII digits and every span stays in place.
_NATIVE_DIGITS = {cp: str(unicodedata.digit(chr(cp))) for cp in range(0x80, 0x20000)
                  if unicodedata.category(chr(cp)) == "Nd"}


def find_secrets(text: str) -> list[tuple[int, int, str]]:
    """Every secret in `text` as (start, end, kind), sorted, overlaps merged (the first rule names it); digits of any
    script are read as ASCII digits (`_NATIVE_DIGITS`)."""
    if not isinstance(text, str):
        raise InvalidInput(f"the secret filter takes a str, got {type(text).__name__}; pass the text to store")
    if not text.isascii():
        text = text.translate(_NATIVE_DIGITS)
    hits: list[tuple[int, int, int, str]] = []
    lowered = text.lower()
    digits = len(_DIGIT.findall(text))
    present = _present(lowered)
    for priority, rule in enumerate(_RULES):
        if digits < rule.min_digits or (rule.hints and present.isdisjoint(rule.hints)):
            continue
        for m in rule.pattern.finditer(text):
            if rule.validate is not None and not rule.validate(m):
                continue
            span = _secret_span(rule, m)
            if span and span[1] > span[0] and not (priority < len(_SPECIFIC) and _template(m.group(0))):
                hits.append((span[0], span[1], priority, rule.kind))
    if not present.isdisjoint(assignments.HINTS):
        hits += [(start, end, len(_RULES), kind) for start, end, kind in assignments.find(text)]
    if not present.isdisjoint(prose.HINTS):
        hits += [(start, end, len(_RULES) + 1, kind) for start, end, kind in prose.find(text, present)]
    if ":" in text or "：" in text:
        hits += [(start, end, len(_RULES) + 1, kind) for start, end, kind in prose.find_broken_fields(text)]
    if not present.isdisjoint(layouts.HINTS):
        hits += [(start, end, len(_RULES) + 2, kind) for start, end, kind in layouts.find(text, present)]
    if not present.isdisjoint(formats.HINTS):
        hits += [(start, end, len(_RULES) + 3, kind) for start, end, kind in formats.find(text, present)]
    return _merge([h for h in hits if not stand_ins.stand_in(text, h[0], h[1])])


def _merge(hits: list[tuple[int, int, int, str]]) -> list[tuple[int, int, str]]:
    merged: list[list[Any]] = []  # [start, end, priority, kind]
    for start, end, priority, kind in sorted(hits):
        if merged and start < merged[-1][1]:
            last = merged[-1]
            last[1] = max(last[1], end)
            if priority < last[2]:
                last[2], last[3] = priority, kind
        else:
            merged.append([start, end, priority, kind])
    return [(s, e, k) for s, e, _, k in merged]


def _apply(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, kind in spans:
        out.append(text[pos:start])
        out.append(f"[REDACTED:{kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact(text: str) -> str:
    """`text` with every secret found replaced by `[REDACTED:<kind>]` (for logs, episodes, errors)."""
    return _apply(text, find_secrets(text))


_EXCERPT_CONTEXT = 30


def check_text(text: str) -> SecretFinding | None:
    """The first secret in `text` (kind + redacted excerpt), or None when the text looks clean."""
    spans = find_secrets(text)
    if not spans:
        return None
    start, end, kind = spans[0]
    # Excerpt from the fully redacted text, so no other secret nearby can leak into it either.
    before = _apply(text[:start], [s for s in spans if s[1] <= start])
    after = _apply(text[end:], [(s - end, e - end, k) for s, e, k in spans[1:]])
    left = before[-_EXCERPT_CONTEXT:]
    right = after[:_EXCERPT_CONTEXT]
    excerpt = ("…" if len(before) > len(left) else "") + left + f"[REDACTED:{kind}]" + right
    excerpt += "…" if len(after) > len(right) else ""
    return SecretFinding(kind=kind, excerpt=" ".join(excerpt.split()))


def looks_secret(text: str) -> bool:
    """True when `text` holds something the filter treats as a secret."""
    return check_text(text) is not None
