"""Secrets assigned in code and config: `KEY = '…'`, `.env` lines, JSON / YAML keys, keyword arguments.

A hit needs two things, each checked on its own:

* **a name that holds a secret**: one of its parts (split at `_ - .` and camelCase) is a secret
  word (password, passwd, pwd, pass, secret, token, apikey, api key, credential, private key,
  access key, client secret, auth) or ends in one (`PGPASSWORD`), and no part says it is something else: a hash or digest
  (`password_hash`, `hashed_password`), a length, type, policy, field, column, label, prompt,
  file or path (`max_token_length`, `token_type`, `password_field`);
* **a value that is a literal secret**: not code (a call, an attribute, a subscript, a variable
  name, `generate_password_hash(…)`, `os.environ[…]`, `settings.SECRET_KEY`), not a placeholder
  (`your-api-key-here`, `${API_KEY}`, `{{ vault_pw }}`, `<password>`, `****`, `changeme`,
  `sk-...`, `!vault`), not a hash output (`pbkdf2:sha256:…`, `$2b$…`, `$argon2id$…`) and not a
  word (`testpassword`, `hunter`, `secure_password123`: the password word and words describing it); it has a digit, a symbol or inner capitals, or is long and random.

`find(text)` gives (start, end, kind) spans of the values; engram.safety.secrets runs it with its rules.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter

from engram.safety.prose_words import AMBIGUOUS, LOCK_STEMS, PASSWORD_STEMS, TECH_WORDS
from engram.safety.secret_words import CODE_WORDS
from engram.safety.views import strip_accents

__all__ = ["ATTRIBUTE_WORDS", "HINTS", "find", "is_path", "is_placeholder_or_hash", "is_secret_name", "is_secret_value", "is_state",
           "names_something_else", "runs_a_command"]

# An assignment: a (possibly quoted, possibly subscripted: `cfg['PASSWORD'] = …`) name, `=`, `:`, `:=`, `=>`, then a quoted or bare value.
_ASSIGN = re.compile(
    r"""(?P<nq>["']?)(?P<name>[^\W\d][\w.-]{1,60})(?P=nq)\]?[ \t]*(?::=|=>|[:=])[ \t]*"""
    r"""(?:[bBrRuU]{0,2}(?P<q>["'`])(?P<v>[^"'`\n]{1,200})(?P=q)|(?P<v2>[^\s"'`,;)}\]]{1,200}))"""
)
_SECRET_PARTS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "secret", "token", "apikey", "credential",
                           "psk", "presharedkey",
                           "credentials", "auth", "pw", "bearer",
                           # the word for a password in other languages, as config keys spell it (ASCII)
                           "passwort", "kennwort", "contrasena", "contrasenya", "senha", "wachtwoord", "haslo", "heslo",
                           "parola", "sifre", "losenord", "passord", "adgangskode", "salasana", "jelszo", "geslo",
                           "lozinka", "parool", "motdepasse", "parol", "hasło", "mima", "matkhau"})  # ł keeps its stroke without accents
# Words that make "<word> key" a secret key (`hmac_key`, `X-Client-Key`, `storage_key`); a key of other words
# (`primary_key`, `sort_key`, `cache_key`, `public_key`) is an index, a lookup or a key meant to be shared.
_KEY_QUALIFIERS = frozenset({"api", "private", "access", "secret", "signing", "sign", "encryption", "decryption", "preshared",
                             "shared", "master", "account", "client", "consumer", "hmac", "mac", "aes", "crypto", "cipher",
                             "session", "app", "application", "auth", "webhook", "jwt", "cookie", "license",
                             "licence", "service", "admin", "root", "deploy", "subscription", "integration", "server",
                             "instance", "write", "ingest", "management", "unseal", "recovery", "wallet", "vault", "kms",
                             "fernet"})
_SECRET_PAIRS = frozenset({*((q, "key") for q in _KEY_QUALIFIERS), ("client", "secret"),
                           ("de", "passe")})  # `mot_de_passe`, `motDePasse`
