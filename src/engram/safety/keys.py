"""API keys for `engram serve`: each key is scoped to subjects; an admin key manages keys.

    ring = KeyRing(mem.store)
    token, key = ring.create(["user:1"], name="mobile app")   # `token` is shown once, never stored
    ring.authenticate(token).check("user:1")                    # ok
    ring.authenticate(token).check("user:2")                    # AccessDenied

Only the SHA-256 of a token is stored (store setting `apikey:<hash>`). Tokens are 256 random
bits, so a fast hash is enough: there is nothing to brute-force that a slow hash would protect.
A grant is a whole subject (`user:1`), or a prefix that ends at a separator followed by `*`
(`team:acme:*` reaches `team:acme:search` but not `team:acmecorp`; `team:*` reaches every `team:`
subject); `*` alone is every subject. A prefix that stops mid-name (`team:acme*`) is ambiguous and
refused when a key is created; keys made before that rule keep their old matching and are flagged
by `ApiKey.ambiguous` (`engram keys list` shows it). Admin keys may use every subject and create,
list and revoke keys.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from engram import validate
from engram.errors import AccessDenied, InvalidInput, NotFound

PREFIX = "apikey:"
TOKEN_PREFIX = "egk_"
SEPARATORS = (":", "/")  # where a prefix grant may end: `team:acme:*`, `repo:acme/*`
KIND = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


class SettingsStore(Protocol):
    """The part of a Store that keys need: its key/value settings."""

    def setting(self, key: str, value: str | None = None, *, delete: bool = False) -> str | None: ...

    def settings(self, prefix: str) -> dict[str, str]: ...


@dataclass(frozen=True)
class ApiKey:
    """A stored key: its public id, name, grants and role (never the token itself)."""

    id: str
    name: str = ""
    subjects: tuple[str, ...] = ()
    admin: bool = False
    created_at: float = 0.0

    def allows(self, subject: str) -> bool:
        """True when this key may read and change `subject`."""
        return self.admin or any(_grant_matches(grant, subject) for grant in self.subjects)

    def check(self, subject: str) -> str:
        """The subject if this key may use it; AccessDenied otherwise."""
        if not self.allows(subject):
            raise AccessDenied(f"this API key has no grant on subject {subject!r}; ask an admin for a key that has")
        return subject

    def require_admin(self) -> None:
        """AccessDenied unless this is an admin key."""
        if not self.admin:
            raise AccessDenied("managing API keys needs an admin key (`engram keys create --admin`)")

    def visible(self, counts: dict[str, int]) -> dict[str, int]:
        """The part of a subject listing this key may see, plus its exact grants (0 items if empty)."""
        seen = {name: n for name, n in counts.items() if self.allows(name)}
        for grant in self.subjects:
            if not grant.endswith("*"):
                seen.setdefault(grant, 0)
        return dict(sorted(seen.items()))

    @property
    def ambiguous(self) -> tuple[str, ...]:
        """Grants from before the separator rule (`team:acme*`): they still match as they did, but
        also reach subjects such as `team:acmecorp`; replace the key (docs/rest.md says how)."""
        return tuple(grant for grant in self.subjects if is_ambiguous(grant))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "subjects": list(self.subjects),
                               "admin": self.admin, "created_at": self.created_at}
        if self.ambiguous:
            out["ambiguous"] = list(self.ambiguous)
        return out


def is_ambiguous(grant: str) -> bool:
    """True for a prefix grant that does not end at a separator (`team:acme*`, `user*`)."""
    return grant != "*" and grant.endswith("*") and not grant[:-1].endswith(SEPARATORS)


def _grant_matches(grant: str, subject: str) -> bool:
    """Exact subjects match themselves; `prefix*` matches what starts with `prefix` (for a grant
    ending at a separator that is whole name parts; for an old ambiguous grant, as it always did)."""
    return subject.startswith(grant[:-1]) if grant.endswith("*") else subject == grant


def _grant(value: Any) -> str:
    """A new grant: `*`, a whole subject, or a prefix ending at a separator then `*`; anything else
    is refused with the grants that would do what was probably meant."""
    if not isinstance(value, str) or not value.endswith("*") or value == "*":
        return value if value == "*" else validate.subject(value)
    prefix = value[:-1]
    if is_ambiguous(value):
        name = prefix.rstrip(":/")
        meant = f"the subject itself ({name!r}) and/or everything under it ({name + ':*'!r})" if ":" in name \
            else f"every subject of that kind ({name + ':*'!r})"
        raise InvalidInput(f"grant {value!r} is ambiguous: a prefix must end at ':' or '/', or it also reaches "
                           f"subjects such as {name + 'corp'!r}; grant {meant}")
    head = prefix[:-1]
    if "*" in head or not (KIND.fullmatch(head) if ":" not in head else validate.is_subject(head)):
        raise InvalidInput(f"grant {value!r} is not a subject prefix: give 'kind:*' (e.g. 'team:*') or "
                           f"'kind:name:*' (e.g. 'team:acme:*')")
    return value


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class KeyRing:
    """Create, check, list and revoke API keys kept in a store's settings."""

    def __init__(self, store: SettingsStore) -> None:
        self.store = store

    def create(self, subjects: Iterable[str] = (), *, admin: bool = False, name: str = "",
               now: float | None = None) -> tuple[str, ApiKey]:
        """A new key: returns (token, ApiKey). The token is not stored; show it once."""
        if isinstance(subjects, str):
            subjects = [subjects]
        grants = tuple(dict.fromkeys(_grant(s) for s in subjects))
        if not grants and not admin:
            raise InvalidInput("a key needs at least one subject (e.g. 'user:42'), or must be an admin key")
        if not isinstance(name, str) or len(name) > 200:
            raise InvalidInput("key name must be a string of at most 200 characters")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        digest = _digest(token)
        key = ApiKey(id=digest[:12], name=name, subjects=grants, admin=bool(admin),
                     created_at=time.time() if now is None else float(now))
        self.store.setting(PREFIX + digest, json.dumps(key.to_dict()))
        return token, key

    def authenticate(self, token: str | None) -> ApiKey:
        """The key a bearer token belongs to; AccessDenied if it is missing or unknown."""
        if not token:
            raise AccessDenied("no API key: send `Authorization: Bearer <key>` (create one with `engram keys create`)")
        raw = self.store.setting(PREFIX + _digest(token))
        if raw is None:
            raise AccessDenied("unknown or revoked API key")
        return _load(raw)

    def list(self) -> list[ApiKey]:
        """Every key, oldest first."""
        return sorted((_load(raw) for raw in self.store.settings(PREFIX).values()), key=lambda k: k.created_at)

    def revoke(self, key_id: str) -> ApiKey:
        """Delete the key with this id (the 12-character id that `list` shows)."""
        if not isinstance(key_id, str) or len(key_id) < 6:
            raise InvalidInput("give the key id shown by `engram keys list` (12 characters)")
        found = [(k, raw) for k, raw in self.store.settings(PREFIX).items() if k[len(PREFIX):].startswith(key_id)]
        if not found:
            raise NotFound(f"no API key with id {key_id!r}")
        if len(found) > 1:
            raise InvalidInput(f"{key_id!r} matches {len(found)} keys; give more of the id")
        setting, raw = found[0]
        self.store.setting(setting, delete=True)
        return _load(raw)


def _load(raw: str) -> ApiKey:
    data = json.loads(raw)
    return ApiKey(id=data["id"], name=data.get("name", ""), subjects=tuple(data.get("subjects", ())),
                  admin=bool(data.get("admin", False)), created_at=float(data.get("created_at", 0.0)))
