"""The CLI's JSON contracts (docs/cli.md, whose examples tests/test_docs.py runs) and its error
handling, on real SQLite files."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from docblocks import blocks, commands

from engram.interfaces.cli import main


@pytest.fixture
def run(tmp_path):
    db = str(tmp_path / "cli.db")
    runner = CliRunner()

    def invoke(*args: str, expect: int = 0):
        result = runner.invoke(main, ["--db", db, "--embedder", "hashing", *args], catch_exceptions=False)
        assert result.exit_code == expect, result.output
        return result

    invoke.db = db
    return invoke


def as_json(result):
    return json.loads(result.stdout)


def test_remember_json_contract(run):
    out = as_json(run("remember", "user:42", "Team uses Postgres 16 for all services.", "--source", "chat", "--json"))
    assert out["saved"] is True and isinstance(out["id"], str) and out["reason"] is None
    dup = as_json(run("remember", "user:42", "Team uses Postgres 16 for all services.", "--json"))
    assert dup == {"saved": False, "id": out["id"], "reason": "duplicate"}
    # A fact under the verb's minimum is bad input (the argument schema every surface shares): exit 1.
    short = run("remember", "user:42", "tiny", "--json", expect=1)
    assert "too short: 'fact' needs at least 10 characters" in short.output
    secret = as_json(run("remember", "user:42", "password: hunter2hunter2 for the admin", "--json", expect=3))
    assert secret["saved"] is False and "secret" in secret["reason"]


def test_recall_json_contract(run):
    run("remember", "user:42", "Team uses Postgres 16 for all services.", "--source", "chat 2026-11-02")
    run("remember", "user:42", "Deploys to AWS Lambda with Python 3.12.")
    hits = as_json(run("recall", "user:42", "postgres database", "-k", "2", "--json"))
    assert isinstance(hits, list) and 1 <= len(hits) <= 2
    first = hits[0]
    assert {"id", "text", "score", "kind", "source", "created_at"} <= set(first)
    assert first["text"] == "Team uses Postgres 16 for all services." and first["source"] == "chat 2026-11-02"
    assert all(a["score"] >= b["score"] for a, b in zip(hits, hits[1:]))


def test_forget_previews_without_yes_and_deletes_with_it(run):
    run("remember", "user:42", "Team uses Postgres 16 for all services.")
    run("remember", "user:42", "Deploys to AWS Lambda with Python 3.12.")
    preview = as_json(run("forget", "user:42", "postgres", "--json"))
    assert preview["would_forget"] == 1 and preview["memories"][0]["text"].startswith("Team uses")
    assert len(as_json(run("list", "user:42", "--json"))) == 2
    assert as_json(run("forget", "user:42", "postgres", "--yes", "--json")) == {"forgotten": 1}
    assert [it["text"] for it in as_json(run("list", "user:42", "--json"))] == ["Deploys to AWS Lambda with Python 3.12."]


def test_forget_all_and_stats(run):
    run("remember", "user:1", "First user's only fact here.")
    run("remember", "user:2", "Second user's only fact here.")
    assert as_json(run("forget-all", "user:1", "--yes", "--json")) == {"forgotten": 1}
    stats = as_json(run("stats", "--json"))
    assert stats["per_subject"] == {"user:2": {"items": 1, "history": 0}}


@pytest.mark.parametrize("args", [
    ("remember", "not a subject", "A perfectly fine fact to store."),
    ("recall", "user:1", "   "),
    ("recall", "user:1", "python", "-k", "0"),
    ("forget", "user:1", "  ", "--yes"),
    ("list", "user 1"),
])
def test_bad_input_is_one_line_error_and_nonzero_exit(run, args):
    result = run(*args, expect=1)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_human_output_by_default(run):
    assert run("remember", "user:1", "Team uses Postgres 16 for all services.").stdout.startswith("saved ")
    out = run("recall", "user:1", "postgres").stdout
    assert "Team uses Postgres 16" in out and not out.startswith("[")


def test_engram_db_environment_variable_is_the_default(tmp_path):
    db = tmp_path / "env.db"
    env = {"ENGRAM_DB": str(db), "ENGRAM_EMBEDDER": "hashing", "PATH": ""}
    cmd = [sys.executable, "-m", "engram.interfaces.cli"]
    subprocess.run([*cmd, "remember", "user:1", "Stored through the env var default."], env=env, check=True,
                   capture_output=True)
    listed = subprocess.run([*cmd, "list", "user:1", "--json"], env=env, check=True, capture_output=True, text=True)
    assert json.loads(listed.stdout)[0]["text"] == "Stored through the env var default."
    other = tmp_path / "other.db"
    subprocess.run([*cmd, "--db", str(other), "remember", "user:1", "Stored in the overriding file."], env=env,
                   check=True, capture_output=True)
    assert db.exists() and other.exists()


def test_a_real_subprocess_error_has_no_traceback(tmp_path):
    subprocess.run([sys.executable, "-m", "engram.interfaces.cli", "--db", str(tmp_path / "x.db"), "--embedder",
                    "hashing", "remember", "user:1", "A store to read."], check=True, capture_output=True)
    proc = subprocess.run([sys.executable, "-m", "engram.interfaces.cli", "--db", str(tmp_path / "x.db"), "--embedder",
                           "hashing", "recall", "bad subject", "q"], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stderr.startswith("error: 'subject' must be") and "Traceback" not in proc.stderr


def _json_commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path (`("procedures", "set")`) that takes --json."""
    found: list[tuple[str, ...]] = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += _json_commands(command, (*path, name))
        elif any("--json" in getattr(param, "opts", ()) for param in command.params):
            found.append((*path, name))
    return found


def _documented(page: Path) -> set[tuple[str, ...]]:
    """Command paths run with --json by the page's console examples (global options skipped)."""
    takes_value = {"--db", "--embedder", "--agent"}
    shown: set[tuple[str, ...]] = set()
    for block in blocks(page):
        if block.lang != "console" or block.not_run:
            continue
        for command, _, _ in commands(block):
            for part in command.replace("\\\n", " ").split("|"):
                words = shlex.split(part)
                if "engram" not in words or "--json" not in words:
                    continue
                rest = words[words.index("engram") + 1:]
                while rest and rest[0].startswith("--"):
                    rest = rest[2:] if rest[0] in takes_value else rest[1:]
                shown.update(tuple(rest[:n]) for n in (1, 2))
    return shown


def test_every_json_contract_is_on_docs_cli_md():
    """Each command's --json output is shown on docs/cli.md by an example that runs (the benchmarks,
    which print measurements, are described there instead)."""
    page = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
    shown, text = _documented(page), page.read_text(encoding="utf-8")
    missing = [" ".join(path) for path in _json_commands(main)
               if path not in shown and not (path[0] == "bench" and path[1] in text)]
    assert missing == [], f"--json commands with no example on docs/cli.md: {missing}"
