"""Secrets laid out where no `name = value` is written: a table's column, a statement's keyword, a call's position.

engram.safety.assignments reads a name and its value joined by `=` or `:`. Agents meet the same pair in other layouts
as often, and each is read here by its layout, not by its wording:

* **tables**: a header row names the columns (a password manager's CSV or TSV export, a Markdown table in notes, a
  CLI's columns aligned with spaces); the cell under a column whose name ends in a secret word is that secret's value
  (one token, no spaces), in every row that has the header's number of cells. A line of two cells is a name and its value (`password    Kx…`
  in `vault kv get`, `| Password | Kx… |`, a config directive such as `requirepass Kx…`);
* **statements**: SQL gives a password after a keyword (`IDENTIFIED BY '…'`, `WITH PASSWORD '…'`);
* **fields**: a name and its value as two fields of one object (`- name: DB_PASSWORD` then `value: …` in a
  Kubernetes or ECS env list, `ParameterKey` / `ParameterValue`);
* **command output**: a command that prints a secret (`heroku auth:token`, `$ echo $API_TOKEN`), then the value alone on
  the next line;
* **positions**: a credential-taking call (its name says connect, login, auth, credential, client, session, SMTP or
  FTP) passes a user and then a password as string literals (`mysqli_connect('db', 'wp', '…')`,
  `NetworkCredential("svc", "…")`, `getConnection(url, "hr", "…")`); a DSN gives `user:password@` with no
  scheme before it (Go's `root:…@tcp(host)/db`).

A value passes the same test as an assigned one (`assignments.is_secret_value`); a value found by its position alone,
with no name, must also be shaped like a password (`password_shaped`: letters and two of a digit, a symbol and both
cases; no space, no URL or path characters, not an e-mail address).

`find(text)` gives (start, end, kind) spans; engram.safety.secrets merges them with its other rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from engram.safety.assignments import about_test_double, is_secret_name, is_secret_value
from engram.safety.assignments import HINTS as _NAME_HINTS
from engram.language.normalise import UNSPACED_SCRIPTS
from engram.safety.prose_words import AMBIGUOUS, LOCK_STEMS, PASSWORD_STEMS, PIN_STEMS
from engram.safety.secret_words import CODE_WORDS

__all__ = ["HINTS", "find", "password_shaped"]

_Span = tuple[int, int, str]
# ASCII capitals lowered, nothing else: offsets in the result are offsets in the text (str.lower can change a length).
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# ------------------------------------------------------------------ tables

_MD_RULE = re.compile(r"\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*")  # a Markdown table's rule: `|---|:--|`
_ALIGNED = re.compile(r"\S+(?: \S+)*")  # cells of a CLI's table: runs of words with single spaces inside
# Vowel signs and other combining marks, which `\w` leaves out: a Hindi, Thai or Arabic header is one word with them.
_MARKS = "\u0300-\u036f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u0900-\u0dff\u0e00-\u0eff"
_HEADER_WORD = re.compile(rf"[^\W\d_][\w'’{_MARKS}-]*")
# Words of a header that name a PIN, a code, a login; words for a password that also mean a code or a key in other
# languages (engram.safety.prose_words.AMBIGUOUS), read as a password's column only beside a login's.
_PIN_WORDS = frozenset(s for s, _ in PIN_STEMS if " " not in s and not s.endswith("-"))
_CODE_WORDS = frozenset(CODE_WORDS) | {"κωδικός"}
_LOGIN_WORDS = frozenset({"user", "username", "login", "email", "e-mail", "id", "usuario", "usuário", "utilisateur",
                          "identifiant", "benutzer", "benutzername", "gebruiker", "gebruikersnaam", "użytkownik",
                          "uživatel", "användare", "bruker", "käyttäjä", "felhasználó", "utente", "пользователь", "логин",
                          "користувач", "kullanıcı", "χρήστη", "χρήστης", "pengguna", "akun", "hp", "아이디", "用户名",
                          "登录名", "账号", "帳號", "ユーザー名", "ユーザーid", "ログインid", "người", "dùng", "tài", "khoản",
                          "مستخدم", "المستخدم", "کاربر", "उपयोगकर्ता", "यूज़रनेम", "यूजरनेम"})
# The words for a password of scripts written without spaces: a compound ending in one names one (`登录密码`, login
# password; `支付密码`; `관리자비밀번호`).
_UNSPACED_PASSWORDS = tuple(sorted({s for s, _ in PASSWORD_STEMS if re.search(f"[{UNSPACED_SCRIPTS}]", s)
                                    and not s.startswith(AMBIGUOUS)} | {"비번"}))
_AMBIGUOUS_PASSWORDS = tuple(a for a in AMBIGUOUS if a not in _CODE_WORDS and a not in ("ww", "cod", "mã", "رمز", "कोड"))
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
_COLUMN_NAME = re.compile(rf"(?=\d*[^\W\d])[^\W_][\w{_MARKS} .'’()/#-]{{0,31}}")


def _secret_header(cell: str) -> bool:
    """A column's name that holds a secret (`password`, `login_password`, `Mot de passe`, `Kennwort`), in at most
    three words, the secret word last; not a phrase about one ("where the password lives", "secret caught") and not
    its attribute (`password_hash`)."""
    words = _HEADER_WORD.findall(cell)
    if not words or len(words) > 3 or any(c.isdigit() for c in cell):
        return False
    return is_secret_name("_".join(words), head=True) or words[-1].endswith(_UNSPACED_PASSWORDS)


def _header_words(cell: str) -> list[str]:
    return [w.lower() for w in _HEADER_WORD.findall(cell)]


def _pin_header(cell: str) -> bool:
    """A column of PINs or lock codes: a PIN's word ("PIN", "Restrictions PIN", "Passcode", "Digicode"), or a code's
    word with what it opens ("Entry code", "Türcode", "Code portail")."""
    words = _header_words(cell)
    if not words or len(words) > 4:
        return False
    if any(w in _PIN_WORDS or w.startswith(("pin-", "pinkod", "pincod")) for w in words):
        return True
    return any(w in _CODE_WORDS for w in words) and any(w.startswith(LOCK_STEMS) for w in words)


def _login_header(cell: str) -> bool:
    """A column of user names, logins or e-mail addresses ("Usuario", "Email / No HP", "아이디", "Όνομα χρήστη")."""
    words = _header_words(cell)
    return 0 < len(words) <= 4 and any(w in _LOGIN_WORDS for w in words)


def _column_kinds(names: list[str]) -> dict[int, str]:
    """Which columns of a header hold secrets: a password's name (`password`), a PIN's (`pin`); a word that names a
    password in some languages and a code in others ("Clave", "Κωδικός", "Kata sandi") beside a login column."""
    kinds = {k: "password" for k, name in enumerate(names) if _secret_header(name)}
    kinds.update({k: "pin" for k, name in enumerate(names) if _pin_header(name)})
    if any(_login_header(name) for name in names):
        kinds.update({k: "password" for k, name in enumerate(names) if k not in kinds and
                      any(w.startswith(_AMBIGUOUS_PASSWORDS) for w in _header_words(name)[-1:])})
    return kinds if len(kinds) < len(names) else {}


def _cell_secret(value: str, kind: str) -> bool:
    """A cell's value in a secret column: one token (no words, no link), shaped like a secret; in a PIN's column
    four to eight digits too."""
    if not value or "://" in value or any(c.isspace() for c in value):
        return False  # where the secret is kept (`vault://…`, `op://…`), or words about it
    if kind == "pin" and value.isdigit():
        return 4 <= len(value) <= 8 and len(set(value)) > 1
    return is_secret_value(value, quoted=True)


def _read_table(text: str, header: list[tuple[int, int]], rows: Iterable[list[tuple[int, int]]]) -> Iterator[_Span]:
    """The secrets in `rows` (cells as spans of `text`) under the columns of `header` that name one."""
    kinds = _column_kinds([text[a:b] for a, b in header])
    for row in rows if kinds else ():
        for k, kind in kinds.items():
            a, b = row[k]
            if _cell_secret(text[a:b], kind):
                yield a, b, kind


def _lines(text: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


def _tables(text: str) -> Iterator[_Span]:
    lines = _lines(text)
    for i, (start, header) in enumerate(lines[:-1]):
        for sep in ("|", "\t", ",", ";", "  "):
            cells = _cells(header, sep)
            if cells is None or len(cells) < 2 or not all(_COLUMN_NAME.fullmatch(header[a:b]) for a, b in cells):
                continue
            yield from _read_table(text, [(start + a, start + b) for a, b in cells], _rows(lines[i + 1:], sep, len(cells)))
            break  # a header is read in the first layout that splits it


def _rows(lines: list[tuple[int, str]], sep: str, width: int) -> Iterator[list[tuple[int, int]]]:
    """The rows under a header, as spans of the text, while they have its number of cells."""
    for at, row in lines[:_MAX_ROWS]:
        if sep == "|" and _MD_RULE.fullmatch(row):
            continue
        spans = _cells(row, sep)
        if spans is None or len(spans) != width:
            return
        yield [(at + a, at + b) for a, b in spans]


# An HTML table: its rows, and each row's cells (`<th>` or `<td>`), the first row naming the columns.
_HTML_TABLE = re.compile(r"(?is)<table\b.*?</table\s*>")
_HTML_ROW = re.compile(r"(?is)<tr\b[^>]*>(.*?)</tr\s*>")
_HTML_CELL = re.compile(r"(?is)<t([hd])\b[^>]*>(.*?)</t\1\s*>")


def _html_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    for m in _HTML_CELL.finditer(text, start, end):
        a, b = m.span(2)
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        out.append((a, b))
    return out


def _html_tables(text: str) -> Iterator[_Span]:
    for table in _HTML_TABLE.finditer(text):
        rows = [_html_cells(text, *row.span(1)) for row in _HTML_ROW.finditer(text, *table.span())]
        if len(rows) > 1 and len(rows[0]) > 1 and all(_COLUMN_NAME.fullmatch(text[a:b]) for a, b in rows[0]):
            yield from _read_table(text, rows[0], (row for row in rows[1:_MAX_ROWS] if len(row) == len(rows[0])))


# A line of two cells, a name and its value: `password    Kx…` (a CLI's key/value table), `| Password | Kx… |`,
# `requirepass Kx…` (a config file's directive).
_PAIR_LINE = re.compile(r"(?m)^[ \t]*(?:\|[ \t]*)?(?P<name>[^\W\d][\w.-]{1,40})(?:[ \t]*\|[ \t]*|[ \t]+)[\"'`]?"
                        r"(?P<v>[^\s\"'`|]{6,128})[\"'`]?[ \t]*\|?[ \t]*;?[ \t]*$")


def _pair_lines(text: str) -> Iterator[_Span]:
    for m in _PAIR_LINE.finditer(text):
        if is_secret_name(m.group("name")) and is_secret_value(m.group("v"), quoted=False):
            yield m.start("v"), m.end("v"), "password"


# A name and its value given as two fields of one object: Kubernetes' and ECS's `- name: DB_PASSWORD` / `value: …`,
# CloudFormation's `ParameterKey` / `ParameterValue`, `{"key": "API_TOKEN", "value": "…"}`; or the name as the key of
# an object that holds the value field (`terraform output -json`: `"db_pw": {"sensitive": true, "value": "…"}`).
_NAME_FIELD = re.compile(r"""\b(?:name|key|Name|Key|ParameterKey|variable)["']?[ \t]*[:=][ \t]*["']?"""
                         r"""(?P<name>[A-Za-z_][\w.-]{1,60})["']?|["'](?P<obj>[A-Za-z_][\w.-]{1,60})["'][ \t]*:[ \t]*\{""")