# Parts that say the name holds something other than the secret itself.
_OTHER_PARTS = frozenset({"hash", "hashed", "hashes", "hasher", "hashers", "digest", "salt", "length", "len", "min", "max",
                          "type", "types", "policy", "field", "fields", "column", "label", "prompt", "placeholder",
                          "file", "path", "dir", "url", "uri", "endpoint", "name", "names", "id", "count", "expiry",
                          "expires", "ttl", "timeout", "header", "regex", "pattern", "strength", "validator", "validators",
                          "form", "input", "manager", "required", "enabled", "disabled", "changed", "rotation", "env",
                          "var", "limit", "limits", "size", "encoding", "format", "mode", "class", "hint", "help", "error",
                          "errors", "message", "confirm", "confirmation", "reset", "generator", "store", "storage",
                          "source", "provider", "scheme", "usage", "expiration", "at", "by", "dummy", "fake",
                          "test", "example", "sample", "mock", "stdin", "ask", "no", "from", "public", "pub"})
# Words that make a phrase about a password's attributes, not the password: "password hashing in Django is
# PBKDF2", "the password policy at work is NIST800-63". The prose rules of engram.safety.secrets read this too.
ATTRIBUTE_WORDS = frozenset({"hash", "hashes", "hashed", "hashing", "hasher", "algorithm", "algorithms", "algo", "format",
                             "formats", "storage", "policy", "policies", "length", "strength", "complexity", "requirement",
                             "requirements", "rule", "rules", "field", "column", "type", "manager", "managers", "hint",
                             "lifetime", "expiry", "expiration", "rotation", "history", "scheme", "validation",
                             "validator", "regex", "pattern", "encoding", "salt", "digest", "kdf", "standard", "entropy",
                             "attempts", "limit", "minimum", "maximum", "reuse", "spraying", "cracking", "reset", "flow",
                             "page", "screen", "form", "dialog", "prompt", "step", "recovery"})
_PASSWORD_PARTS = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "pw", "passe"}) | \
    (_SECRET_PARTS - {"secret", "token", "apikey", "credential", "credentials", "auth", "bearer", "psk", "presharedkey"})
_GLUED = ("password", "passwd", "passphrase", "secret", "token", "apikey", "pass")  # `requirepass`, `PGPASS`
# Words that end in "pass" and hold no password.
_NOT_GLUED = frozenset({"bypass", "compass", "encompass", "overpass", "underpass", "surpass", "trespass", "impass",
                        "subpass", "renderpass", "multipass", "firstpass", "onepass", "seasonpass", "boardingpass"})
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _lexicon_stems() -> tuple[tuple[str, int], ...]:
    """The password words of every language (engram.safety.prose_words), as a config key spells them: one word, no
    accents, lower case (`salasana`, `lozinka`, `пароль`), with the letters an inflection may add."""
    out = {(strip_accents(stem).lower(), extra) for stem, extra in PASSWORD_STEMS if " " not in stem and "-" not in stem}
    return tuple(sorted((s, e) for s, e in out if (len(s) >= 4 or not s.isascii()) and not s.startswith(AMBIGUOUS)))


_LEXICON = _lexicon_stems()
_LEXICON_HEADS = tuple(s for s, _ in _LEXICON)


HINTS = ("pass", "pwd", "pw", "secret", "token", "key", "credential", "auth", "psk", "-p", "-a", "-u", "--user", "login",
         "code", "otp", "kod", "kode", "koodi", "codice", "codigo", "pin",  # a code's name (`_code_kind`)
         "/p:", "/user:",
         "-w", "%", "client(", "connect(", "new ",
         # every secret part of a name is a hint too (`SENHA_BANCO=…`, `DB_PAROL=…` hold none of the above),
         # and those words as their languages write them (a name's parts are read without accents)
         *sorted(_SECRET_PARTS), "contraseña", "şifre", "lösenord", "jelszó", "psw",
         # the password words of every language, as written and without accents
         *sorted({s.lower() for s, _ in PASSWORD_STEMS if " " not in s and "-" not in s}), *_LEXICON_HEADS)


def _parts(name: str) -> list[str]:
    return [p for p in re.split(r"[_.\-]+", _CAMEL.sub("_", strip_accents(name)).lower()) if p]


def _abbreviates_password(part: str) -> bool:
    """`pswd`, `passw`, `pwrd`, `pword`: "password" written short by dropping letters (its first letter, a `w`, and the
    rest in order); of three letters or fewer only `pw`, `pwd`, `psw`."""
    if part in ("pw", "pwd", "psw"):
        return True
    if len(part) < 4 or not part.startswith("p") or "w" not in part:
        return False  # `pwr` is power
    letters = iter("assword")
    return all(c in letters for c in part[1:])


