"""The CLI's verb commands come from engram.verbs: the same limits, checks and replies as REST."""

import json

import pytest
from click.testing import CliRunner

from engram.interfaces.cli import main
from engram.interfaces.commands.verbs import COMMANDS, FLAGS, SURFACE
from engram.verbs import get_verb


@pytest.fixture
def cli(tmp_path):
    db = str(tmp_path / "m.db")

    def run(*args: str, expect: int = 0):
        result = CliRunner().invoke(main, ["--db", db, "--embedder", "hashing:256", *args])
        assert result.exit_code == expect, result.output
        return result.output

    run("remember", "user:1", "Team uses Postgres 16 for all services.")
    return run


def test_recall_k_is_limited_as_the_verb_says(cli):
    top = get_verb("recall").arg("k").schema_on(SURFACE)["maximum"]
    assert len(json.loads(cli("recall", "user:1", "postgres", "-k", str(top), "--json"))) == 1
    out = cli("recall", "user:1", "postgres", "-k", str(top * 10), "--json", expect=1)
    assert out.startswith("error: 'k' must be between 1 and 100")


def test_forget_refuses_a_match_below_the_verbs_minimum_and_previews_under_memories(cli):
    assert "too broad" in cli("forget", "user:1", "Po", "--yes", expect=1)
    preview = json.loads(cli("forget", "user:1", "postgres", "--json"))
    assert preview["would_forget"] == 1 and preview["memories"][0]["text"].startswith("Team uses")
    assert json.loads(cli("list", "user:1", "--json"))[0]["text"].startswith("Team uses")  # nothing deleted


def test_remember_kind_is_one_the_verb_allows(cli):
    assert "'kind' must be one of fact, preference, procedure" in cli(
        "remember", "user:1", "A summary of the whole week here.", "--kind", "summary", expect=1)


def test_every_argument_of_the_verb_is_a_parameter_of_the_command():
    for name in COMMANDS:
        command = main.commands[name]
        params = {p.name for p in command.params}
        wanted = {a.name for a in get_verb(name).args_on(SURFACE)}
        assert wanted | {"as_json"} == params, name
        for param in command.params:
            if param.name in FLAGS:
                assert set(FLAGS[param.name]) <= set(param.opts), (name, param.name)