_VALUE_FIELD = re.compile(r"""\b(?:value|Value|ParameterValue)["']?[ \t]*[:=][ \t]*"""
                          r"""(?:(?P<q>["'])(?P<v>[^"'\n]{1,200})(?P=q)|(?P<v2>[^\s,;}\]"']{1,200}))""")
_FIELD_REACH = 160  # characters after a name field its value field may start


def _name_value_fields(text: str) -> Iterator[_Span]:
    names = list(_NAME_FIELD.finditer(text))
    for k, m in enumerate(names):
        if not is_secret_name(m.group("name") or m.group("obj")):
            continue
        stop = min(m.end() + _FIELD_REACH, names[k + 1].start() if k + 1 < len(names) else len(text))
        v = _VALUE_FIELD.search(text, m.end(), stop)
        if v is None:
            continue
        group = "v" if v.group("v") is not None else "v2"
        if is_secret_value(v.group(group), quoted=group == "v"):
            yield v.start(group), v.end(group), "password"


# A command that prints a secret, then what it printed alone on the next line: `heroku auth:token`,
# `gcloud auth print-access-token`, `aws configure get aws_secret_access_key`, `$ echo $API_TOKEN`. A command is a line
# after a prompt, or one whose argument names a secret in a command's spelling (`auth:token`, `print-access-token`).
_COMMAND_OUTPUT = re.compile(r"(?m)^[ \t]*(?P<prompt>(?:[$#%>❯][ \t]+|PS [^>\n]{0,80}>[ \t]*))?(?P<cmd>[A-Za-z.~/][^\n]{1,200})\n"
                             r"[ \t]*(?P<v>[^\s]{16,512})[ \t]*$")
