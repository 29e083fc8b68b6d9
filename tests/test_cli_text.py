"""CLI text that starts with a dash: `--` ends the options, `-` reads the text from standard input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from engram.core.memory import Memory
from engram.interfaces.cli import main

KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----\n"


def _run(db: str, *args: str, stdin: str | None = None) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["--db", db, "--embedder", "hashing:256", *args], input=stdin)
    return out.exit_code, out.output


def test_double_dash_takes_text_that_starts_with_a_dash(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    code, out = _run(db, "remember", "user:1", "--json", "--", "-5 degrees outside")
    assert code == 0, out
    assert json.loads(out)["saved"] is True
    with Memory(db, embedder="hashing:256") as mem:
        assert [it.text for it in mem.items("user:1")] == ["-5 degrees outside"]


def test_dash_reads_the_text_from_standard_input(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    code, out = _run(db, "remember", "user:1", "-", "--json", stdin="-5 degrees outside\n")
    assert code == 0, out
    assert json.loads(out)["saved"] is True
    with Memory(db, embedder="hashing:256") as mem:
        assert [it.text for it in mem.items("user:1")] == ["-5 degrees outside"]


def test_a_private_key_on_standard_input_reaches_the_secret_filter(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    code, out = _run(db, "remember", "user:1", "-", "--json", stdin=KEY)
    assert code == 3, out  # a refused write
    result = json.loads(out)
    assert result["saved"] is False and "secret" in result["reason"]


def test_help_documents_the_double_dash_and_stdin() -> None:
    top = CliRunner().invoke(main, ["--help"]).output
    sub = CliRunner().invoke(main, ["remember", "--help"]).output
    assert 'engram remember user:42 -- "-5 degrees outside"' in top
    assert "`-` reads the text from standard input" in " ".join(sub.split())


def test_invalid_utf8_on_standard_input_is_a_clear_error_and_nothing_is_stored(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    _run(db, "remember", "user:1", "A first fact to open the store.")
    out = CliRunner().invoke(main, ["--db", db, "--embedder", "hashing:256", "remember", "user:1", "-"],
                             input=b"caf\xe9 is open late at night")
    assert out.exit_code == 1 and "not UTF-8" in out.output and "0xe9" in out.output, out.output
    with Memory(db, embedder="hashing:256") as mem:
        assert [it.text for it in mem.items("user:1")] == ["A first fact to open the store."]