def _password_word(part: str) -> bool:
    """A part that is a word for a password in some language, or "password" shortened."""
    if _abbreviates_password(part):
        return True
    if not part.startswith(_LEXICON_HEADS):
        return False
    return any(part.startswith(s) and len(part) - len(s) <= extra for s, extra in _LEXICON)


def names_something_else(name: str) -> bool:
    """Whether a part of `name` says it holds something other than a secret: a hash, a length, a file, an id
    (`password_hash`, `token_ttl`, `PRIVATE_TOKEN_HASH`)."""
    return _names_other(_parts(name))


def _names_other(parts: list[str]) -> bool:
    return any(p in _OTHER_PARTS for p in parts)


def _secret_part(part: str) -> bool:
    return part in _SECRET_PARTS or (part.endswith(_GLUED) and part not in _NOT_GLUED) or _password_word(part)


def is_secret_name(name: str, *, head: bool = False) -> bool:
    """`DB_PASSWORD`, `apiKey`, `client_secret`, `smtp_pswd`, `hmac_key`, `salasana` hold a secret; `password_hash`,
    `token_type`, `primary_key` do not. With `head`, the secret word must end the name (a table's column "login
    password", not "secret caught")."""
    parts = _parts(name)
    if not parts or _names_other(parts):
        return False
    if head:
        return _secret_part(parts[-1]) or (len(parts) > 1 and (parts[-2], parts[-1]) in _SECRET_PAIRS)
    if any(_secret_part(p) for p in parts):  # `PGPASSWORD`, `rootpassword`, `ghtoken`, `pswd`
        return True
    return any(pair in _SECRET_PAIRS for pair in zip(parts, parts[1:]))


# Words a placeholder is made of; the second line says the value was withheld (kubectl's `DATA+OMITTED`, `<hidden>`).
_PLACEHOLDER_WORDS = re.compile(r"your|example|sample|dummy|placeholder|changeme|change[_-]?me|redacted|replace|"
                                r"here|xxx|todo|fixme|secret|password|passwd|token|test|fake|demo|default|insert|"
                                r"enter|none|null|empty|lorem|"
                                r"omitted|withheld|elided|scrubbed|censored|obfuscated|masked|hidden|saniti[sz]ed", re.IGNORECASE)
_FILLER_WORDS = re.compile(r"api|key|app|my|the|an?|value|string|of|for|to|goes|put|with|and|or|new|old|pass|pw|pwd|db|user|"
                           r"secure|strong|super|safe", re.IGNORECASE)
# `!Ref Name`, `!vault |`: a YAML tag (letters only), then what it reads; `!Bluebird9231` is a password. `${sys.env(`: an
# interpolation cut short by a quote inside it.
_TEMPLATE = re.compile(r"^(?:\$\{?[\w.:-]+\}?|\$\{.*|\{\{.*\}\}|\{%.*%\}|<[^>]*>|\[[^\]]*\]|%\(?\w*\)?[sd]|\{\w*\}|"
                       r"![A-Za-z][A-Za-z:]*(?:\s.*)?|"
                       r"[*x•.#?_-]{3,}|\w+-\.\.\.|\w*\.\.\.)$", re.IGNORECASE)
_HASH_OUTPUT = re.compile(r"^(?:pbkdf2[:_$]|\$2[abxy]?\$|\$argon2|\$scrypt|\$[156]\$|\$apr1\$|\$y\$|\$gy\$|\{S?SHA\d*\}|"
                          r"scrypt:|sha(?:1|256|384|512)[:$-]|"
                          r"bcrypt[:$]|md5[:$])", re.IGNORECASE)
# Code, not a literal: a call, attribute, subscript or a bare identifier (a variable).
_CODE = re.compile(r"^[A-Za-z_][\w.]*(?:\(.*\)?|\[.*\]?)?$|^\w+\(|^[({\[]|.*\)$")


# A file path: `/root/.smbcred`, `~/.config/app/token`, `./secrets/db.txt`, `C:\\keys\\app.pem`.
_PATH = re.compile(r"^(?:~|\.{1,2})?/(?:[\w.-]+/)*\.?[A-Za-z][\w.-]*/?$|^[A-Za-z]:\\(?:[\w. -]+\\)*[\w. -]+$")