_CMD_PIECE = re.compile(r"[=:/\s'\"$]+")
_PRINTED = re.compile(r"[A-Za-z0-9._~+/-]+={0,2}")  # what a command prints as a token: no `=` inside, no link
# Words that make a command print something about a secret other than its value: its id, name, size, date, digest.
_ABOUT_SECRET = frozenset({"uid", "id", "ids", "name", "names", "metadata", "hash", "digest", "sha", "version", "type",
                           "count", "length", "expiry", "expires", "created", "age", "ttl", "labels", "annotations"})


def _command_output(text: str) -> Iterator[_Span]:
    for m in _COMMAND_OUTPUT.finditer(text):
        words = m.group("cmd").split()
        if m.group("prompt"):
            pieces = [p for w in words for p in _CMD_PIECE.split(w) if p]
        else:  # no prompt: an argument spelt as a command's (`auth:token`, `print-access-token`), not a sentence's words
            pieces = [p for w in words[1:] if re.search(r"[\w][:_-][\w]", w) for p in _CMD_PIECE.split(w) if p]
        value = m.group("v")
        if not _PRINTED.fullmatch(value) or "//" in value:
            continue  # an assignment or a link on the next line is another line of a file, not what was printed
        if _ABOUT_SECRET.intersection(w.lower() for w in re.findall(r"[A-Za-z]+", m.group("cmd"))):
            continue  # `kubectl get secret db -o jsonpath='{.metadata.uid}'` prints an id
        if any(is_secret_name(p.lstrip("-")) for p in pieces) and any(c.isdigit() for c in value) and \
                any(c.isalpha() for c in value) and is_secret_value(value, quoted=True):
            yield m.start("v"), m.end("v"), "password"


