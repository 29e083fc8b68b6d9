"""`engram demo` runs the whole story offline, on the embedded default (SQLite + bundled model)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_demo_runs_every_part_offline_on_the_default_embedder(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "engram.interfaces.cli", "demo", "--dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=600, env={"PATH": "", "HOME": str(tmp_path),
                               # the code under test, not whichever engram the interpreter has installed
                               **{k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for heading in ("Part 1", "Part 2", "Part 3", "Part 4", "Part 5"):
        assert f"=== {heading}" in out
    assert "recalled the database (Postgres 16) without being told: yes" in out
    assert "not saved: looks like a secret" in out
    assert "not saved: looks like an instruction to the assistant, not a fact" in out
    assert "forget 'postgres' would delete" in out
    assert "found 0 copies" in out
    assert (tmp_path / "demo.db").exists()
