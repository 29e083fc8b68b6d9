"""Edges a new user meets: kinds checked, Unicode subjects and their case rule, types checked at
the public boundary, one-line CLI errors for usage mistakes and missing folders."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from engram.errors import InvalidInput, InvalidSubject

SRC = str(Path(__file__).resolve().parent.parent / "src")
U = "user:42"


def test_an_unknown_kind_is_refused_with_the_known_ones(sqlite_memory) -> None:
    with pytest.raises(InvalidInput, match="unknown kind 'bogus': use one of fact, preference"):
        sqlite_memory.remember(U, "Team uses Postgres 16 for all services.", kind="bogus")
    with pytest.raises(InvalidInput, match="unknown kind"):
        sqlite_memory.items(U, kinds=["bogus"])
    assert sqlite_memory.items(U) == []


def test_unicode_subjects_are_accepted_composed_or_not_and_case_is_kept(sqlite_memory) -> None:
    composed = "user:José"
    decomposed = unicodedata.normalize("NFD", composed)
    assert sqlite_memory.remember(composed, "José moved to Porto last spring.").saved
    assert [it.text for it in sqlite_memory.items(decomposed)] == ["José moved to Porto last spring."]
    assert sqlite_memory.remember("user:राम", "राम prefers tea over coffee.").saved
    # The documented case rule: subjects are exact identifiers, so these are two subjects.
    sqlite_memory.remember("User:42", "Written under the capitalised subject.")
    sqlite_memory.remember("user:42", "Written under the lowercase subject.")
    assert [it.text for it in sqlite_memory.items("User:42")] == ["Written under the capitalised subject."]
    assert [it.text for it in sqlite_memory.items("user:42")] == ["Written under the lowercase subject."]
    for bad in ("user:a b", "user:", "user:x\u200b", "no colon"):
        with pytest.raises(InvalidSubject):
            sqlite_memory.remember(bad, "A fact that has nowhere to go.")


@pytest.mark.parametrize("value", ["1", [1], b"x", object(), float("nan")])
def test_a_wrong_type_at_the_public_boundary_is_invalid_input(sqlite_memory, value: object) -> None:
    sqlite_memory.remember(U, "Team uses Postgres 16 for all services.")
    with pytest.raises(InvalidInput, match="min_score"):
        sqlite_memory.recall(U, "postgres", min_score=value)
    if not isinstance(value, (float, str)):  # "1" is a fine agent name
        with pytest.raises(InvalidInput, match="agent"):
            sqlite_memory.remember(U, "Deploys run every Friday afternoon.", agent=value)
    assert sqlite_memory.recall(U, "postgres", min_score=0)  # a number is accepted


def _engram(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "engram.interfaces.cli", "--db", "m.db", "--embedder", "hashing:64",
                           *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [["recall"], ["recall", U, "q", "-k", "many"], ["no-such-command"],
                                  ["remember", U, "x", "--no-such-option"]])
def test_a_usage_error_is_one_line_with_exit_status_2(tmp_path: Path, args: list[str]) -> None:
    done = _engram(tmp_path, *args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "--help" in lines[0], done.stderr


def test_export_finetune_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    from engram.core.memory import Memory
    from engram.embed.hashing import HashingEmbedder

    with Memory(str(tmp_path / "m.db"), embedder=HashingEmbedder(64)) as mem:
        mem.log_episode(U, "Fixed the flaky deploy by pinning the base image", "deploys pass again")
    done = _engram(tmp_path, "export-finetune", U, "-o", "missing/folder/out.jsonl")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "missing/folder" in lines[0] and "No such file or directory" in lines[0], done.stderr