# A reference to where a secret is kept: a secret store's URI (1Password `op://…`, `vault://…`, AWS and GCP secret
# managers, Azure Key Vault, Doppler, Infisical, SOPS, Bitwarden) or an AWS ARN.
_REFERENCE = re.compile(r"^(?:(?:op|vault|awssm|aws-sm|ssm|gcpsm|gcp-sm|azkv|akv|keyvault|doppler|infisical|sops|bw|"
                        r"secrets?|kv)://[^\s@]+|arn:aws[\w-]*:[\w-]+:[\w-]*:\d*:\S+)$")


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values()) if n else 0.0


def _machine_made(value: str) -> bool:
    """A long random token: 16+ characters of letters and digits (and `_-`), high entropy."""
    return re.fullmatch(r"[A-Za-z0-9_-]{16,}", value) is not None and any(c.isdigit() for c in value) and \
        any(c.isalpha() for c in value) and _entropy(value) >= 3.2


def is_placeholder_or_hash(value: str) -> bool:
    """A template (`${PW}`, `{{ pw }}`, `<password>`, `!vault`), a hash output (`pbkdf2:…`), a reference to where the
    secret is kept (`op://…`, an ARN), or a word made of placeholder words (`testpassword`, `your-token-here`)."""
    value = value.strip()
    if _TEMPLATE.match(value) or _HASH_OUTPUT.match(value) or _REFERENCE.match(value):
        return True
    letters_only = re.sub(r"[^A-Za-z]", "", value)
    if not _PLACEHOLDER_WORDS.search(value):
        return False
    if not any(c.isdigit() for c in value):
        return True  # words only: `wrongpassword`, `your-token-here`
    if not letters_only.islower():
        return False
    # With digits, only when made of placeholder words (and fillers such as "api", "my"): `password123`,
    # `test-token-1`. A placeholder word inside a real value (`hunter2-secret`) leaves other letters behind.
    rest = _FILLER_WORDS.sub("", _PLACEHOLDER_WORDS.sub("", letters_only.lower()))
    return len(rest) < 3


# Words for a secret's state: a value made of them (and a date) says what happened to the secret, not what it is
# (`Reset-required`, `rotated-2024Q2`, `expired_2023-11-02`).
_STATE_WORDS = frozenset({"set", "unset", "required", "stored", "managed", "saved", "kept", "rotated", "changed", "reset",
                          "expired", "expires", "revoked", "disabled", "enabled", "pending", "missing", "invalid", "empty",
                          "blank", "optional", "generated", "sent", "temporary", "temp", "none", "null", "unknown", "locked",
                          "unlocked", "needed", "needs", "must", "change", "rotate", "on", "at", "in", "since", "until"})
_LETTER_RUN = re.compile(r"[A-Za-z]{2,}")


def is_path(value: str) -> bool:
    """A file path (`/root/.smbcred`, `~/.ssh/id_ed25519`, `C:\\keys\\app.pem`): where a secret is kept, not the secret."""
    return _PATH.match(value.strip()) is not None


def is_state(value: str) -> bool:
    """A value whose words (runs of two letters or more) all say what state a secret is in."""
    runs = [r.lower() for r in _LETTER_RUN.findall(value)]
    return bool(runs) and all(r in _STATE_WORDS for r in runs)


_METHOD = re.compile(r"(?P<w>[a-z]+)-?\d{0,3}")


def _names_a_method(value: str) -> bool:
    """A lower-case technical word with a short number: an auth scheme, a cipher or a protocol named as a setting's value
    (`"auth": "oauth2"`, `hash = sha256`, `tls13`), not a secret (engram.safety.prose_words.TECH_WORDS)."""
    m = _METHOD.fullmatch(value)
    return m is not None and m.group("w") in TECH_WORDS


def is_secret_value(value: str, *, quoted: bool) -> bool:
    """A literal that looks like a secret, not code, a placeholder, a hash output, a word or a state."""
    value = value.strip()
    if len(value) < 6 or is_placeholder_or_hash(value) or value.startswith("[REDACTED:") or is_state(value):
        return False
    if not any(c.isdigit() for c in value) and any(ord(c) >= 0x2E80 for c in value):
        return False  # words of a script written without spaces and no digit: `業者管理（リコー）`, a note, not a password
    if is_path(value):
        return False  # `credentials=/root/.smbcred`: where the secret is kept, not the secret
    if not quoted and _CODE.match(value) and not any(c.isdigit() for c in value):
        return False  # `password = form_password`, `token=request.args.get('t')`
    if not quoted and ("(" in value or value.endswith(")")):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() and c not in " -_." for c in value)
    inner_upper = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    if " " in value.strip() and not (has_digit and has_symbol):
        return False  # a phrase ("not set yet", "see the vault")
    if value.replace(".", "").isdigit() and len(value) < 8:
        return False  # a port, a count, a version
    if re.fullmatch(r"v?\d+(?:\.\d+)+\w*", value):
        return False  # a version
    if value.lower() in ("true", "false", "yes", "no", "on", "off", "required", "optional") or _names_a_method(value):
        return False
    if has_symbol or inner_upper:
        return has_digit or len(value) >= 8
    return has_digit and (len(value) >= 10 or not value.isdigit()) and _entropy(value) >= 2.5