# ------------------------------------------------------------------ statements

# SQL: `CREATE USER … IDENTIFIED BY '…'` (MySQL, Oracle: quoted or not), `IDENTIFIED WITH plugin BY '…'`,
# `CREATE ROLE … WITH LOGIN PASSWORD '…'`, `ALTER USER … ENCRYPTED PASSWORD '…'` (PostgreSQL).
# (Matched where the keyword stands in the text with its ASCII capitals lowered; the values are taken from the text.)
_SQL = (("identified", re.compile(r"identified(?:\s+with\s+['\"]?[\w-]+['\"]?)?\s+by(?:\s+password)?\s+"
                                  r"(?:(?P<q>['\"])(?P<v>[^'\"\n]{1,128})(?P=q)|(?P<v2>[^\s;'\",)]{1,128}))")),
        ("password", re.compile(r"password\s+(?P<q>['\"])(?P<v>[^'\"\n]{1,128})(?P=q)")))


def _statements(text: str) -> Iterator[_Span]:
    low = text.translate(_ASCII_LOWER)
    for word, pattern in _SQL:
        at = low.find(word)
        while at != -1:
            m = None if at and (low[at - 1].isalnum() or low[at - 1] in "_.$") else pattern.match(low, at)
            if m is not None:
                group = "v" if m.group("v") is not None else "v2"
                start, end = m.span(group)
                if is_secret_value(text[start:end], quoted=group == "v"):
                    yield start, end, "password"
            at = low.find(word, at + 1)


# ------------------------------------------------------------------ positions

