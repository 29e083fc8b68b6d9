"""examples/agent_memory_practice.py runs offline, end to end, as a user would run it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "agent_memory_practice.py"


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("practice")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ENGRAM_") and k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")}
    env["XDG_DATA_HOME"] = str(folder / "xdg")
    done = subprocess.run([sys.executable, str(SCRIPT), "--db", str(folder / "practice.db")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_four_parts_in_order(output):
    positions = [output.index(f"=== Part {n}:") for n in (1, 2, 3, 4)]
    assert positions == sorted(positions)
    assert "(model: scripted, offline" in output


@pytest.mark.slow
def test_part1_both_stores_hold_every_turn(output):
    part1 = output[output.index("=== Part 1"):output.index("=== Part 2")]
    assert part1.count("[remember -> saved]") == 5
    rows = re.findall(r"^[1-5] .*$", part1, re.M)  # turn | semantic | episodic | episode
    assert len(rows) == 5 and all(r.split().count("yes") == 3 and "NO" not in r.split() for r in rows), rows
    assert "semantic store: 5 embedded facts; episodic store: 7 keyed facts, 5 episodes of session-1" in part1


@pytest.mark.slow
def test_part2_recalls_across_sessions_and_personalises(output):
    part2 = output[output.index("=== Part 2"):output.index("=== Part 3")]
    question = re.search(r"^user:  (.*)$", part2, re.M).group(1)
    reply = re.search(r"^agent: (.*)$", part2, re.M).group(1)
    assert "postgres" not in question.lower() and "Postgres 16" in reply
    assert "concise" in reply and "recommendation system" in reply
    assert "without being told: yes; personalised (mentions the project): yes" in part2


@pytest.mark.slow
def test_part3_compares_ten_queries(output):
    part3 = output[output.index("=== Part 3"):output.index("=== Part 4")]
    assert len(re.findall(r"^\s*\d+\. .*\(category: ", part3, re.M)) == 10
    score = re.search(r"semantic (\d+)/10, episodic by category (\d+)/10", part3)
    assert score and all(0 <= int(n) <= 10 for n in score.groups())
    assert "Conclusion:" in part3


@pytest.mark.slow
def test_part4_decay_changes_ranks(output):
    part4 = output[output.index("=== Part 4"):]
    changed = int(re.search(r"(\d+) rank\(s\) changed", part4).group(1))
    assert changed >= 1 and "was #" in part4
    # With decay the 2-day-old Postgres note rises to #1 from further down; without decay newest wins
    # already keeps the 402-day-old MySQL note off the top (a newer fact on the same matter leads).
    block = part4[part4.index("query: Which database"):part4.index("query: Which ML framework")]
    top_off = re.search(r"top without decay: (.*)", block)
    assert top_off and "MySQL" not in top_off.group(1) and "Postgres 16" in top_off.group(1), block
    assert re.search(r"#1 \(was #\d\)\s+2 days old.*Postgres 16", block), block
    assert not re.search(r"#1 \(.*\).*TensorFlow 1\.x", block.splitlines()[1])