# A user and password passed as a pair: `auth=('admin', 'Mx9#pL2q')` (requests, httpx, aiohttp), `curl -u user:pass`.
_PAIR_ARG = re.compile(r"""\b(?:auth|basic_auth|credentials?|login)\s*=\s*[(\[]\s*["'][^"'\n]{1,64}["']\s*,\s*["'](?P<v>[^"'\n]{1,128})["']""")
_CURL_USER = re.compile(r"""(?<!\S)(?:-u|--user)\s+["']?[^\s:"']{1,64}:(?P<v>[^\s"']{1,128})""")
# A name and its value passed as a call's first two arguments: PHP `define('DB_PASSWORD', '…')`,
# `putenv`/`setenv`, `config.set('api_key', '…')`, `os.environ.setdefault("TOKEN", "…")`.
_NAME_VALUE_ARGS = re.compile(r"""\(\s*["'](?P<name>[A-Za-z_][\w.-]{1,60})["']\s*,\s*["'](?P<v>[^"'\n]{1,200})["']""")
# Credentials as a client's positional arguments: `Client('AC…', '<auth token>')` (Twilio), `BasicAuth("user", "…")`,
# `ftp.login('ci', '…')`: the second literal passed to a client, an auth object or a login call.
_CLIENT_ARGS = re.compile(r"""(?:\b[A-Z]\w*Client|\bClient|\b[A-Za-z]*Auth\w*|\blogin|\bauthenticate|\bconnect|\bnew\s+[A-Z]\w*)\("""
                          r"""\s*(?:["'][^"'\n]{1,64}["']|[A-Za-z_][\w.]{0,40})\s*,\s*["'](?P<v>[^"'\n]{6,128})["']""")
# Parameters of a URL's query or a connection string: `?user=app&password=…`, `;password=…` (JDBC, ODBC).
_QUERY_PARAM = re.compile(r"""[?&;](?P<name>[A-Za-z_][\w.-]{1,40})=(?P<v>[^&;#\s"'`]{1,200})""")
# A port, a port mapping or an address: what `-p` means to docker, ssh, nc and web servers.
_PORT_LIKE = re.compile(r"[\d.:\[\]]+(?:/(?:tcp|udp|sctp))?")
# A password on a command line: `redis-cli -a S3cure!`, `mysql -pS3cret`, `--password=…`, `--token …`.
# Any long flag whose name holds a secret (`--db-pswd`, `--private-token`, `--requirepass`, `--hmac-key`), read by
# `is_secret_name` like any other name; `-p` and `-a` as the short forms.
_FLAG = re.compile(r"""(?<![^\s"'=])(?:--(?P<name>[A-Za-z][\w-]{1,40})|-[pa])(?:=|\s+|(?<=-p)(?=\S))["']?(?P<v>[^\s"']{1,128})""")
# Windows' spelling of the same flags: `xfreerdp /p:…`, `/password:…` (not msbuild's `/p:Name=Value`, a property).
_WIN_FLAG = re.compile(r"""(?<!\S)/(?:p|pass|password|pwd):["']?(?P<v>[^\s"'=]{1,128})(?![^\s"'])""", re.IGNORECASE)


# Markup: `<password>…</password>` (Maven settings.xml, .NET config, plists with `<key>`/`<string>` aside),
# `<add key="ApiKey" value="…"/>`: an element or a key/value attribute pair whose name holds a secret.
_XML_ELEMENT = re.compile(r"<(?P<name>[A-Za-z_][\w.:-]{1,60})(?:\s[^<>]*)?>(?P<v>[^<>\n]{1,200})</(?P=name)\s*>")
_PLIST_PAIR = re.compile(r"<key>(?P<name>[^<>\n]{1,60})</key>\s*<string>(?P<v>[^<>\n]{1,200})</string>")  # a property list
_XML_KEY_VALUE = re.compile(r"""\b(?:key|name)\s*=\s*["'](?P<name>[^"'<>\n]{1,60})["']\s+value\s*=\s*["'](?P<v>[^"'\n]{1,200})["']""")
# `<property name="hibernate.connection.password">…</property>`: an element named by its `name` or `key` attribute.
_XML_NAMED = re.compile(r"""<(?P<tag>[A-Za-z_][\w.:-]{0,60})\s[^<>]*?\b(?:name|key)\s*=\s*["'](?P<name>[^"'<>\n]{1,60})["']"""
                        r"""[^<>]*>(?P<v>[^<>\n]{1,200})</(?P=tag)\s*>""")
