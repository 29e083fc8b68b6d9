"""API key grants: whole subjects or prefixes that end at a separator; ambiguous prefixes are refused
when a key is made, and old keys that have one keep working but are flagged."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engram.errors import AccessDenied, InvalidInput
from engram.interfaces.cli import main
from engram.safety.keys import PREFIX, ApiKey, KeyRing, is_ambiguous
from engram.store import open_store


def test_prefix_grant_reaches_whole_name_parts_only(store):
    ring = KeyRing(store)
    token, _ = ring.create(["team:acme:*"])
    key = ring.authenticate(token)
    assert key.allows("team:acme:search") and key.allows("team:acme:search:bots")
    for other in ("team:acmecorp", "team:acme-search", "team:acme", "team:other:x"):
        assert not key.allows(other), other
    with pytest.raises(AccessDenied, match="team:acmecorp"):
        key.check("team:acmecorp")
    kind_wide = ring.authenticate(ring.create(["team:*"])[0])
    assert kind_wide.allows("team:acmecorp") and not kind_wide.allows("teams:x")
    slash = ring.authenticate(ring.create(["repo:acme/*"])[0])
    assert slash.allows("repo:acme/api") and not slash.allows("repo:acme-api")
    assert key.ambiguous == () and "ambiguous" not in key.to_dict()


@pytest.mark.parametrize(("grant", "words"), [
    ("team:acme*", "itself ('team:acme') and/or everything under it ('team:acme:*')"),
    ("team*", "every subject of that kind ('team:*')"),
    ("user:4*", "ambiguous"),
    ("team:*acme:*", "not a subject prefix"),
    ("team :acme:*", "not a subject prefix"),
    ("**", "ambiguous"),
])
def test_ambiguous_or_malformed_prefixes_are_refused_at_creation(store, grant, words):
    ring = KeyRing(store)
    with pytest.raises(InvalidInput) as caught:
        ring.create(["user:1", grant])
    assert words in str(caught.value) and grant in str(caught.value)
    assert ring.list() == []  # nothing half-made


def legacy_key(db: str, grants: list[str], name: str = "old") -> str:
    """A key as the code before the separator rule stored it (ring.create now refuses `team:acme*`)."""
    token = "egk_legacy-" + name
    digest = hashlib.sha256(token.encode()).hexdigest()
    store = open_store(db)
    store.setting(PREFIX + digest, json.dumps({"id": digest[:12], "name": name, "subjects": grants,
                                               "admin": False, "created_at": 1.0}))
    store.close()
    return token


def test_old_ambiguous_keys_keep_working_and_are_flagged(tmp_path: Path):
    db = str(tmp_path / "keys.db")
    token = legacy_key(db, ["team:acme*", "user:1"])
    store = open_store(db)
    key = KeyRing(store).authenticate(token)
    store.close()
    assert key.allows("team:acme-search") and key.allows("team:acmecorp")  # as before: nobody locked out
    assert key.ambiguous == ("team:acme*",) and key.to_dict()["ambiguous"] == ["team:acme*"]
    assert is_ambiguous("team:acme*") and not is_ambiguous("team:acme:*") and not is_ambiguous("*")

    runner = CliRunner()
    table = runner.invoke(main, ["--db", db, "keys", "list"])
    assert table.exit_code == 0, table.output
    assert "ambiguous prefix team:acme*" in table.stdout and "docs/rest.md" in table.stdout
    assert "create replacements" in table.stderr
    listed = json.loads(runner.invoke(main, ["--db", db, "keys", "list", "--json"]).stdout)
    assert listed[0]["ambiguous"] == ["team:acme*"]


def test_cli_refuses_an_ambiguous_grant(tmp_path: Path):
    db = str(tmp_path / "keys.db")
    made = CliRunner().invoke(main, ["--db", db, "keys", "create", "--subject", "team:acme*"])
    assert made.exit_code == 1 and "ambiguous" in made.output and "team:acme:*" in made.output
    good = CliRunner().invoke(main, ["--db", db, "keys", "create", "--subject", "team:acme:*"])
    assert good.exit_code == 0 and good.stdout.strip().startswith("egk_")


def test_api_key_dataclass_flags_without_a_store():
    assert ApiKey("k", subjects=("team:acme*", "team:x:*")).ambiguous == ("team:acme*",)