# A call whose name holds a credential word (found first: most calls are not), then its arguments.
# (Matched on the text with its ASCII capitals lowered, which keeps every offset: a case-insensitive alternation tried
# at every position of a long text was most of this reader's cost.)
# A call named for the secret itself (`set_password`, `decrypt`, `unlock`, `ConvertTo-SecureString`) takes it alone;
# a call named for a sign-in takes it after a user.
_CALL = re.compile(r"(?:(?P<own>password|passwd|passphrase|secret|decrypt|unlock|securestring)|connect|login|logon|sign_?in|"
                   r"auth|credential|client|session|smtp|ftp|pdo|mysqli|bind)[\w.:]*(?:\s*\(|(?<=securestring)\s)"
                   r"(?P<args>[^()\n]{3,400})(?:\)|\s-)")

_LITERAL = re.compile(r"""(?P<q>["'])(?P<v>(?:[^"'\\\n]|\\.){1,128})(?P=q)""")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NOT_IN_PASSWORD = re.compile(r"[\s/:=;,(){}\[\]<>]")
_USER = re.compile(r"[^\s=;,(){}\[\]<>]{1,64}")
# `user:password@` with no scheme before it, then a host and a path or Go's `tcp(…)`: `root:…@tcp(10.0.3.7:3306)/db`,
# also as a printed struct's field (`{DSN:shop:…@tcp(…)/shop …}`, Go's `%+v`).
_DSN = re.compile(r"""(?<![^\s"'`=(,{:])[A-Za-z_][\w.-]{0,63}:(?P<v>[^\s"'`/]{3,128}?)@(?=(?:tcp|udp|unix)\(|"""
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
    for m in _CALL.finditer(text.translate(_ASCII_LOWER)):
        literals = list(_LITERAL.finditer(text, m.start("args"), m.end("args")))
        if m.group("own"):
            yield from ((x.start("v"), x.end("v"), "password") for x in literals if password_shaped(x.group("v")))
            continue
        for user, secret in zip(literals, literals[1:]):
            if _USER.fullmatch(user.group("v")) and password_shaped(secret.group("v")):
                yield secret.start("v"), secret.end("v"), "password"


_USERINFO = re.compile(r"""\w:[^\s"'`/]{3,128}?@""")  # the cheap part of a DSN, searched for first


def _dsns(text: str) -> Iterator[_Span]:
    if _USERINFO.search(text) is None:
        return
    for m in _DSN.finditer(text):
        if is_secret_value(m.group("v"), quoted=True):
            yield m.start("v"), m.end("v"), "password"


# ------------------------------------------------------------------ entry point

_TABLE_HINTS = frozenset({*(h for h in _NAME_HINTS if (len(h) > 2 or h == "pw") and (h.isalpha() or not h.isascii())),
                          *_PIN_WORDS, "pin", "passcode", "digicode", "code", *_AMBIGUOUS_PASSWORDS, *_UNSPACED_PASSWORDS})
_SQL_HINTS = frozenset({"identified", "password"})
_CALL_HINTS = frozenset({"connect", "login", "logon", "signin", "sign_in", "auth", "credential", "client", "session", "smtp",
                         "ftp", "pdo", "mysqli", "bind", "password", "passwd", "passphrase", "secret", "decrypt", "unlock",
                         "securestring"})
HINTS = tuple(sorted(_TABLE_HINTS | _SQL_HINTS | _CALL_HINTS | {"@"}))


def find(text: str, present: set[str] | None = None) -> list[_Span]:
    """Spans of secrets laid out in tables, fields, command output, SQL statements, credential calls' positions and
    scheme-less DSNs; none in a text about a test double (assignments.about_test_double).
    `present` is the set of `HINTS` the text holds, when the caller has it."""
    if about_test_double(text):
        return []
    low = text.lower()
    hints = present if present is not None else {h for h in HINTS if h in low}
    out: list[_Span] = []
    if not hints.isdisjoint(_TABLE_HINTS):
        if "\n" in text:
            out += _tables(text)
            out += _command_output(text)
        if "<t" in low:
            out += _html_tables(text)
        if "value" in low:
            out += _name_value_fields(text)
        out += _pair_lines(text)
    if not hints.isdisjoint(_SQL_HINTS):
        out += _statements(text)
    if not hints.isdisjoint(_CALL_HINTS):
        out += _calls(text)
    if ":" in text and "@" in text:
        out += _dsns(text)
    return out
