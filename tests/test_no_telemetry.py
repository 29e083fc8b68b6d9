"""No telemetry, proven: the CLI run under an empty HOME (with the real embedding model) writes
nothing there but the store itself (onnxruntime's device id and event queue included)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parent.parent / "src")


def test_the_cli_writes_nothing_under_home_but_the_store(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "PYTHONPATH": SRC}
    commands = [
        ["remember", "user:42", "Moved to Porto last spring."],
        ["recall", "user:42", "where does the user live"],
        ["list", "user:42"],
        ["stats", "--json"],
        ["context", "user:42", "where"],
        ["audit", "user:42", "Porto"],
        ["forget", "user:42", "Porto", "--yes"],
    ]
    for command in commands:
        done = subprocess.run([sys.executable, "-m", "engram.interfaces.cli", *command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode in (0, 1), done.stderr  # audit exits 1 when it finds copies
        assert "Traceback" not in done.stderr, done.stderr
    written = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())
    store = [p for p in written if p.startswith(".local/share/engram/memory.db")]
    assert store and written == store, written  # the default store, nothing else