# Where a variable's value is passed on as a secret: `password=mima`, `password: sifre`, `'password' => $pw`,
# `.setPassword(pw)` (`{var}` is the variable's name).
_PASSED_AS = r"""(?P<key>[A-Za-z_][\w.-]{{0,60}})["']?\s*(?:=>|[:=])\s*\$?{var}\b(?!\s*[(.\[])|""" \
             r"""\.(?P<call>[A-Za-z_]\w{{0,40}})\(\s*\$?{var}\s*[,)]"""

# Command-line tools whose password flag is not `-p` / `--password`: the tool, then its flag, then the value.
# One table: add a tool here.
_TOOL_FLAGS: tuple[tuple[str, str], ...] = (
    (r"ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)", r"-w"),  # OpenLDAP clients
    (r"sshpass", r"-p"), (r"zip", r"-P"), (r"7za?", r"-p"), (r"unrar|rar", r"-p"),
    (r"smbclient|rpcclient|smbmap|crackmapexec|netexec|nxc", r"-U\s*[^\s%]+%"),  # `-U user%password`
    (r"htpasswd", r"-b\w*\s+\S+\s+\S+"),  # `htpasswd -b file user password`
    (r"openssl", r"(?:-pass(?:in|out)?\s+pass:|-k)"), (r"mongo(?:sh|dump|restore|export|import)?", r"-p"),
    (r"net\s+use", r"/user:\S+"),  # `net use \\srv /user:dom\u <password>`
    (r"az(?:\s+login)?", r"(?:-p|--password)"), (r"wget", r"--(?:http-|ftp-)?password="),
    (r"sqlcmd|bcp|isql", r"-P"), (r"ssh-keygen", r"-[NP]"), (r"vncpasswd|x11vnc", r"-passwd"), (r"keytool", r"-(?:store|key)pass"),
)
_TOOL_FLAG = re.compile(r"(?<![\w-])(?:" + "|".join(f"(?:{t})\\b[^\\n|;&]*?(?<!\\S){f}" for t, f in _TOOL_FLAGS) + r")"
                        r"""(?:=|\s+|(?<=%)|(?<=:))?["']?(?P<v>[^\s"']{1,128})""")


# A text about a test double: the password it gives is the fixture's, not a person's or a service's.
_TEST_DOUBLE = re.compile(r"(?i)\b(?:fixtures?|mock(?:ed|s)?|fake|dummy|stub(?:bed|s)?|test\s+doubles?|conftest|"
                          r"unit\s+tests?|pytest|factory[_\s]boy)\b")


_FLAG_AFTER = re.compile(r"[ \t]+--?[A-Za-z]")


def runs_a_command(text: str, end: int, value: str) -> bool:
    """Whether an unquoted `value` ending at `end` is a command's name: no digit in it, a flag right after it on its
    line (`$pw = Read-Host -AsSecureString …`, `TOKEN=Get-Secret -Name …`)."""
    return not any(c.isdigit() for c in value) and _FLAG_AFTER.match(text, end) is not None


@functools.lru_cache(maxsize=8)
def about_test_double(text: str) -> bool:
    """Whether `text` says its credentials belong to a test double (a fixture, a mock, a fake server):
    then a password or key *name* with a literal is a fixture's, and only provider formats count.
    (Cached: every rule's validator asks it of the same text; searching a long text each time was quadratic.)"""
    return _TEST_DOUBLE.search(text) is not None


# A code's name: a word for a code with what it opens or how it was sent (`door_code`, `gateCode`, `alarm_pin`,
# `verification_code`, `otp`); its value is the code when it is four to eight digits.
_CODE_PARTS = frozenset(strip_accents(w).lower() for w in CODE_WORDS) | {"pin", "passcode", "tan"}
_OTP_PARTS = frozenset({"otp", "totp", "hotp", "2fa", "mfa"})
_SENT_PARTS = frozenset({"verification", "verify", "confirmation", "confirm", "onetime", "sms", "login", "signin",
                         "auth", "access", "security", "unlock", "disarm", "entry"})
