"""Values shaped like a secret that are not one: published examples, masked values, public keys by design.

The secret screen's rules find a value by its shape or its label; some such values grant nothing:

* **published examples**: the values vendors print in their docs (AWS's `…EXAMPLE` keys, Stripe's quickstart keys,
  the Bot API's and jwt.io's sample tokens, the storage emulator's well-known key), found in tutorials and READMEs;
  only the value itself, as a whole token (a value edited from one, `…EXAMPLEKEY9`, is someone's);
* **templates in any language**: a vendor's prefix, then words only, one of them a word a template writes for its
  reader's own value ("your", "here": `xoxb-your-token-here`, `xoxb-tu-token-aquí`, `dein-token-hier`;
  engram.safety.secret_words.PLACEHOLDER_WORDS);
* **masked values**: a dashboard's or a log's redaction (`sk-proj-****…Xq2w`, `ghp_••••…7fQz`);
* **key ids**: an OpenPGP key's id or fingerprint (8, 16 or 40 hex digits in capitals, as GnuPG prints them) named as a
  signing key (git's `user.signingkey`, `--default-key`): it names a key and grants nothing;
* **public keys by design**: keys a vendor documents as safe to ship to a browser (Stripe `pk_`, Mapbox `pk.`,
  PostHog `phc_`), and JSON Web Tokens whose claims say they are public or a demo (Supabase's `anon` role, an issuer
  named `…-demo`, jwt.io's sample subject).

`stand_in(text, start, end)` says whether the value found at `text[start:end]` is one of these; engram.safety.secrets
drops such findings.
"""

from __future__ import annotations

import base64
import binascii
import json
import re

from engram.safety.secret_words import PLACEHOLDER_WORDS

__all__ = ["PUBLISHED", "stand_in", "template_words"]

# Sample values printed in vendors' documentation (each is an example there, not anyone's credential).
PUBLISHED: frozenset[str] = frozenset({
    "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",  # AWS docs
    "AKIAI44QH8DHBEXAMPLE", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "pk_test_TYooMQauvdEDq54NiTphI7jx",  # Stripe API reference
    "sk_test_BQokikJOvBiI2HlWgH4olfQ2", "pk_test_6pRNASCoBOKtIshFeQd4XMUh", "sk_test_26PHem9AhJZvU623DfE1x4sd",
    "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",  # Telegram Bot API
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",  # Azurite, devstoreaccount1
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",  # GitHub docs
    "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",  # Slack API docs
    "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",  # Google Maps docs
    "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",  # Mailgun docs
    "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",  # Discord developer docs
})
_PUBLISHED_HEADS = tuple(sorted({v[:6] for v in PUBLISHED}))
# A mask: four or more stars, bullets or middle dots.
_KEY_CHAR = re.compile(r"[A-Za-z0-9/+_-]")  # a character that would make a published value part of a longer token
_MASK = re.compile(r"[*•●·]{4,}")
# Keys documented as public: Stripe publishable keys, Mapbox public tokens, PostHog project keys.
_PUBLIC_PREFIX = re.compile(r"""["'`]?(?:pk_(?:live|test)_|pk\.eyJ|phc_)""")
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.(eyJ[A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]*")


def _claims(token: str) -> dict[str, object]:
    """The payload of a JSON Web Token (empty when it does not decode)."""
    m = _JWT.search(token)
    if m is None:
        return {}
    body = m.group(1)
    try:
        data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _public_jwt(token: str) -> bool:
    """A token whose claims say it is public (Supabase's `anon` role) or a sample (a demo issuer, jwt.io's subject)."""
    claims = _claims(token)
    issuer = str(claims.get("iss", "")).lower()
    return claims.get("role") == "anon" or issuer.endswith("-demo") or \
        (claims.get("sub") == "1234567890" and claims.get("name") == "John Doe")


def _published_at(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` overlaps a published example value."""
    if not any(h in text for h in _PUBLISHED_HEADS):
        return False
    for value in PUBLISHED:
        at = text.find(value)
        while at >= 0:
            after = at + len(value)
            whole = not (at > 0 and _KEY_CHAR.match(text, at - 1)) and not _KEY_CHAR.match(text, after)
            if whole and at < end and start < after:
                return True
            at = text.find(value, at + 1)
    return False


_PART = re.compile(r"[^\W\d_]+|[^-_.\s]+")


def template_words(token: str) -> bool:
    """Whether `token` after its first part (a vendor's prefix) is words only, one of them a template's word for the
    reader's own value in some language (`xoxb-tu-token-aquí`, `sk-dein-schluessel-hier`)."""
    parts = _PART.findall(token)[1:]
    return len(parts) >= 2 and all(p.isalpha() for p in parts) and \
        any(p.lower() in PLACEHOLDER_WORDS for p in parts)


_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_.-]")


def _token_around(text: str, start: int, end: int) -> str:
    """`text[start:end]` widened to the whole token of key characters around it (a rule may find part of one)."""
    while start > 0 and _TOKEN_CHAR.match(text, start - 1):
        start -= 1
    while end < len(text) and _TOKEN_CHAR.match(text, end):
        end += 1
    return text[start:end]


_KEY_ID = re.compile(r"[0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40}")
_KEY_ID_LABEL = re.compile(r"(?i)signing[ _-]?key|default[ _-]key|local[ _-]user|key[ _-]?id|gpg|pgp|fingerprint")


def _key_id(text: str, start: int, value: str) -> bool:
    """An OpenPGP key id or fingerprint after a label that names a signing key (`user.signingkey = 3AA5C343…`)."""
    if _KEY_ID.fullmatch(value) is None:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return _KEY_ID_LABEL.search(text, max(line_start, start - 40), start) is not None


def stand_in(text: str, start: int, end: int) -> bool:
    """Whether the value found at `text[start:end]` stands for a secret without being one (see the module doc)."""
    value = text[start:end]
    if _MASK.search(value) or _PUBLIC_PREFIX.match(value) or _key_id(text, start, value):
        return True
    token = _token_around(text, start, end) if "\n" not in value else value
    if _PUBLIC_PREFIX.match(token) or ("eyJ" in token and _public_jwt(token)):
        return True
    return _published_at(text, start, end)
