"""Secrets laid out where no `name = value` is written: a table's column, a statement's keyword, a call's position.

engram.safety.assignments reads a name and its value joined by `=` or `:`. Agents meet the same pair in other layouts
as often, and each is read here by its layout, not by its wording:

* **tables**: a header row names the columns (a password manager's CSV or TSV export, a Markdown table in notes, a
  CLI's columns aligned with spaces); the cell under a column whose name ends in a secret word is that secret's value
  (one token, no spaces), in every row that has the header's number of cells. A line of two cells is a name and its value (`password    Kx…`
  in `vault kv get`, `| Password | Kx… |`, a config directive such as `requirepass Kx…`);
* **statements**: SQL gives a password after a keyword (`IDENTIFIED BY '…'`, `WITH PASSWORD '…'`);
* **positions**: a credential-taking call (its name says connect, login, auth, credential, client, session, SMTP or
  FTP) passes a user and then a password as string literals (`mysqli_connect('db', 'wp', '…')`,
  `NetworkCredential("svc", "…")`, `getConnection(url, "hr", "…")`), and a DSN gives `user:password@` with no
  scheme before it (Go's `root:…@tcp(host)/db`).

A value passes the same test as an assigned one (`assignments.is_secret_value`); a value found by its position alone,
with no name, must also be shaped like a password (`password_shaped`: letters and two of a digit, a symbol and both
cases; no space, no URL or path characters, not an e-mail address).

`find(text)` gives (start, end, kind) spans; engram.safety.secrets merges them with its other rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engram.safety.assignments import about_test_double, is_secret_name, is_secret_value
from engram.safety.assignments import HINTS as _NAME_HINTS

__all__ = ["HINTS", "find", "password_shaped"]

_Span = tuple[int, int, str]

# ------------------------------------------------------------------ tables

_MD_RULE = re.compile(r"\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*")  # a Markdown table's rule: `|---|:--|`
_ALIGNED = re.compile(r"\S+(?: \S+)*")  # cells of a CLI's table: runs of words with single spaces inside
_HEADER_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_QUOTES = "\"'`"
_MAX_ROWS = 200


def _cells(line: str, sep: str) -> list[tuple[int, int]] | None:
    """The spans of `line`'s cells split at `sep` (`"  "` for columns aligned with spaces), each without the spaces
    and quotes around it; None when `line` is not a row of that layout."""
    if sep == "  ":
        if "  " not in line.strip():
            return None
        return [m.span() for m in _ALIGNED.finditer(line)]
    if sep not in line:
        return None
    spans: list[tuple[int, int]] = []
    start, end = 0, len(line)
    if sep == "|":
        stripped = line.strip()
        start = line.find(stripped)
        end = start + len(stripped)
        if stripped.startswith("|"):
            start += 1
        if stripped.endswith("|") and end - 1 > start:
            end -= 1
    pos = start
    while pos <= end:
        if sep != "|" and line.startswith('"', pos):  # a quoted CSV field may hold the separator
            close = line.find('"', pos + 1)
            while close != -1 and line.startswith('""', close):
                close = line.find('"', close + 2)
            nxt = line.find(sep, close + 1) if close != -1 else -1
        else:
            nxt = line.find(sep, pos)
        stop = end if nxt == -1 or nxt > end else nxt
        a, b = pos, stop
        while a < b and line[a] in " \t" + _QUOTES:
            a += 1
        while b > a and line[b - 1] in " \t" + _QUOTES:
            b -= 1
        spans.append((a, b))
        if nxt == -1 or nxt >= end:
            break
        pos = nxt + 1
    return spans


# A column's name: a word or a few, no value in it (a key followed by its value, `password:  24 bytes`, is no header).
_COLUMN_NAME = re.compile(r"(?=\d*[^\W\d])[^\W_][\w .'’()/#-]{0,31}")


def _secret_header(cell: str) -> bool:
    """A column's name that holds a secret (`password`, `login_password`, `Mot de passe`, `Kennwort`), in at most
    three words, the secret word last; not a phrase about one ("where the password lives", "secret caught") and not
    its attribute (`password_hash`)."""
    words = _HEADER_WORD.findall(cell)
    if not words or len(words) > 3 or any(c.isdigit() for c in cell):
        return False
    return is_secret_name("_".join(words), head=True)


def _lines(text: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


def _tables(text: str) -> Iterator[_Span]:
    lines = _lines(text)
    for i, (_, header) in enumerate(lines[:-1]):
        for sep in ("|", "\t", ",", ";", "  "):
            cells = _cells(header, sep)
            if cells is None or len(cells) < 2 or not all(_COLUMN_NAME.fullmatch(header[a:b]) for a, b in cells):
                continue
            columns = [k for k, (a, b) in enumerate(cells) if _secret_header(header[a:b])]
            if not columns or len(columns) == len(cells):
                continue
            for at, row in lines[i + 1:i + 1 + _MAX_ROWS]:
                if sep == "|" and _MD_RULE.fullmatch(row):
                    continue
                spans = _cells(row, sep)
                if spans is None or len(spans) != len(cells):
                    break
                for k in columns:
                    a, b = spans[k]
                    value = row[a:b]
                    if not any(c.isspace() for c in value) and is_secret_value(value, quoted=True):
                        yield at + a, at + b, "password"
            break  # a header is read in the first layout that splits it


# A line of two cells, a name and its value: `password    Kx…` (a CLI's key/value table), `| Password | Kx… |`,
# `requirepass Kx…` (a config file's directive).
_PAIR_LINE = re.compile(r"(?m)^[ \t]*(?:\|[ \t]*)?(?P<name>[^\W\d][\w.-]{1,40})(?:[ \t]*\|[ \t]*|[ \t]+)[\"'`]?"
                        r"(?P<v>[^\s\"'`|]{6,128})[\"'`]?[ \t]*\|?[ \t]*;?[ \t]*$")


def _pair_lines(text: str) -> Iterator[_Span]:
    for m in _PAIR_LINE.finditer(text):
        if is_secret_name(m.group("name")) and is_secret_value(m.group("v"), quoted=False):
            yield m.start("v"), m.end("v"), "password"


# ------------------------------------------------------------------ statements

# SQL: `CREATE USER … IDENTIFIED BY '…'` (MySQL, Oracle: quoted or not), `IDENTIFIED WITH plugin BY '…'`,
# `CREATE ROLE … WITH LOGIN PASSWORD '…'`, `ALTER USER … ENCRYPTED PASSWORD '…'` (PostgreSQL).
_SQL = re.compile(r"(?i:\bidentified(?:\s+with\s+['\"]?[\w-]+['\"]?)?\s+by(?:\s+password)?\s+)"
                  r"(?:(?P<q>['\"])(?P<v>[^'\"\n]{1,128})(?P=q)|(?P<v2>[^\s;'\",)]{1,128}))|"
                  r"(?i:(?<![\w.$])(?:(?:encrypted|unencrypted)\s+)?password\s+)(?P<q3>['\"])(?P<v3>[^'\"\n]{1,128})(?P=q3)")


def _statements(text: str) -> Iterator[_Span]:
    for m in _SQL.finditer(text):
        group = next(g for g in ("v", "v2", "v3") if m.group(g) is not None)
        if is_secret_value(m.group(group), quoted=group != "v2"):
            yield m.start(group), m.end(group), "password"


# ------------------------------------------------------------------ positions

_CALL = re.compile(r"(?P<callee>[A-Za-z_][\w.:]*)\s*\((?P<args>[^()\n]{3,400})\)")
_CREDENTIAL_CALLEE = re.compile(r"(?i)connect|login|logon|sign_?in|auth|credential|client|session|smtp|ftp|pdo|mysqli")
_LITERAL = re.compile(r"""(?P<q>["'])(?P<v>[^"'\\\n]{1,128})(?P=q)""")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NOT_IN_PASSWORD = re.compile(r"[\s/:=;,(){}\[\]<>]")
_USER = re.compile(r"[^\s=;,(){}\[\]<>]{1,64}")
# `user:password@` with no scheme before it, then a host and a path or Go's `tcp(…)`: `root:…@tcp(10.0.3.7:3306)/db`.
_DSN = re.compile(r"""(?<![^\s"'`=(,])[A-Za-z_][\w.-]{0,63}:(?P<v>[^\s"'`/]{3,128}?)@(?=(?:tcp|udp|unix)\(|"""
                  r"""[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?/)""")


def password_shaped(value: str) -> bool:
    """A literal shaped like a password when no name says it is one: 8-64 characters, letters and two of a digit, a
    symbol and both cases; no space, no URL, path or code characters; not an e-mail address."""
    if not 8 <= len(value) <= 64 or _NOT_IN_PASSWORD.search(value) or _EMAIL.fullmatch(value):
        return False
    letters = [c for c in value if c.isalpha()]
    digit = any(c.isdigit() for c in value)
    symbol = any(not c.isalnum() and c not in "._-" for c in value)
    both_cases = any(c.isupper() for c in letters) and any(c.islower() for c in letters)
    return bool(letters) and digit + symbol + both_cases >= 2 and is_secret_value(value, quoted=True)


def _calls(text: str) -> Iterator[_Span]:
    for m in _CALL.finditer(text):
        if not _CREDENTIAL_CALLEE.search(m.group("callee")):
            continue
        literals = list(_LITERAL.finditer(m.group("args")))
        for user, secret in zip(literals, literals[1:]):
            if _USER.fullmatch(user.group("v")) and password_shaped(secret.group("v")):
                at = m.start("args")
                yield at + secret.start("v"), at + secret.end("v"), "password"


def _dsns(text: str) -> Iterator[_Span]:
    for m in _DSN.finditer(text):
        if is_secret_value(m.group("v"), quoted=True):
            yield m.start("v"), m.end("v"), "password"


# ------------------------------------------------------------------ entry point

_TABLE_HINTS = tuple(h for h in _NAME_HINTS if len(h) > 2 and h.isalpha())
_SQL_HINTS = ("identified", "password")
_CALL_HINTS = ("connect", "login", "logon", "signin", "sign_in", "auth", "credential", "client", "session", "smtp", "ftp",
               "pdo", "mysqli")
HINTS = tuple(sorted({*_TABLE_HINTS, *_SQL_HINTS, *_CALL_HINTS, "@"}))


def find(text: str) -> list[_Span]:
    """Spans of secrets laid out in tables, SQL statements, credential calls' positions and scheme-less DSNs; none in
    a text about a test double (assignments.about_test_double)."""
    if about_test_double(text):
        return []
    low = text.lower()
    out: list[_Span] = []
    if any(h in low for h in _TABLE_HINTS):
        if "\n" in text:
            out += _tables(text)
        out += _pair_lines(text)
    if any(h in low for h in _SQL_HINTS):
        out += _statements(text)
    if "(" in text and any(h in low for h in _CALL_HINTS):
        out += _calls(text)
    if "@" in text and ":" in text:
        out += _dsns(text)
    return out