_LOCK_PARTS = tuple(s for s in LOCK_STEMS if s.isascii() and len(s) >= 4 and s not in ("card", "carta", "carte", "kart"))


def _code_kind(name: str) -> str | None:
    """`pin` for a lock's code (`door_code`, `alarmPin`), `one_time_code` for a sent one (`otp`, `sms_code`), else None."""
    parts = _parts(name)
    if _OTP_PARTS.intersection(parts):
        return "one_time_code"
    if not _CODE_PARTS.intersection(parts) or _names_other(parts):
        return None
    if any(p.startswith(_LOCK_PARTS) for p in parts):
        return "pin"
    return "one_time_code" if _SENT_PARTS.intersection(parts) else None


def _digits_code(value: str) -> bool:
    """Four to eight digits, not one digit repeated."""
    value = value.strip()
    return value.isdigit() and 4 <= len(value) <= 8 and len(set(value)) > 1


def _kind(name: str) -> str:
    """`password` for a name that holds a password, `api_key` for any other secret name."""
    return "password" if any(p in _PASSWORD_PARTS or _password_word(p) for p in _parts(name)) else "api_key"


def _passed_on(text: str) -> list[tuple[int, int, str]]:
    """Literals kept in a variable whose name says nothing (`mima = "…"`, `const sifre = '…'`) and then passed on
    where a secret goes (`connect(password=mima)`): the use names what the value is."""
    out: list[tuple[int, int, str]] = []
    for m in _ASSIGN.finditer(text):
        if m.group("v") is None or is_secret_name(m.group("name")) or not is_secret_value(m.group("v"), quoted=True):
            continue
        uses = re.compile(_PASSED_AS.format(var=re.escape(m.group("name"))))
        for use in uses.finditer(text, m.end()):
            key = use.group("key") or use.group("call")
            if is_secret_name(key):
                out.append((m.start("v"), m.end("v"), _kind(key)))
                break
    return out


def find(text: str) -> list[tuple[int, int, str]]:
    """Spans of secret values assigned to secret names in `text` (kind `password` or `api_key`);
    none in a text about a test double (`about_test_double`)."""
    out: list[tuple[int, int, str]] = []
    if about_test_double(text):
        return out
    for pattern in (_PAIR_ARG, _CURL_USER, _FLAG, _WIN_FLAG, _TOOL_FLAG, _NAME_VALUE_ARGS, _CLIENT_ARGS, _QUERY_PARAM):
        for m in pattern.finditer(text):
            if pattern is _FLAG and (_PORT_LIKE.fullmatch(m.group("v").rstrip("`,.;:)")) or
                                     (m.group("name") is not None and not is_secret_name(m.group("name")))):
                continue  # `docker run -p 5432:5432`, `ssh -p 2222`: a port or a mapping, not a password; `--limit 5`
            if pattern is _CLIENT_ARGS and not _machine_made(m.group("v")):
                continue  # `new Date(y, "2024-01-01T00:00")`: a client's credential is a long random token
            if pattern in (_NAME_VALUE_ARGS, _QUERY_PARAM) and not is_secret_name(m.group("name")):
                continue
            if is_secret_value(m.group("v"), quoted=pattern in (_PAIR_ARG, _NAME_VALUE_ARGS, _CLIENT_ARGS)):
                out.append((m.start("v"), m.end("v"), "password"))
    out += _passed_on(text)
    for m in (*_ASSIGN.finditer(text), *_XML_ELEMENT.finditer(text), *_XML_KEY_VALUE.finditer(text),
              *_XML_NAMED.finditer(text), *_PLIST_PAIR.finditer(text)):
        name = m.group("name")
        group = "v" if m.group("v") is not None or "v2" not in m.re.groupindex else "v2"
        code = _code_kind(name)
        if code is not None and _digits_code(m.group(group)):
            out.append((m.start(group), m.end(group), code))
            continue
        if not is_secret_name(name):
            continue
        value = m.group(group)
        if not is_secret_value(value, quoted=group == "v") or (group == "v2" and runs_a_command(text, m.end(group), value)):
            continue
        out.append((m.start(group), m.end(group), _kind(name)))
    return out
